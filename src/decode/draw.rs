//! The draw: the token the inverse CDF picks over the final distribution (whose weights and keys
//! final_pass.rs computed), found without ordering the candidates.
//!
//! The candidate order is final p descending, ties by lower id. Each kept token gets the key
//! `bits(w) << 32 | !id`, where w ≥ 0 is its float32 weight e^((l − max)/T): for non-negative
//! floats the bit pattern orders like the value, so a larger key is exactly an earlier candidate,
//! and the selection compares plain integers instead of looking weights up by id.
//!
//! The inverse CDF picks the first candidate whose cumulative mass exceeds u·z. One read of the
//! keys sums the mass in each bucket of the weight's top bits (buckets order like the keys), the
//! walk over the buckets finds the one where u·z is crossed, and a weighted quickselect over that
//! bucket's keys finishes (only the last few dozen keys are sorted). Masses are summed in f64 in
//! a different order than a sorted walk would, so a u within ~1e-15 of a boundary could pick the
//! neighbour; the pinned draws (tests/draw_pins.rs) and the properties "selection ≡ sorted walk"
//! (below, and over every configuration in tests/properties.rs) hold it to the walk.

use super::exact_sum::exact_below;

/// Order key of a kept token: larger = earlier in the candidate order (weight desc, id asc).
#[inline(always)]
pub(crate) fn key(weight: f32, id: u32) -> u64 {
    (u64::from(weight.to_bits()) << 32) | u64::from(!id)
}

#[inline(always)]
pub(crate) fn key_id(key: u64) -> u32 {
    !(key as u32)
}

#[inline(always)]
pub(crate) fn key_weight(key: u64) -> f64 {
    f64::from(f32::from_bits((key >> 32) as u32))
}

/// The token the inverse CDF picks: its id, its rank in the candidate order, and its cum.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Drawn {
    pub id: u32,
    pub rank: usize,
    pub cum: f64,
}

/// Ranges this short are sorted and walked.
pub(crate) const WALK_MAX: usize = 32;

/// Buckets of the weight's float bits: sign, exponent and the top 3 mantissa bits (`bits >> 20`),
/// so a bucket spans at most an eighth of a binade and every non-negative float has one.
const BUCKETS: usize = 2048;
const BUCKET_SHIFT: u32 = 32 + 20;
/// Up to this many keys the quickselect runs on all of them, in place.
const SELECT_DIRECTLY: usize = 2048;

/// What the final pass's read of the keys already put into the draw's bucket tables.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Tallied<'a> {
    /// Nothing: the draw counts every key itself.
    No,
    /// Every key.
    All,
    /// Only the keys at or above a `gate`: these, in id order (every other bucket is empty in
    /// the tables).
    Gated(&'a [u64]),
}

/// The first candidate (by key, descending) whose cumulative weight exceeds `u · z`, with its
/// rank and cum = that cumulative weight / z (at most 1). If rounding leaves the total at or
/// below u·z, the last candidate (cum 1), as the sorted walk did.
///
/// Two reads of the keys and no writes to them: the first sums each bucket's weight and count
/// (buckets order like the keys, so the buckets above the crossing one are wholly earlier
/// candidates; `tallied`: the final pass's read of the keys already did, into `tables`), the
/// second copies out the crossing bucket's keys, and a weighted quickselect
/// finishes within that bucket. Up to `SELECT_DIRECTLY` keys are selected over in place instead
/// (then `keys` is permuted).
///
/// Gated tables (`Tallied::Gated`) hold only the buckets from the gate up, each whole: the walk
/// over them passes the same masses and counts as over complete tables, so where it crosses it
/// crosses in the same bucket with the same mass above; the crossing bucket's keys come from the
/// gated keys, in the same order. If it does not cross there (u·z within rounding of z, where
/// the gate is lowest anyway), every key is counted and the walk runs again, as without a gate.
pub(crate) fn inverse_cdf(
    keys: &mut [u64],
    tables: &mut Vec<u64>,
    tallied: Tallied<'_>,
    u: f64,
    z: f64,
) -> Drawn {
    let target = u * z;
    if keys.len() <= SELECT_DIRECTLY {
        // Too few keys for the buckets' fixed cost: select over them in place.
        return select_within(keys, 0.0, target, z, true);
    }
    match tallied {
        Tallied::No => count_all(keys, tables),
        Tallied::All => {}
        Tallied::Gated(gated) => {
            if let Some(d) = from_tables(gated, tables, gated.len() == keys.len(), target, z) {
                return d;
            }
            count_all(keys, tables);
        }
    }
    // Complete tables are always crossed (in the lowest bucket at the latest).
    from_tables(keys, tables, true, target, z).unwrap_or(Drawn {
        id: 0,
        rank: 0,
        cum: 1.0,
    })
}

