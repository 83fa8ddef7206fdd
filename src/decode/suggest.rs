//! The key a caller most likely meant when a config key is unknown: the JavaScript spelling of a
//! key (`topK`), another engine's name for the same setting (llama.cpp's `repeat_penalty`, vLLM's
//! `min_tokens`, HF's `do_sample`), or a typo one or two edits away (`top_pp`). None when nothing is
//! close enough to be a fair guess.

use super::config::KEYS;

/// Other engines' names for a key this config has under another name.
const ALIASES: &[(&str, &str)] = &[
    ("repeat_penalty", "repetition_penalty"),
    ("repeat_last_n", "penalty_last_n"),
    ("min_tokens", "min_new_tokens"),
    ("do_sample", "strategy"),
    ("temp", "temperature"),
    ("typical", "typical_p"),
    ("eos_token_ids", "eos_token_id"),
];

/// Keys of a whole generation (HF's, OpenAI's) that a step has elsewhere or has no need of: what
/// to use instead. `max_new_tokens` was told "did you mean min_new_tokens?".
const ELSEWHERE: &[(&[&str], &str)] = &[
    (
        &["max_new_tokens", "max_tokens", "max_length"],
        "a step chooses one token; a Generator's limit is setMaxNewTokens",
    ),
    (
        &["stop", "stop_sequences"],
        "a step chooses one token; a Generator's stop sequences are setStopSequences",
    ),
    (
        &["n", "num_return_sequences"],
        "a step draws one token; the number of draws is sampleCounts' third argument: sampleCounts(logits, config, n)",
    ),
    (
        &["logprobs", "top_logprobs"],
        "every step returns its candidates' p_raw and p; trace_top sets how many",
    ),
];

/// Where a generation's key lives instead, for a key `step` does not take.
pub(crate) fn elsewhere_for(key: &str) -> Option<&'static str> {
    let snake = snake_case(key);
    ELSEWHERE
        .iter()
        .find(|(names, _)| names.contains(&snake.as_str()))
        .map(|&(_, instead)| instead)
}

/// The known key `key` most likely meant.
pub(crate) fn known_key_for(key: &str) -> Option<&'static str> {
    let snake = snake_case(key);
    if let Some(&known) = KEYS.iter().find(|&&k| k == snake) {
        return Some(known);
    }
    if let Some(&(_, known)) = ALIASES.iter().find(|(alias, _)| *alias == snake) {
        return Some(known);
    }
    if snake.chars().count() < 4 {
        return None;
    }
    // the one key within two edits; a tie is no fair guess
    let mut best: Option<(&'static str, usize)> = None;
    let mut tied = false;
    for &known in KEYS {
        let d = edits(&snake, known);
        match best {
            _ if d > 2 => {}
            Some((_, b)) if d > b => {}
            Some((_, b)) if d == b => tied = true,
            _ => {
                best = Some((known, d));
                tied = false;
            }
        }
    }
    best.filter(|_| !tied).map(|(known, _)| known)
}

/// `topK` → `top_k`, `traceIDs` → `trace_ids`; a snake_case key unchanged.
fn snake_case(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    let mut prev_lower = false;
    for c in key.chars() {
        if c.is_ascii_uppercase() && prev_lower {
            out.push('_');
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        out.push(c.to_ascii_lowercase());
    }
    out.replace('-', "_")
}

/// Levenshtein distance (keys are short: at most a few dozen characters reach here).
fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row.first().copied().unwrap_or(0);
        if let Some(first) = row.first_mut() {
            *first = i + 1;
        }
        for (j, &cb) in b.iter().enumerate() {
            let substitute = diagonal + usize::from(ca != cb);
            diagonal = row.get(j + 1).copied().unwrap_or(0);
            let insert = row.get(j).copied().unwrap_or(0) + 1;
            let delete = diagonal + 1;
            if let Some(cell) = row.get_mut(j + 1) {
                *cell = substitute.min(insert).min(delete);
            }
        }
    }
    row.last().copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::known_key_for;

    #[test]
    fn a_javascript_spelling_another_engines_name_or_a_typo_names_the_key() {
        for (given, meant) in [
            ("topK", "top_k"),
            ("topP", "top_p"),
            ("repetitionPenalty", "repetition_penalty"),
            ("traceIds", "trace_ids"),
            ("logitBias", "logit_bias"),
            ("eosTokenId", "eos_token_id"),
            ("repeat_penalty", "repetition_penalty"),
            ("repeat_last_n", "penalty_last_n"),
            ("min_tokens", "min_new_tokens"),
            ("do_sample", "strategy"),
            ("top_pp", "top_p"),
            ("temprature", "temperature"),
            ("Temperature", "temperature"),
            ("top-k", "top_k"),
        ] {
            assert_eq!(known_key_for(given), Some(meant), "{given}");
        }
        for nothing in ["k0", "xyz", "max_tokens", "stream", "", "🙂🙂🙂🙂"] {
            assert_eq!(known_key_for(nothing), None, "{nothing}");
        }
    }

    #[test]
    fn a_generations_key_says_where_it_lives() {
        use super::elsewhere_for;
        for key in ["max_new_tokens", "maxNewTokens", "max_tokens", "max_length"] {
            assert!(
                elsewhere_for(key).unwrap().contains("setMaxNewTokens"),
                "{key}"
            );
        }
        assert!(elsewhere_for("stop").unwrap().contains("setStopSequences"));
        assert!(elsewhere_for("n").unwrap().contains("sampleCounts"));
        assert!(elsewhere_for("top_logprobs").unwrap().contains("trace_top"));
        assert_eq!(elsewhere_for("top_k"), None);
    }
}
