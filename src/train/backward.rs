//! The batch model's hand-written backward pass: the gradients of the mean loss, block by block
//! in reverse, from the activations `Net::forward_train` saved.

use super::attention::attention_backward;
use super::nn::{Acts, Net};
use super::ops::{gelu_grad, linear_back, masked, rmsnorm_back};

impl Net {
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
