//! `force` over many tokens with one batched forward pass (a link's forced tokens): the model
//! reads each weight matrix once per layer for all of them (`Model::forward_many`), and the
//! generator ends in the state, and gives the outputs and logits, of forcing them one by one.

use super::{GenerateError, Generator, StepOutput, MAX_FORCED_LOGITS};
use crate::model::ForwardError;

impl Generator {
    /// Forces `tokens` in order, ending after the first one that stops generation (the rest are
    /// not appended, as `force` would refuse them). Returns each appended token's output and the
    /// logits each one was forced at, row after row (`vocab_size` each: the first row is what
    /// `next_logits` gave before the call, the next the model's scores after the first token…).
    /// Refused with nothing changed without a prompt, after a stop, or for a token outside the
    /// vocabulary.
    pub fn force_many(
        &mut self,
        tokens: &[u32],
    ) -> Result<(Vec<StepOutput>, Vec<f32>), GenerateError> {
        self.ready_to_append("forceMany")?;
        let config = self.model.config();
        let vocab_size = config.vocab_size;
        if let Some(&token) = tokens.iter().find(|&&t| t as usize >= vocab_size) {
            return Err(GenerateError::Forward(ForwardError::TokenOutOfRange {
                token,
                vocab_size,
            }));
        }
        let start = self.tokens.len();
        // one row of logits before the tokens and one per token the context takes (below)
        let fits = tokens.len().min(config.seq_len.saturating_sub(start + 1));
        let rows_needed = (1 + fits).checked_mul(vocab_size);
        if rows_needed.is_none_or(|n| n > MAX_FORCED_LOGITS) {
            return Err(GenerateError::Argument {
                name: "forceMany tokens".into(),
                allowed: format!(
                    "at most {} token ids for a vocabulary of {vocab_size} (a row of logits each, at most {MAX_FORCED_LOGITS} values in all)",
                    (MAX_FORCED_LOGITS / vocab_size.max(1)).saturating_sub(1)
                ),
                got: format!("{} token ids", tokens.len()),
            });
        }
        let mut outs = Vec::with_capacity(tokens.len());
        for &token in tokens {
            let out = self.record(token, None);
            let stops = out.stop.is_some();
            outs.push(out);
            if stops {
                break;
            }
        }
        // the model runs over every appended token but one that fills the context (as `append`)
        let fed = outs.len().min(config.seq_len.saturating_sub(start + 1));
        let mut rows = vec![0.0; (1 + fed) * vocab_size];
        let (before, after) = rows.split_at_mut(vocab_size);
        before.copy_from_slice(&self.logits);
        let ids: Vec<u32> = self.tokens.iter().skip(start).take(fed).copied().collect();
        if let Err(e) = self.model.forward_many(&ids, &mut self.cache, after) {
            // cannot happen (ids and room checked above); never leave tokens the cache lacks
            self.tokens.truncate(start);
            return Err(e.into());
        }
        if let Some(last) = rows
            .chunks_exact(vocab_size.max(1))
            .nth(fed)
            .filter(|_| fed > 0)
        {
            self.logits.copy_from_slice(last);
        }
        rows.truncate(outs.len() * vocab_size);
        self.stopped = outs.last().and_then(|out| out.stop.clone());
        Ok((outs, rows))
    }
}
