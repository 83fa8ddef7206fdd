//! min_new_tokens: the end token held back until n new tokens exist, in each engine's place.

use super::*;

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
            history: Some(vec![]),
            ..cfg()
        },
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "min_new_tokens must leave at least one token, but removed every remaining one"
    );
    // without a history no new token is ever counted: the end token was held back forever
    let e = step(
        &[1.0, 2.0],
        &Config {
            min_new_tokens: Some(3),
            eos_token_id: Some(vec![0]),
            ..cfg()
        },
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "min_new_tokens must be 0 (off) without a history (it counts the new tokens in history: pass the token ids so far and history_prompt_len, [] for none yet), got 3"
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

/// The "after temperature" chart under llama.cpp (temperature after top-k, so the trace sums its
/// normaliser itself) over what the early stages left: the end token held back and banned ids
/// have p_tempered 0, every other id e^((l − max)/T) over the survivors' sum — with a few bans
/// (the runs between them) and with many (the survivors listed).
#[test]
fn after_temperature_leaves_out_the_held_back_and_the_banned() {
    let n = 300usize;
    let logits: Vec<f32> = (0..n)
        .map(|i| ((i * 7919) % 97) as f32 * 0.05 - 2.0)
        .collect();
    for bans in [2usize, 70] {
        let mut bias: Vec<(u32, f64)> = (0..bans as u32)
            .map(|i| (i * 4 + 1, f64::NEG_INFINITY))
            .collect();
        bias.push((10, 1.5));
        let c = Config {
            engine: Some(Engine::LlamaCpp),
            temperature: Some(0.7),
            top_k: Some(20),
            min_new_tokens: Some(4),
            eos_token_id: Some(vec![0, 2]),
            history: Some(vec![5]),
            history_prompt_len: Some(1),
            logit_bias: Some(bias),
            trace_top: Some(n as u32),
            ..cfg()
        };
        let t = step(&logits, &c).unwrap();
        let early = |c: &Candidate| matches!(c.removed_by, Some("logit_bias" | "min_new_tokens"));
        let left: Vec<&Candidate> = t.candidates.iter().filter(|c| !early(c)).collect();
        assert_eq!(left.len(), n - bans - 2, "bans {bans}");
        let max = left
            .iter()
            .map(|c| c.logit_processed)
            .fold(f32::MIN, f32::max);
        let weight = |c: &Candidate| (f64::from(c.logit_processed - max) / 0.7).exp();
        let z: f64 = left.iter().map(|c| weight(c)).sum();
        for c in &t.candidates {
            let want = if early(c) { 0.0 } else { weight(c) / z };
            assert!(
                (c.p_tempered - want).abs() < 1e-6 * want.max(1e-3),
                "bans {bans} id {} p_tempered {} want {want}",
                c.id,
                c.p_tempered
            );
        }
    }
}
