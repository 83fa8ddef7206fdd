//! The listed head: the best few order keys (draw.rs), best first, picked in one read of the
//! keys by a small heap; that read also copies out the keys the draw's tally needs.

use super::draw::{key, key_id, key_weight};
use super::softmax::{exp_band, final_weight};
use super::stages::lowest_passing_f32;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The ids of the `head_len` best keys, best first.
pub(crate) fn heap_head(keys: &[u64], head_len: usize) -> Vec<u32> {
    heap_head_keys(keys, head_len)
        .into_iter()
        .map(key_id)
        .collect()
}

/// The `len` best keys themselves, best first, by a small heap (a draw may land among them:
/// draw.rs `within_head`).
pub(crate) fn heap_head_keys(keys: &[u64], len: usize) -> Vec<u64> {
    let mut heap = HeadHeap::new(len);
    let mut groups = keys.chunks_exact(8);
    for group in &mut groups {
        // Once the heap is full almost no group holds a key for it: one comparison of its
        // largest key (a fold that vectorises) passes it over.
        if group.iter().fold(0u64, |m, &k| m.max(k)) > heap.floor {
            for &k in group {
                heap.offer(k);
            }
        }
    }
    for &k in groups.remainder() {
        heap.offer(k);
    }
    heap.into_keys()
}

/// `heap_head`, and the keys at or above `gate` copied, in order, to the front of `gated` (which
/// holds at least as many slots as `keys`). Eight keys at a time: a group none of whose keys
/// either wants is passed over after one comparison of its largest key; any other is copied with
/// a store per key and no branch (a branch per key mispredicts where a third of the keys pass,
/// T 1.5). Returns the head and how many keys were copied.
pub(crate) fn heap_head_gated(
    keys: &[u64],
    head_len: usize,
    gate: u64,
    gated: &mut [u64],
) -> (Vec<u32>, usize) {
    let mut heap = HeadHeap::new(head_len);
    let mut len = 0usize;
    let gated = gated.get_mut(..keys.len()).unwrap_or_default();
    let mut groups = keys.chunks_exact(8);
    for group in &mut groups {
        // A group with no key the draw or the heap wants (on a peaked distribution, almost every
        // one) costs eight loads and a comparison; any other is copied without a branch per key.
        let top = group.iter().fold(0u64, |m, &k| m.max(k));
        if top >= gate.min(heap.floor.saturating_add(1)) {
            for &k in group {
                // len ≤ the key's index < gated.len()
                if let Some(slot) = gated.get_mut(len) {
                    *slot = k;
                }
                len += usize::from(k >= gate);
                heap.offer(k);
            }
        }
    }
    for &k in groups.remainder() {
        if let Some(slot) = gated.get_mut(len) {
            *slot = k;
        }
        len += usize::from(k >= gate);
        heap.offer(k);
    }
    (heap.into_ids(), len)
}

/// `heap_head_gated` over keys that were never stored (`Work::weights_by_exp`): id i's key is
/// `key(final_weight(logits[i], max, inv_t), i)`, or `key(remembered[i], i)` when a pass kept
/// those weights (softmax/cached.rs: the same float32). A group of eight whose every weight lies
/// below both the gate's weight and the heap's worst key's holds no key either wants: it costs
/// eight comparisons and no exp. Over logits the bound is the least logit that reaches the band
/// where `exp_f32` reaches that weight (softmax/band.rs). Any other group's keys are computed and
/// handled exactly as `heap_head_gated` handles them, so the head, the copied keys and their
/// order are the same.
pub(crate) fn heap_head_gated_by_exp(
    logits: &[f32],
    (max, inv_t): (f32, f32),
    remembered: Option<&[f32]>,
    holes: &[u32],
    head_len: usize,
    gate: u64,
    gated: &mut [u64],
) -> (Vec<u32>, usize) {
    let scale = (max, inv_t);
    let (best, len) = match remembered.and_then(|e| e.get(..logits.len())) {
        Some(e) => gated_read::<true>(e, scale, holes, head_len, gate, gated),
        None => gated_read::<false>(logits, scale, holes, head_len, gate, gated),
    };
    (best.into_iter().map(key_id).collect(), len)
}

/// The `len` best keys of weights never stored, best first, by the same read with no gate: only
/// the groups that can reach the heap take their exps (a draw may land among them: draw.rs
/// `within_head`).
pub(crate) fn heap_head_by_exp(
    logits: &[f32],
    scale: (f32, f32),
    remembered: Option<&[f32]>,
    holes: &[u32],
    len: usize,
) -> Vec<u64> {
    let none = &mut [][..];
    match remembered.and_then(|e| e.get(..logits.len())) {
        Some(e) => gated_read::<true>(e, scale, holes, len, NO_GATE, none).0,
        None => gated_read::<false>(logits, scale, holes, len, NO_GATE, none).0,
    }
}

/// A gate no key reaches (a key's weight bits are at most +inf's, below all ones).
const NO_GATE: u64 = u64::MAX;

