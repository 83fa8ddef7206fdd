//! What generation gives back: each token's output and why generation stopped.

use crate::decode::Trace;

/// Why generation stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The model chose the end-of-sequence token.
    Eos,
    /// `max_new_tokens` tokens were generated.
    MaxNewTokens,
    /// The generated text contains this stop sequence (matched on text, so
    /// it may span several tokens).
    StopSequence(String),
    /// The caller asked to stop.
    User,
    /// The context window is full.
    ContextFull,
}

impl StopReason {
    /// A short name for the page: `eos`, `max_new_tokens`, `stop_sequence`, `user`, `context_full`.
    pub fn name(&self) -> &'static str {
        match self {
            StopReason::Eos => "eos",
            StopReason::MaxNewTokens => "max_new_tokens",
            StopReason::StopSequence(_) => "stop_sequence",
            StopReason::User => "user",
            StopReason::ContextFull => "context_full",
        }
    }
}

/// Where generated text starts to repeat itself: the index of the first
/// `n`-token window that already occurred earlier in `tokens` (its length if
/// none does, or `n` is 0). Greedy decoding loops; this is how far it gets first.
///
/// ```
/// use nexttoken::generate::first_repeat;
/// assert_eq!(first_repeat(&[1, 2, 3, 4, 1, 2, 3], 3), 4);
/// assert_eq!(first_repeat(&[1, 2, 3, 4], 2), 4);
/// assert_eq!(first_repeat(&[1, 1, 1], 0), 3); // (a window of 0 panicked)
/// ```
pub fn first_repeat(tokens: &[u32], n: usize) -> usize {
    if n == 0 {
        return tokens.len();
    }
    // the window ending at i (≥ n ≥ 1) against every window starting before it
    (n..=tokens.len())
        .find(|&i| match (tokens.get(..i - 1), tokens.get(i - n..i)) {
            (Some(before), Some(last)) => before.windows(n).any(|w| w == last),
            _ => false,
        })
        .map_or(tokens.len(), |i| i - n)
}

/// What one generated (or forced) token produced.
#[derive(Clone, Debug, PartialEq)]
pub struct StepOutput {
    pub token: u32,
    /// The vocabulary entry (`北京`, `<0xE4>`, `</s>`).
    pub token_text: String,
    /// Text completed by this token (empty while a character is still
    /// being spelled out in bytes, or for the end-of-sequence token).
    pub piece: String,
    /// Bytes of an unfinished character, carried to the next token.
    pub pending: Vec<u8>,
    /// The decoding step's trace (`None` for `force`).
    pub trace: Option<Trace>,
    /// Set when this token ended generation.
    pub stop: Option<StopReason>,
}
