//! min-p p in [0, 1]; 0 = off. Removes tokens whose probability is below p × the top token's
//! probability (`p_i < p · p_max`, HF logits_process.py MinPLogitsWarper). HF applies it after
//! temperature and top-p, vLLM after temperature but before top-k, llama.cpp before temperature
//! (so its cut is ln p below the top logit, not T·ln p). Keeps at least `min_keep`.
//!
//! Compared in log space, `(l − max)/T ≥ ln p`, which needs no exp and no normaliser.

use super::super::candidates::Work;
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
