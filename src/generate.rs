//! The generation loop: model → logits → `decode::step` → append, one token
//! at a time, with the chapter's stop conditions.
//!
//! Invariant: after every call, `logits()` are the model's scores for the
//! token after `tokens()`, and the KV cache holds every token but (when the
//! context is full) the last one. `force` and `rewind` keep that invariant,
//! so branching is exact: the same tokens give bit-identical logits.
//!
//! States: *no prompt* (after construction) → *ready* (a prompt, perhaps generated tokens) ⇄
//! *stopped* (a stop condition; `rewind` or `set_prompt` leave it, and a `max_new_tokens` stop
//! lasts only while the limit does: raised above the tokens generated, generation goes on). A refused `set_prompt` keeps
//! the state it found (should the model fail midway through a prompt, it is left with none). Without a prompt only `set_prompt` (and the read-only views) are allowed: `next`,
//! `force`, `rewind` and `next_logits` are refused with `NoPrompt`. Every method checks its input
//! before changing anything, so a refused call leaves the state as it was.
//!
//! The context limit stops generation (`StopReason::ContextFull`) rather than
//! sliding: a slide would silently change what the model sees.

mod args;
mod batch;
mod error;
mod output;
mod records;

pub use args::{
    check_text, integer_arg, integer_arg_in, stop_sequences_arg, token_ids_arg, MAX_FORCED_LOGITS,
    MAX_FORCED_TOKENS, MAX_STOP_SEQUENCES, MAX_STOP_SEQUENCE_CHARS, MAX_TEXT_CHARS,
    MAX_TOKENIZER_JSON_CHARS,
};
pub use error::GenerateError;
pub use output::{first_repeat, StepOutput, StopReason};
pub use records::{ForcedRecord, RecordedRun};

use crate::decode::{self, Decoder, Trace};
use crate::model::{Cache, ForwardError, Model};
use crate::tokenizer::{split_utf8, Tokenizer};
use std::sync::Arc;

/// Model + tokenizer + decoder with the state of one generation.
pub struct Generator {
    /// Shared with the Generators `spawn` makes (read only: the context lives in `cache`).
    model: Arc<Model>,
    tokenizer: Arc<Tokenizer>,
    decoder: Decoder,
    cache: Cache,
    tokens: Vec<u32>,
    prompt_len: usize,
    logits: Vec<f32>,
    /// Generated text so far (complete characters) and its pending bytes.
    text: String,
    pending: Vec<u8>,
    stopped: Option<StopReason>,
    /// Default 64.
    pub max_new_tokens: usize,
    pub stop_sequences: Vec<String>,
}

impl Generator {
    pub fn new(model: Model, tokenizer: Tokenizer) -> Result<Generator, GenerateError> {
        let (mv, tv) = (model.config().vocab_size, tokenizer.vocab_size());
        if mv != tv {
            return Err(GenerateError::VocabMismatch {
                model: mv,
                tokenizer: tv,
            });
        }
        Ok(Generator::fresh(Arc::new(model), Arc::new(tokenizer)))
    }

    /// A Generator with no prompt over `model` and `tokenizer` (whose vocabularies match).
    fn fresh(model: Arc<Model>, tokenizer: Arc<Tokenizer>) -> Generator {
        Generator {
            cache: model.new_cache(),
            logits: vec![0.0; model.config().vocab_size],
            model,
            tokenizer,
            decoder: Decoder::default(),
            tokens: Vec::new(),
            prompt_len: 0,
            text: String::new(),
            pending: Vec::new(),
            stopped: None,
            max_new_tokens: 64,
            stop_sequences: Vec::new(),
        }
    }

    /// Loads the shipped files: safetensors bytes and `tokenizer.json` text.
    pub fn from_bytes(
        model_bytes: &[u8],
        tokenizer_json: &str,
    ) -> Result<Generator, GenerateError> {
        let model = Model::from_safetensors(model_bytes).map_err(GenerateError::Model)?;
        let tokenizer = Tokenizer::from_json(tokenizer_json).map_err(GenerateError::Tokenizer)?;
        Generator::new(model, tokenizer)
    }