/// `inverse_cdf`'s draw when it lands among `head`, the best keys in order (best first), found
/// by a walk down them alone; None when it lands past them or a sum there could round.
///
/// While the running sum of the head's weights stays below half of `exact_below` of the least
/// one so far (exact_sum.rs), every sum the bucket walk and the selection form up to that key is
/// exact: each is a sum of weights ranked up to it plus, at most, the rest of its bucket (each a
/// whole number of its unit and, with ≤ 2^20 keys of at most twice its weight, under that half).
/// So the draw is then the first key whose exact running sum exceeds u·z, whatever the order of
/// the additions: the same key, rank and cum, bit for bit, without reading any other key.
pub(crate) fn within_head(head: &[u64], target: f64, z: f64) -> Option<Drawn> {
    let (mut above, mut least) = (0.0f64, u32::MAX);
    for (rank, &k) in head.iter().enumerate() {
        let bits = (k >> 32) as u32;
        if f32::from_bits(bits) > 0.0 {
            least = least.min(bits);
        }
        above += key_weight(k);
        if above >= exact_below(least) * 0.5 {
            return None;
        }
        if above > target {
            return Some(Drawn {
                id: key_id(k),
                rank,
                cum: (above / z).min(1.0),
            });
        }
    }
    None
}

/// `inverse_cdf` with gated tables (`Tallied::Gated`) over `n` keys that were never stored
/// (`Work::weights_by_exp`): the draw, or None when the walk does not cross within the gated
/// buckets (then the caller writes every key and draws with `Tallied::No`, as `inverse_cdf`
/// itself falls back). Only for n above `SELECT_DIRECTLY` (`uses_tables`).
pub(crate) fn gated_inverse_cdf(
    n: usize,
    gated: &[u64],
    tables: &[u64],
    u: f64,
    z: f64,
) -> Option<Drawn> {
    from_tables(gated, tables, gated.len() == n, u * z, z)
}

/// The walk over `tables` (every key when `complete`, else only the buckets from a gate up) and
/// the selection within the crossing bucket, whose keys are copied out of `source` in its order.
/// None when incomplete tables are never crossed.
fn from_tables(
    source: &[u64],
    tables: &[u64],
    complete: bool,
    target: f64,
    z: f64,
) -> Option<Drawn> {
    let sums = bucket_sums(tables);
    let (bucket, above, rank, last_bucket) = walk(&sums, target, complete)?;
    let mut members: Vec<u64> = Vec::with_capacity(sums.1.get(bucket).map_or(0, |&c| c as usize));
    members.extend(
        source
            .iter()
            .copied()
            .filter(|&k| k >> BUCKET_SHIFT == bucket as u64),
    );
    let d = select_within(&mut members, above, target, z, last_bucket);
    Some(Drawn {
        rank: rank + d.rank,
        ..d
    })
}

#[path = "draw_prepared.rs"]
mod prepared;
pub(crate) use prepared::{draw_prepared, prepare};
#[cfg(test)]
use prepared::{order, search_ordered};

/// Walks the buckets from the top; stops in the one where the running mass passes u·z, or, if
/// rounding keeps it at or below u·z throughout and the tables are `complete`, in the lowest
/// non-empty one. Returns that bucket, the mass and count above it, and whether it is the lowest;
/// None when incomplete tables are never crossed.
fn walk(
    sums: &(Vec<f64>, Vec<u32>),
    target: f64,
    complete: bool,
) -> Option<(usize, f64, usize, bool)> {
    let (mass, count) = sums;
    let (mut above, mut rank) = (0.0f64, 0usize);
    let lowest = count.iter().position(|&c| c > 0).unwrap_or(0);
    for b in (lowest..BUCKETS).rev() {
        let (m, c) = (
            mass.get(b).copied().unwrap_or(0.0),
            count.get(b).copied().unwrap_or(0),
        );
        if c == 0 {
            continue;
        }
        if above + m > target || (complete && b == lowest) {
            return Some((b, above, rank, complete && b == lowest));
        }
        above += m;
        rank += c as usize;
    }
    complete.then_some((lowest, above, rank, true))
}

