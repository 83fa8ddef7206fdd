use super::*;
use crate::decode::softmax::{entropy_sum, gather_sum, sum_weights};

fn logits(n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| {
            if i % 11 == 3 {
                f32::NEG_INFINITY
            } else {
                ((i * 7919) % 1013) as f32 * 0.037 - 20.0
            }
        })
        .collect()
}

/// `gathered` storing (its sums, the weights by id in `scratch`, the keys) over `ids` of
/// `logits`, with remembered weights when REMEMBERED and top-p's given ones when `given`.
fn stored<const REMEMBERED: bool>(
    logits: &[f32],
    remembered: &[f32],
    ids: &[u32],
    (max, inv_t): (f32, f32),
    given: Option<(&[f32], &[f32])>,
) -> ((f64, f64), Vec<f64>, Vec<u64>) {
    let (mut scratch, mut keys) = (vec![0.0f64; logits.len()], Vec::new());
    let sums = gathered::<REMEMBERED, true>(
        logits,
        remembered,
        ids,
        &mut scratch,
        max,
        inv_t,
        &mut keys,
        given,
    );
    (sums, scratch, keys)
}

/// `gathered` without stores: its sums, and whether it left `keys` untouched.
fn unstored<const REMEMBERED: bool>(
    logits: &[f32],
    remembered: &[f32],
    ids: &[u32],
    (max, inv_t): (f32, f32),
) -> ((f64, f64), bool) {
    let mut none = Vec::new();
    let sums = gathered::<REMEMBERED, false>(
        logits,
        remembered,
        ids,
        &mut [],
        max,
        inv_t,
        &mut none,
        None,
    );
    (sums, none.is_empty())
}

/// The final pass over a kept list with holes (a ban, an end id held back), with exps or with
/// remembered ones: z is `sum_weights`' bit for bit, every weight the per-id `exp_f32`, and
/// Σ e·s `entropy_sum`'s, for lists with tails, −inf entries and blocks; without the stores the
/// same two sums.
#[test]
fn gathered_is_sum_weights_and_entropy_sum_with_and_without_stores() {
    for n in [1usize, 9, 64, 71, 1024, 1031, 1096, 5000] {
        let logits = logits(n);
        // Many holes (every fifth id) and few (a run of three, the first id and the last).
        let many: Vec<u32> = (0..n as u32).filter(|i| i % 5 != 2).collect();
        let few: Vec<u32> = (0..n as u32)
            .filter(|&i| i != 0 && !(40..43).contains(&i) && i + 1 != n as u32)
            .collect();
        for ids in [many, few] {
            for inv_t in [1.0f32, 0.7, 1.0 / 1.3] {
                let max = 17.0;
                let want_weighted = entropy_sum(&logits, Some(&ids), max, inv_t);
                let want_z = sum_weights(&logits, &ids, max, inv_t);
                let mut remembered = vec![0.0f32; n];
                gather_sum::<true>(&logits, &ids, max, inv_t, &mut remembered);
                for with in [false, true] {
                    let at = (max, inv_t);
                    let (((z, weighted), scratch, keys), ((z0, weighted0), untouched)) = if with {
                        let r = &remembered;
                        (
                            stored::<true>(&logits, r, &ids, at, None),
                            unstored::<true>(&logits, r, &ids, at),
                        )
                    } else {
                        (
                            stored::<false>(&logits, &[], &ids, at, None),
                            unstored::<false>(&logits, &[], &ids, at),
                        )
                    };
                    assert_eq!(z.to_bits(), want_z.to_bits(), "n {n}");
                    assert_eq!(weighted.to_bits(), want_weighted.to_bits());
                    assert_eq!(
                        (z0.to_bits(), weighted0.to_bits()),
                        (z.to_bits(), weighted.to_bits())
                    );
                    assert!(untouched);
                    assert_eq!(keys.len(), ids.len());
                    for (&id, &k) in ids.iter().zip(&keys) {
                        let e = exp_f32((logits[id as usize] - max) * inv_t);
                        assert_eq!(k, key(e, id));
                        assert_eq!(scratch[id as usize], f64::from(e));
                    }
                }
            }
        }
    }
}

