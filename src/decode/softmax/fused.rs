//! The one-read passes: when the final distribution is simple enough, the raw softmax's sums and
//! the final weights, order keys and sums come from a single read of the logits. Each computes its
//! numbers exactly as the separate passes in `softmax` do (same exp, lanes and blocks), so tokens
//! and traces are bit for bit the same.

use super::*;

/// What [`raw_and_final`] measured in its one read of the logits.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Fused {
    /// Σ e^(l − max) and Σ e^(l − max)·(l − max): the raw softmax's normaliser and entropy sum.
    pub z_raw: f64,
    pub weighted_raw: f64,
    /// The same two at the final scale inv_t (equal to the raw ones when inv_t = 1).
    pub z: f64,
    pub weighted: f64,
}

/// The first tokens `raw_and_final` writes the keys of before it decides whether to write the
/// rest (a multiple of the blocks' 1024, so the blocks and sums are the same either way).
pub(crate) const DECIDE_AFTER: usize = 4096;

/// When the final distribution is the whole vocabulary at one temperature (no filter, bias or
/// penalty, no −inf logit), everything the step needs from the full array comes from one read of
/// it: the raw sums, the final ones, and, if `store_rest` asks for them, the final weights as
/// order keys (draw.rs, in id order; `Work::final_weights` reads the weights back from them).
/// `store_rest` sees the first `DECIDE_AFTER` keys and their Σ e: on a peaked distribution the
/// final pass reads only the few keys the draw can reach, computed again from their logits
/// (`Work::weights_by_exp`), and a store of 8 bytes per token would cost more than those exps.
/// Returns the sums and whether every key was written (`keys` holds n slots either way; past the
/// first ones they are stale when not written). Each number is computed exactly as `raw_sums`,
/// `weights_into` and the tempered sum compute it (same exp, same float32 lanes and blocks), so
/// the weights, z and the draw are bit for bit those of the separate passes. At inv_t = 1 one
/// exp and one pair of sums serve both.
pub(crate) fn raw_and_final(
    logits: &[f32],
    max: f32,
    inv_t: f32,
    keys: &mut Vec<u64>,
    store_rest: impl FnOnce(&[u64], f64) -> bool,
) -> (Fused, bool) {
    // Every slot is written below or never read: only slots the vector grows by are zeroed.
    keys.truncate(logits.len());
    keys.resize(logits.len(), 0);
    let head = logits.len().min(DECIDE_AFTER);
    let (first, rest) = logits.split_at(head);
    let (first_keys, rest_keys) = keys.split_at_mut(head);
    let mut f = Fused::default();
    let tempered = inv_t != 1.0;
    // One monomorphic loop per (tempered, store) pair: see `fused` for why each is its own function.
    let part = |part: &[f32], id: u32, keys: &mut [u64], store: bool, f: &mut Fused| {
        let (no_fill, no_blocks) = (&mut [][..], &mut Vec::new());
        macro_rules! run {
            ($tempered:literal, $store:literal, $inv_t:expr) => {
                fused::<$tempered, false, false, $store>(
                    part, id, max, $inv_t, no_fill, no_blocks, keys, f,
                )
            };
        }
        match (tempered, store) {
            (false, false) => run!(false, false, 1.0),
            (false, true) => run!(false, true, 1.0),
            (true, false) => run!(true, false, inv_t),
            (true, true) => run!(true, true, inv_t),
        }
    };
    part(first, 0, first_keys, true, &mut f);
    let store = store_rest(first_keys, f.z);
    part(rest, head as u32, rest_keys, store, &mut f);
    (f, store)
}

/// `raw_and_final` at T = 1, also keeping each block's float32 sums (Σ e, Σ e·s) in `blocks`:
/// what patched.rs needs to correct the sums where a stage changes a few logits. `keep`: where
/// to remember each e (cached.rs; patched.rs sums changed blocks from them without an exp).
pub(crate) fn raw_and_blocks(
    logits: &[f32],
    max: f32,
    keep: Option<&mut [f32]>,
    blocks: &mut Vec<[f32; 2]>,
) -> Fused {
    blocks.clear();
    let mut f = Fused::default();
    match keep {
        Some(out) => {
            fused::<false, true, true, false>(logits, 0, max, 1.0, out, blocks, &mut [], &mut f)
        }
        None => fused::<false, false, true, false>(
            logits,
            0,
            max,
            1.0,
            &mut [],
            blocks,
            &mut [],
            &mut f,
        ),
    }
    f
}

