//! What each config key accepts, in the words every message uses: `Config::resolve`'s range checks
//! and `Config::from_value`'s refusal of a value of another type (a string "0.7", a symbol, a hole
//! in an array, as the JS boundary describes it) both name it, so a caller always learns the allowed
//! range, whatever they passed. A range that differs by engine is worded for the engine in use.

use super::config::MAX_EOS_IDS;
use super::engine::Engine;
use super::limits::{MAX_DYNATEMP_RANGE, MAX_HISTORY};
use super::value::format_number;

/// What `strategy` accepts.
pub(crate) const STRATEGY_RULE: &str = "\"sample\" or \"greedy\"";
/// What `engine` accepts.
pub(crate) const ENGINE_RULE: &str = "\"hf\", \"llama.cpp\" or \"vllm\"";

/// The allowed range of a float-valued key under `engine` (`logit_bias[…]` for any bias), as
/// written after "must be"; `None` for a key that is not float-valued.
///
/// vLLM's own checks (`SamplingParams._verify_args` in vllm/sampling_params.py) differ from HF's in
/// three keys: top_p in (0, 1] (0 refused), temperature in [0, 2] (below 1e-5 it is greedy; the
/// upper bound since vllm PR #44965, v0.24.0, seen at commit 00388f6573cc; before it any T ≥ 0),
/// and the frequency and presence penalties in [-2, 2]. llama.cpp checks none of its values; ours
/// are HF's there.
pub(crate) fn range(field: &str, engine: Engine) -> Option<&'static str> {
    if engine == Engine::Vllm {
        match field {
            "top_p" => return Some("in (0, 1] for engine \"vllm\""),
            "temperature" => return Some("in [0, 2] for engine \"vllm\" (below 1e-5: greedy)"),
            "frequency_penalty" | "presence_penalty" => {
                return Some("in [-2, 2] for engine \"vllm\"")
            }
            _ => {}
        }
    }
    Some(match field {
        "temperature" => "0 (greedy) or in [1e-38, 1e6]",
        "top_p" | "min_p" => "in [0, 1]",
        "typical_p" => "in (0, 1]",
        "epsilon_cutoff" | "eta_cutoff" | "rest_mass" => "in [0, 1)",
        // (said as float32 holds it: "> 0" read as refusing 1e-300 for being ≤ 0)
        "repetition_penalty" => "in [1.4e-45, 3.4e38] (a positive float32)",
        // (1e39 is finite, but not in float32, as it is applied: say so)
        "frequency_penalty" | "presence_penalty" => "in [-3.4e38, 3.4e38] (a finite float32)",
        "dynatemp_range" => "in [0, 1e6]",
        "dynatemp_exponent" => "a finite number ≥ 0",
        _ if field.starts_with("logit_bias[") => "in [-100, 100] or -inf",
        _ => return None,
    })
}

/// Whether `value` is in `field`'s range under `engine` (a float-valued key of `range`).
pub(crate) fn in_range(field: &str, engine: Engine, value: f64) -> bool {
    let vllm = engine == Engine::Vllm;
    match field {
        // 1/T must stay finite in float32 and T itself meaningful: at 1e6 every distribution is flat.
        "temperature" if vllm => (0.0..=2.0).contains(&value),
        "temperature" => value == 0.0 || (1e-38..=1e6).contains(&value),
        "top_p" if vllm => value > 0.0 && value <= 1.0,
        "top_p" | "min_p" => (0.0..=1.0).contains(&value),
        "typical_p" => value > 0.0 && value <= 1.0,
        "epsilon_cutoff" | "eta_cutoff" | "rest_mass" => (0.0..1.0).contains(&value),
        // Checked as float32, the precision every engine applies it in.
        "repetition_penalty" => (value as f32).is_finite() && value as f32 > 0.0,
        "frequency_penalty" | "presence_penalty" if vllm => (-2.0..=2.0).contains(&value),
        "frequency_penalty" | "presence_penalty" => (value as f32).is_finite(),
        // Bounded like temperature, so T ± range (and 1/T) stay finite in float32.
        "dynatemp_range" => (0.0..=MAX_DYNATEMP_RANGE).contains(&value),
        "dynatemp_exponent" => value.is_finite() && value >= 0.0,
        // Bounded so that no finite logit + bias can overflow float32.
        _ if field.starts_with("logit_bias[") => {
            value == f64::NEG_INFINITY || (-100.0..=100.0).contains(&value)
        }
        // a key `range` names but this check forgot refuses everything: a test fails at once
        _ => false,
    }
}

