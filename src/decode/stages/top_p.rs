//! top-p (核采样, nucleus) p in [0, 1]; 1 = off. Keeps the smallest set of most likely tokens
//! whose mass reaches p: a token is kept if and only if the mass ranked strictly above it is < p,
//! so the token that crosses p is kept, and exact equality removes (HF logits_process.py
//! `cumsum <= 1 - top_p`; llama.cpp's descending running sum gives the same rule). p = 0 keeps
//! one token (vLLM rejects 0: config). Applies to the current, renormalised distribution.
//!
//! The walk extends a sorted prefix block by block, so a peaked distribution sorts only its head.

use super::super::candidates::{by_logit, extend_sorted, Work};
use super::super::config::Settings;
use super::super::softmax::{logit_of, weight};
use super::Applied;

/// Below this many candidates the pre-filter costs more than it saves.
const PREFILTER_MIN: usize = 1024;

/// Where a walk down the logit order stopped.
struct Walk {
    /// Tokens kept: the first `keep` of the order.
    keep: usize,
    /// Their unnormalised mass.
    mass: f64,
    /// How much of `ids` is now sorted.
    sorted: usize,
}

/// Walks `ids` in logit order (extending its sorted prefix from `sorted` block by block) until
/// the mass above the next token reaches `target` and at least `min_keep` are kept.
fn walk(
    ids: &mut [u32],
    sorted: usize,
    processed: &[f32],
    max: f32,
    inv_t: f32,
    target: f64,
    min_keep: usize,
) -> Walk {
    let (mut mass, mut keep, mut sorted, mut block) = (0.0f64, 0usize, sorted, 64usize);
    loop {
        sorted = extend_sorted(ids, sorted, keep + block, |&a, &b| {
            by_logit(processed, a, b)
        });
        while keep < sorted {
            if keep >= min_keep && mass >= target {
                return Walk { keep, mass, sorted };
            }
            let id = ids.get(keep).copied().unwrap_or_default();
            mass += weight(logit_of(processed, id), max, inv_t);
            keep += 1;
        }
        if sorted >= ids.len() {
            return Walk { keep, mass, sorted };
        }
        block *= 2;
    }
}

pub(crate) fn apply(work: &mut Work, s: &Settings, stage: u8) -> Applied {
    let p = s.top_p;
    let value = Some(p);
    if p >= 1.0 {
        return Applied {
            value,
            threshold: None,
        };
    }
    let (z, max) = work.normaliser();
    let inv_t = work.inv_t;
    let n = work.kept.len();
    let target = p * z;
    // Pre-filter (llama2.c's bound): tokens with probability below (1 − p)/(n − 1) hold less than
    // 1 − p together, so the mass above each of them exceeds p and none can be kept. In logit
    // space the bound is a plain comparison, l ≥ max + ln((1 − p)/(n − 1) · z)·T. Walk only the
    // tokens above it; if rounding makes that walk fall short, walk everything.
    if n > PREFILTER_MIN && s.min_keep <= 1 {
        let cut = f64::from(max) + ((1.0 - p) / (n - 1) as f64 * z).ln() / f64::from(inv_t);
        let mut head = work.candidates_above(cut);
        let w = walk(&mut head, 0, &work.processed, max, inv_t, target, 1);
        if !head.is_empty() && (w.mass >= target || w.keep < head.len()) {
            head.truncate(w.keep);
            work.keep_exactly(stage, &head, false, |_, _| false);
            return Applied {
                value,
                threshold: Some((w.mass / z).min(1.0)),
            };
        }
    }
    let mut kept = std::mem::take(&mut work.kept);
    let w = walk(
        &mut kept,
        work.sorted,
        &work.processed,
        max,
        inv_t,
        target,
        s.min_keep,
    );
    work.kept = kept;
    work.sorted = w.sorted;
    work.truncate_sorted(stage, w.keep);
    Applied {
        value,
        threshold: Some((w.mass / z).min(1.0)),
    }
}
