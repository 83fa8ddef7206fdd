//! top-p (核采样, nucleus) p in [0, 1]; 1 = off. Keeps the smallest set of most likely tokens
//! whose mass reaches p: a token is kept if and only if the mass ranked strictly above it is < p,
//! so the token that crosses p is kept, and exact equality removes (HF logits_process.py
//! `cumsum <= 1 - top_p`; llama.cpp's descending running sum gives the same rule). p = 0 keeps
//! one token (vLLM rejects 0: config). Applies to the current, renormalised distribution.
//!
//! The walk extends a sorted prefix block by block, so a peaked distribution sorts only its head.
//! When many tokens survive the pre-filter (an open context, T > 1, p near 1), top_p_head.rs
//! bounds where the mass crosses p by counting the head in logit buckets, and only the tokens in
//! that bucket and above are sorted and walked: the same walk over the same order, so the same
//! sums and the same cut, bit for bit.

use super::super::candidates::{by_logit, extend_sorted, Work};
use super::super::config::Settings;
use super::super::draw::key_id;
use super::super::softmax::{logit_of, weight};
use super::top_p_head::{through_crossing_bucket, walk_keys};
use super::Applied;

/// Below this many candidates the pre-filter costs more than it saves.
const PREFILTER_MIN: usize = 1024;
/// Above this many pre-filtered candidates the crossing is located by buckets before sorting
/// (top_p_head.rs). Measured on flat logits: at 8,000 and 32,000 tokens the buckets from 2,048
/// on take the step from ~10× the floor to ~5×; at 512 they cost more than the selections.
const BUCKET_MIN: usize = 2048;
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

/// Top-p over the pre-filtered head alone (`ids` and their `logits`, in id order): keeps the
/// walk's cut and returns the kept mass, or None when rounding made the head fall short (then the
/// caller walks every kept token).
fn keep_by_head(
    work: &mut Work,
    (ids, logits): (&mut [u32], &[f32]),
    (max, cut, inv_t): (f32, f32, f32),
    target: f64,
    stage: u8,
) -> Option<f64> {
    if ids.len() > BUCKET_MIN {
        let mut buf = std::mem::take(&mut work.top_p_head);
        buf.at = None;
        let mut kept = None;
        if through_crossing_bucket(ids, logits, (max, cut, inv_t), target, &mut buf).is_some() {
            let mut walked = (
                std::mem::take(&mut buf.logits),
                std::mem::take(&mut buf.weights),
            );
            walked.0.clear();
            walked.1.clear();
            let (keep, mass) = walk_keys(&buf.keys, (0, 0.0), max, inv_t, target, &mut walked);
            (buf.logits, buf.weights) = walked;
            if mass >= target {
                buf.prefix.clear();
                buf.prefix
                    .extend(buf.keys.iter().take(keep).map(|&k| key_id(k)));
                work.keep_exactly(stage, &buf.prefix, false, |_, _| false);
                buf.logits.truncate(keep);
                buf.weights.truncate(keep);
                buf.at = Some((max.to_bits(), inv_t.to_bits()));
                kept = Some(mass);
            }
        }
        work.top_p_head = buf;
        if kept.is_some() {
            return kept;
        }
    }
    let w = walk(ids, 0, &work.processed, max, inv_t, target, 1);
    if !ids.is_empty() && (w.mass >= target || w.keep < ids.len()) {
        work.keep_exactly(
            stage,
            ids.get(..w.keep).unwrap_or_default(),
            false,
            |_, _| false,
        );
        return Some(w.mass);
    }
    None
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
        let (mut ids, mut logits) = (
            std::mem::take(&mut work.above),
            std::mem::take(&mut work.above_logits),
        );
        let count = work.candidates_above_into(cut, &mut ids, &mut logits);
        let head = (
            ids.get_mut(..count).unwrap_or_default(),
            logits.get(..count).unwrap_or_default(),
        );
        let kept = keep_by_head(work, head, (max, cut as f32, inv_t), target, stage);
        (work.above, work.above_logits) = (ids, logits);
        if let Some(mass) = kept {
            return Applied {
                value,
                threshold: Some((mass / z).min(1.0)),
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
    use super::super::super::{Decoder, Engine};
    use super::{by_logit, logit_of, weight, BUCKET_MIN};

    /// top_p = 0 keeps one token (the best, ties by lower id) however many tie with it: at
    /// 151,936 with a third of the vocabulary at the max, the bucket path once kept none and the
    /// step was refused ("top_p must leave at least one token").
    #[test]
    fn top_p_zero_keeps_the_best_among_many_ties() {
        let logits: Vec<f32> = (0..151_936).map(|i| (i % 3) as f32 - 1.0).collect();
        for engine in [Engine::Hf, Engine::LlamaCpp] {
            let config = Config {
                engine: Some(engine),
                top_p: Some(0.0),
                seed: Some(1),
                ..Config::default()
            };
            let trace = Decoder::default().step(&logits, &config).unwrap();
            assert_eq!(trace.token, 2, "{engine:?}");
            let stage = trace.stages.iter().find(|s| s.name == "top_p").unwrap();
            assert_eq!(stage.kept_count, 1, "{engine:?}");
        }
    }

    /// On flat distributions large enough for the bucket path, the kept list is the naive one:
    /// every token sorted by (logit desc, id asc), walked until the mass reaches p·z, in order.
    #[test]
    fn the_bucket_path_keeps_what_a_full_sort_and_walk_keeps() {
        let mut next = super::super::test_uniforms(0x2468_ace1u32);
        for (n, t, p, quantum, top) in [
            (151_936usize, 1.3f32, 0.95f64, 0.0f32, 18.0f32),
            (120_000, 2.0, 0.9, 0.25, 18.0), // many exact ties
            (100_000, 1.6, 0.99, 0.0, 18.0),
            // An open context at T 0.8: the crossing high in a head of ~20,000, so few of the
            // head are sorted (the key pass passes over groups holding none of them).
            (151_936, 0.8, 0.95, 0.0, 14.0),
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
                logits[(i * 7919) % n] = top - 0.4 * i as f32;
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