/// A final weight as the one-read passes compute it: e^s, s = (l − max)·inv_t floored just below
/// `exp_f32`'s zero (the floor changes no weight). `Work::weights_by_exp` reads weights this way.
#[inline(always)]
pub(crate) fn final_weight(l: f32, max: f32, inv_t: f32) -> f32 {
    exp_f32(above((l - max) * inv_t, EXP_MIN - 1.0))
}

/// The one loop behind both, over `logits` (ids from `first_id`), adding to the sums in `f` (a
/// pass split in two adds the same block sums in the same order): FILL remembers the raw
/// weights in `out`, BLOCKS records each block's raw sums, KEYS writes the final weights' keys
/// into `keys` (each as long as `logits` when asked for). Never inlined: each variant is a
/// function of its own, so that a wasm engine optimises each between calls (V8 does not
/// optimise a function while it runs, and one function holding every variant took it longer).
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn fused<const TEMPERED: bool, const FILL: bool, const BLOCKS: bool, const KEYS: bool>(
    logits: &[f32],
    first_id: u32,
    max: f32,
    inv_t: f32,
    out: &mut [f32],
    blocks: &mut Vec<[f32; 2]>,
    keys: &mut [u64],
    f: &mut Fused,
) {
    // Slots for the raw weights when FILL (as long as `logits`), none otherwise; keys likewise.
    let mut slots = out.chunks_mut(1024);
    let mut key_slots = keys.chunks_mut(1024);
    let Fused {
        mut z_raw,
        mut weighted_raw,
        mut z,
        mut weighted,
    } = *f;
    let mut id = first_id;
    // Whether the final pair is summed in lanes of its own. Without TEMPERED it is the raw pair,
    // so its sums are the raw ones, bit for bit: natively they are copied (two more lanes of sums
    // spilled SSE2's 16 registers: the repetition row 2.36 → 1.89× the floor), in wasm summed all
    // the same (the loop with four sums ran faster there than with two).
    let sum_final = TEMPERED || cfg!(target_arch = "wasm32");
    // (raw e, raw e·s, final e, final e·s) of one logit.
    let term = |l: f32| {
        let s = above(l - max, EXP_MIN - 1.0);
        let e = exp_f32(s);
        if TEMPERED {
            let st = above((l - max) * inv_t, EXP_MIN - 1.0);
            let et = exp_f32(st);
            (e, e * s, et, et * st)
        } else {
            (e, e * s, e, e * s)
        }
    };
    for block in logits.chunks(1024) {
        let kept: &mut [f32] = if FILL {
            slots.next().unwrap_or_default()
        } else {
            &mut []
        };
        let kslots: &mut [u64] = if KEYS {
            key_slots.next().unwrap_or_default()
        } else {
            &mut []
        };
        let mut kept_lanes = kept.chunks_exact_mut(LANES);
        let mut kouts = kslots.chunks_exact_mut(LANES);
        let mut acc = [[0.0f32; LANES]; 4];
        let mut lanes = block.chunks_exact(LANES);
        for group in &mut lanes {
            // The raw and the final weights of the group: written out after the lanes' sums.
            let (mut es, mut ets) = ([0.0f32; LANES], [0.0f32; LANES]);
            let [acc_e, acc_es, acc_et, acc_es_t] = &mut acc;
            let sums = acc_e.iter_mut().zip(acc_es).zip(acc_et).zip(acc_es_t);
            for ((((s_e, s_es), s_et), s_es_t), ((e_out, et_out), &l)) in
                sums.zip(es.iter_mut().zip(ets.iter_mut()).zip(group))
            {
                let (e, es_raw, et, es_t) = term(l);
                *s_e += e;
                *s_es += es_raw;
                if sum_final {
                    *s_et += et;
                    *s_es_t += es_t;
                }
                *e_out = e;
                *et_out = et;
            }
            if FILL {
                if let Some(dst) = kept_lanes.next() {
                    dst.copy_from_slice(&es);
                }
            }
            if KEYS {
                if let Some(kdst) = kouts.next() {
                    for (j, (k, &e)) in kdst.iter_mut().zip(&ets).enumerate() {
                        *k = crate::decode::draw::key(e, id + j as u32);
                    }
                }
            }
            id += LANES as u32;
        }
        let rest = kept_lanes.into_remainder();
        let krest = kouts.into_remainder();
        for (i, &l) in lanes.remainder().iter().enumerate() {
            let (e, es_raw, et, es_t) = term(l);
            if let Some(d) = rest.get_mut(i) {
                *d = e;
            }
            if let Some(k) = krest.get_mut(i) {
                *k = crate::decode::draw::key(et, id);
            }
            id += 1;
            acc[0][0] += e;
            acc[1][0] += es_raw;
            acc[2][0] += et;
            acc[3][0] += es_t;
        }
        let (block_z, block_weighted) = (acc[0].iter().sum::<f32>(), acc[1].iter().sum::<f32>());
        if BLOCKS {
            blocks.push([block_z, block_weighted]);
        }
        z_raw += f64::from(block_z);
        weighted_raw += f64::from(block_weighted);
        if sum_final {
            z += f64::from(acc[2].iter().sum::<f32>());
            weighted += f64::from(acc[3].iter().sum::<f32>());
        } else {
            z += f64::from(block_z);
            weighted += f64::from(block_weighted);
        }
    }
    *f = Fused {
        z_raw,
        weighted_raw,
        z,
        weighted,
    };
}

