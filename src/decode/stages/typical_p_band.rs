//! typical-p's cut from a band of logits, when the kept ids are in id order and their exps are
//! remembered (an open context: the rows where typical-p cost most).
//!
//! Why it is the same cut, bit for bit: a token's score |−(s − ln z) − H| is a function of its
//! float32 logit alone, non-increasing then non-decreasing in it (each rounding is monotone), so
//! "score below a bound" is a band [lo, hi] of logits, found exactly by a binary search over the
//! float32 values. The walk over the score buckets only reads buckets up to the crossing one, and
//! a bucket's mass is its own tokens' p summed in id order: summed over the band's tokens alone
//! (in id order), every bucket below the band's bound has the bits the full pass gives it. The
//! band's bound is picked by an approximate float32 mass per bound; if it was too low (the walk
//! does not cross within it) or min_keep reaches past the crossing, nothing is changed and the
//! caller takes the full pass. The keep test is a band too, so the marking reads float32 logits.

use super::scan::{compact_band, pick_bound};
use super::{bucket, by_score, crossing_bucket, Item, BUCKETS, LOWEST};
use crate::decode::candidates::{Work, KEPT};
use crate::decode::crossing::first_crossing;
// Float32 values (NaN aside) in order as u32 keys: −inf is the least, +inf the greatest.
use crate::decode::select::{from_ordered_bits as from_key, ordered_bits as key};
use crate::decode::softmax::exp_f32;

/// A token's score as the full pass computes it, from its logit.
#[derive(Clone, Copy)]
pub(super) struct Scorer {
    pub max: f32,
    pub inv_t: f32,
    pub ln_z: f64,
    pub entropy: f64,
}

impl Scorer {
    /// −(s − ln z) − H: non-increasing in the logit; the score is its absolute value.
    #[inline(always)]
    fn signed(&self, l: f32) -> f64 {
        let sc = (l - self.max) * self.inv_t;
        -(f64::from(sc) - self.ln_z) - self.entropy
    }

    #[inline(always)]
    pub fn score(&self, l: f32) -> f64 {
        self.signed(l).abs()
    }

    /// The logits whose score is below `bound` (at most `bound` when `inclusive`): [lo, hi]
    /// (empty when lo > hi). NaN logits are in no band.
    pub fn band(&self, bound: f64, inclusive: bool) -> (f32, f32) {
        let below = |y: f64| if inclusive { y <= bound } else { y < bound };
        let above = |y: f64| if inclusive { y >= -bound } else { y > -bound };
        // signed(l) ≤ bound is false then true as l rises; signed(l) ≥ −bound true then false.
        let lo = first_where(|l| below(self.signed(l)));
        let hi = first_where(|l| !above(self.signed(l)));
        let hi = hi.map_or(f32::INFINITY, |k| from_key(k - 1));
        (lo.map_or(f32::NAN, from_key), hi)
    }
}

/// The key of the least float32 in [−inf, +inf] where `pred` holds (false then true), if any.
fn first_where(pred: impl Fn(f32) -> bool) -> Option<u32> {
    let (mut lo, mut hi) = (key(f32::NEG_INFINITY), key(f32::INFINITY));
    if !pred(from_key(hi)) {
        return None;
    }
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if pred(from_key(mid)) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Some(lo)
}

/// The cut and the marking by bands; false (nothing changed) when the caller must take the full
/// pass. `holes`: `kept` is ascending but not every id (else it is every id in id order).
#[allow(clippy::too_many_arguments)]
pub(super) fn apply(
    work: &mut Work,
    e: &[f32],
    sc: Scorer,
    z: f64,
    (mass, llama, min_keep): (f64, bool, usize),
    holes: bool,
    stage: u8,
) -> bool {
    let n = work.processed.len();
    if e.len() < n
        || !(sc.max.is_finite() && sc.inv_t.is_finite() && sc.inv_t > 0.0)
        || !(sc.ln_z.is_finite() && sc.entropy.is_finite())
    {
        return false;
    }
    let kept_marks = holes.then_some(work.removed_by.as_slice());
    let Some(bound) = pick_bound(&work.processed, e, kept_marks, &sc, z, mass) else {
        return false;
    };
    // Every kept token of a bucket below `bound`, in id order (a branch-free compaction).
    let upper = f64::from_bits((bound as u64 - 1 + LOWEST) << 48);
    let (lo, hi) = sc.band(upper, false);
    let mut band = std::mem::take(&mut work.aux);
    if band.len() < n + 4 {
        band.resize(n + 4, 0); // `aux` only grows here; ranking.rs clears it before use
    }
    let marks = holes.then_some(work.removed_by.as_slice());
    let count = compact_band(&work.processed, marks, (lo, hi), &mut band);
    let ids = band.get(..count).unwrap_or_default();
    let done = cut_and_mark(
        work,
        e,
        ids,
        sc,
        z,
        (mass, llama, min_keep, holes),
        bound,
        stage,
    );
    work.aux = band;
    done
}

