//! The tiny decoder-only transformer the page runs: configuration, weights
//! loaded from safetensors, and a one-token-at-a-time forward pass with a
//! KV cache, the same code natively and in wasm.
//!
//! Architecture (GPT-style, pre-norm): token + learned position embeddings;
//! per block `x += out(attn(qkv(rms(x))))`, `x += down(gelu(up(rms(x))))`;
//! a final RMSNorm; logits from the tied token embedding. Linear weights are
//! `[out, in]`, no biases. The trainer (`train::nn`) implements the same
//! function for whole batches; `tests/generator.rs` compares the two.

mod batch;
mod matrix;
mod safetensors;

use matrix::{load_matrix, Matrix};

pub use safetensors::{
    f16_to_f32, Dtype, LoadError, SafeTensors, MAX_HEADER_BYTES, MAX_MODEL_BYTES,
};

use safetensors::tensor_err;

/// Shape of the model. Stored in the safetensors metadata.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Tokens in the vocabulary (rows of `tok_emb`, length of the logits).
    pub vocab_size: usize,
    /// Width of the residual stream.
    pub dim: usize,
    pub n_layers: usize,
    /// Attention heads; each sees `dim / n_heads` channels.
    pub n_heads: usize,
    /// Longest sequence the position table covers (tokens).
    pub seq_len: usize,
}

/// Largest KV cache a model may ask for (2 × n_layers × seq_len × dim × 4 bytes): 64 MiB. The
/// shipped model needs 0.5 MB; without a bound a crafted 8 MB header could ask for gigabytes.
pub const MAX_KV_CACHE_BYTES: usize = 64 << 20;

/// RMSNorm epsilon, shared with the trainer.
pub const EPS: f32 = 1e-5;

/// Why a forward step was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ForwardError {
    /// The token id is not in `0..vocab_size`.
    TokenOutOfRange { token: u32, vocab_size: usize },
    /// The cache already holds `context` positions.
    ContextFull { context: usize },
    /// The cache was made by another model (`new_cache` of a different shape).
    CacheMismatch,
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
            ForwardError::CacheMismatch => write!(
                f,
                "the cache was made for another model (use this model's new_cache)"
            ),
        }
    }
}

impl std::error::Error for ForwardError {}

struct Block {
    norm1: Vec<f32>,  // (dim,) RMSNorm gain before attention
    attn_qkv: Matrix, // (3*dim, dim) rows: q, then k, then v
    attn_out: Matrix, // (dim, dim)
    norm2: Vec<f32>,  // (dim,) RMSNorm gain before the MLP
    mlp_up: Matrix,   // (4*dim, dim)
    mlp_down: Matrix, // (dim, 4*dim)
}

/// Loaded weights (int8 matrices stay int8: `matrix`).
pub struct Model {
    config: Config,
    tok_emb: Matrix, // (vocab_size, dim), also the output projection (tied)
    pos_emb: Matrix, // (seq_len, dim) learned positions
    blocks: Vec<Block>,
    norm_f: Vec<f32>, // (dim,)
}

/// Keys and values of every position so far, per layer; each new token
/// costs one position. `truncate` makes rewinding exact.
#[derive(Clone, Debug)]
pub struct Cache {
    k: Vec<Vec<f32>>, // (n_layers, seq_len * dim)
    v: Vec<Vec<f32>>, // (n_layers, seq_len * dim)
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
    /// Whether this cache has the shape `new_cache` gives a model of `config`.
    fn fits(&self, config: &Config) -> bool {
        let n = config.seq_len * config.dim;
        self.k.len() == config.n_layers
            && self.v.len() == config.n_layers
            && self.k.iter().chain(&self.v).all(|kv| kv.len() == n)
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
            dim: meta_usize(&st, "dim", 4096)?,
            n_layers: meta_usize(&st, "n_layers", 64)?,
            n_heads: meta_usize(&st, "n_heads", 64)?,
            seq_len: meta_usize(&st, "seq_len", 1 << 16)?,
        };
        if config.dim % config.n_heads != 0 {
            return Err(LoadError::Metadata {
                field: "n_heads".into(),
                problem: format!("{} does not divide dim {}", config.n_heads, config.dim),
            });
        }
        let kv_bytes = [config.n_layers, config.seq_len, config.dim, 8]
            .iter()
            .try_fold(1usize, |a, &b| a.checked_mul(b));
        if kv_bytes.is_none_or(|b| b > MAX_KV_CACHE_BYTES) {
            return Err(LoadError::Metadata {
                field: "seq_len".into(),
                problem: format!(
                    "the KV cache (n_layers {} × seq_len {} × dim {} × 8 bytes) must be at most {MAX_KV_CACHE_BYTES} bytes",
                    config.n_layers, config.seq_len, config.dim
                ),
            });
        }
        let d = config.dim;
        let mut blocks = Vec::with_capacity(config.n_layers);
        for l in 0..config.n_layers {
            let n = |s: &str| format!("blocks.{l}.{s}");
            blocks.push(Block {
                norm1: load(&st, &n("norm1"), &[d])?,
                attn_qkv: load_matrix(&st, &n("attn_qkv"), [3 * d, d])?,
                attn_out: load_matrix(&st, &n("attn_out"), [d, d])?,
                norm2: load(&st, &n("norm2"), &[d])?,
                mlp_up: load_matrix(&st, &n("mlp_up"), [4 * d, d])?,
                mlp_down: load_matrix(&st, &n("mlp_down"), [d, 4 * d])?,
            });
        }
        Ok(Model {
            tok_emb: load_matrix(&st, "tok_emb", [config.vocab_size, d])?,
            pos_emb: load_matrix(&st, "pos_emb", [config.seq_len, d])?,
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
        let n = self.config.seq_len * self.config.dim;
        Cache {
            k: vec![vec![0.0; n]; self.config.n_layers],
            v: vec![vec![0.0; n]; self.config.n_layers],
            len: 0,
        }
    }

    /// Feeds one token at position `cache.len()` and writes the next-token
    /// logits into `logits` (length `vocab_size`): `forward_many` (batch.rs)
    /// over one token, so one token at a time and many at once agree bit for bit.
    pub fn forward(
        &self,
        token: u32,
        cache: &mut Cache,
        logits: &mut [f32],
    ) -> Result<(), ForwardError> {
        self.forward_many(&[token], cache, logits)
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
