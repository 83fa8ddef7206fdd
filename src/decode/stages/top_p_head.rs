//! top-p's head when tens of thousands pass the pre-filter (an open context): where the running
//! mass surely crosses p, found by counting the head in equal-width logit buckets; the tokens of
//! that bucket and above sorted by (logit desc, id asc); the walk down them in blocks whose exps
//! vectorise. The same order and the same sequential f64 sum as top_p.rs's walk, bit for bit.

use super::super::exact_sum::{exact_below, sum_and_least};
use super::super::select::{from_ordered_bits, logit_key, radix_sort_desc_high};
use super::super::softmax::exp_f32;

/// The head's buffers, kept in `Work` between calls (a fresh 600 KB vector per call cost its
/// page faults).
#[derive(Debug, Default)]
pub(crate) struct HeadBuffers {
    /// Sort keys (`logit_key`) of the head through the crossing bucket, in logit order.
    pub keys: Vec<u64>,
    /// The radix sort's second buffer.
    spare: Vec<u64>,
    /// The kept ids, best first.
    pub prefix: Vec<u32>,
    /// The walk's logits and weights of `prefix`, in its order, and the (max, inv_t) bits they
    /// are at; None once the logits may have changed (`Work::reset_scanned`, `logits_changed`).
    /// The final pass reads them in order instead of gathering the logits and taking the exps
    /// again (gathered.rs), while the kept list is still `prefix`.
    pub logits: Vec<f32>,
    pub weights: Vec<f32>,
    pub at: Option<(u32, u32)>,
}

impl HeadBuffers {
    /// The logits and weights of `kept`, in its order, when top-p's walk left exactly that list
    /// at (max, inv_t).
    pub(crate) fn ordered(&self, kept: &[u32], max: f32, inv_t: f32) -> Option<(&[f32], &[f32])> {
        let at = (max.to_bits(), inv_t.to_bits());
        let ready = self.at == Some(at)
            && self.weights.len() == kept.len()
            && self.logits.len() == kept.len()
            && self.prefix == kept;
        ready.then_some((&self.logits, &self.weights))
    }
}

/// Equal-width buckets of the logit between the pre-filter's cut and the max: every bucket's
/// weights lie within a factor e^(width/T) of each other wherever the head lies.
const BUCKETS: usize = 4096;

/// The bucket of logit `l` in [cut, max]: (max − l)·scale rounded to the nearest whole number,
/// within [0, last]. Float32 subtraction, multiplication and rounding are monotone, so a lower
/// logit never gets a lower bucket. Comparisons and the 2^23 rounding trick instead of a float to
/// integer cast (scalar, with its saturation checks), so a block of them vectorises.
#[inline(always)]
fn bucket_of(l: f32, max: f32, scale: f32) -> u32 {
    const LAST: f32 = (BUCKETS - 1) as f32;
    const ROUND: f32 = 8_388_608.0; // 2^23: x + 2^23 for x in [0, 2^23) has x's integer in its low bits
    let x = (max - l) * scale;
    let x = if x > 0.0 { x } else { 0.0 };
    let x = if x < LAST { x } else { LAST }; // NaN: the last
    (x + ROUND).to_bits() & 0x7f_ffff
}

/// Bucket indices of a block of logits, in a loop of their own (it vectorises).
const BLOCK: usize = 256;
#[inline(always)]
fn buckets_of(block: &[f32], max: f32, scale: f32, out: &mut [u32; BLOCK]) {
    for (slot, &l) in out.iter_mut().zip(block) {
        *slot = bucket_of(l, max, scale);
    }
}

