//! The tiny decoder-only transformer the page runs: configuration, weights
//! loaded from safetensors, and a one-token-at-a-time forward pass with a
//! KV cache, the same code natively and in wasm.
//!
//! Architecture (GPT-style, pre-norm): token + learned position embeddings;
//! per block `x += out(attn(qkv(rms(x))))`, `x += down(gelu(up(rms(x))))`;
//! a final RMSNorm; logits from the tied token embedding. Linear weights are
//! `[out, in]`, no biases. The trainer (`train::nn`) implements the same
//! function for whole batches; `tests/model.rs` compares the two.

mod safetensors;

pub use safetensors::{f16_to_f32, Dtype, LoadError, SafeTensors};

use safetensors::tensor_err;

/// Shape of the model. Stored in the safetensors metadata.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    pub vocab_size: usize,
    pub d_model: usize,
    pub n_layer: usize,
    pub n_head: usize,
    /// Longest sequence the position table covers (tokens).
    pub context: usize,
}

/// RMSNorm epsilon, shared with the trainer.
pub const EPS: f32 = 1e-5;

/// Why a forward step was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ForwardError {
    /// The token id is not in `0..vocab_size`.
    TokenOutOfRange { token: u32, vocab_size: usize },
    /// The cache already holds `context` positions.
    ContextFull { context: usize },
}

impl std::fmt::Display for ForwardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ForwardError::TokenOutOfRange { token, vocab_size } => {
                write!(
                    f,
                    "token {token} is outside the vocabulary (0..{vocab_size})"
                )
            }
            ForwardError::ContextFull { context } => {
                write!(f, "the context is full ({context} tokens)")
            }
        }
    }
}

impl std::error::Error for ForwardError {}

struct Block {
    norm1: Vec<f32>,
    attn_qkv: Vec<f32>,
    attn_out: Vec<f32>,
    norm2: Vec<f32>,
    mlp_up: Vec<f32>,
    mlp_down: Vec<f32>,
}

/// Loaded weights (dequantised to f32 once, at load).
pub struct Model {
    config: Config,
    tok_emb: Vec<f32>,
    pos_emb: Vec<f32>,
    blocks: Vec<Block>,
    norm_f: Vec<f32>,
}

/// Keys and values of every position so far, per layer; each new token
/// costs one position. `truncate` makes rewinding exact.
#[derive(Clone, Debug)]
pub struct Cache {
    k: Vec<Vec<f32>>,
    v: Vec<Vec<f32>>,
    len: usize,
}

impl Cache {
    /// Positions held.
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Forgets positions `n..`; later steps overwrite them.
    pub fn truncate(&mut self, n: usize) {
        self.len = self.len.min(n);
    }
}

fn meta_usize(st: &SafeTensors, field: &str, max: usize) -> Result<usize, LoadError> {
    let bad = |problem: String| LoadError::Metadata {
        field: field.to_owned(),
        problem,
    };
    let s = st.metadata(field).ok_or_else(|| bad("missing".into()))?;
    let v: usize = s
        .parse()
        .map_err(|_| bad(format!("{s:?} is not an integer")))?;
    if v == 0 || v > max {
        return Err(bad(format!("{v} is outside 1..={max}")));
    }
    Ok(v)
}

/// Reads `name` as f32 with the given shape; I8 tensors need a per-row
/// `name.scale` F32 tensor (w = q · scale).
fn load(st: &SafeTensors, name: &str, shape: &[usize]) -> Result<Vec<f32>, LoadError> {
    let t = st.tensor(name)?;
    if t.shape != shape {
        return Err(tensor_err(
            name,
            format!("shape {:?}, expected {shape:?}", t.shape),
        ));
    }
    let mut v = t.to_f32();
    if t.dtype == Dtype::I8 {
        let scale_name = format!("{name}.scale");
        let s = st.tensor(&scale_name)?;
        let rows = shape.first().copied().unwrap_or(1);
        if s.shape != [rows] || s.dtype == Dtype::I8 {
            return Err(tensor_err(
                &scale_name,
                format!("must be a float vector of length {rows}"),
            ));
        }
        let scales = s.to_f32();
        let cols = v.len() / rows.max(1);
        for (row, sc) in v.chunks_exact_mut(cols.max(1)).zip(scales) {
            for x in row {
                *x *= sc;
            }
        }
    }
    Ok(v)
}

