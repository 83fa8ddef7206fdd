//! The generator over a link's forced tokens in one batch: `forward_many` bit for bit against one
//! token at a time, `force_many` against `force` one by one, and the core's records made along
//! the way (`force_many_recorded`) against `step` one by one under each position's config.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed unwrap is a failed test

mod shipped;

use nexttoken::decode::Config as StepConfig;
use shipped::{generator, shipped};
/// A link's forced tokens go through the model in one batch (`forward_many`): every position's
/// logits must be those of feeding the tokens one at a time, bit for bit, and the cache after it
/// the same (the next token's logits agree too). A batch that does not fit changes nothing.
#[test]
fn a_batch_of_tokens_gives_the_logits_of_one_at_a_time_bit_for_bit() {
    let (m, t) = shipped();
    let v = m.config().vocab_size;
    let prompt = t.encode("中国的首都是");
    let forced: Vec<u32> = (0..100u32).map(|i| (i * 7919) % 7700 + 300).collect();
    let mut one = m.new_cache();
    let mut single = vec![0.0; v];
    for &id in &prompt {
        m.forward(id, &mut one, &mut single).unwrap();
    }
    let mut batch = one.clone();
    let mut rows = vec![0.0; forced.len() * v];
    m.forward_many(&forced, &mut batch, &mut rows).unwrap();
    for (i, &id) in forced.iter().enumerate() {
        m.forward(id, &mut one, &mut single).unwrap();
        let row = &rows[i * v..(i + 1) * v];
        assert!(
            row.iter()
                .zip(&single)
                .all(|(a, b)| a.to_bits() == b.to_bits()),
            "position {i} differs"
        );
    }
    assert_eq!(batch.len(), one.len());
    let (mut after_one, mut after_batch) = (vec![0.0; v], vec![0.0; v]);
    m.forward(500, &mut one, &mut after_one).unwrap();
    m.forward(500, &mut batch, &mut after_batch).unwrap();
    assert_eq!(after_one, after_batch);

    // refused whole: a token outside the vocabulary, or more tokens than the context holds
    let mut cache = m.new_cache();
    m.forward(prompt[0], &mut cache, &mut single).unwrap();
    let mut out = vec![0.0; 3 * v];
    assert!(m
        .forward_many(&[300, v as u32, 301], &mut cache, &mut out)
        .is_err());
    let too_many = vec![300; m.config().seq_len];
    let mut big = vec![0.0; too_many.len() * v];
    assert!(m.forward_many(&too_many, &mut cache, &mut big).is_err());
    assert_eq!(cache.len(), 1);
}

/// A link's forced tokens in one call (`force_many`, one batched forward pass): the same outputs,
/// the same logits before each token, and the same generator afterwards as `force` one by one;
/// it ends at the first stop (the rest are not appended) and fills the context as `force` does.
#[test]
fn force_many_is_force_one_by_one() {
    let forced: Vec<u32> = (0..200u32).map(|i| (i * 7919) % 7700 + 300).collect();
    let v = generator().tokenizer().vocab_size();
    // (max new tokens, stop sequences): the context fills at 127; max_new_tokens stops at 40
    for (max, stop) in [(1000, None), (40, None), (1000, Some("的"))] {
        use nexttoken::decode::Value;
        let stops = Value::Array(stop.map(|s| Value::String(s.into())).into_iter().collect());
        let mut one = generator();
        let mut many = generator();
        for g in [&mut one, &mut many] {
            g.set_prompt("a").unwrap();
            g.max_new_tokens = max;
            g.set_stop_sequences(&stops).unwrap();
        }
        let mut expected = Vec::new();
        let mut before = Vec::new();
        for &id in &forced {
            if one.stopped().is_some() {
                break;
            }
            before.extend_from_slice(one.logits());
            expected.push(one.force(id).unwrap());
        }
        let (outs, rows) = many.force_many(&forced).unwrap();
        assert_eq!(outs, expected, "max {max}, stop {stop:?}");
        assert!(outs.len() < forced.len(), "a stop inside the tokens");
        assert_eq!(rows.len(), outs.len() * v);
        assert!(rows
            .iter()
            .zip(&before)
            .all(|(a, b)| a.to_bits() == b.to_bits()));
        assert_eq!(many.tokens(), one.tokens());
        assert_eq!(many.text(), one.text());
        assert_eq!(many.logits(), one.logits());
        assert_eq!(many.stopped(), one.stopped());
        // and both go on (or refuse) alike after a rewind
        one.rewind(3).unwrap();
        many.rewind(3).unwrap();
        assert_eq!(many.force(500).unwrap(), one.force(500).unwrap());
        assert_eq!(many.logits(), one.logits());
    }
    // refused with nothing changed: a token outside the vocabulary
    let mut g = generator();
    g.set_prompt("a").unwrap();
    let logits = g.logits().to_vec();
    assert!(g.force_many(&[300, v as u32]).is_err());
    assert_eq!(g.tokens().len(), 1);
    assert_eq!(g.logits(), &logits[..]);
}

/// The shipped model's Generator on `prompt`, with room for a long forced path.
fn prompted(prompt: &str) -> nexttoken::generate::Generator {
    let mut g = generator();
    g.set_prompt(prompt).unwrap();
    g.max_new_tokens = 1000;
    g
}