/// The sort keys (`logit_key`) of the head (`ids` in id order, `logits` theirs) through the
/// bucket where the running mass (logit order) surely reaches `target`, sorted descending, into
/// `keys` (reused between calls); None if no bucket does. Every token of a bucket ranks before every token of a later one, so this is
/// exactly the sorted head's first part. Buckets are only counted: a bucket's mass is at least its
/// count times the weight at its low edge, so the bucket found is at or below the one the walk
/// crosses in.
pub(super) fn through_crossing_bucket(
    ids: &[u32],
    logits: &[f32],
    (max, cut, inv_t): (f32, f32, f32),
    target: f64,
    buf: &mut HeadBuffers,
) -> Option<()> {
    let width = f64::from(max) - f64::from(cut);
    if !(width > 0.0 && width.is_finite()) {
        return None;
    }
    let scale = (BUCKETS as f64 / width) as f32;
    // Two tables, even and odd positions: neighbours in one bucket do not wait on each other's
    // increment.
    let mut count = [[0u32; BUCKETS]; 2];
    let mut at = [0u32; BLOCK];
    for block in logits.chunks(BLOCK) {
        buckets_of(block, max, scale, &mut at);
        for two in at.get(..block.len()).unwrap_or_default().chunks(2) {
            for (table, &b) in count.iter_mut().zip(two) {
                if let Some(c) = table.get_mut(b as usize) {
                    *c += 1;
                }
            }
        }
    }
    let [even, odd] = &count;
    // Bucket b's logits are above max − (b + 1/2)/scale; the slack covers the float32 rounding of
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
    // mispredict), so a stable sort by the logit alone leaves ties by lower id. Where few pass
    // (the crossing high in the head: 831 of 20,024 at T 0.8, p 0.95 on an open context) a group
    // of eight with none is passed over after one comparison (it vectorises); where many do, a
    // test per group would only add to the pass.
    let keys = &mut buf.keys;
    keys.clear();
    keys.resize(through, 0);
    let (mut len, last) = (0usize, last as u32);
    let sparse = through * 16 < ids.len();
    for (block_ids, block) in ids.chunks(BLOCK).zip(logits.chunks(BLOCK)) {
        buckets_of(block, max, scale, &mut at);
        if sparse {
            let block_at = at.get(..block.len()).unwrap_or_default();
            let groups = block_ids
                .chunks(8)
                .zip(block.chunks(8))
                .zip(block_at.chunks(8));
            for ((group_ids, group), group_at) in groups {
                if group_at.iter().fold(false, |any, &b| any | (b <= last)) {
                    for ((&id, &l), &b) in group_ids.iter().zip(group).zip(group_at) {
                        if let Some(slot) = keys.get_mut(len) {
                            *slot = logit_key(l, id);
                        }
                        len += usize::from(b <= last);
                    }
                }
            }
            continue;
        }
        for ((&id, &l), &b) in block_ids.iter().zip(block).zip(&at) {
            if let Some(slot) = keys.get_mut(len) {
                *slot = logit_key(l, id);
            }
            len += usize::from(b <= last);
        }
    }
    keys.truncate(len);
    radix_sort_desc_high(keys, &mut buf.spare);
    Some(())
}

/// The logit a `logit_key` holds.
#[inline(always)]
fn key_logit(key: u64) -> f32 {
    from_ordered_bits((key >> 32) as u32)
}

