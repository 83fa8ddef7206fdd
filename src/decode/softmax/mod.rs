//! The exponentials behind every probability: a float32 `exp` that vectorises, and the sums that
//! normalise a softmax. Kept apart because they are the hot loop of a 151,936-token step.
//!
//! Why not `f64::exp`: in wasm it is a software libm call (~20 ns). `exp_f32` is Cody–Waite range
//! reduction plus a degree-6 polynomial (relative error < 2e-7, about float32's own rounding), and
//! it is branch-free, so LLVM turns the contiguous loops into simd128. Sums accumulate in f64.

const LOG2_E: f32 = std::f32::consts::LOG2_E;
const LN2_HI: f32 = 0.693_145_75;
const LN2_LO: f32 = 1.428_606_8e-6;
/// Below this e^x is under float32's smallest normal; treated as 0 (no probability that small is
/// observable when sampling, and the flush keeps the bit trick below valid).
const EXP_MIN: f32 = -87.0;
const EXP_MAX: f32 = 88.0;
/// 1.5 · 2^23: adding it rounds to the nearest integer without a libm call.
const ROUND_MAGIC: f32 = 12_582_912.0;

/// e^x in float32, 0 for x < −87 (including −inf); x is at most 0 here in practice.
#[inline(always)]
pub(crate) fn exp_f32(x: f32) -> f32 {
    let clamped = x.clamp(EXP_MIN, EXP_MAX);
    let (shifted, e_r) = reduced(clamped);
    // 2^n from n's bits in `shifted` (1.5·2^23 + n, exact: |n| ≤ 127). Not `n as i32`: that
    // conversion saturates, x86 has no vector form of it, and LLVM fixed up every lane in scalar
    // code (the floor's pass took half as long again).
    let scale = f32::from_bits(
        shifted
            .to_bits()
            .wrapping_sub(ROUND_MAGIC.to_bits())
            .wrapping_add(127)
            << 23,
    );
    let value = e_r * scale;
    if x < EXP_MIN {
        0.0
    } else {
        value
    }
}

/// x = n·ln 2 + r with n the nearest integer to x·log2 e, as (1.5·2^23 + n, e^r): e^x = 2^n · e^r.
#[inline(always)]
fn reduced(clamped: f32) -> (f32, f32) {
    let shifted = clamped * LOG2_E + ROUND_MAGIC;
    let n = shifted - ROUND_MAGIC;
    let r = (clamped - n * LN2_HI) - n * LN2_LO;
    // Taylor/minimax coefficients for e^r on |r| ≤ ln2/2 (Cephes expf).
    let p = 1.987_569_2e-4_f32;
    let p = p * r + 1.398_199_9e-3;
    let p = p * r + 8.333_452e-3;
    let p = p * r + 4.166_579_6e-2;
    let p = p * r + 1.666_666_5e-1;
    let p = p * r + 0.5;
    (shifted, p * r * r + r + 1.0)
}

/// `x` raised to at least `floor`, as a comparison: `f32::max` is a libm call (`fmaxf`) in wasm,
/// because wasm's own `f32.max` treats NaN differently.
#[inline(always)]
pub(crate) fn above(x: f32, floor: f32) -> f32 {
    if x < floor {
        floor
    } else {
        x
    }
}

/// The larger of two floats as a comparison (see `above`).
#[inline(always)]
pub(crate) fn larger(a: f32, b: f32) -> f32 {
    if b > a {
        b
    } else {
        a
    }
}

/// `x` capped at 1 by a comparison (`f64::min` is a libm call, `fmin`, in wasm): cumulative
/// probabilities, once per listed candidate and stage.
#[inline(always)]
pub(crate) fn at_most_one(x: f64) -> f64 {
    if x > 1.0 {
        1.0
    } else {
        x
    }
}

/// Token `id`'s logit in `logits`, −inf past the end (an id no stage can keep: it weighs 0).
#[inline]
pub(crate) fn logit_of(logits: &[f32], id: u32) -> f32 {
    logits
        .get(id as usize)
        .copied()
        .unwrap_or(f32::NEG_INFINITY)
}

/// The unnormalised weight of a logit: e^((l − max)·inv_t), as f64 for summing.
#[inline(always)]
pub(crate) fn weight(l: f32, max: f32, inv_t: f32) -> f64 {
    f64::from(exp_f32((l - max) * inv_t))
}

/// Independent accumulators: float addition is not associative, so LLVM vectorises a reduction
/// only when the code itself keeps LANES separate sums (then one simd128 register holds four).
pub(crate) const LANES: usize = 8;

/// Sums `f(x)` over `xs` in float32 lanes, folding into f64 every block (accurate for 151k terms).
/// The normalisers' lanes and order: cached.rs sums remembered exps through it to get their bits.
#[inline(always)]
fn lane_sum<T: Copy>(xs: &[T], f: impl Fn(T) -> f32) -> f64 {
    xs.chunks(1024).fold(0.0f64, |total, block| {
        total + f64::from(lane_block(block, &f))
    })
}

