//! `make bench`, native half: `step` against the floor (one fused max + Σ exp pass) for every
//! configuration of issue 10's matrix at vocabulary sizes 1,000 / 32,000 / 151,936, and a full
//! 8,000-candidate trace against the floor at 8,000 (read as columns, the target, and as
//! objects). Prints the ratio table after criterion's own output (medians, read back from
//! criterion's estimates). The Node half (tests/bench/step.mjs)
//! runs the same matrix through the wasm build. `BENCH_QUICK=1` shortens every measurement.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed unwrap is a failed test

use criterion::{BenchmarkId, Criterion};
use nexttoken::decode::{log_sum_exp, Config, Decoder};
use std::hint::black_box;
use std::time::Duration;

#[path = "../support/mod.rs"]
mod support;
use support::{
    history, matrix, more_stages, newer_stages, peaked_logits, uncertain_logits, uncertain_rows,
};

/// The matrix at vocabulary `n` (its repetition history as tests/bench/matrix.mjs makes it),
/// then every other stage the config accepts.
fn matrix_at(n: usize) -> Vec<(&'static str, Config)> {
    let mut rows = matrix(history(256, n));
    rows.extend(more_stages(n));
    rows.extend(newer_stages(n));
    rows.extend(uncertain_rows());
    rows
}

const SIZES: [usize; 3] = [1_000, 32_000, 151_936];
const TRACE_N: usize = 8_000;

fn slug(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// How a benchmark reads the step's trace: as `Decoder::step` returns it (every listed candidate
/// an object), or through `Decoder::step_columns` (what the wasm layer hands to JavaScript).
#[derive(Clone, Copy, PartialEq)]
enum Read {
    Objects,
    Columns,
}

fn bench_step(c: &mut Criterion, group: &str, n: usize, name: &str, cfg: &Config) {
    bench_step_read(c, group, n, name, cfg, Read::Objects);
}

fn bench_step_read(c: &mut Criterion, group: &str, n: usize, name: &str, cfg: &Config, read: Read) {
    let logits = if name.ends_with(" · uncertain") {
        uncertain_logits(n)
    } else {
        peaked_logits(n)
    };
    let mut decoder = Decoder::default();
    let mut draw = 0u64;
    let mut g = c.benchmark_group(group);
    g.bench_with_input(BenchmarkId::new(slug(name), n), &logits, |b, l| {
        b.iter(|| {
            draw += 1;
            let cfg = Config {
                seed: Some(7),
                draw: Some(draw),
                ..cfg.clone()
            };
            if read == Read::Columns {
                let trace = decoder.step_columns(black_box(l), &cfg).unwrap();
                (trace.token, decoder.columns().p.last().copied())
            } else {
                let trace = decoder.step(black_box(l), &cfg).unwrap();
                (trace.token, trace.candidates.last().map(|c| c.p))
            }
        })
    });
    g.finish();
}

/// The floor is measured before a size's rows ("floor") and after them ("floor_after"); the table
/// divides by their mean. Why: one floor measured a minute before twenty rows moved every ratio of
/// a run by 10–15 % against another quiet run (312 vs 269 µs at 151,936); the two show the drift.
fn bench_floor(c: &mut Criterion, group: &str, name: &str, n: usize) {
    let logits = peaked_logits(n);
    let mut g = c.benchmark_group(group);
    g.bench_with_input(BenchmarkId::new(name, n), &logits, |b, l| {
        b.iter(|| log_sum_exp(black_box(l)))
    });
    g.finish();
}

/// Criterion's median estimate (ns) of one benchmark, read back from its JSON.
fn median_ns(group: &str, name: &str, n: usize) -> Option<f64> {
    let dir = std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| "target".into());
    let path = format!(
        "{dir}/criterion/{group}/{}/{n}/new/estimates.json",
        slug(name)
    );
    let text = std::fs::read_to_string(path).ok()?;
    let at = text.find("\"median\"")?;
    let rest = text.get(at..)?;
    let p = rest.find("\"point_estimate\":")? + "\"point_estimate\":".len();
    let num: String = rest
        .get(p..)?
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == 'e' || *c == '-')
        .collect();
    num.parse().ok()
}

/// The mean of the floor measured before and after a size's rows (the one there is, if only one).
fn floor_ns(group: &str, n: usize) -> Option<f64> {
    match (
        median_ns(group, "floor", n),
        median_ns(group, "floor_after", n),
    ) {
        (Some(a), Some(b)) => Some((a + b) / 2.0),
        (a, b) => a.or(b),
    }
}

fn time(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else {
        format!("{:.1} µs", ns / 1e3)
    }
}

fn main() {
    let quick = std::env::var_os("BENCH_QUICK").is_some();
    let mut c = Criterion::default()
        .sample_size(if quick { 10 } else { 30 })
        .warm_up_time(Duration::from_millis(if quick { 100 } else { 500 }))
        .measurement_time(Duration::from_millis(if quick { 300 } else { 1500 }))
        .configure_from_args();
    let only = std::env::var("BENCH_ONLY").ok();
    for n in SIZES {
        bench_floor(&mut c, "step", "floor", n);
        for (name, cfg) in matrix_at(n) {
            if only.as_deref().is_some_and(|o| !name.contains(o)) {
                continue;
            }
            bench_step(&mut c, "step", n, name, &cfg);
        }
        bench_floor(&mut c, "step", "floor_after", n);
    }
    bench_floor(&mut c, "trace", "floor", TRACE_N);
    let full_trace = Config {
        temperature: Some(0.8),
        top_k: Some(40),
        top_p: Some(0.95),
        min_p: Some(0.05),
        trace_top: Some(TRACE_N as u32),
        ..Config::default()
    };
    // The trace as columns (issue 10's target), then as 8,000 objects (`Decoder::step`).
    bench_step_read(
        &mut c,
        "trace",
        TRACE_N,
        "full trace",
        &full_trace,
        Read::Columns,
    );
    bench_step_read(
        &mut c,
        "trace",
        TRACE_N,
        "full trace objects",
        &full_trace,
        Read::Objects,
    );
    bench_floor(&mut c, "trace", "floor_after", TRACE_N);

    println!("\nnative step ÷ floor (criterion medians, same run)\n");
    println!("| config | 1,000 | 32,000 | 151,936 |");
    println!("|---|---:|---:|---:|");
    let floors: Vec<Option<f64>> = SIZES.iter().map(|&n| floor_ns("step", n)).collect();
    let cells = |f: &dyn Fn(usize) -> Option<f64>| -> String {
        SIZES
            .iter()
            .zip(&floors)
            .map(|(&n, floor)| match (f(n), floor) {
                (Some(t), Some(fl)) => format!("{:.2}× ({})", t / fl, time(t)),
                _ => "–".into(),
            })
            .collect::<Vec<_>>()
            .join(" | ")
    };
    println!("| floor | {} |", cells(&|n| floor_ns("step", n)));
    for (name, _) in matrix_at(1000) {
        println!("| {name} | {} |", cells(&|n| median_ns("step", name, n)));
    }
    if let (Some(t), Some(fl)) = (
        median_ns("trace", "full trace", TRACE_N),
        floor_ns("trace", TRACE_N),
    ) {
        println!(
            "\nfull trace (trace_top 8,000) at 8,000, read as columns: {} = {:.1}× the floor ({})",
            time(t),
            t / fl,
            time(fl)
        );
        if let Some(o) = median_ns("trace", "full trace objects", TRACE_N) {
            println!(
                "as 8,000 objects (`Decoder::step`): {} = {:.1}×",
                time(o),
                o / fl
            );
        }
    }
}