/// The least key the final pass tallies for a draw of `u` over `n` keys whose weights sum to
/// `z`: the start of the bucket of (1 − u)·z / 2n. Every key below it weighs less than that, so
/// all of them together weigh less than half of z − u·z: the walk crosses u·z above the gate
/// (unless z's rounding is that large), and on a peaked distribution most keys are below it.
/// 0 (every key) when there is no such weight.
pub(crate) fn gate(u: f64, z: f64, n: usize) -> u64 {
    let tau = ((z - u * z) / (2.0 * n as f64)) as f32;
    if tau > 0.0 && tau.is_finite() {
        (u64::from(tau.to_bits()) >> 20) << BUCKET_SHIFT
    } else {
        0
    }
}

/// Whether `inverse_cdf` over this many keys reads bucket tables (then a pass that reads every
/// key anyway, final_pass.rs, fills them with `tally` and passes `counted`).
pub(crate) fn uses_tables(keys: usize) -> bool {
    keys > SELECT_DIRECTLY
}

/// The bucket tables of `tally`: four of `BUCKETS` entries each, zeroed.
pub(crate) fn clear_tables(tables: &mut Vec<u64>) {
    tables.clear();
    tables.resize(TABLES * BUCKETS, 0);
}

const TABLES: usize = 4;
const COUNT_SHIFT: u32 = 43;

/// Adds the key at position `i` to its bucket, in table `i mod 4`: `count << 43 | Σ mantissa`.
///
/// Every weight in a bucket has the same float32 exponent, so each is an integer number of that
/// exponent's ulps below 2^24, and at most `MAX_LOGITS` = 2^20 of them sum to below 2^44 ulps:
/// every partial sum is exact in f64, in any order. So the sums are accumulated as integers in
/// four interleaved tables, which breaks the store-to-load chain of consecutive keys in one
/// bucket (a flat distribution), and `bucket_sums` gives bit for bit the f64 sums in id order
/// this replaced.
#[inline(always)]
pub(crate) fn tally(tables: &mut [u64], i: usize, k: u64) {
    const MANTISSA: u64 = (1 << 23) - 1;
    let b = (k >> BUCKET_SHIFT) as usize & (BUCKETS - 1);
    if let Some(slot) = tables.get_mut((i % TABLES) * BUCKETS + b) {
        *slot += (1u64 << COUNT_SHIFT) + ((k >> 32) & MANTISSA);
    }
}

/// `tally` over every key.
fn count_all(keys: &[u64], tables: &mut Vec<u64>) {
    clear_tables(tables);
    for (i, &k) in keys.iter().enumerate() {
        tally(tables, i, k);
    }
}

/// The ulp of every float32 weight in bucket `b` (its exponent field; 0, subnormals and zero,
/// has exponent 1's ulp): each weight there is a whole number of it.
#[inline]
fn bucket_ulp(b: usize) -> f64 {
    let exponent = (b >> 3) as u64;
    f64::from_bits((exponent.max(1) + 1023 - 150) << 52)
}

/// Per bucket: the total weight and the count of its keys, from the tables `tally` filled.
fn bucket_sums(tables: &[u64]) -> (Vec<f64>, Vec<u32>) {
    let mut mass = vec![0.0f64; BUCKETS];
    let mut count = vec![0u32; BUCKETS];
    for (b, (m, c)) in mass.iter_mut().zip(count.iter_mut()).enumerate() {
        let total: u64 = (0..TABLES)
            .map(|t| tables.get(t * BUCKETS + b).copied().unwrap_or(0))
            .sum();
        let n = total >> COUNT_SHIFT;
        let mantissas = total & ((1 << COUNT_SHIFT) - 1);
        // The bucket's exponent field; 0 (subnormals, zero) scales like 1 without the implicit bit.
        let exponent = (b >> 3) as u64;
        let implicit = if exponent > 0 { 1u64 << 23 } else { 0 };
        let ulp = bucket_ulp(b);
        *m = (n * implicit + mantissas) as f64 * ulp;
        *c = n as u32;
    }
    (mass, count)
}

