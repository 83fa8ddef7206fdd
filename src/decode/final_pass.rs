//! The final distribution: one pass turns the kept tokens into weights and order keys (draw.rs),
//! the entropy's sum and the sorted head the trace lists.

use super::candidates::Work;
use super::draw::{key, key_id};
use super::softmax::{cached, gathered_weights, logit_of, weights_into, weights_keys_and_sums};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

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
/// `ready`: Σ e·s when the first pass already wrote every weight and key (temperature the only
/// stage, softmax::raw_and_final); then only the head is picked here.
pub(crate) fn final_pass(
    work: &mut Work,
    max: f32,
    inv_t: f32,
    head_len: usize,
    ready: Option<f64>,
) -> FinalPass {
    let mut keys = std::mem::take(&mut work.keys);
    let weighted = if let Some(sum) = ready {
        sum
    } else if work.all_kept && work.input_removed == 0 {
        keys.clear();
        keys.reserve(work.kept.len());
        // Every id is kept: contiguous passes that vectorise (weights, then keys).
        let n = work.processed.len();
        let out = work.scratch.get_mut(..n).unwrap_or_default();
        let weighted = weights_into(&work.processed, max, inv_t, out);
        keys.extend(
            out.iter()
                .enumerate()
                .map(|(i, &e)| key(e as f32, i as u32)),
        );
        weighted
    } else {
        gathered_final(work, max, inv_t, &mut keys).1
    };
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

/// When every finite id is still kept, nothing is −inf and the normaliser is not known yet (a
/// bias or the penalties changed logits): the weights, keys, z and Σ e·s in one pass; z is
/// handed to `work` as its normaliser. Returns Σ e·s for `final_pass`'s `ready`, or None (then
/// the normaliser and the final pass compute what they need as before).
pub(crate) fn with_normaliser(work: &mut Work) -> Option<f64> {
    if work.has_normaliser() {
        return None;
    }
    if !work.all_kept {
        // A stage removed tokens: the normaliser is summed over `kept` in its order (as
        // `Work::normaliser` sums it), from the same exps the weights are.
        let max = work.max_logit();
        let inv_t = work.inv_t;
        let mut keys = std::mem::take(&mut work.keys);
        let (z, weighted) = gathered_final(work, max, inv_t, &mut keys);
        work.keys = keys;
        work.set_normaliser(z, max);
        return Some(weighted);
    }
    if work.input_removed != 0 {
        return None;
    }
    let max = work.max_logit();
    let n = work.processed.len();
    let mut keys = std::mem::take(&mut work.keys);
    let out = work.scratch.get_mut(..n).unwrap_or_default();
    let cached = work.exps.hit(max, work.inv_t, true);
    let (z, weighted) =
        weights_keys_and_sums(&work.processed, max, work.inv_t, cached, out, &mut keys);
    work.keys = keys;
    work.seed_normaliser(z, max);
    Some(weighted)
}

/// The final weights of the kept tokens when some were removed (a gather through `kept`): the
/// exps in float32 lanes with their sum, exactly `sum_weights`' (softmax::gathered_weights), then
/// one loop that writes each weight to `scratch`, its key, and Σ e·s in kept order, as the per-id
/// loop did. Returns (z, Σ e·s).
fn gathered_final(work: &mut Work, max: f32, inv_t: f32, keys: &mut Vec<u64>) -> (f64, f64) {
    let mut weights = std::mem::take(&mut work.weights32);
    let Work {
        processed,
        kept,
        scratch,
        exps,
        ..
    } = work;
    let z = match exps.hit(max, inv_t, false) {
        Some(e) => cached::weights_ids(e, kept, &mut weights),
        None => gathered_weights(processed, kept, max, inv_t, &mut weights),
    };
    // Keys and weights first, then the sum on its own: a loop with nothing but the one f64
    // addition chain keeps its accumulator in a register.
    keys.clear();
    keys.resize(kept.len(), 0);
    for ((k, &id), &e) in keys.iter_mut().zip(kept.iter()).zip(&weights) {
        *k = key(e, id);
        if let Some(slot) = scratch.get_mut(id as usize) {
            *slot = f64::from(e);
        }
    }
    let mut weighted = 0.0f64;
    for (&id, &e) in kept.iter().zip(&weights) {
        if e > 0.0 {
            // 0 · −inf would be NaN
            let sc = (logit_of(processed, id) - max) * inv_t;
            weighted += f64::from(e) * f64::from(sc);
        }
    }
    work.weights32 = weights;
    (z, weighted)
}
