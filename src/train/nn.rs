//! The trainer's model: the same decoder as `crate::model`, evaluated on a
//! whole batch at once with a hand-written backward pass (f32, no autograd).
//!
//! Every parameter lives in one flat vector so AdamW, clipping and
//! checkpoints are single loops; `Layout` names the slices. Matrices are
//! stored `[out, in]` row-major (PyTorch's convention), so a linear layer is
//! `y = x Wᵀ` and the safetensors names match what the inference code reads.

use super::attention::attention_forward;
use super::ops::{add_masked, dropout_mask, gelu, gemm, linear, rmsnorm};
pub use super::ops::{Dropout, EPS};
pub use super::optim::{clip, Adam};
pub use super::params::{init_params, Layout, Rng, Slot};
use crate::model::Config;

/// Saved activations of one block.
#[derive(Default)]
pub(super) struct BlockActs {
    pub(super) x_in: Vec<f32>,
    pub(super) n1: Vec<f32>,
    pub(super) r1: Vec<f32>,
    pub(super) qkv: Vec<f32>,
    pub(super) att: Vec<f32>,
    pub(super) ay: Vec<f32>,
    pub(super) x_mid: Vec<f32>,
    pub(super) n2: Vec<f32>,
    pub(super) r2: Vec<f32>,
    pub(super) h_pre: Vec<f32>,
    pub(super) h_act: Vec<f32>,
    /// Dropout masks (empty without dropout): attention probabilities,
    /// attention branch, MLP branch.
    pub(super) att_mask: Vec<f32>,
    pub(super) m_attn: Vec<f32>,
    pub(super) m_mlp: Vec<f32>,
}

/// Forward state for one batch, kept for the backward pass.
pub struct Acts {
    pub(super) b: usize,
    pub(super) t: usize,
    pub(super) blocks: Vec<BlockActs>,
    pub(super) x_f: Vec<f32>,
    pub(super) n_f: Vec<f32>,
    pub(super) r_f: Vec<f32>,
    /// Embedding dropout mask (empty without dropout).
    pub(super) emb_mask: Vec<f32>,
    /// Softmax probabilities after `forward` (logits before the softmax).
    pub probs: Vec<f32>,
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

    pub(super) fn p<'a>(&self, params: &'a [f32], name: &str) -> &'a [f32] {
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
}