/// `inverse_cdf` within one range of the candidate order: `above` is the mass ranked before it;
/// `last`: whether the range ends the order (then falling short means the last candidate, cum 1).
/// A weighted quickselect: partition around a pivot, compare the upper part's mass with what is
/// left of u·z, continue in one part; only the last ≤ 32 keys are sorted. Ranks are within `keys`.
fn select_within(keys: &mut [u64], mut above: f64, target: f64, z: f64, last: bool) -> Drawn {
    let n = keys.len();
    let (mut lo, mut hi) = (0usize, n);
    let mut state = 0x2545_f491_4f6c_dd1du64 ^ n as u64;
    while hi - lo > WALK_MAX {
        let range = keys.get_mut(lo..hi).unwrap_or_default();
        // (never empty: hi − lo > WALK_MAX)
        let Some(last) = range.len().checked_sub(1) else {
            break;
        };
        range.swap(median_of_three(range, &mut state), last);
        let Some((&mut pivot, below)) = range.split_last_mut() else {
            break;
        };
        let (split, mass) = partition_above(below, pivot);
        // range[..split] > pivot > range[split + 1..], the pivot at split.
        range.swap(split, last);
        if above + mass > target {
            hi = lo + split;
            continue;
        }
        above += mass;
        lo += split;
        let w = key_weight(pivot);
        if above + w > target {
            return Drawn {
                id: key_id(pivot),
                rank: lo,
                cum: ((above + w) / z).min(1.0),
            };
        }
        above += w;
        lo += 1;
    }
    let rest = keys.get_mut(lo..hi).unwrap_or_default();
    rest.sort_unstable_by(|a, b| b.cmp(a));
    for (i, &k) in rest.iter().enumerate() {
        above += key_weight(k);
        if above > target {
            return Drawn {
                id: key_id(k),
                rank: lo + i,
                cum: (above / z).min(1.0),
            };
        }
    }
    // Rounding: the total fell short of u·z. The last key of this range is the last candidate
    // when every cut went to the lower side of the last range (the sorted walk's fallback);
    // otherwise u·z lies within rounding of this range's end.
    let end = hi.saturating_sub(1);
    Drawn {
        id: keys.get(end).copied().map_or(0, key_id),
        rank: end,
        cum: if hi == n && last {
            1.0
        } else {
            (above / z).min(1.0)
        },
    }
}

/// Moves every key > `pivot` to the front; returns how many and their total weight. Branch-free
/// Lomuto (swap always, advance by the comparison), since on a flat distribution half the
/// comparisons go either way and a branch would mispredict on every other key.
fn partition_above(keys: &mut [u64], pivot: u64) -> (usize, f64) {
    let mut split = 0usize;
    let mut mass = 0.0f64;
    for read in 0..keys.len() {
        let Some(&k) = keys.get(read) else { break };
        // keys[split..read] are all ≤ pivot, so swapping within them keeps the invariant.
        keys.swap(split, read);
        let above = k > pivot;
        mass += if above { key_weight(k) } else { 0.0 };
        split += usize::from(above);
    }
    (split, mass)
}

/// The position of a pivot: the median of three pseudo-random positions (a fixed-seed
/// xorshift, so draws stay pure functions of their input).
fn median_of_three(range: &[u64], state: &mut u64) -> usize {
    let len = range.len() as u64;
    let mut pick = || {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        (*state % len) as usize
    };
    let (a, b, c) = (pick(), pick(), pick());
    let at = |i: usize| range.get(i).copied().unwrap_or(0);
    let (ka, kb, kc) = (at(a), at(b), at(c));
    if (ka <= kb) == (kb <= kc) {
        b
    } else if (kb <= ka) == (ka <= kc) {
        a
    } else {
        c
    }
}

#[cfg(test)]
#[path = "draw_tests.rs"]
mod tests;