    /// A new Generator over this one's model and tokenizer (shared, not copied), with no prompt,
    /// its own cache and decoder, default limits: what `from_bytes` on the same files gives,
    /// without parsing them again.
    pub fn spawn(&self) -> Generator {
        Generator::fresh(Arc::clone(&self.model), Arc::clone(&self.tokenizer))
    }

    pub fn model(&self) -> &Model {
        &self.model
    }

    pub fn tokenizer(&self) -> &Tokenizer {
        &self.tokenizer
    }

    /// Prompt then generated token ids.
    pub fn tokens(&self) -> &[u32] {
        &self.tokens
    }

    pub fn prompt_len(&self) -> usize {
        self.prompt_len
    }

    /// Scores for the next token (length = vocabulary size; all zero before a prompt, see
    /// [`Generator::next_logits`]).
    pub fn logits(&self) -> &[f32] {
        &self.logits
    }

    /// The scores for the next token, refused before a prompt (they would be all zero: a uniform
    /// distribution nobody asked for) and at a full context (the model never ran over the last
    /// token: they were the scores that token was chosen from, taken for the next one's).
    ///
    /// # Errors
    /// `NoPrompt`, `ContextFull`.
    pub fn next_logits(&self) -> Result<&[f32], GenerateError> {
        self.require_prompt("logits")?;
        let context = self.model.config().seq_len;
        if self.tokens.len() >= context {
            return Err(GenerateError::ContextFull {
                method: "logits",
                context,
            });
        }
        Ok(&self.logits)
    }

    /// Whether a prompt is set (`next`, `force`, `rewind` need one).
    pub fn has_prompt(&self) -> bool {
        self.prompt_len > 0
    }

    fn require_prompt(&self, method: &'static str) -> Result<(), GenerateError> {
        if self.has_prompt() {
            Ok(())
        } else {
            Err(GenerateError::NoPrompt { method })
        }
    }

    /// `method` may append a token: a prompt is set, generation has not stopped, and the context
    /// has room (a `rewind(0)` after a context_full stop clears the stop, not the context: the
    /// next token went past it, and the model with it).
    fn ready_to_append(&self, method: &'static str) -> Result<(), GenerateError> {
        self.require_prompt(method)?;
        if let Some(r) = self.stopped() {
            return Err(GenerateError::Stopped(r.clone()));
        }
        if self.tokens.len() >= self.model.config().seq_len {
            return Err(GenerateError::Stopped(StopReason::ContextFull));
        }
        Ok(())
    }

    /// Generated text (complete characters only).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Why generation stopped, if it has. A `max_new_tokens` stop holds only while the limit is
    /// reached: a limit raised since lets generation go on (a user's "10 more tokens" was refused,
    /// "rewind or set a new prompt", with nothing in those words about the limit).
    pub fn stopped(&self) -> Option<&StopReason> {
        match &self.stopped {
            Some(StopReason::MaxNewTokens)
                if self.tokens.len() - self.prompt_len < self.max_new_tokens =>
            {
                None
            }
            r => r.as_ref(),
        }
    }

    /// Starts over with `prompt`, running the model over all its tokens.
    pub fn set_prompt(&mut self, prompt: &str) -> Result<(), GenerateError> {
        // UTF-16 units ≤ UTF-8 bytes, so only a long text needs counting.
        if prompt.len() > MAX_TEXT_CHARS {
            check_text("prompt", prompt.encode_utf16().count())?;
        }
        let ids = self.tokenizer.encode(prompt);
        self.set_prompt_tokens(&ids)
    }

