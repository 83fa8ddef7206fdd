//! pair_traces' case makers after the first section (tests/tools/pair_traces.rs): the stages
//! that change logits, the page's slider mix, an open context, and top-p keeping much of one.
use super::R;
use nexttoken::decode::{Config, Engine};

/// A config of the rows that change logits (issue 10's sixth round): the early stages alone or
/// with one more stage, mostly at T = 1 — a bias with or without bans, the penalties with a
/// history (llama.cpp's window, vLLM's prompt part), min_new_tokens holding back or not.
pub(crate) fn early_config(r: &mut R, n: usize) -> Config {
    let mut c = Config {
        engine: Some(r.pick(&[Engine::Hf, Engine::LlamaCpp, Engine::Vllm])),
        trace_top: Some(r.pick(&[0, 1, 20, 300, n as u32])),
        seed: Some(r.next() as u32),
        draw: Some(r.below(1000)),
        ..Config::default()
    };
    if r.chance(0.6) {
        let len = 1 + r.below(600) as u32;
        c.history = Some((0..len).map(|_| r.below(n as u64) as u32).collect());
        c.history_prompt_len = Some(r.below(u64::from(len) + 1) as usize);
        c.repetition_penalty = Some(r.pick(&[1.0, 0.8, 1.1, 1.3, 2.0]));
        if r.chance(0.4) {
            c.frequency_penalty = Some(r.pick(&[-0.5, 0.5, 1.0]));
            c.presence_penalty = Some(r.pick(&[0.0, -0.5, 0.5, 1.5]));
        }
        if r.chance(0.3) {
            c.penalty_last_n = Some(r.pick(&[-1, 0, 64, 256]));
        }
    }
    if r.chance(0.5) {
        let bans = r.chance(0.4);
        c.logit_bias = Some(
            (0..1 + r.below(40))
                .map(|_| {
                    let b = if bans && r.chance(0.3) {
                        f64::NEG_INFINITY
                    } else {
                        r.pick(&[-5.0, 0.0, 3.0, 30.0, 100.0])
                    };
                    (r.below(n as u64) as u32, b)
                })
                .collect(),
        );
    }
    if r.chance(0.3) {
        c.min_new_tokens = Some(r.pick(&[1, 5, 8]));
        c.eos_token_id = Some(vec![r.below(n as u64) as u32, 0]);
        if r.chance(0.5) {
            let len = r.below(12) as u32;
            c.history_prompt_len = Some(0);
            c.history = Some((0..len).map(|i| i % n as u32).collect());
        }
        c.history.get_or_insert_with(Vec::new);
    }
    match r.below(10) {
        0 => c.temperature = Some(r.pick(&[0.0, 0.7, 1.5])),
        1 => c.top_p = Some(0.9),
        2 => c.epsilon_cutoff = Some(3e-5),
        3 => c.typical_p = Some(0.9),
        _ => {}
    }
    c
}

/// The mix the page's sliders make (round thirteen): T ≠ 1 with a penalty over a short history,
/// often with top-k, min-p or top-p; the history sometimes holds the best id (the max moves) or
/// an id twice, and the logits sometimes tie at the max.
pub(crate) fn learner_config(r: &mut R, l: &[f32]) -> Config {
    let n = l.len();
    let best = (0..n).fold(0, |b, i| if l[i] > l[b] { i } else { b }) as u32;
    let len = 1 + r.below(12) as u32;
    let mut history: Vec<u32> = (0..len).map(|_| r.below(n as u64) as u32).collect();
    if r.chance(0.3) {
        history.push(best);
    }
    if r.chance(0.2) {
        history.push(history[0]);
    }
    let mut c = Config {
        engine: Some(r.pick(&[Engine::Hf, Engine::Hf, Engine::LlamaCpp, Engine::Vllm])),
        temperature: Some(r.pick(&[0.3, 0.7, 0.8, 1.0, 1.2, 1.5, 2.0, 5.0])),
        repetition_penalty: Some(r.pick(&[0.8, 1.05, 1.15, 1.3, 2.0])),
        history: Some(history),
        trace_top: Some(r.pick(&[0, 1, 5, 20, 300, n as u32])),
        seed: Some(r.next() as u32),
        draw: Some(r.below(1000)),
        ..Config::default()
    };
    if r.chance(0.6) {
        c.top_k = Some(r.pick(&[1, 5, 40, 100, 1000]));
    }
    if r.chance(0.5) {
        c.min_p = Some(r.pick(&[0.01, 0.05, 0.1, 0.5]));
    }
    if r.chance(0.3) {
        c.top_p = Some(r.pick(&[0.5, 0.9, 0.95]));
    }
    if r.chance(0.25) {
        c.frequency_penalty = Some(r.pick(&[-0.5, 0.5]));
        c.presence_penalty = Some(r.pick(&[0.0, 0.5]));
    }
    if r.chance(0.1) {
        c.logit_bias = Some(vec![(r.below(n as u64) as u32, r.pick(&[-5.0, 3.0]))]);
    }
    c
}

