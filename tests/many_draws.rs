//! `Decoder::sample_counts` (the page's "Sample N times") counts exactly the tokens `step` chooses
//! with the same config and draws d … d + n − 1: over every configuration of issue 10's matrix,
//! short and long kept lists (both of the draw's paths), flat, tied and −inf logits, greedy and a
//! server's `rest_mass`; bad `n` and `draw` are refused by name and the next call works.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed unwrap is a failed test

use nexttoken::decode::{Config, Counts, Decoder, MAX_DRAWS};
use std::collections::BTreeMap;

#[path = "support/mod.rs"]
#[allow(dead_code)]
mod support;

/// What n calls of `step` choose, counted as `sample_counts` reports it.
fn stepped(d: &mut Decoder, logits: &[f32], config: &Config, n: u32) -> Counts {
    let first = config.draw.unwrap_or(0);
    let mut counts = BTreeMap::new();
    for i in 0..u64::from(n) {
        let c = Config {
            draw: Some(first + i),
            trace_top: Some(0),
            ..config.clone()
        };
        *counts
            .entry(d.step(logits, &c).unwrap().token)
            .or_insert(0u32) += 1;
    }
    Counts {
        ids: counts.keys().copied().collect(),
        counts: counts.values().copied().collect(),
        seed: config.seed.unwrap(),
    }
}

fn same_as_steps(logits: &[f32], name: &str, config: &Config, n: u32) {
    let mut d = Decoder::default();
    let config = Config {
        seed: Some(7),
        draw: Some(3),
        ..config.clone()
    };
    let many = d.sample_counts(logits, &config, n).unwrap();
    let one_by_one = stepped(&mut d, logits, &config, n);
    assert_eq!(many, one_by_one, "{name} at vocabulary {}", logits.len());
    assert_eq!(many.counts.iter().sum::<u32>(), n, "{name}");
}

#[test]
fn every_matrix_configuration_draws_what_step_draws() {
    for vocab in [1_000, 32_000] {
        let logits = support::peaked_logits(vocab);
        let mut rows = support::matrix(support::history(256, vocab));
        rows.extend(support::more_stages(vocab));
        rows.extend(support::newer_stages(vocab));
        for (name, config) in rows {
            same_as_steps(&logits, name, &config, 200);
        }
    }
}

#[test]
fn flat_tied_and_removed_logits_on_both_paths_of_the_draw() {
    // 5,000 tokens kept (more than the draw selects over in place) and 600 (fewer)
    for (vocab, temperature) in [(5_000, 5.0), (600, 5.0), (5_000, 1.0)] {
        let flat: Vec<f32> = (0..vocab).map(|i| (i % 7) as f32 * 0.01).collect();
        let config = Config {
            temperature: Some(temperature),
            ..Config::default()
        };
        same_as_steps(&flat, "flat", &config, 500);
        let tied = vec![0.5f32; vocab];
        same_as_steps(&tied, "tied", &config, 500);
        let mut holes = flat.clone();
        for l in holes.iter_mut().step_by(3) {
            *l = f32::NEG_INFINITY;
        }
        same_as_steps(&holes, "−inf every third", &config, 500);
    }
}

/// A flat distribution puts most of the vocabulary in one of the draw's buckets, and a bucket
/// drawn in twice is ordered once and searched (draw.rs `Ordered`): the draws stay `step`'s —
/// ties, a bucket of unequal weights, and a head heavy enough that the bucket's running masses are
/// not exact (then each draw selects as before). 2^20 equal logits once took 3 ms a draw.
#[test]
fn large_buckets_drawn_many_times_draw_what_step_draws() {
    let vocab = 40_000;
    let tied = vec![0.25f32; vocab];
    let ripple: Vec<f32> = (0..vocab).map(|i| (i % 97) as f32 * 1e-4).collect();
    let mut headed = ripple.clone();
    for (i, l) in headed.iter_mut().step_by(4001).enumerate() {
        *l = 9.0 - i as f32 * 0.37;
    }
    for (name, logits) in [
        ("tied", &tied),
        ("ripple", &ripple),
        ("a head over a ripple", &headed),
    ] {
        for temperature in [1.0, 3.0] {
            let config = Config {
                temperature: Some(temperature),
                ..Config::default()
            };
            same_as_steps(logits, name, &config, 1_500);
        }
    }
}

#[test]
fn greedy_and_a_servers_rest_mass() {
    let logits = support::peaked_logits(2_000);
    let greedy = Config {
        temperature: Some(0.0),
        ..Config::default()
    };
    let mut d = Decoder::default();
    let counts = d.sample_counts(&logits, &greedy, 50).unwrap();
    assert_eq!(counts.ids.len(), 1);
    assert_eq!(counts.counts, vec![50]);
    same_as_steps(&logits, "greedy", &greedy, 50);
    // a server's top 20 as log-probabilities, the rest of the vocabulary holding 10 %
    let mut top: Vec<f32> = vec![f32::NEG_INFINITY; 2_000];
    for (i, l) in top.iter_mut().take(20).enumerate() {
        *l = -1.0 - 0.2 * i as f32;
    }
    let served = Config {
        rest_mass: Some(0.1),
        top_p: Some(0.9),
        ..Config::default()
    };
    same_as_steps(&top, "rest_mass 0.1 top-p 0.9", &served, 300);
}

#[test]
fn without_a_seed_the_fresh_seed_is_reported_and_reproduces_the_counts() {
    let logits = support::peaked_logits(1_000);
    let mut d = Decoder::default();
    let counts = d.sample_counts(&logits, &Config::default(), 100).unwrap();
    let again = Config {
        seed: Some(counts.seed),
        ..Config::default()
    };
    assert_eq!(d.sample_counts(&logits, &again, 100).unwrap(), counts);
}

#[test]
fn bad_counts_and_draws_are_refused_by_name_and_the_next_call_works() {
    let logits = support::peaked_logits(1_000);
    let mut d = Decoder::default();
    let seeded = Config {
        seed: Some(1),
        ..Config::default()
    };
    let before = d.sample_counts(&logits, &seeded, 10).unwrap();
    let err = d
        .sample_counts(&logits, &seeded, 0)
        .unwrap_err()
        .to_string();
    assert_eq!(err, "n must be an integer in [1, 1048576], got 0");
    let err = d
        .sample_counts(&logits, &seeded, MAX_DRAWS + 1)
        .unwrap_err()
        .to_string();
    assert_eq!(err, "n must be an integer in [1, 1048576], got 1048577");
    let late = Config {
        draw: Some(9_007_199_254_740_991),
        ..seeded.clone()
    };
    assert!(d.sample_counts(&logits, &late, 1).is_ok());
    let err = d.sample_counts(&logits, &late, 2).unwrap_err().to_string();
    assert_eq!(
        err,
        "draw must be at most 9007199254740990 with n = 2 (the last draw at most 2^53 − 1), got 9007199254740991"
    );
    let err = d
        .sample_counts(&[1.0, f32::NAN], &seeded, 5)
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("logits[1]"), "{err}");
    assert_eq!(d.sample_counts(&logits, &seeded, 10).unwrap(), before);
}