/// `heap_head_gated_by_exp` over `values`: the weights themselves (REMEMBERED) or the logits;
/// the ids in `holes` (ascending: ids not kept) are passed over. Returns the head's keys, best
/// first, and how many keys were copied.
fn gated_read<const REMEMBERED: bool>(
    values: &[f32],
    (max, inv_t): (f32, f32),
    holes: &[u32],
    head_len: usize,
    gate: u64,
    gated: &mut [u64],
) -> (Vec<u64>, usize) {
    // Below this value every weight is under `w` (−inf: no such bound known). Over logits: the
    // least logit whose scaled value reaches the band's low end (the scaling rounds
    // monotonically, so every lower logit scales below it).
    let below = |w: f32| {
        if REMEMBERED {
            return w;
        }
        match exp_band(w) {
            Some((lo, _)) => {
                let reaches = |l: f32| (l - max) * inv_t >= lo;
                lowest_passing_f32(lo / inv_t + max, reaches).unwrap_or(f32::NEG_INFINITY)
            }
            None => f32::NEG_INFINITY,
        }
    };
    let weight = |v: f32| {
        if REMEMBERED {
            v
        } else {
            final_weight(v, max, inv_t)
        }
    };
    // A key reaches the gate iff its weight's bits reach the gate's high half (its low half is 0).
    let v_gate = if gate == NO_GATE {
        f32::INFINITY
    } else {
        below(f32::from_bits((gate >> 32) as u32))
    };
    let mut heap = HeadHeap::new(head_len);
    // While the heap is not full every key is wanted; with no head, none.
    let mut v_skip = if head_len == 0 {
        v_gate
    } else {
        f32::NEG_INFINITY
    };
    let mut floor = heap.floor;
    let mut len = 0usize;
    let gated = gated.get_mut(..values.len()).unwrap_or_default();
    let mut take = |heap: &mut HeadHeap, id: usize, e: f32| {
        let k = key(e, id as u32);
        // len ≤ id < gated.len()
        if let Some(slot) = gated.get_mut(len) {
            *slot = k;
        }
        len += usize::from(k >= gate);
        heap.offer(k);
    };
    // The first hole at or after `id` (ids are read in ascending order), usize::MAX past the
    // last: a group holding none is read as if there were no holes.
    let mut hole = 0usize;
    let mut next_hole = |id: usize| {
        while holes.get(hole).is_some_and(|&h| (h as usize) < id) {
            hole += 1;
        }
        holes.get(hole).map_or(usize::MAX, |&h| h as usize)
    };
    let mut groups = values.chunks_exact(8);
    for (g, group) in (&mut groups).enumerate() {
        // Eight comparisons and one branch (a max over the group is a serial chain).
        if group.iter().fold(false, |any, &v| any | (v >= v_skip)) {
            // The eight weights first, so that the exps vectorise; then each key in id order.
            let mut es = [0.0f32; 8];
            for (e, &v) in es.iter_mut().zip(group) {
                *e = weight(v);
            }
            if next_hole(g * 8) < g * 8 + 8 {
                for (j, &e) in es.iter().enumerate() {
                    if next_hole(g * 8 + j) != g * 8 + j {
                        take(&mut heap, g * 8 + j, e);
                    }
                }
            } else {
                for (j, &e) in es.iter().enumerate() {
                    take(&mut heap, g * 8 + j, e);
                }
            }
            if heap.floor != floor {
                floor = heap.floor;
                v_skip = v_gate.min(below(key_weight(floor) as f32));
            }
        }
    }
    let start = values.len() - groups.remainder().len();
    for (j, &v) in groups.remainder().iter().enumerate() {
        if next_hole(start + j) != start + j {
            take(&mut heap, start + j, weight(v));
        }
    }
    (heap.into_keys(), len)
}

/// The best `len` keys offered so far, in a small heap whose worst key rejects almost every
/// other one with one comparison.
#[derive(Debug)]
struct HeadHeap {
    heap: BinaryHeap<Reverse<u64>>,
    /// The worst key in a full heap; 0 = not full yet.
    floor: u64,
    len: usize,
}

impl HeadHeap {
    fn new(len: usize) -> Self {
        Self {
            heap: BinaryHeap::with_capacity(len + 1),
            floor: 0,
            len,
        }
    }

    #[inline(always)]
    fn offer(&mut self, k: u64) {
        if k > self.floor && self.len > 0 {
            self.heap.push(Reverse(k));
            if self.heap.len() > self.len {
                self.heap.pop();
            }
            if self.heap.len() == self.len {
                self.floor = self.heap.peek().map_or(0, |r| r.0);
            }
        }
    }

    /// The ids of the kept keys, best first.
    fn into_ids(self) -> Vec<u32> {
        self.into_keys().into_iter().map(key_id).collect()
    }

