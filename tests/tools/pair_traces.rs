//! Paired-build harness for speed work that must not change a bit: thousands of random (logits,
//! config) cases (flat, ties, wide, −inf, ±0; every stage and engine; u near 0 and 1; vocabularies
//! from 1 to 151,936) through `step`, one line per case with a hash of the whole trace's Debug
//! text (or the error). Build it in main's worktree and in yours, run both with the same count
//! (`cargo run --release --example pair_traces -- 12000 > traces.txt`), and `cmp` the outputs.
//! After them, half as many cases of the stages that change logits alone (`early_config`), then a
//! quarter as many of the page's slider mix, T ≠ 1 with a penalty (`learner_config`), then a
//! quarter as many on an open context's logits, large vocabularies (`open_logits`, `open_config`:
//! the pre-filters let tens of thousands through, so top-p and typical-p take their bucket paths),
//! then a quarter as many of top-p keeping much of such logits at T 1.5–2 and p up to 0.9999
//! (`hot_config`; every eighth a needle over a bulk 2^30 lighter, p within 1e-5 of 1).
#![allow(clippy::unwrap_used)]
use nexttoken::decode::{rng, Config, Decoder, Engine};
use std::io::Write;

struct R(u64);
impl R {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn f(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }
    fn chance(&mut self, p: f64) -> bool {
        self.f() < p
    }
}

fn fnv(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}

fn logits(r: &mut R, n: usize) -> Vec<f32> {
    let kind = r.below(7);
    let mut l: Vec<f32> = (0..n)
        .map(|_| match kind {
            0 => 0.0,                                                  // flat
            1 => ((r.f() * 8.0).floor() * 0.5) as f32,                 // ties
            2 => ((r.f() + r.f() + r.f() + r.f() - 2.0) * 4.3) as f32, // peaked bulk
            3 => (r.f() * 0.01) as f32,                                // nearly flat
            4 => (r.f() * 200.0 - 100.0) as f32,                       // wide
            5 => ((r.f() * 3.0).floor()) as f32 - 1.0,                 // few values, ±0
            _ => ((r.f() + r.f() - 1.0) * 2.0) as f32,
        })
        .collect();
    if kind == 2 {
        for i in 0..30.min(n) {
            l[(i * 7919) % n] = 18.0 - 0.4 * i as f32;
        }
    }
    if r.chance(0.25) {
        let k = 1 + r.below((n as u64 / 4).max(1)) as usize;
        for _ in 0..k {
            let i = r.below(n as u64) as usize;
            l[i] = f32::NEG_INFINITY;
        }
        if l.iter().all(|x| *x == f32::NEG_INFINITY) {
            l[0] = 0.0;
        }
    }
    if r.chance(0.1) {
        let i = r.below(n as u64) as usize;
        l[i] = -0.0;
    }
    l
}

fn config(r: &mut R, n: usize, extreme: &[(u32, u64)]) -> Config {
    let mut c = Config {
        engine: Some(r.pick(&[Engine::Hf, Engine::LlamaCpp, Engine::Vllm])),
        ..Config::default()
    };
    let p = |r: &mut R| r.chance(0.35);
    if r.chance(0.15) {
        c.temperature = Some(0.0);
    } else if p(r) {
        c.temperature = Some(r.pick(&[0.3, 0.7, 0.8, 1.0, 1.3, 1.5, 2.0, 5.0]));
    }
    if p(r) {
        c.top_k = Some(r.pick(&[1, 2, 5, 40, 1000, 50_000]));
    }
    if p(r) {
        c.top_p = Some(r.pick(&[0.0, 0.1, 0.5, 0.9, 0.95, 0.99, 0.999_999]));
    }
    if p(r) {
        c.min_p = Some(r.pick(&[0.001, 0.05, 0.1, 0.5, 1.0]));
    }
    if r.chance(0.2) {
        c.typical_p = Some(r.pick(&[0.0, 0.2, 0.9, 0.99]));
    }
    if r.chance(0.15) {
        c.epsilon_cutoff = Some(r.pick(&[1e-6, 3e-5, 3e-4, 0.01]));
    }
    if r.chance(0.15) {
        c.eta_cutoff = Some(r.pick(&[1e-6, 3e-4, 2e-3, 0.01]));
    }
    if r.chance(0.25) {
        let len = r.below(600) as u32;
        c.history = Some((0..len).map(|_| r.below(n as u64) as u32).collect());
        if r.chance(0.7) {
            c.repetition_penalty = Some(r.pick(&[0.8, 1.1, 1.3, 2.0]));
        }
        if r.chance(0.4) {
            c.frequency_penalty = Some(r.pick(&[-0.5, 0.5, 1.0]));
        }
        if r.chance(0.4) {
            c.presence_penalty = Some(r.pick(&[-0.5, 0.5, 1.5]));
        }
        if r.chance(0.3) {
            c.penalty_last_n = Some(r.pick(&[-1, 0, 64, 256]));
        }
    }
    if r.chance(0.15) {
        let k = 1 + r.below(40);
        c.logit_bias = Some(
            (0..k)
                .map(|_| {
                    let id = r.below(n as u64) as u32;
                    (id, r.pick(&[f64::NEG_INFINITY, -5.0, 3.0, 100.0]))
                })
                .collect(),
        );
    }
    if r.chance(0.1) {
        c.min_new_tokens = Some(r.pick(&[1, 5]));
        c.eos_token_id = Some(vec![r.below(n as u64) as u32, 0]);
        // no new token yet without one (as before it was refused), so the same trace
        c.history.get_or_insert_with(Vec::new);
    }
    if r.chance(0.1) {
        c.dynatemp_range = Some(r.pick(&[0.2, 0.5]));
        c.dynatemp_exponent = Some(r.pick(&[0.5, 1.0, 2.0]));
    }
    if r.chance(0.2) {
        c.min_keep = Some(r.pick(&[1, 2, 10]));
    }
    c.trace_top = Some(r.pick(&[0, 1, 5, 20, 64, 300, n as u32]));
    if r.chance(0.2) {
        c.trace_ids = Some(
            (0..r.below(20))
                .map(|_| r.below(n as u64 + 3) as u32)
                .collect(),
        );
    }
    if r.chance(0.3) && !extreme.is_empty() {
        let (seed, draw) = r.pick(extreme);
        c.seed = Some(seed);
        c.draw = Some(draw);
    } else {
        c.seed = Some(r.next() as u32);
        c.draw = Some(r.below(1000));
    }
    c
}

