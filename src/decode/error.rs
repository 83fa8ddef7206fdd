//! `StepError`: every way `step` can refuse its input, each naming the field, the rule and the value.
//!
//! Kept separate so the wording (which is part of the API and tested) lives in one place.

use std::fmt;

/// Why `step` refused its input. The `Display` text names the field first, then the rule, then what
/// was received: `top_p must be in [0, 1], got 1.5`.
#[derive(Debug, Clone, PartialEq)]
pub enum StepError {
    /// The logits array is empty.
    EmptyLogits,
    /// `logits[index]` is NaN or +inf.
    BadLogit { index: usize, value: f32 },
    /// Every logit is −inf (or was banned), so there is nothing to choose from.
    AllNegativeInfinity,
    /// The config is not a plain object.
    NotAnObject { got: String },
    /// A config key that does not exist (e.g. the typo `top_pp`): as written, cut by
    /// `limits::as_given`; quoted with `limits::short` and matched for a suggestion by what of it
    /// is visible.
    UnknownKey { key: String },
    /// A config value outside its allowed range, or of another type (a number written as a
    /// string too): `allowed` names the range either way.
    OutOfRange {
        field: String,
        allowed: String,
        got: String,
    },
    /// More logits than one call accepts ([`super::limits::MAX_LOGITS`]).
    TooManyLogits { len: usize },
    /// A penalty pushed a logit past float32's range; `penalties` names the ones set, as given
    /// (`repetition_penalty 1e-30`).
    Overflow { index: usize, penalties: String },
    /// A stage (a −inf logit_bias, say) left no token to choose from.
    NothingLeft { stage: &'static str },
    /// No seed was given and the platform's entropy source failed.
    NoEntropy { reason: String },
    /// A key whose stage the chosen engine does not have, set to something other than its off value.
    NotInEngine {
        field: &'static str,
        engine: &'static str,
        off: &'static str,
    },
}

impl fmt::Display for StepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepError::EmptyLogits => {
                write!(f, "logits must have at least one entry, got an empty array")
            }
            StepError::BadLogit { index, value } => {
                // as JavaScript writes them: NaN, Infinity (Rust's "inf" is no JS value)
                let what = super::value::format_number(f64::from(*value));
                write!(f, "logits[{index}] must be finite or -inf, got {what}")
            }
            StepError::AllNegativeInfinity => {
                write!(
                    f,
                    "logits must contain at least one finite value, got all -inf"
                )
            }
            StepError::NotAnObject { got } => write!(f, "config must be an object, got {got}"),
            StepError::UnknownKey { key } => {
                write!(f, "unknown key \"{}\" in config", super::limits::short(key))?;
                // what the reader sees of it: `top_k\u200B` most likely meant top_k
                let seen = super::echo::visible_part(key);
                if let Some(instead) = super::suggest::elsewhere_for(&seen) {
                    return write!(f, " ({instead})");
                }
                match super::suggest::known_key_for(&seen) {
                    Some(known) => write!(f, "; did you mean \"{known}\"?"),
                    None => Ok(()),
                }
            }
            StepError::OutOfRange {
                field,
                allowed,
                got,
            } => {
                write!(f, "{field} must be {allowed}, got {got}")
            }
            StepError::TooManyLogits { len } => {
                write!(
                    f,
                    "logits must have at most {} entries, got {len}",
                    super::limits::MAX_LOGITS
                )
            }
            StepError::Overflow { index, penalties } => {
                write!(f, "logits[{index}] overflows float32 after {penalties}; use a penalty closer to its off value")
            }
            StepError::NothingLeft { stage } => {
                write!(
                    f,
                    "{stage} must leave at least one token, but removed every remaining one"
                )
            }
            StepError::NoEntropy { reason } => {
                write!(f, "seed was not given and no random seed could be obtained ({reason}); pass a seed")
            }
            StepError::NotInEngine { field, engine, off } => {
                write!(
                    f,
                    "{field} has no stage in engine \"{engine}\"; leave it at {off}"
                )
            }
        }
    }
}

impl std::error::Error for StepError {}
