//! typical_p (典型采样) mass in (0, 1]; 1 = off (HF and llama.cpp). Ranks tokens by how far their
//! surprise −ln p is from the entropy H, |−ln p − H|, and keeps the closest ones until their mass
//! reaches `mass`. It can remove the most likely token.
//!
//! HF (TypicalLogitsWarper): stops at the first cumulative mass ≥ mass and keeps every token whose
//! score ties the boundary. llama.cpp (`llama_sampler_typical_apply`): stops at the first
//! cumulative mass > mass and keeps exactly that many. Both keep at least `min_keep`.
//!
//! The entropy is ln z − Σ e·s / z over the float32 weights e = e^s the rest of the step uses
//! (s the scaled logit): no log and no f64 exp per token. Against the f64 Σ p·ln p it differs by
//! less than 1e-6 nats (tested); a score tie that close is the only place it could decide.
//! The cut: one pass writes every score and sums the mass in buckets of the score's float bits
//! (buckets order like the scores), the walk over the buckets finds the one where the mass is
//! crossed, and only that bucket's tokens are selected over (crossing.rs).

use super::super::candidates::Work;
use super::super::config::Settings;
use super::super::crossing::first_crossing;
use super::super::engine::Engine;
use super::super::softmax::{cached, entropy_sum, exp_f32, logit_of};
use super::Applied;

/// Score buckets: below 2^-16, then 16 per binade up to 2^8, then the rest.
pub(super) const LOWEST: u64 = 0x3ef0_0000_0000_0000 >> 48; // 2^-16
pub(super) const BUCKETS: usize = 2 + 24 * 16;

/// The bucket of a score ≥ 0: non-decreasing in the score.
#[inline(always)]
pub(super) fn bucket(score: f64) -> usize {
    // In 32 bits (the top 16 of the float's): a loop of them vectorises in wasm too, which has no
    // unsigned 64-bit compare.
    let bits = (score.to_bits() >> 48) as u32;
    let lowest = LOWEST as u32;
    if bits < lowest {
        0
    } else {
        ((bits - lowest) as usize + 1).min(BUCKETS - 1)
    }
}

/// The scores [low, high) of a bucket between the first and the last (both ends finite), where
/// the bucket is a range of float bits.
fn bucket_range(b: usize) -> Option<(f64, f64)> {
    (b > 0 && b < BUCKETS - 1).then(|| {
        let low = (b as u64 - 1 + LOWEST) << 48;
        (f64::from_bits(low), f64::from_bits(low + (1 << 48)))
    })
}

/// (score, id, p): the order is score ascending, ties by lower id.
pub(super) type Item = (f64, u32, f64);

