//! Every remembered-exp sum is bit for bit the pass it stands in for, on arrays with tails,
//! blocks, −inf entries and ties, through every id and through a kept list with holes.

use super::super::{
    entropy_sum as entropy_by_exp, gather_sum, raw_and_tempered_sums, raw_sums, scan, sum_weights,
    sum_weights_all, weights_keys_and_sums,
};
use super::*;

fn logits(n: usize) -> Vec<f32> {
    (0..n)
        .map(|i| match i % 13 {
            4 => f32::NEG_INFINITY,
            7 => 1.5, // ties
            _ => ((i * 7919) % 1013) as f32 * 0.037 - 20.0,
        })
        .collect()
}

#[test]
fn remembered_sums_are_the_exp_passes_bit_for_bit() {
    for n in [1usize, 7, 8, 9, 63, 65, 1023, 1024, 1031, 5000] {
        let l = logits(n);
        let (max, _) = scan(&l);
        let ids: Vec<u32> = (0..n as u32).filter(|i| i % 5 != 2).collect();
        for inv_t in [1.0f32, 1.0 / 0.7, 1.0 / 1.3, 0.2] {
            let bits = |x: f64| x.to_bits();
            // Every id: filled by the normaliser's pass, read back by each later pass.
            let mut e = vec![9.0f32; n];
            let z = sum_all_into(&l, max, inv_t, &mut e);
            assert_eq!(bits(z), bits(sum_weights_all(&l, max, inv_t)), "n {n}");
            for (i, &w) in e.iter().enumerate() {
                assert_eq!(w.to_bits(), exp_f32((l[i] - max) * inv_t).to_bits());
            }
            assert_eq!(bits(sum_all(&e)), bits(z));
            assert_eq!(
                bits(sum_ids(&e, &ids)),
                bits(sum_weights(&l, &ids, max, inv_t))
            );
            for which in [None, Some(ids.as_slice())] {
                assert_eq!(
                    bits(entropy_sum(&l, &e, which, max, inv_t)),
                    bits(entropy_by_exp(&l, which, max, inv_t)),
                    "n {n} inv_t {inv_t}"
                );
            }
            let (mut out, mut keys) = (vec![0.0f64; n], Vec::new());
            let (mut out2, mut keys2) = (vec![0.0f64; n], Vec::new());
            let a = weights_keys_and_sums(&l, max, inv_t, None, &mut out, &mut keys);
            let b = weights_keys_and_sums(&l, max, inv_t, Some(&e), &mut out2, &mut keys2);
            assert_eq!((bits(a.0), bits(a.1)), (bits(b.0), bits(b.1)));
            assert_eq!((out, keys), (out2, keys2));
            // Through a kept list: filled by the gathered normaliser, read by the final weights.
            let mut e2 = vec![9.0f32; n];
            let z2 = gather_sum::<true>(&l, &ids, max, inv_t, &mut e2);
            assert_eq!(bits(z2), bits(sum_weights(&l, &ids, max, inv_t)));
            assert_eq!(bits(sum_ids(&e2, &ids)), bits(z2));
            for &id in &ids {
                let want = exp_f32((l[id as usize] - max) * inv_t);
                assert_eq!(e2[id as usize].to_bits(), want.to_bits());
            }
            // The first pass remembers its weights without changing its sums.
            let mut e3 = vec![9.0f32; n];
            let t = raw_and_tempered_sums(&l, max, inv_t, Some(&mut e3), None);
            let u = raw_and_tempered_sums(&l, max, inv_t, None, None);
            assert_eq!(
                (bits(t.0), bits(t.1), bits(t.2)),
                (bits(u.0), bits(u.1), bits(u.2))
            );
            assert_eq!(e3, e);
        }
        let mut e4 = vec![9.0f32; n];
        let r = raw_sums(&l, max, Some(&mut e4));
        let s = raw_sums(&l, max, None);
        assert_eq!(
            (r.0.to_bits(), r.1.to_bits()),
            (s.0.to_bits(), s.1.to_bits())
        );
        let mut e = vec![0.0f32; n];
        sum_all_into(&l, max, 1.0, &mut e);
        assert_eq!(e4, e);
    }
}

/// A refresh after a stage changed some logits gives those ids the weights a new pass would.
#[test]
fn a_refresh_is_a_new_pass_for_the_changed_ids() {
    let mut l = logits(3000);
    let (max, _) = scan(&l);
    let mut exps = Exps {
        wanted: true,
        ..Exps::default()
    };
    let n = l.len();
    if let Some(out) = exps.slots(n) {
        sum_all_into(&l, max, 1.0, out);
    }
    exps.filled(max, 1.0, true);
    let changed = [3u32, 17, 2999, 4, 17];
    for &id in &changed {
        l[id as usize] = l[id as usize] * 1.3 - 0.5;
    }
    exps.refresh(&l, changed);
    let e = exps.hit(max, 1.0, true).unwrap_or_default();
    let mut want = vec![0.0f32; n];
    assert_eq!(
        sum_all(&e[..n]).to_bits(),
        sum_all_into(&l, max, 1.0, &mut want).to_bits()
    );
    assert!(exps.hit(max, 0.5, false).is_none());
    assert!(exps.hit(max.next_up(), 1.0, false).is_none());
}
