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
    work.logits_changed();
    // A −inf bias bans the token; config bounds finite biases to ±100, so a kept (finite) logit
    // becomes −inf only through a ban. One pass over the kept ids, reading the processed logit:
    // O(kept + bans), never kept × bans.
    if bias.iter().any(|&(_, b)| b == f32::NEG_INFINITY) {
        let processed = std::mem::take(&mut work.processed);
        work.retain(stage, |id| {
            processed
                .get(id as usize)
                .is_some_and(|l| *l != f32::NEG_INFINITY)
        });
        work.processed = processed;
    }
    Applied::default()
}
