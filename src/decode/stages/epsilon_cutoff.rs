//! epsilon_cutoff ε in [0, 1); 0 = off (HF only, EpsilonLogitsWarper): removes tokens with
//! probability below ε, except the top `min_keep` (and everything tied with the last of them).
//!
//! With every token still kept, the test runs as one contiguous pass that marks `removed_by`,
//! then the kept list is compacted in its order: the same test on the same numbers as per token,
//! so the same kept set in the same order. The pass compares each scaled logit with a narrow band
//! around ln(cut·z) (`exp_band`) and takes an exp only inside it: p < ε ⟺ l below a threshold,
//! without an exp pass.

use super::super::candidates::{Work, KEPT};
use super::super::config::Settings;
use super::super::softmax::{exp_band, exp_f32, logit_of, weight};
use super::Applied;

pub(crate) fn apply(work: &mut Work, s: &Settings, stage: u8) -> Applied {
    let eps = s.epsilon_cutoff;
    if eps <= 0.0 {
        return Applied {
            value: Some(eps),
            threshold: None,
        };
    }
    remove_below(work, s.min_keep, eps, stage);
    Applied {
        value: Some(eps),
        threshold: Some(eps),
    }
}

/// Removes every kept token whose probability e / z in the current distribution is below `cut`,
/// except the `min_keep` most likely (and every token tied with the last of them). Shared with
/// eta_cutoff, whose cut depends on the entropy.
pub(crate) fn remove_below(work: &mut Work, min_keep: usize, cut: f64, stage: u8) {
    let (z, max) = work.normaliser();
    let inv_t = work.inv_t;
    work.ensure_sorted(min_keep);
    let protected_floor = work
        .kept
        .get(min_keep.min(work.kept.len()).saturating_sub(1))
        .and_then(|&id| work.processed.get(id as usize))
        .copied()
        .unwrap_or(f32::INFINITY);
    let lowest = lowest_passing_weight(z, cut);
    let band = lowest.and_then(exp_band);
    if let (true, Some(lowest)) = (work.all_kept, lowest) {
        if let Some((x_lo, x_hi)) = band {
            // The same test without an exp per token: sure on either side of the band, and
            // the few scaled logits inside it (usually none) take the exp below. A block of 64
            // whose every token is surely removed (most, on a peaked step) is marked at once
            // after one comparison per token, in float32 lanes alone.
            let mut unsure = 0u32;
            let blocks = work
                .removed_by
                .chunks_mut(64)
                .zip(work.processed.chunks(64));
            for (marks, ls) in blocks {
                let reach = |l: f32| l >= protected_floor || (l - max) * inv_t >= x_lo;
                if !ls.iter().fold(false, |any, &l| any | reach(l)) {
                    for mark in marks.iter_mut() {
                        *mark = if *mark == KEPT { stage } else { *mark };
                    }
                    continue;
                }
                for (mark, &l) in marks.iter_mut().zip(ls) {
                    let x = (l - max) * inv_t;
                    let keep = l >= protected_floor || x >= x_hi;
                    unsure += u32::from(!keep && x >= x_lo);
                    *mark = if *mark == KEPT && !keep { stage } else { *mark };
                }
            }
            if unsure > 0 {
                let marks = work.removed_by.iter_mut().zip(&work.processed);
                for (mark, &l) in marks.filter(|(m, _)| **m == stage) {
                    if exp_f32((l - max) * inv_t) >= lowest {
                        *mark = KEPT;
                    }
                }
            }
        } else {
            for (mark, &l) in work.removed_by.iter_mut().zip(&work.processed) {
                // `weight(l, max, inv_t) / z >= cut` as a float32 comparison: it vectorises.
                let keep = l >= protected_floor || exp_f32((l - max) * inv_t) >= lowest;
                *mark = if *mark == KEPT && !keep { stage } else { *mark };
            }
        }
        work.retain_marked();
        return;
    }
    // A list (after top-p, say): the same test per kept id, an exp only inside the band.
    let processed = std::mem::take(&mut work.processed);
    // A list wholly in logit order (top-p's) holds the sure keeps first, then the band, then
    // the sure removals (the scaled logit is monotone in the logit): their bounds by halving,
    // so only the band's ids are read.
    let (mut sure, mut unsure) = (0usize, usize::MAX);
    if let (Some((x_lo, x_hi)), true) = (band, work.sorted >= work.kept.len()) {
        let above = |id: u32, x_at: f32| {
            let l = logit_of(&processed, id);
            l >= protected_floor || (l - max) * inv_t >= x_at
        };
        sure = work.kept.partition_point(|&id| above(id, x_hi));
        unsure = work.kept.partition_point(|&id| above(id, x_lo));
    }
    let mut at = 0usize;
    work.retain(stage, |id| {
        at += 1;
        if at <= sure {
            return true;
        }
        if at > unsure {
            return false;
        }
        let l = logit_of(&processed, id);
        let x = (l - max) * inv_t;
        l >= protected_floor
            || match (lowest, band) {
                (Some(lowest), Some((x_lo, x_hi))) => {
                    x >= x_hi || (x >= x_lo && exp_f32(x) >= lowest)
                }
                (Some(lowest), None) => exp_f32(x) >= lowest,
                (None, _) => weight(l, max, inv_t) / z >= cut,
            }
    });
    work.processed = processed;
}

/// The smallest float32 weight e with `f64(e) / z >= eps`: an f64 division by z > 0 rounds
/// monotonically, so `e >= lowest` is the same test for every weight. None if a few ulps of
/// adjustment do not settle it (then each token is tested as before).
fn lowest_passing_weight(z: f64, eps: f64) -> Option<f32> {
    super::lowest_passing_f32((eps * z) as f32, |e| f64::from(e) / z >= eps)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]

        /// The float32 cut is the f64 test for every weight, including the ulps around it.
        #[test]
        fn the_float32_cut_is_the_f64_test(
            z in prop_oneof![1.0f64..2.0, 1.0f64..200_000.0, 1e-30f64..1.0],
            eps in prop_oneof![1e-9f64..0.999, Just(3e-5), Just(1e-4)],
            weights in prop::collection::vec(0.0f32..1.0, 1..50),
        ) {
            let passes = |e: f32| f64::from(e) / z >= eps;
            let c = super::lowest_passing_weight(z, eps).unwrap();
            let mut probes = weights;
            probes.extend([c, c.next_up(), c.next_down(), c.next_down().next_down(), 0.0, 1.0]);
            for e in probes {
                prop_assert_eq!(e >= c, passes(e), "e {} c {}", e, c);
            }
        }
    }
}
