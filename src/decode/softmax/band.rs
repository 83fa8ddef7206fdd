//! Where `exp_f32` crosses a weight, as a band of its argument: below the band every exp is
//! surely under the weight, at or above it surely not, without taking the exp. What lets a pass
//! over the logits skip the tokens a cut or a head cannot reach (epsilon's cut, head.rs).

/// `exp_f32` is within `EXP_ERROR` of e^x (relative) for x in [`BAND_MIN`, 0].
const EXP_ERROR: f64 = 1e-6;
const BAND_MIN: f64 = -86.0;
/// Half the band's width in x: e^(±1e-3) is about 1000 times `EXP_ERROR` away from 1.
const BAND: f64 = 1000.0 * EXP_ERROR;

/// Scaled logits (l − max)·inv_t below the first bound have `exp_f32` below `lowest`, those at or
/// above the second have it at least `lowest`: `exp_f32` need not be monotone to the last bit,
/// only within `EXP_ERROR` of e^x, which is. None when the band reaches outside [`BAND_MIN`, 0]
/// (then every token takes its exp).
pub(crate) fn exp_band(lowest: f32) -> Option<(f32, f32)> {
    let c = f64::from(lowest).ln();
    if !(lowest.is_normal() && c - BAND > BAND_MIN && c + BAND < 0.0) {
        return None;
    }
    // Rounded outwards: the float32 bounds hold the f64 ones.
    let lo = ((c - BAND) as f32).next_down();
    let hi = ((c + BAND) as f32).next_up();
    Some((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::super::exp_f32;
    use super::*;

    /// `exp_band`'s premise: `exp_f32` is within `EXP_ERROR` of e^x over [`BAND_MIN`, 0], at a
    /// stride through every float32 there and at the range reduction's steps (x near k·ln2/2).
    #[test]
    fn exp_f32_is_within_the_bands_error() {
        let check = |x: f32| {
            let want = f64::from(x).exp();
            let got = f64::from(exp_f32(x));
            assert!(
                (got / want - 1.0).abs() <= EXP_ERROR,
                "x {x}: {got} vs {want}"
            );
        };
        let (start, end) = (0.0f32.to_bits(), (BAND_MIN as f32).to_bits());
        let negative_zero = (-0.0f32).to_bits();
        for bits in (negative_zero..=end).step_by(997).chain([start]) {
            check(f32::from_bits(bits));
        }
        for k in 1..=248 {
            let step = -(k as f32) * std::f32::consts::LN_2 / 2.0;
            let mut x = step.next_down().next_down();
            for _ in 0..5 {
                check(x);
                x = x.next_up();
            }
        }
    }

    /// Cuts on each side of the band, at its edges and inside it, against the exp per token.
    #[test]
    fn the_band_decides_as_the_exp_does() {
        for lowest in [1e-30f32, 3e-5, 0.01, 0.3, 0.9] {
            let (lo, hi) = exp_band(lowest).unwrap();
            assert!(
                exp_f32(lo) < lowest && exp_f32(hi) >= lowest,
                "lowest {lowest}"
            );
            let (mut below, mut above) = (lo, hi);
            for _ in 0..1000 {
                below = below.next_down();
                above = above.next_up();
                assert!(exp_f32(below) < lowest && exp_f32(above) >= lowest);
            }
        }
        assert_eq!(exp_band(0.9999), None);
        assert_eq!(exp_band(1e-38), None);
    }
}
