//! typical_p (典型采样) mass in (0, 1]; 1 = off (HF and llama.cpp). Ranks tokens by how far their
//! surprise −ln p is from the entropy H, |−ln p − H|, and keeps the closest ones until their mass
//! reaches `mass`. It can remove the most likely token.
//!
//! HF (TypicalLogitsWarper): stops at the first cumulative mass ≥ mass and keeps every token whose
//! score ties the boundary. llama.cpp (`llama_sampler_typical_apply`): stops at the first
//! cumulative mass > mass and keeps exactly that many. Both keep at least `min_keep`.

use super::super::candidates::Work;
use super::super::config::Settings;
use super::super::crossing::first_crossing;
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
    // (score, id, p) per kept token; the order is score ascending, ties by lower id. The token
    // where the running mass crosses `mass` is found by selection (crossing.rs), not by
    // sorting: on a flat distribution almost every token is walked.
    let mut items: Vec<(f64, u32, f64)> = work
        .kept
        .iter()
        .map(|&id| {
            let score = work
                .scratch
                .get(id as usize)
                .copied()
                .unwrap_or(f64::INFINITY);
            let l = work
                .processed
                .get(id as usize)
                .copied()
                .unwrap_or(f32::NEG_INFINITY);
            (score, id, weight(l, max, inv_t) / z)
        })
        .collect();
    let cmp = |a: &(f64, u32, f64), b: &(f64, u32, f64)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
    let llama = s.engine == Engine::LlamaCpp;
    let len = items.len();
    // HF stops at the first cumulative mass ≥ mass; llama.cpp at the first > mass that also
    // keeps min_keep.
    let crossing = first_crossing(
        &mut items,
        cmp,
        |t| t.2,
        |cum| {
            if llama {
                cum > mass
            } else {
                cum >= mass
            }
        },
    );
    let stop = match crossing {
        Some(i) if llama => i.max(s.min_keep.saturating_sub(1)) + 1,
        Some(i) => i + 1,
        None => len,
    };
    let n = stop.max(s.min_keep).min(len).max(1);
    // first_crossing leaves the item of the rank it returns in place; any other rank is selected.
    if crossing != Some(n - 1) && n < len {
        items.select_nth_unstable_by(n - 1, cmp);
    }
    let (boundary, boundary_id) = items
        .get(n - 1)
        .map_or((f64::INFINITY, u32::MAX), |t| (t.0, t.1));
    // The first n in (score, id) order: HF keeps every token whose score ties the boundary too,
    // llama.cpp exactly n. One comparison per kept token.
    let hf = !llama;
    let scratch = std::mem::take(&mut work.scratch);
    work.retain(stage, |id| {
        let score = scratch.get(id as usize).copied().unwrap_or(f64::INFINITY);
        score < boundary || (score == boundary && (hf || id <= boundary_id))
    });
    work.scratch = scratch;
    Applied {
        value: Some(mass),
        threshold: Some(entropy),
    }
}
