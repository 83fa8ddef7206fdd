//! The working set: which tokens are still kept, their processed logits, and who removed the rest.
//! Scratch buffers live here and are reused across calls, so a loop of steps allocates nothing new.
//!
//! Ordering is by selection, never by sorting the whole vocabulary: ranking.rs extends a sorted
//! prefix only as far as a stage actually walks and finds the top k in one pass (the selection
//! helpers are in select.rs; re-exported here, where the stages look for them).

use super::draw::{key, key_weight};
use super::gathered;
pub(crate) use super::select::{by_logit, extend_sorted};
use super::softmax::{
    cached, final_weight, gather_sum, gathered_max, scan, sum_weights, sum_weights_all, BlockSums,
    Exps, RawBlocks, LANES, MAX_BLOCK,
};

/// The final distribution's unnormalised weights by id: in `scratch` (f64), in order keys in id
/// order (the same float32 weight, so the same f64), or nowhere: computed again from the logit
/// as the one-read pass that summed them computed it (`Work::weights_by_exp`).
#[derive(Debug, Clone, Copy)]
pub(crate) enum Weights<'a> {
    ById(&'a [f64]),
    InKeys(&'a [u64]),
    ByExp {
        logits: &'a [f32],
        max: f32,
        inv_t: f32,
    },
}

impl Weights<'_> {
    /// Token `id`'s weight, None past the end.
    #[inline]
    pub fn get(&self, id: u32) -> Option<f64> {
        match self {
            Weights::ById(w) => w.get(id as usize).copied(),
            Weights::InKeys(keys) => keys.get(id as usize).map(|&k| key_weight(k)),
            Weights::ByExp { logits, max, inv_t } => logits
                .get(id as usize)
                .map(|&l| f64::from(final_weight(l, *max, *inv_t))),
        }
    }

    /// Token `id`'s weight, 0 past the end.
    #[inline]
    pub fn of(&self, id: u32) -> f64 {
        self.get(id).unwrap_or(0.0)
    }
}

/// `removed_by` value of a token still kept.
pub(crate) const KEPT: u8 = 0;
/// `removed_by` value of a token whose input logit was −inf.
pub(crate) const REMOVED_BY_INPUT: u8 = u8::MAX;

