//! top-p (核采样, nucleus) p in [0, 1]; 1 = off. Keeps the smallest set of most likely tokens
//! whose mass reaches p: a token is kept if and only if the mass ranked strictly above it is < p,
//! so the token that crosses p is kept, and exact equality removes (HF logits_process.py
//! `cumsum <= 1 - top_p`; llama.cpp's descending running sum gives the same rule). p = 0 keeps
//! one token (vLLM rejects 0: config). Applies to the current, renormalised distribution.
//!
//! The walk extends a sorted prefix block by block, so a peaked distribution sorts only its head.
//! When many tokens survive the pre-filter (a flat distribution: T > 1, p near 1), counts in
//! buckets of the logit's float bits bound where the mass crosses p, and only the tokens in that
//! bucket and above are sorted (a radix sort of integer keys) and walked: the same walk over the
//! same order, so the same sums and the same cut, bit for bit.

use super::super::candidates::{by_logit, extend_sorted, Work};
use super::super::config::Settings;
use super::super::draw::key_id;
use super::super::select::{logit_key, radix_sort_desc_high};
use super::super::softmax::{logit_of, weight};
use super::Applied;

/// Below this many candidates the pre-filter costs more than it saves.
const PREFILTER_MIN: usize = 1024;
/// Above this many pre-filtered candidates the crossing is located by buckets before sorting
/// (below it the 65,536 counters cost more than the selections they save: measured at 32,000).
const BUCKET_MIN: usize = 16_384;
/// Buckets of the ordered logit's top 16 bits (128 per binade), taken from the logit key's high
/// half: they order like the logits.
const BUCKET_SHIFT: u32 = 48;
const BUCKETS: usize = 1 << 16;

/// The smallest logit whose ordered bits fall in bucket `b` (NaN patterns, which hold no logit,
/// give −inf).
fn lowest_in_bucket(b: usize) -> f32 {
    let ordered = (b as u32) << 16;
    let bits = if ordered & 0x8000_0000 != 0 {
        ordered & 0x7fff_ffff
    } else {
        !ordered
    };
    let l = f32::from_bits(bits);
    if l.is_nan() {
        f32::NEG_INFINITY
    } else {
        l
    }
}

/// `head` (ids in id order) through the bucket where the running mass (logit order) surely
/// reaches `target`, sorted by (logit desc, id asc); None if no bucket does. Every token of a
/// higher bucket ranks before every token of a lower one, so this is exactly the sorted head's
/// first part. Buckets are only counted: each one's mass is bounded below by its count times the
/// weight of its lowest logit, so the bucket found is at or below the one the walk crosses in.
fn through_crossing_bucket(
    head: &[u32],
    processed: &[f32],
    max: f32,
    inv_t: f32,
    target: f64,
) -> Option<Vec<u32>> {
    let mut count = vec![0u32; BUCKETS];
    for &id in head {
        let b = (logit_key(logit_of(processed, id), id) >> BUCKET_SHIFT) as usize;
        if let Some(c) = count.get_mut(b) {
            *c += 1;
        }
    }
    // The slack covers the float32 exp's rounding (not exactly monotone) and the walk's own
    // summation order; if the walk over the part still falls short, the caller walks the head.
    let (mut cum, want) = (0.0f64, target * (1.0 + 1e-6));
    let lowest = (0..BUCKETS).rev().find(|&b| {
        let c = count.get(b).copied().unwrap_or(0);
        if c > 0 {
            cum += f64::from(c) * weight(lowest_in_bucket(b), max, inv_t);
        }
        cum >= want
    })? as u64;
    let mut keys: Vec<u64> = head
        .iter()
        .map(|&id| logit_key(logit_of(processed, id), id))
        .filter(|&k| k >> BUCKET_SHIFT >= lowest)
        .collect();
    // In id order, so a stable sort by the logit alone leaves ties by lower id.
    radix_sort_desc_high(&mut keys);
    Some(keys.into_iter().map(key_id).collect())
}

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
        if head.len() > BUCKET_MIN {
            let prefix = through_crossing_bucket(&head, &work.processed, max, inv_t, target);
            if let Some(mut prefix) = prefix {
                let sorted = prefix.len();
                let w = walk(&mut prefix, sorted, &work.processed, max, inv_t, target, 1);
                if w.mass >= target {
                    prefix.truncate(w.keep);
                    work.keep_exactly(stage, &prefix, false, |_, _| false);
                    return Applied {
                        value,
                        threshold: Some((w.mass / z).min(1.0)),
                    };
                }
            }
        }
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

#[cfg(test)]
mod tests {
    use super::super::super::candidates::Work;
    use super::super::super::config::Config;
    use super::super::super::softmax::{scan, sum_weights_all};
    use super::{by_logit, logit_of, weight, BUCKET_MIN};

    /// On flat distributions large enough for the bucket path, the kept list is the naive one:
    /// every token sorted by (logit desc, id asc), walked until the mass reaches p·z, in order.
    #[test]
    fn the_bucket_path_keeps_what_a_full_sort_and_walk_keeps() {
        let mut next = super::super::test_uniforms(0x2468_ace1u32);
        for (n, t, p, quantum) in [
            (151_936usize, 1.3f32, 0.95f64, 0.0f32),
            (120_000, 2.0, 0.9, 0.25), // many exact ties
            (100_000, 1.6, 0.99, 0.0),
        ] {
            let mut logits: Vec<f32> = (0..n)
                .map(|_| {
                    let g = ((next() + next() + next() + next() - 2.0) * 3f64.sqrt() * 2.5) as f32;
                    if quantum > 0.0 {
                        (g / quantum).round() * quantum
                    } else {
                        g
                    }
                })
                .collect();
            for i in 0..30 {
                logits[(i * 7919) % n] = 18.0 - 0.4 * i as f32;
            }
            let settings = Config {
                top_p: Some(p),
                ..Config::default()
            }
            .resolve(n, 1)
            .unwrap();
            let max = scan(&logits).0;
            let mut work = Work::default();
            work.reset(&logits, max);
            work.inv_t = 1.0 / t;
            super::apply(&mut work, &settings, 1);
            let z = sum_weights_all(&logits, max, 1.0 / t);
            let mut order: Vec<u32> = (0..n as u32).collect();
            order.sort_by(|&a, &b| by_logit(&logits, a, b));
            let (mut mass, mut keep) = (0.0f64, 0usize);
            while keep < n && !(keep >= 1 && mass >= p * z) {
                mass += weight(logit_of(&logits, order[keep]), max, 1.0 / t);
                keep += 1;
            }
            // As many as the pre-filter lets through: more than BUCKET_MIN takes the buckets.
            let cut = f64::from(max) + ((1.0 - p) / (n - 1) as f64 * z).ln() * f64::from(t);
            let head = logits.iter().filter(|&&l| f64::from(l) >= cut).count();
            assert!(head > BUCKET_MIN, "n {n}: {head} above the pre-filter");
            assert_eq!(work.kept, order[..keep].to_vec(), "n {n} T {t} p {p}");
        }
    }
}
