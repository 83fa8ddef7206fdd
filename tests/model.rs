//! The shipped model (`www/model/`): loading, the forward pass against the
//! trainer's, the chapter's behaviours, and the generator's stop conditions,
//! `force` and `rewind`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed unwrap is a failed test

use nexttoken::decode::Config as StepConfig;
use nexttoken::generate::{first_repeat, GenerateError, Generator, StopReason};
use nexttoken::model::{LoadError, Model};
use nexttoken::tokenizer::Tokenizer;

const SHIPPED_MODEL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/www/model/model.safetensors");
const TOKENIZER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/www/model/tokenizer.json");

/// The weights under test: the shipped ones, or `NEXTTOKEN_MODEL` (a new
/// export, checked here before it replaces them).
fn model_path() -> String {
    std::env::var("NEXTTOKEN_MODEL").unwrap_or_else(|_| SHIPPED_MODEL.to_owned())
}

fn shipped() -> (Model, Tokenizer) {
    let m = Model::from_safetensors(&std::fs::read(model_path()).unwrap()).unwrap();
    let t = Tokenizer::from_json(&std::fs::read_to_string(TOKENIZER).unwrap()).unwrap();
    (m, t)
}

fn generator() -> Generator {
    Generator::from_bytes(
        &std::fs::read(model_path()).unwrap(),
        &std::fs::read_to_string(TOKENIZER).unwrap(),
    )
    .unwrap()
}

fn softmax(l: &[f32]) -> Vec<f64> {
    let max = l.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let e: Vec<f64> = l.iter().map(|&x| ((x - max) as f64).exp()).collect();
    let z: f64 = e.iter().sum();
    e.into_iter().map(|x| x / z).collect()
}

/// (id, p) sorted by probability, descending.
fn ranked(l: &[f32]) -> Vec<(u32, f64)> {
    let mut v: Vec<(u32, f64)> = softmax(l)
        .into_iter()
        .enumerate()
        .map(|(i, p)| (i as u32, p))
        .collect();
    v.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    v
}

/// Smallest set whose probability reaches `p` (top-p / nucleus).
fn top_p_kept(r: &[(u32, f64)], p: f64) -> usize {
    let mut cum = 0.0;
    for (i, (_, q)) in r.iter().enumerate() {
        cum += q;
        if cum >= p {
            return i + 1;
        }
    }
    r.len()
}

fn next_dist(g: &mut Generator, prompt: &str) -> Vec<(u32, f64)> {
    g.set_prompt(prompt).unwrap();
    ranked(g.logits())
}

