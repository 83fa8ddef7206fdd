use super::*;
use crate::decode::softmax::{cached::sum_ids_into, entropy_sum, sum_weights};

/// The final pass over a kept list with holes (a ban, an end id held back), with exps or with
/// remembered ones: z is `sum_weights`' bit for bit, every weight the per-id `exp_f32`, and
/// Σ e·s `entropy_sum`'s, for lists with tails, −inf entries and blocks.
#[test]
fn gathered_final_is_sum_weights_and_entropy_sum() {
    for n in [1usize, 9, 64, 71, 1024, 1031, 1096, 5000] {
        let logits: Vec<f32> = (0..n)
            .map(|i| {
                if i % 11 == 3 {
                    f32::NEG_INFINITY
                } else {
                    ((i * 7919) % 1013) as f32 * 0.037 - 20.0
                }
            })
            .collect();
        let ids: Vec<u32> = (0..n as u32).filter(|i| i % 5 != 2).collect();
        for inv_t in [1.0f32, 0.7, 1.0 / 1.3] {
            let max = 17.0;
            let want_weighted = entropy_sum(&logits, Some(&ids), max, inv_t);
            let want_z = sum_weights(&logits, &ids, max, inv_t);
            let mut remembered = vec![0.0f32; n];
            sum_ids_into(&logits, &ids, max, inv_t, &mut remembered);
            for with in [false, true] {
                let (mut scratch, mut keys) = (vec![0.0f64; n], Vec::new());
                let (z, weighted) = if with {
                    gathered::<true>(
                        &logits,
                        &remembered,
                        &ids,
                        &mut scratch,
                        max,
                        inv_t,
                        &mut keys,
                    )
                } else {
                    gathered::<false>(&logits, &[], &ids, &mut scratch, max, inv_t, &mut keys)
                };
                assert_eq!(z.to_bits(), want_z.to_bits(), "n {n}");
                assert_eq!(weighted.to_bits(), want_weighted.to_bits());
                for (&id, &k) in ids.iter().zip(&keys) {
                    let e = exp_f32((logits[id as usize] - max) * inv_t);
                    assert_eq!(k, key(e, id));
                    assert_eq!(scratch[id as usize], f64::from(e));
                }
            }
        }
    }
}