/// `weights_into` plus the order keys and Σ e, for a final distribution whose normaliser is not
/// known yet (penalties or a bias changed logits but removed nothing): one exp pass instead of a
/// normaliser pass and a weights pass. Σ e is summed exactly as `sum_weights_all` sums it and Σ e·s
/// as `weights_into` does, so both are bit for bit those of the separate passes. `cached`: every
/// id's weight at this (max, inv_t), remembered by an earlier pass (cached.rs): no exp at all.
pub(crate) fn weights_keys_and_sums(
    processed: &[f32],
    max: f32,
    inv_t: f32,
    cached: Option<&[f32]>,
    out: &mut [f64],
    keys: &mut Vec<u64>,
) -> (f64, f64) {
    match cached.and_then(|c| c.get(..processed.len())) {
        Some(c) => weights_keys_sums::<true>(processed, max, inv_t, c, out, keys),
        // `processed` stands in for the weights (same length, never read as weights).
        None => weights_keys_sums::<false>(processed, max, inv_t, processed, out, keys),
    }
}

/// `weights_keys_and_sums`' (z, Σ e·s), bit for bit, storing nothing: for a final pass that
/// computes the few weights it needs again (`Work::weights_by_exp`).
pub(crate) fn weights_sums(
    processed: &[f32],
    max: f32,
    inv_t: f32,
    cached: Option<&[f32]>,
) -> (f64, f64) {
    match cached.and_then(|c| c.get(..processed.len())) {
        Some(c) => sums_only::<true>(processed, max, inv_t, c),
        // `processed` stands in for the weights (same length, never read as weights).
        None => sums_only::<false>(processed, max, inv_t, processed),
    }
}

