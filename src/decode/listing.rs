//! Which candidates the trace lists, and where each stands in the full candidate order (kept by
//! final p descending, ties by lower id, then removed by raw logit descending, ties by lower id).
//!
//! Listed: the head of the final order (`trace_top`), the best removed tokens when the kept ones
//! run out, the chosen token wherever it ranks, and the caller's `trace_ids`. Ranks beyond the
//! sorted head are counted in one pass over the pool, never found by sorting the vocabulary.

use super::candidates::{Weights, KEPT};
use super::draw::{key, key_id};
use super::select::{best_removed, by_logit, logit_key};
use super::softmax::{at_most_one, logit_of};
use std::cmp::Ordering;

/// One listed candidate: its id, its position in the full order, and the cumulative final
/// probability through it (the inverse-CDF walk picks the first `cum > u`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Listed {
    pub id: u32,
    pub rank: usize,
    pub cum: f64,
}

/// The listed candidates in rank order, and what the kept tokens left out add up to.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Listing {
    pub entries: Vec<Listed>,
    pub unlisted_kept_count: usize,
    pub unlisted_mass: f64,
}

/// The final distribution the listing reads: the first `min(trace_top, kept)` candidates sorted
/// best first (`head`), how many tokens are kept, every kept token's order key (`keys`, any order;
/// see draw.rs; read only when `trace_ids` asks for ids, and may be unwritten otherwise:
/// `Work::weights_by_exp`), each one's unnormalised weight in `weight`, and their normaliser `z`.
pub(crate) struct Final<'a> {
    pub head: &'a [u32],
    pub kept: usize,
    pub keys: &'a [u64],
    pub weight: Weights<'a>,
    pub z: f64,
}

/// What the caller asks to see beyond the head.
pub(crate) struct Wanted<'a> {
    pub trace_top: usize,
    pub trace_ids: &'a [u32],
    /// The chosen id, its rank and cum, as the draw found them.
    pub chosen: (u32, usize, f64),
}

impl Final<'_> {
    fn p(&self, id: u32) -> f64 {
        self.weight.of(id) / self.z
    }

    fn kept_ids(&self) -> impl Iterator<Item = u32> + '_ {
        self.keys.iter().map(|&k| key_id(k))
    }

    fn cmp(&self, a: &u32, b: &u32) -> Ordering {
        // As select::by_key_desc: weight descending, ties by lower id.
        match (self.weight.get(*a), self.weight.get(*b)) {
            (Some(wa), Some(wb)) => wb.total_cmp(&wa).then(a.cmp(b)),
            _ => a.cmp(b),
        }
    }
}