#[path = "pair_traces_configs.rs"]
mod configs;
use configs::{early_config, hot_config, learner_config, open_config, open_logits};

fn main() {
    let cases: usize = std::env::args()
        .nth(1)
        .map(|s| s.parse().unwrap())
        .unwrap_or(2000);
    // (seed, draw) pairs whose u is near 0 or near 1.
    let mut extreme = Vec::new();
    for seed in [1u32, 7, 42] {
        for draw in 0..3_000_000u64 {
            let u = rng::uniform(seed, draw);
            if !(1e-5..=1.0 - 1e-5).contains(&u) {
                extreme.push((seed, draw));
            }
        }
    }
    let mut r = R(0x9e37_79b9_7f4a_7c15);
    let dump_main = dump_at("PAIR_DUMP_MAIN");
    let sizes = [
        1usize, 2, 3, 7, 33, 100, 1000, 2047, 2049, 5000, 20_000, 40_000, 151_936,
    ];
    let mut out = std::io::BufWriter::new(std::io::stdout());
    let mut decoder = Decoder::default();
    for case in 0..cases {
        let n = if case % 50 == 49 {
            151_936
        } else {
            r.pick(&sizes[..sizes.len() - 1])
        };
        let l = logits(&mut r, n);
        let c = config(&mut r, n, &extreme);
        // A config the engine refuses (a key it lacks, an id past the vocabulary) is drawn
        // again, up to 20 times, so most cases are traces; the refusals are compared too.
        let mut c = c;
        let mut attempt = 0;
        let (kind, text) = loop {
            match decoder.step(&l, &c) {
                Ok(t) => break ("trace", show(t)),
                Err(e) if attempt == 20 => break ("error", format!("{e}")),
                Err(e) => {
                    writeln!(out, "{case} refused {e}").unwrap();
                    attempt += 1;
                    c = config(&mut r, n, &extreme);
                }
            }
        };
        let hash = fnv(text.as_bytes());
        writeln!(out, "{case} n {n} {kind} {hash:016x} {}", text.len()).unwrap();
        if dump_main == Some(case) {
            writeln!(out, "{c:?}\n{text}").unwrap();
        }
    }
    // Then half as many again of the rows that change logits (`early_config`).
    let dump = dump_at("PAIR_DUMP");
    let mut r = R(0x2545_f491_4f6c_dd1d);
    for case in 0..cases / 2 {
        let n = if case % 10 == 9 {
            151_936
        } else {
            r.pick(&sizes[..sizes.len() - 1])
        };
        let l = logits(&mut r, n);
        let c = early_config(&mut r, n);
        let (kind, text) = match decoder.step(&l, &c) {
            Ok(t) => ("trace", show(t)),
            Err(e) => ("error", format!("{e}")),
        };
        let hash = fnv(text.as_bytes());
        writeln!(out, "early {case} n {n} {kind} {hash:016x} {}", text.len()).unwrap();
        if dump == Some(case) {
            writeln!(out, "{c:?}\n{text}").unwrap();
        }
    }
    // Then a quarter as many of the page's slider mix (`learner_config`).
    let mut r = R(0x5851_f42d_4c95_7f2d);
    for case in 0..cases / 4 {
        let n = if case % 10 == 9 {
            151_936
        } else {
            r.pick(&sizes[..sizes.len() - 1])
        };
        let l = logits(&mut r, n);
        let c = learner_config(&mut r, &l);
        let (kind, text) = match decoder.step(&l, &c) {
            Ok(t) => ("trace", show(t)),
            Err(e) => ("error", format!("{e}")),
        };
        let hash = fnv(text.as_bytes());
        writeln!(
            out,
            "learner {case} n {n} {kind} {hash:016x} {}",
            text.len()
        )
        .unwrap();
    }
    // Then a quarter as many on an open context's logits (`open_config`).
    let mut r = R(0x1405_7b7e_f767_814f);
    for case in 0..cases / 4 {
        let n = r.pick(&[20_000usize, 40_000, 100_000, 151_936]);
        let l = open_logits(&mut r, n);
        let c = open_config(&mut r, n);
        let (kind, text) = match decoder.step(&l, &c) {
            Ok(t) => ("trace", show(t)),
            Err(e) => ("error", format!("{e}")),
        };
        let hash = fnv(text.as_bytes());
        writeln!(out, "open {case} n {n} {kind} {hash:016x} {}", text.len()).unwrap();
    }
    // Then a quarter as many of top-p keeping much of an open context (`hot_config`): T 1.5–2,
    // p up to 0.9999, where the head's sums are exact and just past where they stop being so.
    let mut r = R(0x3c6e_f372_fe94_f82b);
    let dump_hot = dump_at("PAIR_DUMP_HOT");
    for case in 0..cases / 4 {
        let n = r.pick(&[32_000usize, 65_536, 100_000, 151_936]);
        // Every eighth: one to four tokens over a bulk 2^30 times lighter whose mass is more than
        // 1 − p (within 1e-5 of 1): the crossing lies deep in the bulk, where sums of the kept
        // weights can round (the buckets' lower bounds miss it: the sorted walk decides).
        let (l, c) = if case % 8 == 7 {
            let top = 1 + r.below(4) as usize;
            let l: Vec<f32> = (0..n)
                .map(|i| if i < top { 0.0 } else { -21.0 - r.f() as f32 })
                .collect();
            let mut c = hot_config(&mut r);
            c.temperature = Some(1.0);
            c.top_p = Some(r.pick(&[0.99999, 0.999_999]));
            (l, c)
        } else {
            (open_logits(&mut r, n), hot_config(&mut r))
        };
        let (kind, text) = match decoder.step(&l, &c) {
            Ok(t) => ("trace", show(t)),
            Err(e) => ("error", format!("{e}")),
        };
        let hash = fnv(text.as_bytes());
        writeln!(out, "hot {case} n {n} {kind} {hash:016x} {}", text.len()).unwrap();
        if dump_hot == Some(case) {
            writeln!(out, "{c:?}\n{text}").unwrap();
        }
    }
}

