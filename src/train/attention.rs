//! Causal multi-head attention over a batch, forward and backward, with the
//! batch's sequences split across threads.

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
pub(super) fn attention_forward(
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
pub(super) fn attention_backward(
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
