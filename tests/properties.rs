//! Properties of `step` over random logits and configs (proptest):
//! the fast path (selection, pre-filters, float32 exp) equals a naive full-sort implementation;
//! probabilities are finite and sum to 1; the kept set shrinks as top-k or top-p shrink;
//! temperature → 0 is greedy; the same (seed, draw) gives the same token; a short listing (chosen
//! token, `trace_ids`, ranks, the unlisted rest) agrees with a naive full sort of the whole trace.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // a failed unwrap is a failed test

use nexttoken::decode::{step, Config, Engine, Trace};
use proptest::prelude::*;

/// Logits with ties (quantised values), −inf entries, and sizes that cross the top-p pre-filter.
fn logits() -> impl Strategy<Value = Vec<f32>> {
    let value = prop_oneof![
        6 => -12.0f32..12.0,
        2 => (-8i32..8).prop_map(|q| q as f32 * 0.75),
        1 => Just(f32::NEG_INFINITY),
    ];
    prop_oneof![
        3 => prop::collection::vec(value.clone(), 1..40),
        1 => prop::collection::vec(value, 1000..3000),
    ]
    .prop_filter("at least one finite logit", |l| {
        l.iter().any(|x| x.is_finite())
    })
}

fn full(trace: &Trace, n: usize) -> Vec<f64> {
    let mut p = vec![0.0; n];
    for c in &trace.candidates {
        p[c.id as usize] = c.p;
    }
    p
}

fn config(temperature: f64, top_k: u32, top_p: f64, min_p: f64, n: usize) -> Config {
    Config {
        temperature: Some(temperature),
        top_k: Some(top_k),
        top_p: Some(top_p),
        min_p: Some(min_p),
        seed: Some(3),
        trace_top: Some(n as u32),
        ..Config::default()
    }
}

