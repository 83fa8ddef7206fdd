//! typical-p's cut by selection: the first item, in a given order, where a running total crosses
//! a mass, found in expected O(n) without sorting the items (draw.rs finds the draw likewise).

use super::draw::WALK_MAX;

/// In the order `cmp` (ascending), the rank of the first item whose inclusive running total of
/// `weight` satisfies `crosses` (monotone: once true, true for every larger total), or None if
/// none does. Expected O(n): halves by selection (`select_nth_unstable_by`) and sums one half per
/// level, so nothing is sorted but the last ≤ 32 items. `items` is permuted.
pub(crate) fn first_crossing<T>(
    items: &mut [T],
    cmp: impl Fn(&T, &T) -> std::cmp::Ordering,
    weight: impl Fn(&T) -> f64,
    crosses: impl Fn(f64) -> bool,
) -> Option<usize> {
    let n = items.len();
    let (mut lo, mut hi, mut above) = (0usize, n, 0.0f64);
    while hi - lo > WALK_MAX {
        let range = items.get_mut(lo..hi).unwrap_or_default();
        let mid = range.len() / 2;
        range.select_nth_unstable_by(mid, &cmp);
        let mass: f64 = range
            .get(..mid)
            .unwrap_or_default()
            .iter()
            .map(&weight)
            .sum();
        if crosses(above + mass) {
            hi = lo + mid;
        } else {
            above += mass;
            lo += mid;
        }
    }
    let rest = items.get_mut(lo..hi).unwrap_or_default();
    rest.sort_unstable_by(&cmp);
    for (i, item) in rest.iter().enumerate() {
        above += weight(item);
        if crosses(above) {
            return Some(lo + i);
        }
    }
    // Rounding: a cut went to the upper side but this range's sum fell short; its end is where
    // the total crossed.
    (hi < n).then(|| hi.saturating_sub(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 300, failure_persistence: None, ..Default::default() })]

        /// typical-p's cut: the first item (score ascending, ties by id) whose running mass
        /// reaches `mass` (≥, HF) or passes it (>, llama.cpp), as a sort and a walk find it.
        #[test]
        fn first_crossing_equals_a_sorted_walk(
            scores in proptest::collection::vec((0u8..6, 0.0f64..1.0), 1..400),
            mass in proptest::prop_oneof![0.0f64..1.0, proptest::strategy::Just(1.0), proptest::strategy::Just(0.5)],
            strict in proptest::bool::ANY,
        ) {
            let z: f64 = scores.iter().map(|s| s.1).sum();
            proptest::prop_assume!(z > 0.0);
            let items: Vec<(f64, u32, f64)> = scores.iter().enumerate().map(|(i, &(q, w))| (f64::from(q) * 0.5, i as u32, w / z)).collect();
            let cmp = |a: &(f64, u32, f64), b: &(f64, u32, f64)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
            let crosses = |cum: f64| if strict { cum > mass } else { cum >= mass };
            let mut sorted = items.clone();
            sorted.sort_by(cmp);
            let mut cum = 0.0;
            let want = sorted.iter().position(|t| { cum += t.2; crosses(cum) });
            let mut work = items.clone();
            let got = first_crossing(&mut work, cmp, |t| t.2, crosses);
            if got != want {
                // Only where summation order decides.
                let at = want.or(got).unwrap_or(0);
                let through: f64 = sorted.iter().take(at + 1).map(|t| t.2).sum();
                proptest::prop_assert!((through - mass).abs() < 1e-12, "got {:?} want {:?}", got, want);
            }
        }
    }
}