/// One block of `lane_sum`: Σ f(x) in float32 lanes, the tail after them.
#[inline(always)]
pub(crate) fn lane_block<T: Copy>(block: &[T], f: impl Fn(T) -> f32) -> f32 {
    let mut acc = [0.0f32; LANES];
    let mut lanes = block.chunks_exact(LANES);
    for group in &mut lanes {
        for (a, &x) in acc.iter_mut().zip(group) {
            *a += f(x);
        }
    }
    let tail: f32 = lanes.remainder().iter().map(|&x| f(x)).sum();
    acc.iter().sum::<f32>() + tail
}

mod band;
mod blocks;
pub(crate) mod cached;
mod changed_blocks;
mod fused;
mod gather;
mod patched;
mod scan;
mod sums;

pub(crate) use band::exp_band;
pub(crate) use blocks::{blocks_touched, BlockSums};
pub(crate) use cached::Exps;
pub(crate) use fused::{
    final_weight, raw_and_blocks, raw_and_final, weights_keys_and_sums, weights_sums,
};
pub(crate) use gather::{gather_sum, gathered_max};
pub(crate) use patched::RawBlocks;
pub(crate) use scan::{lane_max, scan, scan_input, MAX_BLOCK};
pub(crate) use sums::{raw_and_tempered_blocks, raw_and_tempered_sums, raw_sums};

/// The final pass's contiguous case (no −inf entry): `out[i] = e^((l_i − max)·inv_t)` and Σ e·s
/// (s the scaled logit, the entropy's sum), in float32 lanes folded into f64 every block, as
/// sums.rs; branch-free, so it vectorises.
pub(crate) fn weights_into(processed: &[f32], max: f32, inv_t: f32, out: &mut [f64]) -> f64 {
    let mut total = 0.0f64;
    let term = |l: f32| {
        let s = above((l - max) * inv_t, EXP_MIN - 1.0);
        let e = exp_f32(s);
        (e, e * s)
    };
    for (block, slots) in processed.chunks(1024).zip(out.chunks_mut(1024)) {
        let mut acc = [0.0f32; LANES];
        let mut lanes = block.chunks_exact(LANES);
        let mut outs = slots.chunks_exact_mut(LANES);
        for (group, dst) in (&mut lanes).zip(&mut outs) {
            let mut es = [0.0f32; LANES];
            for ((a, e_out), &l) in acc.iter_mut().zip(es.iter_mut()).zip(group) {
                let (e, es) = term(l);
                *e_out = e;
                *a += es;
            }
            for (d, &e) in dst.iter_mut().zip(&es) {
                *d = f64::from(e);
            }
        }
        for (&l, d) in lanes.remainder().iter().zip(outs.into_remainder()) {
            let (e, es) = term(l);
            *d = f64::from(e);
            acc[0] += es;
        }
        total += f64::from(acc.iter().sum::<f32>());
    }
    total
}

/// One token's e·s in the entropy's sum Σ e·s: s = (l − max)·inv_t held at −88 (where e is 0),
/// so that a −inf logit adds 0 and not 0 · −inf = NaN. Every entropy sum adds this term.
#[inline(always)]
pub(crate) fn entropy_term(e: f32, l: f32, max: f32, inv_t: f32) -> f32 {
    e * above((l - max) * inv_t, EXP_MIN - 1.0)
}

/// Σ e·s over `ids` (or the whole array when None), e = e^s, s = (l − max)·inv_t: with z it
/// gives a distribution's entropy, H = ln z − Σ e·s / z, from the same float32 exps as its
/// weights. −inf entries add nothing.
pub(crate) fn entropy_sum(processed: &[f32], ids: Option<&[u32]>, max: f32, inv_t: f32) -> f64 {
    let term = |l: f32| {
        entropy_term(
            exp_f32(above((l - max) * inv_t, EXP_MIN - 1.0)),
            l,
            max,
            inv_t,
        )
    };
    match ids {
        None => entropy_blocks(processed, &units(processed.len()), |l, ()| term(l)),
        Some(ids) => gather::entropy_over(processed, None, ids, max, inv_t),
    }
}

/// A slice of `n` units for `entropy_blocks`' second column when a sum has only one (a vector
/// of a zero-sized type allocates nothing).
pub(crate) fn units(n: usize) -> Vec<()> {
    vec![(); n]
}

