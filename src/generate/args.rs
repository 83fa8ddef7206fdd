//! What the Generator accepts from a caller, checked before anything changes: integer arguments
//! taken as f64 and range-checked (never wrapped or truncated), text and stop-sequence sizes.

use super::GenerateError;
use crate::decode::limits::short;
use crate::decode::Value;

/// Longest text `setPrompt` and `encode` accept, in UTF-16 code units (JavaScript's `length`):
/// 2^20 = 1,048,576. Encoding costs about 50 bytes per unit, so this bounds a call near 50 MB.
pub const MAX_TEXT_CHARS: usize = 1 << 20;
/// Longest `tokenizer.json` text accepted, in UTF-16 code units: 2^23 (the shipped one is 0.2 MB).
pub const MAX_TOKENIZER_JSON_CHARS: usize = 1 << 23;
/// Most stop sequences a Generator holds.
pub const MAX_STOP_SEQUENCES: usize = 64;
/// Longest stop sequence, in characters.
pub const MAX_STOP_SEQUENCE_CHARS: usize = 256;
/// Most tokens one `forceMany` call takes: the longest context a model may have (`seq_len`).
pub const MAX_FORCED_TOKENS: usize = 1 << 16;
/// Most logits one `forceMany` call returns (a row of `vocab_size` per token, 64 MB): the shipped
/// model's longest link needs 128 × 8,000. Without it a large-vocabulary model with a long
/// context asked for (1 + 65,535) × 10^6 floats, which wrapped on wasm32 or aborted.
pub const MAX_FORCED_LOGITS: usize = 1 << 24;

/// An integer argument in [0, `max`]: `value` is the number the caller passed, or (when it was not
/// a number) a description of what it was (`string "abc"`, `undefined`). NaN, fractions, negatives and values past `max` are
/// errors naming `name`, the range and the value — never wrapped (`2**32 + 5` is not 5) or
/// truncated (`7999.9` is not 7999).
///
/// # Errors
/// `GenerateError::Argument`.
pub fn integer_arg(name: &str, value: Result<f64, String>, max: u64) -> Result<u64, GenerateError> {
    integer_arg_in(name, value, 0, max)
}

/// An integer argument in [`min`, `max`] (`setMaxNewTokens`: at least 1, as HF's
/// `max_new_tokens`; 0 used to make one token all the same).
///
/// # Errors
/// `GenerateError::Argument`, as [`integer_arg`].
pub fn integer_arg_in(
    name: &str,
    value: Result<f64, String>,
    min: u64,
    max: u64,
) -> Result<u64, GenerateError> {
    let allowed = || format!("an integer in [{min}, {max}]");
    match value {
        Ok(n) if n.fract() == 0.0 && n >= min as f64 && n <= max as f64 => Ok(n as u64),
        Ok(n) => Err(GenerateError::Argument {
            name: name.into(),
            allowed: allowed(),
            got: Value::Number(n).describe(),
        }),
        Err(other) => Err(GenerateError::Argument {
            name: name.into(),
            allowed: allowed(),
            got: other,
        }),
    }
}

/// Checks a text argument's length (`utf16_len`, as JavaScript counts it).
///
/// # Errors
/// `GenerateError::Argument` when it is longer than [`MAX_TEXT_CHARS`].
pub fn check_text(name: &str, utf16_len: usize) -> Result<(), GenerateError> {
    if utf16_len > MAX_TEXT_CHARS {
        return Err(GenerateError::Argument {
            name: name.into(),
            allowed: format!("a string of at most {MAX_TEXT_CHARS} characters"),
            got: format!("{utf16_len} characters"),
        });
    }
    Ok(())
}

/// The stop sequences a caller gave, checked: an array of at most [`MAX_STOP_SEQUENCES`] strings
/// of at most [`MAX_STOP_SEQUENCE_CHARS`] characters. Empty strings are dropped (they match
/// nothing).
///
/// # Errors
/// `GenerateError::Argument` naming the list or the entry.
pub fn stop_sequences_arg(value: &Value) -> Result<Vec<String>, GenerateError> {
    let Value::Array(items) = value else {
        return Err(GenerateError::Argument {
            name: "stop sequences".into(),
            allowed: "an array of strings".into(),
            got: value.describe(),
        });
    };
    if items.len() > MAX_STOP_SEQUENCES {
        return Err(GenerateError::Argument {
            name: "stop sequences".into(),
            allowed: format!("an array of at most {MAX_STOP_SEQUENCES} strings"),
            got: format!("{} strings", items.len()),
        });
    }
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let Value::String(s) = item else {
            return Err(GenerateError::Argument {
                name: format!("stop sequences[{i}]"),
                allowed: "a string".into(),
                got: item.describe(),
            });
        };
        let chars = s.chars().count();
        if chars > MAX_STOP_SEQUENCE_CHARS {
            return Err(GenerateError::Argument {
                name: format!("stop sequences[{i}]"),
                allowed: format!("a string of at most {MAX_STOP_SEQUENCE_CHARS} characters"),
                got: format!("{chars} characters (\"{}\")", short(s)),
            });
        }
        if !s.is_empty() {
            out.push(s.clone());
        }
    }
    Ok(out)
}

