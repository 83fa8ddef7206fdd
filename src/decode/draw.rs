//! The final distribution and the draw: one pass turns the kept tokens into weights (and order
//! keys), the entropy and the sorted head the trace lists; then an expected-O(n) weighted
//! quickselect finds the token the inverse CDF picks, without ordering the candidates.
//!
//! The candidate order is final p descending, ties by lower id. Each kept token gets the key
//! `bits(w) << 32 | !id`, where w ≥ 0 is its float32 weight e^((l − max)/T): for non-negative
//! floats the bit pattern orders like the value, so a larger key is exactly an earlier candidate,
//! and the selection compares plain integers instead of looking weights up by id.
//!
//! The inverse CDF picks the first candidate whose cumulative mass exceeds u·z. The selection
//! partitions the keys around a pivot, compares the mass of the part ranked above it with what is
//! left of u·z, and continues in one part only; only the last few dozen keys are sorted. Masses
//! are summed in f64 in a different order than a sorted walk would, so a u within ~1e-15 of a
//! boundary could pick the neighbour; the pinned draws (tests/draw_pins.rs) and the properties
//! "selection ≡ sorted walk" (below, and over every configuration in tests/properties.rs) hold
//! it to the walk.

use super::candidates::Work;
use super::softmax::{exp_f32, weights_into};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Order key of a kept token: larger = earlier in the candidate order (weight desc, id asc).
#[inline(always)]
pub(crate) fn key(weight: f32, id: u32) -> u64 {
    (u64::from(weight.to_bits()) << 32) | u64::from(!id)
}

#[inline(always)]
pub(crate) fn key_id(key: u64) -> u32 {
    !(key as u32)
}

#[inline(always)]
fn key_weight(key: u64) -> f64 {
    f64::from(f32::from_bits((key >> 32) as u32))
}

/// What the final pass leaves: every kept token's key (in `Work::keys`, weights also in
/// `Work::scratch`), the ids of the best `head` candidates in order, and the entropy.
#[derive(Debug)]
pub(crate) struct FinalPass {
    /// Σ e·s over the kept tokens (s = scaled logit): with z it gives the entropy.
    pub weighted: f64,
    /// The first `min(trace_top, kept)` candidates, best first.
    pub head: Vec<u32>,
}

/// Above this head length a selection over the keys beats a heap.
const HEAP_HEAD_MAX: usize = 256;

/// One pass over the kept tokens at (max, inv_t): weights into `scratch`, keys into `keys`, the
/// entropy sum, and the `head_len` best keys (a small heap rejects almost every key with one
/// comparison; long heads are selected and sorted instead).
pub(crate) fn final_pass(work: &mut Work, max: f32, inv_t: f32, head_len: usize) -> FinalPass {
    let mut keys = std::mem::take(&mut work.keys);
    keys.clear();
    keys.reserve(work.kept.len());
    let mut weighted = 0.0f64;
    if work.all_kept && work.input_removed == 0 {
        // Every id is kept: contiguous passes that vectorise (weights, then keys).
        let n = work.processed.len();
        let out = work.scratch.get_mut(..n).unwrap_or_default();
        weighted = weights_into(&work.processed, max, inv_t, out);
        keys.extend(
            out.iter()
                .enumerate()
                .map(|(i, &e)| key(e as f32, i as u32)),
        );
    } else {
        for &id in &work.kept {
            let l = work
                .processed
                .get(id as usize)
                .copied()
                .unwrap_or(f32::NEG_INFINITY);
            let sc = (l - max) * inv_t;
            let e = exp_f32(sc);
            if e > 0.0 {
                weighted += f64::from(e) * f64::from(sc); // 0 · −inf would be NaN
            }
            if let Some(slot) = work.scratch.get_mut(id as usize) {
                *slot = f64::from(e);
            }
            keys.push(key(e, id));
        }
    }
    let small_head = head_len <= HEAP_HEAD_MAX;
    let head = if small_head {
        // A small heap of the best keys; one comparison rejects almost every key.
        let mut heap: BinaryHeap<Reverse<u64>> = BinaryHeap::with_capacity(head_len + 1);
        let mut floor = 0u64; // the worst key in a full heap; 0 = not full yet
        for &k in &keys {
            if k > floor && head_len > 0 {
                heap.push(Reverse(k));
                if heap.len() > head_len {
                    heap.pop();
                }
                if heap.len() == head_len {
                    floor = heap.peek().map_or(0, |r| r.0);
                }
            }
        }
        let mut best: Vec<u64> = heap.into_iter().map(|r| r.0).collect();
        best.sort_unstable_by(|a, b| b.cmp(a));
        best.into_iter().map(key_id).collect()
    } else {
        let mut copy = keys.clone();
        let n = head_len.min(copy.len());
        if n < copy.len() {
            copy.select_nth_unstable_by(n, |a, b| b.cmp(a));
        }
        let mut best = copy.get(..n).unwrap_or_default().to_vec();
        best.sort_unstable_by(|a, b| b.cmp(a));
        best.into_iter().map(key_id).collect()
    };
    work.keys = keys;
    FinalPass { weighted, head }
}

