//! The distribution a few listed removals (bans, end ids held back) and the penalties leave at
//! T = 1, read from what the raw pass and validation kept rather than by a pass over the kept
//! ids: its sums from the raw pass's block sums (softmax/patched.rs), its max from the blocks'
//! maxima.

use super::candidates::{Work, KEPT};
use super::softmax::{larger, MAX_BLOCK};

impl Work {
    /// The final (z, Σ e·s) at (`max`, T = 1) from the raw pass's block sums, patched where
    /// stages changed logits or removed ids (softmax/patched.rs), when it kept them and every
    /// removal since was one it was told of; the raw pass's remembered exps stand in for exps.
    pub fn raw_blocks_sums(&mut self, max: f32) -> Option<(f64, f64)> {
        let n = self.processed.len();
        if self.inv_t != 1.0 || self.kept.len() + self.raw_blocks.removed_count() != n {
            return None;
        }
        let remembered = (self.raw_blocks.at()).and_then(|at| self.exps.hit(at, 1.0, true));
        self.raw_blocks.sums_at(&self.processed, remembered, max)
    }

    /// The max over `kept` when only the few ids patched.rs was told of were removed: the
    /// untouched blocks' maxima as validation found them, the blocks holding a removed id or a
    /// changed logit read again (each a contiguous slice). None otherwise, or when the max is a
    /// zero (whose sign `gathered_max`'s in-order fold decides).
    pub(crate) fn max_by_blocks(&self) -> Option<f32> {
        let n = self.processed.len();
        let removed = self.raw_blocks.removed_ids()?;
        if self.block_max.len() != n.div_ceil(MAX_BLOCK)
            || self.input_removed != 0
            || self.kept.len() + removed.len() != n
        {
            return None;
        }
        let mut max = f32::NEG_INFINITY;
        for (b, &m) in self.block_max.iter().enumerate() {
            let touched =
                m == f32::INFINITY || (removed.iter()).any(|&id| id as usize / MAX_BLOCK == b);
            let m = if touched {
                let start = b * MAX_BLOCK;
                let end = (start + MAX_BLOCK).min(n);
                (start..end)
                    .filter(|&id| self.removed_by.get(id) == Some(&KEPT))
                    .filter_map(|id| self.processed.get(id))
                    .copied()
                    .fold(f32::NEG_INFINITY, larger)
            } else {
                m
            };
            max = larger(max, m);
        }
        (max != 0.0).then_some(max)
    }
}
