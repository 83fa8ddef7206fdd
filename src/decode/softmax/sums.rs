//! One read of a contiguous array of logits: the softmax normaliser Σ e^(l − max), the sum that
//! gives its entropy, and (when asked) the tempered normaliser, in float32 lanes folded into f64
//! every block, each weight stored on the way when a later pass can reuse it.

use super::{above, exp_f32, EXP_MIN, LANES};

/// Over a contiguous array: Σ e^(l − max) and Σ e^(l − max)·(l − max), the softmax normaliser and
/// the sum that gives its entropy, H = ln z − Σ e·s / z. −inf entries contribute 0. `keep`: where
/// to remember each e (cached.rs), when a later pass at T = 1 can read them.
pub(crate) fn raw_sums(logits: &[f32], max: f32, keep: Option<&mut [f32]>) -> (f64, f64) {
    let (z, weighted, _) = match keep {
        Some(out) => {
            sums::<false, true, false, false>(logits, max, 1.0, [out, &mut []], &mut Vec::new())
        }
        None => sums::<false, false, false, false>(
            logits,
            max,
            1.0,
            [&mut [], &mut []],
            &mut Vec::new(),
        ),
    };
    (z, weighted)
}

/// `raw_sums` plus Σ e^((l − max)·inv_t) from the same read of the array; `keep` remembers the
/// tempered weights, and `keep_raw` (with `keep`) the raw ones.
pub(crate) fn raw_and_tempered_sums(
    logits: &[f32],
    max: f32,
    inv_t: f32,
    keep: Option<&mut [f32]>,
    keep_raw: Option<&mut [f32]>,
) -> (f64, f64, f64) {
    let none = &mut Vec::new();
    match (keep, keep_raw) {
        (Some(out), Some(raw)) => {
            sums::<true, true, false, true>(logits, max, inv_t, [out, raw], none)
        }
        (Some(out), None) => {
            sums::<true, true, false, false>(logits, max, inv_t, [out, &mut []], none)
        }
        (None, _) => {
            sums::<true, false, false, false>(logits, max, inv_t, [&mut [], &mut []], none)
        }
    }
}

/// `raw_and_tempered_sums` keeping each block's float32 (Σ e, Σ t) in `blocks` (blocks.rs
/// corrects them where logits change); `keep` remembers the tempered weights.
pub(crate) fn raw_and_tempered_blocks(
    logits: &[f32],
    max: f32,
    inv_t: f32,
    keep: Option<&mut [f32]>,
    blocks: &mut Vec<[f32; 2]>,
) -> (f64, f64, f64) {
    blocks.clear();
    match keep {
        Some(out) => sums::<true, true, true, false>(logits, max, inv_t, [out, &mut []], blocks),
        None => sums::<true, false, true, false>(logits, max, inv_t, [&mut [], &mut []], blocks),
    }
}

/// The one loop behind both: float32 lanes inside a block, f64 across blocks; the tempered sum
/// is compiled in only when asked for (it costs a second exp per entry), and so are the stores
/// of the weights (the tempered ones when TEMPERED) into `out` (as long as `logits`), of the raw
/// weights too into `out_raw` (RAW, with TEMPERED and FILL), and so is the record of each block's
/// sums (BLOCKS).
#[inline(always)]
fn sums<const TEMPERED: bool, const FILL: bool, const BLOCKS: bool, const RAW: bool>(
    logits: &[f32],
    max: f32,
    inv_t: f32,
    [out, out_raw]: [&mut [f32]; 2],
    blocks: &mut Vec<[f32; 2]>,
) -> (f64, f64, f64) {
    let (mut z, mut weighted, mut z_t) = (0.0f64, 0.0f64, 0.0f64);
    let term = |l: f32| {
        let s = above(l - max, EXP_MIN - 1.0);
        let e = exp_f32(s);
        let t = if TEMPERED {
            exp_f32((l - max) * inv_t)
        } else {
            0.0
        };
        (e, e * s, t)
    };
    let mut base = 0usize;
    for block in logits.chunks(1024) {
        let (mut zs, mut ws, mut ts) = ([0.0f32; LANES], [0.0f32; LANES], [0.0f32; LANES]);
        let mut lanes = block.chunks_exact(LANES);
        for group in &mut lanes {
            let (mut kept, mut raw) = ([0.0f32; LANES], [0.0f32; LANES]);
            for (((((za, wa), ta), k), r), &l) in zs
                .iter_mut()
                .zip(ws.iter_mut())
                .zip(ts.iter_mut())
                .zip(kept.iter_mut())
                .zip(raw.iter_mut())
                .zip(group)
            {
                let (e, es, t) = term(l);
                *za += e;
                *wa += es;
                *ta += t;
                *k = if TEMPERED { t } else { e };
                *r = e;
            }
            if FILL {
                if let Some(dst) = out.get_mut(base..base + LANES) {
                    dst.copy_from_slice(&kept);
                }
            }
            if RAW {
                if let Some(dst) = out_raw.get_mut(base..base + LANES) {
                    dst.copy_from_slice(&raw);
                }
            }
            base += LANES;
        }
        for &l in lanes.remainder() {
            let (e, es, t) = term(l);
            zs[0] += e;
            ws[0] += es;
            ts[0] += t;
            if FILL {
                if let Some(slot) = out.get_mut(base) {
                    *slot = if TEMPERED { t } else { e };
                }
            }
            if RAW {
                if let Some(slot) = out_raw.get_mut(base) {
                    *slot = e;
                }
            }
            base += 1;
        }
        let (block_z, block_t) = (zs.iter().sum::<f32>(), ts.iter().sum::<f32>());
        if BLOCKS {
            blocks.push([block_z, block_t]);
        }
        z += f64::from(block_z);
        weighted += f64::from(ws.iter().sum::<f32>());
        z_t += f64::from(block_t);
    }
    (z, weighted, z_t)
}