pub(super) fn by_score(a: &Item, b: &Item) -> std::cmp::Ordering {
    a.0.total_cmp(&b.0).then(a.1.cmp(&b.1))
}

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
    // H = −Σ p ln p with ln p = s − ln z and Σ e = z: ln z − Σ e·s / z (p = 0 terms add nothing,
    // as HF's nansum and llama.cpp's p > 0 skip them).
    let ids = (!work.all_kept).then_some(work.kept.as_slice());
    // The normaliser's pass remembered its exps when it ran here (softmax/cached.rs): the entropy
    // and the scores read them instead of two more exp passes.
    let whole = ids.is_none();
    let cached = work.exps.hit(max, inv_t, whole);
    let sum = match cached {
        Some(e) => cached::entropy_sum(&work.processed, e, ids, max, inv_t),
        None => entropy_sum(&work.processed, ids, max, inv_t),
    };
    let entropy = ln_z - sum / z;
    let llama = s.engine == Engine::LlamaCpp;
    // Every kept id in id order, holes allowed, with its exp remembered: the cut from a band of
    // logits (typical_p_band.rs); the full pass below when that cannot decide.
    let ascending = work
        .kept
        .windows(2)
        .fold(true, |up, w| up & (w.first() < w.get(1))); // no early exit: it vectorises
    if ascending && cached.is_some() && band_allowed() {
        let sc = band::Scorer {
            max,
            inv_t,
            ln_z,
            entropy,
        };
        let n = work.processed.len();
        let holes = !(work.all_kept && work.input_removed == 0 && work.kept.len() == n);
        // Moved out for the call (the band pass changes `work`), then back.
        let exps = std::mem::take(&mut work.exps);
        let e = exps.hit(max, inv_t, whole).unwrap_or_default();
        let cut = (mass, llama, s.min_keep);
        let done = band::apply(work, e, sc, z, cut, holes, stage);
        work.exps = exps;
        if done {
            #[cfg(test)]
            BAND.with(|b| b.set((b.get().0, b.get().1 + 1)));
            return Applied {
                value: Some(mass),
                threshold: Some(entropy),
            };
        }
    }
    let cached = work.exps.hit(max, inv_t, whole);
    let weight = |id: u32, sc: f32| match cached {
        Some(e) => e.get(id as usize).copied().unwrap_or(0.0),
        None => exp_f32(sc),
    };
    // Every kept token's score into `scratch` (the keep test below reads it), and each score
    // bucket's mass and count.
    let mut bucket_mass = vec![0.0f64; BUCKETS];
    let mut bucket_count = vec![0usize; BUCKETS];
    let n = work.processed.len();
    // Every id kept, in id order: the scores and probabilities in contiguous passes that
    // vectorise, then the buckets in the same order as below (so the same sums, bit for bit).
    let in_id_order = work.all_kept
        && work.input_removed == 0
        && work.kept.len() == n
        && work
            .kept
            .iter()
            .zip(0u32..)
            .fold(true, |same, (&id, i)| same & (id == i)); // no early exit: it vectorises
    if in_id_order {
        let mut p = std::mem::take(&mut work.p);
        p.resize(n, 0.0);
        let scores = work.scratch.get_mut(..n).unwrap_or_default();
        // The scores and the probabilities in loops of their own (no per-token branch on where
        // the weight comes from), so both vectorise; the same values as one loop would give.
        for (score, &l) in scores.iter_mut().zip(&work.processed) {
            let sc = (l - max) * inv_t;
            *score = (-(f64::from(sc) - ln_z) - entropy).abs();
        }
        match cached {
            Some(e) if e.len() >= n => {
                for (p, &e) in p.iter_mut().zip(e) {
                    *p = f64::from(e) / z;
                }
            }
            _ => {
                for (i, (p, &l)) in p.iter_mut().zip(&work.processed).enumerate() {
                    *p = f64::from(weight(i as u32, (l - max) * inv_t)) / z;
                }
            }
        }
        for (&score, &p) in scores.iter().zip(&p) {
            let b = bucket(score);
            if let (Some(m), Some(c)) = (bucket_mass.get_mut(b), bucket_count.get_mut(b)) {
                *m += p;
                *c += 1;
            }
        }
        work.p = p;
    } else {
        for &id in &work.kept {
            let l = logit_of(&work.processed, id);
            let sc = (l - max) * inv_t;
            let score = (-(f64::from(sc) - ln_z) - entropy).abs();
            if let Some(slot) = work.scratch.get_mut(id as usize) {
                *slot = score;
            }
            let b = bucket(score);
            if let (Some(m), Some(c)) = (bucket_mass.get_mut(b), bucket_count.get_mut(b)) {
                *m += f64::from(weight(id, sc)) / z;
                *c += 1;
            }
        }
    }
    // HF stops at the first cumulative mass ≥ mass; llama.cpp at the first > mass that also
    // keeps min_keep.
    let crosses = |cum: f64| if llama { cum > mass } else { cum >= mass };
    let len = work.kept.len();
    let (at, above, before) = match crossing_bucket(&bucket_mass, &bucket_count, crosses) {
        Some((at, above, before)) => (Some(at), above, before),
        None => (None, 0.0, 0),
    };
    // The crossing bucket's items, and the crossing's rank in the whole order.
    let (mut items, crossing) = match at {
        Some(b) => {
            let near = bucket_range(b);
            let mut items = items_where(work, (max, inv_t, z), in_id_order, near, |score| {
                bucket(score) == b
            });
            let within = first_crossing(&mut items, by_score, |t| t.2, |cum| crosses(above + cum));
            // Rounding: the bucket's own sum crossed but the walk within it fell short.
            let within = within.unwrap_or(items.len().saturating_sub(1));
            (items, Some((before + within, within)))
        }
        None => (Vec::new(), None),
    };
    let stop = match crossing {
        Some((i, _)) if llama => i.max(s.min_keep.saturating_sub(1)) + 1,
        Some((i, _)) => i + 1,
        None => len,
    };
    let n = stop.max(s.min_keep).min(len).max(1);
    let (boundary, boundary_id) = match crossing {
        _ if n >= len => (f64::INFINITY, u32::MAX), // everything is kept
        // first_crossing leaves the item of the rank it returns in place.
        Some((i, within)) if i == n - 1 => items
            .get(within)
            .map_or((f64::INFINITY, u32::MAX), |t| (t.0, t.1)),
        _ => {
            // min_keep reaches past the crossing: select the n-th among every kept token.
            items = items_where(work, (max, inv_t, z), in_id_order, None, |_| true);
            items.select_nth_unstable_by(n - 1, by_score);
            items
                .get(n - 1)
                .map_or((f64::INFINITY, u32::MAX), |t| (t.0, t.1))
        }
    };
    // The first n in (score, id) order: HF keeps every token whose score ties the boundary too,
    // llama.cpp exactly n. One comparison per kept token.
    let hf = !llama;
    // `&` and `|`, not `&&` and `||`: no branch per token, so the marking pass vectorises.
    let keep = |score: f64, id: u32| {
        (score < boundary) | ((score == boundary) & (hf | (id <= boundary_id)))
    };
    if in_id_order {
        // One contiguous marking pass, then the kept list compacted in order.
        let marks = work.removed_by.iter_mut().zip(&work.scratch);
        if hf {
            // HF's keep is score ≤ boundary (`<` or `==`, NaN neither): one compare that
            // vectorises.
            for (mark, &score) in marks {
                *mark = if score <= boundary { *mark } else { stage };
            }
        } else {
            for (i, (mark, &score)) in marks.enumerate() {
                *mark = if keep(score, i as u32) { *mark } else { stage };
            }
        }
        work.retain_marked();
    } else {
        let scratch = std::mem::take(&mut work.scratch);
        work.retain(stage, |id| {
            keep(
                scratch.get(id as usize).copied().unwrap_or(f64::INFINITY),
                id,
            )
        });
        work.scratch = scratch;
    }
    Applied {
        value: Some(mass),
        threshold: Some(entropy),
    }
}

