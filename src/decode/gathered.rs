//! The final weights when a stage removed tokens: one loop through `kept` (a gather) gives z
//! and Σ e·s, each added exactly as `sum_weights` and `entropy_sum` add them over `kept`, and
//! (when asked) every weight into `scratch` and its order key. Without the stores the same loop
//! gives the same two sums: then the weights stay stored nowhere (`Work::weights_by_exp`, with
//! the removed ids as `Work::holes`) and the final pass reads only the few the draw can reach.

use super::candidates::Work;
use super::draw::key;
use super::softmax::{cached, entropy_term, exp_f32, logit_of, LANES};

/// `entropy_blocks`' block (64 ids) in groups of `LANES`.
const ENTROPY_GROUPS: usize = 64 / LANES;

/// At most this many removed ids make a list "with holes": the final pass then skips them one
/// by one in its read of the logits (head.rs), instead of writing a key per kept token.
pub(crate) const HOLES_MAX: usize = 256;

/// The weights of `work.kept` at (max, inv_t) into `scratch` and their keys into `keys` (in
/// `kept`'s order); returns (z, Σ e·s). From the exps a pass remembered at this scale when there
/// are (softmax/cached.rs).
pub(crate) fn weights_and_keys(
    work: &mut Work,
    max: f32,
    inv_t: f32,
    keys: &mut Vec<u64>,
) -> (f64, f64) {
    let Work {
        processed,
        kept,
        scratch,
        exps,
        top_p_head,
        ..
    } = work;
    let ordered = top_p_head.ordered(kept, max, inv_t);
    match exps.hit(max, inv_t, false) {
        Some(e) => gathered::<true, true>(processed, e, kept, scratch, max, inv_t, keys, None),
        None => gathered::<false, true>(processed, &[], kept, scratch, max, inv_t, keys, ordered),
    }
}

/// `weights_and_keys`' (z, Σ e·s), bit for bit, storing nothing.
#[inline(never)]
pub(crate) fn sums(work: &Work, max: f32, inv_t: f32) -> (f64, f64) {
    let (p, kept) = (&work.processed, &work.kept);
    let mut none = Vec::new();
    match work.exps.hit(max, inv_t, false) {
        Some(e) => gathered::<true, false>(p, e, kept, &mut [], max, inv_t, &mut none, None),
        None => gathered::<false, false>(p, &[], kept, &mut [], max, inv_t, &mut none, None),
    }
}

/// The ids below `n` not in `kept`, ascending, when `kept` is ascending and lacks at most
/// `HOLES_MAX` of them.
#[inline(never)]
pub(crate) fn holes(kept: &[u32], n: usize) -> Option<Vec<u32>> {
    let missing = n.checked_sub(kept.len())?;
    if missing > HOLES_MAX {
        return None;
    }
    if !ascending(kept) || kept.last().is_some_and(|&l| l as usize >= n) {
        return None;
    }
    let mut holes = Vec::with_capacity(missing);
    let first = kept.first().map_or(n as u32, |&f| f);
    holes.extend(0..first);
    holes_within(kept, &mut holes);
    holes.extend(kept.last().map_or(n as u32, |&l| l + 1)..n as u32);
    Some(holes)
}

/// Whether `ids` ascend strictly. Branch-free within blocks of 4,096, so it vectorises (the
/// standard `is_sorted_by` stops at each pair and does not); a block that fails ends the check.
pub(crate) fn ascending(ids: &[u32]) -> bool {
    const BLOCK: usize = 4096;
    let pairs = ids.len().saturating_sub(1);
    (0..pairs).step_by(BLOCK).all(|start| {
        let end = (start + BLOCK).min(pairs);
        let (a, b) = (
            ids.get(start..end).unwrap_or_default(),
            ids.get(start + 1..end + 1).unwrap_or_default(),
        );
        a.iter().zip(b).fold(true, |ok, (x, y)| ok & (x < y))
    })
}

/// The ids between `kept`'s first and last that it lacks, by halving: an ascending range whose
/// ends are as far apart as its length has none (O(holes · log n), not a read of every id).
fn holes_within(kept: &[u32], holes: &mut Vec<u32>) {
    let (Some(&first), Some(&last)) = (kept.first(), kept.last()) else {
        return;
    };
    if (last - first) as usize + 1 == kept.len() {
        return;
    }
    if let [a, b] = kept {
        holes.extend(a + 1..*b);
        return;
    }
    let mid = kept.len() / 2;
    holes_within(kept.get(..=mid).unwrap_or_default(), holes);
    holes_within(kept.get(mid..).unwrap_or_default(), holes);
}

