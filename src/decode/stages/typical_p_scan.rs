//! The two passes over the whole vocabulary before typical-p's band cut (typical_p_band.rs):
//! the band's bound from an approximate mass per bound, and the band's ids by a branch-free
//! compaction. Split from typical_p_band.rs.

use super::band::Scorer;
use super::LOWEST;
use crate::decode::candidates::KEPT;

/// The band's bounds tried, as the first bucket left out: scores below 2^-2, 2^-1, … 2^3.
const BOUNDS: [usize; 6] = [
    16 * 14 + 1,
    16 * 15 + 1,
    16 * 16 + 1,
    16 * 17 + 1,
    16 * 18 + 1,
    16 * 19 + 1,
];
/// The approximate mass must pass `mass` by this much for a bound to be tried: the float32
/// sums' error is far below it.
const MARGIN: f64 = 1e-3;
/// Tokens per block of float32 sums in the estimate (then added in f64).
const BLOCK: usize = 1024;

/// The lowest score below which the kept tokens' approximate mass passes `mass` (+ MARGIN), as
/// its bucket index; None if no bound in BOUNDS does. `kept`: per id, whether it is kept (None:
/// every id).
pub(super) fn pick_bound(
    processed: &[f32],
    e: &[f32],
    kept: Option<&[u8]>,
    sc: &Scorer,
    z: f64,
    mass: f64,
) -> Option<usize> {
    let vertex = (sc.ln_z - sc.entropy) as f32;
    let bounds = BOUNDS.map(|b| f64::from_bits((b as u64 - 1 + LOWEST) << 48) as f32);
    let mut sums = [0.0f64; BOUNDS.len()];
    let n = processed.len();
    let (mut block, mut dist) = ([0.0f32; BLOCK], [0.0f32; BLOCK]);
    for start in (0..n).step_by(BLOCK) {
        let ls = processed
            .get(start..n.min(start + BLOCK))
            .unwrap_or_default();
        let es = e.get(start..start + ls.len()).unwrap_or_default();
        // The weights that count: a removed token's are 0 (its remembered exp may be stale).
        let w = block.get_mut(..ls.len()).unwrap_or_default();
        w.copy_from_slice(es);
        if let Some(marks) = kept.and_then(|k| k.get(start..start + ls.len())) {
            for (w, &m) in w.iter_mut().zip(marks) {
                *w = if m == KEPT { *w } else { 0.0 };
            }
        }
        add_below(ls, w, sc, vertex, &bounds, &mut sums, &mut dist);
    }
    let want = (mass + MARGIN) * z;
    BOUNDS
        .iter()
        .zip(&sums)
        .find(|&(_, &s)| s >= want)
        .map(|(&b, _)| b)
}

/// Adds to each bound's sum the weights `w` of the tokens whose distance from the entropy's
/// logit is below it. Natively eight tokens at a time with every bound's lanes in registers
/// (one pass); LLVM vectorises that across the bounds in wasm, so there each token's distance goes
/// to `dist` first and each bound gets a loop of its own (one accumulator: it vectorises).
#[inline(always)]
fn add_below(
    ls: &[f32],
    w: &[f32],
    sc: &Scorer,
    vertex: f32,
    bounds: &[f32; BOUNDS.len()],
    sums: &mut [f64; BOUNDS.len()],
    dist: &mut [f32; BLOCK],
) {
    let distance = |l: f32| ((l - sc.max) * sc.inv_t - vertex).abs();
    let fold = |acc: &[f32; 8]| {
        let [a0, a1, a2, a3, a4, a5, a6, a7] = *acc;
        ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7))
    };
    if cfg!(target_arch = "wasm32") {
        let d = dist.get_mut(..ls.len()).unwrap_or_default();
        for (d, &l) in d.iter_mut().zip(ls) {
            *d = distance(l);
        }
        for (s, &bound) in sums.iter_mut().zip(bounds) {
            let mut acc = [0.0f32; 8];
            let (d8s, w8s) = (d.chunks_exact(8), w.chunks_exact(8));
            let tail = d8s.remainder().iter().zip(w8s.remainder());
            let tail: f32 = tail.map(|(&d, &w)| if d < bound { w } else { 0.0 }).sum();
            for (d8, w8) in d8s.zip(w8s) {
                for ((a, &d), &w) in acc.iter_mut().zip(d8).zip(w8) {
                    *a += if d < bound { w } else { 0.0 };
                }
            }
            // Lanes summed in order (a tree here makes LLVM pair the lanes up in wasm).
            *s += f64::from(acc.iter().sum::<f32>() + tail);
        }
        return;
    }
    let mut acc = [[0.0f32; 8]; BOUNDS.len()];
    let (l8s, w8s) = (ls.chunks_exact(8), w.chunks_exact(8));
    let tail = l8s.remainder().iter().zip(w8s.remainder());
    for (l8, w8) in l8s.zip(w8s) {
        let (Ok(l8), Ok(w8)) = (<&[f32; 8]>::try_from(l8), <&[f32; 8]>::try_from(w8)) else {
            continue;
        };
        let d = l8.map(distance);
        for (a, &bound) in acc.iter_mut().zip(bounds) {
            for ((a, &d), &w) in a.iter_mut().zip(&d).zip(w8) {
                *a += if d < bound { w } else { 0.0 };
            }
        }
    }
    for (&l, &w) in tail {
        let d = distance(l);
        for (a, &bound) in acc.iter_mut().zip(bounds) {
            a[0] += if d < bound { w } else { 0.0 };
        }
    }
    for (s, a) in sums.iter_mut().zip(&acc) {
        *s += f64::from(fold(a));
    }
}

