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
    // A −inf bias bans the token; config bounds finite biases to ±100, so nothing overflows.
    let processed = &work.processed;
    let banned: Vec<u32> = bias
        .iter()
        .filter(|(id, _)| {
            processed
                .get(*id as usize)
                .is_some_and(|l| *l == f32::NEG_INFINITY)
        })
        .map(|(id, _)| *id)
        .collect();
    if !banned.is_empty() {
        work.retain(stage, |id| !banned.contains(&id));
    }
    Applied::default()
}
