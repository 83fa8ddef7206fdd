//! The generator's mechanics on the weights under test: the KV cache, `rewind` and `force`,
//! stop conditions, pending bytes, errors that change nothing, and the forward pass against the
//! trainer's.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed unwrap is a failed test

mod shipped;

use nexttoken::decode::Config as StepConfig;
use nexttoken::generate::{GenerateError, StopReason};
use shipped::{generator, model_path, shipped};

#[test]
fn kv_cache_forward_equals_recomputing_from_scratch() {
    let (m, t) = shipped();
    let ids = t.encode("React 是一个用于构建用户界面的 JavaScript 库。");
    let mut cache = m.new_cache();
    let mut inc = vec![0.0; m.config().vocab_size];
    for &id in &ids {
        m.forward(id, &mut cache, &mut inc).unwrap();
    }
    // A second pass with a fresh cache gives bit-identical logits.
    let mut c2 = m.new_cache();
    let mut again = vec![0.0; m.config().vocab_size];
    for &id in &ids {
        m.forward(id, &mut c2, &mut again).unwrap();
    }
    assert_eq!(inc, again);
}

#[test]
fn rewind_and_force_are_exact() {
    let mut g = generator();
    g.set_prompt("TypeScript 是 JavaScript 的").unwrap();
    let before = g.logits().to_vec();
    // End-of-sequence banned so five tokens always come.
    let eos = g.tokenizer().eos_id().unwrap();
    let sample = StepConfig {
        seed: Some(7),
        logit_bias: Some(vec![(eos, f64::NEG_INFINITY)]),
        ..StepConfig::default()
    };
    let a: Vec<u32> = (0..5).map(|_| g.next(&sample).unwrap().token).collect();
    g.rewind(5).unwrap();
    assert_eq!(g.logits(), &before[..]);
    assert_eq!(g.text(), "");
    // Same seed, same draws: the same branch again.
    let b: Vec<u32> = (0..5).map(|_| g.next(&sample).unwrap().token).collect();
    assert_eq!(a, b);
    // Branch: rewind 3, force another token, compare with a fresh run.
    g.rewind(3).unwrap();
    let other = g.tokenizer().token_id("一个").unwrap();
    g.force(other).unwrap();
    let branched = g.logits().to_vec();
    let mut fresh = generator();
    let mut ids = fresh.tokenizer().encode("TypeScript 是 JavaScript 的");
    ids.extend_from_slice(&a[..2]);
    ids.push(other);
    fresh.set_prompt_tokens(&ids).unwrap();
    assert_eq!(fresh.logits(), &branched[..]);
    assert!(matches!(
        g.rewind(100),
        Err(GenerateError::RewindTooFar { n: 100, allowed: 3 })
    ));
}

#[test]
fn stop_conditions() {
    let mut g = generator();
    let greedy = StepConfig {
        temperature: Some(0.0),
        ..StepConfig::default()
    };
    // max_new_tokens
    g.max_new_tokens = 3;
    g.set_prompt("组件").unwrap();
    let id = g.tokenizer().token_id("组件").unwrap();
    let outs: Vec<_> = (0..3).map(|_| g.force(id).unwrap()).collect();
    assert_eq!(
        (outs[1].stop.clone(), outs[2].stop.clone()),
        (None, Some(StopReason::MaxNewTokens))
    );
    assert!(matches!(
        g.next(&greedy),
        Err(GenerateError::Stopped(StopReason::MaxNewTokens))
    ));
    // A stop sequence spanning two tokens ("首" + "都" are inside one token
    // here, so use the text of two consecutive forced tokens).
    g.max_new_tokens = 64;
    g.set_prompt("中国").unwrap();
    let t = g.tokenizer().clone();
    g.stop_sequences = vec!["京。".into()];
    let a = g.force(t.token_id("北京").unwrap()).unwrap();
    assert_eq!(a.stop, None);
    let b = g.force(t.token_id("。").unwrap()).unwrap();
    assert_eq!(b.stop, Some(StopReason::StopSequence("京。".into())));
    // End of sequence.
    g.stop_sequences.clear();
    g.rewind(2).unwrap();
    let e = g.force(t.eos_id().unwrap()).unwrap();
    assert_eq!((e.stop, e.piece.as_str()), (Some(StopReason::Eos), ""));
    // The caller's stop.
    g.rewind(1).unwrap();
    g.stop();
    assert!(matches!(
        g.next(&greedy),
        Err(GenerateError::Stopped(StopReason::User))
    ));
    // Context limit: fill the window.
    g.set_prompt("组件").unwrap();
    g.max_new_tokens = usize::MAX;
    let ctx = g.model().config().seq_len;
    let mut last = None;
    for _ in 0..ctx {
        match g.force(t.token_id("组件").unwrap()) {
            Ok(o) => last = o.stop,
            Err(_) => break,
        }
    }
    assert_eq!(last, Some(StopReason::ContextFull));
    assert_eq!(g.tokens().len(), ctx);
    g.rewind(1).unwrap();
    assert!(g.force(t.token_id("组件").unwrap()).is_ok());
}

#[test]
fn a_character_split_over_byte_tokens_is_pending_not_replaced() {
    let mut g = generator();
    g.set_prompt("字").unwrap();
    let t = g.tokenizer().clone();
    let bytes = "鱻".as_bytes();
    let ids: Vec<u32> = bytes
        .iter()
        .map(|b| t.token_id(&format!("<0x{b:02X}>")).unwrap())
        .collect();
    let a = g.force(ids[0]).unwrap();
    assert_eq!((a.piece.as_str(), a.pending.as_slice()), ("", &bytes[..1]));
    let b = g.force(ids[1]).unwrap();
    assert_eq!(b.pending.as_slice(), &bytes[..2]);
    let c = g.force(ids[2]).unwrap();
    assert_eq!((c.piece.as_str(), c.pending.len()), ("鱻", 0));
}

