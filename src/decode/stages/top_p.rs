//! top-p (核采样, nucleus) p in [0, 1]; 1 = off. Keeps the smallest set of most likely tokens
//! whose mass reaches p: a token is kept if and only if the mass ranked strictly above it is < p,
//! so the token that crosses p is kept, and exact equality removes (HF logits_process.py
//! `cumsum <= 1 - top_p`; llama.cpp's descending running sum gives the same rule). p = 0 keeps
//! one token (vLLM rejects 0: config). Applies to the current, renormalised distribution.
//!
//! The walk extends a sorted prefix block by block, so a peaked distribution sorts only its head.

use super::super::candidates::{by_logit, extend_sorted, Work};
use super::super::config::Settings;
use super::super::softmax::weight;
use super::Applied;

/// Below this many candidates the pre-filter costs more than it saves.
const PREFILTER_MIN: usize = 1024;

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
        if !head.is_empty() {
            let processed = &work.processed;
            let (mut above, mut keep, mut sorted, mut block) = (0.0f64, 0usize, 0usize, 64usize);
            'walk: while sorted < head.len() {
                sorted = extend_sorted(&mut head, sorted, sorted + block, |&a, &b| {
                    by_logit(processed, a, b)
                });
                while keep < sorted {
                    if keep >= 1 && above >= target {
                        break 'walk;
                    }
                    let id = head.get(keep).copied().unwrap_or_default();
                    above += weight(
                        processed
                            .get(id as usize)
                            .copied()
                            .unwrap_or(f32::NEG_INFINITY),
                        max,
                        inv_t,
                    );
                    keep += 1;
                }
                block *= 2;
            }
            if above >= target || keep < head.len() {
                head.truncate(keep);
                work.keep_exactly(stage, &head, |_, _| false);
                return Applied {
                    value,
                    threshold: Some((above / z).min(1.0)),
                };
            }
        }
    }
    let (mut above, mut keep, mut block) = (0.0f64, 0usize, 64usize);
    'walk: loop {
        work.ensure_sorted(keep + block);
        while keep < work.sorted {
            if keep >= s.min_keep && above >= target {
                break 'walk;
            }
            let id = work.kept.get(keep).copied().unwrap_or_default();
            above += weight(
                work.processed
                    .get(id as usize)
                    .copied()
                    .unwrap_or(f32::NEG_INFINITY),
                max,
                inv_t,
            );
            keep += 1;
        }
        if work.sorted >= work.kept.len() {
            break;
        }
        block *= 2;
    }
    work.truncate_sorted(stage, keep);
    Applied {
        value,
        threshold: Some((above / z).min(1.0)),
    }
}
