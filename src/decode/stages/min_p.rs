//! min-p p in [0, 1]; 0 = off. Removes tokens whose probability is below p × the top token's
//! probability (`p_i < p · p_max`, HF logits_process.py MinPLogitsWarper). HF applies it after
//! temperature and top-p, vLLM after temperature but before top-k, llama.cpp before temperature
//! (so its cut is ln p below the top logit, not T·ln p). Keeps at least `min_keep`.
//!
//! Compared in log space, `(l − max)/T ≥ ln p`, which needs no exp and no normaliser.

use super::super::candidates::{by_logit, Work};
use super::super::config::Settings;
use super::Applied;

pub(crate) fn apply(work: &mut Work, s: &Settings, stage: u8) -> Applied {
    let min_p = s.min_p;
    if min_p <= 0.0 {
        return Applied {
            value: Some(min_p),
            threshold: None,
        };
    }
    let max = f64::from(work.max_logit());
    let (inv_t, cut) = (work.inv_t, min_p.ln());
    let passes = |l: f32| (f64::from(l) - max) * f64::from(inv_t) >= cut;
    if work.all_kept && inv_t.is_finite() {
        if let Some(c) = lowest_passing(max, inv_t, cut, passes) {
            return by_logit_cut(work, s, stage, c, min_p);
        }
    }
    let processed = std::mem::take(&mut work.processed);
    let survivors = work
        .kept
        .iter()
        .filter(|&&id| processed.get(id as usize).is_some_and(|&l| passes(l)))
        .count();
    work.processed = processed;
    if survivors >= s.min_keep {
        let processed = std::mem::take(&mut work.processed);
        work.retain(stage, |id| {
            processed.get(id as usize).is_some_and(|&l| passes(l))
        });
        work.processed = processed;
    } else {
        work.keep_best(stage, s.min_keep);
    }
    // Reported as a ratio to p_max; the trace turns it into a probability with the stage input.
    Applied {
        value: Some(min_p),
        threshold: Some(min_p),
    }
}

/// The smallest float32 logit that passes: `passes` is monotone in the logit (f64 subtraction and
/// multiplication by inv_t > 0 round monotonically), so `l >= c` is the same test as `passes(l)`
/// for every logit, and a plain float32 comparison over the contiguous logits vectorises. None if
/// a few ulps of adjustment do not settle it (then the caller tests each token as before).
fn lowest_passing(max: f64, inv_t: f32, cut: f64, passes: impl Fn(f32) -> bool) -> Option<f32> {
    super::lowest_passing_f32((max + cut / f64::from(inv_t)) as f32, passes)
}

/// Below this many survivors they are ordered by logit and kept with one branch-free marking pass.
const SORT_SURVIVORS_MAX: usize = 4096;

/// min-p with every finite token still kept: the cut as the float32 logit `c`.
fn by_logit_cut(work: &mut Work, s: &Settings, stage: u8, c: f32, min_p: f64) -> Applied {
    // Few survivors (a peaked distribution): collected in one pass, counted by it.
    let few = work.ids_at_least(c, SORT_SURVIVORS_MAX);
    let survivors = few
        .as_ref()
        .map_or_else(|| work.count_at_least(c), Vec::len);
    if survivors < s.min_keep {
        work.keep_best(stage, s.min_keep);
    } else if let Some(mut ids) = few {
        let processed = &work.processed;
        ids.sort_unstable_by(|&a, &b| by_logit(processed, a, b));
        work.keep_exactly(stage, &ids, false, |_, _| false);
    } else {
        let processed = std::mem::take(&mut work.processed);
        work.retain(stage, |id| {
            processed.get(id as usize).is_some_and(|&l| l >= c)
        });
        work.processed = processed;
    }
    Applied {
        value: Some(min_p),
        threshold: Some(min_p),
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]

        /// The float32 cut is the same test as the f64 one for every logit, including the ulps
        /// around it.
        #[test]
        fn the_float32_cut_is_the_f64_test(
            max in -1e4f32..1e4,
            t in prop_oneof![0.01f32..0.1, 0.1f32..10.0, Just(1.0f32)],
            min_p in prop_oneof![1e-9f64..1.0, Just(1.0), Just(0.05)],
            offsets in prop::collection::vec(-50.0f32..0.0, 1..50),
        ) {
            let (inv_t, cut) = (1.0 / t, min_p.ln());
            let max64 = f64::from(max);
            let passes = |l: f32| (f64::from(l) - max64) * f64::from(inv_t) >= cut;
            let c = super::lowest_passing(max64, inv_t, cut, passes).unwrap();
            let mut probes: Vec<f32> = offsets.iter().map(|o| max + o).collect();
            for x in [c, c.next_up(), c.next_down(), c.next_down().next_down(), max] {
                probes.push(x);
            }
            for l in probes {
                prop_assert_eq!(l >= c, passes(l), "l {} c {}", l, c);
            }
        }
    }
}