#[derive(Debug, Default)]
pub(crate) struct Work {
    /// Per id: the logit after logit_bias and penalties (what filters rank by).
    pub processed: Vec<f32>,
    /// Per id: `KEPT`, `REMOVED_BY_INPUT`, or 1 + the index of the removing stage in the engine order.
    pub removed_by: Vec<u8>,
    /// Ids still kept. `kept[..sorted]` are the `sorted` best by (processed desc, id asc), in order.
    pub kept: Vec<u32>,
    pub sorted: usize,
    /// Per id scratch (exp values, typical scores). Not zeroed between calls: written before read.
    pub scratch: Vec<f64>,
    /// Per id second scratch (typical-p's probabilities). Not zeroed: written before read.
    pub p: Vec<f64>,
    /// Second id list for orders other than by logit (typical's score order, top-k's best).
    pub aux: Vec<u32>,
    /// Ids at or above a logit cut and their logits (top-p's pre-filter,
    /// `candidates_above_into`): they only grow; the first `count` are the head.
    pub above: Vec<u32>,
    pub above_logits: Vec<f32>,
    /// top-p's head: its sort keys, the radix sort's second buffer and the kept ids
    /// (stages/top_p_head.rs), reused between calls.
    pub top_p_head: super::stages::top_p_head::HeadBuffers,
    /// The ids `remove_ids` removed this step (bans, end ids held back), each once: a
    /// contiguous pass reads the runs around them (few_removed.rs, the trace's "after
    /// temperature" normaliser).
    pub listed_removed: Vec<u32>,
    /// The max input logit of each block of `MAX_BLOCK` ids (validation's scan); +inf where a
    /// stage changed a logit since. Valid while it has one entry per block (`reset`, for tests,
    /// leaves it empty).
    pub block_max: Vec<f32>,
    /// The final distribution's order keys (see draw.rs), one per kept token.
    pub keys: Vec<u64>,
    /// The draw's per-bucket tables (draw.rs), reused between calls.
    pub draw_tables: Vec<u64>,
    /// The final weights are in `keys` (id order: every id kept), not in `scratch`: see
    /// `final_weights`.
    pub weights_in_keys: bool,
    /// The final weights are stored nowhere yet: every id is kept and id i's weight is
    /// `final_weight(processed[i], max, inv_t)` at this (max, inv_t), as the one-read pass that
    /// summed them computed it (softmax/fused.rs, patched.rs). `keys` holds them only after
    /// `materialise_keys`; the final pass on a peaked distribution never needs that
    /// (head.rs `heap_head_gated_by_exp`).
    pub weights_by_exp: Option<(f32, f32)>,
    /// With `weights_by_exp`: the ids not kept, ascending (empty: every id is kept). `kept` is
    /// then every other id in id order (final_pass.rs `with_normaliser`).
    pub holes: Vec<u32>,
    /// The penalties stage's input at the ids it may change (its history), by id ascending: the
    /// trace's view of that stage (`processed` holds them penalised).
    pub before_penalties: Vec<(u32, f32)>,
    /// The current scale: 1 before temperature, 1/T after.
    pub inv_t: f32,
    /// True while `kept` is every finite id (no stage removed anything): sums can then run over
    /// `processed` contiguously, where they vectorise.
    pub all_kept: bool,
    /// How many input logits were −inf (never kept).
    pub input_removed: usize,
    /// The exps of the last pass that remembered them (softmax/cached.rs).
    pub exps: Exps,
    /// The raw softmax's weights exp_f32(l − max) of the input logits, by id, when the first
    /// pass remembered them beside the tempered ones for a long listing (first_pass.rs
    /// `lists_most`): the trace's raw column reads them. Never refreshed: the input logits do
    /// not change within a step.
    pub raw_exps: Exps,
    /// Whether `keys` hold the raw weights, patched where stages changed logits (patched.rs).
    pub raw_blocks: RawBlocks,
    /// The first pass's per-block sums at T = 1 and 1/T, patched where stages changed logits
    /// (softmax/blocks.rs).
    pub blocks: BlockSums,
    /// Cached max processed logit of `kept`.
    max: Option<f32>,
    /// Cached normaliser: (inv_t it was computed at, z, max).
    norm: Option<(f32, f64, f32)>,
}

impl Work {
    /// Resets the working set for new logits; reuses every buffer.
    #[cfg(test)]
    pub fn reset(&mut self, logits: &[f32], max: f32) {
        let input_removed = logits.iter().filter(|&&l| l == f32::NEG_INFINITY).count();
        self.block_max.clear();
        self.processed.clear();
        self.processed.extend_from_slice(logits);
        self.reset_scanned(logits, max, input_removed);
    }

    /// `reset` when validation's scan has counted the −inf logits and copied them into
    /// `processed` (softmax `scan_input`).
    pub fn reset_scanned(&mut self, logits: &[f32], max: f32, input_removed: usize) {
        debug_assert_eq!(self.processed.len(), logits.len());
        self.removed_by.clear();
        if input_removed == 0 {
            self.removed_by.resize(logits.len(), KEPT);
        } else {
            // Branch-free, so it vectorises: 255 for a −inf input, 0 (kept) otherwise.
            self.removed_by.extend(
                logits
                    .iter()
                    .map(|&l| u8::from(l == f32::NEG_INFINITY) * REMOVED_BY_INPUT),
            );
        }
        self.input_removed = input_removed;
        self.weights_in_keys = false;
        self.weights_by_exp = None;
        self.holes.clear();
        self.listed_removed.clear();
        self.before_penalties.clear();
        self.kept.clear();
        if self.input_removed == 0 {
            self.kept.extend(0..logits.len() as u32);
        } else {
            self.kept.extend(
                logits
                    .iter()
                    .enumerate()
                    .filter(|(_, &l)| l != f32::NEG_INFINITY)
                    .map(|(i, _)| i as u32),
            );
        }
        if self.scratch.len() < logits.len() {
            self.scratch.resize(logits.len(), 0.0);
        }
        self.sorted = 0;
        self.inv_t = 1.0;
        self.all_kept = true;
        self.max = Some(max);
        self.norm = None;
        self.exps.invalidate();
        self.raw_exps.invalidate();
        self.top_p_head.at = None;
        self.raw_blocks.off();
        self.blocks.off();
    }

