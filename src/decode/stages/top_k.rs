//! top-k: keep the k most likely tokens (k integer ≥ 0; 0 = off, k ≥ vocabulary = off).
//!
//! Ties at the k-th value: HF and vLLM keep every token tied with it (more than k possible,
//! logits_process.py `scores < kth_value`); llama.cpp keeps exactly k (`std::partial_sort`,
//! unspecified among ties — here the lower ids). HF raises k to `min_keep`.
//!
//! One pass with a k-entry heap finds the k best; a second marks everything else removed.

use super::super::candidates::Work;
use super::super::config::Settings;
use super::super::engine::Engine;
use super::Applied;

pub(crate) fn apply(work: &mut Work, s: &Settings, stage: u8) -> Applied {
    let k = if s.engine == Engine::Hf {
        s.top_k.max(s.min_keep)
    } else {
        s.top_k
    };
    let applied = Applied {
        value: Some(s.top_k as f64),
        threshold: None,
    };
    if k == 0 || k >= work.kept.len() {
        return applied;
    }
    let best = work.best(k).to_vec();
    let Some(kth) = best
        .last()
        .and_then(|&id| work.processed.get(id as usize))
        .copied()
    else {
        return applied;
    };
    let keep_ties = s.engine != Engine::LlamaCpp;
    // Tokens tied with the k-th logit beyond the k found: only HF and vLLM keep them, and only a
    // count says whether there are any (usually not, and then the marking pass vectorises).
    let ties = keep_ties && work.count_at_least(kth) > best.len();
    work.keep_exactly(stage, &best, ties, |_, l| l >= kth);
    Applied {
        threshold: Some(f64::from(kth)),
        ..applied
    }
}
