//! draw.rs's tests: selection ≡ the sorted walk, and the bucket tables' exactness.

use super::*;
use crate::decode::stages::test_uniforms;

/// Each weight's order key (its id the index) and the weights' f64 sum in id order.
fn keys_and_total(weights: &[f32]) -> (Vec<u64>, f64) {
    let keys = weights
        .iter()
        .enumerate()
        .map(|(i, &w)| key(w, i as u32))
        .collect();
    (keys, weights.iter().map(|&w| f64::from(w)).sum())
}

/// The reference: sort every key, walk the cumulative weight.
fn sorted_walk(keys: &[u64], u: f64, z: f64) -> Drawn {
    let mut sorted = keys.to_vec();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    let mut cum = 0.0;
    for (rank, &k) in sorted.iter().enumerate() {
        cum += key_weight(k);
        if cum > u * z {
            return Drawn {
                id: key_id(k),
                rank,
                cum: (cum / z).min(1.0),
            };
        }
    }
    Drawn {
        id: sorted.last().copied().map_or(0, key_id),
        rank: sorted.len() - 1,
        cum: 1.0,
    }
}

#[test]
fn keys_order_by_weight_then_lower_id() {
    assert!(key(0.5, 3) > key(0.25, 1));
    assert!(key(0.5, 3) > key(0.5, 4));
    assert!(key(1e-40, 9) > key(0.0, 0)); // subnormal above zero
    assert_eq!(key_id(key(0.7, 12345)), 12345);
    assert_eq!(key_weight(key(0.75, 1)), 0.75);
}

#[test]
fn selection_equals_the_sorted_walk_on_flat_and_tied_weights() {
    for n in [1usize, 2, 31, 33, 1000, 5000] {
        for weights in [
            vec![1.0f32; n],
            (0..n)
                .map(|i| ((i * 37) % 5) as f32 * 0.25)
                .collect::<Vec<_>>(),
            (0..n).map(|i| 1.0 / (1.0 + i as f32)).collect(),
        ] {
            let (keys, z) = keys_and_total(&weights);
            if z == 0.0 {
                continue;
            }
            for u in [
                0.0,
                1e-300,
                1e-9,
                0.3,
                0.5,
                0.999_999,
                1.0 - f64::EPSILON / 2.0,
            ] {
                let got = inverse_cdf(&mut keys.clone(), &mut Vec::new(), Tallied::No, u, z);
                let want = sorted_walk(&keys, u, z);
                assert_eq!((got.id, got.rank), (want.id, want.rank), "n {n} u {u}");
                assert!((got.cum - want.cum).abs() < 1e-12);
            }
        }
    }
}

/// The integer tables give bit for bit the f64 sums in id order they replaced: flat, wide,
/// subnormal and zero weights, one bucket holding everything.
#[test]
fn bucket_sums_are_the_f64_sums_in_id_order() {
    let mut next = test_uniforms(0x2545_f491);
    for weights in [
        vec![0.7f32; 70_000],
        (0..70_000)
            .map(|_| (-90.0 * next()).exp() as f32)
            .collect::<Vec<_>>(),
        (0..5_000)
            .map(|i| {
                if i % 3 == 0 {
                    0.0
                } else {
                    1e-40 * next() as f32
                }
            })
            .collect(),
    ] {
        let (keys, _) = keys_and_total(&weights);
        let (mut want, mut tables) = (vec![0.0f64; BUCKETS], Vec::new());
        for &k in &keys {
            want[(k >> BUCKET_SHIFT) as usize & (BUCKETS - 1)] += key_weight(k);
        }
        count_all(&keys, &mut tables);
        let (mass, _) = bucket_sums(&tables);
        assert!(mass
            .iter()
            .zip(&want)
            .all(|(a, b)| a.to_bits() == b.to_bits()));
    }
}

