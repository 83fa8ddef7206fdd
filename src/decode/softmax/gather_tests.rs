//! The gathered sums read runs of consecutive ids from slices and every other id by a lookup:
//! the same bits as looking every id up, whatever the list's shape.

use super::super::cached::e_of;
use super::super::larger;
use super::super::{entropy_blocks, entropy_term, exp_f32, lane_block, logit_of, units};
use super::{entropy_over, gather_sum, gathered_max, looked_up_sum, remembered_sum, run_in};
use proptest::prelude::*;

/// `gather_sum` as it was: every id looked up.
fn looked_up(processed: &[f32], ids: &[u32], max: f32, inv_t: f32, out: &mut [f32]) -> f64 {
    ids.chunks(1024).fold(0.0, |t, block| {
        t + f64::from(looked_up_sum::<true>(processed, block, out, max, inv_t))
    })
}

/// Lists a user's steps give (every id with a few removed, in id order; a sorted prefix; ids
/// past the end) and shapes they do not (reversed, shuffled), on logits with −inf entries.
fn case() -> impl Strategy<Value = (Vec<f32>, Vec<u32>)> {
    let logit = prop_oneof![
        8 => -30.0f32..5.0,
        1 => Just(f32::NEG_INFINITY),
        1 => Just(-0.0f32),
    ];
    (prop::collection::vec(logit, 1..5000), 0u8..5, any::<u64>()).prop_map(|(l, shape, seed)| {
        let n = l.len() as u32;
        let mut next = crate::decode::stages::test_uniforms((seed as u32) | 1);
        let mut ids: Vec<u32> = match shape {
            // A few removed: mostly runs.
            0 => (0..n).filter(|_| next() > 0.002).collect(),
            // Every id (one run per block), some past the end appended.
            1 => (0..n).chain(n..n + 9).collect(),
            // Every other id: no run.
            2 => (0..n).step_by(2).collect(),
            // Descending.
            3 => (0..n).rev().collect(),
            // Runs, then shuffled in places.
            _ => (0..n).collect(),
        };
        if shape == 4 {
            for _ in 0..3 {
                let (a, b) = ((next() * n as f64) as usize, (next() * n as f64) as usize);
                if a < ids.len() && b < ids.len() {
                    ids.swap(a, b);
                }
            }
        }
        (l, ids)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..Default::default() })]

    /// Σ e, the remembered weights, Σ e·s (computed and remembered) and the max: the same bits
    /// as the lookups, and every remembered slot the same.
    #[test]
    fn runs_give_the_lookups_bits(
        (logits, ids) in case(),
        inv_t in prop_oneof![Just(1.0f32), 0.3f32..3.0],
    ) {
        let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        prop_assume!(max.is_finite());
        let n = logits.len();
        let (mut got_e, mut want_e) = (vec![7.0f32; n], vec![7.0f32; n]);
        let got = gather_sum::<true>(&logits, &ids, max, inv_t, &mut got_e);
        let want = looked_up(&logits, &ids, max, inv_t, &mut want_e);
        prop_assert_eq!(got.to_bits(), want.to_bits());
        prop_assert_eq!(
            got_e.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            want_e.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
        );
        prop_assert_eq!(gather_sum::<false>(&logits, &ids, max, inv_t, &mut []).to_bits(), want.to_bits());

        // Remembered weights that are not the exps: a sum that took an exp instead would show.
        let e: Vec<f32> = logits.iter().map(|&l| exp_f32((l - max) * inv_t) * 0.75 + 1e-3).collect();
        let lookups = ids.chunks(1024).fold(0.0, |t, b| t + f64::from(lane_block(b, |id| e_of(&e, id))));
        prop_assert_eq!(remembered_sum(&e, &ids).to_bits(), lookups.to_bits());

        let term = |id: u32| {
            let l = logit_of(&logits, id);
            entropy_term(exp_f32(super::super::above((l - max) * inv_t, -88.0)), l, max, inv_t)
        };
        let want_h = entropy_blocks(&ids, &units(ids.len()), |id, ()| term(id));
        prop_assert_eq!(entropy_over(&logits, None, &ids, max, inv_t).to_bits(), want_h.to_bits());
        let want_h = entropy_blocks(&ids, &units(ids.len()), |id, ()| {
            entropy_term(e_of(&e, id), logit_of(&logits, id), max, inv_t)
        });
        prop_assert_eq!(entropy_over(&logits, Some(&e), &ids, max, inv_t).to_bits(), want_h.to_bits());

        let fold = ids.iter().map(|&id| logit_of(&logits, id)).fold(f32::NEG_INFINITY, larger);
        prop_assert_eq!(gathered_max(&logits, &ids).to_bits(), fold.to_bits());
    }
}

/// A run is consecutive ascending ids below the length, nothing else.
#[test]
fn run_in_finds_only_runs() {
    assert_eq!(run_in(&[3, 4, 5], 6), Some(3..6));
    assert_eq!(run_in(&[3, 4, 5], 5), None, "past the end");
    assert_eq!(run_in(&[3, 5, 4], 6), None, "out of order");
    assert_eq!(run_in(&[5, 4, 3], 6), None, "descending");
    assert_eq!(run_in(&[3, 3, 5], 6), None, "a repeat");
    assert_eq!(run_in(&[], 6), None);
    assert_eq!(
        run_in(&[u32::MAX - 1], (u32::MAX - 1) as usize), // (ids are below 2^20)
        None,
        "the last id past the end"
    );
}

/// The lane maximum is the in-order fold's value, down to the sign of a zero.
#[test]
fn gathered_max_is_the_in_order_fold() {
    let fold = |p: &[f32], ids: &[u32]| {
        ids.iter()
            .map(|&id| p[id as usize])
            .fold(f32::NEG_INFINITY, larger)
    };
    let peaked: Vec<f32> = (0..1000).map(|i| ((i * 37) % 101) as f32 - 50.0).collect();
    // In order the first zero is +0; a fold of the remainder (the last, −0) before the lanes
    // would give −0.
    let zeros = [
        0.0f32,
        -0.0,
        -3.0,
        -0.0,
        f32::NEG_INFINITY,
        0.0,
        -1.0,
        -0.0,
        -0.0,
    ];
    for p in [&peaked[..], &zeros[..]] {
        for skip in [1usize, 2, 3] {
            let ids: Vec<u32> = (0..p.len() as u32)
                .filter(|i| *i as usize % skip == 0)
                .collect();
            let (got, want) = (gathered_max(p, &ids), fold(p, &ids));
            assert_eq!(got.to_bits(), want.to_bits(), "skip {skip}");
        }
    }
    assert_eq!(gathered_max(&zeros, &[]), f32::NEG_INFINITY);
}