    /// Starts over with the given prompt tokens.
    pub fn set_prompt_tokens(&mut self, ids: &[u32]) -> Result<(), GenerateError> {
        let context = self.model.config().seq_len;
        if ids.is_empty() {
            return Err(GenerateError::EmptyPrompt);
        }
        if ids.len() >= context {
            return Err(GenerateError::PromptTooLong {
                tokens: ids.len(),
                context: context - 1,
            });
        }
        let vocab_size = self.model.config().vocab_size;
        if let Some(&token) = ids.iter().find(|&&id| id as usize >= vocab_size) {
            return Err(GenerateError::Forward(ForwardError::TokenOutOfRange {
                token,
                vocab_size,
            }));
        }
        self.cache.truncate(0);
        self.tokens.clear();
        self.text.clear();
        self.pending.clear();
        self.stopped = None;
        self.prompt_len = 0;
        // the whole prompt in one batch (the logits of its last position only)
        if let Err(e) = self
            .model
            .forward_many(ids, &mut self.cache, &mut self.logits)
        {
            // Back to "no prompt" rather than half a prompt.
            self.cache.truncate(0);
            return Err(e.into());
        }
        self.tokens.extend_from_slice(ids);
        self.prompt_len = ids.len();
        Ok(())
    }

    /// The caller's stop: the next `next`/`force` is refused until a
    /// `rewind` or a new prompt.
    pub fn stop(&mut self) {
        self.stopped = Some(StopReason::User);
    }

    /// Chooses the next token with `decode::step` and appends it, under `config` with this
    /// Generator's defaults ([`Generator::with_own_defaults`]): a seeded generation is
    /// reproducible token by token.
    pub fn next(&mut self, config: &decode::Config) -> Result<StepOutput, GenerateError> {
        self.ready_to_append("next")?;
        let generated = self.tokens.len() - self.prompt_len;
        if generated >= self.max_new_tokens {
            return Err(GenerateError::LimitReached {
                max_new_tokens: self.max_new_tokens,
                generated,
            });
        }
        let cfg = self.with_own_defaults(config)?;
        let trace = self.decoder.step(&self.logits, &cfg)?;
        self.append(trace.token, Some(trace))
    }

    /// `config` with what this Generator knows filled in where the caller left it out (`next`'s
    /// config, and `force_many_recorded`'s at its first position): `history` is the tokens so far
    /// (for penalties and min_new_tokens), the end ids include this model's and, with a seed,
    /// `draw` is the number of tokens generated so far.
    ///
    /// # Errors
    /// A caller's `history_prompt_len` past these tokens, named as such (`step` would call them
    /// "the history", which this caller never gave).
    fn with_own_defaults(&self, config: &decode::Config) -> Result<decode::Config, GenerateError> {
        let mut cfg = config.clone();
        if cfg.history.is_none() {
            let n = self.tokens.len();
            if let Some(len) = cfg.history_prompt_len.filter(|&len| len > n) {
                return Err(decode::StepError::OutOfRange {
                    field: "history_prompt_len".into(),
                    allowed: format!(
                        "in [0, {n}] (the tokens this Generator holds, its prompt's {} included: next's own history)",
                        self.prompt_len
                    ),
                    got: len.to_string(),
                }
                .into());
            }
            cfg.history = Some(self.tokens.clone());
            cfg.history_prompt_len.get_or_insert(self.prompt_len);
        }
        // min_new_tokens counts from `history` (above) and holds back this model's end token,
        // with the caller's own end ids if it names some (this Generator stops at its own either way)
        if let Some(own) = self.tokenizer.eos_id() {
            let ids = cfg.eos_token_id.get_or_insert_with(Vec::new);
            if !ids.contains(&own) {
                ids.push(own);
            }
        }
        if cfg.seed.is_some() && cfg.draw.is_none() {
            cfg.draw = Some((self.tokens.len() - self.prompt_len) as u64);
        }
        Ok(cfg)
    }

    /// Replaces the stop sequences by a caller's list, checked by [`stop_sequences_arg`].
    ///
    /// # Errors
    /// `Argument` naming the list or entry; the old list is kept.
    pub fn set_stop_sequences(&mut self, value: &decode::Value) -> Result<(), GenerateError> {
        self.stop_sequences = stop_sequences_arg(value)?;
        Ok(())
    }

    /// Appends `token` as if it had been chosen (branching).
    pub fn force(&mut self, token: u32) -> Result<StepOutput, GenerateError> {
        self.ready_to_append("force")?;
        let vocab_size = self.model.config().vocab_size;
        if token as usize >= vocab_size {
            return Err(GenerateError::Forward(ForwardError::TokenOutOfRange {
                token,
                vocab_size,
            }));
        }
        self.append(token, None)
    }

