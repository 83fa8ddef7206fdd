//! logit_bias (logit 偏置): adds a fixed amount to chosen tokens' logits before anything else;
//! −inf bans a token. Off when empty. Every engine applies it first (llama.cpp's `logit_bias`
//! sampler precedes the chain; vLLM applies it before penalties; HF's `sequence_bias` is a
//! processor too).

use super::super::candidates::{Work, KEPT};
use super::super::softmax::larger;
use super::Applied;

pub(crate) fn apply(work: &mut Work, bias: &[(u32, f32)], stage: u8) -> Applied {
    // The max before, when known, and whether a biased id holds it: if not, the max after is the
    // larger of it and the biased logits (a ban's −inf never is), with no pass over the kept ids.
    let old_max = work.known_max().filter(|m| {
        !bias
            .iter()
            .any(|&(id, _)| work.processed.get(id as usize) == Some(m))
    });
    for &(id, b) in bias {
        if let Some(l) = work.processed.get_mut(id as usize) {
            *l += b;
        }
    }
    work.logits_changed(bias.iter().map(|&(id, _)| id));
    if let Some(old) = old_max {
        let max = bias
            .iter()
            .filter(|&&(id, _)| work.removed_by.get(id as usize) == Some(&KEPT))
            .filter_map(|&(id, _)| work.processed.get(id as usize))
            .fold(old, |m, &l| larger(m, l));
        work.set_max(max);
    }
    // A −inf bias bans the token; config bounds finite biases to ±100, so a kept (finite) logit
    // becomes −inf only through a ban: the banned ids are marked, and one pass drops them from
    // the kept list (O(kept + bans), never kept × bans).
    let banned = bias
        .iter()
        .filter(|&&(_, b)| b == f32::NEG_INFINITY)
        .map(|&(id, _)| id);
    work.remove_ids(stage, banned);
    Applied::default()
}