#[inline(always)]
fn weights_keys_sums<const CACHED: bool>(
    processed: &[f32],
    max: f32,
    inv_t: f32,
    cached: &[f32],
    out: &mut [f64],
    keys: &mut Vec<u64>,
) -> (f64, f64) {
    // Every slot is written below: only slots the vector grows by are zeroed first.
    keys.truncate(processed.len());
    keys.resize(processed.len(), 0);
    let (mut z, mut weighted) = (0.0f64, 0.0f64);
    // (e, e·s); a remembered e is exp_f32 of this s (the clamp changes neither e nor, e being 0
    // there, e·s).
    let term = |l: f32, w: f32| {
        let s = above((l - max) * inv_t, EXP_MIN - 1.0);
        let e = if CACHED { w } else { exp_f32(s) };
        (e, e * s)
    };
    let mut id = 0u32;
    for (((block, wblock), slots), kslots) in processed
        .chunks(1024)
        .zip(cached.chunks(1024))
        .zip(out.chunks_mut(1024))
        .zip(keys.chunks_mut(1024))
    {
        let (mut zs, mut ws) = ([0.0f32; LANES], [0.0f32; LANES]);
        let mut lanes = block.chunks_exact(LANES);
        let mut wlanes = wblock.chunks_exact(LANES);
        let mut outs = slots.chunks_exact_mut(LANES);
        let mut kouts = kslots.chunks_exact_mut(LANES);
        for (((group, wgroup), dst), kdst) in
            (&mut lanes).zip(&mut wlanes).zip(&mut outs).zip(&mut kouts)
        {
            let mut es = [0.0f32; LANES];
            for ((((za, wa), e_out), &l), &w) in zs
                .iter_mut()
                .zip(ws.iter_mut())
                .zip(es.iter_mut())
                .zip(group)
                .zip(wgroup)
            {
                let (e, es) = term(l, w);
                *za += e;
                *wa += es;
                *e_out = e;
            }
            for ((d, k), (j, &e)) in dst
                .iter_mut()
                .zip(kdst.iter_mut())
                .zip(es.iter().enumerate())
            {
                *d = f64::from(e);
                *k = crate::decode::draw::key(e, id + j as u32);
            }
            id += LANES as u32;
        }
        let mut tail = 0.0f32;
        for (((&l, &w), d), k) in lanes
            .remainder()
            .iter()
            .zip(wlanes.remainder())
            .zip(outs.into_remainder())
            .zip(kouts.into_remainder())
        {
            let (e, es) = term(l, w);
            tail += e;
            ws[0] += es;
            *d = f64::from(e);
            *k = crate::decode::draw::key(e, id);
            id += 1;
        }
        z += f64::from(zs.iter().sum::<f32>() + tail);
        weighted += f64::from(ws.iter().sum::<f32>());
    }
    (z, weighted)
}

/// `weights_keys_sums`' two sums alone: the same lanes, blocks and tails (Σ e's tail apart,
/// Σ e·s's in lane 0), so the same bits.
#[inline(always)]
fn sums_only<const CACHED: bool>(
    processed: &[f32],
    max: f32,
    inv_t: f32,
    cached: &[f32],
) -> (f64, f64) {
    let (mut z, mut weighted) = (0.0f64, 0.0f64);
    let term = |l: f32, w: f32| {
        let s = above((l - max) * inv_t, EXP_MIN - 1.0);
        let e = if CACHED { w } else { exp_f32(s) };
        (e, e * s)
    };
    for (block, wblock) in processed.chunks(1024).zip(cached.chunks(1024)) {
        let (mut zs, mut ws) = ([0.0f32; LANES], [0.0f32; LANES]);
        let mut lanes = block.chunks_exact(LANES);
        let mut wlanes = wblock.chunks_exact(LANES);
        for group in &mut lanes {
            // One loop over the lanes (as raw_sums has it; arrays of the terms first ran slower).
            if CACHED {
                let wgroup = wlanes.next().unwrap_or(&[0.0; LANES]);
                for (((za, wa), &l), &w) in zs.iter_mut().zip(ws.iter_mut()).zip(group).zip(wgroup)
                {
                    let (e, t) = term(l, w);
                    *za += e;
                    *wa += t;
                }
            } else {
                for ((za, wa), &l) in zs.iter_mut().zip(ws.iter_mut()).zip(group) {
                    let (e, t) = term(l, 0.0);
                    *za += e;
                    *wa += t;
                }
            }
        }
        let mut tail = 0.0f32;
        for (&l, &w) in lanes.remainder().iter().zip(wlanes.remainder()) {
            let (e, t) = term(l, w);
            tail += e;
            ws[0] += t;
        }
        z += f64::from(zs.iter().sum::<f32>() + tail);
        weighted += f64::from(ws.iter().sum::<f32>());
    }
    (z, weighted)
}