/// Token ids a caller gave (`forceMany`): an array of at most [`MAX_FORCED_TOKENS`] integers in
/// [0, `max_id`].
///
/// # Errors
/// `GenerateError::Argument` naming `name` or the entry (`tokens[3]`).
pub fn token_ids_arg(name: &str, value: &Value, max_id: u64) -> Result<Vec<u32>, GenerateError> {
    let Value::Array(items) = value else {
        return Err(GenerateError::Argument {
            name: name.into(),
            allowed: format!("an array of at most {MAX_FORCED_TOKENS} token ids"),
            got: value.describe_for_list(),
        });
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let n = match item {
                Value::Number(n) => Ok(*n),
                other => Err(other.describe()),
            };
            integer_arg(&format!("{name}[{i}]"), n, max_id).map(|id| id as u32)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(r: Result<u64, GenerateError>) -> String {
        r.unwrap_err().to_string()
    }

    #[test]
    fn integers_are_never_wrapped_truncated_or_coerced() {
        let max = 7999;
        assert_eq!(integer_arg("force token", Ok(7999.0), max), Ok(7999));
        assert_eq!(integer_arg("force token", Ok(0.0), max), Ok(0));
        assert_eq!(
            message(integer_arg("force token", Ok(7999.9), max)),
            "force token must be an integer in [0, 7999], got 7999.9"
        );
        assert_eq!(
            message(integer_arg("force token", Ok(4294967301.0), max)),
            "force token must be an integer in [0, 7999], got 4294967301"
        );
        assert_eq!(
            message(integer_arg("force token", Ok(f64::NAN), max)),
            "force token must be an integer in [0, 7999], got NaN"
        );
        assert_eq!(
            message(integer_arg(
                "force token",
                Err("string \"abc\"".into()),
                max
            )),
            "force token must be an integer in [0, 7999], got string \"abc\""
        );
        let max_new = |n: f64| integer_arg_in("setMaxNewTokens n", Ok(n), 1, u32::MAX as u64);
        assert_eq!(
            message(max_new(-1.0)),
            "setMaxNewTokens n must be an integer in [1, 4294967295], got -1"
        );
        assert_eq!(
            message(max_new(0.0)),
            "setMaxNewTokens n must be an integer in [1, 4294967295], got 0"
        );
        assert_eq!(max_new(1.0), Ok(1));
        assert!(integer_arg("rewind n", Ok(4294967296.0), 3).is_err());
    }

    #[test]
    fn text_longer_than_the_limit_is_named() {
        assert!(check_text("prompt", MAX_TEXT_CHARS).is_ok());
        assert_eq!(
            check_text("prompt", MAX_TEXT_CHARS + 1)
                .unwrap_err()
                .to_string(),
            "prompt must be a string of at most 1048576 characters, got 1048577 characters"
        );
    }

    #[test]
    fn stop_sequences_must_be_an_array_of_bounded_strings() {
        let s = |x: &str| Value::String(x.into());
        assert_eq!(
            stop_sequences_arg(&s("xyz界")).unwrap_err().to_string(),
            "stop sequences must be an array of strings, got string \"xyz界\""
        );
        assert_eq!(
            stop_sequences_arg(&Value::Array(vec![s("。"), s(""), s("的")])).unwrap(),
            vec!["。".to_string(), "的".to_string()]
        );
        assert_eq!(
            stop_sequences_arg(&Value::Array(vec![s("a"), Value::Number(1.0)]))
                .unwrap_err()
                .to_string(),
            "stop sequences[1] must be a string, got 1"
        );
        let many = Value::Array(vec![s("a"); MAX_STOP_SEQUENCES + 1]);
        assert!(stop_sequences_arg(&many)
            .unwrap_err()
            .to_string()
            .contains("at most 64 strings, got 65 strings"));
        let long = Value::Array(vec![s(&"x".repeat(MAX_STOP_SEQUENCE_CHARS + 1))]);
        assert!(stop_sequences_arg(&long)
            .unwrap_err()
            .to_string()
            .contains("at most 256 characters, got 257 characters"));
    }
}