impl Model {
    /// Loads the shipped safetensors bytes.
    pub fn from_safetensors(bytes: &[u8]) -> Result<Model, LoadError> {
        let st = SafeTensors::parse(bytes)?;
        let config = Config {
            vocab_size: meta_usize(&st, "vocab_size", 1 << 20)?,
            d_model: meta_usize(&st, "d_model", 4096)?,
            n_layer: meta_usize(&st, "n_layer", 64)?,
            n_head: meta_usize(&st, "n_head", 64)?,
            context: meta_usize(&st, "context", 1 << 16)?,
        };
        if config.d_model % config.n_head != 0 {
            return Err(LoadError::Metadata {
                field: "n_head".into(),
                problem: format!(
                    "{} does not divide d_model {}",
                    config.n_head, config.d_model
                ),
            });
        }
        let d = config.d_model;
        let mut blocks = Vec::with_capacity(config.n_layer);
        for l in 0..config.n_layer {
            let n = |s: &str| format!("blocks.{l}.{s}");
            blocks.push(Block {
                norm1: load(&st, &n("norm1"), &[d])?,
                attn_qkv: load(&st, &n("attn_qkv"), &[3 * d, d])?,
                attn_out: load(&st, &n("attn_out"), &[d, d])?,
                norm2: load(&st, &n("norm2"), &[d])?,
                mlp_up: load(&st, &n("mlp_up"), &[4 * d, d])?,
                mlp_down: load(&st, &n("mlp_down"), &[d, 4 * d])?,
            });
        }
        Ok(Model {
            tok_emb: load(&st, "tok_emb", &[config.vocab_size, d])?,
            pos_emb: load(&st, "pos_emb", &[config.context, d])?,
            norm_f: load(&st, "norm_f", &[d])?,
            blocks,
            config,
        })
    }

    pub fn config(&self) -> Config {
        self.config
    }

    /// Total number of parameters.
    pub fn param_count(&self) -> usize {
        let per_block: usize = self
            .blocks
            .first()
            .map(|b| {
                b.norm1.len()
                    + b.attn_qkv.len()
                    + b.attn_out.len()
                    + b.norm2.len()
                    + b.mlp_up.len()
                    + b.mlp_down.len()
            })
            .unwrap_or(0);
        self.tok_emb.len() + self.pos_emb.len() + self.norm_f.len() + per_block * self.blocks.len()
    }

    pub fn new_cache(&self) -> Cache {
        let n = self.config.context * self.config.d_model;
        Cache {
            k: vec![vec![0.0; n]; self.config.n_layer],
            v: vec![vec![0.0; n]; self.config.n_layer],
            len: 0,
        }
    }

