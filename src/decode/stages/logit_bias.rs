//! logit_bias (logit 偏置): adds a fixed amount to chosen tokens' logits before anything else;
//! −inf bans a token. Off when empty. Every engine applies it first (llama.cpp's `logit_bias`
//! sampler precedes the chain; vLLM applies it before penalties; HF's `sequence_bias` is a
//! processor too).

use super::super::candidates::Work;
use super::Applied;

pub(crate) fn apply(work: &mut Work, bias: &[(u32, f32)], stage: u8) -> Applied {
    for &(id, b) in bias {
        if let Some(l) = work.processed.get_mut(id as usize) {
            *l += b;
        }
    }
    work.logits_changed(bias.iter().map(|&(id, _)| id));
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
