//! The normalisers at T = 1 and at 1/T over the whole vocabulary after early stages changed a few
//! logits, without a pass over it.
//!
//! Why: with a temperature and a penalty over a short history (what the page's sliders make), the
//! temperature stage's input (T = 1) and the "after temperature" normaliser each took a pass of
//! exps over the vocabulary after the first, though the penalties changed a handful of logits.
//! Here the first pass keeps each block's float32 sums at T = 1 and at 1/T (the raw weights'
//! and the tempered ones', which it also remembers: cached.rs); a block holding a changed id is
//! summed again, in exactly the lanes and order of `lane_sum` (which `sum_weights_all` and
//! `cached::sum_all_into` sum a block in), and the blocks are added up in order as `lane_sum` adds
//! them: z is bit for bit theirs. The first pass puts a block's tail (n not a multiple of
//! `LANES`) in lane 0, `lane_sum` apart: the last block is summed again once.

use super::changed_blocks::{ChangedBlocks, BLOCK};
use super::{exp_f32, lane_sum};

/// Per-block sums of the first pass, and what changed since.
#[derive(Debug, Default)]
pub(crate) struct BlockSums {
    /// The (max, inv_t) bits the sums are at; None when they hold nothing.
    at: Option<(u32, u32)>,
    /// Per block: (Σ e^(l − max), Σ e^((l − max)·inv_t)) in float32, and what changed since.
    changes: ChangedBlocks,
}

impl BlockSums {
    /// The sums no longer hold (new logits, or another first pass).
    pub fn off(&mut self) {
        self.at = None;
        self.changes.pending.clear();
    }

    /// After the first pass wrote every block's sums at (`max`, `inv_t`) into `blocks()`.
    pub fn on(&mut self, max: f32, inv_t: f32, n: usize) {
        self.at = Some((max.to_bits(), inv_t.to_bits()));
        self.changes.reset(n);
    }

    /// Where the first pass puts its block sums.
    pub fn blocks(&mut self) -> &mut Vec<[f32; 2]> {
        &mut self.changes.blocks
    }

    /// A stage changed the logits of `ids` (and only those).
    pub fn changed(&mut self, ids: impl IntoIterator<Item = u32>) {
        if self.at.is_some() {
            self.changes.pending.extend(ids);
        }
    }

    /// Σ e^((l − max)·inv_t) over every id of `processed` (the logits now), when the blocks hold
    /// it: at their max, and at T = 1 or their inv_t. Call only while every id is kept.
    pub fn sum(&mut self, processed: &[f32], max: f32, inv_t: f32) -> Option<f64> {
        let (at_max, at_inv_t) = self.at?;
        if max.to_bits() != at_max {
            return None;
        }
        let column = if inv_t == 1.0 {
            0
        } else if inv_t.to_bits() == at_inv_t {
            1
        } else {
            return None;
        };
        self.bring_up_to_date(processed, max, f32::from_bits(at_inv_t));
        let mut z = 0.0f64;
        for &[raw, tempered] in &self.changes.blocks {
            z += f64::from(if column == 0 { raw } else { tempered });
        }
        Some(z)
    }

    fn bring_up_to_date(&mut self, processed: &[f32], max: f32, inv_t: f32) {
        for b in self.changes.take_stale(processed.len()) {
            let start = b * BLOCK;
            let end = (start + BLOCK).min(processed.len());
            if let (Some(slot), Some(ls)) =
                (self.changes.blocks.get_mut(b), processed.get(start..end))
            {
                // One block through lane_sum is one float32 widened: narrowing it back is exact.
                *slot = [
                    lane_sum(ls, |l| exp_f32(l - max)) as f32,
                    lane_sum(ls, |l| exp_f32((l - max) * inv_t)) as f32,
                ];
            }
        }
    }
}

/// How many blocks of `BLOCK` ids `ids` touch, and how many a vocabulary of `n` has.
pub(crate) fn blocks_touched(ids: impl IntoIterator<Item = u32>, n: usize) -> (usize, usize) {
    let mut touched: Vec<usize> = ids.into_iter().map(|id| id as usize / BLOCK).collect();
    touched.sort_unstable();
    touched.dedup();
    (touched.len(), n.div_ceil(BLOCK))
}

#[cfg(test)]
mod tests {
    use super::super::{raw_and_tempered_blocks, sum_weights_all};
    use super::*;

    /// After one or two rounds of changes (blocks with and without one; the last block, whose
    /// tail of n mod 8 the first pass sums in another order, unchanged in the first round; a
    /// token pushed to the bottom), both normalisers are bit for bit `sum_weights_all`'s over the
    /// changed logits, and another max or inv_t is refused.
    #[test]
    fn patched_block_sums_are_the_full_sums() {
        for n in [1usize, 7, 100]
            .into_iter()
            .chain(1021..1100)
            .chain(3001..3040)
        {
            let mut logits: Vec<f32> = (0..n)
                .map(|i| ((i as u64 * 2_654_435_761) % 10_007) as f32 * 1.3e-3 - 6.0)
                .enumerate()
                .map(|(i, l)| if i + 3 >= n { l * 0.1 + 5.0 } else { l })
                .collect();
            let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let inv_t = 1.0 / 1.2f32;
            let (mut out, mut sums) = (vec![0.0f32; n], BlockSums::default());
            raw_and_tempered_blocks(&logits, max, inv_t, Some(&mut out), sums.blocks());
            sums.on(max, inv_t, n);
            let rounds: [&[usize]; 2] = [&[0, n / 2], &[n / 3, n / 3, n - 1]];
            for (round, ids) in rounds.iter().enumerate() {
                for &i in ids.iter() {
                    if logits[i] < max {
                        logits[i] = if round == 0 { logits[i] / 1.3 } else { -80.0 };
                    }
                }
                sums.changed(ids.iter().map(|&i| i as u32));
                for scale in [1.0, inv_t] {
                    let z = sums.sum(&logits, max, scale).unwrap_or(f64::NAN);
                    let want = sum_weights_all(&logits, max, scale);
                    assert_eq!(z.to_bits(), want.to_bits(), "n {n} round {round} {scale}");
                }
                assert_eq!(sums.sum(&logits, max, 0.5), None);
                assert_eq!(sums.sum(&logits, max + 1.0, 1.0), None);
            }
        }
    }
}
