//! typical-p's cut ≡ a sort and walk, its float32 entropy ≡ f64 (split from typical_p.rs).
use super::super::super::softmax::{entropy_sum, scan, sum_weights_all};

/// The float32 entropy against the truth in f64 (its own normaliser, libm exp), over peaked, flat, wide and
/// −inf-holding logits at several temperatures, as the whole array and through ids.
#[test]
fn entropy_from_float32_weights_is_within_1e_6_nats_of_f64() {
    let mut next = super::super::test_uniforms(0x9e37_79b9u32);
    let mut worst = 0.0f64;
    for (n, spread) in [
        (10usize, 1.0f64),
        (1000, 2.5),
        (32_000, 2.5),
        (151_936, 2.5),
        (5000, 0.0),
        (3000, 30.0),
    ] {
        let mut logits: Vec<f32> = (0..n)
            .map(|_| ((next() - 0.5) * 2.0 * spread * 3.0) as f32)
            .collect();
        for i in 0..30.min(n) {
            logits[(i * 7919) % n] = (18.0 - 0.4 * i as f64) as f32;
        }
        if n == 3000 {
            logits[5] = f32::NEG_INFINITY;
        }
        let max = scan(&logits).0;
        for inv_t in [1.0f32, 1.0 / 0.7, 1.0 / 1.5, 1.0 / 5.0, 1.0 / 0.1] {
            let z = sum_weights_all(&logits, max, inv_t);
            let got = z.ln() - entropy_sum(&logits, None, max, inv_t) / z;
            let ids: Vec<u32> = (0..n as u32).collect();
            let through_ids = z.ln() - entropy_sum(&logits, Some(&ids), max, inv_t) / z;
            // The truth in f64 throughout: its own normaliser, libm exp.
            let z64: f64 = logits
                .iter()
                .map(|&l| f64::from((l - max) * inv_t).exp())
                .sum();
            let want: f64 = logits
                .iter()
                .map(|&l| {
                    let ln_p = f64::from((l - max) * inv_t) - z64.ln();
                    let p = ln_p.exp();
                    if p > 0.0 {
                        -p * ln_p
                    } else {
                        0.0
                    }
                })
                .sum();
            worst = worst
                .max((got - want).abs())
                .max((through_ids - want).abs());
            eprintln!(
                "n {n} spread {spread} inv_t {inv_t} H {want} err {:e} {:e}",
                got - want,
                through_ids - want
            );
        }
    }
    assert!(worst < 1e-6, "worst entropy error {worst} nats");
}

use crate::decode::{step, Config, Engine};
use proptest::prelude::*;

/// The kept set the naive way: every score from the entropy the step reports, a full sort by
/// (score, id), a walk to the first cumulative mass ≥ mass (HF, ties with the boundary kept)
/// or > mass (llama.cpp, exactly that many), at least `min_keep`.
fn naive(
    logits: &[f32],
    t: f32,
    mass: f64,
    min_keep: usize,
    llama: bool,
    entropy: f64,
) -> Vec<bool> {
    let max = scan(logits).0;
    let inv_t = 1.0 / t;
    let z = sum_weights_all(logits, max, inv_t);
    let mut items: Vec<(f64, u32, f64)> = logits
        .iter()
        .enumerate()
        .filter(|(_, l)| l.is_finite())
        .map(|(i, &l)| {
            let sc = (l - max) * inv_t;
            let score = (-(f64::from(sc) - z.ln()) - entropy).abs();
            (score, i as u32, f64::from(super::exp_f32(sc)) / z)
        })
        .collect();
    items.sort_by(super::by_score);
    let mut cum = 0.0;
    let mut stop = items.len();
    for (i, item) in items.iter().enumerate() {
        cum += item.2;
        let crossed = if llama { cum > mass } else { cum >= mass };
        if crossed && (!llama || i + 1 >= min_keep) {
            stop = i + 1;
            break;
        }
    }
    let n = stop.max(min_keep).min(items.len()).max(1);
    let (boundary, boundary_id) = (items[n - 1].0, items[n - 1].1);
    let mut kept = vec![false; logits.len()];
    for &(score, id, _) in &items {
        kept[id as usize] =
            score < boundary || (score == boundary && (!llama || id <= boundary_id));
    }
    kept
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    /// The bucketed cut ≡ the naive sort and walk, on peaked, flat, tied and −inf-holding
    /// logits, both engines, min_keep up to past the crossing. Only where summation order
    /// decides (the naive cum within 1e-12 of the mass) may they differ.
    #[test]
    fn the_cut_equals_a_sort_and_walk(
        logits in prop_oneof![
            prop::collection::vec(-8.0f32..8.0, 1..300),
            prop::collection::vec((0u8..5).prop_map(|q| f32::from(q) * 0.5), 1..300),
            prop::collection::vec(prop_oneof![9 => -3.0f32..3.0, 1 => Just(f32::NEG_INFINITY)], 2..3000),
        ],
        t in 0.3f32..3.0,
        mass in 0.01f64..0.999,
        min_keep in 1usize..40,
        llama in any::<bool>(),
    ) {
        prop_assume!(logits.iter().any(|l| l.is_finite()));
        let n = logits.len();
        let config = Config {
            engine: Some(if llama { Engine::LlamaCpp } else { Engine::Hf }),
            temperature: Some(f64::from(t)),
            typical_p: Some(mass),
            min_keep: Some(min_keep as u32),
            seed: Some(1),
            trace_top: Some(n as u32),
            ..Config::default()
        };
        let trace = step(&logits, &config).unwrap();
        // llama.cpp tempers last: typical-p sees T = 1 there.
        let t_seen = if llama { 1.0 } else { t };
        let stage = trace.stages.iter().find(|s| s.name == "typical_p").unwrap();
        let entropy = stage.threshold.unwrap();
        let want = naive(&logits, t_seen, mass, min_keep, llama, entropy);
        let mut got = vec![false; n];
        for c in &trace.candidates {
            got[c.id as usize] = c.kept;
        }
        prop_assert_eq!(got, want);
    }
}

