//! top-p (核采样, nucleus) p in [0, 1]; 1 = off. Keeps the smallest set of most likely tokens
//! whose mass reaches p: a token is kept if and only if the mass ranked strictly above it is < p,
//! so the token that crosses p is kept, and exact equality removes (HF logits_process.py
//! `cumsum <= 1 - top_p`; llama.cpp's descending running sum gives the same rule). p = 0 keeps
//! one token (vLLM rejects 0: config). Applies to the current, renormalised distribution.
//!
//! The walk extends a sorted prefix block by block, so a peaked distribution sorts only its head.

use super::super::candidates::Work;
use super::super::config::Settings;
use super::Applied;

pub(crate) fn apply(work: &mut Work, s: &Settings, stage: u8) -> Applied {
    let p = s.top_p;
    let value = Some(p);
    if p >= 1.0 {
        return Applied { value, threshold: None };
    }
    let (z, max) = work.normaliser();
    let (max, inv_t) = (f64::from(max), work.inv_t);
    let target = p * z;
    let mut above = 0.0f64;
    let mut keep = 0usize;
    let mut block = 64usize;
    'walk: loop {
        work.ensure_sorted(keep + block);
        while keep < work.sorted {
            if keep >= s.min_keep && above >= target {
                break 'walk;
            }
            let id = work.kept.get(keep).copied().unwrap_or_default();
            let l = work.processed.get(id as usize).copied().unwrap_or(f32::NEG_INFINITY);
            above += ((f64::from(l) - max) * inv_t).exp();
            keep += 1;
        }
        if work.sorted >= work.kept.len() {
            break;
        }
        block *= 2;
    }
    work.keep_best(stage, keep);
    Applied { value, threshold: Some((above / z).min(1.0)) }
}
