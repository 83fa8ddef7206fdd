//! Selection without a full sort: the orders every filter ranks by, a sorted prefix extended
//! block by block, the best k in one pass with a k-entry heap (block-skipping over contiguous
//! logits), and the best removed tokens for the trace's listing.

use super::candidates::KEPT;
use super::softmax::{lane_max, logit_of};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Descending by processed logit, ties by lower id: the rank order every engine's filters use.
#[inline]
pub(crate) fn by_logit(processed: &[f32], a: u32, b: u32) -> Ordering {
    let (la, lb) = (processed.get(a as usize), processed.get(b as usize));
    match (la, lb) {
        (Some(la), Some(lb)) => lb.total_cmp(la).then(a.cmp(&b)),
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
    // sorted < want ≤ ids.len(), so 0 < block ≤ rest.len()
    let rest = ids.split_at_mut(sorted).1;
    let block = want - sorted;
    if block < rest.len() {
        rest.select_nth_unstable_by(block - 1, &mut cmp);
    }
    rest.split_at_mut(block).0.sort_unstable_by(&mut cmp);
    want
}

/// The first of `ids` when they are consecutive ids in order (first, first + 1, …), else None.
/// Branch-free and compared as u32, four to a 128-bit lane (ids are below 2^20,
/// `limits::MAX_LOGITS`), so it vectorises.
#[inline(always)]
pub(crate) fn consecutive(ids: &[u32]) -> Option<usize> {
    let first = *ids.first()?;
    let run = (first..)
        .zip(ids)
        .fold(true, |run, (want, &id)| run & (id == want));
    run.then_some(first as usize)
}

/// `extend_sorted` under `by_logit`. For a block of one (the epsilon and eta cutoffs' `min_keep`
/// of 1) `select_nth_unstable_by(0, ..)` swaps the rest's best to its front (`min_index`, one
/// swap); here that best is found by one pass over the logits' total order instead of one
/// comparator call per id (0.8 of the floor at 151,936): the same ids in the same order.
/// `max_of_rest`: the largest logit of `ids[sorted..]`, when the caller knows it (then, unless it
/// is a zero, whose sign only the total order tells apart, no pass computes it).
pub(crate) fn extend_sorted_by_logit(
    processed: &[f32],
    ids: &mut [u32],
    sorted: usize,
    want: usize,
    max_of_rest: Option<f32>,
) -> usize {
    let want = want.min(ids.len());
    if want != sorted + 1 {
        return extend_sorted(ids, sorted, want, |&a, &b| by_logit(processed, a, b));
    }
    let Some(rest) = ids.get_mut(sorted..) else {
        return sorted;
    };
    // `total_cmp`'s order as an integer: larger key, larger logit.
    let total_key = |l: f32| {
        let bits = l.to_bits() as i32;
        bits ^ (((bits >> 31) as u32) >> 1) as i32
    };
    // Every id still kept, in id order (the cutoffs' usual input): the logits are contiguous,
    // the largest key is the caller's max or a maximum over them, and the lowest id holding it
    // its first position.
    let run = consecutive(rest).and_then(|first| processed.get(first..first + rest.len()));
    if let Some(logits) = run {
        let top = match max_of_rest {
            Some(max) if max != 0.0 => total_key(max),
            // (an i32 maximum: no SSE2 instruction, so it costs about a third of the floor)
            _ => logits.iter().fold(i32::MIN, |m, &l| m.max(total_key(l))),
        };
        // Its first position, a block of 64 passed over after one comparison that vectorises.
        const BLOCK: usize = 64;
        let best = logits
            .chunks(BLOCK)
            .enumerate()
            .find(|(_, b)| b.iter().fold(false, |any, &l| any | (total_key(l) == top)))
            .and_then(|(i, b)| Some(i * BLOCK + b.iter().position(|&l| total_key(l) == top)?))
            .unwrap_or(0);
        rest.swap(0, best);
        return want;
    }
    let (mut best, mut best_key, mut best_id) = (0usize, i32::MIN, u32::MAX);
    for (i, &id) in rest.iter().enumerate() {
        let k = total_key(logit_of(processed, id));
        if k > best_key || (k == best_key && id < best_id) {
            (best, best_key, best_id) = (i, k, id);
        }
    }
    rest.swap(0, best);
    want
}

/// The best k (id, logit) pairs seen so far by (logit desc, id asc), in a k-entry heap whose top
/// is the worst of them. `floor` (the k-th logit once full) lets callers reject almost every
/// entry with one float comparison.
struct BestK {
    heap: BinaryHeap<Ranked>,
    k: usize,
    floor: f32,
}

impl BestK {
    fn new(k: usize) -> BestK {
        BestK {
            heap: BinaryHeap::with_capacity(k + 1),
            k,
            floor: f32::NEG_INFINITY,
        }
    }

    fn full(&self) -> bool {
        self.heap.len() == self.k
    }

    #[inline]
    fn offer(&mut self, id: u32, logit: f32) {
        if self.k == 0 || logit < self.floor {
            return;
        }
        let entry = Ranked { logit, id };
        if self.heap.len() < self.k {
            self.heap.push(entry);
        } else if let Some(mut worst) = self.heap.peek_mut() {
            if entry < *worst {
                *worst = entry; // PeekMut sifts it down once on drop
            } else {
                return;
            }
        }
        if self.full() {
            self.floor = self.heap.peek().map_or(f32::NEG_INFINITY, |w| w.logit);
        }
    }

    /// The ids, best first.
    fn into_ids(self) -> Vec<u32> {
        self.heap.into_sorted_vec().iter().map(|r| r.id).collect()
    }
}

/// The k best (id, logit) pairs by (logit desc, id asc), best first: one pass with a k-entry heap.
pub(crate) fn best_of(items: impl Iterator<Item = (u32, f32)>, k: usize) -> Vec<u32> {
    let mut best = BestK::new(k);
    for (id, logit) in items {
        best.offer(id, logit);
    }
    best.into_ids()
}

/// `best_of` over a whole contiguous logits array (−inf entries never enter), skipping every block
/// of 64 whose maximum is below the current k-th logit: after the heap fills, one vectorised max
/// per block is all most of a peaked vocabulary costs.
pub(crate) fn best_of_all(logits: &[f32], k: usize) -> Vec<u32> {
    const BLOCK: usize = 64;
    let mut best = BestK::new(k);
    for (b, block) in logits.chunks(BLOCK).enumerate() {
        if best.full() && lane_max(block) < best.floor {
            continue;
        }
        for (j, &logit) in block.iter().enumerate() {
            if logit != f32::NEG_INFINITY {
                best.offer((b * BLOCK + j) as u32, logit);
            }
        }
    }
    best.into_ids()
}

/// The k best removed ids (`removed_by` ≠ KEPT, −inf inputs included) by raw logit (desc, ties by
/// lower id), best first: `best_of_all`'s block skipping over the raw logits, so a greedy or
/// top-k step that removed almost everything does not offer every id to the heap.
pub(crate) fn best_removed(logits: &[f32], removed_by: &[u8], k: usize) -> Vec<u32> {
    const BLOCK: usize = 64;
    if k > HEAP_MAX {
        return best_removed_by_selection(logits, removed_by, k);
    }
    let mut best = BestK::new(k);
    for (b, (block, marks)) in logits
        .chunks(BLOCK)
        .zip(removed_by.chunks(BLOCK))
        .enumerate()
    {
        if best.full() && lane_max(block) < best.floor {
            continue;
        }
        for (j, (&logit, &mark)) in block.iter().zip(marks).enumerate() {
            if mark != KEPT {
                best.offer((b * BLOCK + j) as u32, logit);
            }
        }
    }
    best.into_ids()
}

/// A float32's bits as an unsigned integer ordered like the value (NaN aside: −inf lowest, −0
/// below +0, as `total_cmp`).
#[inline(always)]
pub(crate) fn ordered_bits(x: f32) -> u32 {
    let bits = x.to_bits();
    if bits >> 31 == 1 {
        !bits
    } else {
        bits | 0x8000_0000
    }
}

/// The float32 whose `ordered_bits` are `k`.
#[inline(always)]
pub(crate) fn from_ordered_bits(k: u32) -> f32 {
    f32::from_bits(if k >> 31 == 1 { k & 0x7fff_ffff } else { !k })
}

/// Order key by (logit desc, id asc) as one integer: larger = earlier (`ordered_bits` of the
/// logit above the complemented id).
#[inline(always)]
pub(crate) fn logit_key(logit: f32, id: u32) -> u64 {
    (u64::from(ordered_bits(logit)) << 32) | u64::from(!id)
}

/// Beyond this many a heap costs more than selecting over the whole pool.
const HEAP_MAX: usize = 256;

/// `best_removed` for long lists (a full trace): integer keys (logit in total order, then lower
/// id), one selection and a sort of the k selected.
fn best_removed_by_selection(logits: &[f32], removed_by: &[u8], k: usize) -> Vec<u32> {
    // Every removed id's key, in id order, written without a branch (a kept id's slot is
    // overwritten by the next id's), and every radix pass's digit counts in the same pass.
    let n = logits.len().min(removed_by.len());
    let mut keys = vec![0u64; n + 1];
    let mut counts = [[0u32; RADIX_BUCKETS]; 3];
    let mut len = 0usize;
    for (id, (&l, &mark)) in logits.iter().zip(removed_by).enumerate() {
        let key = logit_key(l, id as u32);
        let removed = u32::from(mark != KEPT);
        for (count, &shift) in counts.iter_mut().zip(&RADIX_SHIFTS) {
            if let Some(c) = count.get_mut(radix_digit(key, shift)) {
                *c += removed;
            }
        }
        if let Some(slot) = keys.get_mut(len) {
            *slot = key;
        }
        len += removed as usize;
    }
    keys.truncate(len);
    if k < keys.len() {
        keys.select_nth_unstable_by(k, |a, b| b.cmp(a));
        keys.truncate(k);
        keys.sort_unstable_by(|a, b| b.cmp(a));
    } else {
        // Every removed token listed (a full trace): still in id order, so a stable sort by the
        // logit alone gives ties by lower id.
        radix_passes(&mut keys, &mut Vec::new(), counts);
    }
    keys.iter().map(|&key| !(key as u32)).collect()
}

/// Sorts `keys` by their high 32 bits, descending, stably (equal ones keep their order): three
/// LSD counting passes of 11 bits, each skipped when every key has the same digit there.
pub(crate) fn radix_sort_desc_high(keys: &mut Vec<u64>, spare: &mut Vec<u64>) {
    // Every pass's counts in one read of the keys.
    let mut counts = [[0u32; RADIX_BUCKETS]; 3];
    for &k in keys.iter() {
        for (count, &shift) in counts.iter_mut().zip(&RADIX_SHIFTS) {
            // (a digit is masked below RADIX_BUCKETS)
            if let Some(c) = count.get_mut(radix_digit(k, shift)) {
                *c += 1;
            }
        }
    }
    radix_passes(keys, spare, counts);
}

const RADIX_BITS: u32 = 11;
const RADIX_BUCKETS: usize = 1 << RADIX_BITS;
const RADIX_SHIFTS: [u32; 3] = [32, 32 + RADIX_BITS, 32 + 2 * RADIX_BITS];

/// A radix pass's digit of `k`, complemented, so ascending digits are descending keys.
#[inline(always)]
fn radix_digit(k: u64, shift: u32) -> usize {
    ((!k >> shift) as usize) & (RADIX_BUCKETS - 1)
}

/// `radix_sort_desc_high`'s passes, given each pass's digit counts over `keys` (fewer than 2^32
/// keys: `limits::MAX_LOGITS`).
fn radix_passes(keys: &mut Vec<u64>, spare: &mut Vec<u64>, mut counts: [[u32; RADIX_BUCKETS]; 3]) {
    let mut from = std::mem::take(keys);
    let mut to = std::mem::take(spare);
    // Every slot is written by the first pass that runs: only slots it grows by are zeroed.
    to.resize(from.len(), 0);
    for (start, &shift) in counts.iter_mut().zip(&RADIX_SHIFTS) {
        if start.contains(&(from.len() as u32)) {
            continue;
        }
        let mut total = 0;
        for slot in start.iter_mut() {
            let count = *slot;
            *slot = total;
            total += count;
        }
        for &k in &from {
            // the starts sum the counts of every key: each slot is < from.len() = to.len()
            if let Some(slot) = start.get_mut(radix_digit(k, shift)) {
                if let Some(t) = to.get_mut(*slot as usize) {
                    *t = k;
                }
                *slot += 1;
            }
        }
        std::mem::swap(&mut from, &mut to);
    }
    *keys = from;
    *spare = to;
}

/// A heap entry ordered so that the heap's top is the *worst* of the best k seen so far.
#[derive(Clone, Copy, PartialEq)]
struct Ranked {
    logit: f32,
    id: u32,
}
impl Eq for Ranked {}
impl Ord for Ranked {
    fn cmp(&self, other: &Self) -> Ordering {
        // "Greater" = ranks worse: lower logit, or equal logit and higher id.
        other
            .logit
            .total_cmp(&self.logit)
            .then(self.id.cmp(&other.id))
    }
}
impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
#[path = "select_tests.rs"]
mod tests;