/// HF semantics the obvious way: sort everything, f64 everywhere. `None` when a top-p or min-p
/// decision lies within 1e-6 of its threshold (float32 and f64 may then legitimately differ).
fn naive_hf(
    logits: &[f32],
    t: f64,
    k: usize,
    top_p: f64,
    min_p: f64,
) -> Option<(Vec<bool>, Vec<f64>)> {
    let n = logits.len();
    let mut order: Vec<usize> = (0..n).filter(|&i| logits[i].is_finite()).collect();
    order.sort_by(|&a, &b| logits[b].total_cmp(&logits[a]).then(a.cmp(&b)));
    let max = f64::from(logits[order[0]]);
    let w = |i: usize| ((f64::from(logits[i]) - max) / t).exp();
    if k > 0 && k < order.len() {
        let kth = logits[order[k - 1]];
        order.retain(|&i| logits[i] >= kth);
    }
    if top_p < 1.0 {
        let z: f64 = order.iter().map(|&i| w(i)).sum();
        let mut above = 0.0;
        let mut keep = 0;
        for &i in &order {
            if keep >= 1 && above / z >= top_p {
                break;
            }
            if keep >= 1 && (above / z - top_p).abs() < 1e-6 {
                return None;
            }
            above += w(i);
            keep += 1;
        }
        order.truncate(keep);
    }
    if min_p > 0.0 {
        let pmax = w(order[0]);
        if order.iter().any(|&i| (w(i) / pmax - min_p).abs() < 1e-6) {
            return None;
        }
        order.retain(|&i| w(i) >= min_p * pmax);
    }
    let z: f64 = order.iter().map(|&i| w(i)).sum();
    let mut p = vec![0.0; n];
    let mut kept = vec![false; n];
    for &i in &order {
        p[i] = w(i) / z;
        kept[i] = true;
    }
    Some((kept, p))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn fast_path_equals_naive_full_sort(
        logits in logits(),
        t in prop_oneof![Just(1.0), 0.2f64..2.5],
        k in prop_oneof![Just(0u32), 1u32..60],
        top_p in prop_oneof![Just(1.0), 0.05f64..1.0],
        min_p in prop_oneof![Just(0.0), 0.001f64..0.5],
    ) {
        let n = logits.len();
        let trace = step(&logits, &config(t, k, top_p, min_p, n)).expect("valid input");
        // Inverse-CDF over the listed order: the first candidate whose cum exceeds u is the token.
        if let Some(u) = trace.u {
            let first = trace.candidates.iter().find(|c| c.cum > u).map(|c| c.id);
            prop_assert!(first.is_none() || first == Some(trace.token), "u {} landed on {:?}, token {}", u, first, trace.token);
        }
        let Some((want_kept, want)) = naive_hf(&logits, t, k as usize, top_p, min_p) else { return Ok(()) };
        let got = full(&trace, n);
        let mut got_kept = vec![false; n];
        for c in &trace.candidates {
            got_kept[c.id as usize] = c.kept;
        }
        for i in 0..n {
            prop_assert_eq!(got_kept[i], want_kept[i], "kept set differs at id {}", i);
            prop_assert!((got[i] - want[i]).abs() <= 1e-6 + 1e-5 * want[i], "p[{}] = {} vs {}", i, got[i], want[i]);
        }
    }

    #[test]
    fn probabilities_are_finite_and_sum_to_one(
        logits in logits(),
        engine in prop::sample::select(vec!["hf", "llama.cpp", "vllm"]),
        t in 0.05f64..3.0,
        k in 0u32..50,
        top_p in 0.01f64..1.0,
    ) {
        let n = logits.len();
        // vLLM refuses T > 2 (its _verify_args)
        let t = if engine == "vllm" { t.min(2.0) } else { t };
        let mut c = config(t, k, top_p, 0.0, n);
        c.engine = Engine::from_name(engine);
        let trace = step(&logits, &c).expect("valid input");
        let sum: f64 = trace.candidates.iter().map(|c| c.p).sum();
        prop_assert!(trace.candidates.iter().all(|c| c.p.is_finite() && c.p >= 0.0));
        prop_assert!((sum - 1.0).abs() <= 1e-5, "sum {}", sum);
        let raw: f64 = trace.candidates.iter().map(|c| c.p_raw).sum();
        prop_assert!((raw - 1.0).abs() <= 1e-5, "raw sum {}", raw);
    }

    #[test]
    fn kept_set_shrinks_as_k_or_p_shrinks(logits in logits(), k in 1u32..40, top_p in 0.05f64..1.0, t in 0.3f64..2.0) {
        let n = logits.len();
        let kept = |k: u32, p: f64| -> Vec<u32> {
            let trace = step(&logits, &config(t, k, p, 0.0, n)).expect("valid");
            let mut ids: Vec<u32> = trace.candidates.iter().filter(|c| c.kept).map(|c| c.id).collect();
            ids.sort_unstable();
            ids
        };
        let bigger = kept(k + 1, top_p);
        let smaller = kept(k, top_p);
        prop_assert!(smaller.iter().all(|id| bigger.contains(id)), "top-k {} kept something top-k {} did not", k, k + 1);
        let wider = kept(0, (top_p + 0.1).min(1.0));
        let narrower = kept(0, top_p);
        prop_assert!(narrower.iter().all(|id| wider.contains(id)));
    }

    #[test]
    fn temperature_to_zero_is_greedy(logits in logits(), draw in 0u64..1000) {
        let n = logits.len();
        let greedy = step(&logits, &config(0.0, 0, 1.0, 0.0, n)).expect("valid");
        prop_assert_eq!(greedy.u, None);
        // Only meaningful if the maximum is unique.
        let top = logits.iter().filter(|&&l| l == logits[greedy.token as usize]).count();
        prop_assume!(top == 1);
        let cold = Config { draw: Some(draw), ..config(1e-4, 0, 1.0, 0.0, n) };
        let mut second = logits.clone();
        second.sort_by(|a, b| b.total_cmp(a));
        prop_assume!(second.len() > 1 && second[0] - second[1] > 0.01);
        prop_assert_eq!(step(&logits, &cold).expect("valid").token, greedy.token);
    }

    #[test]
    fn same_seed_and_draw_same_token(logits in logits(), seed in any::<u32>(), draw in 0u64..1_000_000, t in 0.1f64..3.0) {
        let c = Config { seed: Some(seed), draw: Some(draw), temperature: Some(t), ..Config::default() };
        let a = step(&logits, &c).expect("valid");
        let b = step(&logits, &c).expect("valid");
        prop_assert_eq!(a, b);
    }

    #[test]
    fn short_listing_agrees_with_a_naive_full_sort(
        logits in logits(),
        engine in prop::sample::select(vec!["hf", "llama.cpp", "vllm"]),
        t in prop_oneof![Just(0.0), 0.3f64..3.0],
        k in prop_oneof![Just(0u32), 1u32..60],
        top_p in prop_oneof![Just(1.0), 0.05f64..1.0],
        seed in any::<u32>(),
        trace_top in 0u32..8,
        picks in prop::collection::vec(any::<prop::sample::Index>(), 0..6),
    ) {
        let n = logits.len();
        let t = if engine == "vllm" { t.min(2.0) } else { t };
        let trace_ids: Vec<u32> = picks.iter().map(|i| i.index(n) as u32).collect();
        let base = Config {
            engine: Engine::from_name(engine),
            temperature: Some(t),
            top_k: Some(k),
            top_p: Some(top_p),
            seed: Some(seed),
            ..Config::default()
        };
        let everything = step(&logits, &Config { trace_top: Some(n as u32), ..base.clone() }).expect("valid");
        let short = step(&logits, &Config { trace_top: Some(trace_top), trace_ids: Some(trace_ids.clone()), ..base }).expect("valid");
        prop_assert_eq!(short.token, everything.token);

        // The naive order: kept by final p descending, then removed by raw logit descending, ties
        // by lower id, from a full sort of the everything-trace's numbers.
        let mut order: Vec<&nexttoken::decode::Candidate> = everything.candidates.iter().collect();
        prop_assert_eq!(order.len(), n);
        order.sort_by(|a, b| {
            b.kept.cmp(&a.kept)
                .then(if a.kept { b.p.total_cmp(&a.p) } else { b.logit.total_cmp(&a.logit) })
                .then(a.id.cmp(&b.id))
        });
        let naive_rank = |id: u32| order.iter().position(|c| c.id == id).expect("every id listed");
        for (i, c) in everything.candidates.iter().enumerate() {
            prop_assert_eq!(c.rank, i);
            prop_assert_eq!(naive_rank(c.id), i, "id {} listed at {}", c.id, i);
        }

        // The chosen token and every asked-for id are listed, in rank order, with the full trace's
        // numbers; nothing else beyond the head.
        prop_assert!(short.candidates.iter().any(|c| c.id == short.token));
        prop_assert_eq!(short.chosen.rank, short.chosen_rank);
        prop_assert!(trace_ids.iter().all(|id| short.candidates.iter().any(|c| c.id == *id)));
        prop_assert!(short.candidates.windows(2).all(|w| w[0].rank < w[1].rank));
        for c in &short.candidates {
            let want = &everything.candidates[c.rank];
            prop_assert_eq!(c.id, want.id);
            prop_assert!((c.cum - want.cum).abs() <= 1e-9 + 1e-9 * (c.rank as f64), "cum {} vs {}", c.cum, want.cum);
            let head = c.rank < trace_top as usize
                || c.id == short.token
                || trace_ids.contains(&c.id);
            prop_assert!(head, "rank {} listed without a reason", c.rank);
        }

        // The rest band: the unlisted kept tokens, counted and weighed.
        let listed_kept: Vec<u32> = short.candidates.iter().filter(|c| c.kept).map(|c| c.id).collect();
        let listed_mass: f64 = short.candidates.iter().map(|c| c.p).sum();
        let rest: Vec<f64> = everything.candidates.iter().filter(|c| c.kept && !listed_kept.contains(&c.id)).map(|c| c.p).collect();
        prop_assert_eq!(short.unlisted_kept_count, rest.len());
        prop_assert!((short.unlisted_mass + listed_mass - 1.0).abs() <= 1e-6 || rest.is_empty());
        prop_assert!((short.unlisted_mass - rest.iter().sum::<f64>()).abs() <= 1e-6);
    }
}

