//! min_new_tokens (最少生成 Token 数): removes the end-of-sequence token(s) while fewer than n new
//! tokens have been generated, so generation cannot stop early. 0 = off.
//!
//! New tokens = `history` length − `history_prompt_len` (HF: `input_ids` length − the prompt
//! length, `MinNewTokensLengthLogitsProcessor`); the eos ids come from `eos_token_id` (an id or a
//! list). Position: HF applies it among the logits processors, after repetition penalty and before
//! greedy's argmax and every warper; vLLM's `min_tokens` runs first, with logit_bias, before the
//! penalties; llama.cpp has no minimum (its `ignore_eos` is a −inf logit bias on the end tokens for
//! the whole run), so it sits with its logit bias, first. Removing a token the other way round
//! changes nothing else, so the order only decides which stage the trace credits.

use super::super::candidates::Work;
use super::super::config::Settings;
use super::Applied;

pub(crate) fn apply(work: &mut Work, s: &Settings, stage: u8) -> Applied {
    let applied = Applied {
        value: Some(s.min_new_tokens as f64),
        threshold: Some(s.new_tokens as f64),
    };
    if s.new_tokens < s.min_new_tokens {
        work.remove_ids(stage, s.eos_token_id.iter().copied());
    }
    applied
}