/// For a group of four tokens, by the bit mask of those inside the band: their positions first.
// Evaluated by the compiler: an index out of range is a build error, never a panic at run time.
#[allow(clippy::indexing_slicing)]
const POSITIONS: [[u32; 4]; 16] = {
    let mut table = [[0u32; 4]; 16];
    let mut m = 0;
    while m < 16 {
        let (mut j, mut k) = (0, 0);
        while j < 4 {
            if m & (1 << j) != 0 {
                table[m][k] = j as u32;
                k += 1;
            }
            j += 1;
        }
        m += 1;
    }
    table
};

/// Writes the ids whose logit is in [lo, hi] (and whose mark is KEPT, given `marks`) to the
/// front of `out` (at least 4 longer than the logits), in id order, and returns how many. No
/// branch on the logits: per block, each token's test as a byte (a loop that vectorises), then
/// four at a time their bit mask from the four bytes (one multiply), the positions of those
/// inside from a table, four ids stored and the count advanced by how many were inside.
pub(super) fn compact_band(
    processed: &[f32],
    marks: Option<&[u8]>,
    (lo, hi): (f32, f32),
    out: &mut [u32],
) -> usize {
    let mut count = 0usize;
    let mut flags_all = [0u8; BLOCK];
    for (start, ls) in (0..).step_by(BLOCK).zip(processed.chunks(BLOCK)) {
        let flags = flags_all.get_mut(..ls.len()).unwrap_or_default();
        match marks.and_then(|m| m.get(start..start + ls.len())) {
            None => {
                for (f, &l) in flags.iter_mut().zip(ls) {
                    *f = u8::from((l >= lo) & (l <= hi));
                }
            }
            Some(ms) => {
                for ((f, &l), &m) in flags.iter_mut().zip(ls).zip(ms) {
                    *f = u8::from((l >= lo) & (l <= hi) & (m == KEPT));
                }
            }
        }
        // The last group padded with tokens outside.
        let whole = ls.len().div_ceil(4) * 4;
        let flags = match flags_all.get_mut(..whole) {
            Some(f) => f,
            None => return count,
        };
        for f in flags.get_mut(ls.len()..).unwrap_or_default() {
            *f = 0;
        }
        for (first, f4) in (start as u32..).step_by(4).zip(flags.chunks_exact(4)) {
            let word = <[u8; 4]>::try_from(f4).unwrap_or_default();
            // Bytes b0..b3 (each 0 or 1) to b0 | b1 << 1 | b2 << 2 | b3 << 3 in bits 24..27.
            let mask = (u32::from_le_bytes(word).wrapping_mul(0x0102_0408) >> 24) & 0xf;
            let at = POSITIONS.get(mask as usize).copied().unwrap_or_default();
            if let Some(dst) = out.get_mut(count..count + 4) {
                for (d, &j) in dst.iter_mut().zip(&at) {
                    *d = first + j;
                }
            }
            count += mask.count_ones() as usize;
        }
    }
    count
}
