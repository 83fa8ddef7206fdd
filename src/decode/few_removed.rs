//! The distribution a few listed removals (bans, end ids held back) and the penalties leave at
//! T = 1, read from what the raw pass and validation kept rather than by a pass over the kept
//! ids: its sums from the raw pass's block sums (softmax/patched.rs), its max from the blocks'
//! maxima.

use super::candidates::{Work, KEPT};
use super::softmax::{larger, MAX_BLOCK};

impl Work {
    /// Whether every removal this step was a listed one (`listed_removed`), from a vocabulary
    /// with no −inf input: then what is kept is every id but those.
    fn only_listed_removed(&self) -> bool {
        self.input_removed == 0
            && self.kept.len() + self.listed_removed.len() == self.processed.len()
    }

    /// The final (z, Σ e·s) at (`max`, T = 1) from the raw pass's block sums, patched where
    /// stages changed logits or removed listed ids (softmax/patched.rs), when it kept them; the
    /// raw pass's remembered exps stand in for exps.
    pub fn raw_blocks_sums(&mut self, max: f32) -> Option<(f64, f64)> {
        if self.inv_t != 1.0 || !self.only_listed_removed() {
            return None;
        }
        let remembered = (self.raw_blocks.at()).and_then(|at| self.exps.hit(at, 1.0, true));
        (self.raw_blocks).sums_at(&self.processed, remembered, &self.listed_removed, max)
    }

    /// The max over `kept` when only listed ids were removed: the
    /// untouched blocks' maxima as validation found them, the blocks holding a removed id or a
    /// changed logit read again (each a contiguous slice). None otherwise, or when the max is a
    /// zero (whose sign `gathered_max`'s in-order fold decides).
    pub(crate) fn max_by_blocks(&self) -> Option<f32> {
        let n = self.processed.len();
        if self.block_max.len() != n.div_ceil(MAX_BLOCK) || !self.only_listed_removed() {
            return None;
        }
        let removed = &self.listed_removed;
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