/// The token the inverse CDF picks: its id, its rank in the candidate order, and its cum.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Drawn {
    pub id: u32,
    pub rank: usize,
    pub cum: f64,
}

/// Ranges this short are sorted and walked.
const WALK_MAX: usize = 32;

/// The first candidate (by key, descending) whose cumulative weight exceeds `u · z`, with its
/// rank and cum = that cumulative weight / z (at most 1). If rounding leaves the total at or
/// below u·z, the last candidate (cum 1), as the sorted walk did. `keys` is permuted.
pub(crate) fn inverse_cdf(keys: &mut [u64], u: f64, z: f64) -> Drawn {
    let target = u * z;
    let n = keys.len();
    let (mut lo, mut hi, mut above) = (0usize, n, 0.0f64);
    // First cut (llama2.c's bound, as top-p's pre-filter): tokens with weight below
    // (1 − u)/(n − 1)·z hold less than (1 − u)·z together, so the walk crosses u·z before them.
    // A virtual pivot: usually it leaves a short upper part where the crossing lies.
    if n > 1024 {
        let cutoff = ((1.0 - u) / (n - 1) as f64 * z) as f32;
        let pivot = u64::from(cutoff.to_bits()) << 32;
        let (split, mass) = partition_above(keys, pivot);
        if split > 0 && mass > target {
            hi = split;
        } else if split < n {
            above = mass;
            lo = split;
        }
    }
    let mut state = 0x2545_f491_4f6c_dd1du64 ^ n as u64;
    while hi - lo > WALK_MAX {
        let range = keys.get_mut(lo..hi).unwrap_or_default();
        let last = range.len() - 1;
        range.swap(median_of_three(range, &mut state), last);
        let pivot = range[last];
        let (split, mass) = partition_above(&mut range[..last], pivot);
        // range[..split] > pivot > range[split + 1..], the pivot at split.
        range.swap(split, last);
        if above + mass > target {
            hi = lo + split;
            continue;
        }
        above += mass;
        lo += split;
        let w = key_weight(pivot);
        if above + w > target {
            return Drawn {
                id: key_id(pivot),
                rank: lo,
                cum: ((above + w) / z).min(1.0),
            };
        }
        above += w;
        lo += 1;
    }
    let rest = keys.get_mut(lo..hi).unwrap_or_default();
    rest.sort_unstable_by(|a, b| b.cmp(a));
    for (i, &k) in rest.iter().enumerate() {
        above += key_weight(k);
        if above > target {
            return Drawn {
                id: key_id(k),
                rank: lo + i,
                cum: (above / z).min(1.0),
            };
        }
    }
    // Rounding: the total fell short of u·z. The last key of this range is the last candidate
    // when every cut went to the lower side (the sorted walk's fallback); otherwise u·z lies within
    // rounding of this range's end.
    let last = hi.saturating_sub(1);
    Drawn {
        id: keys.get(last).copied().map_or(0, key_id),
        rank: last,
        cum: if hi == n { 1.0 } else { (above / z).min(1.0) },
    }
}

