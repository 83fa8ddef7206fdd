//! The working set: which tokens are still kept, their processed logits, and who removed the rest.
//! Scratch buffers live here and are reused across calls, so a loop of steps allocates nothing new.
//!
//! Ordering is by selection, never by sorting the whole vocabulary: `ensure_sorted(n)` extends a
//! sorted prefix only as far as a stage actually walks.

use std::cmp::Ordering;

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
    /// Per id scratch (exp values, typical scores).
    pub scratch: Vec<f64>,
    /// Second id list for orders other than by logit (typical's score order, the final p order).
    pub aux: Vec<u32>,
    /// The current scale: 1 before temperature, 1/T after.
    pub inv_t: f64,
}

/// Descending by processed logit, ties by lower id: the rank order every engine's filters use.
#[inline]
pub(crate) fn by_logit(processed: &[f32], a: u32, b: u32) -> Ordering {
    let (la, lb) = (processed.get(a as usize), processed.get(b as usize));
    match (la, lb) {
        (Some(la), Some(lb)) => lb.total_cmp(la).then(a.cmp(&b)),
        _ => a.cmp(&b),
    }
}

/// Descending by a per-id key, ties by lower id.
#[inline]
pub(crate) fn by_key_desc(key: &[f64], a: u32, b: u32) -> Ordering {
    let (ka, kb) = (key.get(a as usize), key.get(b as usize));
    match (ka, kb) {
        (Some(ka), Some(kb)) => kb.total_cmp(ka).then(a.cmp(&b)),
        _ => a.cmp(&b),
    }
}

/// Extends the sorted prefix of `ids` from `sorted` to `want` (clamped to the length) under `cmp`,
/// by selecting the next block and sorting only it. Returns the new sorted length.
pub(crate) fn extend_sorted<F>(ids: &mut [u32], sorted: usize, want: usize, mut cmp: F) -> usize
where
    F: FnMut(&u32, &u32) -> Ordering,
{
    let want = want.min(ids.len());
    if sorted >= want {
        return sorted;
    }
    let rest = &mut ids[sorted..];
    let block = want - sorted;
    if block < rest.len() {
        rest.select_nth_unstable_by(block - 1, &mut cmp);
    }
    rest[..block].sort_unstable_by(&mut cmp);
    want
}

impl Work {
    /// Makes the logit-sorted prefix at least `n` long.
    pub fn ensure_sorted(&mut self, n: usize) {
        let processed = &self.processed;
        self.sorted = extend_sorted(&mut self.kept, self.sorted, n, |&a, &b| by_logit(processed, a, b));
    }

    /// The largest processed logit among kept tokens.
    pub fn max_logit(&mut self) -> f32 {
        self.ensure_sorted(1);
        self.kept.first().and_then(|&id| self.processed.get(id as usize)).copied().unwrap_or(f32::NEG_INFINITY)
    }

    /// Removes every kept token for which `keep` is false, marking it with `stage`. Keeps the
    /// sorted-prefix invariant: survivors of the prefix are still the best survivors, in order.
    pub fn retain(&mut self, stage: u8, mut keep: impl FnMut(u32) -> bool) -> usize {
        let before = self.kept.len();
        let mut sorted_survivors = 0;
        let mut write = 0;
        for read in 0..self.kept.len() {
            let id = self.kept[read];
            if keep(id) {
                self.kept[write] = id;
                write += 1;
                if read < self.sorted {
                    sorted_survivors += 1;
                }
            } else if let Some(slot) = self.removed_by.get_mut(id as usize) {
                *slot = stage;
            }
        }
        self.kept.truncate(write);
        self.sorted = sorted_survivors;
        before - write
    }

    /// Keeps exactly the first `n` of the logit order (n ≥ 1).
    pub fn keep_best(&mut self, stage: u8, n: usize) -> usize {
        if n >= self.kept.len() {
            return 0;
        }
        self.ensure_sorted(n);
        let removed = self.kept.len() - n;
        for &id in &self.kept[n..] {
            if let Some(slot) = self.removed_by.get_mut(id as usize) {
                *slot = stage;
            }
        }
        self.kept.truncate(n);
        self.sorted = n;
        removed
    }

    /// Σ exp((l − max)·inv_t) over kept tokens, and the max used. The normaliser of the current
    /// distribution: p_i = exp((l_i − max)·inv_t) / z.
    pub fn normaliser(&mut self) -> (f64, f32) {
        let max = self.max_logit();
        let inv_t = self.inv_t;
        let z = sum_exp(&self.processed, &self.kept, max, inv_t);
        (z, max)
    }
}

/// Σ exp((processed[id] − max)·inv_t) over `ids`.
pub(crate) fn sum_exp(processed: &[f32], ids: &[u32], max: f32, inv_t: f64) -> f64 {
    let max = f64::from(max);
    ids.iter()
        .filter_map(|&id| processed.get(id as usize))
        .map(|&l| ((f64::from(l) - max) * inv_t).exp())
        .sum()
}

/// Σ exp(l − max) over every finite logit.
pub(crate) fn sum_exp_all(logits: &[f32], max: f32) -> f64 {
    let max = f64::from(max);
    logits.iter().filter(|l| **l != f32::NEG_INFINITY).map(|&l| (f64::from(l) - max).exp()).sum()
}