/// Logits for the draw: the generator above, plus flat ones (uniform, or nearly so) where the
/// kept set is almost everything and the draw would otherwise have to order it all.
fn draw_logits() -> impl Strategy<Value = Vec<f32>> {
    prop_oneof![
        3 => logits(),
        1 => (1usize..3000, -5.0f32..5.0).prop_map(|(n, l)| vec![l; n]),
        1 => prop::collection::vec(-0.5f32..0.5, 1000..3000),
    ]
}

/// Issue 10's configurations (and T = 5, and the page's slider mix), over every engine that has
/// them.
fn matrix_config(which: usize, engine: &str, n: usize) -> Config {
    let history: Vec<u32> = (0..256u32).map(|i| (i * 7 + 3) % n as u32).collect();
    let base = Config {
        engine: Engine::from_name(engine),
        ..Config::default()
    };
    match which {
        0 => Config {
            temperature: Some(0.0),
            ..base
        },
        1 => base,
        2 => Config {
            temperature: Some(0.7),
            ..base
        },
        3 => Config {
            temperature: Some(1.5),
            ..base
        },
        // vLLM refuses T > 2 (its _verify_args): its hottest is 2
        4 => Config {
            temperature: Some(if engine == "vllm" { 2.0 } else { 5.0 }),
            ..base
        },
        5 => Config {
            top_k: Some(40),
            ..base
        },
        6 => Config {
            top_p: Some(0.9),
            ..base
        },
        7 => Config {
            min_p: Some(0.05),
            ..base
        },
        8 if engine != "vllm" => Config {
            typical_p: Some(0.9),
            ..base
        },
        9 => Config {
            repetition_penalty: Some(1.3),
            history: Some(history),
            ..base
        },
        // The page's sliders: a temperature after a penalty over a few ids (the first block's).
        11 => Config {
            temperature: Some(1.2),
            top_k: Some(100),
            min_p: Some(0.1),
            repetition_penalty: Some(1.15),
            history: Some([3, 10, 3, 700].map(|id| id % n as u32).to_vec()),
            ..base
        },
        _ => Config {
            temperature: Some(0.8),
            top_k: Some(40),
            top_p: Some(0.95),
            min_p: Some(0.05),
            ..base
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    /// The selection-based draw picks what the sorted inverse-CDF walk picks: order every kept
    /// candidate by (p desc, id asc), walk the cumulative p, take the first above u (the last one
    /// if rounding leaves the total below u). A disagreement is allowed only where u lies within
    /// 1e-12 of the boundary, where summation order decides.
    #[test]
    fn the_draw_equals_a_sorted_inverse_cdf_walk_in_every_configuration(
        logits in draw_logits(),
        which in 0usize..12,
        engine in prop::sample::select(vec!["hf", "llama.cpp", "vllm"]),
        seed in any::<u32>(),
        draw in 0u64..1_000_000,
    ) {
        let n = logits.len();
        let config = Config {
            seed: Some(seed),
            draw: Some(draw),
            trace_top: Some(n as u32),
            ..matrix_config(which, engine, n)
        };
        let trace = step(&logits, &config).expect("valid input");
        let mut kept: Vec<&nexttoken::decode::Candidate> = trace.candidates.iter().filter(|c| c.kept).collect();
        prop_assert_eq!(kept.len(), trace.kept_count);
        kept.sort_by(|a, b| b.p.total_cmp(&a.p).then(a.id.cmp(&b.id)));
        let Some(u) = trace.u else {
            prop_assert_eq!(trace.token, kept[0].id);
            return Ok(());
        };
        let mut cum = 0.0;
        let mut want = (kept[kept.len() - 1].id, kept.len() - 1, 0.0);
        for (rank, c) in kept.iter().enumerate() {
            cum += c.p;
            if cum > u {
                want = (c.id, rank, cum);
                break;
            }
        }
        if trace.token != want.0 {
            prop_assert!((want.2 - u).abs() < 1e-12, "u {} picked {} (rank {}), the walk {} (rank {}, cum {})", u, trace.token, trace.chosen_rank, want.0, want.1, want.2);
        } else {
            prop_assert_eq!(trace.chosen_rank, want.1);
            prop_assert_eq!(trace.chosen.rank, want.1);
        }
    }
}