    /// Removes the last `n` generated tokens (not the prompt) and restores
    /// the exact state before them.
    pub fn rewind(&mut self, n: usize) -> Result<(), GenerateError> {
        self.require_prompt("rewind")?;
        let generated = self.tokens.len().saturating_sub(self.prompt_len);
        if n > generated {
            return Err(GenerateError::RewindTooFar {
                n,
                allowed: generated,
            });
        }
        // keep ≥ prompt_len ≥ 1 (a prompt is set), so there is a last kept token.
        let keep = self.tokens.len() - n;
        let Some(&last) = self.tokens.get(keep.wrapping_sub(1)) else {
            return Err(GenerateError::NoPrompt { method: "rewind" });
        };
        self.tokens.truncate(keep);
        // Recompute the last kept position to get its logits back; the cache
        // below it is untouched, so the result is the same as before.
        self.cache.truncate(keep - 1);
        self.model
            .forward(last, &mut self.cache, &mut self.logits)?;
        let mut bytes = Vec::new();
        for &id in self.tokens.iter().skip(self.prompt_len) {
            bytes.extend_from_slice(self.piece_bytes(id));
        }
        let (text, pending) = split_utf8(&bytes);
        self.text = text;
        self.pending = pending;
        self.stopped = None;
        Ok(())
    }

    /// Special tokens (`<unk>`, `<s>`, `</s>`) print nothing.
    fn piece_bytes(&self, id: u32) -> &[u8] {
        if matches!(self.tokenizer.token(id), Some("<unk>" | "<s>" | "</s>")) {
            return &[];
        }
        self.tokenizer.token_bytes(id).unwrap_or_default()
    }

    fn append(&mut self, token: u32, trace: Option<Trace>) -> Result<StepOutput, GenerateError> {
        let out = self.record(token, trace);
        if self.tokens.len() < self.model.config().seq_len {
            self.model
                .forward(token, &mut self.cache, &mut self.logits)?;
        }
        self.stopped = out.stop.clone();
        Ok(out)
    }

    /// What appending `token` changes but the model: the ids, the text, and whether it stops
    /// generation. The caller runs the model over it (`append`, `force_many`).
    fn record(&mut self, token: u32, trace: Option<Trace>) -> StepOutput {
        let context = self.model.config().seq_len;
        self.tokens.push(token);
        let mut bytes = std::mem::take(&mut self.pending);
        bytes.extend_from_slice(self.piece_bytes(token));
        let (piece, pending) = split_utf8(&bytes);
        let before = self.text.len();
        self.text.push_str(&piece);
        self.pending = pending;

        let generated = self.tokens.len() - self.prompt_len;
        let mut stop = None;
        if Some(token) == self.tokenizer.eos_id() {
            stop = Some(StopReason::Eos);
        } else if let Some(s) = self.matched_stop(before) {
            stop = Some(StopReason::StopSequence(s));
        } else if generated >= self.max_new_tokens {
            stop = Some(StopReason::MaxNewTokens);
        } else if self.tokens.len() >= context {
            stop = Some(StopReason::ContextFull);
        }
        StepOutput {
            token,
            token_text: self.tokenizer.token(token).unwrap_or_default().to_owned(),
            piece,
            pending: self.pending.clone(),
            trace,
            stop,
        }
    }

    /// A stop sequence that ends in the text added since byte `before`
    /// (so one spanning several tokens is found when its last part arrives).
    fn matched_stop(&self, before: usize) -> Option<String> {
        self.stop_sequences.iter().find_map(|s| {
            if s.is_empty() {
                return None;
            }
            // Start far enough back to catch a match that began earlier; backing up to a
            // character boundary can take in an old match whole, so one counts only if it ends
            // in the new text (a rewind(0) after 北京 stopped again at the next "，").
            let mut from = before.saturating_sub(s.len().saturating_sub(1));
            while !self.text.is_char_boundary(from) {
                from -= 1;
            }
            self.text[from..]
                .match_indices(s.as_str())
                .any(|(at, _)| from + at + s.len() > before)
                .then(|| s.clone())
        })
    }
}