    /// The kept keys, best first.
    fn into_keys(self) -> Vec<u64> {
        let mut best: Vec<u64> = self.heap.into_iter().map(|r| r.0).collect();
        best.sort_unstable_by(|a, b| b.cmp(a));
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The gated read gives the heap's head over every key and exactly the keys at or above the
    /// gate, in id order: peaked and flat weights, a head longer than the list, tails of 1–7.
    #[test]
    fn the_gated_read_is_the_head_and_the_filter() {
        for n in [0usize, 5, 8, 3_001, 20_007] {
            let peaked: Vec<f32> = (0..n)
                .map(|i| {
                    ((i * 7919 % 1013) as f32 * -0.03).exp() * if i % 997 == 3 { 1e3 } else { 1.0 }
                })
                .collect();
            for weights in [peaked, vec![0.5f32; n]] {
                let keys: Vec<u64> = weights
                    .iter()
                    .enumerate()
                    .map(|(i, &w)| key(w, i as u32))
                    .collect();
                for (head_len, gate) in [
                    (0, key(0.9, 0)),
                    (10, key(0.3, 0)),
                    (40, 0),
                    (30_000, key(0.5, 7)),
                    (3, key(0.5, 16)),
                ] {
                    let mut gated = vec![0u64; n];
                    let (head, len) = heap_head_gated(&keys, head_len, gate, &mut gated);
                    assert_eq!(head, heap_head(&keys, head_len));
                    let want: Vec<u64> = keys.iter().copied().filter(|&k| k >= gate).collect();
                    assert_eq!(
                        gated[..len],
                        want[..],
                        "n {n} head {head_len} gate {gate:x}"
                    );
                    let mut sorted = keys.clone();
                    sorted.sort_unstable_by(|a, b| b.cmp(a));
                    let best: Vec<u32> = sorted.iter().take(head_len).map(|&k| key_id(k)).collect();
                    assert_eq!(head, best);
                }
            }
        }
    }

    /// The read of weights stored nowhere (from the logits, or from remembered weights) gives
    /// the stored keys' head and gated keys, with holes (ids not kept) or without: peaked,
    /// flat, wide and tied logits, T 1 / 0.7 / 1.5, gates from none to above every key, heads of
    /// 0 to longer than the vocabulary, tails of 1–7, ids near the gate's and the heap's bands.
    #[test]
    fn the_read_by_exp_is_the_gated_read_of_the_keys() {
        for n in [1usize, 8, 13, 4_099, 20_007] {
            let peaked: Vec<f32> = (0..n)
                .map(|i| (i * 7919 % 1013) as f32 * -0.013 + if i % 997 == 3 { 9.0 } else { 0.0 })
                .collect();
            let wide: Vec<f32> = (0..n)
                .map(|i| (i * 104_729 % 20_011) as f32 * -0.01)
                .collect();
            let ties: Vec<f32> = (0..n).map(|i| (i % 5) as f32 * -3.0).collect();
            for logits in [peaked, wide, ties, vec![0.25f32; n]] {
                let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                for inv_t in [1.0f32, 1.0 / 0.7, 1.0 / 1.5] {
                    let keys: Vec<u64> = logits
                        .iter()
                        .enumerate()
                        .map(|(i, &l)| key(final_weight(l, max, inv_t), i as u32))
                        .collect();
                    let mut sorted = keys.clone();
                    sorted.sort_unstable_by(|a, b| b.cmp(a));
                    let at = |r: usize| sorted.get(r.min(n - 1)).copied().unwrap_or(0);
                    for (head_len, gate) in [
                        (0, at(n / 3)),
                        (20, (at(n / 50) >> 52) << 52),
                        (20, 0),
                        (3, at(0)),
                        (40, u64::MAX),
                        (30_000, at(n / 2)),
                    ] {
                        let weights: Vec<f32> = logits
                            .iter()
                            .map(|&l| final_weight(l, max, inv_t))
                            .collect();
                        // Without holes, and with the best key's id, the first, the last and
                        // a run of three not kept (an end id held back, bans).
                        let top = key_id(at(0));
                        let mut holes = vec![0, top, n as u32 / 2, n as u32 / 2 + 1];
                        holes.extend([n as u32 / 2 + 2, n as u32 - 1]);
                        holes.sort_unstable();
                        holes.dedup();
                        holes.retain(|&h| (h as usize) < n);
                        for holes in [vec![], holes] {
                            let kept: Vec<u64> = keys
                                .iter()
                                .copied()
                                .filter(|&k| !holes.contains(&key_id(k)))
                                .collect();
                            let (mut want_gated, mut gated) = (vec![0u64; n], vec![0u64; n]);
                            let want = heap_head_gated(&kept, head_len, gate, &mut want_gated);
                            for remembered in [None, Some(&weights[..])] {
                                let scale = (max, inv_t);
                                let got = heap_head_gated_by_exp(
                                    &logits, scale, remembered, &holes, head_len, gate, &mut gated,
                                );
                                let at = format!("n {n} head {head_len} gate {gate:x} {holes:?}");
                                assert_eq!(got.0, want.0, "{at}");
                                assert_eq!(got.1, want.1, "{at}");
                                assert_eq!(gated[..got.1], want_gated[..want.1], "{at}");
                            }
                        }
                    }
                }
            }
        }
    }
}
