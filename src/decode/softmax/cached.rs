//! Remembered exps: the float32 weights e = exp_f32((l − max)·inv_t) of one pass, per id, so a
//! later pass at the same (max, inv_t) reads them instead of computing the exp again.
//!
//! Why: after a bias, the penalties or min_new_tokens, several passes (a stage's input
//! normaliser, typical-p's entropy and scores, the dynamic temperature's sums, the final weights,
//! the trace's "after temperature" normaliser) each recomputed the same exps over the vocabulary.
//! The exps are the cost; the sums are cheap. Every function here sums the remembered weights in
//! exactly the lanes, blocks and order of the function it stands in for (named on each), so z,
//! Σ e·s and every weight are bit for bit what the exps would give, and so is every draw.

use super::{above, entropy_blocks, exp_f32, logit_of, EXP_MIN, LANES};

/// The remembered weights and what they hold.
#[derive(Debug, Default)]
pub(crate) struct Exps {
    /// Per id: exp_f32((processed − max)·inv_t) at `at`, for the ids `at` covers.
    e: Vec<f32>,
    at: Option<At>,
    /// Whether this step has a later pass that can read them (set per step by `Decoder::run`):
    /// filling costs a store per token, wasted when nothing reads it.
    pub wanted: bool,
}

#[derive(Debug, Clone, Copy)]
struct At {
    max: u32,
    inv_t: u32,
    /// Every id (a contiguous pass filled them), or only the ids kept when they were filled
    /// (a gathered pass; kept only shrinks within a step, so those cover every later kept id).
    all: bool,
}

impl Exps {
    /// Forgets the weights (new logits, or logits changed without `refresh`).
    pub fn invalidate(&mut self) {
        self.at = None;
    }

    /// The weights at (max, inv_t), if remembered for every id (`all`) or for the kept ids.
    pub fn hit(&self, max: f32, inv_t: f32, all: bool) -> Option<&[f32]> {
        let at = self.at?;
        (at.max == max.to_bits() && at.inv_t == inv_t.to_bits() && (at.all || !all))
            .then_some(self.e.as_slice())
    }

    /// A buffer of `n` slots to fill, when wanted; then `filled` says what it holds.
    pub fn slots(&mut self, n: usize) -> Option<&mut [f32]> {
        if !self.wanted {
            return None;
        }
        self.at = None;
        if self.e.len() < n {
            self.e.resize(n, 0.0);
        }
        self.e.get_mut(..n)
    }

    pub fn filled(&mut self, max: f32, inv_t: f32, all: bool) {
        self.at = Some(At {
            max: max.to_bits(),
            inv_t: inv_t.to_bits(),
            all,
        });
    }

    /// After a stage changed the logits of `ids` (and only those): their weights again.
    pub fn refresh(&mut self, processed: &[f32], ids: impl IntoIterator<Item = u32>) {
        let Some(at) = self.at else { return };
        let (max, inv_t) = (f32::from_bits(at.max), f32::from_bits(at.inv_t));
        for id in ids {
            if let Some(slot) = self.e.get_mut(id as usize) {
                *slot = exp_f32((logit_of(processed, id) - max) * inv_t);
            }
        }
    }
}

/// Token `id`'s remembered weight, 0 past the end (as `logit_of`'s −inf gives).
#[inline(always)]
pub(crate) fn e_of(e: &[f32], id: u32) -> f32 {
    e.get(id as usize).copied().unwrap_or(0.0)
}

/// `sum_weights_all` (lane_sum) over the remembered weights of every id.
pub(crate) fn sum_all(e: &[f32]) -> f64 {
    super::lane_sum(e, |x| x)
}

/// `sum_weights_all`, remembering each weight in `out` (same length as `processed`).
pub(crate) fn sum_all_into(processed: &[f32], max: f32, inv_t: f32, out: &mut [f32]) -> f64 {
    let mut total = 0.0f64;
    for (block, slots) in processed.chunks(1024).zip(out.chunks_mut(1024)) {
        let mut acc = [0.0f32; LANES];
        let mut lanes = block.chunks_exact(LANES);
        let mut outs = slots.chunks_exact_mut(LANES);
        for (group, dst) in (&mut lanes).zip(&mut outs) {
            for ((a, d), &l) in acc.iter_mut().zip(dst.iter_mut()).zip(group) {
                let w = exp_f32((l - max) * inv_t);
                *d = w;
                *a += w;
            }
        }
        let rest = outs.into_remainder();
        for (d, &l) in rest.iter_mut().zip(lanes.remainder()) {
            *d = exp_f32((l - max) * inv_t);
        }
        let tail: f32 = rest.iter().copied().sum();
        total += f64::from(acc.iter().sum::<f32>() + tail);
    }
    total
}

/// `sum_weights` (a gather through `ids`) over the remembered weights.
pub(crate) fn sum_ids(e: &[f32], ids: &[u32]) -> f64 {
    super::gather::remembered_sum(e, ids)
}

/// `entropy_sum`: Σ e·s over `ids` (every id when None) with e remembered, s = (l − max)·inv_t
/// (e = exp_f32(s) there: the clamp below −87 changes neither e nor, since e is then 0, e·s).
pub(crate) fn entropy_sum(
    processed: &[f32],
    e: &[f32],
    ids: Option<&[u32]>,
    max: f32,
    inv_t: f32,
) -> f64 {
    let scaled = |l: f32| above((l - max) * inv_t, EXP_MIN - 1.0);
    match ids {
        None => {
            let e = e.get(..processed.len()).unwrap_or_default();
            entropy_blocks(processed, e, |l, w| w * scaled(l))
        }
        Some(ids) => super::gather::entropy_over(processed, Some(e), ids, max, inv_t),
    }
}

#[cfg(test)]
#[path = "cached_tests.rs"]
mod tests;
