//! One matrix row's step ÷ floor, for profiling and for paired runs of two builds (`perf record`
//! on it, or two worktrees' binaries alternated): `cargo run --release --example step_ratio --
//! "T 1" 151936 500`. Step and floor alternate call by call; the minimum of each is robust to
//! the load of a shared machine, where criterion's separate medians are not.
#![allow(clippy::unwrap_used)]
use nexttoken::decode::{Config, Decoder};
#[path = "../support/mod.rs"]
#[allow(dead_code)]
mod support;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(1).cloned().unwrap_or("T 1".into());
    let n: usize = args.get(2).map(|s| s.parse().unwrap()).unwrap_or(151_936);
    let iters: u64 = args.get(3).map(|s| s.parse().unwrap()).unwrap_or(2000);
    // The " · uncertain" rows run on an open context's logits, as the benchmark runs them.
    let uncertain = which.ends_with("· uncertain");
    let logits = if uncertain {
        support::uncertain_logits(n)
    } else {
        support::peaked_logits(n)
    };
    let mut rows = support::matrix(support::history(256, n));
    rows.extend(support::more_stages(n));
    rows.extend(support::newer_stages(n));
    rows.extend(support::uncertain_rows());
    // "full trace": the benchmark's 8,000-candidate trace (run it at n 8000).
    rows.push((
        "full trace",
        Config {
            temperature: Some(0.8),
            top_k: Some(40),
            top_p: Some(0.95),
            min_p: Some(0.05),
            trace_top: Some(n as u32),
            ..Config::default()
        },
    ));
    let cfg = rows.into_iter().find(|(name, _)| *name == which).unwrap().1;
    // STEP_COLUMNS=1: the columnar trace (what the wasm layer and a column reader call).
    let columns = std::env::var("STEP_COLUMNS").is_ok_and(|v| v == "1");
    let mut d = Decoder::default();
    let mut acc = 0u64;
    let mut f = 0.0;
    let (mut best_s, mut best_f) = (f64::MAX, f64::MAX);
    let mut samples = Vec::new();
    for draw in 0..iters {
        let c = Config {
            seed: Some(7),
            draw: Some(draw),
            ..cfg.clone()
        };
        let t = std::time::Instant::now();
        let trace = if columns {
            d.step_columns(&logits, &c)
        } else {
            d.step(&logits, &c)
        };
        acc += u64::from(trace.unwrap().token);
        let ts = t.elapsed().as_secs_f64();
        let t = std::time::Instant::now();
        f += nexttoken::decode::log_sum_exp(std::hint::black_box(&logits));
        let tf = t.elapsed().as_secs_f64();
        best_s = best_s.min(ts);
        best_f = best_f.min(tf);
        samples.push(ts / tf);
    }
    samples.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let med = samples[samples.len() / 2];
    println!("{which} n {n}: min step {:.1} µs min floor {:.1} µs ratio-of-mins {:.2} median-ratio {:.2} ({acc} {f})", best_s*1e6, best_f*1e6, best_s/best_f, med);
}
