//! The sizes `step` accepts, in one place. Each bounds what one call may allocate: past them a
//! call is refused with an error naming the field and the limit, never a trap or gigabytes of
//! wasm memory kept for good. README ("JavaScript contract") and `types.d.ts` state them too.

/// Most logits one call accepts: 2^20 = 1,048,576 (4× the largest vocabulary in use, ~262k).
/// One call's buffers cost about 25 bytes per logit (a step stays near 30 MB), and sampling from
/// a nearly flat distribution, the slowest case, walks most of the vocabulary in order: at 2^20
/// that still takes about a second, at 2^22 over ten.
pub const MAX_LOGITS: usize = 1 << 20;

/// Most ids in `history` (and so the largest `history_prompt_len`): 2^20 = 1,048,576.
pub const MAX_HISTORY: usize = 1 << 20;

/// Most entries in `logit_bias`: 2^20 = 1,048,576.
pub const MAX_LOGIT_BIAS: usize = 1 << 20;

/// Most candidates a trace lists: `trace_top` is clamped to min(trace_top, vocabulary, this).
pub const MAX_TRACE_TOP: usize = 1 << 16;

/// The largest `dynatemp_range`: like `temperature`, 1e6 (T ± range then stays finite in float32).
pub const MAX_DYNATEMP_RANGE: f64 = 1e6;

/// Keys and strings echoed in error messages are cut to this many characters.
pub const ECHO_CHARS: usize = 40;

/// `key` as an error message quotes it: at most [`ECHO_CHARS`] characters, then `…`; a quote, a
/// control character and any other invisible one (a bidi control, a zero-width space: `echo.rs`)
/// escaped as JavaScript writes them (a NUL in a key printed raw cut the message short in a
/// terminal; `top\u202Ek` printed raw reversed the rest of the line). A backslash stays as it is:
/// boundary.js writes a lone surrogate in a key as its escape `\uD800`, which must reach the
/// message once.
pub fn short(key: &str) -> String {
    let mut out = String::with_capacity(key.len().min(4 * ECHO_CHARS));
    for (i, c) in key.chars().enumerate() {
        if i == ECHO_CHARS {
            out.push('…');
            break;
        }
        match c {
            '"' => out.push_str("\\\""),
            c if super::echo::invisible(c) => out.push_str(&super::echo::js_escape(c)),
            c => out.push(c),
        }
    }
    out
}

/// `key` cut to what [`short`] shows of it (one character more, so it still adds `…`): an error
/// that keeps a caller's key keeps no more than that.
pub fn as_given(key: &str) -> String {
    key.chars().take(ECHO_CHARS + 1).collect()
}

#[cfg(test)]
mod tests {
    use super::super::{step, Config, Value, KEYS};
    use super::*;

