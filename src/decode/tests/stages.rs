//! The stages' rules, each on logits with simple fractions.

use super::*;

#[test]
fn softmax_of_ln_weights_gives_fractions() {
    // e^ln3 : e^ln2 : e^0 = 3 : 2 : 1 → 1/2, 1/3, 1/6.
    let t = step(&[LN3, LN2, 0.0], &cfg()).unwrap();
    let p = probs(&t);
    assert!(close(p[0].1, 0.5) && close(p[1].1, 1.0 / 3.0) && close(p[2].1, 1.0 / 6.0));
    assert!(close(t.candidates[0].p_raw, 0.5));
}

/// The same when epsilon runs on a list another stage left, thousands of its tokens within a few
/// ulps of the cut: in logit order after top-p (the band found by halving) and in id order after
/// min-p. A token is kept iff it is the top one or its p entering epsilon is at least ε; top-p
/// and min-p remove only the 2,000 tokens far below.
#[test]
fn epsilon_on_a_list_decides_at_the_cut_as_p_does() {
    let eps = 1e-4f64;
    // Every third token far below the rest (removed before epsilon).
    let logits = around_the_cut(eps, 6000, |i| i % 3 == 2);
    let before = [
        Config {
            top_p: Some(0.999_999),
            ..cfg()
        },
        Config {
            min_p: Some(1e-6),
            ..cfg()
        },
    ];
    for config in before {
        let config = Config {
            epsilon_cutoff: Some(eps),
            trace_top: Some(logits.len() as u32),
            ..config
        };
        let t = step(&logits, &config).unwrap();
        let stage = t
            .stages
            .iter()
            .position(|s| s.name == "epsilon_cutoff")
            .unwrap();
        let p_in = &t.stages[stage].p_in;
        let reaching: Vec<_> = t
            .candidates
            .iter()
            .zip(p_in)
            .filter(|(c, _)| c.kept || c.removed_by == Some("epsilon_cutoff"))
            .collect();
        let kept = reaching.iter().filter(|(c, _)| c.kept).count();
        assert_eq!(reaching.len(), 4001, "{config:?}");
        assert!(kept > 1 && kept < 4001, "kept {kept}: the cut falls inside");
        for (c, &p) in reaching {
            assert_eq!(c.kept, c.id == 0 || p >= eps, "id {} p_in {p}", c.id);
        }
    }
}

#[test]
fn top_p_keeps_the_token_that_crosses_p() {
    // 1/2, 1/3, 1/6: with p = 0.6 the mass above token 1 is 0.5 < 0.6, so it is kept.
    let t = step(
        &[LN3, LN2, 0.0],
        &Config {
            top_p: Some(0.6),
            ..cfg()
        },
    )
    .unwrap();
    assert_eq!(t.kept_count, 2);
    // Renormalised: 3/5 and 2/5.
    let p = probs(&t);
    assert!(close(p[0].1, 0.6) && close(p[1].1, 0.4) && p[2].1 == 0.0);
    assert_eq!(t.candidates[2].removed_by, Some("top_p"));
}

#[test]
fn top_p_zero_keeps_one_token() {
    let t = step(
        &[LN3, LN2, 0.0],
        &Config {
            top_p: Some(0.0),
            ..cfg()
        },
    )
    .unwrap();
    assert_eq!(t.kept_count, 1);
}

#[test]
fn hf_top_k_keeps_ties_and_llama_keeps_exactly_k() {
    let logits = [2.0, 1.0, 1.0, 0.0];
    let hf = step(
        &logits,
        &Config {
            top_k: Some(2),
            ..cfg()
        },
    )
    .unwrap();
    assert_eq!(hf.kept_count, 3);
    let llama = step(
        &logits,
        &Config {
            top_k: Some(2),
            engine: Some(Engine::LlamaCpp),
            ..cfg()
        },
    )
    .unwrap();
    assert_eq!(llama.kept_count, 2);
    // The lower id survives the tie.
    assert!(llama.candidates.iter().any(|c| c.id == 1 && c.kept));
}

#[test]
fn min_p_cuts_relative_to_the_top_token() {
    // Weights 4 : 2 : 1 (ln 4, ln 2, 0). min_p 0.3: 1/4 < 0.3 removed, 2/4 kept.
    let t = step(
        &[2.0 * LN2, LN2, 0.0],
        &Config {
            min_p: Some(0.3),
            ..cfg()
        },
    )
    .unwrap();
    assert_eq!(t.kept_count, 2);
    let stage = t.stages.iter().find(|s| s.name == "min_p").unwrap();
    // Threshold as a probability: 0.3 · p_max = 0.3 · 4/7.
    assert!(close(stage.threshold.unwrap(), 0.3 * 4.0 / 7.0));
}

