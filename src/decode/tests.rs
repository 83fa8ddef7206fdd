//! Hand-checkable cases: logits chosen so softmax gives simple fractions (ln 1, ln 2, ln 3 …), with
//! the arithmetic in comments. Each names the rule it pins.

use super::*;

const LN2: f32 = std::f32::consts::LN_2;
const LN3: f32 = 1.098_612_3;

fn cfg() -> Config {
    Config {
        seed: Some(1),
        trace_top: Some(100),
        ..Config::default()
    }
}

fn probs(trace: &Trace) -> Vec<(u32, f64)> {
    let mut p: Vec<(u32, f64)> = trace.candidates.iter().map(|c| (c.id, c.p)).collect();
    p.sort_by_key(|(id, _)| *id);
    p
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

#[test]
fn softmax_of_ln_weights_gives_fractions() {
    // e^ln3 : e^ln2 : e^0 = 3 : 2 : 1 → 1/2, 1/3, 1/6.
    let t = step(&[LN3, LN2, 0.0], &cfg()).unwrap();
    let p = probs(&t);
    assert!(close(p[0].1, 0.5) && close(p[1].1, 1.0 / 3.0) && close(p[2].1, 1.0 / 6.0));
    assert!(close(t.candidates[0].p_raw, 0.5));
}

#[test]
fn top_p_keeps_the_token_that_crosses_p() {
    // 1/2, 1/3, 1/6: with p = 0.6 the mass above token 1 is 0.5 < 0.6, so it is kept.
    let t = step(
        &[LN3, LN2, 0.0],
        &Config {
            top_p: Some(0.6),
            ..cfg()
        },
    )
    .unwrap();
    assert_eq!(t.kept_count, 2);
    // Renormalised: 3/5 and 2/5.
    let p = probs(&t);
    assert!(close(p[0].1, 0.6) && close(p[1].1, 0.4) && p[2].1 == 0.0);
    assert_eq!(t.candidates[2].removed_by, Some("top_p"));
}

#[test]
fn top_p_zero_keeps_one_token() {
    let t = step(
        &[LN3, LN2, 0.0],
        &Config {
            top_p: Some(0.0),
            ..cfg()
        },
    )
    .unwrap();
    assert_eq!(t.kept_count, 1);
}

#[test]
fn hf_top_k_keeps_ties_and_llama_keeps_exactly_k() {
    let logits = [2.0, 1.0, 1.0, 0.0];
    let hf = step(
        &logits,
        &Config {
            top_k: Some(2),
            ..cfg()
        },
    )
    .unwrap();
    assert_eq!(hf.kept_count, 3);
    let llama = step(
        &logits,
        &Config {
            top_k: Some(2),
            engine: Some(Engine::LlamaCpp),
            ..cfg()
        },
    )
    .unwrap();
    assert_eq!(llama.kept_count, 2);
    // The lower id survives the tie.
    assert!(llama.candidates.iter().any(|c| c.id == 1 && c.kept));
}

#[test]
fn min_p_cuts_relative_to_the_top_token() {
    // Weights 4 : 2 : 1 (ln 4, ln 2, 0). min_p 0.3: 1/4 < 0.3 removed, 2/4 kept.
    let t = step(
        &[2.0 * LN2, LN2, 0.0],
        &Config {
            min_p: Some(0.3),
            ..cfg()
        },
    )
    .unwrap();
    assert_eq!(t.kept_count, 2);
    let stage = t.stages.iter().find(|s| s.name == "min_p").unwrap();
    // Threshold as a probability: 0.3 · p_max = 0.3 · 4/7.
    assert!(close(stage.threshold.unwrap(), 0.3 * 4.0 / 7.0));
}

#[test]
fn temperature_two_takes_square_roots() {
    // Weights 4 : 1 at T = 2 become 2 : 1 → 2/3, 1/3.
    let t = step(
        &[2.0 * LN2, 0.0],
        &Config {
            temperature: Some(2.0),
            ..cfg()
        },
    )
    .unwrap();
    let p = probs(&t);
    assert!(close(p[0].1, 2.0 / 3.0) && close(p[1].1, 1.0 / 3.0));
    assert!(close(t.candidates[0].p_raw, 0.8));
}

#[test]
fn hf_greedy_ignores_warpers_but_llama_runs_them_first() {
    // Typical sampling removes the argmax here in llama.cpp; HF greedy never runs typical.
    let logits = [5.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0];
    let hf = step(
        &logits,
        &Config {
            temperature: Some(0.0),
            typical_p: Some(0.2),
            ..cfg()
        },
    )
    .unwrap();
    assert_eq!(hf.token, 0);
    assert!(hf.stages.iter().any(|s| s.name == "typical_p" && !s.active));
    let llama = step(
        &logits,
        &Config {
            temperature: Some(0.0),
            typical_p: Some(0.2),
            engine: Some(Engine::LlamaCpp),
            ..cfg()
        },
    )
    .unwrap();
    assert_eq!(llama.stages.last().unwrap().name, "greedy");
}

#[test]
fn repetition_penalty_divides_positive_and_multiplies_negative() {
    let t = step(
        &[2.0, -1.0, 0.5],
        &Config {
            repetition_penalty: Some(2.0),
            history: Some(vec![0, 1, 0]),
            ..cfg()
        },
    )
    .unwrap();
    let by_id = |id: u32| {
        t.candidates
            .iter()
            .find(|c| c.id == id)
            .unwrap()
            .logit_processed
    };
    assert_eq!(by_id(0), 1.0);
    assert_eq!(by_id(1), -2.0);
    assert_eq!(by_id(2), 0.5);
}

#[test]
fn vllm_raises_tiny_temperatures_to_one_hundredth() {
    let t = step(
        &[1.0, 0.0],
        &Config {
            temperature: Some(0.001),
            engine: Some(Engine::Vllm),
            ..cfg()
        },
    )
    .unwrap();
    assert!((t.temperature - 0.01).abs() < 1e-6);
    let greedy = step(
        &[1.0, 0.0],
        &Config {
            temperature: Some(1e-6),
            engine: Some(Engine::Vllm),
            ..cfg()
        },
    )
    .unwrap();
    assert_eq!(greedy.strategy, "greedy");
}

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

#[test]
fn stage_inputs_show_each_distribution_as_the_stage_saw_it() {
    // HF: temperature 2 then top-k 1. top_k's input is the tempered distribution (2/3, 1/3).
    let t = step(
        &[2.0 * LN2, 0.0],
        &Config {
            temperature: Some(2.0),
            top_k: Some(1),
            ..cfg()
        },
    )
    .unwrap();
    let top_k = t.stages.iter().find(|s| s.name == "top_k").unwrap();
    assert!(close(top_k.p_in[0], 2.0 / 3.0) && close(top_k.p_in[1], 1.0 / 3.0));
    let temperature = t.stages.iter().find(|s| s.name == "temperature").unwrap();
    assert!(close(temperature.p_in[0], 0.8));
}

#[test]
fn the_chosen_token_is_listed_with_its_rank_wherever_it_ranks() {
    // Ten equal logits: each has p = 1/10, so u picks rank ⌊10·u⌋. Seed 42's first u is 0.955.
    let config = Config {
        seed: Some(42),
        trace_top: Some(2),
        ..Config::default()
    };
    let t = step(&[0.5; 10], &config).unwrap();
    let u = t.u.unwrap();
    assert!(
        u > 0.3,
        "this case needs a draw beyond the listed head, u = {u}"
    );
    let rank = (u * 10.0).floor() as usize;
    assert_eq!(t.chosen_rank, rank);
    assert_eq!(t.chosen.rank, rank);
    let ranks: Vec<usize> = t.candidates.iter().map(|c| c.rank).collect();
    assert_eq!(
        ranks,
        vec![0, 1, rank],
        "head, then the chosen one, in rank order"
    );
    let last = t.candidates.last().unwrap();
    assert_eq!(last.id, t.token);
    // Its cum is its true cumulative mass (rank + 1 tokens of 1/10), not a sum over the listed.
    assert!(close(last.cum, (rank + 1) as f64 / 10.0));
    // Seven kept tokens are unlisted, holding 7/10 of the final mass.
    assert_eq!(t.unlisted_kept_count, 7);
    assert!(close(t.unlisted_mass, 0.7));
}

#[test]
fn trace_ids_lists_kept_and_removed_tokens_with_their_ranks() {
    // Raw logits ln 3, ln 2, 0, ln 1.5, −inf. Greedy keeps id 0 alone; the removed by raw logit:
    // 1 (ln 2), 3 (ln 1.5), 2 (0), 4 (−inf) take ranks 1 to 4.
    let logits = [LN3, LN2, 0.0, 0.405_465_1, f32::NEG_INFINITY];
    let t = step(
        &logits,
        &Config {
            top_k: Some(2),
            trace_top: Some(1),
            trace_ids: Some(vec![4, 1, 2, 1]),
            temperature: Some(0.0),
            ..cfg()
        },
    )
    .unwrap();
    let listed: Vec<(u32, usize)> = t.candidates.iter().map(|c| (c.id, c.rank)).collect();
    assert_eq!(listed, vec![(0, 0), (1, 1), (2, 3), (4, 4)]);
    assert_eq!(t.candidates[3].removed_by, Some("logits"));
    assert_eq!((t.unlisted_kept_count, t.unlisted_mass), (0, 0.0));

    let t = step(
        &logits,
        &Config {
            top_k: Some(2),
            trace_top: Some(0),
            trace_ids: Some(vec![1]),
            seed: Some(42),
            ..cfg()
        },
    )
    .unwrap();
    // Sampling with top-k 2: ids 0 (3/5) and 1 (2/5) kept; id 1 is listed though trace_top is 0.
    let one = t.candidates.iter().find(|c| c.id == 1).unwrap();
    assert_eq!((one.rank, one.kept), (1, true));
    assert!(close(one.p, 0.4) && close(one.cum, 1.0));
}

#[test]
fn trace_ids_are_checked() {
    let e = step(
        &[1.0, 2.0],
        &Config {
            trace_ids: Some(vec![0, 2]),
            ..cfg()
        },
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "trace_ids[1] must be a token id < vocabulary size 2, got 2"
    );
    let many = Value::Array(vec![Value::Number(0.0); 1025]);
    let e = Config::from_value(&Value::Object(vec![("trace_ids".into(), many)])).unwrap_err();
    assert_eq!(
        e.to_string(),
        "trace_ids must be an array of at most 1024 token ids, got 1025 ids"
    );
    let e = Config::from_value(&Value::Object(vec![(
        "trace_ids".into(),
        Value::Array(vec![Value::Number(1.5)]),
    )]))
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "trace_ids[0] must be an integer in [0, 4294967295], got 1.5"
    );
}

