//! The working set by logit rank (descending, ties by lower id): the sorted prefix extended only
//! as far as a stage walks, the best k in one pass, keeping exactly a ranked set, and the kept
//! tokens at or above a logit cut. Each keeps `kept` and the sorted-prefix invariant.

use super::candidates::{Work, KEPT};
use super::select::{best_of, best_of_all, extend_sorted_by_logit};
use super::softmax::logit_of;

/// The blocks of `ids_at_least`, passed over when they hold none at or above the cut.
const BLOCK: usize = 64;

impl Work {
    /// Makes the logit-sorted prefix at least `n` long.
    pub fn ensure_sorted(&mut self, n: usize) {
        // With nothing sorted yet the rest is every kept id: the cached max is its max.
        let max_of_rest = self.known_max().filter(|_| self.sorted == 0);
        self.sorted =
            extend_sorted_by_logit(&self.processed, &mut self.kept, self.sorted, n, max_of_rest);
    }

    /// Keeps exactly the first `n` of the logit order (n ≥ 1).
    pub fn keep_best(&mut self, stage: u8, n: usize) -> usize {
        if n >= self.kept.len() {
            return 0;
        }
        if self.sorted >= n {
            return self.truncate_sorted(stage, n);
        }
        let best = self.best(n).to_vec();
        self.keep_exactly(stage, &best, false, |_, _| false)
    }

    /// Keeps `kept[..n]`, which the caller has made the n best, in order.
    pub fn truncate_sorted(&mut self, stage: u8, n: usize) -> usize {
        let removed = self.kept.len().saturating_sub(n);
        for &id in self.kept.iter().skip(n) {
            if let Some(slot) = self.removed_by.get_mut(id as usize) {
                *slot = stage;
            }
        }
        self.kept.truncate(n);
        self.sorted = self.sorted.min(n);
        if removed > 0 {
            self.kept_changed();
        }
        removed
    }

    /// The k best kept tokens, best first, in one pass with a k-entry heap (O(n + k log k · log n),
    /// no selection over all n ids). Written into `aux`.
    pub fn best(&mut self, k: usize) -> &[u32] {
        let ranked = if self.all_kept {
            best_of_all(&self.processed, k)
        } else {
            let processed = &self.processed;
            best_of(self.kept.iter().map(|&id| (id, logit_of(processed, id))), k)
        };
        self.aux.clear();
        self.aux.extend(ranked);
        &self.aux
    }

    /// Keeps exactly `ids` (given best first, so they become the sorted prefix) plus every kept
    /// token for which `also` is true; marks the rest with `stage`.
    pub fn keep_exactly(
        &mut self,
        stage: u8,
        ids: &[u32],
        also_needed: bool,
        mut also: impl FnMut(u32, f32) -> bool,
    ) -> usize {
        let before = self.kept.len();
        for &id in ids {
            if let Some(slot) = self.removed_by.get_mut(id as usize) {
                *slot = u8::MAX - 1; // temporary "chosen" mark, restored below
            }
        }
        let mut extra = Vec::new();
        if self.all_kept && !also_needed {
            // Branch-free select over the u8 array (vectorises): every still-kept id → `stage`.
            for slot in self.removed_by.iter_mut() {
                *slot = if *slot == KEPT { stage } else { *slot };
            }
        } else if self.all_kept {
            // Contiguous pass (no gather through `kept`): every still-kept id is a candidate.
            for (i, (slot, &l)) in self.removed_by.iter_mut().zip(&self.processed).enumerate() {
                if *slot == KEPT {
                    if also(i as u32, l) {
                        extra.push(i as u32);
                    } else {
                        *slot = stage;
                    }
                }
            }
        } else {
            for &id in &self.kept {
                let i = id as usize;
                if let (Some(slot), Some(&l)) = (self.removed_by.get_mut(i), self.processed.get(i))
                {
                    if *slot == KEPT {
                        if also(id, l) {
                            extra.push(id);
                        } else {
                            *slot = stage;
                        }
                    }
                }
            }
        }
        for &id in ids {
            if let Some(slot) = self.removed_by.get_mut(id as usize) {
                *slot = KEPT;
            }
        }
        self.kept.clear();
        self.kept.extend_from_slice(ids);
        self.kept.extend_from_slice(&extra);
        self.sorted = ids.len();
        if self.kept.len() != before {
            self.kept_changed();
        }
        before - self.kept.len()
    }