pub(crate) fn list(fin: &Final, logits: &[f32], removed_by: &[u8], want: &Wanted) -> Listing {
    let kept_n = fin.kept;
    let head = want.trace_top.min(kept_n);
    let mut entries = Vec::with_capacity(want.trace_top.min(kept_n + 1) + want.trace_ids.len());
    let mut cum = 0.0f64;
    for (rank, &id) in fin.head.iter().take(head).enumerate() {
        cum += fin.p(id);
        entries.push(Listed {
            id,
            rank,
            cum: at_most_one(cum),
        });
    }
    let is_removed = |id: u32| removed_by.get(id as usize).is_some_and(|&rb| rb != KEPT);
    // Every kept token is listed: fill up with the best removed ones, by raw logit.
    let mut removed_head = 0;
    if head < want.trace_top {
        let best = best_removed(logits, removed_by, want.trace_top - head);
        removed_head = best.len();
        entries.extend(best.iter().enumerate().map(|(i, &id)| Listed {
            id,
            rank: kept_n + i,
            cum: at_most_one(cum),
        }));
    }

    // Beyond the head: the chosen token and the asked-for ids that are not listed yet.
    let (chosen, chosen_rank, chosen_cum) = want.chosen;
    let mut kept_extra: Vec<u32> = want
        .trace_ids
        .iter()
        .copied()
        .filter(|&id| !is_removed(id))
        .collect();
    if chosen_rank >= head {
        kept_extra.push(chosen);
    }
    kept_extra.sort_unstable_by(|a, b| fin.cmp(a, b));
    kept_extra.dedup();
    let kept_ranks = if kept_extra == [chosen] {
        vec![(chosen_rank, chosen_cum)]
    } else {
        // The pool and the targets as order keys: integer comparisons, no lookups by id.
        let target_keys: Vec<u64> = kept_extra
            .iter()
            .map(|&id| key(fin.weight.of(id) as f32, id))
            .collect();
        ranks_among(fin.keys.iter().copied(), &target_keys, |k| {
            key_weight(k) / fin.z
        })
    };
    for (&id, &(rank, cum)) in kept_extra.iter().zip(&kept_ranks) {
        if rank >= head {
            entries.push(Listed {
                id,
                rank,
                cum: at_most_one(cum),
            });
        }
    }
    let mut removed_extra: Vec<u32> = want
        .trace_ids
        .iter()
        .copied()
        .filter(|&id| is_removed(id))
        .collect();
    if !removed_extra.is_empty() {
        removed_extra.sort_unstable_by(|&a, &b| by_logit(logits, a, b));
        let target_keys: Vec<u64> = removed_extra
            .iter()
            .map(|&id| logit_key(logit_of(logits, id), id))
            .collect();
        // One contiguous pass: removed ids' keys, kept ones as 0 (below every target's key).
        let pool = logits
            .iter()
            .zip(removed_by)
            .enumerate()
            .map(|(id, (&l, &rb))| {
                if rb == KEPT {
                    0
                } else {
                    logit_key(l, id as u32)
                }
            });
        let ranks = ranks_among(pool, &target_keys, |_| 0.0);
        // Every kept token precedes a removed one: its cum is the whole kept mass (as summed).
        let kept_mass: f64 = fin.kept_ids().map(|id| fin.p(id)).sum();
        for (&id, &(rank, _)) in removed_extra.iter().zip(&ranks) {
            if rank >= removed_head {
                entries.push(Listed {
                    id,
                    rank: kept_n + rank,
                    cum: at_most_one(kept_mass),
                });
            }
        }
    }
    entries.sort_unstable_by_key(|e| e.rank);

    let (listed_kept, listed_mass) = entries
        .iter()
        .filter(|e| e.rank < kept_n)
        .fold((0, 0.0), |(n, mass), e| (n + 1, mass + fin.p(e.id)));
    let unlisted_kept_count = kept_n - listed_kept;
    Listing {
        entries,
        unlisted_kept_count,
        unlisted_mass: if unlisted_kept_count == 0 {
            0.0
        } else {
            (1.0 - listed_mass).clamp(0.0, 1.0)
        },
    }
}

/// The weight in an order key (draw.rs): the float32 weight in its high bits.
fn key_weight(key: u64) -> f64 {
    f64::from(f32::from_bits((key >> 32) as u32))
}

/// For `targets` (order keys of members of `pool`, best first: descending): each one's position
/// in the pool's order (how many pool keys are larger) and the running total of `weight` through
/// it. One pass over the pool: a single target costs one integer comparison per key, more a
/// binary search among them. The pool itself is never sorted. A pool key of 0 is below every
/// target (a target's key is never 0: its id would be u32::MAX), so it counts for none.
fn ranks_among(
    pool: impl Iterator<Item = u64>,
    targets: &[u64],
    weight: impl Fn(u64) -> f64,
) -> Vec<(usize, f64)> {
    if targets.is_empty() {
        return Vec::new();
    }
    // count[j]: pool keys above targets[j] but not above targets[j − 1].
    let mut count = vec![0usize; targets.len() + 1];
    let mut mass = vec![0.0f64; targets.len() + 1];
    if let [only] = targets {
        let (mut above, mut total) = (0usize, 0.0f64);
        for k in pool {
            if k > *only {
                above += 1;
                total += weight(k);
            }
        }
        if let (Some(c), Some(m)) = (count.first_mut(), mass.first_mut()) {
            (*c, *m) = (above, total);
        }
    } else {
        for k in pool {
            // Targets at or above k: a target itself lands after its own bucket.
            let j = targets.partition_point(|&t| t >= k);
            if let (Some(c), Some(m)) = (count.get_mut(j), mass.get_mut(j)) {
                *c += 1;
                *m += weight(k);
            }
        }
    }
    let (mut rank, mut cum) = (0usize, 0.0f64);
    targets
        .iter()
        .zip(count.iter().zip(&mass))
        .map(|(&t, (&c, &m))| {
            rank += c;
            cum += m;
            (rank, cum + weight(t))
        })
        .collect()
}