#[test]
fn min_new_tokens_removes_the_end_token_until_n_new_tokens_exist() {
    // Weights 3 : 2 : 1 : 4 with id 3 the end token. History: 1 prompt token + 1 new one.
    let logits = [LN3, LN2, 0.0, 2.0 * LN2];
    let with = |history: Vec<u32>| Config {
        min_new_tokens: Some(2),
        eos_token_id: Some(vec![3]),
        history: Some(history),
        history_prompt_len: Some(1),
        ..cfg()
    };
    let t = step(&logits, &with(vec![0, 1])).unwrap();
    // 1 new token < 2: the end token goes, the rest renormalise to 3/6, 2/6, 1/6.
    let p = probs(&t);
    assert!(close(p[0].1, 0.5) && close(p[1].1, 1.0 / 3.0) && p[3].1 == 0.0);
    let eos = t.candidates.iter().find(|c| c.id == 3).unwrap();
    assert_eq!(eos.removed_by, Some("min_new_tokens"));
    let stage = t
        .stages
        .iter()
        .find(|s| s.name == "min_new_tokens")
        .unwrap();
    assert!(stage.active);
    assert_eq!(
        (stage.value, stage.threshold, stage.removed_count),
        (Some(2.0), Some(1.0), 1)
    );
    // 2 new tokens: nothing is removed and the end token has its 4/10.
    let t = step(&logits, &with(vec![0, 1, 2])).unwrap();
    assert!(close(probs(&t)[3].1, 0.4));
    // Greedy under HF still sees the mask (it is a processor, not a warper).
    let greedy = Config {
        temperature: Some(0.0),
        ..with(vec![0])
    };
    assert_eq!(step(&logits, &greedy).unwrap().token, 0);
}

