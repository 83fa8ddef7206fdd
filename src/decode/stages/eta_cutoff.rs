//! eta_cutoff η in [0, 1); 0 = off (HF only, EtaLogitsWarper, "eta sampling": Hewitt et al.,
//! Truncation Sampling as Language Model Desmoothing, 2022). Like epsilon_cutoff it removes tokens
//! whose probability is below a cut, but the cut follows the entropy H (nats) of the distribution
//! it sees: cut = min(η, √η · e^(−H)). A flat distribution (large H) gets a lower cut, so fewer
//! of its many plausible tokens are cut; a peaked one gets η itself. The top `min_keep` (and every
//! token tied with the last of them) are always kept. HF runs it last, after epsilon_cutoff.
//!
//! H is ln z − Σ e·s / z over the float32 weights the rest of the step uses (as typical-p's),
//! within 1e-6 nats of f64.

use super::super::candidates::Work;
use super::super::config::Settings;
use super::super::softmax::{cached, entropy_sum};
use super::Applied;

pub(crate) fn apply(work: &mut Work, s: &Settings, stage: u8) -> Applied {
    let eta = s.eta_cutoff;
    if eta <= 0.0 {
        return Applied {
            value: Some(eta),
            threshold: None,
        };
    }
    let (z, max) = work.normaliser();
    let ids = (!work.all_kept).then_some(work.kept.as_slice());
    // The raw pass's remembered exps when it kept them at this (max, T): the same terms, the
    // same lanes and order (softmax/cached.rs), without an exp per token.
    let sum = match work.exps.hit(max, work.inv_t, ids.is_none()) {
        Some(e) => cached::entropy_sum(&work.processed, e, ids, max, work.inv_t),
        None => entropy_sum(&work.processed, ids, max, work.inv_t),
    };
    let entropy = z.ln() - sum / z;
    let cut = eta.min(eta.sqrt() * (-entropy).exp());
    super::epsilon_cutoff::remove_below(work, s.min_keep, cut, stage);
    Applied {
        value: Some(eta),
        threshold: Some(cut),
    }
}
