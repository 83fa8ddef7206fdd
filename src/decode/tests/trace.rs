//! What the trace lists: each stage's input distribution, the chosen token, `trace_ids`.

use super::*;

#[test]
fn stage_inputs_show_each_distribution_as_the_stage_saw_it() {
    // HF: temperature 2 then top-k 1. top_k's input is the tempered distribution (2/3, 1/3).
    let t = step(
        &[2.0 * LN2, 0.0],
        &Config {
            temperature: Some(2.0),
            top_k: Some(1),
            ..cfg()
        },
    )
    .unwrap();
    let top_k = t.stages.iter().find(|s| s.name == "top_k").unwrap();
    assert!(close(top_k.p_in[0], 2.0 / 3.0) && close(top_k.p_in[1], 1.0 / 3.0));
    let temperature = t.stages.iter().find(|s| s.name == "temperature").unwrap();
    assert!(close(temperature.p_in[0], 0.8));
}

#[test]
fn the_chosen_token_is_listed_with_its_rank_wherever_it_ranks() {
    // Ten equal logits: each has p = 1/10, so u picks rank ⌊10·u⌋. Seed 42's first u is 0.955.
    let config = Config {
        seed: Some(42),
        trace_top: Some(2),
        ..Config::default()
    };
    let t = step(&[0.5; 10], &config).unwrap();
    let u = t.u.unwrap();
    assert!(
        u > 0.3,
        "this case needs a draw beyond the listed head, u = {u}"
    );
    let rank = (u * 10.0).floor() as usize;
    assert_eq!(t.chosen_rank, rank);
    assert_eq!(t.chosen.rank, rank);
    let ranks: Vec<usize> = t.candidates.iter().map(|c| c.rank).collect();
    assert_eq!(
        ranks,
        vec![0, 1, rank],
        "head, then the chosen one, in rank order"
    );
    let last = t.candidates.last().unwrap();
    assert_eq!(last.id, t.token);
    // Its cum is its true cumulative mass (rank + 1 tokens of 1/10), not a sum over the listed.
    assert!(close(last.cum, (rank + 1) as f64 / 10.0));
    // Seven kept tokens are unlisted, holding 7/10 of the final mass.
    assert_eq!(t.unlisted_kept_count, 7);
    assert!(close(t.unlisted_mass, 0.7));
}

#[test]
fn trace_ids_lists_kept_and_removed_tokens_with_their_ranks() {
    // Raw logits ln 3, ln 2, 0, ln 1.5, −inf. Greedy keeps id 0 alone; the removed by raw logit:
    // 1 (ln 2), 3 (ln 1.5), 2 (0), 4 (−inf) take ranks 1 to 4.
    let logits = [LN3, LN2, 0.0, 0.405_465_1, f32::NEG_INFINITY];
    let t = step(
        &logits,
        &Config {
            top_k: Some(2),
            trace_top: Some(1),
            trace_ids: Some(vec![4, 1, 2, 1]),
            temperature: Some(0.0),
            ..cfg()
        },
    )
    .unwrap();
    let listed: Vec<(u32, usize)> = t.candidates.iter().map(|c| (c.id, c.rank)).collect();
    assert_eq!(listed, vec![(0, 0), (1, 1), (2, 3), (4, 4)]);
    assert_eq!(t.candidates[3].removed_by, Some("logits"));
    assert_eq!((t.unlisted_kept_count, t.unlisted_mass), (0, 0.0));

    let t = step(
        &logits,
        &Config {
            top_k: Some(2),
            trace_top: Some(0),
            trace_ids: Some(vec![1]),
            seed: Some(42),
            ..cfg()
        },
    )
    .unwrap();
    // Sampling with top-k 2: ids 0 (3/5) and 1 (2/5) kept; id 1 is listed though trace_top is 0.
    let one = t.candidates.iter().find(|c| c.id == 1).unwrap();
    assert_eq!((one.rank, one.kept), (1, true));
    assert!(close(one.p, 0.4) && close(one.cum, 1.0));
}

#[test]
fn trace_ids_are_checked() {
    let e = step(
        &[1.0, 2.0],
        &Config {
            trace_ids: Some(vec![0, 2]),
            ..cfg()
        },
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "trace_ids[1] must be a token id < vocabulary size 2, got 2"
    );
    let many = Value::Array(vec![Value::Number(0.0); 1025]);
    let e = Config::from_value(&Value::Object(vec![("trace_ids".into(), many)])).unwrap_err();
    assert_eq!(
        e.to_string(),
        "trace_ids must be an array of at most 1024 token ids, got 1025 ids"
    );
    let e = Config::from_value(&Value::Object(vec![(
        "trace_ids".into(),
        Value::Array(vec![Value::Number(1.5)]),
    )]))
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "trace_ids[0] must be an integer in [0, 4294967295], got 1.5"
    );
}

