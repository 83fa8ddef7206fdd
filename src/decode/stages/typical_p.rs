//! typical_p (典型采样) mass in (0, 1]; 1 = off (HF and llama.cpp). Ranks tokens by how far their
//! surprise −ln p is from the entropy H, |−ln p − H|, and keeps the closest ones until their mass
//! reaches `mass`. It can remove the most likely token.
//!
//! HF (TypicalLogitsWarper): stops at the first cumulative mass ≥ mass and keeps every token whose
//! score ties the boundary. llama.cpp (`llama_sampler_typical_apply`): stops at the first
//! cumulative mass > mass and keeps exactly that many. Both keep at least `min_keep`.

use super::super::candidates::{extend_sorted, Work};
use super::super::config::Settings;
use super::super::engine::Engine;
use super::super::softmax::weight;
use super::Applied;

pub(crate) fn apply(work: &mut Work, s: &Settings, stage: u8) -> Applied {
    let mass = s.typical_p;
    if mass >= 1.0 {
        return Applied {
            value: Some(mass),
            threshold: None,
        };
    }
    let (z, max) = work.normaliser();
    let (inv_t, ln_z) = (work.inv_t, z.ln());
    // ln p = (l − max)/T − ln z; entropy skips p = 0 terms (HF uses nansum, llama.cpp p > 0).
    let mut entropy = 0.0f64;
    for &id in &work.kept {
        let l = work
            .processed
            .get(id as usize)
            .copied()
            .unwrap_or(f32::NEG_INFINITY);
        let ln_p = f64::from((l - max) * inv_t) - ln_z;
        let p = ln_p.exp();
        if p > 0.0 {
            entropy -= p * ln_p;
        }
    }
    for &id in &work.kept {
        let l = work
            .processed
            .get(id as usize)
            .copied()
            .unwrap_or(f32::NEG_INFINITY);
        let ln_p = f64::from((l - max) * inv_t) - ln_z;
        if let Some(slot) = work.scratch.get_mut(id as usize) {
            *slot = (-ln_p - entropy).abs();
        }
    }
    let mut order = std::mem::take(&mut work.aux);
    order.clear();
    order.extend_from_slice(&work.kept);
    let scores = &work.scratch;
    let cmp = |a: &u32, b: &u32| {
        let (sa, sb) = (
            scores.get(*a as usize).copied().unwrap_or(f64::INFINITY),
            scores.get(*b as usize).copied().unwrap_or(f64::INFINITY),
        );
        sa.total_cmp(&sb).then(a.cmp(b))
    };
    let p_of = |id: u32| {
        let l = work
            .processed
            .get(id as usize)
            .copied()
            .unwrap_or(f32::NEG_INFINITY);
        weight(l, max, inv_t) / z
    };
    // Walk in ascending score order; `stop` = number of tokens up to and including the crossing one.
    let (mut sorted, mut cum, mut stop, mut block) = (0usize, 0.0f64, None, 64usize);
    'walk: while sorted < order.len() {
        let before = sorted;
        sorted = extend_sorted(&mut order, sorted, sorted + block, cmp);
        for (i, &id) in order.iter().enumerate().take(sorted).skip(before) {
            cum += p_of(id);
            let crossed = match s.engine {
                Engine::LlamaCpp => cum > mass && i + 1 >= s.min_keep,
                _ => cum >= mass,
            };
            if crossed {
                stop = Some(i + 1);
                break 'walk;
            }
        }
        block *= 2;
    }
    let n = stop.unwrap_or(order.len()).max(s.min_keep).min(order.len());
    let boundary = order
        .get(n.saturating_sub(1))
        .and_then(|&id| scores.get(id as usize))
        .copied()
        .unwrap_or(f64::INFINITY);
    let keep_set: Vec<u32> = order.get(..n).unwrap_or_default().to_vec();
    let hf = s.engine != Engine::LlamaCpp;
    let scratch = std::mem::take(&mut work.scratch);
    let mut sorted_keep = keep_set;
    sorted_keep.sort_unstable();
    work.retain(stage, |id| {
        sorted_keep.binary_search(&id).is_ok()
            || (hf && scratch.get(id as usize).is_some_and(|&sc| sc <= boundary))
    });
    work.scratch = scratch;
    work.aux = order;
    Applied {
        value: Some(mass),
        threshold: Some(entropy),
    }
}
