//! Per-block float32 sums of a pass over the vocabulary and which blocks changed since: the
//! bookkeeping patched.rs (the raw weights as keys, T = 1) and blocks.rs (the raw and tempered
//! sums, T ≠ 1) share. A block holding a changed id is summed again by its owner; every other
//! block keeps the pass's sums.

use super::LANES;

/// Ids per block.
pub(super) const BLOCK: usize = 1024;

#[derive(Debug, Default)]
pub(crate) struct ChangedBlocks {
    /// Per block of `BLOCK` ids: the owner's two float32 sums, as of the last `take_stale`.
    pub blocks: Vec<[f32; 2]>,
    /// Ids whose logits changed since the blocks were last brought up to date.
    pub pending: Vec<u32>,
    /// The pass sums a block's tail (n not a multiple of `LANES`) into lane 0, `lane_sum` apart:
    /// the last block is summed again once.
    tail_stale: bool,
}

impl ChangedBlocks {
    /// After a pass over `n` ids wrote every block's sums into `blocks`.
    pub fn reset(&mut self, n: usize) {
        self.pending.clear();
        self.tail_stale = n % LANES != 0;
    }

    /// The blocks to sum again over `n` ids (each once, in order): those holding a pending id,
    /// and the last block if its sums are still in the pass's order. Clears both.
    pub fn take_stale(&mut self, n: usize) -> Vec<usize> {
        let mut stale: Vec<usize> = self.pending.iter().map(|&id| id as usize / BLOCK).collect();
        self.pending.clear();
        if self.tail_stale {
            stale.push(n.saturating_sub(1) / BLOCK);
            self.tail_stale = false;
        }
        stale.sort_unstable();
        stale.dedup();
        stale
    }
}
