//! top-p's head when tens of thousands pass the pre-filter (an open context): where the running
//! mass surely crosses p, found by counting the head in equal-width logit buckets; the tokens of
//! that bucket and above sorted by (logit desc, id asc); the walk down them in blocks whose exps
//! vectorise. The same order and the same sequential f64 sum as top_p.rs's walk, bit for bit.

use super::super::select::{from_ordered_bits, logit_key, radix_sort_desc_high};
use super::super::softmax::exp_f32;

/// Equal-width buckets of the logit between the pre-filter's cut and the max: every bucket's
/// weights lie within a factor e^(width/T) of each other wherever the head lies.
const BUCKETS: usize = 4096;

/// The bucket of logit `l` in [cut, max]: ⌊(max − l)·scale⌋, at most the last. Float32
/// subtraction and multiplication round monotonically, so a lower logit never gets a lower bucket.
#[inline(always)]
fn bucket_of(l: f32, max: f32, scale: f32) -> usize {
    (((max - l) * scale) as usize).min(BUCKETS - 1)
}

/// The sort keys (`logit_key`) of the head (`ids` in id order, `logits` theirs) through the
/// bucket where the running mass (logit order) surely reaches `target`, sorted descending; None
/// if no bucket does. Every token of a bucket ranks before every token of a later one, so this is
/// exactly the sorted head's first part. Buckets are only counted: a bucket's mass is at least its
/// count times the weight at its low edge, so the bucket found is at or below the one the walk
/// crosses in.
pub(super) fn through_crossing_bucket(
    ids: &[u32],
    logits: &[f32],
    (max, cut, inv_t): (f32, f32, f32),
    target: f64,
) -> Option<Vec<u64>> {
    let width = f64::from(max) - f64::from(cut);
    if !(width > 0.0 && width.is_finite()) {
        return None;
    }
    let scale = (BUCKETS as f64 / width) as f32;
    // Two tables, even and odd positions: neighbours in one bucket do not wait on each other's
    // increment.
    let mut count = [[0u32; BUCKETS]; 2];
    for two in logits.chunks(2) {
        for (table, &l) in count.iter_mut().zip(two) {
            if let Some(c) = table.get_mut(bucket_of(l, max, scale)) {
                *c += 1;
            }
        }
    }
    let [even, odd] = &count;
    // Bucket b's logits are above max − (b + 1)/scale; the slack covers the float32 rounding of
    // the bucket index and of exp (not exactly monotone) and the walk's own summation order. If
    // the walk over the part still falls short, the caller walks the head.
    let step = (-f64::from(inv_t) / f64::from(scale) * (1.0 + 1e-5)).exp();
    let (mut cum, mut low_edge, want) = (0.0f64, 1.0f64, target * (1.0 + 1e-6));
    let last = (0..BUCKETS - 1).find(|&b| {
        low_edge *= step;
        let c = even.get(b).copied().unwrap_or(0) + odd.get(b).copied().unwrap_or(0);
        cum += f64::from(c) * low_edge;
        cum >= want
    })?;
    let through: usize = (0..=last)
        .map(|b| (even.get(b).copied().unwrap_or(0) + odd.get(b).copied().unwrap_or(0)) as usize)
        .sum();
    // In id order, stored at every step and advanced only for the bucket's own (no branch to
    // mispredict), so a stable sort by the logit alone leaves ties by lower id.
    let mut keys = vec![0u64; through];
    let mut len = 0usize;
    for (&id, &l) in ids.iter().zip(logits) {
        if let Some(slot) = keys.get_mut(len) {
            *slot = logit_key(l, id);
        }
        len += usize::from(bucket_of(l, max, scale) <= last);
    }
    keys.truncate(len);
    radix_sort_desc_high(&mut keys);
    Some(keys)
}

/// The logit a `logit_key` holds.
#[inline(always)]
fn key_logit(key: u64) -> f32 {
    from_ordered_bits((key >> 32) as u32)
}

/// Walks the sorted `keys` until the mass above the next one reaches `target` (at least one
/// kept): how many are kept and their mass. The exps of a block are computed in a loop of their
/// own (it vectorises), then summed in order in f64: the same values and the same sum as one
/// weight at a time.
pub(super) fn walk_keys(keys: &[u64], max: f32, inv_t: f32, target: f64) -> (usize, f64) {
    const BLOCK: usize = 256;
    let (mut mass, mut keep) = (0.0f64, 0usize);
    let mut e = [0.0f32; BLOCK];
    for block in keys.chunks(BLOCK) {
        for (slot, &k) in e.iter_mut().zip(block) {
            *slot = exp_f32((key_logit(k) - max) * inv_t);
        }
        for &w in e.iter().take(block.len()) {
            if keep >= 1 && mass >= target {
                return (keep, mass);
            }
            mass += f64::from(w);
            keep += 1;
        }
    }
    (keep, mass)
}

#[cfg(test)]
mod tests {
    use super::super::super::select::logit_key;
    use super::key_logit;

    /// A key gives back its logit's exact bits: positive, negative, ±0, ±inf.
    #[test]
    fn key_logit_inverts_logit_key() {
        for l in [
            0.0f32,
            -0.0,
            1.5,
            -1.5,
            18.0,
            -87.25,
            f32::INFINITY,
            f32::NEG_INFINITY,
            1e-30,
        ] {
            assert_eq!(key_logit(logit_key(l, 7)).to_bits(), l.to_bits(), "{l}");
        }
    }
}
