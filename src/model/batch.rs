//! The forward pass over several tokens at once (a prompt, a link's forced tokens): layer by
//! layer for all of them, so each weight matrix is read once per layer instead of once per
//! token. Every position's logits are those of feeding the tokens one by one, bit for bit: the
//! same sums in the same order (`Matrix::matmat` computes each output as `matvec` does), and
//! token `t` attends to the positions up to its own, as it would one at a time.

use super::matrix::dot;
use super::{gelu, rmsnorm, Cache, ForwardError, Model};

impl Model {
    /// Feeds `tokens` at positions `cache.len()..` and writes the next-token logits after the
    /// last `rows` of them into `logits`, row after row: `rows` = `logits.len() / vocab_size`, at
    /// least 1 (a shorter slice gets the first logits of the last position) and at most
    /// `tokens.len()`. A prompt asks for one row: the vocabulary projection, the largest product,
    /// runs once. Refuses with nothing changed if a token is outside the vocabulary or the tokens
    /// do not fit the context.
    pub fn forward_many(
        &self,
        tokens: &[u32],
        cache: &mut Cache,
        logits: &mut [f32],
    ) -> Result<(), ForwardError> {
        let c = &self.config;
        if let Some(&token) = tokens.iter().find(|&&t| t as usize >= c.vocab_size) {
            return Err(ForwardError::TokenOutOfRange {
                token,
                vocab_size: c.vocab_size,
            });
        }
        let n = tokens.len();
        let pos0 = cache.len;
        if pos0 + n > c.seq_len || (n == 0 && pos0 >= c.seq_len) {
            return Err(ForwardError::ContextFull { context: c.seq_len });
        }
        if n == 0 {
            return Ok(());
        }
        let d = c.dim;
        let hd = d / c.n_heads;
        let scale = 1.0 / (hd as f32).sqrt();
        // x_t = tok_emb[token_t] + pos_emb[pos0 + t]        (n × dim)
        let mut x = vec![0.0; n * d];
        let mut pe = vec![0.0; d];
        for (t, (xt, &token)) in x.chunks_exact_mut(d).zip(tokens).enumerate() {
            self.tok_emb.row(token as usize, xt);
            self.pos_emb.row(pos0 + t, &mut pe);
            for (xi, pi) in xt.iter_mut().zip(&pe) {
                *xi += pi;
            }
        }
        let mut nrm = vec![0.0; n * d];
        let mut qkv = vec![0.0; n * 3 * d];
        let mut y = vec![0.0; n * d];
        let mut o = vec![0.0; n * d];
        let mut h = vec![0.0; n * 4 * d];
        let mut att = vec![0.0; pos0 + n];
        let mut xq = Vec::with_capacity(n * 4 * d);
        for (l, b) in self.blocks.iter().enumerate() {
            for (xt, nt) in x.chunks_exact(d).zip(nrm.chunks_exact_mut(d)) {
                rmsnorm(xt, &b.norm1, nt);
            }
            b.attn_qkv
                .matmat(&nrm, n, &mut qkv, (3 * d, 3 * d), &mut xq);
            for (t, qkvt) in qkv.chunks_exact(3 * d).enumerate() {
                let pos = pos0 + t;
                cache.k[l][pos * d..(pos + 1) * d].copy_from_slice(&qkvt[d..2 * d]);
                cache.v[l][pos * d..(pos + 1) * d].copy_from_slice(&qkvt[2 * d..]);
            }
            let (kc, vc) = (&cache.k[l], &cache.v[l]);
            for (t, (qkvt, yt)) in qkv
                .chunks_exact(3 * d)
                .zip(y.chunks_exact_mut(d))
                .enumerate()
            {
                let att = &mut att[..pos0 + t + 1];
                for hi in 0..c.n_heads {
                    let q = &qkvt[hi * hd..(hi + 1) * hd];
                    attend(
                        q,
                        (kc, vc),
                        (d, hi * hd),
                        scale,
                        att,
                        &mut yt[hi * hd..(hi + 1) * hd],
                    );
                }
            }
            b.attn_out.matmat(&y, n, &mut o, (d, d), &mut xq);
            for (xi, oi) in x.iter_mut().zip(&o) {
                *xi += oi;
            }
            for (xt, nt) in x.chunks_exact(d).zip(nrm.chunks_exact_mut(d)) {
                rmsnorm(xt, &b.norm2, nt);
            }
            b.mlp_up.matmat(&nrm, n, &mut h, (4 * d, 4 * d), &mut xq);
            for v in h.iter_mut() {
                *v = gelu(*v);
            }
            b.mlp_down.matmat(&h, n, &mut o, (d, d), &mut xq);
            for (xi, oi) in x.iter_mut().zip(&o) {
                *xi += oi;
            }
        }
        for (xt, nt) in x.chunks_exact(d).zip(nrm.chunks_exact_mut(d)) {
            rmsnorm(xt, &self.norm_f, nt);
        }
        let rows = (logits.len() / c.vocab_size.max(1)).clamp(1, n);
        let v = c.vocab_size.min(logits.len());
        let last = &nrm[(n - rows) * d..];
        self.tok_emb.matmat(last, rows, logits, (v, v), &mut xq);
        cache.len = pos0 + n;
        Ok(())
    }
}

/// One head's attention for one position: `q` against the cached keys of positions
/// `0..att.len()` (their channels `off..off + q.len()` of each `d`-wide row), softmax, and the
/// weighted sum of the cached values into `yh`. Its own function, not inlined into
/// `forward_many`: wasm engines optimise a function between calls, not within one, so a link's
/// pass over 127 tokens runs this (called per position, head and layer) optimised after its first
/// calls instead of unoptimised to the end. The same operations in the same order either way.
#[inline(never)]
fn attend(
    q: &[f32],
    (kc, vc): (&[f32], &[f32]),
    (d, off): (usize, usize),
    scale: f32,
    att: &mut [f32],
    yh: &mut [f32],
) {
    let hd = q.len();
    let mut max = f32::NEG_INFINITY;
    for (s, a) in att.iter_mut().enumerate() {
        *a = dot(q, &kc[s * d + off..s * d + off + hd]) * scale;
        max = max.max(*a);
    }
    let mut sum = 0.0;
    for a in att.iter_mut() {
        *a = (*a - max).exp();
        sum += *a;
    }
    yh.fill(0.0);
    for (s, a) in att.iter().enumerate() {
        let p = a / sum;
        for (yj, vj) in yh.iter_mut().zip(&vc[s * d + off..s * d + off + hd]) {
            *yj += p * vj;
        }
    }
}
