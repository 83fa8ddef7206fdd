use super::fused::DECIDE_AFTER;
use super::*;

#[test]
fn checked_log_sum_exp_refuses_what_step_refuses() {
    let message = |l: &[f32]| checked_log_sum_exp(l).unwrap_err().to_string();
    assert_eq!(
        message(&[]),
        "logits must have at least one entry, got an empty array"
    );
    assert_eq!(
        message(&[0.0, f32::NAN]),
        "logits[1] must be finite or -inf, got NaN"
    );
    assert!(message(&[f32::NEG_INFINITY]).contains("got all -inf"));
    let got = checked_log_sum_exp(&[0.0, 0.0]).unwrap();
    assert!((got - 2f64.ln()).abs() < 1e-6);
}

#[test]
fn exp_f32_matches_libm_to_float32_precision() {
    let mut worst = 0.0f64;
    let mut x = -87.0f32;
    while x < 20.0 {
        let want = f64::from(x).exp();
        let got = f64::from(exp_f32(x));
        worst = worst.max(((got - want) / want).abs());
        x += 0.001_3;
    }
    assert!(worst < 3e-7, "worst relative error {worst}");
    assert_eq!(exp_f32(f32::NEG_INFINITY), 0.0);
    assert_eq!(exp_f32(-200.0), 0.0);
    assert_eq!(exp_f32(0.0), 1.0);
}

/// 2^n taken from the rounding's bits is the saturating conversion's 2^n, for every x the clamp
/// lets through (every float32 in [−87, 88] at a stride, both ends, and the values either side
/// of each half-integer multiple of ln 2, where n changes): the same weights to the bit.
#[test]
fn exp_f32_is_the_converting_formula_bit_for_bit() {
    let by_conversion = |x: f32| {
        let (shifted, e_r) = reduced(x.clamp(EXP_MIN, EXP_MAX));
        let n = shifted - ROUND_MAGIC;
        let value = e_r * f32::from_bits(((n as i32 + 127) as u32) << 23);
        if x < EXP_MIN {
            0.0
        } else {
            value
        }
    };
    let mut xs = vec![EXP_MIN, EXP_MAX, -0.0, 0.0, f32::NEG_INFINITY, -1e30, 1e-30];
    let mut bits = EXP_MIN.to_bits();
    while let Some(next) = bits.checked_sub(97) {
        xs.push(f32::from_bits(next)); // negative floats: the bits fall towards −0
        bits = next;
    }
    let mut x = 0.0f32;
    while x <= EXP_MAX {
        xs.push(x);
        x += 0.000_37;
    }
    for m in -126..=127 {
        let edge = (m as f32 + 0.5) * std::f32::consts::LN_2;
        xs.extend([edge.next_down(), edge, edge.next_up()]);
    }
    for x in xs {
        assert_eq!(exp_f32(x).to_bits(), by_conversion(x).to_bits(), "x {x}");
    }
}