/// `force_many_recorded` (a link replayed): at each position, the token `step` chooses and the
/// forced token's record are those of `step` one by one on the same logits under that position's
/// config (`draw` one further, the forced tokens in `history`), listing 24 as the page does; a
/// config `step` refuses changes nothing.
#[test]
fn forced_records_are_step_one_by_one() {
    use nexttoken::decode::{step, Engine};
    let forced: Vec<u32> = (0..60u32).map(|i| (i * 7919) % 7700 + 300).collect();
    let base = StepConfig {
        seed: Some(42),
        temperature: Some(0.8),
        top_p: Some(0.9),
        trace_top: Some(24),
        ..StepConfig::default()
    };
    let mut prompt_ids = generator();
    prompt_ids.set_prompt("a").unwrap();
    let prompt = prompt_ids.tokens().to_vec();
    let eos = prompt_ids.tokenizer().eos_id().unwrap();
    let configs = [
        StepConfig {
            draw: Some(3),
            ..base.clone()
        },
        StepConfig {
            draw: None,
            ..base.clone()
        },
        StepConfig {
            strategy: Some(nexttoken::decode::Strategy::Greedy),
            ..base.clone()
        },
        StepConfig {
            draw: Some(0),
            repetition_penalty: Some(1.3),
            frequency_penalty: Some(0.5),
            engine: Some(Engine::LlamaCpp),
            top_k: Some(40),
            history: Some(prompt.clone()),
            history_prompt_len: Some(prompt.len()),
            ..base.clone()
        },
        StepConfig {
            draw: Some(0),
            min_new_tokens: Some(30),
            eos_token_id: Some(vec![eos]),
            trace_ids: Some(vec![eos]),
            history: Some(prompt.clone()),
            history_prompt_len: Some(prompt.len()),
            ..base.clone()
        },
    ];
    for config in configs {
        let mut g = prompted("a");
        let run = g.force_many_recorded(&forced, &config).unwrap();
        let (outs, rows, records) = (run.outputs, run.logits, run.records);
        assert_eq!(records.len(), outs.len());
        assert_eq!(outs.len(), forced.len());
        let v = g.tokenizer().vocab_size();
        let mut chose_forced = 0;
        for (i, record) in records.iter().enumerate() {
            let id = forced[i];
            let mut cfg = config.clone();
            // (a seed without a draw: the tokens generated so far, as `next` makes it)
            cfg.draw = match (config.seed, config.draw) {
                (Some(_), None) => Some(i as u64),
                (_, draw) => draw.map(|d| d + i as u64),
            };
            if let Some(history) = cfg.history.as_mut() {
                history.extend_from_slice(&forced[..i]);
            }
            cfg.trace_ids = Some(vec![id]);
            let trace = step(&rows[i * v..(i + 1) * v], &cfg).unwrap();
            assert_eq!(record.choice, trace.token, "{config:?} at {i}");
            let listed = trace.candidates.iter().find(|c| c.id == id).unwrap();
            assert_eq!(&record.candidate, listed, "{config:?} at {i}");
            chose_forced += usize::from(record.choice == id);
        }
        // the records are not all alike: the forced tokens are mostly not what step chooses
        assert!(chose_forced < records.len() / 2);
    }
    // refused with nothing changed: a config step refuses
    let mut g = generator();
    g.set_prompt("a").unwrap();
    let logits = g.logits().to_vec();
    let bad = StepConfig {
        top_p: Some(2.0),
        ..base
    };
    let err = g.force_many_recorded(&forced, &bad).unwrap_err();
    assert!(err.to_string().contains("top_p"), "{err}");
    assert_eq!(g.tokens(), &prompt[..]);
    assert_eq!(g.logits(), &logits[..]);
    assert!(g.stopped().is_none());
    assert_eq!(g.text(), "");
}

/// Without `history`, end ids or a draw in the config, `force_many_recorded` fills them in as
/// `next` does (the tokens so far, the model's end id, the tokens generated so far): at each
/// position its choice and the forced token's record are those of `next` there. (They were
/// `step`'s under the bare config: a repetition penalty penalised nothing and min_new_tokens held
/// back no end token, so a replayed link's records disagreed with the generation they replay.)
#[test]
fn forced_records_without_history_are_next_one_by_one() {
    use nexttoken::decode::Engine;
    let mut probe = generator();
    probe.set_prompt("中国的首都是").unwrap();
    let eos = probe.tokenizer().eos_id().unwrap();
    // the prompt's own tokens again and again: a penalty over the history changes every position
    let prompt = probe.tokens().to_vec();
    let forced: Vec<u32> = prompt.iter().cycle().take(24).copied().collect();
    let base = StepConfig {
        seed: Some(7),
        temperature: Some(0.9),
        ..StepConfig::default()
    };
    let configs = [
        StepConfig {
            repetition_penalty: Some(1.5),
            presence_penalty: Some(0.8),
            engine: Some(Engine::LlamaCpp),
            ..base.clone()
        },
        StepConfig {
            min_new_tokens: Some(30),
            ..base.clone()
        },
    ];
    for config in configs {
        let mut g = prompted("中国的首都是");
        let run = g.force_many_recorded(&forced, &config).unwrap();
        assert_eq!(run.records.len(), forced.len());
        let mut one = prompted("中国的首都是");
        for (i, record) in run.records.iter().enumerate() {
            let id = forced[i];
            let cfg = StepConfig {
                trace_ids: Some(vec![id, eos]),
                ..config.clone()
            };
            let out = one.next(&cfg).unwrap();
            let trace = out.trace.unwrap();
            assert_eq!(record.choice, trace.token, "{config:?} at {i}");
            let listed = trace.candidates.iter().find(|c| c.id == id).unwrap();
            assert_eq!(record.candidate.p, listed.p, "{config:?} at {i}");
            assert_eq!(record.candidate.logit, listed.logit, "{config:?} at {i}");
            if config.min_new_tokens.is_some() {
                let end = trace.candidates.iter().find(|c| c.id == eos).unwrap();
                assert_eq!(end.p, 0.0, "the end token is held back at {i}");
            }
            one.rewind(1).unwrap();
            one.force(id).unwrap();
        }
        assert_eq!(one.tokens(), g.tokens());
    }
}
