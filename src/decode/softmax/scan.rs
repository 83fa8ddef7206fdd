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

/// Ids per entry of `scan_input`'s block maxima.
pub(crate) const MAX_BLOCK: usize = 1024;

/// `scan` plus how many entries are −inf (the input's removed tokens), in the same lanes and
/// order, so the max is bit for bit `scan`'s (which of 0.0 and −0.0 wins included), and each
/// block of `MAX_BLOCK` entries' max into `block_max` (after a few removals the max of what is
/// left reads those of the untouched blocks: `Work::max_logit`). What `Decoder::run` validates
/// with: the working set's reset then needs no pass of its own to count.
///
/// Without `block_max` (None) the blocks' maxima are not taken (a step that removes no listed
/// ids never reads them), and the loop is the plain one. `copy` is left holding the logits
/// (the working set's processed logits), each block copied while it is in the cache after its
/// scan: a copy of its own read the whole array again.
pub(crate) fn scan_input(
    logits: &[f32],
    block_max: Option<&mut Vec<f32>>,
    copy: &mut Vec<f32>,
) -> (f32, bool, usize) {
    match block_max {
        Some(out) => scan_blocks::<true>(logits, out, copy),
        None => scan_blocks::<false>(logits, &mut Vec::new(), copy),
    }
}

#[inline(always)]
fn scan_blocks<const BLOCKS: bool>(
    logits: &[f32],
    block_max: &mut Vec<f32>,
    copy: &mut Vec<f32>,
) -> (f32, bool, usize) {
    let mut max = [f32::NEG_INFINITY; LANES];
    let mut bad = [false; LANES];
    let mut gone = [0u32; LANES];
    block_max.clear();
    copy.clear();
    copy.reserve(logits.len());
    // Whole blocks (a multiple of LANES: the same lanes as one loop over the array), then the
    // last one's groups, then its tail.
    let mut blocks = logits.chunks_exact(MAX_BLOCK);
    for block in &mut blocks {
        let mut here = [f32::NEG_INFINITY; LANES];
        for group in block.chunks_exact(LANES) {
            for ((((m, h), b), g), &x) in (max.iter_mut())
                .zip(here.iter_mut())
                .zip(bad.iter_mut())
                .zip(gone.iter_mut())
                .zip(group)
            {
                *m = if x > *m { x } else { *m };
                if BLOCKS {
                    *h = if x > *h { x } else { *h };
                }
                *b |= x.is_nan() || x == f32::INFINITY;
                *g += u32::from(x == f32::NEG_INFINITY);
            }
        }
        if BLOCKS {
            block_max.push(here.iter().copied().fold(f32::NEG_INFINITY, larger));
        }
        copy.extend_from_slice(block);
    }
    let last = blocks.remainder();
    copy.extend_from_slice(last);
    let mut lanes = last.chunks_exact(LANES);
    for group in &mut lanes {
        for (((m, b), g), &x) in (max.iter_mut())
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
    if BLOCKS && !last.is_empty() {
        block_max.push(last.iter().copied().fold(f32::NEG_INFINITY, larger));
    }
    (m, b, n)
}

/// The largest of `values` (validated: no NaN), in eight running maxima so the loop pipelines and
/// vectorises; inlined where a hot loop tests blocks against a bound (the heap's block skipping).
#[inline(always)]
pub(crate) fn lane_max(values: &[f32]) -> f32 {
    let mut lanes = [f32::NEG_INFINITY; 8];
    let mut groups = values.chunks_exact(8);
    for group in &mut groups {
        for (m, &x) in lanes.iter_mut().zip(group) {
            *m = larger(*m, x);
        }
    }
    let tail = groups.remainder().iter().copied();
    lanes
        .into_iter()
        .chain(tail)
        .fold(f32::NEG_INFINITY, larger)
}