/// The fused first pass gives bit for bit what the separate passes give (z and the entropy
/// sums, whether it writes every key or only the first ones, which are the weights' keys),
/// `final_weight` their weights, and with `raw_and_blocks` the same raw sums and every
/// remembered raw weight, so draws and traces do not depend on which path ran.
#[test]
fn raw_and_final_equals_the_separate_passes() {
    for n in [1usize, 7, 8, 1023, 1024, 1025, 5000, 9001] {
        let logits: Vec<f32> = (0..n)
            .map(|i| ((i * 7919 % 1000) as f32 * 0.037 - 20.0) * if i % 3 == 0 { 4.0 } else { 1.0 })
            .collect();
        let (max, _) = scan(&logits);
        for inv_t in [1.0f32, 1.0 / 0.7, 1.0 / 1.5, 1.0 / 0.05, 1.0 / 5.0] {
            let (z, weighted, z_t) = raw_and_tempered_sums(&logits, max, inv_t, None, None);
            let mut want = vec![0.0f64; n];
            let want_weighted = weights_into(&logits, max, inv_t, &mut want);
            let want_keys: Vec<u64> = want
                .iter()
                .enumerate()
                .map(|(i, &e)| super::super::draw::key(e as f32, i as u32))
                .collect();
            for store in [true, false] {
                let mut keys = Vec::new();
                let (f, stored) =
                    raw_and_final(&logits, max, inv_t, &mut keys, |first, z_first| {
                        assert_eq!(first, &want_keys[..n.min(DECIDE_AFTER)]);
                        let (z_head, _, z_t_head) =
                            raw_and_tempered_sums(&logits[..first.len()], max, inv_t, None, None);
                        let z_want = if inv_t == 1.0 { z_head } else { z_t_head };
                        assert_eq!(z_first.to_bits(), z_want.to_bits());
                        store
                    });
                assert_eq!(stored, store);
                assert_eq!(f.z_raw.to_bits(), z.to_bits());
                assert_eq!(f.weighted_raw.to_bits(), weighted.to_bits());
                assert_eq!(f.z.to_bits(), z_t.to_bits(), "n {n} inv_t {inv_t}");
                assert_eq!(f.weighted.to_bits(), want_weighted.to_bits());
                if store {
                    assert_eq!(keys, want_keys);
                }
            }
            let weights: Vec<f64> = logits
                .iter()
                .map(|&l| f64::from(final_weight(l, max, inv_t)))
                .collect();
            assert_eq!(weights, want);
        }
        let (mut remembered, mut blocks) = (vec![0.0f32; n], Vec::new());
        let b = raw_and_blocks(&logits, max, Some(&mut remembered), &mut blocks);
        let (z, weighted) = raw_sums(&logits, max, None);
        assert_eq!(
            (b.z_raw.to_bits(), b.weighted_raw.to_bits()),
            (z.to_bits(), weighted.to_bits())
        );
        assert_eq!(
            (b.z.to_bits(), b.weighted.to_bits()),
            (z.to_bits(), weighted.to_bits())
        );
        assert_eq!(blocks.len(), n.div_ceil(1024));
        let want: Vec<f32> = logits.iter().map(|&l| final_weight(l, max, 1.0)).collect();
        assert_eq!(remembered, want);
    }
}

#[test]
fn weights_keys_and_sums_equals_the_separate_passes() {
    for n in [1usize, 7, 9, 1023, 1024, 1031, 5000] {
        let logits: Vec<f32> = (0..n)
            .map(|i| {
                if i % 11 == 4 {
                    f32::NEG_INFINITY
                } else {
                    (i * 7919 % 1000) as f32 * 0.031 - 15.0
                }
            })
            .collect();
        let (max, _) = scan(&logits);
        for inv_t in [1.0f32, 1.0 / 0.7, 1.0 / 3.0] {
            let (mut out, mut keys) = (vec![0.0f64; n], Vec::new());
            let (z, weighted) =
                weights_keys_and_sums(&logits, max, inv_t, None, &mut out, &mut keys);
            let mut want = vec![0.0f64; n];
            assert_eq!(
                weighted.to_bits(),
                weights_into(&logits, max, inv_t, &mut want).to_bits()
            );
            assert_eq!(
                z.to_bits(),
                sum_weights_all(&logits, max, inv_t).to_bits(),
                "n {n}"
            );
            assert_eq!(out, want);
            // The sums alone (no stores), from exps or from remembered weights: the same bits.
            let remembered: Vec<f32> = want.iter().map(|&e| e as f32).collect();
            for cached in [None, Some(&remembered[..])] {
                let (z2, weighted2) = weights_sums(&logits, max, inv_t, cached);
                assert_eq!(
                    (z2.to_bits(), weighted2.to_bits()),
                    (z.to_bits(), weighted.to_bits()),
                    "n {n} cached {}",
                    cached.is_some()
                );
            }
            let want_keys: Vec<u64> = want
                .iter()
                .enumerate()
                .map(|(i, &e)| super::super::draw::key(e as f32, i as u32))
                .collect();
            assert_eq!(keys, want_keys);
        }
    }
}

#[test]
fn log_sum_exp_is_stable_for_huge_logits() {
    // ln(e^1000 + e^1000) = 1000 + ln 2, far beyond f32's exp range.
    let got = log_sum_exp(&[1000.0, 1000.0, f32::NEG_INFINITY]);
    assert!((got - (1000.0 + 2f64.ln())).abs() < 1e-5);
}
