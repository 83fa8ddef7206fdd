//! The shipped model's behaviour: the chapter's prompts, greedy fluency, and `min_new_tokens`
//! against the end token the weights produce. (Mechanics: `generator.rs`; loading: `model_loading.rs`.)
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed unwrap is a failed test

mod shipped;

use nexttoken::decode::Config as StepConfig;
use nexttoken::generate::{first_repeat, Generator};
use nexttoken::tokenizer::Tokenizer;
use shipped::{generator, shipped};

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

const GREEDY_PROMPT: &str = "在 React 中，状态";

/// Issue 13's fluency targets on the team's 20 prompts (`src/train/eval_prompts.txt`): plain
/// greedy runs ≥ 12 tokens before a repeated 4-gram, or ends with `</s>` after ≥ 6 without one,
/// on ≥ 16 of 20, and `</s>` is never the first token. The first edition's weights did not
/// meet them (14 of 20; `</s>` first after 「什么是大语言模型？」); the second edition's do.
#[cfg(feature = "train")]
#[test]
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

const ENDED_PROMPT: &str = "中国的首都是北京。";

#[test]
fn min_new_tokens_holds_back_the_end_token_the_generator_knows() {
    // A finished sentence: the model learnt to end a text after one, so greedy ends it at once.
    let mut g = generator();
    let eos = g.tokenizer().eos_id().unwrap();
    let greedy = StepConfig {
        temperature: Some(0.0),
        ..StepConfig::default()
    };
    g.set_prompt(ENDED_PROMPT).unwrap();
    assert_eq!(g.next(&greedy).unwrap().token, eos);
    // With min_new_tokens 5 the generator supplies the end id and the count (its history) itself.
    g.set_prompt(ENDED_PROMPT).unwrap();
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