/// Tables that hold only the keys at or above a gate (what the final pass tallies) give the draw
/// of complete tables bit for bit: at the gate `gate` picks, at no gate, and at a gate so high
/// that the walk cannot cross above it (the draw counts every key then), for peaked, flat and
/// wide weights and u from 0 to just below 1.
#[test]
fn gated_tables_draw_what_complete_tables_draw() {
    let mut next = test_uniforms(0x9e37_79b9);
    let peaked: Vec<f32> = (0..40_000)
        .map(|i| {
            let g = (next() + next() + next() + next() - 2.0) * 3f64.sqrt();
            let l = if i % 4001 == 7 { 18.0 } else { 2.5 * g };
            (l - 18.0).exp() as f32
        })
        .collect();
    let wide: Vec<f32> = (0..9_000).map(|_| (-90.0 * next()).exp() as f32).collect();
    let (mut crossed, mut cases) = (0, 0);
    for weights in [peaked, wide, vec![0.25f32; 3_000]] {
        let (keys, z) = keys_and_total(&weights);
        for u in [0.0, 1e-9, 0.2, 0.5, 0.9, 0.999_99, 1.0 - f64::EPSILON / 2.0] {
            cases += 3;
            let want = inverse_cdf(&mut keys.clone(), &mut Vec::new(), Tallied::No, u, z);
            for g in [gate(u, z, keys.len()), 0, key(0.9, 0)] {
                let gated: Vec<u64> = keys.iter().copied().filter(|&k| k >= g).collect();
                let mut tables = Vec::new();
                clear_tables(&mut tables);
                for (i, &k) in gated.iter().enumerate() {
                    tally(&mut tables, i, k);
                }
                // Over keys never stored: the gated draw, or None where `inverse_cdf` counts
                // every key (then the caller writes them and draws with `Tallied::No`).
                let by_gate = gated_inverse_cdf(keys.len(), &gated, &tables, u, z);
                let got = inverse_cdf(&mut keys.clone(), &mut tables, Tallied::Gated(&gated), u, z);
                assert_eq!(
                    (got.id, got.rank, got.cum.to_bits()),
                    (want.id, want.rank, want.cum.to_bits()),
                    "n {} u {u} gate {g:x}",
                    keys.len()
                );
                crossed += usize::from(by_gate.is_some());
                if let Some(d) = by_gate {
                    assert_eq!(d, got, "n {} u {u} gate {g:x}", keys.len());
                } else {
                    assert!(g > 0, "complete tables are always crossed");
                }
            }
        }
    }
    // Both ways are taken: most gated draws cross above the gate, the highest gate's do not.
    assert!(
        crossed > cases / 2 && crossed < cases,
        "{crossed} of {cases}"
    );
}

/// A draw found among the best keys alone is `inverse_cdf`'s, bit for bit: heads of 1 to 300
/// keys over peaked, flat and wide weights, u anywhere (0, just below 1, 400 others, and where
/// u·z is exactly a running sum: the key after it is drawn). Where a
/// sum over the head could round (weights 2^40 apart) it gives up though the draw lies there.
#[test]
fn a_draw_within_the_head_is_the_inverse_cdf() {
    let mut next = test_uniforms(0x2545_f491);
    let peaked: Vec<f32> = (0..20_000)
        .map(|i| {
            if i % 997 == 5 {
                0.3
            } else {
                1e-5 * next() as f32
            }
        })
        .collect();
    let wide: Vec<f32> = (0..5_000)
        .map(|i| match i % 1000 {
            3 => 1.0,
            4 => 2f32.powi(-40),
            _ => 2f32.powi(-60),
        })
        .collect();
    let (mut hits, mut refused) = (0, 0);
    for weights in [peaked, wide, vec![0.25f32; 4_096]] {
        let (keys, z) = keys_and_total(&weights);
        let mut sorted = keys.clone();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        // z is 1,024 for the flat weights: u·z of 1 and 5 are the sums of their first 4 and 20.
        let us: Vec<f64> = [
            0.0,
            1e-12,
            1.0 / 1024.0,
            5.0 / 1024.0,
            1.0 - f64::EPSILON / 2.0,
        ]
        .into_iter()
        .chain((0..400).map(|_| next()))
        .collect();
        for &u in &us {
            let want = inverse_cdf(&mut keys.clone(), &mut Vec::new(), Tallied::No, u, z);
            for len in [1usize, 20, 32, 300] {
                let head = sorted.get(..len).unwrap_or_default();
                match within_head(head, u * z, z) {
                    Some(d) => {
                        hits += 1;
                        assert_eq!(
                            (d.id, d.rank, d.cum.to_bits()),
                            (want.id, want.rank, want.cum.to_bits()),
                            "n {} u {u} head {len}",
                            keys.len()
                        );
                    }
                    None => refused += usize::from(want.rank < len && want.rank > 0),
                }
            }
        }
    }
    assert!(hits > 1000 && refused > 0, "{hits} hits, {refused} refused");
}