    /// The final weights by id, wherever the final pass left them.
    pub fn final_weights(&self) -> Weights<'_> {
        if let Some((max, inv_t)) = self.weights_by_exp {
            Weights::ByExp {
                logits: &self.processed,
                max,
                inv_t,
            }
        } else if self.weights_in_keys {
            Weights::InKeys(&self.keys)
        } else {
            Weights::ById(&self.scratch)
        }
    }

    /// Writes every id's order key (in id order, holding its weight) when the weights are stored
    /// nowhere yet (`weights_by_exp`): what a reader of every key needs. From the remembered
    /// exps when a pass kept them at this scale (the penalties' raw pass), else by exps.
    pub fn materialise_keys(&mut self) {
        if let Some((max, inv_t)) = self.weights_by_exp.take() {
            if !self.holes.is_empty() {
                // Not every id is kept: the keys in `kept`'s order, the weights in `scratch`.
                self.holes.clear();
                let mut keys = std::mem::take(&mut self.keys);
                gathered::weights_and_keys(self, max, inv_t, &mut keys);
                self.keys = keys;
                return;
            }
            let n = self.processed.len();
            if let Some(e) = self.exps.hit(max, inv_t, true).and_then(|e| e.get(..n)) {
                self.keys.clear();
                self.keys
                    .extend(e.iter().enumerate().map(|(i, &e)| key(e, i as u32)));
                self.weights_in_keys = true;
                return;
            }
            // Every slot is written below: only slots the vector grows by are zeroed first.
            self.keys.truncate(n);
            self.keys.resize(n, 0);
            // Eight exps at a time into an array, then their keys: the exps vectorise.
            let mut lanes = self.processed.chunks_exact(LANES);
            let mut kouts = self.keys.chunks_exact_mut(LANES);
            let mut id = 0u32;
            for (group, kdst) in (&mut lanes).zip(&mut kouts) {
                let mut es = [0.0f32; LANES];
                for (e, &l) in es.iter_mut().zip(group) {
                    *e = final_weight(l, max, inv_t);
                }
                for (j, (k, &e)) in kdst.iter_mut().zip(&es).enumerate() {
                    *k = key(e, id + j as u32);
                }
                id += LANES as u32;
            }
            for (k, &l) in kouts.into_remainder().iter_mut().zip(lanes.remainder()) {
                *k = key(final_weight(l, max, inv_t), id);
                id += 1;
            }
            self.weights_in_keys = true;
        }
    }

    /// Moves the final weights from `keys` to `scratch` (before the keys are reordered).
    pub fn weights_out_of_keys(&mut self) {
        self.materialise_keys();
        if self.weights_in_keys {
            for (slot, &k) in self.scratch.iter_mut().zip(&self.keys) {
                *slot = key_weight(k);
            }
            self.weights_in_keys = false;
        }
    }

    /// Call after changing the `processed` logits of `ids` (and no others): every cached order
    /// and sum is stale; the remembered exps of those ids are computed again.
    pub fn logits_changed(&mut self, ids: impl IntoIterator<Item = u32> + Clone) {
        self.sorted = 0;
        self.max = None;
        self.norm = None;
        self.raw_blocks.changed(ids.clone());
        self.blocks.changed(ids.clone());
        for id in ids.clone() {
            if let Some(m) = self.block_max.get_mut(id as usize / MAX_BLOCK) {
                *m = f32::INFINITY;
            }
        }
        self.exps.refresh(&self.processed, ids);
        self.top_p_head.at = None;
    }

    pub(crate) fn kept_changed(&mut self) {
        self.all_kept = false;
        self.max = None;
        self.norm = None;
    }

    /// The largest processed logit among kept tokens.
    pub fn max_logit(&mut self) -> f32 {
        if let Some(max) = self.max {
            return max;
        }
        let max = if self.sorted > 0 {
            self.kept
                .first()
                .and_then(|&id| self.processed.get(id as usize))
                .copied()
                .unwrap_or(f32::NEG_INFINITY)
        } else if self.all_kept {
            scan(&self.processed).0
        } else {
            self.max_by_blocks()
                .unwrap_or_else(|| gathered_max(&self.processed, &self.kept))
        };
        self.max = Some(max);
        max
    }

    /// Σ exp((l − max)·inv_t) over kept tokens, and the max used. The normaliser of the current
    /// distribution: p_i = exp((l_i − max)·inv_t) / z.
    pub fn normaliser(&mut self) -> (f64, f32) {
        if let Some((inv_t, z, max)) = self.norm {
            if inv_t == self.inv_t {
                return (z, max);
            }
        }
        let max = self.max_logit();
        let (all, inv_t) = (self.all_kept, self.inv_t);
        let n = self.processed.len();
        // The raw weights patched, the block sums patched, remembered exps, else a pass that
        // remembers them when a later pass can use them.
        let blocks = if all {
            self.blocks.sum(&self.processed, max, inv_t)
        } else {
            None
        };
        let z = if let Some((z, _)) = self.raw_blocks_sums(max) {
            z
        } else if let Some(z) = blocks {
            z
        } else if let Some(e) = self.exps.hit(max, inv_t, all) {
            if all {
                cached::sum_all(e.get(..n).unwrap_or_default())
            } else {
                cached::sum_ids(e, &self.kept)
            }
        } else if let Some(out) = self.exps.slots(n) {
            let z = if all {
                cached::sum_all_into(&self.processed, max, inv_t, out)
            } else {
                gather_sum::<true>(&self.processed, &self.kept, max, inv_t, out)
            };
            self.exps.filled(max, inv_t, all);
            z
        } else if all {
            sum_weights_all(&self.processed, max, inv_t)
        } else {
            sum_weights(&self.processed, &self.kept, max, inv_t)
        };
        self.norm = Some((self.inv_t, z, max));
        (z, max)
    }

    /// Supplies the normaliser at the current `inv_t` when it was computed elsewhere (fused with the
    /// raw softmax's pass); valid only while nothing has been removed or changed.
    pub fn seed_normaliser(&mut self, z: f64, max: f32) {
        if self.all_kept && self.max == Some(max) {
            self.norm = Some((self.inv_t, z, max));
        }
    }

    /// Supplies the normaliser of `kept` at the current `inv_t` after a stage removed tokens, when
    /// it was summed exactly as `normaliser` sums it (final_pass.rs, from the final weights' pass).
    pub fn set_normaliser(&mut self, z: f64, max: f32) {
        if self.max == Some(max) {
            self.norm = Some((self.inv_t, z, max));
        }
    }

    /// Whether the normaliser at the current `inv_t` is known (no pass needed for it).
    pub fn has_normaliser(&self) -> bool {
        self.norm.is_some_and(|(inv_t, _, _)| inv_t == self.inv_t)
    }

    /// The max processed logit of `kept` if known without a pass.
    pub fn known_max(&self) -> Option<f32> {
        self.max
    }

    /// Supplies the max processed logit of `kept` after `logits_changed`, when the caller knows it
    /// exactly (the penalties changed only a few logits and the old maximum is not among them).
    pub fn set_max(&mut self, max: f32) {
        self.max = Some(max);
    }
}