/// Each group of eight weights (exps in float32 lanes, or REMEMBERED ones) is added to z as
/// `sum_weights` adds it and to Σ e·s as `entropy_sum` adds it over `kept`; with STORE each
/// weight goes to `scratch` and its key to `keys`. `ordered`: the logits and weights of `kept`
/// in its order (top-p's walk computed them: stages/top_p_head.rs), read in place of a gather
/// and an exp per group; the same values, so the same bits.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn gathered<const REMEMBERED: bool, const STORE: bool>(
    processed: &[f32],
    remembered: &[f32],
    kept: &[u32],
    scratch: &mut [f64],
    max: f32,
    inv_t: f32,
    keys: &mut Vec<u64>,
    ordered: Option<(&[f32], &[f32])>,
) -> (f64, f64) {
    if STORE {
        // Every slot is written below: only slots the vector grows by are zeroed first.
        keys.truncate(kept.len());
        keys.resize(kept.len(), 0);
    }
    let weight_of = |id: u32| {
        if REMEMBERED {
            cached::e_of(remembered, id)
        } else {
            exp_f32((logit_of(processed, id) - max) * inv_t)
        }
    };
    let (mut z, mut weighted) = (0.0f64, 0.0f64);
    // One weight into its key and `scratch`; returns its term of Σ e·s.
    let record = |id: u32, e: f32, k: Option<&mut u64>, scratch: &mut [f64]| {
        if let Some(k) = k {
            *k = key(e, id);
        }
        if let Some(slot) = scratch.get_mut(id as usize) {
            *slot = f64::from(e);
        }
        entropy_term(e, logit_of(processed, id), max, inv_t)
    };
    let mut kchunks = keys.chunks_mut(1024);
    let mut pos = 0usize;
    for block in kept.chunks(1024) {
        let block_start = pos;
        pos += block.len();
        let kblock = kchunks.next().unwrap_or_default();
        if !STORE {
            // A block of consecutive ids (all but the few holding a hole): the same sums over
            // contiguous slices, with no test per group.
            let (first, last) = (block.first().copied(), block.last().copied());
            let span = first.zip(last).and_then(|(f, l)| {
                let (f, l) = (f as usize, l as usize);
                (l + 1 - f == block.len()).then_some(f..l + 1)
            });
            let values = span.and_then(|r| Some((processed.get(r.clone())?, r)));
            if let Some((v, r)) = values {
                let w = if REMEMBERED {
                    remembered.get(r).unwrap_or_default()
                } else {
                    &[]
                };
                if !REMEMBERED || w.len() == v.len() {
                    z += run_sums::<REMEMBERED>(v, w, max, inv_t, &mut weighted);
                    continue;
                }
            }
        }
        let mut sums = LaneSums::default();
        let mut lanes = block.chunks_exact(LANES);
        let mut klanes = kblock.chunks_exact_mut(LANES);
        for (g, group) in (&mut lanes).enumerate() {
            // Eight consecutive ids (a list with a few holes is mostly such runs): contiguous
            // loads and stores instead of one lookup per id. Same values, same order.
            let at = group.first().map_or(0, |&id| id as usize);
            let run = group
                .iter()
                .enumerate()
                .all(|(j, &id)| id as usize == at + j);
            let span = |len: usize| if run { at..at + LANES } else { len..len };
            let mut v = [f32::NEG_INFINITY; LANES];
            let mut w = [0.0f32; LANES];
            let here = block_start + g * LANES..block_start + (g + 1) * LANES;
            let given = ordered.and_then(|(ls, es)| Some((ls.get(here.clone())?, es.get(here)?)));
            if let Some((ls, es)) = given {
                v.copy_from_slice(ls);
                w.copy_from_slice(es);
            } else {
                match processed.get(span(processed.len())) {
                    Some(src) if run => v.copy_from_slice(src),
                    _ => {
                        for (slot, &id) in v.iter_mut().zip(group) {
                            *slot = logit_of(processed, id);
                        }
                    }
                }
            }
            // (given: the weights are in `w` already)
            if given.is_none() && REMEMBERED {
                match remembered.get(span(remembered.len())) {
                    Some(src) if run => w.copy_from_slice(src),
                    _ => {
                        for (slot, &id) in w.iter_mut().zip(group) {
                            *slot = weight_of(id);
                        }
                    }
                }
            } else if given.is_none() {
                for (slot, &l) in w.iter_mut().zip(&v) {
                    *slot = exp_f32((l - max) * inv_t);
                }
            }
            for (a, &e) in sums.acc.iter_mut().zip(&w) {
                *a += e;
            }
            // (a whole group of keys as an array: its length known, its stores unrolled)
            if let Some(kgroup) = klanes
                .next()
                .and_then(|k| <&mut [u64; LANES]>::try_from(k).ok())
            {
                store(group, &w, run, kgroup, scratch);
            }
            for ((a, &e), &l) in sums.es.iter_mut().zip(&w).zip(&v) {
                *a += entropy_term(e, l, max, inv_t);
            }
            sums.group_done(&mut weighted);
        }
        let rest = lanes.remainder();
        let mut w = [0.0f32; LANES];
        let mut terms = [0.0f32; LANES];
        let mut krest = klanes.into_remainder().iter_mut();
        for ((slot, term), &id) in w.iter_mut().zip(terms.iter_mut()).zip(rest) {
            *slot = weight_of(id);
            *term = record(id, *slot, krest.next(), scratch);
        }
        z += sums.finish(&w, &terms, rest.len(), &mut weighted);
    }
    (z, weighted)
}

