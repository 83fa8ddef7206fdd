//! llama.cpp's dynamic temperature (`dynatemp_range`): the temperature follows the entropy H of
//! the current candidates, normalised by its largest value ln N (temperature.rs picks T from it).
//!
//! The normalised entropy is defined as the f64 loop `−Σ p ln p` (p = e / z, one `ln` per token)
//! rounded to float32; that float32 sets T, so it must never change. The `ln` per token is a
//! libm call (in wasm ~20 ns), so the value is first computed without it — H = (A·ln z − C) / z
//! with A = Σ e and C = Σ e·ln e, ln e from e's float32 bits by a series (ln_of_weight) — along
//! with a bound on its distance from the loop's result. When both ends of that interval round to
//! the same float32, so does the loop's result (the division and the rounding are monotone);
//! otherwise the loop runs. The bound: the series' truncation (< 2e-11 per unit of weight) and
//! both sums' rounding (< n·ε·H each, ε = f64::EPSILON), doubled.

use super::super::candidates::Work;
use super::super::softmax::{exp_f32, logit_of, weight};

/// The entropy of the kept tokens divided by ln N, as float32 (N = kept tokens, at least 2).
pub(crate) fn normalised_entropy(work: &mut Work) -> f32 {
    let (z, max) = work.normaliser();
    let max_entropy = (work.kept.len() as f64).ln();
    by_sums(work, z, max, max_entropy)
        .unwrap_or_else(|| (entropy_by_loop(work, z, max) / max_entropy) as f32)
}

/// The loop's float32 from Σ e and Σ e·ln e, or None when the bound does not decide it.
fn by_sums(work: &Work, z: f64, max: f32, max_entropy: f64) -> Option<f32> {
    let n = work.kept.len();
    let inv_t = work.inv_t;
    let whole = work.all_kept && work.input_removed == 0;
    let ids = (!whole).then_some(work.kept.as_slice());
    // The exps its normaliser's pass remembered (softmax/cached.rs), else computed here.
    let cached = work.exps.hit(max, inv_t, whole);
    let (a, c) = weight_sums(&work.processed, ids, max, inv_t, cached);
    let h = (z.ln() * a - c) / z;
    let margin = 4.0 * n as f64 * f64::EPSILON * (h.abs() + 1.0) + 1e-10 * (a / z + 1.0);
    let low = ((h - margin) / max_entropy) as f32;
    let high = ((h + margin) / max_entropy) as f32;
    (low == high && h.is_finite()).then_some(low)
}

/// −Σ p ln p over the kept tokens, p = e / z: the definition, one `ln` per token.
fn entropy_by_loop(work: &Work, z: f64, max: f32) -> f64 {
    let mut entropy = 0.0f64;
    for &id in &work.kept {
        if let Some(&l) = work.processed.get(id as usize) {
            let p = weight(l, max, work.inv_t) / z;
            if p > 0.0 {
                entropy -= p * p.ln();
            }
        }
    }
    entropy
}

/// Σ e and Σ e·ln e over `ids` of `processed` (all of it when None), e = exp_f32((l − max)·inv_t)
/// (or remembered in `cached`, per id): the weights go through [`Lanes`] a block at a time.
fn weight_sums(
    processed: &[f32],
    ids: Option<&[u32]>,
    max: f32,
    inv_t: f32,
    cached: Option<&[f32]>,
) -> (f64, f64) {
    let mut lanes = Lanes::new();
    let mut block = [0.0f32; BLOCK];
    let remembered = |id: u32| {
        cached
            .and_then(|e| e.get(id as usize))
            .copied()
            .unwrap_or(0.0)
    };
    match (ids, cached) {
        (None, None) => {
            for logits in processed.chunks(BLOCK) {
                for (slot, &l) in block.iter_mut().zip(logits) {
                    *slot = exp_f32((l - max) * inv_t);
                }
                lanes.add(block.get(..logits.len()).unwrap_or_default());
            }
        }
        (None, Some(e)) => {
            for weights in e.get(..processed.len()).unwrap_or_default().chunks(BLOCK) {
                lanes.add(weights);
            }
        }
        (Some(ids), _) => {
            for ids in ids.chunks(BLOCK) {
                for (slot, &id) in block.iter_mut().zip(ids) {
                    *slot = match cached {
                        Some(_) => remembered(id),
                        None => exp_f32((logit_of(processed, id) - max) * inv_t),
                    };
                }
                lanes.add(block.get(..ids.len()).unwrap_or_default());
            }
        }
    }
    (lanes.a.iter().sum(), lanes.c.iter().sum())
}

/// Weights per block of [`Lanes::add`] (a multiple of eight).
const BLOCK: usize = 256;

/// Σ e and Σ e·ln e in eight f64 lanes (the n-th weight of the stream into lane n mod 8).
struct Lanes {
    a: [f64; 8],
    c: [f64; 8],
    /// ln e of the block being added: computed in a loop of its own, which LLVM vectorises
    /// (two f64 per SSE2 / simd128 register); inside the lanes' loop it stayed scalar.
    ln: [f64; BLOCK],
}

