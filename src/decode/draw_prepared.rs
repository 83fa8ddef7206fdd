//! Many draws over the same keys (`sampleCounts`, many.rs): the bucket tables summed once, the keys
//! grouped by bucket once, and a bucket drawn in more than once ordered once and binary-searched.
//! Each draw gives what `inverse_cdf` gives with every key counted (draw_tests.rs, many_draws.rs).

use super::{
    bucket_sums, bucket_ulp, count_all, key_id, key_weight, select_within, walk, Drawn, BUCKETS,
    BUCKET_SHIFT,
};

/// Many draws over the same keys (many.rs): the tables `inverse_cdf` counts, summed once, and each
/// bucket's keys in the order it copies them out (id order), so a draw walks the buckets and
/// selects within one: the same bucket, mass above and members as `inverse_cdf` with every key
/// counted, so the same token.
#[derive(Debug)]
pub(crate) struct Prepared {
    sums: (Vec<f64>, Vec<u32>),
    /// Bucket b's keys are `members[start[b]..start[b + 1]]`.
    start: Vec<usize>,
    members: Vec<u64>,
    /// Per bucket: how many draws selected in it, and once a second one did (a large bucket),
    /// its keys in candidate order with their running masses (`Ordered`).
    hits: Vec<u32>,
    ordered: Vec<Option<Ordered>>,
}

/// One bucket's keys in candidate order and the running mass through each. Every weight in a
/// bucket is a whole number of the bucket's ulps, so these sums are exact in f64.
#[derive(Debug)]
pub(super) struct Ordered {
    keys: Vec<u64>,
    cum: Vec<f64>,
}

/// A bucket at least this large is ordered once, at its second draw: each later draw in it is a
/// binary search instead of a quickselect over all of it (a flat distribution puts most of the
/// vocabulary in one bucket, and `sampleCounts` draws thousands of times).
const ORDER_MIN: usize = 256;

/// The tables and the keys grouped by bucket (a stable counting sort), for `draw_prepared`.
pub(crate) fn prepare(keys: &[u64], tables: &mut Vec<u64>) -> Prepared {
    count_all(keys, tables);
    let sums = bucket_sums(tables);
    let bucket = |k: u64| (k >> BUCKET_SHIFT) as usize;
    let mut start = vec![0usize; BUCKETS + 1];
    for &k in keys {
        if let Some(c) = start.get_mut(bucket(k) + 1) {
            *c += 1;
        }
    }
    for b in 1..start.len() {
        let before = start.get(b - 1).copied().unwrap_or(0);
        if let Some(c) = start.get_mut(b) {
            *c += before;
        }
    }
    let mut next = start.clone();
    let mut members = vec![0u64; keys.len()];
    for &k in keys {
        if let Some(at) = next.get_mut(bucket(k)) {
            if let Some(slot) = members.get_mut(*at) {
                *slot = k;
            }
            *at += 1;
        }
    }
    Prepared {
        sums,
        start,
        members,
        hits: vec![0; BUCKETS],
        ordered: (0..BUCKETS).map(|_| None).collect(),
    }
}

/// `inverse_cdf` over the keys `p` was prepared from, every key counted; `scratch` holds the
/// crossing bucket's keys while they are selected over.
pub(crate) fn draw_prepared(p: &mut Prepared, scratch: &mut Vec<u64>, u: f64, z: f64) -> Drawn {
    let target = u * z;
    let (bucket, above, rank, last_bucket) =
        walk(&p.sums, target, true).unwrap_or((0, 0.0, 0, true));
    let from = p.start.get(bucket).copied().unwrap_or(0);
    let to = p.start.get(bucket + 1).copied().unwrap_or(from);
    let members = p.members.get(from..to).unwrap_or_default();
    let hits = p.hits.get(bucket).copied().unwrap_or(0);
    if let Some(h) = p.hits.get_mut(bucket) {
        *h = hits.saturating_add(1);
    }
    if members.len() >= ORDER_MIN && hits >= 1 {
        if let Some(slot) = p.ordered.get_mut(bucket) {
            let ordered = slot.get_or_insert_with(|| order(members));
            if let Some(d) = search_ordered(ordered, bucket, above, target, z, last_bucket) {
                return Drawn {
                    rank: rank + d.rank,
                    ..d
                };
            }
        }
    }
    scratch.clear();
    scratch.extend_from_slice(members);
    let d = select_within(scratch, above, target, z, last_bucket);
    Drawn {
        rank: rank + d.rank,
        ..d
    }
}

/// A bucket's keys in candidate order (descending) with their running masses.
pub(super) fn order(members: &[u64]) -> Ordered {
    let mut keys = members.to_vec();
    keys.sort_unstable_by(|a, b| b.cmp(a));
    let mut total = 0.0f64;
    let cum = keys
        .iter()
        .map(|&k| {
            total += key_weight(k);
            total
        })
        .collect();
    Ordered { keys, cum }
}

/// `select_within` over an ordered bucket by binary search, when it gives the same token: when
/// `above` and every `above + cum` are whole numbers of the bucket's ulps below 2^53 of them, every
/// sum the quickselect forms is exact, so it stops at the first key whose `above + cum` passes
/// u·z, as this does. None otherwise (the caller selects).
pub(super) fn search_ordered(
    o: &Ordered,
    bucket: usize,
    above: f64,
    target: f64,
    z: f64,
    last: bool,
) -> Option<Drawn> {
    let ulp = bucket_ulp(bucket);
    let total = o.cum.last().copied().unwrap_or(0.0);
    let in_ulps = above / ulp;
    let exact = in_ulps.fract() == 0.0 && (above + total) / ulp < 9_007_199_254_740_992.0;
    if !exact {
        return None;
    }
    let i = o.cum.partition_point(|&c| above + c <= target);
    match (o.keys.get(i), o.cum.get(i)) {
        (Some(&k), Some(&c)) => Some(Drawn {
            id: key_id(k),
            rank: i,
            cum: ((above + c) / z).min(1.0),
        }),
        // u·z at or past the bucket's end (the total's rounding): the quickselect's fallback.
        _ => {
            let end = o.keys.len().checked_sub(1)?;
            Some(Drawn {
                id: o.keys.get(end).copied().map_or(0, key_id),
                rank: end,
                cum: if last {
                    1.0
                } else {
                    ((above + total) / z).min(1.0)
                },
            })
        }
    }
}