fn show(t: &Tokenizer, r: &[(u32, f64)], n: usize) -> String {
    r.iter()
        .take(n)
        .map(|(i, p)| format!("{}:{p:.3}", t.token(*i).unwrap_or("?")))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn chapter_capital_prompt_is_confident() {
    let mut g = generator();
    let r = next_dist(&mut g, "中国的首都是");
    let t = g.tokenizer();
    println!("中国的首都是 → {}", show(t, &r, 10));
    assert_eq!(t.token(r[0].0), Some("北京"), "{}", show(t, &r, 5));
    assert!(r[0].1 >= 0.6, "p(北京) = {}", r[0].1);
    assert!(
        top_p_kept(&r, 0.9) <= 3,
        "top-p 0.9 keeps {}",
        top_p_kept(&r, 0.9)
    );
}

#[test]
fn chapter_plugin_name_prompt_is_open() {
    let mut g = generator();
    let r = next_dist(&mut g, "给一个代码编辑器插件起名：");
    println!(
        "插件起名 → {} … kept {}",
        show(g.tokenizer(), &r, 10),
        top_p_kept(&r, 0.9)
    );
    assert!(
        top_p_kept(&r, 0.9) >= 15,
        "top-p 0.9 keeps {}",
        top_p_kept(&r, 0.9)
    );
    assert!(r[0].1 <= 0.2, "top p = {}", r[0].1);
}

#[test]
fn chapter_superset_is_in_the_top_three() {
    let mut g = generator();
    let r = next_dist(&mut g, "TypeScript 是 JavaScript 的");
    let t = g.tokenizer();
    println!("TypeScript 是 JavaScript 的 → {}", show(t, &r, 10));
    assert!(
        r.iter().take(3).any(|(i, _)| t.token(*i) == Some("超集")),
        "{}",
        show(t, &r, 5)
    );
}

#[test]
fn chapter_react_prompt_gives_user_then_interface() {
    let mut g = generator();
    let r = next_dist(&mut g, "React 是一个用于构建");
    let user = g.tokenizer().token_id("用户").unwrap();
    println!("React 是一个用于构建 → {}", show(g.tokenizer(), &r, 10));
    assert_eq!(r[0].0, user, "{}", show(g.tokenizer(), &r, 5));
    g.force(user).unwrap();
    let r2 = ranked(g.logits());
    println!("… 用户 → {}", show(g.tokenizer(), &r2, 10));
    assert_eq!(
        g.tokenizer().token(r2[0].0),
        Some("界面"),
        "{}",
        show(g.tokenizer(), &r2, 5)
    );
}

#[test]
fn no_top_ten_candidate_of_the_chapter_prompts_is_a_byte_fragment() {
    let mut g = generator();
    for p in [
        "中国的首都是",
        "给一个代码编辑器插件起名：",
        "TypeScript 是 JavaScript 的",
        "React 是一个用于构建",
    ] {
        let r = next_dist(&mut g, p);
        for (i, _) in r.iter().take(10) {
            assert!(
                !g.tokenizer().is_byte(*i),
                "{p}: {}",
                show(g.tokenizer(), &r, 10)
            );
        }
    }
}

/// Greedy text runs ≥ 20 tokens before its first repeated token 4-gram (a
/// loop; most tokens here are two characters, so eight characters) — repetition after that is expected: it is the chapter's point.
#[test]
fn greedy_from_a_documentation_prompt_runs_twenty_tokens_before_repeating() {
    let mut g = generator();
    g.max_new_tokens = 60;
    // NEXTTOKEN_GREEDY_PROMPT tries another prompt without editing the test.
    let env = std::env::var("NEXTTOKEN_GREEDY_PROMPT").ok();
    let prompt = env.as_deref().unwrap_or(GREEDY_PROMPT);
    g.set_prompt(prompt).unwrap();
    // End-of-sequence is banned (as a "min new tokens" would) so the run is
    // long enough to show where greedy starts repeating.
    let eos = g.tokenizer().eos_id().unwrap();
    let greedy = StepConfig {
        temperature: Some(0.0),
        logit_bias: Some(vec![(eos, f64::NEG_INFINITY)]),
        ..StepConfig::default()
    };
    while g.next(&greedy).is_ok() {}
    let gen = g.tokens()[g.prompt_len()..].to_vec();
    let first_repeat = first_repeat(&gen, 4);
    let text = g.text().to_owned();
    println!(
        "greedy: {prompt}|{text} ({} tokens, first repeat at {first_repeat}, stop {:?})",
        gen.len(),
        g.stopped()
    );
    assert!(!text.contains('\u{FFFD}'));
    assert!(first_repeat >= 20, "{text}");
    let cjk = text
        .chars()
        .filter(|c| ('\u{4e00}'..='\u{9fff}').contains(c))
        .count();
    assert!(cjk >= 15, "{text}");
}

const GREEDY_PROMPT: &str = "组件是";

/// Issue 13's fluency targets on the team's 20 prompts (`src/train/eval_prompts.txt`): plain
/// greedy runs ≥ 12 tokens before a repeated 4-gram, or ends with `</s>` after ≥ 6 without one,
/// on ≥ 16 of 20, and `</s>` is never the first token. The first edition's weights do not meet
/// them (14 of 20; `</s>` first after 「什么是大语言模型？」), hence ignored until the second
/// edition's weights ship: `cargo test --release --features train --test model -- --ignored`
/// (with `NEXTTOKEN_MODEL` for a candidate export).
#[cfg(feature = "train")]
#[test]
#[ignore = "issue 13 target, met only by the second edition's weights (in training)"]
fn greedy_on_the_fluency_set_meets_the_second_editions_targets() {
    use nexttoken::train::fluency;
    let mut g = generator();
    let runs = fluency::run_all(&mut g);
    for r in &runs {
        println!(
            "{:>3} {:>3} {} {}|{}",
            r.first_repeat,
            r.tokens,
            if r.fluent() { "ok" } else { "--" },
            r.prompt,
            r.text
        );
    }
    let fluent = runs.iter().filter(|r| r.fluent()).count();
    assert!(fluent >= 16, "fluent on {fluent} of {}", runs.len());
    let eos_first: Vec<&str> = runs
        .iter()
        .filter(|r| r.eos_first)
        .map(|r| r.prompt.as_str())
        .collect();
    assert!(eos_first.is_empty(), "</s> first after {eos_first:?}");
}

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
fn bad_model_bytes_are_errors_naming_the_problem() {
    let good = std::fs::read(model_path()).unwrap();
    assert!(matches!(
        Model::from_safetensors(&good[..4]),
        Err(LoadError::Truncated { .. })
    ));
    assert!(matches!(
        Model::from_safetensors(&good[..100]),
        Err(LoadError::Truncated { .. })
    ));
    let mut bad_len = good.clone();
    bad_len[..8].copy_from_slice(&u64::MAX.to_le_bytes());
    assert!(matches!(
        Model::from_safetensors(&bad_len),
        Err(LoadError::Truncated { .. })
    ));
    let n = u64::from_le_bytes(good[..8].try_into().unwrap()) as usize;
    let header = String::from_utf8(good[8..8 + n].to_vec()).unwrap();
    let swap = |from: &str, to: &str| {
        let h = header.replacen(from, to, 1);
        assert_eq!(h.len(), header.len(), "keep the header length");
        let mut b = good.clone();
        b[8..8 + n].copy_from_slice(h.as_bytes());
        Model::from_safetensors(&b)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
    };
    assert!(swap("\"I8\"", "\"U8\"").contains("dtype"));
    assert!(swap("tok_emb\"", "tok_emx\"").contains("tok_emb"));
    assert!(swap("\"dim\"", "\"dix\"").contains("dim"));
    // Random corruption never panics.
    let mut x = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..200 {
        let mut b = good[..(n + 8 + 4096).min(good.len())].to_vec();
        for _ in 0..4 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let i = (x as usize) % (n + 8).min(b.len());
            b[i] = (x >> 32) as u8;
        }
        let _ = Model::from_safetensors(&b);
    }
}