    fn object(entries: Vec<(&str, Value)>) -> Value {
        Value::Object(entries.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    fn parse_error(entries: Vec<(&str, Value)>) -> String {
        Config::from_value(&object(entries))
            .unwrap_err()
            .to_string()
    }

    fn ids(n: usize) -> Value {
        Value::Array(vec![Value::Number(0.0); n])
    }

    #[test]
    fn every_listed_key_is_read_and_no_other() {
        for key in KEYS {
            let got = parse_error(vec![(key, Value::Bool(true))]);
            assert!(!got.contains("unknown key"), "{key}: {got}");
        }
        assert_eq!(
            parse_error(vec![("top_pp", Value::Number(0.9))]),
            "unknown key \"top_pp\" in config; did you mean \"top_p\"?"
        );
    }

    #[test]
    fn long_keys_are_cut_in_messages() {
        let key = "k".repeat(1 << 20);
        assert!(parse_error(vec![(&key, Value::Number(1.0))]).len() < 100);
        let bias = object(vec![(&key, Value::Number(1.0))]);
        assert!(parse_error(vec![("logit_bias", bias)]).len() < 200);
    }

    #[test]
    fn history_and_logit_bias_have_a_maximum_length() {
        assert_eq!(
            parse_error(vec![("history", ids(MAX_HISTORY + 1))]),
            "history must be an array of at most 1048576 token ids, got 1048577 ids"
        );
        assert!(Config::from_value(&object(vec![("history", ids(MAX_HISTORY))])).is_ok());
        let bias: Vec<(String, Value)> = (0..=MAX_LOGIT_BIAS)
            .map(|i| (i.to_string(), Value::Number(1.0)))
            .collect();
        assert_eq!(
            parse_error(vec![("logit_bias", Value::Object(bias))]),
            "logit_bias must be an object of at most 1048576 entries, got 1048577 entries"
        );
    }

    #[test]
    fn history_prompt_len_reports_the_value_it_was_given() {
        assert_eq!(
            parse_error(vec![(
                "history_prompt_len",
                Value::Number(9_007_199_254_740_991.0)
            )]),
            "history_prompt_len must be an integer in [0, 1048576], got 9007199254740991"
        );
    }

    #[test]
    fn too_many_logits_is_named_with_the_limit() {
        let logits = vec![0.0f32; MAX_LOGITS + 1];
        assert_eq!(
            step(&logits, &Config::default()).unwrap_err().to_string(),
            "logits must have at most 1048576 entries, got 1048577"
        );
    }

    #[test]
    fn trace_top_is_clamped_to_the_vocabulary() {
        let config = Config {
            trace_top: Some(u32::MAX),
            seed: Some(1),
            ..Config::default()
        };
        let trace = step(&[1.0, 2.0, 3.0], &config).unwrap();
        assert_eq!(trace.candidates.len(), 3);
        let wide = vec![0.5f32; MAX_TRACE_TOP + 10];
        assert_eq!(
            step(&wide, &config).unwrap().candidates.len(),
            MAX_TRACE_TOP
        );
    }

    #[test]
    fn dynatemp_range_keeps_the_temperature_finite() {
        let config = |range: f64| Config {
            engine: Some(super::super::Engine::LlamaCpp),
            dynatemp_range: Some(range),
            seed: Some(2),
            ..Config::default()
        };
        assert_eq!(
            step(&[0.0, -100.0, 1.0], &config(1e300))
                .unwrap_err()
                .to_string(),
            "dynatemp_range must be in [0, 1e6], got 1e+300"
        );
        let trace = step(&[0.0, -100.0, 1.0], &config(MAX_DYNATEMP_RANGE)).unwrap();
        assert!(trace.temperature.is_finite());
        assert!(trace.candidates.iter().all(|c| c.p.is_finite()));
        let total: f64 = trace.candidates.iter().map(|c| c.p).sum();
        assert!((total - 1.0).abs() < 1e-6);
    }

    #[test]
    fn many_bans_remove_exactly_the_banned_tokens() {
        // 150k bans on 300k logits: every even id banned (one pass, not kept × banned).
        let n = 300_000;
        let logits: Vec<f32> = (0..n).map(|i| (i % 97) as f32 * 0.01).collect();
        let bias: Vec<(u32, f64)> = (0..n as u32)
            .step_by(2)
            .map(|i| (i, f64::NEG_INFINITY))
            .collect();
        let config = Config {
            logit_bias: Some(bias),
            seed: Some(3),
            ..Config::default()
        };
        let trace = step(&logits, &config).unwrap();
        assert_eq!(trace.kept_count, n / 2);
        assert_eq!(trace.token % 2, 1);
    }

    #[test]
    fn short_keeps_short_keys_and_cuts_long_ones_on_a_character_boundary() {
        assert_eq!(short("top_p"), "top_p");
        let long = "界".repeat(1000);
        let cut = short(&long);
        assert_eq!(cut.chars().count(), ECHO_CHARS + 1);
        assert!(cut.ends_with('…'));
    }

    #[test]
    fn short_escapes_what_would_break_the_quoted_key() {
        assert_eq!(short("a\0b"), "a\\u0000b");
        assert_eq!(short("say \"hi\"\n"), "say \\\"hi\\\"\\u000A");
        assert_eq!(short("\\uD800"), "\\uD800");
        // invisible ones too (a bidi control printed raw reversed the rest of the line)
        assert_eq!(short("top\u{202E}k\u{200B}"), "top\\u202Ek\\u200B");
        assert_eq!(short("seed\u{E0041}"), "seed\\u{E0041}");
        let e = parse_error(vec![("top_k\u{200B}", Value::Number(3.0))]);
        assert_eq!(
            e,
            "unknown key \"top_k\\u200B\" in config; did you mean \"top_k\"?"
        );
    }
}