    /// How many kept tokens have a processed logit ≥ `cut`.
    pub fn count_at_least(&self, cut: f32) -> usize {
        if self.all_kept {
            self.processed.iter().map(|&l| usize::from(l >= cut)).sum()
        } else {
            self.kept
                .iter()
                .filter(|&&id| self.processed.get(id as usize).is_some_and(|&l| l >= cut))
                .count()
        }
    }

    /// With every token kept: the ids whose processed logit is ≥ `cut`, in id order, or None when
    /// more than `limit` are. A block holding none is passed over after one comparison that
    /// vectorises (min-p on a peaked distribution keeps a handful of 151,936: a filter per id was
    /// a fifth of its step). Not in `candidates_above_into`: top-p's pre-filter lets about one in
    /// forty through there, so most blocks hold one, and in wasm an open context's step was slower.
    pub fn ids_at_least(&self, cut: f32, limit: usize) -> Option<Vec<u32>> {
        let mut ids = Vec::new();
        for (b, block) in self.processed.chunks(BLOCK).enumerate() {
            if block.iter().fold(false, |any, &l| any | (l >= cut)) {
                let at = b * BLOCK;
                ids.extend(
                    (at..at + block.len())
                        .zip(block)
                        .filter(|(_, &l)| l >= cut)
                        .map(|(i, _)| i as u32),
                );
                if ids.len() > limit {
                    return None;
                }
            }
        }
        Some(ids)
    }

    /// The kept ids whose processed logit is ≥ `cut`, in id order, written to `ids[..count]` and
    /// their logits to `logits[..count]` (so later passes read them contiguously); returns the
    /// count. The buffers only grow (a memset of the vocabulary per step costs more than the
    /// pass), and the pass stores every id (where few pass, every id of a group of eight holding
    /// one) and advances by the comparison: no branch to mispredict when a third of the
    /// vocabulary passes (an open context).
    pub fn candidates_above_into(
        &self,
        cut: f64,
        ids: &mut Vec<u32>,
        logits: &mut Vec<f32>,
    ) -> usize {
        // Compare in float32 after rounding the cut down, so no token at the boundary is lost.
        let cut32 = {
            let c = cut as f32;
            if f64::from(c) > cut {
                c.next_down()
            } else {
                c
            }
        };
        let n = if self.all_kept {
            self.processed.len()
        } else {
            self.kept.len()
        };
        if ids.len() < n {
            ids.resize(n, 0);
        }
        if logits.len() < n {
            logits.resize(n, 0.0);
        }
        let mut count = 0usize;
        let mut store = |id: u32, l: f32| {
            if let (Some(i), Some(x)) = (ids.get_mut(count), logits.get_mut(count)) {
                *i = id;
                *x = l;
            }
            count += usize::from(l >= cut32);
        };
        if self.all_kept {
            // Where few pass (a peaked step: 1 in 40, judged from the first 4,096), a group of
            // eight with none is passed over after one comparison (it vectorises), since the
            // store's chain through `count` was most of the pass; where many do (an open
            // context: 1 in 3), every id is stored, as a test per group would only add to it.
            let sample = self.processed.get(..4096).unwrap_or(&self.processed);
            let passing: u32 = sample.iter().map(|&l| u32::from(l >= cut32)).sum();
            if (passing as usize) * 16 < sample.len() {
                let mut groups = self.processed.chunks_exact(8);
                let mut id = 0u32;
                for group in &mut groups {
                    if group.iter().fold(false, |any, &l| any | (l >= cut32)) {
                        for (j, &l) in (id..).zip(group) {
                            store(j, l);
                        }
                    }
                    id += 8;
                }
                for (j, &l) in (id..).zip(groups.remainder()) {
                    store(j, l);
                }
            } else {
                for (i, &l) in self.processed.iter().enumerate() {
                    store(i as u32, l);
                }
            }
        } else {
            for &id in &self.kept {
                store(id, logit_of(&self.processed, id));
            }
        }
        count
    }
}
