//! The listed head: the best few order keys (draw.rs), best first, picked in one read of the
//! keys by a small heap; that read also copies out the keys the draw's tally needs.

use super::draw::{self, key_id};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The `head_len` best keys, best first, by a small heap: one comparison rejects almost every
/// key.
pub(crate) fn heap_head(keys: &[u64], head_len: usize) -> Vec<u32> {
    let mut heap = HeadHeap::new(head_len);
    for &k in keys {
        heap.offer(k);
    }
    heap.into_ids()
}

/// `heap_head`, with every key tallied into the draw's bucket tables by the same loop.
pub(crate) fn heap_head_counted(keys: &[u64], head_len: usize, tables: &mut [u64]) -> Vec<u32> {
    let mut heap = HeadHeap::new(head_len);
    for (i, &k) in keys.iter().enumerate() {
        draw::tally(tables, i, k);
        heap.offer(k);
    }
    heap.into_ids()
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
        let mut best: Vec<u64> = self.heap.into_iter().map(|r| r.0).collect();
        best.sort_unstable_by(|a, b| b.cmp(a));
        best.into_iter().map(key_id).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::draw::key;

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
}