/// In the order `cmp` (ascending), the rank of the first item whose inclusive running total of
/// `weight` satisfies `crosses` (monotone: once true, true for every larger total), or None if
/// none does. Expected O(n): halves by selection (`select_nth_unstable_by`) and sums one half per
/// level, so nothing is sorted but the last ≤ 32 items. `items` is permuted.
pub(crate) fn first_crossing<T>(
    items: &mut [T],
    cmp: impl Fn(&T, &T) -> std::cmp::Ordering,
    weight: impl Fn(&T) -> f64,
    crosses: impl Fn(f64) -> bool,
) -> Option<usize> {
    let n = items.len();
    let (mut lo, mut hi, mut above) = (0usize, n, 0.0f64);
    while hi - lo > WALK_MAX {
        let range = items.get_mut(lo..hi).unwrap_or_default();
        let mid = range.len() / 2;
        range.select_nth_unstable_by(mid, &cmp);
        let mass: f64 = range
            .get(..mid)
            .unwrap_or_default()
            .iter()
            .map(&weight)
            .sum();
        if crosses(above + mass) {
            hi = lo + mid;
        } else {
            above += mass;
            lo += mid;
        }
    }
    let rest = items.get_mut(lo..hi).unwrap_or_default();
    rest.sort_unstable_by(&cmp);
    for (i, item) in rest.iter().enumerate() {
        above += weight(item);
        if crosses(above) {
            return Some(lo + i);
        }
    }
    // Rounding: a cut went to the upper side but this range's sum fell short; its end is where
    // the total crossed.
    (hi < n).then(|| hi.saturating_sub(1))
}

/// Moves every key > `pivot` to the front; returns how many and their total weight. Branch-free
/// Lomuto (swap always, advance by the comparison), since on a flat distribution half the
/// comparisons go either way and a branch would mispredict on every other key.
fn partition_above(keys: &mut [u64], pivot: u64) -> (usize, f64) {
    let mut split = 0usize;
    let mut mass = 0.0f64;
    for read in 0..keys.len() {
        let k = keys[read];
        // keys[split..read] are all ≤ pivot, so swapping within them keeps the invariant.
        keys.swap(split, read);
        let above = k > pivot;
        mass += if above { key_weight(k) } else { 0.0 };
        split += usize::from(above);
    }
    (split, mass)
}