#[test]
fn min_new_tokens_sits_where_each_engine_bans_the_end_token() {
    let names = |engine: Engine| -> Vec<&'static str> {
        engine.order(false).iter().map(|k| k.name()).collect()
    };
    assert_eq!(
        names(Engine::Hf)[..3],
        ["logit_bias", "penalties", "min_new_tokens"]
    );
    assert_eq!(
        names(Engine::LlamaCpp)[..3],
        ["logit_bias", "min_new_tokens", "penalties"]
    );
    assert_eq!(
        names(Engine::Vllm)[..3],
        ["min_new_tokens", "logit_bias", "penalties"]
    );
}

#[test]
fn min_new_tokens_needs_an_end_token_and_something_left() {
    let e = step(
        &[1.0, 2.0],
        &Config {
            min_new_tokens: Some(3),
            ..cfg()
        },
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "eos_token_id must be set (a token id or an array of them) when min_new_tokens > 0, got none"
    );
    let e = step(
        &[1.0, f32::NEG_INFINITY],
        &Config {
            min_new_tokens: Some(3),
            eos_token_id: Some(vec![0]),
            ..cfg()
        },
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "min_new_tokens must leave at least one token, but removed every remaining one"
    );
    let one = Config::from_value(&Value::Object(vec![(
        "eos_token_id".into(),
        Value::Number(2.0),
    )]))
    .unwrap();
    assert_eq!(one.eos_token_id, Some(vec![2]));
    let e = step(
        &[1.0, 2.0],
        &Config {
            eos_token_id: Some(vec![2]),
            ..cfg()
        },
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "eos_token_id[0] must be a token id < vocabulary size 2, got 2"
    );
}