/// The entropy sums' lanes and order, shared by every function that must give the same bits
/// (`entropy_sum` here and its remembered-exps twin in cached.rs): Σ term(a_i, b_i) over the
/// pairs of two columns, in blocks of 64 (eight float32 lanes of eight terms, the block's tail
/// summed after them) folded into f64. The terms reach |e·s| ≈ 30, and longer float32 runs would
/// cost the entropy ~1e-5 nats on flat distributions.
#[inline(always)]
pub(crate) fn entropy_blocks<A: Copy, B: Copy>(
    a: &[A],
    b: &[B],
    term: impl Fn(A, B) -> f32,
) -> f64 {
    a.chunks(ENTROPY_BLOCK)
        .zip(b.chunks(ENTROPY_BLOCK))
        .fold(0.0f64, |total, (block, bblock)| {
            total + entropy_block(block, bblock, &term)
        })
}

/// `entropy_blocks`' block length.
pub(crate) const ENTROPY_BLOCK: usize = 64;

/// One block of `entropy_blocks` (at most `ENTROPY_BLOCK` pairs): its term of the f64 total.
#[inline(always)]
pub(crate) fn entropy_block<A: Copy, B: Copy>(
    block: &[A],
    bblock: &[B],
    term: impl Fn(A, B) -> f32,
) -> f64 {
    let mut acc = [0.0f32; LANES];
    let mut lanes = block.chunks_exact(LANES);
    let mut blanes = bblock.chunks_exact(LANES);
    for (group, bgroup) in (&mut lanes).zip(&mut blanes) {
        for ((acc, &x), &y) in acc.iter_mut().zip(group).zip(bgroup) {
            *acc += term(x, y);
        }
    }
    let tail: f32 = lanes
        .remainder()
        .iter()
        .zip(blanes.remainder())
        .map(|(&x, &y)| term(x, y))
        .sum();
    f64::from(acc.iter().sum::<f32>()) + f64::from(tail)
}

/// The runs of positions in `0..len` between `cuts` (ascending, each < `len`, each left out),
/// empty runs skipped: what a contiguous pass reads around a few removed ids.
pub(crate) fn runs_between(
    len: usize,
    cuts: &[usize],
) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
    let ends = cuts.iter().copied().chain(std::iter::once(len));
    let starts = std::iter::once(0).chain(cuts.iter().map(|&c| c + 1));
    starts.zip(ends).filter(|(a, b)| a < b).map(|(a, b)| a..b)
}

/// Σ e^((l − max)·inv_t) over a whole contiguous array (−inf entries give 0).
pub(crate) fn sum_weights_all(processed: &[f32], max: f32, inv_t: f32) -> f64 {
    lane_sum(processed, |l| exp_f32((l - max) * inv_t))
}

/// Σ e^((l − max)·inv_t) over the ids in `ids` (a gather: loads are scalar, the exps are not).
pub(crate) fn sum_weights(processed: &[f32], ids: &[u32], max: f32, inv_t: f32) -> f64 {
    gather_sum::<false>(processed, ids, max, inv_t, &mut [])
}

/// ln Σ e^l over finite logits in one fused pass: the benchmark's floor, the least work an exact
/// softmax over the whole vocabulary must do. Block-wise online max, so it vectorises: each block's
/// max is found, the running sum rescaled if the max grew, then the block's exps summed.
pub fn log_sum_exp(logits: &[f32]) -> f64 {
    let mut max = f32::NEG_INFINITY;
    let mut sum = 0.0f64;
    for block in logits.chunks(1024) {
        let (block_max, _) = scan(block);
        if block_max > max {
            if max != f32::NEG_INFINITY {
                sum *= f64::from(exp_f32(max - block_max));
            }
            max = block_max;
        }
        let m = max;
        sum += lane_sum(block, |l| exp_f32(l - m));
    }
    f64::from(max) + sum.ln()
}

/// [`log_sum_exp`] for callers outside the core (the wasm `logSumExp`): the logits are checked as
/// `step` checks them (non-empty, at most `MAX_LOGITS`, no NaN or +inf), so the answer is never a
/// silent NaN or −inf.
///
/// # Errors
/// `EmptyLogits`, `TooManyLogits`, `BadLogit` or `AllNegativeInfinity`, as `step` words them.
pub fn checked_log_sum_exp(logits: &[f32]) -> Result<f64, super::StepError> {
    use super::StepError;
    if logits.is_empty() {
        return Err(StepError::EmptyLogits);
    }
    if logits.len() > super::limits::MAX_LOGITS {
        return Err(StepError::TooManyLogits { len: logits.len() });
    }
    if let Some(index) = logits
        .iter()
        .position(|l| l.is_nan() || *l == f32::INFINITY)
    {
        return Err(StepError::BadLogit {
            index,
            value: logits.get(index).copied().unwrap_or(f32::NAN),
        });
    }
    if logits.iter().all(|l| *l == f32::NEG_INFINITY) {
        return Err(StepError::AllNegativeInfinity);
    }
    Ok(log_sum_exp(logits))
}

#[cfg(test)]
mod tests;
