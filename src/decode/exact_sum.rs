//! When a sum of weights cannot depend on its order. Every weight is a float32 widened to f64
//! (`softmax::weight`): one whose exponent is e is a whole number of 2^(e−23). If every term is
//! a whole number of a unit u (the least positive term's 2^(e_min−23)) and the exact total is below
//! 2^53·u, every partial sum, in any order and any grouping, is a whole number of u below 2^53·u:
//! representable, so computed exactly. Then a running sum in logit order and lanes summed in
//! any order give the same bits, and a walk may add a block at once. Terms of 0 are whole numbers
//! of any unit.

use super::softmax::LANES;

/// 2^53 times the unit every float32 ≥ the positive float32 with bits `least` is a whole number
/// of. u32::MAX (no positive term) gives +inf: every sum of zeros is exact.
#[inline]
pub(crate) fn exact_below(least: u32) -> f64 {
    if least == u32::MAX {
        return f64::INFINITY;
    }
    // Biased exponent E (1 for subnormals, whose unit is 2^-149 as E = 1's): the unit is
    // 2^(E − 150), times 2^53 is 2^(E − 97), whose f64 bits are (E − 97 + 1023) << 52.
    let biased = u64::from((least >> 23).clamp(1, 254));
    f64::from_bits((biased + 926) << 52)
}

/// The f64 sum of `w` (in LANES lanes, so it vectorises) and the least positive term's bits
/// (u32::MAX if none): with `exact_below` it says whether the sum is the same in every order.
#[inline]
pub(crate) fn sum_and_least(w: &[f32]) -> (f64, u32) {
    let mut acc = [0.0f64; LANES];
    let mut least = [u32::MAX; LANES];
    let mut groups = w.chunks_exact(LANES);
    for group in &mut groups {
        for ((a, lo), &x) in acc.iter_mut().zip(least.iter_mut()).zip(group) {
            *a += f64::from(x);
            // Positive floats order as their bits; 0 (and −0) says nothing about the unit.
            let bits = x.to_bits();
            *lo = (*lo).min(if x > 0.0 { bits } else { u32::MAX });
        }
    }
    for (i, &x) in groups.remainder().iter().enumerate() {
        if let (Some(a), Some(lo)) = (acc.get_mut(i), least.get_mut(i)) {
            *a += f64::from(x);
            *lo = (*lo).min(if x > 0.0 { x.to_bits() } else { u32::MAX });
        }
    }
    (
        acc.iter().sum(),
        least.iter().copied().min().unwrap_or(u32::MAX),
    )
}

#[cfg(test)]
mod tests {
    use super::{exact_below, sum_and_least};
    use proptest::prelude::*;

    /// Every term in units of the least positive term's unit, exactly (u128, saturating far past
    /// 2^53): whether the exact total is below 2^53 units.
    fn exact_by_integers(w: &[f32]) -> bool {
        let least = w
            .iter()
            .copied()
            .filter(|&x| x > 0.0)
            .fold(f32::MAX, f32::min);
        let e_least = (least.to_bits() >> 23).max(1);
        let units = |x: f32| -> u128 {
            let (bits, e) = (x.to_bits(), x.to_bits() >> 23);
            let m = u128::from(if e == 0 {
                bits
            } else {
                bits & 0x7f_ffff | 0x80_0000
            });
            m << (e.max(1).saturating_sub(e_least)).min(80)
        };
        w.iter().fold(0u128, |t, &x| t.saturating_add(units(x))) < 1u128 << 53
    }

    fn terms() -> impl Strategy<Value = Vec<f32>> {
        let one = prop_oneof![
            4 => 0.0f32..1.0,
            2 => (-40.0f32..0.0).prop_map(f32::exp),
            1 => Just(0.0f32),
            1 => Just(1.0f32),
            1 => (0u32..1 << 23).prop_map(f32::from_bits), // subnormal
            1 => Just(2f32.powi(-19)),
        ];
        prop::collection::vec(one, 0..300)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..Default::default() })]

        /// The test says "exact" exactly when the integers do, and then the lanes' sum is the
        /// running sum and the reversed running sum, bit for bit.
        #[test]
        fn exact_sums_do_not_depend_on_order(w in terms(), times in 1usize..5000) {
            // `times` copies of the largest term push the total toward the bound.
            let mut w = w;
            let big = w.iter().copied().fold(0.0f32, f32::max);
            w.extend(std::iter::repeat_n(big, times));
            let (sum, least) = sum_and_least(&w);
            let exact = sum < exact_below(least);
            prop_assert_eq!(exact, exact_by_integers(&w));
            if exact {
                let forward = w.iter().fold(0.0f64, |s, &x| s + f64::from(x));
                let backward = w.iter().rev().fold(0.0f64, |s, &x| s + f64::from(x));
                prop_assert_eq!(sum.to_bits(), forward.to_bits());
                prop_assert_eq!(sum.to_bits(), backward.to_bits());
            }
        }
    }

    /// At the edge: 2,047 ones and 2^-19 sum exactly (below 2^53 · 2^-42 = 2,048); 2,048 ones and
    /// 2^-19 need 54 bits.
    #[test]
    fn the_bound_is_where_the_bits_run_out() {
        let tiny = 2f32.powi(-19);
        assert_eq!(exact_below(tiny.to_bits()), 2048.0);
        for (ones, exact) in [(2047usize, true), (2048, false)] {
            let mut w = vec![1.0f32; ones];
            w.push(tiny);
            let (sum, least) = sum_and_least(&w);
            assert_eq!(sum < exact_below(least), exact, "{ones}");
            assert_eq!(exact_by_integers(&w), exact, "{ones}");
        }
        assert_eq!(exact_below(u32::MAX), f64::INFINITY);
    }
}