    /// Feeds one token at position `cache.len()` and writes the next-token
    /// logits into `logits` (length `vocab_size`).
    pub fn forward(
        &self,
        token: u32,
        cache: &mut Cache,
        logits: &mut [f32],
    ) -> Result<(), ForwardError> {
        let c = &self.config;
        if token as usize >= c.vocab_size {
            return Err(ForwardError::TokenOutOfRange {
                token,
                vocab_size: c.vocab_size,
            });
        }
        let pos = cache.len;
        if pos >= c.context {
            return Err(ForwardError::ContextFull { context: c.context });
        }
        let d = c.d_model;
        let hd = d / c.n_head;
        let scale = 1.0 / (hd as f32).sqrt();
        let t = token as usize;
        let mut x: Vec<f32> = (0..d)
            .map(|j| self.tok_emb[t * d + j] + self.pos_emb[pos * d + j])
            .collect();
        let mut n = vec![0.0; d];
        let mut qkv = vec![0.0; 3 * d];
        let mut y = vec![0.0; d];
        let mut o = vec![0.0; d];
        let mut h = vec![0.0; 4 * d];
        let mut att = vec![0.0; pos + 1];
        for (l, b) in self.blocks.iter().enumerate() {
            rmsnorm(&x, &b.norm1, &mut n);
            matvec(&b.attn_qkv, &n, &mut qkv);
            cache.k[l][pos * d..(pos + 1) * d].copy_from_slice(&qkv[d..2 * d]);
            cache.v[l][pos * d..(pos + 1) * d].copy_from_slice(&qkv[2 * d..]);
            let (kc, vc) = (&cache.k[l], &cache.v[l]);
            for hi in 0..c.n_head {
                let q = &qkv[hi * hd..(hi + 1) * hd];
                let mut max = f32::NEG_INFINITY;
                for (s, a) in att.iter_mut().enumerate() {
                    *a = dot(q, &kc[s * d + hi * hd..s * d + (hi + 1) * hd]) * scale;
                    max = max.max(*a);
                }
                let mut sum = 0.0;
                for a in att.iter_mut() {
                    *a = (*a - max).exp();
                    sum += *a;
                }
                let yh = &mut y[hi * hd..(hi + 1) * hd];
                yh.fill(0.0);
                for (s, a) in att.iter().enumerate() {
                    let p = a / sum;
                    for (yj, vj) in yh
                        .iter_mut()
                        .zip(&vc[s * d + hi * hd..s * d + (hi + 1) * hd])
                    {
                        *yj += p * vj;
                    }
                }
            }
            matvec(&b.attn_out, &y, &mut o);
            for (xi, oi) in x.iter_mut().zip(&o) {
                *xi += oi;
            }
            rmsnorm(&x, &b.norm2, &mut n);
            matvec(&b.mlp_up, &n, &mut h);
            for v in h.iter_mut() {
                *v = gelu(*v);
            }
            matvec(&b.mlp_down, &h, &mut o);
            for (xi, oi) in x.iter_mut().zip(&o) {
                *xi += oi;
            }
        }
        rmsnorm(&x, &self.norm_f, &mut n);
        let v = c.vocab_size.min(logits.len());
        matvec(&self.tok_emb[..v * d], &n, &mut logits[..v]);
        cache.len = pos + 1;
        Ok(())
    }
}

fn rmsnorm(x: &[f32], g: &[f32], out: &mut [f32]) {
    let ms: f32 = x.iter().map(|v| v * v).sum::<f32>() / x.len() as f32;
    let r = 1.0 / (ms + EPS).sqrt();
    for ((o, xi), gi) in out.iter_mut().zip(x).zip(g) {
        *o = xi * r * gi;
    }
}

/// tanh-approximated GELU (as GPT-2 and the trainer).
pub fn gelu(x: f32) -> f32 {
    const C: f32 = 0.797_884_6; // sqrt(2/pi)
    0.5 * x * (1.0 + (C * (x + 0.044715 * x * x * x)).tanh())
}

/// out[o] = W[o, :] · x for W stored `[out, in]` row-major.
fn matvec(w: &[f32], x: &[f32], out: &mut [f32]) {
    let cols = x.len();
    for (o, row) in out.iter_mut().zip(w.chunks_exact(cols)) {
        *o = dot(row, x);
    }
}

/// Dot product with eight independent accumulators, so the compiler can
/// vectorise it (f32 addition is not associative, one accumulator cannot be).
#[inline]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0.0f32; 8];
    let ca = a.chunks_exact(8);
    let cb = b.chunks_exact(8);
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for i in 0..8 {
            acc[i] += x[i] * y[i];
        }
    }
    let mut s = (acc[0] + acc[4]) + (acc[1] + acc[5]) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
    for (x, y) in ra.iter().zip(rb) {
        s += x * y;
    }
    s
}