impl Lanes {
    fn new() -> Self {
        Lanes {
            a: [0.0; 8],
            c: [0.0; 8],
            ln: [0.0; BLOCK],
        }
    }

    /// Adds up to BLOCK weights; only the stream's last block may have a length that is not a
    /// multiple of eight (its missing weights count as 0, which adds 0 · ln 0 = 0).
    fn add(&mut self, weights: &[f32]) {
        for (ln, &e) in self.ln.iter_mut().zip(weights) {
            *ln = ln_of_weight(e);
        }
        let mut groups = weights.chunks_exact(8);
        let mut lns = self.ln.chunks_exact(8);
        for (group, ln) in (&mut groups).zip(&mut lns) {
            for (((a, c), &e), &ln) in self.a.iter_mut().zip(self.c.iter_mut()).zip(group).zip(ln) {
                *a += f64::from(e);
                *c += f64::from(e) * ln;
            }
        }
        let rest = groups.remainder();
        let rest_ln = self
            .ln
            .get(weights.len() - rest.len()..)
            .unwrap_or_default();
        for (((a, c), &e), &ln) in self
            .a
            .iter_mut()
            .zip(self.c.iter_mut())
            .zip(rest)
            .zip(rest_ln)
        {
            *a += f64::from(e);
            *c += f64::from(e) * ln;
        }
    }
}

/// ln e for a float32 weight in [0, 1] (0 gives a finite −88.03, so 0 · ln e stays 0), within
/// 2e-11 of the true value for every normal e: e = m·2^k with m in [√½, √2), and
/// ln m = 2·atanh(u) = 2(u + u³/3 + … + u¹¹/11), u = (m − 1)/(m + 1), |u| ≤ 0.1716 (the next
/// term, 2u¹³/13, is below 1.8e-11). k and m come from e's bits offset by √½'s (as musl's logf
/// does), integer operations without a branch or a select, so the loop over a group vectorises.
#[inline(always)]
pub(crate) fn ln_of_weight(e: f32) -> f64 {
    const SQRT_HALF: i32 = 0x3f35_04f3;
    let offset = (e.to_bits() as i32).wrapping_sub(SQRT_HALF);
    let k = offset >> 23;
    let m = f64::from(f32::from_bits(((offset & 0x007f_ffff) + SQRT_HALF) as u32));
    let u = (m - 1.0) / (m + 1.0);
    let u2 = u * u;
    let series = ((((u2 * (1.0 / 11.0) + 1.0 / 9.0) * u2 + 1.0 / 7.0) * u2 + 1.0 / 5.0) * u2
        + 1.0 / 3.0)
        * u2
        + 1.0;
    2.0 * u * series + f64::from(k) * std::f64::consts::LN_2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln_of_weight_is_within_its_bound_of_ln() {
        let mut worst = 0.0f64;
        let mut x = 1.0f32;
        while x > 1e-37 {
            for y in [x, x.next_down(), x * 0.707, x * 0.708, x * 0.9] {
                let err = (ln_of_weight(y) - f64::from(y).ln()).abs();
                worst = worst.max(err);
            }
            x *= 0.93;
        }
        assert!(worst < 2e-11, "worst {worst}");
        assert_eq!(0.0 * ln_of_weight(0.0), 0.0);
    }

    /// The float32 the temperature is picked from is the loop's, on peaked, flat, tied and
    /// quantised logits at several scales, kept in full or in part.
    #[test]
    fn the_normalised_entropy_is_the_loops() {
        let mut state = 0x9e37_79b9u32;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            f64::from(state) / 4_294_967_296.0
        };
        let mut work = Work::default();
        let mut fast = 0;
        for case in 0..300 {
            let n = [2usize, 3, 17, 1000, 5003][case % 5];
            let spread = [0.01, 0.5, 2.5, 8.0, 40.0][(case / 5) % 5];
            let logits: Vec<f32> = (0..n)
                .map(|i| match case % 3 {
                    0 => (spread * (next() - 0.5)) as f32,
                    1 => ((i * 37 + case) % 9) as f32 * spread as f32,
                    _ => (spread * next().powi(6)) as f32,
                })
                .collect();
            let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            work.reset(&logits, max);
            work.inv_t = [1.0, 0.8, 1.7][case % 3];
            if case % 4 == 1 {
                work.retain(1, |id| id % 3 != 1);
            }
            if work.kept.len() < 2 {
                continue;
            }
            let (z, m) = work.normaliser();
            let want = (entropy_by_loop(&work, z, m) / (work.kept.len() as f64).ln()) as f32;
            let got = normalised_entropy(&mut work);
            assert_eq!(got.to_bits(), want.to_bits(), "case {case}");
            let ln_n = (work.kept.len() as f64).ln();
            fast += usize::from(by_sums(&work, z, m, ln_n).is_some());
        }
        assert!(fast > 200, "the bound decided only {fast} of 300");
    }
}
