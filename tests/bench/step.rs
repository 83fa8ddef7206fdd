//! `make bench`, native half: `step` against the floor (one fused max + Σ exp pass) at vocabulary
//! sizes 1,000 / 32,000 / 151,936, with the full config and with top-k off. The Node half
//! (tests/bench/step.mjs) runs the same inputs through the wasm build and prints the ratio table.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed unwrap is a failed test

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use nexttoken::decode::{log_sum_exp, Config, Decoder};
use std::hint::black_box;

/// Same generator as tests/bench/logits.mjs (xorshift32, four-uniform normal, 30 peaks).
fn peaked_logits(n: usize) -> Vec<f32> {
    let mut state: u32 = 0x9e37_79b9;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        f64::from(state) / 4_294_967_296.0
    };
    let mut logits: Vec<f32> = (0..n)
        .map(|_| {
            let g = (next() + next() + next() + next() - 2.0) * 3f64.sqrt();
            (2.5 * g) as f32
        })
        .collect();
    for i in 0..30.min(n) {
        logits[(i * 7919) % n] = (18.0 - 0.4 * i as f64) as f32;
    }
    logits
}

fn config(top_k: u32) -> Config {
    Config {
        temperature: Some(0.8),
        top_k: Some(top_k),
        top_p: Some(0.95),
        min_p: Some(0.05),
        seed: Some(7),
        ..Config::default()
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("step");
    for n in [1_000usize, 32_000, 151_936] {
        let logits = peaked_logits(n);
        group.bench_with_input(BenchmarkId::new("floor_log_sum_exp", n), &logits, |b, l| {
            b.iter(|| log_sum_exp(black_box(l)))
        });
        let mut decoder = Decoder::default();
        for (name, top_k) in [("full_top_k_40", 40), ("top_k_off", 0)] {
            let cfg = config(top_k);
            let mut draw = 0u64;
            group.bench_with_input(BenchmarkId::new(name, n), &logits, |b, l| {
                b.iter(|| {
                    draw += 1;
                    let cfg = Config {
                        draw: Some(draw),
                        ..cfg.clone()
                    };
                    decoder.step(black_box(l), &cfg)
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