/// What a float-valued key must be, for a value that is not a number at all: "a number in [0, 1]",
/// "a number: 0 (greedy) or in [1e-38, 1e6]", "a finite number ≥ 0".
pub(crate) fn number_rule(field: &str, engine: Engine) -> String {
    match range(field, engine) {
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
        // top_k's bounds are the engine's: `top_k_bounds`
        "top_k" | "min_keep" | "trace_top" | "seed" | "min_new_tokens" => (0.0, u32::MAX as f64),
        "history[]" | "trace_ids[]" | "eos_token_id[]" => (0.0, u32::MAX as f64),
        "draw" => (0.0, MAX_SAFE_INTEGER),
        "history_prompt_len" => (0.0, MAX_HISTORY as f64),
        "penalty_last_n" => (-1.0, MAX_SAFE_INTEGER),
        _ => return None,
    })
}

/// top_k's bounds under `engine`. Each engine's own "off" is accepted: HF's 0 (its
/// TopKLogitsWarper refuses anything below 1, and `generate` skips it at 0), vLLM's 0 and -1
/// (`SamplingParams._verify_args` refuses below -1), llama.cpp's k ≤ 0 (an int32;
/// `llama_sampler_top_k_impl` returns at once). `Config::from_value` stores every off value as 0.
pub(crate) fn top_k_bounds(engine: Engine) -> (f64, f64) {
    let max = u32::MAX as f64;
    match engine {
        Engine::Hf => (0.0, max),
        Engine::Vllm => (-1.0, max),
        Engine::LlamaCpp => (f64::from(i32::MIN), max),
    }
}

/// `top_k_bounds` in words, for a refusal (made only then: parsing a valid top_k formats nothing).
pub(crate) fn top_k_rule(engine: Engine) -> String {
    let (min, max) = top_k_bounds(engine);
    let range = integer_rule(min, max);
    match engine {
        Engine::Hf => range,
        Engine::Vllm => format!("{range} for engine \"vllm\" (-1 and 0: off)"),
        Engine::LlamaCpp => format!("{range} for engine \"llama.cpp\" (≤ 0: off)"),
    }
}

/// "an integer in [min, max]".
pub(crate) fn integer_rule(min: f64, max: f64) -> String {
    format!(
        "an integer in [{}, {}]",
        format_number(min),
        format_number(max)
    )
}

/// What `eos_token_id` accepts.
pub(crate) fn eos_rule() -> String {
    format!(
        "a token id ({}) or an array of at most {MAX_EOS_IDS} of them",
        integer_rule(0.0, u32::MAX as f64)
    )
}

/// What a list of at most `max` token ids accepts (`history`, `trace_ids`).
pub(crate) fn id_list_rule(max: usize) -> String {
    format!("an array of at most {max} token ids")
}

