//! The validating reads of the logits: their max, and whether any entry is NaN or +inf.

use super::{larger, LANES};

/// One pass over the logits: the max finite-or-−inf value, and whether any entry is NaN or +inf.
pub(crate) fn scan(logits: &[f32]) -> (f32, bool) {
    let mut max = [f32::NEG_INFINITY; LANES];
    let mut bad = [false; LANES];
    let mut lanes = logits.chunks_exact(LANES);
    for group in &mut lanes {
        for ((m, b), &x) in max.iter_mut().zip(bad.iter_mut()).zip(group) {
            *m = if x > *m { x } else { *m };
            *b |= x.is_nan() || x == f32::INFINITY;
        }
    }
    let mut m = max.iter().copied().fold(f32::NEG_INFINITY, larger);
    let mut b = bad.iter().any(|&b| b);
    for &x in lanes.remainder() {
        m = if x > m { x } else { m };
        b |= x.is_nan() || x == f32::INFINITY;
    }
    (m, b)
}

/// `scan` plus how many entries are −inf (the input's removed tokens), in the same lanes and
/// order, so the max is bit for bit `scan`'s (which of 0.0 and −0.0 wins included). What
/// `Decoder::run` validates with: the working set's reset then needs no pass of its own to count.
pub(crate) fn scan_input(logits: &[f32]) -> (f32, bool, usize) {
    let mut max = [f32::NEG_INFINITY; LANES];
    let mut bad = [false; LANES];
    let mut gone = [0u32; LANES];
    let mut lanes = logits.chunks_exact(LANES);
    for group in &mut lanes {
        for (((m, b), g), &x) in max
            .iter_mut()
            .zip(bad.iter_mut())
            .zip(gone.iter_mut())
            .zip(group)
        {
            *m = if x > *m { x } else { *m };
            *b |= x.is_nan() || x == f32::INFINITY;
            *g += u32::from(x == f32::NEG_INFINITY);
        }
    }
    let mut m = max.iter().copied().fold(f32::NEG_INFINITY, larger);
    let mut b = bad.iter().any(|&b| b);
    let mut n: usize = gone.iter().map(|&g| g as usize).sum();
    for &x in lanes.remainder() {
        m = if x > m { x } else { m };
        b |= x.is_nan() || x == f32::INFINITY;
        n += usize::from(x == f32::NEG_INFINITY);
    }
    (m, b, n)
}
