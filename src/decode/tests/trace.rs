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