/// The walk over the band's buckets, the boundary, and the marking (see `apply`).
#[allow(clippy::too_many_arguments)]
fn cut_and_mark(
    work: &mut Work,
    e: &[f32],
    band: &[u32],
    sc: Scorer,
    z: f64,
    (mass, llama, min_keep, holes): (f64, bool, usize, bool),
    bound: usize,
    stage: u8,
) -> bool {
    // Each bucket's mass in id order, as the full pass sums it; each band token's bucket kept
    // for the crossing bucket's items.
    let mut bucket_mass = [0.0f64; BUCKETS];
    let mut bucket_count = [0usize; BUCKETS];
    let mut buckets: Vec<u16> = vec![0; band.len()];
    let (processed, sums) = (&work.processed, (&mut bucket_mass, &mut bucket_count));
    histogram(processed, e, band, &sc, z, sums, &mut buckets);
    let logit = |id: u32| work.processed.get(id as usize).copied().unwrap_or(0.0);
    let crosses = |cum: f64| if llama { cum > mass } else { cum >= mass };
    let Some((at, above, before)) = crossing_bucket(&bucket_mass, &bucket_count, crosses) else {
        return false;
    };
    if at >= bound {
        return false;
    }
    let mut items: Vec<Item> = band
        .iter()
        .zip(&buckets)
        .filter(|&(_, &b)| usize::from(b) == at)
        .map(|(&id, _)| {
            let l = logit(id);
            let p = f64::from(exp_f32((l - sc.max) * sc.inv_t)) / z;
            (sc.score(l), id, p)
        })
        .collect();
    let within = first_crossing(&mut items, by_score, |t| t.2, |cum| crosses(above + cum));
    let within = within.unwrap_or(items.len().saturating_sub(1));
    let i = before + within;
    let len = work.kept.len();
    let stop = if llama {
        i.max(min_keep.saturating_sub(1)) + 1
    } else {
        i + 1
    };
    let keep_n = stop.max(min_keep).min(len).max(1);
    let (boundary, boundary_id) = if keep_n >= len {
        (f64::INFINITY, u32::MAX)
    } else if i == keep_n - 1 {
        match items.get(within) {
            Some(t) => (t.0, t.1),
            None => (f64::INFINITY, u32::MAX),
        }
    } else {
        return false; // min_keep reaches past the crossing: the full pass selects
    };
    // HF keeps score ≤ boundary; llama.cpp score < boundary, or = boundary up to boundary_id.
    let at_most = sc.band(boundary, true);
    let below = if llama {
        sc.band(boundary, false)
    } else {
        at_most
    };
    let (marks, processed) = (&mut work.removed_by, &work.processed);
    match (holes, llama) {
        (false, false) => mark::<false, false>(marks, processed, at_most, below, 0, stage),
        (false, true) => mark::<false, true>(marks, processed, at_most, below, boundary_id, stage),
        (true, false) => mark::<true, false>(marks, processed, at_most, below, 0, stage),
        (true, true) => mark::<true, true>(marks, processed, at_most, below, boundary_id, stage),
    }
    if boundary < f64::from_bits((bound as u64 - 1 + LOWEST) << 48) {
        // Every survivor is in the band.
        work.retain_marked_among(band);
    } else {
        work.retain_marked();
    }
    true
}

/// Band tokens per chunk of the histogram (its gathered values on the stack).
const CHUNK: usize = 256;

/// Each band token's bucket into `buckets`, and each bucket's mass (p = e / z summed in id
/// order, as the full pass sums it) and count. Per chunk: the logits and exps gathered, then the
/// buckets and the divisions in a loop that vectorises, then the sums (the one serial part).
fn histogram(
    processed: &[f32],
    e: &[f32],
    band: &[u32],
    sc: &Scorer,
    z: f64,
    (bucket_mass, bucket_count): (&mut [f64; BUCKETS], &mut [usize; BUCKETS]),
    buckets: &mut [u16],
) {
    let (mut ls, mut es, mut ps) = ([0.0f32; CHUNK], [0.0f32; CHUNK], [0.0f64; CHUNK]);
    for (ids, bs) in band.chunks(CHUNK).zip(buckets.chunks_mut(CHUNK)) {
        for ((l, w), &id) in ls.iter_mut().zip(&mut es).zip(ids) {
            *l = processed.get(id as usize).copied().unwrap_or(0.0);
            *w = e.get(id as usize).copied().unwrap_or(0.0);
        }
        for (((b, p), &l), &w) in bs.iter_mut().zip(&mut ps).zip(&ls).zip(&es) {
            *b = bucket(sc.score(l)) as u16; // BUCKETS < 2^16
            *p = f64::from(w) / z;
        }
        for (&b, &p) in bs.iter().zip(&ps) {
            let b = usize::from(b);
            if let (Some(m), Some(c)) = (bucket_mass.get_mut(b), bucket_count.get_mut(b)) {
                *m += p;
                *c += 1;
            }
        }
    }
}

/// Marks every kept token outside the keep test with `stage`: logit in `at_most` (HF), or in
/// `below`, or in `at_most` with an id ≤ `last_id` (LLAMA). Without HOLES every id is kept, so
/// the marks are only written.
fn mark<const HOLES: bool, const LLAMA: bool>(
    marks: &mut [u8],
    processed: &[f32],
    (lo, hi): (f32, f32),
    (lo_below, hi_below): (f32, f32),
    last_id: u32,
    stage: u8,
) {
    const { assert!(KEPT == 0) };
    for ((mark, &l), id) in marks.iter_mut().zip(processed).zip(0u32..) {
        let keep = if LLAMA {
            ((l >= lo_below) & (l <= hi_below)) | ((l >= lo) & (l <= hi) & (id <= last_id))
        } else {
            (l >= lo) & (l <= hi)
        };
        let gone = u8::from(!keep).wrapping_neg() & stage;
        // A kept token (KEPT = 0) that fails the test gets `stage`; any other mark stays.
        *mark = if HOLES {
            *mark | (gone & u8::from(*mark == KEPT).wrapping_neg())
        } else {
            gone
        };
    }
}