/// The first bucket (ascending) whose mass takes the running total across (`crosses`), with the
/// mass and the count of the buckets before it.
pub(super) fn crossing_bucket(
    bucket_mass: &[f64],
    bucket_count: &[usize],
    crosses: impl Fn(f64) -> bool,
) -> Option<(usize, f64, usize)> {
    let (mut above, mut before) = (0.0f64, 0usize);
    for (b, (&m, &c)) in bucket_mass.iter().zip(bucket_count).enumerate() {
        if c > 0 && crosses(above + m) {
            return Some((b, above, before));
        }
        above += m;
        before += c;
    }
    None
}

/// (score, id, p) of the kept tokens whose score (in `scratch`) passes `wanted`, in `kept`'s
/// order. `in_id_order`: `kept` is every id in id order, so the scores are read as one
/// contiguous run (a compare per token, no lookup by id). `near`: [low, high) holds every score
/// `wanted` passes (NaN may pass too): groups of eight without one are skipped.
fn items_where(
    work: &Work,
    (max, inv_t, z): (f32, f32, f64),
    in_id_order: bool,
    near: Option<(f64, f64)>,
    wanted: impl Fn(f64) -> bool,
) -> Vec<Item> {
    let item = |score: f64, id: u32| {
        let l = logit_of(&work.processed, id);
        (score, id, f64::from(exp_f32((l - max) * inv_t)) / z)
    };
    let mut items = Vec::new();
    if in_id_order {
        let scores = work.scratch.get(..work.kept.len()).unwrap_or_default();
        for (group, chunk) in scores.chunks(8).enumerate() {
            // Eight at a time past groups with no score in `near` (a vectorised test).
            if let Some((low, high)) = near {
                let any = chunk.iter().fold(false, |any, &sc| {
                    any | ((sc >= low) & (sc < high)) | sc.is_nan()
                });
                if !any {
                    continue;
                }
            }
            for (id, &score) in (group * 8..).zip(chunk) {
                if wanted(score) {
                    items.push(item(score, id as u32));
                }
            }
        }
        return items;
    }
    for &id in &work.kept {
        let score = work
            .scratch
            .get(id as usize)
            .copied()
            .unwrap_or(f64::INFINITY);
        if wanted(score) {
            items.push(item(score, id));
        }
    }
    items
}

#[path = "typical_p_band.rs"]
mod band;
#[path = "typical_p_scan.rs"]
mod scan;

#[cfg(test)]
thread_local! {
    /// Tests: whether the band path may run (off, to compare with it), and how often it decided.
    static BAND: std::cell::Cell<(bool, usize)> = const { std::cell::Cell::new((true, 0)) };
}

fn band_allowed() -> bool {
    #[cfg(test)]
    return BAND.with(|b| b.get().0);
    #[cfg(not(test))]
    true
}

#[cfg(test)]
#[path = "typical_p_tests.rs"]
mod tests;