/// What `logit_bias` accepts.
pub(crate) fn logit_bias_rule(engine: Engine) -> String {
    format!(
        "an object mapping token ids to biases ({})",
        number_rule("logit_bias[", engine)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::config::KEYS;
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
        assert_eq!(number_rule("top_p", Engine::Hf), "a number in [0, 1]");
        assert_eq!(
            number_rule("top_p", Engine::Vllm),
            "a number in (0, 1] for engine \"vllm\""
        );
        assert_eq!(
            number_rule("temperature", Engine::Hf),
            "a number: 0 (greedy) or in [1e-38, 1e6]"
        );
        assert_eq!(
            number_rule("frequency_penalty", Engine::LlamaCpp),
            "a number in [-3.4e38, 3.4e38] (a finite float32)"
        );
    }

    /// Each engine's own "off" top_k is read as 0, the off value the stages read; below its range,
    /// the engine's words.
    #[test]
    fn each_engines_off_top_k_is_read_as_zero() {
        let read = |engine: &str, k: f64| {
            Config::from_value(&Value::Object(vec![
                ("top_k".into(), Value::Number(k)),
                ("engine".into(), Value::String(engine.into())),
            ]))
            .map(|c| c.top_k)
            .map_err(|e| e.to_string())
        };
        assert_eq!(read("vllm", -1.0), Ok(Some(0)));
        assert_eq!(read("vllm", 3.0), Ok(Some(3)));
        assert_eq!(read("llama.cpp", -40.0), Ok(Some(0)));
        assert_eq!(read("llama.cpp", f64::from(i32::MIN)), Ok(Some(0)));
        assert_eq!(
            read("vllm", -2.0),
            Err("top_k must be an integer in [-1, 4294967295] for engine \"vllm\" (-1 and 0: off), got -2".into())
        );
        assert!(read("llama.cpp", f64::from(i32::MIN) - 1.0).is_err());
        assert_eq!(
            read("hf", -1.0),
            Err("top_k must be an integer in [0, 4294967295], got -1".into())
        );
    }

    /// The words and the check agree at every boundary the words name, for every engine.
    #[test]
    fn each_range_admits_exactly_what_it_says() {
        let cases: &[(&str, Engine, &[f64], &[f64])] = &[
            ("top_p", Engine::Hf, &[0.0, 1.0], &[-1e-9, 1.0 + 1e-9]),
            ("top_p", Engine::LlamaCpp, &[0.0, 1.0], &[1.5]),
            ("top_p", Engine::Vllm, &[1e-9, 1.0], &[0.0, 1.0 + 1e-9]),
            (
                "temperature",
                Engine::Hf,
                &[0.0, 1e-38, 1e6],
                &[1e-39, 1e6 + 1.0],
            ),
            // vLLM's _verify_args (vllm/sampling_params.py, v0.24.0 on): "temperature must be in
            // [0, 2]"
            (
                "temperature",
                Engine::Vllm,
                &[0.0, 1e-39, 2.0],
                &[-1e-9, 2.0 + 1e-9, 5.0, 1e6],
            ),
            (
                "presence_penalty",
                Engine::LlamaCpp,
                &[-5.0, 5.0],
                &[f64::INFINITY],
            ),
            (
                "presence_penalty",
                Engine::Vllm,
                &[-2.0, 2.0],
                &[-2.01, 2.01],
            ),
            (
                "frequency_penalty",
                Engine::Vllm,
                &[-2.0, 2.0],
                &[-2.01, 2.01],
            ),
            ("typical_p", Engine::LlamaCpp, &[1e-9, 1.0], &[0.0, 1.01]),
            (
                "repetition_penalty",
                Engine::Hf,
                &[1.4e-45, 1.0, 3.4e38],
                &[0.0, 1e-300, 3.5e38, f64::INFINITY],
            ),
            (
                "frequency_penalty",
                Engine::Hf,
                &[-3.4e38, 0.0, 3.4e38],
                &[-1e39, 1e39, f64::NAN],
            ),
            ("min_p", Engine::Vllm, &[0.0, 1.0], &[-0.01, 1.01]),
        ];
        for (field, engine, inside, outside) in cases {
            assert!(range(field, *engine).is_some(), "{field}");
            for &v in *inside {
                assert!(in_range(field, *engine, v), "{field} {engine:?} {v}");
            }
            for &v in *outside {
                assert!(!in_range(field, *engine, v), "{field} {engine:?} {v}");
            }
        }
    }
}
