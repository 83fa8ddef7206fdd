//! No input panics: arbitrary float32 bit patterns (NaN, ±inf, subnormals, huge values) and
//! arbitrary configs (known and unknown keys, every JSON type, out-of-range numbers) through
//! `step`. Each result is either a clear error or a valid trace. `make test` runs 20,000 cases;
//! `make fuzz` runs a million (FUZZ_CASES).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed unwrap is a failed test

use nexttoken::decode::{step, Config, Value, KEYS};
use proptest::prelude::*;
use proptest::test_runner::Config as RunnerConfig;

/// Keys that are not in the contract: a near miss and the empty key.
const BOGUS_KEYS: &[&str] = &["top_pp", ""];

fn any_logit() -> impl Strategy<Value = f32> {
    prop_oneof![
        6 => -20.0f32..20.0,
        1 => any::<u32>().prop_map(f32::from_bits),
        1 => prop::sample::select(vec![f32::NEG_INFINITY, f32::INFINITY, f32::NAN, 0.0, -0.0, f32::MAX, f32::MIN, 1e-40, 3e38, -3e38]),
        1 => (0i32..6).prop_map(|q| q as f32 * 0.5), // ties
    ]
}

/// Valid logits (finite or −inf): ties, huge and tiny magnitudes, −inf entries.
fn clean_logit() -> impl Strategy<Value = f32> {
    prop_oneof![
        8 => -20.0f32..20.0,
        1 => (0i32..6).prop_map(|q| q as f32 * 0.5),
        1 => prop::sample::select(vec![f32::NEG_INFINITY, f32::MAX, f32::MIN, 1e-40, 3e38, -3e38, 1e4, -1e4]),
    ]
}

fn any_number() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => 0.0f64..2.0,
        2 => (-5i64..200).prop_map(|n| n as f64),
        1 => any::<u64>().prop_map(f64::from_bits),
        1 => prop::sample::select(vec![f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1e-7, 1e-40, 4294967296.0, -1.0, 0.5, 1.0]),
    ]
}

fn any_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        6 => any_number().prop_map(Value::Number),
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::Bool),
        1 => prop::sample::select(vec!["sample", "greedy", "hf", "llama.cpp", "vllm", "-inf", "x"]).prop_map(|s| Value::String(s.into())),
    ];
    leaf.prop_recursive(2, 16, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop::sample::select(vec!["0", "1", "3", "-1", "x", "99999"])
                        .prop_map(String::from),
                    inner
                ),
                0..4
            )
            .prop_map(Value::Object),
        ]
    })
}

fn any_config() -> impl Strategy<Value = Value> {
    prop::collection::vec(
        (
            prop::sample::select([KEYS, BOGUS_KEYS].concat()).prop_map(String::from),
            any_value(),
        ),
        0..8,
    )
    .prop_map(Value::Object)
}

/// Mostly valid configs, so most cases reach the stages rather than stopping at parsing.
fn plausible_config() -> impl Strategy<Value = Value> {
    let num = |lo: f64, hi: f64| (lo..hi).prop_map(Value::Number);
    let int = |lo: i64, hi: i64| (lo..hi).prop_map(|n| Value::Number(n as f64));
    let entries = prop::collection::vec(
        prop_oneof![
            num(0.0, 3.0).prop_map(|v| ("temperature".to_string(), v)),
            Just(("temperature".to_string(), Value::Number(0.0))),
            int(0, 60).prop_map(|v| ("top_k".to_string(), v)),
            num(0.0, 1.0).prop_map(|v| ("top_p".to_string(), v)),
            num(0.0, 1.0).prop_map(|v| ("min_p".to_string(), v)),
            num(0.01, 1.0).prop_map(|v| ("typical_p".to_string(), v)),
            num(0.0, 0.5).prop_map(|v| ("epsilon_cutoff".to_string(), v)),
            num(0.0, 0.5).prop_map(|v| ("eta_cutoff".to_string(), v)),
            num(0.05, 3.0).prop_map(|v| ("repetition_penalty".to_string(), v)),
            num(-2.0, 2.0).prop_map(|v| ("frequency_penalty".to_string(), v)),
            num(-2.0, 2.0).prop_map(|v| ("presence_penalty".to_string(), v)),
            prop::collection::vec(int(0, 8), 0..12)
                .prop_map(|v| ("history".to_string(), Value::Array(v))),
            int(-1, 10).prop_map(|v| ("penalty_last_n".to_string(), v)),
            int(0, 5).prop_map(|v| ("min_keep".to_string(), v)),
            num(0.0, 2.0).prop_map(|v| ("dynatemp_range".to_string(), v)),
            prop::sample::select(vec!["hf", "llama.cpp", "vllm"])
                .prop_map(|e| ("engine".to_string(), Value::String(e.into()))),
            prop::sample::select(vec!["sample", "greedy"])
                .prop_map(|e| ("strategy".to_string(), Value::String(e.into()))),
            int(0, 1 << 20).prop_map(|v| ("draw".to_string(), v)),
            int(0, 300).prop_map(|v| ("trace_top".to_string(), v)),
            prop::collection::vec(int(0, 8), 0..6)
                .prop_map(|v| ("trace_ids".to_string(), Value::Array(v))),
            int(0, 4).prop_map(|v| ("min_new_tokens".to_string(), v)),
            int(0, 8).prop_map(|v| ("eos_token_id".to_string(), v)),
            (
                int(0, 8),
                prop_oneof![num(-100.0, 100.0), Just(Value::String("-inf".into()))]
            )
                .prop_map(|(id, b)| (
                    "logit_bias".to_string(),
                    Value::Object(vec![(
                        format!(
                            "{}",
                            match id {
                                Value::Number(n) => n as i64,
                                _ => 0,
                            }
                        ),
                        b
                    )])
                )),
        ],
        0..7,
    );
    entries.prop_map(|mut e| {
        e.push(("seed".to_string(), Value::Number(1.0)));
        Value::Object(e)
    })
}

fn cases() -> u32 {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000)
}

proptest! {
    #![proptest_config(RunnerConfig { cases: cases(), failure_persistence: None, ..RunnerConfig::default() })]

    #[test]
    fn step_never_panics(
        logits in prop_oneof![4 => prop::collection::vec(clean_logit(), 1..200), 1 => prop::collection::vec(any_logit(), 0..200)],
        config in prop_oneof![3 => plausible_config(), 1 => any_config()],
    ) {
        let Ok(config) = Config::from_value(&config) else { return Ok(()) };
        let result = step(&logits, &config);
        if std::env::var_os("FUZZ_STATS").is_some() {
            eprintln!("fuzz-outcome {}", if result.is_ok() { "ok" } else { "err" });
        }
        if let Ok(trace) = result {
            prop_assert!((trace.token as usize) < logits.len());
            prop_assert!(trace.entropy_bits.is_finite());
            let total: f64 = trace.candidates.iter().map(|c| c.p).sum();
            prop_assert!(total <= 1.0 + 1e-6);
            prop_assert!(trace.candidates.iter().all(|c| c.p.is_finite() && c.p_raw.is_finite() && c.p_tempered.is_finite()));
            prop_assert!(trace.chosen.kept);
            prop_assert!(trace.candidates.contains(&trace.chosen));
        }
    }
}
