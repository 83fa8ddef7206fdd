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
        if !cache.fits(c) {
            return Err(ForwardError::CacheMismatch);
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
        // one (k, v) cache per block (`new_cache` makes n_layers of each, seq_len × dim long)
        let layers = self
            .blocks
            .iter()
            .zip(cache.k.iter_mut().zip(cache.v.iter_mut()));
        for (b, (kc, vc)) in layers {
            for (xt, nt) in x.chunks_exact(d).zip(nrm.chunks_exact_mut(d)) {
                rmsnorm(xt, &b.norm1, nt);
            }
            b.attn_qkv
                .matmat(&nrm, n, &mut qkv, (3 * d, 3 * d), &mut xq);
            // positions pos0.. of the cache take each token's k and v (pos0 + n ≤ seq_len above)
            let rows = kc
                .chunks_exact_mut(d)
                .zip(vc.chunks_exact_mut(d))
                .skip(pos0);
            for ((kt, vt), qkvt) in rows.zip(qkv.chunks_exact(3 * d)) {
                let (k, v) = qkvt.split_at(d).1.split_at(d);
                kt.copy_from_slice(k);
                vt.copy_from_slice(v);
            }
            let (kc, vc) = (&**kc, &**vc);
            for (t, (qkvt, yt)) in qkv
                .chunks_exact(3 * d)
                .zip(y.chunks_exact_mut(d))
                .enumerate()
            {
                // token t attends to positions 0..=pos0 + t (att holds pos0 + n)
                let (att, _) = att.split_at_mut(pos0 + t + 1);
                let heads = qkvt.chunks_exact(hd).zip(yt.chunks_exact_mut(hd));
                for (hi, (q, yh)) in heads.take(c.n_heads).enumerate() {
                    attend(q, (kc, vc), (d, hi * hd), scale, att, yh);
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
        let (_, last) = nrm.split_at((n - rows) * d);
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
    // the head's channels of a cached row (off + hd ≤ d: the heads split dim evenly)
    fn channels(row: &[f32], off: usize, hd: usize) -> &[f32] {
        row.split_at(off).1.split_at(hd).0
    }
    let head = |row| channels(row, off, hd);
    let mut max = f32::NEG_INFINITY;
    for (a, k) in att.iter_mut().zip(kc.chunks_exact(d)) {
        *a = dot(q, head(k)) * scale;
        max = max.max(*a);
    }
    let mut sum = 0.0;
    for a in att.iter_mut() {
        *a = (*a - max).exp();
        sum += *a;
    }
    yh.fill(0.0);
    for (a, v) in att.iter().zip(vc.chunks_exact(d)) {
        let p = a / sum;
        for (yj, vj) in yh.iter_mut().zip(head(v)) {
            *yj += p * vj;
        }
    }
}
