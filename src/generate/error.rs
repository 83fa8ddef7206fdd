//! `GenerateError`: everything that can go wrong while generating, each message naming the
//! method or argument, the rule and the value.

use std::fmt;

use super::StopReason;
use crate::decode::StepError;
use crate::model::{self, ForwardError};
use crate::tokenizer;

/// Everything that can go wrong while generating.
#[derive(Clone, Debug, PartialEq)]
pub enum GenerateError {
    Tokenizer(tokenizer::TokenizerError),
    Model(model::LoadError),
    /// The model's and tokenizer's vocabularies differ in size.
    VocabMismatch {
        model: usize,
        tokenizer: usize,
    },
    /// The prompt encodes to no tokens.
    EmptyPrompt,
    /// The prompt has more tokens than the context holds.
    PromptTooLong {
        tokens: usize,
        context: usize,
    },
    Forward(ForwardError),
    Step(StepError),
    /// `next`/`force` after a stop; `rewind` or `set_prompt` first.
    Stopped(StopReason),
    /// `next` when `max_new_tokens` (lowered after generating) is already reached.
    LimitReached {
        max_new_tokens: usize,
        generated: usize,
    },
    /// `rewind(n)` with n larger than the generated tokens.
    RewindTooFar {
        n: usize,
        allowed: usize,
    },
    /// `next`, `force`, `rewind` or `logits` before any prompt was set.
    NoPrompt {
        method: &'static str,
    },
    /// `logits` when the context is full: no next token fits, so none has scores.
    ContextFull {
        method: &'static str,
        context: usize,
    },
    /// An argument outside its allowed range or of the wrong type:
    /// `force token must be an integer in [0, 7999], got 7999.9`.
    Argument {
        name: String,
        allowed: String,
        got: String,
    },
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenerateError::Tokenizer(e) => write!(f, "{e}"),
            GenerateError::Model(e) => write!(f, "{e}"),
            GenerateError::VocabMismatch { model, tokenizer } => {
                write!(
                    f,
                    "model vocabulary ({model}) and tokenizer vocabulary ({tokenizer}) differ"
                )
            }
            GenerateError::EmptyPrompt => write!(f, "prompt must contain at least one character"),
            GenerateError::PromptTooLong { tokens, context } => {
                write!(f, "prompt must be at most {context} tokens, got {tokens}")
            }
            GenerateError::Forward(e) => write!(f, "{e}"),
            GenerateError::Step(e) => write!(f, "{e}"),
            GenerateError::Stopped(r) => write!(
                f,
                "generation has stopped ({}); rewind or set a new prompt",
                r.name()
            ),
            GenerateError::LimitReached {
                max_new_tokens,
                generated,
            } => write!(
                f,
                "next needs max_new_tokens above the tokens generated, got {max_new_tokens} with {generated} generated; raise it (setMaxNewTokens) or rewind"
            ),
            GenerateError::RewindTooFar { n, allowed } => {
                write!(
                    f,
                    "rewind n must be in [0, {allowed}] (the generated tokens), got {n}"
                )
            }
            GenerateError::NoPrompt { method } => write!(
                f,
                "{method} needs a prompt: call setPrompt first (the Generator has none yet)"
            ),
            GenerateError::ContextFull { method, context } => write!(
                f,
                "{method} needs room for a next token, but the context is full ({context} of {context} tokens); rewind first"
            ),
            GenerateError::Argument { name, allowed, got } => {
                write!(f, "{name} must be {allowed}, got {got}")
            }
        }
    }
}

impl std::error::Error for GenerateError {}

impl From<ForwardError> for GenerateError {
    fn from(e: ForwardError) -> Self {
        GenerateError::Forward(e)
    }
}

impl From<StepError> for GenerateError {
    fn from(e: StepError) -> Self {
        GenerateError::Step(e)
    }
}