/// The position of a pivot: the median of three pseudo-random positions (a fixed-seed
/// xorshift, so draws stay pure functions of their input).
fn median_of_three(range: &[u64], state: &mut u64) -> usize {
    let len = range.len() as u64;
    let mut pick = || {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        (*state % len) as usize
    };
    let (a, b, c) = (pick(), pick(), pick());
    let at = |i: usize| range.get(i).copied().unwrap_or(0);
    let (ka, kb, kc) = (at(a), at(b), at(c));
    if (ka <= kb) == (kb <= kc) {
        b
    } else if (kb <= ka) == (ka <= kc) {
        a
    } else {
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference: sort every key, walk the cumulative weight.
    fn sorted_walk(keys: &[u64], u: f64, z: f64) -> Drawn {
        let mut sorted = keys.to_vec();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        let mut cum = 0.0;
        for (rank, &k) in sorted.iter().enumerate() {
            cum += key_weight(k);
            if cum > u * z {
                return Drawn {
                    id: key_id(k),
                    rank,
                    cum: (cum / z).min(1.0),
                };
            }
        }
        Drawn {
            id: sorted.last().copied().map_or(0, key_id),
            rank: sorted.len() - 1,
            cum: 1.0,
        }
    }

    #[test]
    fn keys_order_by_weight_then_lower_id() {
        assert!(key(0.5, 3) > key(0.25, 1));
        assert!(key(0.5, 3) > key(0.5, 4));
        assert!(key(1e-40, 9) > key(0.0, 0)); // subnormal above zero
        assert_eq!(key_id(key(0.7, 12345)), 12345);
        assert_eq!(key_weight(key(0.75, 1)), 0.75);
    }

    #[test]
    fn selection_equals_the_sorted_walk_on_flat_and_tied_weights() {
        for n in [1usize, 2, 31, 33, 1000, 5000] {
            for weights in [
                vec![1.0f32; n],
                (0..n)
                    .map(|i| ((i * 37) % 5) as f32 * 0.25)
                    .collect::<Vec<_>>(),
                (0..n).map(|i| 1.0 / (1.0 + i as f32)).collect(),
            ] {
                let keys: Vec<u64> = weights
                    .iter()
                    .enumerate()
                    .map(|(i, &w)| key(w, i as u32))
                    .collect();
                let z: f64 = weights.iter().map(|&w| f64::from(w)).sum();
                if z == 0.0 {
                    continue;
                }
                for u in [
                    0.0,
                    1e-300,
                    1e-9,
                    0.3,
                    0.5,
                    0.999_999,
                    1.0 - f64::EPSILON / 2.0,
                ] {
                    let mut work = keys.clone();
                    let got = inverse_cdf(&mut work, u, z);
                    let want = sorted_walk(&keys, u, z);
                    assert_eq!((got.id, got.rank), (want.id, want.rank), "n {n} u {u}");
                    assert!((got.cum - want.cum).abs() < 1e-12);
                }
            }
        }
    }

    fn weights() -> impl proptest::strategy::Strategy<Value = Vec<f32>> {
        use proptest::prelude::*;
        let w = prop_oneof![
            4 => 0.0f32..1.0,
            2 => (0u8..4).prop_map(|q| f32::from(q) * 0.25), // ties, zeros
            1 => Just(1.0f32),
            1 => (-80.0f32..0.0).prop_map(f32::exp),           // a wide range
        ];
        prop_oneof![
            prop::collection::vec(w.clone(), 1..80),
            prop::collection::vec(w, 1000..4000),
        ]
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 300, failure_persistence: None, ..Default::default() })]

        /// u at 0, tiny, ordinary and just below 1, over flat, tied, zero and wide weights.
        #[test]
        fn selection_equals_the_sorted_walk(
            weights in weights(),
            u in proptest::prop_oneof![
                proptest::strategy::Just(0.0),
                proptest::strategy::Just(1e-300),
                1e-12f64..1e-6,
                0.0f64..1.0,
                proptest::strategy::Just(1.0 - f64::EPSILON / 2.0),
                (1.0 - 1e-9)..1.0f64,
            ],
        ) {
            let keys: Vec<u64> = weights.iter().enumerate().map(|(i, &w)| key(w, i as u32)).collect();
            let z: f64 = weights.iter().map(|&w| f64::from(w)).sum();
            proptest::prop_assume!(z > 0.0);
            let mut work = keys.clone();
            let got = inverse_cdf(&mut work, u, z);
            let want = sorted_walk(&keys, u, z);
            if (got.id, got.rank) != (want.id, want.rank) {
                // Only where summation order decides: u·z within rounding of the boundary.
                proptest::prop_assert!((want.cum - u).abs() < 1e-12, "u {} got {:?} want {:?}", u, got, want);
            }
            let mut sorted = keys.clone();
            sorted.sort_unstable();
            work.sort_unstable();
            proptest::prop_assert_eq!(work, sorted); // a permutation, nothing lost
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 300, failure_persistence: None, ..Default::default() })]

        /// typical-p's cut: the first item (score ascending, ties by id) whose running mass
        /// reaches `mass` (≥, HF) or passes it (>, llama.cpp), as a sort and a walk find it.
        #[test]
        fn first_crossing_equals_a_sorted_walk(
            scores in proptest::collection::vec((0u8..6, 0.0f64..1.0), 1..400),
            mass in proptest::prop_oneof![0.0f64..1.0, proptest::strategy::Just(1.0), proptest::strategy::Just(0.5)],
            strict in proptest::bool::ANY,
        ) {
            let z: f64 = scores.iter().map(|s| s.1).sum();
            proptest::prop_assume!(z > 0.0);
            let items: Vec<(f64, u32, f64)> = scores.iter().enumerate().map(|(i, &(q, w))| (f64::from(q) * 0.5, i as u32, w / z)).collect();
            let cmp = |a: &(f64, u32, f64), b: &(f64, u32, f64)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
            let crosses = |cum: f64| if strict { cum > mass } else { cum >= mass };
            let mut sorted = items.clone();
            sorted.sort_by(cmp);
            let mut cum = 0.0;
            let want = sorted.iter().position(|t| { cum += t.2; crosses(cum) });
            let mut work = items.clone();
            let got = first_crossing(&mut work, cmp, |t| t.2, crosses);
            if got != want {
                // Only where summation order decides.
                let at = want.or(got).unwrap_or(0);
                let through: f64 = sorted.iter().take(at + 1).map(|t| t.2).sum();
                proptest::prop_assert!((through - mass).abs() < 1e-12, "got {:?} want {:?}", got, want);
            }
        }
    }
}
