//! The generator's mechanics on the weights under test: the KV cache, `rewind` and `force`,
//! stop conditions, pending bytes, errors that change nothing, the forward pass against the
//! trainer's, and spawned generators (batches of forced tokens: generator_batch.rs).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed unwrap is a failed test

mod shipped;

use nexttoken::decode::Config as StepConfig;
use nexttoken::generate::{GenerateError, StopReason};
use shipped::{generator, shipped};

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
    // lowered below what is generated: refused, nothing appended (it made one more token)
    g.rewind(1).unwrap();
    g.max_new_tokens = 1;
    assert_eq!(
        g.next(&greedy).unwrap_err(),
        GenerateError::LimitReached {
            max_new_tokens: 1,
            generated: 2
        }
    );
    assert_eq!(g.tokens().len(), g.prompt_len() + 2);
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
    let bytes = std::fs::read(shipped::model_path()).unwrap();
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
