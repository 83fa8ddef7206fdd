//! Sums and the max through a list of ids (a gather). A list with a few ids removed from the
//! vocabulary (an end id held back, bans: typical-p's or eta's input after them) is mostly runs
//! of consecutive ids in id order: a block of the list that is one such run reads its slice of
//! the arrays directly, contiguous loads and stores that vectorise, instead of a bounds-checked
//! lookup per id. The same values go into the same lanes in the same order, so every sum has
//! the same bits as the lookups give.

use super::cached::e_of;
use super::{
    above, entropy_block, exp_f32, lane_block, lane_max, larger, logit_of, ENTROPY_BLOCK, EXP_MIN,
    LANES,
};
use crate::decode::select::consecutive;
use std::ops::Range;

/// The ids of `block` as the range of positions they are, when they are consecutive and
/// ascending (`select::consecutive`) and all below `len`; None otherwise (then the caller looks
/// each one up).
#[inline]
pub(crate) fn run_in(block: &[u32], len: usize) -> Option<Range<usize>> {
    let first = consecutive(block)?;
    let end = first.checked_add(block.len())?;
    (end <= len).then_some(first..end)
}

/// Σ e^((l − max)·inv_t) over `ids` in float32 lanes folded into f64 every 1,024 ids (the lanes
/// and order of `lane_sum`); with `KEEP`, each weight is also remembered in `out[id]` (cached.rs;
/// `out` as long as `processed`).
pub(crate) fn gather_sum<const KEEP: bool>(
    processed: &[f32],
    ids: &[u32],
    max: f32,
    inv_t: f32,
    out: &mut [f32],
) -> f64 {
    let mut total = 0.0f64;
    for block in ids.chunks(1024) {
        let run = run_in(block, processed.len()).filter(|r| !KEEP || r.end <= out.len());
        let sum = match run {
            Some(r) => {
                let slots = if KEEP {
                    out.get_mut(r.clone()).unwrap_or_default()
                } else {
                    &mut []
                };
                run_sum::<KEEP>(processed.get(r).unwrap_or_default(), slots, max, inv_t)
            }
            None => looked_up_sum::<KEEP>(processed, block, out, max, inv_t),
        };
        total += f64::from(sum);
    }
    total
}

/// One block of `gather_sum` whose ids are one run: `logits` its slice, `slots` the same
/// positions of `out` (empty without KEEP).
#[inline(always)]
fn run_sum<const KEEP: bool>(logits: &[f32], slots: &mut [f32], max: f32, inv_t: f32) -> f32 {
    let mut acc = [0.0f32; LANES];
    let mut lanes = logits.chunks_exact(LANES);
    let mut at = 0usize;
    for group in &mut lanes {
        let mut w = [0.0f32; LANES];
        for ((a, w), &l) in acc.iter_mut().zip(w.iter_mut()).zip(group) {
            *w = exp_f32((l - max) * inv_t);
            *a += *w;
        }
        if KEEP {
            if let Some(dst) = slots.get_mut(at..at + LANES) {
                dst.copy_from_slice(&w);
            }
        }
        at += LANES;
    }
    let mut rest = slots.get_mut(at..).unwrap_or_default().iter_mut();
    let tail: f32 = lanes
        .remainder()
        .iter()
        .map(|&l| {
            let w = exp_f32((l - max) * inv_t);
            if let (true, Some(slot)) = (KEEP, rest.next()) {
                *slot = w;
            }
            w
        })
        .sum();
    acc.iter().sum::<f32>() + tail
}

/// One block of `gather_sum`, each id looked up.
#[inline(always)]
fn looked_up_sum<const KEEP: bool>(
    processed: &[f32],
    block: &[u32],
    out: &mut [f32],
    max: f32,
    inv_t: f32,
) -> f32 {
    let mut keep = |id: u32, w: f32| {
        if KEEP {
            if let Some(slot) = out.get_mut(id as usize) {
                *slot = w;
            }
        }
    };
    let mut acc = [0.0f32; LANES];
    let mut lanes = block.chunks_exact(LANES);
    for group in &mut lanes {
        let mut v = [f32::NEG_INFINITY; LANES];
        for (slot, &id) in v.iter_mut().zip(group) {
            *slot = logit_of(processed, id);
        }
        let mut w = [0.0f32; LANES];
        for ((a, w), &l) in acc.iter_mut().zip(w.iter_mut()).zip(&v) {
            *w = exp_f32((l - max) * inv_t);
            *a += *w;
        }
        for (&id, &w) in group.iter().zip(&w) {
            keep(id, w);
        }
    }
    let tail: f32 = lanes
        .remainder()
        .iter()
        .map(|&id| {
            let w = exp_f32((logit_of(processed, id) - max) * inv_t);
            keep(id, w);
            w
        })
        .sum();
    acc.iter().sum::<f32>() + tail
}