/// A safetensors file by hand: `meta` for `__metadata__`, then F32 tensors `(name, shape,
/// [start, end))` over `data` zero bytes. Offsets are written as given (so they may overlap).
fn crafted(
    meta: &[(&str, usize)],
    tensors: &[(String, Vec<usize>, [usize; 2])],
    data: usize,
) -> Vec<u8> {
    let meta: Vec<String> = meta
        .iter()
        .map(|(k, v)| format!("\"{k}\":\"{v}\""))
        .collect();
    let mut entries = vec![format!("\"__metadata__\":{{{}}}", meta.join(","))];
    for (name, shape, [start, end]) in tensors {
        entries.push(format!(
            "\"{name}\":{{\"dtype\":\"F32\",\"shape\":{shape:?},\"data_offsets\":[{start},{end}]}}"
        ));
    }
    let header = format!("{{{}}}", entries.join(","));
    let mut bytes = (header.len() as u64).to_le_bytes().to_vec();
    bytes.extend_from_slice(header.as_bytes());
    bytes.resize(bytes.len() + data, 0);
    bytes
}

/// Every tensor of a (vocab, dim, layers, seq) model, laid out one after another, or (`shared`)
/// every block reading the same bytes as block 0.
fn crafted_model(dims: [usize; 4], shared: bool) -> Vec<u8> {
    let [vocab, dim, layers, seq] = dims;
    let mut tensors = Vec::new();
    let mut at = 0;
    let mut put = |name: String, shape: Vec<usize>, at_block0: Option<usize>| -> usize {
        let len = shape.iter().product::<usize>() * 4;
        let start = at_block0.unwrap_or(at);
        tensors.push((name, shape, [start, start + len]));
        if at_block0.is_none() {
            at += len;
        }
        start
    };
    put("tok_emb".into(), vec![vocab, dim], None);
    put("pos_emb".into(), vec![seq, dim], None);
    put("norm_f".into(), vec![dim], None);
    let block: [(&str, Vec<usize>); 6] = [
        ("norm1", vec![dim]),
        ("attn_qkv", vec![3 * dim, dim]),
        ("attn_out", vec![dim, dim]),
        ("norm2", vec![dim]),
        ("mlp_up", vec![4 * dim, dim]),
        ("mlp_down", vec![dim, 4 * dim]),
    ];
    let mut first = Vec::new();
    for l in 0..layers {
        for (i, (name, shape)) in block.iter().enumerate() {
            let reuse = (shared && l > 0).then(|| first[i]);
            let start = put(format!("blocks.{l}.{name}"), shape.clone(), reuse);
            if l == 0 {
                first.push(start);
            }
        }
    }
    let meta = [
        ("vocab_size", vocab),
        ("dim", dim),
        ("n_layers", layers),
        ("n_heads", 1),
        ("seq_len", seq),
    ];
    crafted(&meta, &tensors, at)
}

