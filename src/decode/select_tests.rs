//! select.rs's tests: each fast selection ≡ a full sort by the same order.
use super::*;
use proptest::strategy::Strategy as _;

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 200, failure_persistence: None, ..Default::default() })]

    /// The best removed tokens as a full sort by (raw logit desc, id asc) lists them, for a
    /// short list (heap), a long one (selection) and all of them (radix): ties, ±0, −inf.
    #[test]
    fn best_removed_equals_a_full_sort(
        values in proptest::collection::vec(proptest::prop_oneof![
            -40.0f32..40.0,
            (0u8..5).prop_map(|q| f32::from(q) - 2.0),
            proptest::strategy::Just(-0.0f32),
            proptest::strategy::Just(0.0f32),
            proptest::strategy::Just(f32::NEG_INFINITY),
            proptest::strategy::Just(f32::MAX),
            proptest::strategy::Just(-f32::MAX),
        ], 1..1500),
        marks in proptest::collection::vec(0u8..3, 1500),
        k_pick in 0usize..4,
    ) {
        let n = values.len();
        let removed_by: Vec<u8> = marks.iter().take(n).map(|&m| if m == 0 { KEPT } else { m }).collect();
        let mut want: Vec<u32> = (0..n as u32).filter(|&id| removed_by[id as usize] != KEPT).collect();
        want.sort_by(|&a, &b| values[b as usize].total_cmp(&values[a as usize]).then(a.cmp(&b)));
        let k = match k_pick { 0 => 10, 1 => 300.min(n), 2 => want.len(), _ => n + 5 };
        want.truncate(k);
        proptest::prop_assert_eq!(best_removed(&values, &removed_by, k), want);
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 300, failure_persistence: None, ..Default::default() })]

    /// Extending a sorted prefix by one (the cutoffs' `min_keep` 1) leaves the ids in the
    /// order the comparator's selection leaves them, and so does any other extension: ties,
    /// a tied top, ±0, −inf, ids in order (contiguous logits) or shuffled, a prefix already sorted,
    /// the rest's max known to the caller or not.
    #[test]
    fn a_block_of_one_is_the_comparators_selection(
        values in proptest::collection::vec(proptest::prop_oneof![
            -40.0f32..40.0,
            (0u8..3).prop_map(|q| f32::from(q) - 1.0),
            proptest::strategy::Just(-0.0f32),
            proptest::strategy::Just(0.0f32),
            proptest::strategy::Just(f32::NEG_INFINITY),
            proptest::strategy::Just(41.0f32),
        ], 1..600),
        shuffle in 0u64..u64::MAX,
        shuffled in proptest::bool::ANY,
        sorted_pick in 0usize..3,
        block in 1usize..4,
    ) {
        let n = values.len();
        let mut ids: Vec<u32> = (0..n as u32).collect();
        let mut state = shuffle | 1;
        for i in (1..n).rev().filter(|_| shuffled) {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            ids.swap(i, (state % (i as u64 + 1)) as usize);
        }
        let cmp = |a: &u32, b: &u32| by_logit(&values, *a, *b);
        let sorted = [0, 1, n / 2][sorted_pick].min(n);
        let sorted = extend_sorted(&mut ids, 0, sorted, cmp);
        // The rest's max as a caller that knows it hands it over (as `scan` finds it: either
        // zero when the top is a zero), or not.
        let max_of_rest = ids[sorted..]
            .iter()
            .map(|&id| values[id as usize])
            .fold(f32::NEG_INFINITY, |m, l| if l > m { l } else { m });
        let (mut fast, mut slow) = (ids.clone(), ids);
        let want = sorted + block;
        let mut known = fast.clone();
        let got = extend_sorted_by_logit(&values, &mut fast, sorted, want, None);
        let got_known =
            extend_sorted_by_logit(&values, &mut known, sorted, want, Some(max_of_rest));
        proptest::prop_assert_eq!(got, extend_sorted(&mut slow, sorted, want, cmp));
        proptest::prop_assert_eq!(got_known, got);
        proptest::prop_assert_eq!(&fast, &slow);
        proptest::prop_assert_eq!(known, slow);
    }
}

/// A zero max handed over by a caller who found −0 first still puts +0 (the total order's top)
/// in front: the sign of a zero is not taken from the caller.
#[test]
fn a_known_zero_max_is_not_trusted_for_its_sign() {
    let values = [-0.0f32, -1.0, 0.0, -0.0, f32::NEG_INFINITY];
    for known in [None, Some(-0.0f32), Some(0.0)] {
        let mut ids: Vec<u32> = (0..values.len() as u32).collect();
        assert_eq!(extend_sorted_by_logit(&values, &mut ids, 0, 1, known), 1);
        assert_eq!(ids[0], 2, "known {known:?}");
    }
}