#[test]
fn temperature_two_takes_square_roots() {
    // Weights 4 : 1 at T = 2 become 2 : 1 → 2/3, 1/3.
    let t = step(
        &[2.0 * LN2, 0.0],
        &Config {
            temperature: Some(2.0),
            ..cfg()
        },
    )
    .unwrap();
    let p = probs(&t);
    assert!(close(p[0].1, 2.0 / 3.0) && close(p[1].1, 1.0 / 3.0));
    assert!(close(t.candidates[0].p_raw, 0.8));
}

#[test]
fn hf_greedy_ignores_warpers_but_llama_runs_them_first() {
    // Typical sampling removes the argmax here in llama.cpp; HF greedy never runs typical.
    let logits = [5.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0];
    let hf = step(
        &logits,
        &Config {
            temperature: Some(0.0),
            typical_p: Some(0.2),
            ..cfg()
        },
    )
    .unwrap();
    assert_eq!(hf.token, 0);
    assert!(hf.stages.iter().any(|s| s.name == "typical_p" && !s.active));
    let llama = step(
        &logits,
        &Config {
            temperature: Some(0.0),
            typical_p: Some(0.2),
            engine: Some(Engine::LlamaCpp),
            ..cfg()
        },
    )
    .unwrap();
    assert_eq!(llama.stages.last().unwrap().name, "greedy");
}

#[test]
fn repetition_penalty_divides_positive_and_multiplies_negative() {
    let t = step(
        &[2.0, -1.0, 0.5],
        &Config {
            repetition_penalty: Some(2.0),
            history: Some(vec![0, 1, 0]),
            ..cfg()
        },
    )
    .unwrap();
    let by_id = |id: u32| {
        t.candidates
            .iter()
            .find(|c| c.id == id)
            .unwrap()
            .logit_processed
    };
    assert_eq!(by_id(0), 1.0);
    assert_eq!(by_id(1), -2.0);
    assert_eq!(by_id(2), 0.5);
}

#[test]
fn vllm_raises_tiny_temperatures_to_one_hundredth() {
    let t = step(
        &[1.0, 0.0],
        &Config {
            temperature: Some(0.001),
            engine: Some(Engine::Vllm),
            ..cfg()
        },
    )
    .unwrap();
    assert!((t.temperature - 0.01).abs() < 1e-6);
    let greedy = step(
        &[1.0, 0.0],
        &Config {
            temperature: Some(1e-6),
            engine: Some(Engine::Vllm),
            ..cfg()
        },
    )
    .unwrap();
    assert_eq!(greedy.strategy, "greedy");
}

/// epsilon keeps exactly the tokens with p ≥ ε when thousands of them sit within a few ulps of
/// the cut (inside the band where the stage takes each token's exp instead of comparing its
/// scaled logit): every listed candidate kept iff its raw p (= its p before the cut, T = 1) is at
/// least ε.
#[test]
fn epsilon_decides_at_the_cut_as_p_does() {
    let eps = 1e-4f64;
    let mut logits = around_the_cut(eps, 4000, |_| false);
    // And 300 far below (whole blocks of 64 that are surely removed, marked at once).
    logits.extend([-60.0f32; 300]);
    let config = Config {
        epsilon_cutoff: Some(eps),
        trace_top: Some(logits.len() as u32),
        ..cfg()
    };
    let t = step(&logits, &config).unwrap();
    let kept = t.candidates.iter().filter(|c| c.kept).count();
    assert!(
        kept > 1 && kept < logits.len() - 300,
        "kept {kept}: the cut falls inside"
    );
    for c in &t.candidates {
        assert_eq!(
            c.kept,
            c.id == 0 || c.p_raw >= eps,
            "id {} p_raw {}",
            c.id,
            c.p_raw
        );
        if !c.kept {
            assert_eq!(c.removed_by, Some("epsilon_cutoff"), "id {}", c.id);
        }
    }
}

/// Token 0 at 0 (the max), then `n` tokens one ulp apart from 2,000 ulps below ln(ε·z),
/// z ≈ 1 / (1 − 4000·ε): 4,000 of them straddle the epsilon cut. Those `far` picks are −40.
fn around_the_cut(eps: f64, n: usize, far: impl Fn(usize) -> bool) -> Vec<f32> {
    let mut l = (eps / (1.0 - 4000.0 * eps)).ln() as f32;
    for _ in 0..2000 {
        l = l.next_down();
    }
    let mut logits = vec![0.0f32];
    for i in 0..n {
        logits.push(if far(i) { -40.0 } else { l });
        l = l.next_up();
    }
    logits
}
