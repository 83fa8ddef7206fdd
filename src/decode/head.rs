//! The listed head: the best few order keys (draw.rs), best first, picked in one read of the
//! keys by a small heap; that read also copies out the keys the draw's tally needs.

use super::draw::key_id;
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

/// `heap_head`, and the keys at or above `gate` copied, in order, to the front of `gated` (which
/// holds at least as many slots as `keys`): a store per key and no branch, so it costs the heap's
/// loop little where a tally's read-modify-write per key cost half the floor. Returns the head
/// and how many keys were copied.
pub(crate) fn heap_head_gated(
    keys: &[u64],
    head_len: usize,
    gate: u64,
    gated: &mut [u64],
) -> (Vec<u32>, usize) {
    let mut heap = HeadHeap::new(head_len);
    let mut len = 0usize;
    for (&k, _) in keys.iter().zip(0..gated.len()) {
        // len ≤ i < gated.len()
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