#[test]
fn crafted_models_cannot_share_bytes_or_ask_for_a_huge_cache() {
    // A well-formed small model loads.
    assert!(Model::from_safetensors(&crafted_model([8, 4, 2, 8], false)).is_ok());
    // The same with every block reading block 0's bytes: refused, naming the overlap.
    let shared = Model::from_safetensors(&crafted_model([8, 4, 2, 8], true));
    let message = shared.err().unwrap().to_string();
    assert!(
        message.contains("overlap") && message.contains("blocks.1."),
        "{message}"
    );
    // The 8 MB file: 64 layers sharing one range and a long context (a 4 GB KV cache).
    let huge = crafted_model([16, 64, 64, 16384], true);
    assert!(huge.len() < 8 << 20);
    assert!(Model::from_safetensors(&huge).is_err());
    // Header dimensions alone asking for more KV cache than the limit: refused before any tensor
    // is read (64 layers × 65536 positions × 64 dims × 8 bytes = 2 GiB).
    let meta = [
        ("vocab_size", 8),
        ("dim", 64),
        ("n_layers", 64),
        ("n_heads", 1),
        ("seq_len", 65536),
    ];
    let message = Model::from_safetensors(&crafted(&meta, &[], 0))
        .err()
        .unwrap()
        .to_string();
    assert!(
        message.contains("seq_len") && message.contains("KV cache"),
        "{message}"
    );
    // A file past the size limit.
    let big = vec![0u8; nexttoken::model::MAX_MODEL_BYTES + 1];
    assert!(matches!(
        Model::from_safetensors(&big),
        Err(LoadError::TooLarge { .. })
    ));
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

/// Native speed of the shipped model with the KV cache (a benchmark, not a
/// timed test): `cargo test --release --test model -- --ignored --nocapture`.
#[test]
#[ignore]
fn bench_native_tokens_per_second() {
    let (m, _) = shipped();
    let mut logits = vec![0.0; m.config().vocab_size];
    let start = std::time::Instant::now();
    let mut n = 0;
    for round in 0..20u32 {
        let mut cache = m.new_cache();
        for i in 0..m.config().seq_len as u32 {
            m.forward((i * 31 + round) % 7000 + 300, &mut cache, &mut logits)
                .unwrap();
            n += 1;
        }
    }
    let s = start.elapsed().as_secs_f64();
    println!(
        "native forward: {n} tokens in {s:.2} s = {:.0} tokens/s ({} parameters)",
        n as f64 / s,
        m.param_count()
    );
    // the same tokens 127 at a time after a one-token prompt (a link's forced tokens)
    let seq = m.config().seq_len;
    let mut rows = vec![0.0; (seq - 1) * m.config().vocab_size];
    let start = std::time::Instant::now();
    for round in 0..20u32 {
        let mut cache = m.new_cache();
        m.forward(300 + round, &mut cache, &mut logits).unwrap();
        let ids: Vec<u32> = (1..seq as u32)
            .map(|i| (i * 31 + round) % 7000 + 300)
            .collect();
        m.forward_many(&ids, &mut cache, &mut rows).unwrap();
    }
    let b = start.elapsed().as_secs_f64();
    println!(
        "native forward_many: {n} tokens in {b:.2} s = {:.0} tokens/s ({:.2}× one at a time)",
        n as f64 / b,
        s / b
    );
}

#[test]
fn min_new_tokens_holds_back_the_end_token_the_generator_knows() {
    // A question is not a sentence start: this completion model ends it at once under greedy.
    let mut g = generator();
    let eos = g.tokenizer().eos_id().unwrap();
    let greedy = StepConfig {
        temperature: Some(0.0),
        ..StepConfig::default()
    };
    g.set_prompt("什么是大语言模型？").unwrap();
    assert_eq!(g.next(&greedy).unwrap().token, eos);
    // With min_new_tokens 5 the generator supplies the end id and the count (its history) itself.
    g.set_prompt("什么是大语言模型？").unwrap();
    let five = StepConfig {
        min_new_tokens: Some(5),
        ..greedy
    };
    for i in 0..5 {
        let out = g.next(&five).unwrap();
        assert_ne!(out.token, eos, "step {i} ended the text");
        let trace = out.trace.unwrap();
        let stage = trace
            .stages
            .iter()
            .find(|s| s.name == "min_new_tokens")
            .unwrap();
        assert_eq!((stage.threshold, stage.removed_count), (Some(i as f64), 1));
    }
    assert_eq!(g.tokens().len() - g.prompt_len(), 5);
}