/// `lane_sum` of the remembered weights `e` of `ids` (cached.rs's `sum_ids`).
pub(crate) fn remembered_sum(e: &[f32], ids: &[u32]) -> f64 {
    ids.chunks(1024).fold(0.0f64, |total, block| {
        let sum = match run_in(block, e.len()) {
            Some(r) => lane_block(e.get(r).unwrap_or_default(), |x| x),
            None => lane_block(block, |id| e_of(e, id)),
        };
        total + f64::from(sum)
    })
}

/// Σ e·s over `ids` in `entropy_blocks`' blocks, s = (l − max)·inv_t held at −88: e computed
/// by exp, or read from `remembered` when given (cached.rs's `entropy_sum`).
pub(crate) fn entropy_over(
    processed: &[f32],
    remembered: Option<&[f32]>,
    ids: &[u32],
    max: f32,
    inv_t: f32,
) -> f64 {
    const UNITS: [(); ENTROPY_BLOCK] = [(); ENTROPY_BLOCK];
    let scaled = |l: f32| above((l - max) * inv_t, EXP_MIN - 1.0);
    let computed = |l: f32| exp_f32(scaled(l)) * scaled(l);
    let len = remembered.map_or(processed.len(), |e| e.len().min(processed.len()));
    let block_sum = |block: &[u32]| -> f64 {
        let units = UNITS.get(..block.len()).unwrap_or_default();
        let run = run_in(block, len);
        match (run, remembered) {
            (Some(r), Some(e)) => entropy_block(
                processed.get(r.clone()).unwrap_or_default(),
                e.get(r).unwrap_or_default(),
                |l, w| w * scaled(l),
            ),
            (Some(r), None) => {
                entropy_block(processed.get(r).unwrap_or_default(), units, |l, ()| {
                    computed(l)
                })
            }
            (None, Some(e)) => entropy_block(block, units, |id, ()| {
                e_of(e, id) * scaled(logit_of(processed, id))
            }),
            (None, None) => entropy_block(block, units, |id, ()| computed(logit_of(processed, id))),
        }
    };
    // Runs are looked for in 1,024 ids at once (16 of the entropy's blocks, which 1,024
    // divides, so the blocks are the same), then in each block of a chunk that is not one.
    ids.chunks(1024).fold(0.0f64, |total, chunk| {
        let run = run_in(chunk, len);
        match (run, remembered) {
            (Some(r), Some(e)) => {
                let (l, w) = (processed.get(r.clone()), e.get(r));
                let (l, w) = (l.unwrap_or_default(), w.unwrap_or_default());
                l.chunks(ENTROPY_BLOCK)
                    .zip(w.chunks(ENTROPY_BLOCK))
                    .fold(total, |t, (l, w)| {
                        t + entropy_block(l, w, |l, w| w * scaled(l))
                    })
            }
            (Some(r), None) => processed
                .get(r)
                .unwrap_or_default()
                .chunks(ENTROPY_BLOCK)
                .fold(total, |t, l| {
                    let units = UNITS.get(..l.len()).unwrap_or_default();
                    t + entropy_block(l, units, |l, ()| computed(l))
                }),
            (None, _) => chunk
                .chunks(ENTROPY_BLOCK)
                .fold(total, |t, block| t + block_sum(block)),
        }
    })
}

/// The largest of `processed` over `ids` (−inf if none), in eight running maxima so the loop
/// pipelines. A maximum is one value whichever order finds it, except for the sign of a zero:
/// then the ids are folded again in order, so the result is always the in-order fold's.
pub(crate) fn gathered_max(processed: &[f32], ids: &[u32]) -> f32 {
    let in_order = || {
        ids.iter()
            .filter_map(|&id| processed.get(id as usize))
            .copied()
            .fold(f32::NEG_INFINITY, larger)
    };
    let mut lanes = [f32::NEG_INFINITY; 8];
    let mut rest = f32::NEG_INFINITY;
    // A block of consecutive ids (a list with a few removed) reads its slice of `processed`.
    for block in ids.chunks(1024) {
        let run = run_in(block, processed.len()).and_then(|r| processed.get(r));
        if let Some(values) = run {
            rest = larger(rest, lane_max(values));
            continue;
        }
        let mut groups = block.chunks_exact(8);
        for group in &mut groups {
            for (m, &id) in lanes.iter_mut().zip(group) {
                *m = larger(*m, logit_of(processed, id));
            }
        }
        rest = groups
            .remainder()
            .iter()
            .map(|&id| logit_of(processed, id))
            .fold(rest, larger);
    }
    let max = lanes.into_iter().fold(rest, larger);
    if max == 0.0 {
        in_order()
    } else {
        max
    }
}

#[cfg(test)]
#[path = "gather_tests.rs"]
mod tests;
