//! The trainer's model: the same decoder as `crate::model`, evaluated on a
//! whole batch at once with a hand-written backward pass (f32, no autograd).
//!
//! Every parameter lives in one flat vector so AdamW, clipping and
//! checkpoints are single loops; `Layout` names the slices. Matrices are
//! stored `[out, in]` row-major (PyTorch's convention), so a linear layer is
//! `y = x Wᵀ` and the safetensors names match what the inference code reads.

use crate::model::Config;

/// Where one named tensor sits in the flat parameter vector.
#[derive(Clone, Debug)]
pub struct Slot {
    pub name: String,
    pub shape: Vec<usize>,
    pub offset: usize,
    /// Matrices get weight decay; norm gains do not.
    pub decay: bool,
}

impl Slot {
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Offsets of each tensor; the order is also the safetensors order.
#[derive(Clone, Debug)]
pub struct Layout {
    pub slots: Vec<Slot>,
    pub total: usize,
}

impl Layout {
    pub fn new(c: &Config) -> Layout {
        let d = c.dim;
        let mut slots = Vec::new();
        let mut total = 0;
        let mut add = |name: String, shape: Vec<usize>, decay: bool| {
            let len: usize = shape.iter().product();
            slots.push(Slot {
                name,
                shape,
                offset: total,
                decay,
            });
            total += len;
        };
        add("tok_emb".into(), vec![c.vocab_size, d], true);
        add("pos_emb".into(), vec![c.seq_len, d], false);
        for l in 0..c.n_layers {
            add(format!("blocks.{l}.norm1"), vec![d], false);
            add(format!("blocks.{l}.attn_qkv"), vec![3 * d, d], true);
            add(format!("blocks.{l}.attn_out"), vec![d, d], true);
            add(format!("blocks.{l}.norm2"), vec![d], false);
            add(format!("blocks.{l}.mlp_up"), vec![4 * d, d], true);
            add(format!("blocks.{l}.mlp_down"), vec![d, 4 * d], true);
        }
        add("norm_f".into(), vec![d], false);
        Layout { slots, total }
    }

