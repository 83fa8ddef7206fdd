//! What `step` refuses, and how the message names it.

use super::*;

#[test]
fn a_banning_bias_that_removes_everything_is_an_error() {
    let c = Config {
        logit_bias: Some(vec![(0, f64::NEG_INFINITY)]),
        ..cfg()
    };
    let e = step(&[1.0, f32::NEG_INFINITY], &c).unwrap_err();
    assert_eq!(
        e.to_string(),
        "logit_bias must leave at least one token, but removed every remaining one"
    );
}

#[test]
fn error_messages_name_field_rule_and_value() {
    let e = step(
        &[1.0],
        &Config {
            top_p: Some(1.5),
            ..cfg()
        },
    )
    .unwrap_err();
    assert_eq!(e.to_string(), "top_p must be in [0, 1], got 1.5");
    let e = step(&[1.0, f32::NAN], &cfg()).unwrap_err();
    assert_eq!(e.to_string(), "logits[1] must be finite or -inf, got NaN");
    let e = Config::from_value(&Value::Object(vec![("top_pp".into(), Value::Number(0.9))]))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown key \"top_pp\" in config; did you mean \"top_p\"?"
    );
    let e = step(
        &[1.0],
        &Config {
            typical_p: Some(0.5),
            engine: Some(Engine::Vllm),
            ..cfg()
        },
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "typical_p has no stage in engine \"vllm\"; leave it at 1"
    );
}

/// A range that is the engine's is said for that engine, for a value of another type too, and
/// wherever `engine` is written (vLLM's top_p is (0, 1]); a value the JS boundary could only
/// describe (`Value::Other`: a symbol, a hole) gets the key's words like any other type.
#[test]
fn engine_ranges_are_said_for_the_engine_in_any_key_order() {
    let parse = |entries: Vec<(&str, Value)>| {
        let entries = entries
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        Config::from_value(&Value::Object(entries))
            .unwrap_err()
            .to_string()
    };
    let vllm = || Value::String("vllm".into());
    assert_eq!(
        parse(vec![
            ("top_p", Value::String("0.9".into())),
            ("engine", vllm())
        ]),
        "top_p must be a number in (0, 1] for engine \"vllm\", got string \"0.9\""
    );
    assert_eq!(
        parse(vec![
            ("engine", vllm()),
            ("presence_penalty", Value::Bool(true))
        ]),
        "presence_penalty must be a number in [-2, 2] for engine \"vllm\", got boolean true"
    );
    assert_eq!(
        parse(vec![(
            "history",
            Value::Array(vec![
                Value::Number(1.0),
                Value::Other("a hole (no element at index 1)".into())
            ])
        )]),
        "history[1] must be an integer in [0, 4294967295], got a hole (no element at index 1)"
    );
    let e = step(
        &[1.0],
        &Config {
            top_p: Some(0.0),
            engine: Some(Engine::Vllm),
            ..cfg()
        },
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "top_p must be in (0, 1] for engine \"vllm\", got 0"
    );
}

/// history_prompt_len counts history's prompt ids: without a history the message says to pass
/// one (it said "must be in [0, 0] (the history's length)", a length never given); 0 is allowed,
/// and with a history the range is its length.
#[test]
fn history_prompt_len_without_a_history_says_to_pass_one() {
    let with = |history: Option<Vec<u32>>, len: usize| {
        step(
            &[1.0, 2.0],
            &Config {
                history,
                history_prompt_len: Some(len),
                ..cfg()
            },
        )
    };
    assert_eq!(
        with(None, 2).unwrap_err().to_string(),
        "history_prompt_len must be 0 without a history (it says how many of history's ids are the prompt: pass the token ids so far, [] for none yet), got 2"
    );
    assert!(with(None, 0).is_ok());
    assert_eq!(
        with(Some(vec![]), 2).unwrap_err().to_string(),
        "history_prompt_len must be in [0, 0] (the history's length), got 2"
    );
    assert!(with(Some(vec![1, 0]), 2).is_ok());
}