fn weights() -> impl proptest::strategy::Strategy<Value = Vec<f32>> {
    use proptest::prelude::*;
    let w = prop_oneof![
        4 => 0.0f32..1.0,
        2 => (0u8..4).prop_map(|q| f32::from(q) * 0.25), // ties, zeros
        1 => Just(1.0f32),
        1 => (-80.0f32..0.0).prop_map(f32::exp),           // a wide range
    ];
    prop_oneof![
        prop::collection::vec(w.clone(), 1..80),
        prop::collection::vec(w, 1000..4000),
    ]
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 300, failure_persistence: None, ..Default::default() })]

    /// u at 0, tiny, ordinary and just below 1, over flat, tied, zero and wide weights.
    #[test]
    fn selection_equals_the_sorted_walk(
        weights in weights(),
        u in proptest::prop_oneof![
            proptest::strategy::Just(0.0),
            proptest::strategy::Just(1e-300),
            1e-12f64..1e-6,
            0.0f64..1.0,
            proptest::strategy::Just(1.0 - f64::EPSILON / 2.0),
            (1.0 - 1e-9)..1.0f64,
        ],
    ) {
        let (keys, z) = keys_and_total(&weights);
        proptest::prop_assume!(z > 0.0);
        let got = inverse_cdf(&mut keys.clone(), &mut Vec::new(), Tallied::No, u, z);
        let want = sorted_walk(&keys, u, z);
        if (got.id, got.rank) != (want.id, want.rank) {
            // Only where summation order decides: u·z within rounding of the boundary.
            proptest::prop_assert!((want.cum - u).abs() < 1e-12, "u {} got {:?} want {:?}", u, got, want);
        }
    }
}

/// A prepared bucket ordered once and searched gives exactly what the quickselect over it gives
/// (id, rank, cum), for every u: one bucket of equal weights, one of unequal weights (an eighth of
/// a binade), with mass above it or none; and when `above` is too large for the bucket's sums to be
/// exact the search declines (the caller selects).
#[test]
fn an_ordered_bucket_searched_is_the_quickselect() {
    let mut next = test_uniforms(0x5eed_0b0e);
    for weights in [
        vec![0.375f32; 3000],
        (0..3000)
            .map(|i| 0.5 + (i % 61) as f32 / 1024.0)
            .collect::<Vec<_>>(),
    ] {
        let members: Vec<u64> = weights
            .iter()
            .enumerate()
            .map(|(i, &w)| key(w, i as u32))
            .collect();
        let bucket = (members[0] >> BUCKET_SHIFT) as usize;
        assert!(members
            .iter()
            .all(|&k| (k >> BUCKET_SHIFT) as usize == bucket));
        let ordered = order(&members);
        let total: f64 = weights.iter().map(|&w| f64::from(w)).sum();
        for above in [0.0, 2.0, 1536.25] {
            let z = above + total + 0.5;
            for _ in 0..400 {
                let u = next();
                let target = u * z;
                let want = select_within(&mut members.clone(), above, target, z, false);
                let got = search_ordered(&ordered, bucket, above, target, z, false);
                assert_eq!(got, Some(want), "above {above} u {u}");
            }
        }
        // 2^60 above: the bucket's running masses are not exact there.
        let above = 2f64.powi(60);
        assert_eq!(
            search_ordered(&ordered, bucket, above, above + 1.0, above * 2.0, false),
            None
        );
    }
}