    pub fn get(&self, name: &str) -> &Slot {
        // Names are generated above; a miss is a programming error in this
        // train-only module.
        #[allow(clippy::expect_used)]
        self.slots
            .iter()
            .find(|s| s.name == name)
            .expect("known tensor name")
    }
}

/// Deterministic generator (SplitMix64) so a seed fixes init and batches.
#[derive(Clone)]
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn normal(&mut self) -> f32 {
        let u1 = self.uniform().max(1e-300);
        let u2 = self.uniform();
        ((-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()) as f32
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

pub fn init_params(c: &Config, layout: &Layout, seed: u64) -> Vec<f32> {
    let mut rng = Rng(seed);
    let mut p = vec![0.0f32; layout.total];
    let resid_scale = 1.0 / (2.0 * c.n_layers as f32).sqrt();
    for s in &layout.slots {
        let dst = &mut p[s.offset..s.offset + s.len()];
        if s.shape.len() == 1 {
            dst.fill(1.0);
            continue;
        }
        let mut std = 0.02;
        if s.name.ends_with("attn_out") || s.name.ends_with("mlp_down") {
            std *= resid_scale;
        }
        for v in dst.iter_mut() {
            *v = rng.normal() * std;
        }
    }
    p
}

/// `c[m,n] = beta*c + a[m,k] · b[k,n]` with explicit strides (row, col).
#[allow(clippy::too_many_arguments)]
fn gemm(
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
fn linear(x: &[f32], w: &[f32], n: usize, din: usize, dout: usize, y: &mut [f32]) {
    gemm(n, din, dout, x, din, 1, w, 1, din, 0.0, y);
}

/// dx[N,in] (+)= dy[N,out] · W ; dW[out,in] += dyᵀ · x
#[allow(clippy::too_many_arguments)]
fn linear_back(
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

fn rmsnorm(x: &[f32], g: &[f32], d: usize, y: &mut [f32], rstd: &mut [f32]) {
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
fn rmsnorm_back(
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

fn gelu_grad(x: f32) -> f32 {
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
fn dropout_mask(rng: &mut Rng, n: usize, p: f32) -> Vec<f32> {
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
fn add_masked(x: &mut [f32], o: &[f32], m: &[f32]) {
    for ((xi, oi), mi) in x.iter_mut().zip(o).zip(m) {
        *xi += oi * mi;
    }
}

/// `dx ⊙ m` (the gradient into a masked branch).
fn masked(dx: &[f32], m: &[f32]) -> Vec<f32> {
    dx.iter().zip(m).map(|(a, b)| a * b).collect()
}

/// Saved activations of one block.
#[derive(Default)]
struct BlockActs {
    x_in: Vec<f32>,
    n1: Vec<f32>,
    r1: Vec<f32>,
    qkv: Vec<f32>,
    att: Vec<f32>,
    ay: Vec<f32>,
    x_mid: Vec<f32>,
    n2: Vec<f32>,
    r2: Vec<f32>,
    h_pre: Vec<f32>,
    h_act: Vec<f32>,
    /// Dropout masks (empty without dropout): attention probabilities,
    /// attention branch, MLP branch.
    att_mask: Vec<f32>,
    m_attn: Vec<f32>,
    m_mlp: Vec<f32>,
}

/// Forward state for one batch, kept for the backward pass.
pub struct Acts {
    b: usize,
    t: usize,
    blocks: Vec<BlockActs>,
    x_f: Vec<f32>,
    n_f: Vec<f32>,
    r_f: Vec<f32>,
    /// Embedding dropout mask (empty without dropout).
    emb_mask: Vec<f32>,
    /// Softmax probabilities after `forward` (logits before the softmax).
    pub probs: Vec<f32>,
}

/// `mask` (empty: none) is the dropout mask over `att`'s layout; `att`
/// keeps the undropped probabilities for the backward pass.
#[allow(clippy::too_many_arguments)]
fn attention_forward_serial(
    qkv: &[f32],
    mask: &[f32],
    b: usize,
    t: usize,
    h: usize,
    d: usize,
    att: &mut [f32],
    y: &mut [f32],
) {
    let hd = d / h;
    let scale = 1.0 / (hd as f32).sqrt();
    for bi in 0..b {
        for hi in 0..h {
            for ti in 0..t {
                let q = &qkv[(bi * t + ti) * 3 * d + hi * hd..][..hd];
                let arow = &mut att[((bi * h + hi) * t + ti) * t..][..t];
                let mut max = f32::NEG_INFINITY;
                for si in 0..=ti {
                    let k = &qkv[(bi * t + si) * 3 * d + d + hi * hd..][..hd];
                    let s: f32 = q.iter().zip(k).map(|(a, c)| a * c).sum::<f32>() * scale;
                    arow[si] = s;
                    max = max.max(s);
                }
                let mut sum = 0.0;
                for v in arow[..=ti].iter_mut() {
                    *v = (*v - max).exp();
                    sum += *v;
                }
                for v in arow[..=ti].iter_mut() {
                    *v /= sum;
                }
                arow[ti + 1..].fill(0.0);
                let yrow = &mut y[(bi * t + ti) * d + hi * hd..][..hd];
                yrow.fill(0.0);
                let mrow = if mask.is_empty() {
                    &[][..]
                } else {
                    &mask[((bi * h + hi) * t + ti) * t..][..t]
                };
                for si in 0..=ti {
                    let p = if mrow.is_empty() {
                        arow[si]
                    } else {
                        arow[si] * mrow[si]
                    };
                    let v = &qkv[(bi * t + si) * 3 * d + 2 * d + hi * hd..][..hd];
                    for j in 0..hd {
                        yrow[j] += p * v[j];
                    }
                }
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn attention_backward_serial(
    qkv: &[f32],
    att: &[f32],
    mask: &[f32],
    dy: &[f32],
    b: usize,
    t: usize,
    h: usize,
    d: usize,
    dqkv: &mut [f32],
) {
    let hd = d / h;
    let scale = 1.0 / (hd as f32).sqrt();
    dqkv.fill(0.0);
    let mut dp = vec![0.0f32; t];
    for bi in 0..b {
        for hi in 0..h {
            for ti in 0..t {
                let arow = &att[((bi * h + hi) * t + ti) * t..][..t];
                let mrow = if mask.is_empty() {
                    &[][..]
                } else {
                    &mask[((bi * h + hi) * t + ti) * t..][..t]
                };
                let dyr = &dy[(bi * t + ti) * d + hi * hd..][..hd];
                let mut dot = 0.0f32;
                for si in 0..=ti {
                    let vo = (bi * t + si) * 3 * d + 2 * d + hi * hd;
                    let v = &qkv[vo..vo + hd];
                    let m = if mrow.is_empty() { 1.0 } else { mrow[si] };
                    let g: f32 = dyr.iter().zip(v).map(|(a, c)| a * c).sum::<f32>() * m;
                    dp[si] = g;
                    dot += g * arow[si];
                    let p = arow[si] * m;
                    let dv = &mut dqkv[vo..vo + hd];
                    for j in 0..hd {
                        dv[j] += p * dyr[j];
                    }
                }
                let qo = (bi * t + ti) * 3 * d + hi * hd;
                for si in 0..=ti {
                    let ds = arow[si] * (dp[si] - dot) * scale;
                    if ds == 0.0 {
                        continue;
                    }
                    let ko = (bi * t + si) * 3 * d + d + hi * hd;
                    for j in 0..hd {
                        let kj = qkv[ko + j];
                        let qj = qkv[qo + j];
                        dqkv[qo + j] += ds * kj;
                        dqkv[ko + j] += ds * qj;
                    }
                }
            }
        }
    }
}

/// Threads for the attention loops (the matmuls have their own pool).
const THREADS: usize = 2;

/// Sequences are independent in attention, so the batch is split across
/// threads; each thread owns whole sequences' rows of every buffer.
/// The dropout mask's share of thread `i` (empty stays empty).
fn mask_chunk(mask: &[f32], i: usize, per: usize) -> &[f32] {
    if mask.is_empty() {
        mask
    } else {
        &mask[(i * per).min(mask.len())..((i + 1) * per).min(mask.len())]
    }
}

#[allow(clippy::too_many_arguments)]
fn attention_forward(
    qkv: &[f32],
    mask: &[f32],
    b: usize,
    t: usize,
    h: usize,
    d: usize,
    att: &mut [f32],
    y: &mut [f32],
) {
    let per = b.div_ceil(THREADS).max(1);
    std::thread::scope(|sc| {
        for (i, ((q, a), yy)) in qkv
            .chunks(per * t * 3 * d)
            .zip(att.chunks_mut(per * h * t * t))
            .zip(y.chunks_mut(per * t * d))
            .enumerate()
        {
            let nb = q.len() / (t * 3 * d);
            let m = mask_chunk(mask, i, per * h * t * t);
            sc.spawn(move || attention_forward_serial(q, m, nb, t, h, d, a, yy));
        }
    });
}

#[allow(clippy::too_many_arguments)]
fn attention_backward(
    qkv: &[f32],
    att: &[f32],
    mask: &[f32],
    dy: &[f32],
    b: usize,
    t: usize,
    h: usize,
    d: usize,
    dqkv: &mut [f32],
) {
    let per = b.div_ceil(THREADS).max(1);
    std::thread::scope(|sc| {
        for (i, (((q, a), g), dq)) in qkv
            .chunks(per * t * 3 * d)
            .zip(att.chunks(per * h * t * t))
            .zip(dy.chunks(per * t * d))
            .zip(dqkv.chunks_mut(per * t * 3 * d))
            .enumerate()
        {
            let nb = q.len() / (t * 3 * d);
            let m = mask_chunk(mask, i, per * h * t * t);
            sc.spawn(move || attention_backward_serial(q, a, m, g, nb, t, h, d, dq));
        }
    });
}

/// The batch model: config + layout.
pub struct Net {
    pub c: Config,
    pub layout: Layout,
}

impl Net {
    pub fn new(c: Config) -> Net {
        let layout = Layout::new(&c);
        Net { c, layout }
    }

    fn p<'a>(&self, params: &'a [f32], name: &str) -> &'a [f32] {
        let s = self.layout.get(name);
        &params[s.offset..s.offset + s.len()]
    }

    /// Runs `b` sequences of length `t` (≤ context). Returns the activations;
    /// `acts.probs` holds the logits (call `loss_and_probs` to softmax them).
    pub fn forward(&self, params: &[f32], tokens: &[u32], b: usize, t: usize) -> Acts {
        self.forward_train(params, tokens, b, t, None)
    }

    /// `forward` with training-time dropout (`None`: exactly `forward`).
    pub fn forward_train(
        &self,
        params: &[f32],
        tokens: &[u32],
        b: usize,
        t: usize,
        dropout: Option<Dropout>,
    ) -> Acts {
        let c = &self.c;
        let drop = dropout.filter(|dr| dr.p > 0.0);
        let mut rng = Rng(drop.map_or(0, |dr| dr.seed));
        let mut mask = |n: usize| match drop {
            Some(dr) => dropout_mask(&mut rng, n, dr.p),
            None => Vec::new(),
        };
        let d = c.dim;
        let n = b * t;
        let tok = self.p(params, "tok_emb");
        let pos = self.p(params, "pos_emb");
        let mut x = vec![0.0f32; n * d];
        for bi in 0..b {
            for ti in 0..t {
                let id = tokens[bi * t + ti] as usize;
                let row = &mut x[(bi * t + ti) * d..][..d];
                for j in 0..d {
                    row[j] = tok[id * d + j] + pos[ti * d + j];
                }
            }
        }
        let emb_mask = mask(n * d);
        if !emb_mask.is_empty() {
            for (xi, mi) in x.iter_mut().zip(&emb_mask) {
                *xi *= mi;
            }
        }
        let mut blocks = Vec::with_capacity(c.n_layers);
        for l in 0..c.n_layers {
            let mut a = BlockActs {
                n1: vec![0.0; n * d],
                r1: vec![0.0; n],
                qkv: vec![0.0; n * 3 * d],
                att: vec![0.0; b * c.n_heads * t * t],
                ay: vec![0.0; n * d],
                n2: vec![0.0; n * d],
                r2: vec![0.0; n],
                h_pre: vec![0.0; n * 4 * d],
                att_mask: mask(b * c.n_heads * t * t),
                m_attn: mask(n * d),
                m_mlp: mask(n * d),
                ..Default::default()
            };
            rmsnorm(
                &x,
                self.p(params, &format!("blocks.{l}.norm1")),
                d,
                &mut a.n1,
                &mut a.r1,
            );
            linear(
                &a.n1,
                self.p(params, &format!("blocks.{l}.attn_qkv")),
                n,
                d,
                3 * d,
                &mut a.qkv,
            );
            attention_forward(
                &a.qkv,
                &a.att_mask,
                b,
                t,
                c.n_heads,
                d,
                &mut a.att,
                &mut a.ay,
            );
            let mut x_mid = x.clone();
            let w_out = self.p(params, &format!("blocks.{l}.attn_out"));
            if a.m_attn.is_empty() {
                gemm(n, d, d, &a.ay, d, 1, w_out, 1, d, 1.0, &mut x_mid);
            } else {
                let mut o = vec![0.0f32; n * d];
                linear(&a.ay, w_out, n, d, d, &mut o);
                add_masked(&mut x_mid, &o, &a.m_attn);
            }
            rmsnorm(
                &x_mid,
                self.p(params, &format!("blocks.{l}.norm2")),
                d,
                &mut a.n2,
                &mut a.r2,
            );
            linear(
                &a.n2,
                self.p(params, &format!("blocks.{l}.mlp_up")),
                n,
                d,
                4 * d,
                &mut a.h_pre,
            );
            a.h_act = a.h_pre.iter().map(|&v| gelu(v)).collect();
            let mut x_out = x_mid.clone();
            let w_down = self.p(params, &format!("blocks.{l}.mlp_down"));
            if a.m_mlp.is_empty() {
                gemm(
                    n,
                    4 * d,
                    d,
                    &a.h_act,
                    4 * d,
                    1,
                    w_down,
                    1,
                    4 * d,
                    1.0,
                    &mut x_out,
                );
            } else {
                let mut o = vec![0.0f32; n * d];
                linear(&a.h_act, w_down, n, 4 * d, d, &mut o);
                add_masked(&mut x_out, &o, &a.m_mlp);
            }
            a.x_in = std::mem::replace(&mut x, x_out);
            a.x_mid = x_mid;
            blocks.push(a);
        }
        let mut n_f = vec![0.0; n * d];
        let mut r_f = vec![0.0; n];
        rmsnorm(&x, self.p(params, "norm_f"), d, &mut n_f, &mut r_f);
        let mut logits = vec![0.0f32; n * c.vocab_size];
        linear(&n_f, tok, n, d, c.vocab_size, &mut logits);
        Acts {
            b,
            t,
            blocks,
            x_f: x,
            n_f,
            r_f,
            emb_mask,
            probs: logits,
        }
    }

    /// Softmax in place over `acts.probs`; returns the mean cross-entropy
    /// (nats/token) against `targets`.
    pub fn loss_and_probs(&self, acts: &mut Acts, targets: &[u32]) -> f32 {
        let v = self.c.vocab_size;
        let mut total = 0.0f64;
        for (row, &tg) in acts.probs.chunks_exact_mut(v).zip(targets) {
            let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let mut sum = 0.0f32;
            for x in row.iter_mut() {
                *x = (*x - max).exp();
                sum += *x;
            }
            let inv = 1.0 / sum;
            for x in row.iter_mut() {
                *x *= inv;
            }
            total -= (row[tg as usize].max(1e-30) as f64).ln();
        }
        (total / targets.len() as f64) as f32
    }

    /// Backward from `acts` (after `loss_and_probs`); writes gradients of the
    /// mean loss into `grads` (overwritten).
    pub fn backward(
        &self,
        params: &[f32],
        acts: &Acts,
        tokens: &[u32],
        targets: &[u32],
        grads: &mut [f32],
    ) {
        grads.fill(0.0);
        let c = &self.c;
        let d = c.dim;
        let (b, t) = (acts.b, acts.t);
        let n = b * t;
        let v = c.vocab_size;
        let inv_n = 1.0 / n as f32;
        let mut dlogits = acts.probs.clone();
        for (i, &tg) in targets.iter().enumerate() {
            dlogits[i * v + tg as usize] -= 1.0;
        }
        for x in dlogits.iter_mut() {
            *x *= inv_n;
        }
        let tok_slot = self.layout.get("tok_emb").clone();
        let tok = self.p(params, "tok_emb");
        let mut dn_f = vec![0.0f32; n * d];
        {
            let dtok = &mut grads[tok_slot.offset..tok_slot.offset + tok_slot.len()];
            linear_back(&acts.n_f, tok, &dlogits, n, d, v, &mut dn_f, 0.0, dtok);
        }
        drop(dlogits);
        let mut dx = vec![0.0f32; n * d];
        {
            let s = self.layout.get("norm_f");
            let (g, dg) = (
                self.p(params, "norm_f"),
                &mut grads[s.offset..s.offset + s.len()],
            );
            rmsnorm_back(&acts.x_f, g, &acts.r_f, &dn_f, d, &mut dx, dg);
        }
        let mut dbuf_d = vec![0.0f32; n * d];
        let mut dbuf_4d = vec![0.0f32; n * 4 * d];
        let mut dqkv = vec![0.0f32; n * 3 * d];
        for l in (0..c.n_layers).rev() {
            let a = &acts.blocks[l];
            let name = |s: &str| format!("blocks.{l}.{s}");
            // MLP: x_out = x_mid + down(gelu(up(norm2(x_mid))))
            {
                let s = self.layout.get(&name("mlp_down")).clone();
                let w = self.p(params, &name("mlp_down"));
                let d_o = if a.m_mlp.is_empty() {
                    None
                } else {
                    Some(masked(&dx, &a.m_mlp))
                };
                linear_back(
                    &a.h_act,
                    w,
                    d_o.as_deref().unwrap_or(&dx),
                    n,
                    4 * d,
                    d,
                    &mut dbuf_4d,
                    0.0,
                    &mut grads[s.offset..s.offset + s.len()],
                );
            }
            for (g, &hp) in dbuf_4d.iter_mut().zip(&a.h_pre) {
                *g *= gelu_grad(hp);
            }
            {
                let s = self.layout.get(&name("mlp_up")).clone();
                let w = self.p(params, &name("mlp_up"));
                linear_back(
                    &a.n2,
                    w,
                    &dbuf_4d,
                    n,
                    d,
                    4 * d,
                    &mut dbuf_d,
                    0.0,
                    &mut grads[s.offset..s.offset + s.len()],
                );
            }
            {
                let s = self.layout.get(&name("norm2")).clone();
                let g = self.p(params, &name("norm2"));
                rmsnorm_back(
                    &a.x_mid,
                    g,
                    &a.r2,
                    &dbuf_d,
                    d,
                    &mut dx,
                    &mut grads[s.offset..s.offset + s.len()],
                );
            }
            // Attention: x_mid = x_in + out(attn(qkv(norm1(x_in))))
            let mut day = vec![0.0f32; n * d];
            {
                let s = self.layout.get(&name("attn_out")).clone();
                let w = self.p(params, &name("attn_out"));
                let d_o = if a.m_attn.is_empty() {
                    None
                } else {
                    Some(masked(&dx, &a.m_attn))
                };
                linear_back(
                    &a.ay,
                    w,
                    d_o.as_deref().unwrap_or(&dx),
                    n,
                    d,
                    d,
                    &mut day,
                    0.0,
                    &mut grads[s.offset..s.offset + s.len()],
                );
            }
            attention_backward(
                &a.qkv,
                &a.att,
                &a.att_mask,
                &day,
                b,
                t,
                c.n_heads,
                d,
                &mut dqkv,
            );
            {
                let s = self.layout.get(&name("attn_qkv")).clone();
                let w = self.p(params, &name("attn_qkv"));
                linear_back(
                    &a.n1,
                    w,
                    &dqkv,
                    n,
                    d,
                    3 * d,
                    &mut dbuf_d,
                    0.0,
                    &mut grads[s.offset..s.offset + s.len()],
                );
            }
            {
                let s = self.layout.get(&name("norm1")).clone();
                let g = self.p(params, &name("norm1"));
                rmsnorm_back(
                    &a.x_in,
                    g,
                    &a.r1,
                    &dbuf_d,
                    d,
                    &mut dx,
                    &mut grads[s.offset..s.offset + s.len()],
                );
            }
        }
        // Embeddings (through their dropout mask).
        if !acts.emb_mask.is_empty() {
            for (g, m) in dx.iter_mut().zip(&acts.emb_mask) {
                *g *= m;
            }
        }
        let pos_slot = self.layout.get("pos_emb").clone();
        for bi in 0..b {
            for ti in 0..t {
                let id = tokens[bi * t + ti] as usize;
                let row = &dx[(bi * t + ti) * d..][..d];
                for j in 0..d {
                    grads[tok_slot.offset + id * d + j] += row[j];
                    grads[pos_slot.offset + ti * d + j] += row[j];
                }
            }
        }
    }
}

/// AdamW state and schedule.
pub struct Adam {
    pub m: Vec<f32>,
    pub v: Vec<f32>,
    pub step: u64,
}

impl Adam {
    pub fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            step: 0,
        }
    }

    pub fn update(&mut self, params: &mut [f32], grads: &[f32], layout: &Layout, lr: f32, wd: f32) {
        self.step += 1;
        let (b1, b2, eps) = (0.9f32, 0.95f32, 1e-8f32);
        let bc1 = 1.0 - b1.powi(self.step as i32);
        let bc2 = 1.0 - b2.powi(self.step as i32);
        for s in &layout.slots {
            let decay = if s.decay { wd } else { 0.0 };
            for i in s.offset..s.offset + s.len() {
                let g = grads[i];
                self.m[i] = b1 * self.m[i] + (1.0 - b1) * g;
                self.v[i] = b2 * self.v[i] + (1.0 - b2) * g * g;
                let mhat = self.m[i] / bc1;
                let vhat = self.v[i] / bc2;
                params[i] -= lr * (mhat / (vhat.sqrt() + eps) + decay * params[i]);
            }
        }
    }
}

/// Scales `grads` so their global L2 norm is at most `max`; returns the norm.
pub fn clip(grads: &mut [f32], max: f32) -> f32 {
    let norm = grads
        .iter()
        .map(|g| (*g as f64) * (*g as f64))
        .sum::<f64>()
        .sqrt() as f32;
    if norm > max {
        let s = max / norm;
        for g in grads.iter_mut() {
            *g *= s;
        }
    }
    norm
}
