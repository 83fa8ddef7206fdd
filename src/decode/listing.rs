//! Which candidates the trace lists, and where each stands in the full candidate order (kept by
//! final p descending, ties by lower id, then removed by raw logit descending, ties by lower id).
//!
//! Listed: the head of the final order (`trace_top`), the best removed tokens when the kept ones
//! run out, the chosen token wherever it ranks, and the caller's `trace_ids`. Ranks beyond the
//! sorted head are counted in one pass over the pool, never found by sorting the vocabulary.

use super::candidates::KEPT;
use super::draw::key_id;
use super::select::{best_removed, by_key_desc, by_logit};
use super::softmax::at_most_one;
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
/// best first (`head`), every kept token's order key (`keys`, any order; see draw.rs), each one's
/// unnormalised weight in `weight`, and their normaliser `z`.
pub(crate) struct Final<'a> {
    pub head: &'a [u32],
    pub keys: &'a [u64],
    pub weight: &'a [f64],
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
        self.weight.get(id as usize).copied().unwrap_or(0.0) / self.z
    }

    fn kept_ids(&self) -> impl Iterator<Item = u32> + '_ {
        self.keys.iter().map(|&k| key_id(k))
    }

    fn cmp(&self, a: &u32, b: &u32) -> Ordering {
        by_key_desc(self.weight, *a, *b)
    }
}

pub(crate) fn list(fin: &Final, logits: &[f32], removed_by: &[u8], want: &Wanted) -> Listing {
    let kept_n = fin.keys.len();
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
    let removed_pool = || (0..logits.len() as u32).filter(move |&id| is_removed(id));
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
        ranks_among(
            fin.kept_ids(),
            &kept_extra,
            |a, b| fin.cmp(a, b),
            |id| fin.p(id),
        )
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
        let ranks = ranks_among(
            removed_pool(),
            &removed_extra,
            |&a, &b| by_logit(logits, a, b),
            |_| 0.0,
        );
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

/// For `targets` (members of `pool`, sorted best first under `cmp`): each one's position in the
/// pool's order under `cmp`, and the running total of `weight` through it. One pass over the pool
/// with a binary search among the targets per entry: O(n log m), the pool itself is never sorted.
fn ranks_among(
    pool: impl Iterator<Item = u32>,
    targets: &[u32],
    cmp: impl Fn(&u32, &u32) -> Ordering,
    weight: impl Fn(u32) -> f64,
) -> Vec<(usize, f64)> {
    if targets.is_empty() {
        return Vec::new();
    }
    // count[j]: pool entries strictly before targets[j] but not before targets[j − 1].
    let mut count = vec![0usize; targets.len() + 1];
    let mut mass = vec![0.0f64; targets.len() + 1];
    for id in pool {
        let j = targets.partition_point(|t| cmp(&id, t) != Ordering::Less);
        if let (Some(c), Some(m)) = (count.get_mut(j), mass.get_mut(j)) {
            *c += 1;
            *m += weight(id);
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
