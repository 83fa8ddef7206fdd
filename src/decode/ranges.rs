//! What each number-valued config key accepts, in the words every message uses: `Config::resolve`'s
//! range checks and `Config::from_value`'s refusal of a value of another type (a string "0.7", say)
//! both name it, so a caller always learns the allowed range, whatever they passed.

use super::config::KEYS;
use super::limits::MAX_HISTORY;
use super::value::format_number;

/// The allowed range of a float-valued key (`logit_bias["…"]` for any bias), as written after
/// "must be"; `None` for a key that is not float-valued.
pub(crate) fn range(field: &str) -> Option<&'static str> {
    Some(match field {
        "temperature" => "0 (greedy) or in [1e-38, 1e6]",
        "top_p" | "min_p" => "in [0, 1]",
        "typical_p" => "in (0, 1]",
        "epsilon_cutoff" | "eta_cutoff" | "rest_mass" => "in [0, 1)",
        "repetition_penalty" => "a number > 0 (and ≤ 3.4e38)",
        "frequency_penalty" | "presence_penalty" => "a finite number",
        "dynatemp_range" => "in [0, 1e6]",
        "dynatemp_exponent" => "a finite number ≥ 0",
        _ if field.starts_with("logit_bias[") => "in [-100, 100] or -inf",
        _ => return None,
    })
}

/// What a float-valued key must be, for a value that is not a number at all: "a number in [0, 1]",
/// "a number: 0 (greedy) or in [1e-38, 1e6]", "a finite number".
pub(crate) fn number_rule(field: &str) -> String {
    match range(field) {
        None => "a number".into(),
        Some(r) if r.starts_with("a ") => r.into(),
        Some(r) if r.starts_with("in ") => format!("a number {r}"),
        Some(r) => format!("a number: {r}"),
    }
}

/// The largest integer a JavaScript number holds exactly.
pub(crate) const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// The bounds of an integer-valued key, or of each id in a list of token ids (`history[]`).
pub(crate) fn integer_bounds(field: &str) -> Option<(f64, f64)> {
    Some(match field {
        "top_k" | "min_keep" | "trace_top" | "seed" | "min_new_tokens" => (0.0, u32::MAX as f64),
        "history[]" | "trace_ids[]" | "eos_token_id[]" => (0.0, u32::MAX as f64),
        "draw" => (0.0, MAX_SAFE_INTEGER),
        "history_prompt_len" => (0.0, MAX_HISTORY as f64),
        "penalty_last_n" => (-1.0, MAX_SAFE_INTEGER),
        _ => return None,
    })
}

/// "an integer in [min, max]".
pub(crate) fn integer_rule(min: f64, max: f64) -> String {
    format!(
        "an integer in [{}, {}]",
        format_number(min),
        format_number(max)
    )
}

/// What any number-valued key accepts (`key`, `key[]` for the ids of a list, `logit_bias{}` for
/// a bias), for the JS boundary's own refusals (a BigInt no number holds exactly): one line each,
/// `name=rule`.
pub fn config_rules() -> String {
    let mut lines: Vec<String> = Vec::new();
    for key in KEYS
        .iter()
        .copied()
        .chain(["history[]", "trace_ids[]", "eos_token_id[]"])
    {
        if let Some((min, max)) = integer_bounds(key) {
            lines.push(format!("{key}={}", integer_rule(min, max)));
        } else if range(key).is_some() {
            lines.push(format!("{key}={}", number_rule(key)));
        }
    }
    let id = integer_rule(0.0, u32::MAX as f64);
    lines.push(format!(
        "eos_token_id=a token id ({id}) or an array of them"
    ));
    lines.push(format!("logit_bias{{}}={}", number_rule("logit_bias[")));
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::{Config, Value};

    /// Every key `from_value` reads as a float has its range here: a new key cannot be missed.
    #[test]
    fn every_float_key_names_its_range() {
        for key in KEYS {
            let config = Value::Object(vec![(key.to_string(), Value::String("1".into()))]);
            let message = Config::from_value(&config).unwrap_err().to_string();
            if message.starts_with(&format!("{key} must be a number, got")) {
                panic!("{key}: no range in {message:?}");
            }
        }
        assert_eq!(number_rule("top_p"), "a number in [0, 1]");
        assert_eq!(
            number_rule("temperature"),
            "a number: 0 (greedy) or in [1e-38, 1e6]"
        );
        assert_eq!(number_rule("frequency_penalty"), "a finite number");
        let rules = config_rules();
        assert!(
            rules.contains("seed=an integer in [0, 4294967295]\n"),
            "{rules}"
        );
        assert!(
            rules.contains("history[]=an integer in [0, 4294967295]\n"),
            "{rules}"
        );
        assert!(
            rules.contains("temperature=a number: 0 (greedy) or in [1e-38, 1e6]\n"),
            "{rules}"
        );
        assert!(
            rules.ends_with("logit_bias{}=a number in [-100, 100] or -inf"),
            "{rules}"
        );
    }
}
