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
    assert_eq!(e.to_string(), "unknown key \"top_pp\" in config");
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