/// Walks the sorted `keys` from `(keep, mass)` (the first `keep` already kept, their mass) until
/// the mass above the next one reaches `target` (at least one kept): how many are kept and their
/// mass. The exps of a block are computed in a loop of their own (it vectorises). While every
/// sum of the weights walked so far is exact (exact_sum.rs: true of the head an open context
/// keeps unless p is within ~3e-4 of 1), a block whose total leaves the mass below the target is
/// added at once, in lanes; the block that crosses, and every block once a sum could round, is
/// summed one weight at a time in order. Both give the sequential f64 sum's bits. Every block's
/// logits and weights are appended to `out`.
pub(super) fn walk_keys(
    keys: &[u64],
    (mut keep, mut mass): (usize, f64),
    max: f32,
    inv_t: f32,
    target: f64,
    out: &mut (Vec<f32>, Vec<f32>),
) -> (usize, f64) {
    const BLOCK: usize = 256;
    let (mut l, mut e) = ([0.0f32; BLOCK], [0.0f32; BLOCK]);
    // The least positive weight walked so far (its bits), while every sum has been exact.
    let mut least = Some(u32::MAX);
    for block in keys.get(keep..).unwrap_or_default().chunks(BLOCK) {
        // The logits out of the keys first: a loop over 64-bit keys holds two per vector, the
        // exps' loop over float32 four.
        for (slot, &k) in l.iter_mut().zip(block) {
            *slot = key_logit(k);
        }
        for (slot, &x) in e.iter_mut().zip(&l) {
            *slot = exp_f32((x - max) * inv_t);
        }
        let e = e.get(..block.len()).unwrap_or_default();
        // Every block walked (logits and weights), for the final pass; cut to `keep` by the caller.
        out.0
            .extend_from_slice(l.get(..block.len()).unwrap_or_default());
        out.1.extend_from_slice(e);
        if let Some(walked) = least {
            let (sum, block_least) = sum_and_least(e);
            let lowest = walked.min(block_least);
            let through = mass + sum;
            least = (through < exact_below(lowest)).then_some(lowest);
            // Every running sum inside the block is at most `through`: none reaches the target.
            if least.is_some() && through < target {
                mass = through;
                keep += block.len();
                continue;
            }
        }
        for &w in e {
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
    use super::super::super::softmax::weight;
    use super::{key_logit, walk_keys};
    use proptest::prelude::*;

    /// The walk as it was: one weight at a time, in order.
    fn sequential(
        keys: &[u64],
        (mut keep, mut mass): (usize, f64),
        max: f32,
        inv_t: f32,
        target: f64,
    ) -> (usize, f64) {
        while let Some(&k) = keys.get(keep) {
            if keep >= 1 && mass >= target {
                break;
            }
            mass += weight(key_logit(k), max, inv_t);
            keep += 1;
        }
        (keep, mass)
    }

    /// Logits of one of three shapes: an open context's spread; a grid (ties); a few on top of
    /// a bulk 2^30 times lighter (sums stop being exact part-way). Some −inf.
    fn logits() -> impl Strategy<Value = Vec<f32>> {
        let spread = prop_oneof![
            6 => -12.0f32..0.0,
            2 => (-24i32..=0).prop_map(|q| q as f32 * 0.5),
            1 => Just(f32::NEG_INFINITY),
        ];
        let light = prop_oneof![
            1 => Just(0.0f32),
            30 => -23.0f32..-20.0,
        ];
        prop_oneof![
            prop::collection::vec(spread, 1..3000),
            prop::collection::vec(light, 1..3000),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..Default::default() })]

        /// Adding whole blocks while the sums are exact walks to the same cut with the same mass
        /// bits as adding one weight at a time, from any start, for targets anywhere, including
        /// exactly a running sum's value and past the total.
        #[test]
        fn the_block_walk_is_the_sequential_walk(
            logits in logits(),
            inv_t in prop_oneof![Just(1.0f32), Just(0.5), 0.4f32..2.5],
            start in 0.0f64..1.0,
            at in 0.0f64..1.0,
            how in 0u8..4,
        ) {
            let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            prop_assume!(max.is_finite());
            let mut keys: Vec<u64> = logits.iter().enumerate().map(|(i, &l)| logit_key(l, i as u32)).collect();
            keys.sort_unstable_by(|a, b| b.cmp(a));
            let total = sequential(&keys, (0, 0.0), max, inv_t, f64::INFINITY).1;
            let j = (at * keys.len() as f64) as usize;
            let target = match how {
                0 => at * total,
                // Exactly the running sum after j keys: equality keeps no more.
                1 => keys.iter().take(j).fold(0.0, |m, &k| m + weight(key_logit(k), max, inv_t)),
                2 => total * (1.0 + 1e-9),
                _ => 0.0,
            };
            let keep0 = (start * keys.len() as f64) as usize / 2;
            let mass0 = keys.iter().take(keep0).fold(0.0, |m, &k| m + weight(key_logit(k), max, inv_t));
            let want = sequential(&keys, (keep0, mass0), max, inv_t, target);
            let got = walk_keys(&keys, (keep0, mass0), max, inv_t, target, &mut (Vec::new(), Vec::new()));
            prop_assert_eq!(got.0, want.0);
            prop_assert_eq!(got.1.to_bits(), want.1.to_bits());
        }
    }

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