/// An open context (issue 10's "· uncertain" rows): a Gaussian bulk of spread `spread` under a
/// head of 30 spaced `gap` apart whose top sits `top` up, sometimes ties (a coarse grid).
pub(crate) fn open_logits(r: &mut R, n: usize) -> Vec<f32> {
    let spread = r.pick(&[1.5, 2.5, 3.5]);
    let (top, gap) = (r.pick(&[8.0, 11.0, 14.0]), r.pick(&[0.1, 0.4]));
    let quantum = if r.chance(0.2) { 0.125 } else { 0.0 };
    let mut l: Vec<f32> = (0..n)
        .map(|_| {
            let g = ((r.f() + r.f() + r.f() + r.f() - 2.0) * 3f64.sqrt() * spread) as f32;
            if quantum > 0.0 {
                (g / quantum).round() * quantum
            } else {
                g
            }
        })
        .collect();
    for i in 0..30.min(n) {
        l[(i * 7919) % n] = (top - gap * i as f64) as f32;
    }
    if r.chance(0.2) {
        for _ in 0..r.below(1000) {
            let i = r.below(n as u64) as usize;
            l[i] = f32::NEG_INFINITY;
        }
    }
    l
}

/// What a learner sets on an open context: top-p, typical-p, min-p, temperature, alone or
/// together, sometimes after a penalty or top-k, every engine, u anywhere.
pub(crate) fn open_config(r: &mut R, n: usize) -> Config {
    let mut c = Config {
        engine: Some(r.pick(&[Engine::Hf, Engine::LlamaCpp, Engine::Vllm])),
        trace_top: Some(r.pick(&[0, 1, 20, 300])),
        seed: Some(r.next() as u32),
        draw: Some(r.below(1000)),
        ..Config::default()
    };
    if r.chance(0.5) {
        c.temperature = Some(r.pick(&[0.7, 0.8, 1.0, 1.2, 1.5, 2.0]));
    }
    match r.below(4) {
        0 | 1 => c.top_p = Some(r.pick(&[0.5, 0.8, 0.9, 0.95, 0.99])),
        2 => c.typical_p = Some(r.pick(&[0.2, 0.5, 0.9, 0.95])),
        _ => {
            c.top_p = Some(r.pick(&[0.9, 0.95]));
            c.typical_p = Some(0.9);
        }
    }
    if r.chance(0.3) {
        c.min_p = Some(r.pick(&[0.001, 0.01, 0.05]));
    }
    if r.chance(0.2) {
        c.top_k = Some(r.pick(&[40, 1000, 50_000]));
    }
    if r.chance(0.2) {
        c.history = Some((0..r.below(64)).map(|_| r.below(n as u64) as u32).collect());
        c.repetition_penalty = Some(r.pick(&[1.1, 1.3]));
    }
    if r.chance(0.2) {
        c.min_keep = Some(r.pick(&[1, 2, 10, 20_000]));
    }
    c
}

/// A learner's temperature at the slider's end under top-p near 1 (issue 10's "T 2 top-p 0.9 ·
/// uncertain"): tens of thousands kept, 1 − p from 0.1 to 1e-4; sometimes min-p or typical-p
/// after.
pub(crate) fn hot_config(r: &mut R) -> Config {
    // A quarter cool and within 1e-4 of 1: the walk reaches weights 2^30 below its sum, where
    // the sums stop being exact and the walk adds one weight at a time.
    let edge = r.chance(0.25);
    let mut c = Config {
        engine: Some(r.pick(&[Engine::Hf, Engine::LlamaCpp, Engine::Vllm])),
        trace_top: Some(r.pick(&[0, 1, 20, 300])),
        seed: Some(r.next() as u32),
        draw: Some(r.below(1000)),
        temperature: Some(if edge {
            r.pick(&[0.5, 0.7, 1.0])
        } else {
            r.pick(&[1.5, 1.75, 2.0])
        }),
        top_p: Some(if edge {
            r.pick(&[0.9999, 0.99999, 0.999_999])
        } else {
            r.pick(&[0.9, 0.95, 0.99, 0.999, 0.9995, 0.9997, 0.9999])
        }),
        ..Config::default()
    };
    if r.chance(0.15) {
        c.min_p = Some(r.pick(&[0.001, 0.01]));
    }
    if r.chance(0.1) {
        c.typical_p = Some(0.95);
    }
    c
}