#[test]
fn nothing_but_set_prompt_works_before_a_prompt_and_errors_change_nothing() {
    let mut g = generator();
    let greedy = StepConfig {
        temperature: Some(0.0),
        ..StepConfig::default()
    };
    let no_prompt = |r: Result<(), GenerateError>| {
        assert!(matches!(r, Err(GenerateError::NoPrompt { .. })), "{r:?}");
    };
    no_prompt(g.next(&greedy).map(|_| ()));
    no_prompt(g.force(5).map(|_| ()));
    no_prompt(g.rewind(0));
    no_prompt(g.rewind(1));
    no_prompt(g.next_logits().map(|_| ()));
    assert_eq!(
        g.rewind(0).unwrap_err().to_string(),
        "rewind needs a prompt: call setPrompt first (the Generator has none yet)"
    );
    assert!(g.tokens().is_empty());
    // A refused prompt leaves it without one; a good one then works as on a fresh Generator.
    assert!(g.set_prompt("").is_err());
    let long = "x".repeat(nexttoken::generate::MAX_TEXT_CHARS + 1);
    assert!(g
        .set_prompt(&long)
        .unwrap_err()
        .to_string()
        .contains("at most 1048576 characters"));
    no_prompt(g.next(&greedy).map(|_| ()));
    g.set_prompt("中国的首都是").unwrap();
    let a = g.next(&greedy).unwrap().token;
    let mut fresh = generator();
    fresh.set_prompt("中国的首都是").unwrap();
    assert_eq!(fresh.next(&greedy).unwrap().token, a);
    // A refused argument keeps the old state.
    let bad = nexttoken::decode::Value::String("xyz界".into());
    assert!(g.set_stop_sequences(&bad).is_err());
    assert!(g.rewind(2).is_err());
    assert_eq!(g.tokens().len(), fresh.tokens().len());
    g.rewind(1).unwrap();
}

/// The page's forward pass against the trainer's batch forward on the
/// shipped weights. The trainer computes in f32 on the dequantised int8 rows;
/// the page multiplies the int8 rows by each input vector quantised to int16
/// (`src/model/matrix.rs`), a difference far below the int8 rounding itself
/// (0.46 on the logits, model card).
#[cfg(feature = "train")]
#[test]
fn forward_matches_the_trainers_forward() {
    let bytes = std::fs::read(model_path()).unwrap();
    let (cfg, params) = nexttoken::train::export::params_from_safetensors(&bytes).unwrap();
    let net = nexttoken::train::nn::Net::new(cfg);
    let (m, t) = shipped();
    let ids = t.encode("TypeScript 是 JavaScript 的超集，React 是一个用于构建用户界面的 JavaScript 库。中国的首都是北京。");
    let acts = net.forward(&params, &ids, 1, ids.len());
    let mut cache = m.new_cache();
    let mut logits = vec![0.0; cfg.vocab_size];
    let mut max_d = 0.0f32;
    for (pos, &id) in ids.iter().enumerate() {
        m.forward(id, &mut cache, &mut logits).unwrap();
        let want = &acts.probs[pos * cfg.vocab_size..(pos + 1) * cfg.vocab_size];
        for (a, b) in logits.iter().zip(want) {
            max_d = max_d.max((a - b).abs());
        }
    }
    println!("max |Δlogit| over {} positions: {max_d:e}", ids.len());
    assert!(max_d <= 1e-3, "max |Δlogit| {max_d}");
}

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
        let mut g = generator();
        g.set_prompt("a").unwrap();
        g.max_new_tokens = 1000;
        let run = g.force_many_recorded(&forced, &config).unwrap();
        let (outs, rows, records) = (run.outputs, run.logits, run.records);
        assert_eq!(records.len(), outs.len());
        assert_eq!(outs.len(), forced.len());
        let v = g.tokenizer().vocab_size();
        let mut chose_forced = 0;
        for (i, record) in records.iter().enumerate() {
            let id = forced[i];
            let mut cfg = config.clone();
            cfg.draw = config.draw.map(|d| d + i as u64);
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

/// `spawn` (the page's second and third Generators): a Generator with no prompt over the same
/// model and tokenizer, independent of its parent — the same tokens, text and logits bit for bit
/// as one made from the files, whatever the parent holds or does afterwards.
#[test]
fn a_spawned_generator_is_one_made_from_the_files() {
    let mut parent = generator();
    parent.set_prompt("TypeScript 是").unwrap();
    parent.force(400).unwrap();
    let mut spawned = parent.spawn();
    assert!(spawned.tokens().is_empty());
    assert!(spawned.next_logits().is_err(), "no prompt yet");
    let mut fresh = generator();
    let forced: Vec<u32> = (0..40u32).map(|i| (i * 7919) % 7700 + 300).collect();
    for g in [&mut spawned, &mut fresh] {
        g.set_prompt("a").unwrap();
        g.force_many(&forced).unwrap();
    }
    // the parent moving on changes nothing in the spawned one
    parent.rewind(1).unwrap();
    parent.force(500).unwrap();
    assert_eq!(spawned.tokens(), fresh.tokens());
    assert_eq!(spawned.text(), fresh.text());
    let (a, b) = (spawned.next_logits().unwrap(), fresh.next_logits().unwrap());
    assert!(a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits()));
    assert_eq!(spawned.max_new_tokens, fresh.max_new_tokens);
}
