//! The batch model's building blocks with their backward passes: matmul,
//! linear, RMSNorm, GELU and dropout masks (f32, hand-written, no autograd).

use super::params::Rng;

/// `c[m,n] = beta*c + a[m,k] · b[k,n]` with explicit strides (row, col).
#[allow(clippy::too_many_arguments)]
pub(super) fn gemm(
    m: usize,
    k: usize,
    n: usize,
    a: &[f32],
    rsa: usize,
    csa: usize,
    b: &[f32],
    rsb: usize,
    csb: usize,
    beta: f32,
    c: &mut [f32],
) {
    debug_assert!(c.len() >= m * n);
    // SAFETY: the callers pass slices whose extents cover every index the
    // strides reach (checked by the debug assertions in tests).
    unsafe {
        matrixmultiply::sgemm(
            m,
            k,
            n,
            1.0,
            a.as_ptr(),
            rsa as isize,
            csa as isize,
            b.as_ptr(),
            rsb as isize,
            csb as isize,
            beta,
            c.as_mut_ptr(),
            n as isize,
            1,
        );
    }
}

/// y[N,out] = x[N,in] · Wᵀ
pub(super) fn linear(x: &[f32], w: &[f32], n: usize, din: usize, dout: usize, y: &mut [f32]) {
    gemm(n, din, dout, x, din, 1, w, 1, din, 0.0, y);
}

/// dx[N,in] (+)= dy[N,out] · W ; dW[out,in] += dyᵀ · x
#[allow(clippy::too_many_arguments)]
pub(super) fn linear_back(
    x: &[f32],
    w: &[f32],
    dy: &[f32],
    n: usize,
    din: usize,
    dout: usize,
    dx: &mut [f32],
    dx_beta: f32,
    dw: &mut [f32],
) {
    gemm(n, dout, din, dy, dout, 1, w, din, 1, dx_beta, dx);
    gemm(dout, n, din, dy, 1, dout, x, din, 1, 1.0, dw);
}

pub const EPS: f32 = 1e-5;

pub(super) fn rmsnorm(x: &[f32], g: &[f32], d: usize, y: &mut [f32], rstd: &mut [f32]) {
    for (i, (xr, yr)) in x.chunks_exact(d).zip(y.chunks_exact_mut(d)).enumerate() {
        let ms: f32 = xr.iter().map(|v| v * v).sum::<f32>() / d as f32;
        let r = 1.0 / (ms + EPS).sqrt();
        rstd[i] = r;
        for j in 0..d {
            yr[j] = xr[j] * r * g[j];
        }
    }
}

/// Accumulates into dx.
pub(super) fn rmsnorm_back(
    x: &[f32],
    g: &[f32],
    rstd: &[f32],
    dy: &[f32],
    d: usize,
    dx: &mut [f32],
    dg: &mut [f32],
) {
    for (i, ((xr, dyr), dxr)) in x
        .chunks_exact(d)
        .zip(dy.chunks_exact(d))
        .zip(dx.chunks_exact_mut(d))
        .enumerate()
    {
        let r = rstd[i];
        let mut dot = 0.0f32;
        for j in 0..d {
            let gy = dyr[j] * g[j];
            dot += gy * xr[j];
            dg[j] += dyr[j] * xr[j] * r;
        }
        let coef = r * r * r * dot / d as f32;
        for j in 0..d {
            dxr[j] += r * dyr[j] * g[j] - xr[j] * coef;
        }
    }
}

const GELU_C: f32 = 0.797_884_6; // sqrt(2/pi)

pub fn gelu(x: f32) -> f32 {
    0.5 * x * (1.0 + (GELU_C * (x + 0.044715 * x * x * x)).tanh())
}

pub(super) fn gelu_grad(x: f32) -> f32 {
    let u = GELU_C * (x + 0.044715 * x * x * x);
    let t = u.tanh();
    0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * GELU_C * (1.0 + 3.0 * 0.044715 * x * x)
}

/// Training-time dropout (GPT-2's three sites, one rate): the embedding sum,
/// the attention probabilities, and each residual branch's output (after
/// `attn_out` and after `mlp_down`). Kept values are scaled by `1/(1-p)`, so
/// inference (no dropout) needs no change. The masks depend only on `seed`
/// and the batch shape, so a step is reproducible and the backward pass sees
/// exactly the forward's masks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dropout {
    pub p: f32,
    pub seed: u64,
}

/// A dropout mask of `n` values, each `0` (probability `p`) or `1/(1-p)`.
pub(super) fn dropout_mask(rng: &mut Rng, n: usize, p: f32) -> Vec<f32> {
    let keep = 1.0 / (1.0 - p);
    let cut = (p as f64 * (1u64 << 32) as f64) as u64;
    (0..n)
        .map(|_| {
            if (rng.next_u64() >> 32) < cut {
                0.0
            } else {
                keep
            }
        })
        .collect()
}

/// `x += o ⊙ m` (a residual branch through its dropout mask).
pub(super) fn add_masked(x: &mut [f32], o: &[f32], m: &[f32]) {
    for ((xi, oi), mi) in x.iter_mut().zip(o).zip(m) {
        *xi += oi * mi;
    }
}

/// `dx ⊙ m` (the gradient into a masked branch).
pub(super) fn masked(dx: &[f32], m: &[f32]) -> Vec<f32> {
    dx.iter().zip(m).map(|(a, b)| a * b).collect()
}