/// The case whose config and whole trace to print after its line (to find what differs): k from
/// `var`=k, where PAIR_DUMP names an early case, PAIR_DUMP_MAIN a first-section one and
/// PAIR_DUMP_HOT a hot one.
fn dump_at(var: &str) -> Option<usize> {
    std::env::var(var).ok().and_then(|v| v.parse().ok())
}

/// The trace's Debug text; with PAIR_BLANK_EARLY=1, the stage inputs of logit_bias, penalties and
/// the stages before them left out (to compare builds that differ only there).
fn show(mut t: nexttoken::decode::Trace) -> String {
    // PAIR_COARSE=1: only what a change of rounding must not move (the token, its rank, the kept
    // count, the listed ids) and the chosen p to five digits: for a change that moves bits.
    if std::env::var("PAIR_COARSE").is_ok_and(|v| v == "1") {
        let ids: Vec<u32> = t.candidates.iter().map(|c| c.id).collect();
        return format!(
            "{} {} {} {:.4e} {ids:?}",
            t.token, t.chosen_rank, t.kept_count, t.chosen.p
        );
    }
    if std::env::var("PAIR_BLANK_EARLY").is_ok_and(|v| v == "1") {
        let last = t
            .stages
            .iter()
            .rposition(|s| s.active && (s.name == "penalties" || s.name == "logit_bias"));
        if let Some(last) = last {
            for s in t.stages.iter_mut().take(last + 1) {
                s.p_in.clear();
                s.cum_in.clear();
            }
        }
    }
    format!("{t:?}")
}