/// The holes of an ascending kept list are exactly the ids it lacks; a list that is not
/// ascending, or lacks too many, has none.
#[test]
fn holes_are_the_missing_ids() {
    let n = 1000usize;
    for missing in [
        vec![],
        vec![0],
        vec![999],
        vec![0, 1, 2, 500, 998, 999],
        vec![7, 9, 11],
    ] {
        let kept: Vec<u32> = (0..n as u32).filter(|i| !missing.contains(i)).collect();
        assert_eq!(holes(&kept, n), Some(missing.clone()));
    }
    let kept: Vec<u32> = (HOLES_MAX as u32 + 1..n as u32).collect();
    assert_eq!(holes(&kept, n), None);
    let kept: Vec<u32> = (0..HOLES_MAX as u32)
        .chain(HOLES_MAX as u32 + HOLES_MAX as u32..n as u32)
        .collect();
    assert_eq!(holes(&kept, n).map(|h| h.len()), Some(HOLES_MAX));
    let mut kept: Vec<u32> = (0..n as u32).collect();
    kept.swap(3, 4);
    assert_eq!(holes(&kept, n), None);
}

/// `ascending` agrees with the standard check wherever the one descent (or tie) falls: first
/// pair, last pair, either side of a block's edge, on lists of ten lengths from 0 to 12,000.
#[test]
fn ascending_is_is_sorted_strictly() {
    for n in [0usize, 1, 2, 3, 4095, 4096, 4097, 4098, 8193, 12_000] {
        let ids: Vec<u32> = (0..n as u32).map(|i| 10 + i * 2).collect();
        assert!(ascending(&ids), "n {n}");
        for at in [
            0usize,
            1,
            4094,
            4095,
            4096,
            4097,
            8191,
            8192,
            n.saturating_sub(2),
        ] {
            if at + 1 >= n {
                continue;
            }
            for swap in [false, true] {
                let mut bad = ids.clone();
                // A tie (swap false) or a descent (swap true) between positions at and at + 1.
                bad[at + 1] = if swap { bad[at] - 1 } else { bad[at] };
                let want = bad.is_sorted_by(|a, b| a < b);
                assert_eq!(ascending(&bad), want, "n {n} at {at} swap {swap}");
                assert!(!want);
            }
        }
    }
}

/// With top-p's walk's logits and weights of a list in weight order given (`ordered`), the final
/// pass reads them instead of gathering and taking the exps: the same z, Σ e·s, keys and
/// weights, bit for bit, for lists with and without tails and blocks.
#[test]
fn given_weights_in_order_are_the_gathered_pass() {
    for n in [9usize, 1031, 5000] {
        let logits = logits(n);
        let (max, inv_t) = (17.0f32, 0.5f32);
        for len in [1usize, 8, 1029, n - n / 11 - 1] {
            // The best `len` finite logits, best first (ties by lower id), as top-p keeps them.
            let mut ids: Vec<u32> = (0..n as u32)
                .filter(|&i| logits[i as usize].is_finite())
                .collect();
            ids.sort_by(|&a, &b| {
                logits[b as usize]
                    .total_cmp(&logits[a as usize])
                    .then(a.cmp(&b))
            });
            ids.truncate(len);
            let ls: Vec<f32> = ids.iter().map(|&i| logits[i as usize]).collect();
            let es: Vec<f32> = ls.iter().map(|&l| exp_f32((l - max) * inv_t)).collect();
            let run = |given: Option<(&[f32], &[f32])>| {
                let (sums, scratch, keys) =
                    stored::<false>(&logits, &[], &ids, (max, inv_t), given);
                (
                    sums.0.to_bits(),
                    sums.1.to_bits(),
                    keys,
                    scratch.iter().map(|w| w.to_bits()).collect::<Vec<_>>(),
                )
            };
            assert_eq!(run(Some((&ls, &es))), run(None), "n {n} len {len}");
        }
    }
}
