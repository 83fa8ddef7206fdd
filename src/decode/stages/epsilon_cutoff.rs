//! epsilon_cutoff ε in [0, 1); 0 = off (HF only, EpsilonLogitsWarper): removes tokens with
//! probability below ε, except the top `min_keep` (and everything tied with the last of them).

use super::super::candidates::Work;
use super::super::config::Settings;
use super::super::softmax::{logit_of, weight};
use super::Applied;

pub(crate) fn apply(work: &mut Work, s: &Settings, stage: u8) -> Applied {
    let eps = s.epsilon_cutoff;
    if eps <= 0.0 {
        return Applied {
            value: Some(eps),
            threshold: None,
        };
    }
    let (z, max) = work.normaliser();
    let inv_t = work.inv_t;
    work.ensure_sorted(s.min_keep);
    let protected_floor = work
        .kept
        .get(s.min_keep.min(work.kept.len()).saturating_sub(1))
        .and_then(|&id| work.processed.get(id as usize))
        .copied()
        .unwrap_or(f32::INFINITY);
    let processed = std::mem::take(&mut work.processed);
    work.retain(stage, |id| {
        let l = logit_of(&processed, id);
        l >= protected_floor || weight(l, max, inv_t) / z >= eps
    });
    work.processed = processed;
    Applied {
        value: Some(eps),
        threshold: Some(eps),
    }
}