/// The band of logits whose score is below a bound (typical_p_band.rs) is exactly that set:
/// checked at its two ends and their float32 neighbours, and at random logits, for scorers at
/// several temperatures and entropies, strict and inclusive.
#[test]
fn the_band_is_exactly_the_logits_below_the_bound() {
    let mut next = super::super::test_uniforms(0x2545_f491u32);
    let mut ends = 0;
    for _ in 0..400 {
        let sc = super::band::Scorer {
            max: (next() * 30.0 - 10.0) as f32,
            inv_t: (0.2 + next() * 5.0) as f32,
            ln_z: next() * 12.0,
            entropy: next() * 11.0,
        };
        let bound = [
            0.0,
            1e-300,
            next() * 0.01,
            next() * 4.0,
            next() * 40.0,
            f64::INFINITY,
        ][(next() * 6.0) as usize % 6];
        for inclusive in [false, true] {
            let inside = |l: f32| {
                let score = sc.score(l);
                if inclusive {
                    score <= bound
                } else {
                    score < bound
                }
            };
            let (lo, hi) = sc.band(bound, inclusive);
            let in_band = |l: f32| l >= lo && l <= hi;
            let mut probes = vec![f32::NEG_INFINITY, f32::INFINITY, -0.0, 0.0, sc.max];
            for end in [lo, hi] {
                if end.is_finite() {
                    probes.extend([end, end.next_down(), end.next_up()]);
                    ends += 1;
                }
            }
            probes.extend((0..50).map(|_| (next() * 200.0 - 100.0) as f32));
            for l in probes {
                assert_eq!(in_band(l), inside(l), "l {l} band {lo}..{hi} bound {bound}");
            }
        }
    }
    assert!(ends > 500, "the ends were finite only {ends} times");
}

/// The band path ≡ the full pass: the same trace (every candidate, mark and number) with the
/// band path on and off, on open-context, peaked, flat, tied and −inf-holding logits, both
/// engines, temperatures, masses, min_keep past the crossing, and a held-back end id (a kept
/// list with a hole). The band path must decide most of them.
#[test]
fn the_band_gives_the_full_pass_trace() {
    let mut next = super::super::test_uniforms(0x1b87_3593u32);
    let (mut cases, before) = (0, super::BAND.with(|b| b.get().1));
    for n in [2usize, 50, 1000, 7000, 40_000] {
        for _ in 0..24 {
            let kind = (next() * 5.0) as usize;
            let spread = [2.5, 0.3, 6.0, 2.5, 1.0][kind];
            let mut logits: Vec<f32> = (0..n)
                .map(|_| {
                    let g = (next() + next() + next() + next() - 2.0) * 3f64.sqrt() * spread;
                    if kind == 3 {
                        (g * 2.0).round() as f32 * 0.5 // ties
                    } else {
                        g as f32
                    }
                })
                .collect();
            let top = 6.0 + next() * 12.0;
            for i in 0..30.min(n) {
                logits[(i * 7919) % n] = (top - 0.4 * i as f64) as f32;
            }
            if kind == 4 {
                logits[n / 3] = f32::NEG_INFINITY;
            }
            let llama = next() < 0.5;
            let hole = next() < 0.3;
            let config = Config {
                engine: Some(if llama { Engine::LlamaCpp } else { Engine::Hf }),
                temperature: Some([0.5, 0.8, 1.0, 1.0, 1.5][(next() * 5.0) as usize % 5]),
                typical_p: Some([0.05, 0.5, 0.9, 0.9, 0.95, 0.999][(next() * 6.0) as usize % 6]),
                min_keep: Some([1, 1, 1, 5, 300][(next() * 5.0) as usize % 5]),
                min_new_tokens: hole.then_some(4),
                eos_token_id: hole.then(|| vec![(n / 2) as u32]),
                seed: Some(3),
                trace_top: Some(64),
                ..Config::default()
            };
            let band = format!("{:?}", step(&logits, &config));
            super::BAND.with(|b| b.set((false, b.get().1)));
            let full = format!("{:?}", step(&logits, &config));
            super::BAND.with(|b| b.set((true, b.get().1)));
            assert_eq!(band, full, "n {n} kind {kind} {config:?}");
            cases += 1;
        }
    }
    let decided = super::BAND.with(|b| b.get().1) - before;
    eprintln!("the band path decided {decided} of {cases}");
    assert!(
        decided * 2 > cases,
        "the band path decided {decided} of {cases}"
    );
}