#[test]
fn every_stage_input_is_whole_over_a_full_listing() {
    // A full listing under one to five active stages with inputs (an odd and an even count: the
    // columns sum two stages' cum_in side by side), penalties among them: for each stage, p_in is
    // 0 exactly where an earlier stage removed the candidate, the rest sum to 1, and cum_in is
    // the running sum of p_in in listing order, to the bit.
    let logits: Vec<f32> = (0..300)
        .map(|i| ((i * 37) % 101) as f32 / 9.0 - 4.0)
        .collect();
    let configs = [
        Config {
            temperature: Some(0.7),
            top_k: Some(50),
            top_p: Some(0.9),
            min_p: Some(0.05),
            repetition_penalty: Some(1.3),
            history: Some(vec![3, 5, 8, 13]),
            ..cfg()
        },
        Config {
            temperature: Some(1.4),
            top_p: Some(0.8),
            ..cfg()
        },
        Config {
            top_k: Some(20),
            ..cfg()
        },
    ];
    for config in configs {
        let t = step(
            &logits,
            &Config {
                trace_top: Some(300),
                ..config
            },
        )
        .unwrap();
        assert_eq!(t.candidates.len(), 300);
        for (s, stage) in t.stages.iter().enumerate() {
            if stage.p_in.is_empty() {
                continue;
            }
            assert_eq!(
                (stage.p_in.len(), stage.cum_in.len()),
                (300, 300),
                "{}",
                stage.name
            );
            let earlier: Vec<&str> = t.stages.iter().take(s).map(|st| st.name).collect();
            let mut total = 0.0f64;
            for ((c, &p), &cum) in t.candidates.iter().zip(&stage.p_in).zip(&stage.cum_in) {
                let gone = c.removed_by.is_some_and(|by| earlier.contains(&by));
                assert_eq!(p == 0.0, gone, "{} id {}", stage.name, c.id);
                total += p;
                assert_eq!(cum.to_bits(), total.min(1.0).to_bits(), "{}", stage.name);
            }
            assert!((total - 1.0).abs() < 1e-6, "{}: {total}", stage.name);
        }
    }
}

#[test]
fn a_long_listing_reads_the_exps_a_short_one_takes() {
    // Listing an eighth of the vocabulary or more, the first pass remembers the raw and tempered
    // weights and the raw and "after temperature" columns read them (first_pass.rs `lists_most`);
    // a shorter listing takes the exps itself. The candidates both list, and every stage input
    // over them, must be the same bits: temperature first (both remembered), T = 1 with a filter
    // (the remembered weights serve both columns) and alone (the raw column's exps serve the
    // other), penalties (the processed logits differ from the raw ones), temperature alone.
    let logits: Vec<f32> = (0..4000)
        .map(|i| ((i * 7919) % 2003) as f32 / 97.0 - 12.0)
        .collect();
    let configs = [
        Config {
            temperature: Some(0.8),
            top_k: Some(40),
            top_p: Some(0.95),
            min_p: Some(0.05),
            ..cfg()
        },
        Config {
            top_p: Some(0.9),
            ..cfg()
        },
        Config {
            temperature: Some(1.3),
            repetition_penalty: Some(1.3),
            history: Some(vec![3, 5, 8, 13, 1999]),
            ..cfg()
        },
        Config {
            temperature: Some(1.6),
            ..cfg()
        },
        cfg(),
    ];
    for config in configs {
        let listed = |top: u32| {
            let c = Config {
                trace_top: Some(top),
                ..config.clone()
            };
            step(&logits, &c).unwrap()
        };
        let (long, short) = (listed(4000), listed(400));
        assert_eq!(long.token, short.token);
        let bits = |c: &Candidate| {
            let ps = [c.p_raw, c.p_tempered, c.p, c.cum].map(f64::to_bits);
            (c.id, c.logit.to_bits(), c.logit_processed.to_bits(), ps)
        };
        // The short listing's candidates by rank against the long listing's at the same rank;
        // the chosen one, appended past the 400 when it ranks lower, carries the draw's cum
        // (summed another way), so its cum is left out.
        for b in &short.candidates {
            let a = long.candidates.get(b.rank).unwrap();
            let (mut a, mut b) = (bits(a), bits(b));
            if b.0 == short.token && short.chosen_rank >= 400 {
                (a.3[3], b.3[3]) = (0, 0);
            }
            assert_eq!(a, b, "{config:?}");
        }
        for (a, b) in long.stages.iter().zip(&short.stages) {
            let n = b.p_in.len().min(400);
            let prefix = |v: &[f64]| v.iter().take(n).map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(prefix(&a.p_in), prefix(&b.p_in), "{}", a.name);
            assert_eq!(prefix(&a.cum_in), prefix(&b.cum_in), "{}", a.name);
        }
    }
}