/// `gathered`'s sums over one block of consecutive ids: `logits` theirs, `remembered` their
/// weights (REMEMBERED). Adds Σ e·s to `weighted` as `gathered` does (every 64 ids, then the
/// tail) and returns the block's term of z.
#[inline(always)]
fn run_sums<const REMEMBERED: bool>(
    logits: &[f32],
    remembered: &[f32],
    max: f32,
    inv_t: f32,
    weighted: &mut f64,
) -> f64 {
    let mut sums = LaneSums::default();
    let mut lanes = logits.chunks_exact(LANES);
    let mut wlanes = remembered.chunks_exact(LANES);
    for v in &mut lanes {
        // One loop over the lanes (as raw_sums has it).
        if REMEMBERED {
            let w = wlanes.next().unwrap_or(&[0.0; LANES]);
            for (((a, t), &e), &l) in sums.acc.iter_mut().zip(sums.es.iter_mut()).zip(w).zip(v) {
                *a += e;
                *t += entropy_term(e, l, max, inv_t);
            }
        } else {
            for ((a, t), &l) in sums.acc.iter_mut().zip(sums.es.iter_mut()).zip(v) {
                let e = exp_f32((l - max) * inv_t);
                *a += e;
                *t += entropy_term(e, l, max, inv_t);
            }
        }
        sums.group_done(weighted);
    }
    let rest = lanes.remainder();
    let wrest = wlanes.remainder();
    let mut w = [0.0f32; LANES];
    let mut terms = [0.0f32; LANES];
    for (j, ((slot, term), &l)) in w.iter_mut().zip(terms.iter_mut()).zip(rest).enumerate() {
        *slot = if REMEMBERED {
            wrest.get(j).copied().unwrap_or_default()
        } else {
            exp_f32((l - max) * inv_t)
        };
        *term = entropy_term(*slot, l, max, inv_t);
    }
    sums.finish(&w, &terms, rest.len(), weighted)
}

/// One block's z and Σ e·s as `sum_weights` and `entropy_sum` add them over `kept`: float32
/// lanes, Σ e·s into f64 every 64 ids, each sum's tail added at the block's end.
#[derive(Default)]
struct LaneSums {
    acc: [f32; LANES],
    es: [f32; LANES],
    groups: usize,
}

impl LaneSums {
    /// After each group of `LANES`: every 64 ids, Σ e·s into `weighted`.
    #[inline(always)]
    fn group_done(&mut self, weighted: &mut f64) {
        self.groups += 1;
        if self.groups % ENTROPY_GROUPS == 0 {
            // A block of 64 without a tail adds an empty tail's sum, as `entropy_blocks`.
            let no_tail: f32 = std::iter::empty::<f32>().sum();
            *weighted += f64::from(self.es.iter().sum::<f32>()) + f64::from(no_tail);
            self.es = [0.0; LANES];
        }
    }

    /// The block's end, its tail the first `rest` of `w` (weights) and `terms` (e·s): the rest
    /// of Σ e·s into `weighted`; returns the block's term of z.
    #[inline(always)]
    fn finish(
        self,
        w: &[f32; LANES],
        terms: &[f32; LANES],
        rest: usize,
        weighted: &mut f64,
    ) -> f64 {
        if self.groups % ENTROPY_GROUPS != 0 || rest != 0 {
            let tail: f32 = terms.iter().take(rest).copied().sum();
            *weighted += f64::from(self.es.iter().sum::<f32>()) + f64::from(tail);
        }
        let tail: f32 = w.iter().take(rest).copied().sum();
        f64::from(self.acc.iter().sum::<f32>() + tail)
    }
}

/// A group's keys and its weights into `scratch`. In a run of consecutive ids each key's low
/// half is !(at + j) = !at − j, so the keys are built in whole lanes: reading the weights back
/// one by one (as `key` per id did) stalled on the store that had just written them.
#[inline(always)]
fn store(
    group: &[u32],
    w: &[f32; LANES],
    run: bool,
    kgroup: &mut [u64; LANES],
    scratch: &mut [f64],
) {
    let at = group.first().copied().unwrap_or_default();
    if run {
        let mut k = [0u64; LANES];
        for (j, (slot, &e)) in k.iter_mut().zip(w).enumerate() {
            *slot = (u64::from(e.to_bits()) << 32) | u64::from((!at).wrapping_sub(j as u32));
        }
        for (dst, &src) in kgroup.iter_mut().zip(&k) {
            *dst = src;
        }
        if let Some(dst) = scratch.get_mut(at as usize..at as usize + LANES) {
            for (d, &e) in dst.iter_mut().zip(w) {
                *d = f64::from(e);
            }
        }
        return;
    }
    for ((k, &id), &e) in kgroup.iter_mut().zip(group).zip(w) {
        *k = key(e, id);
    }
    for (&id, &e) in group.iter().zip(w) {
        if let Some(slot) = scratch.get_mut(id as usize) {
            *slot = f64::from(e);
        }
    }
}

#[cfg(test)]
#[path = "gathered_tests.rs"]
mod tests;
