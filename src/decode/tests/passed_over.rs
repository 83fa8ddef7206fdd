//! The contiguous passes that pass over a block holding nothing they keep (ranking.rs
//! `ids_at_least`, removal.rs `retain_marked`), and top-p's pre-filter beside them
//! (`candidates_above_into`), keep what a test of every id keeps, in the same order: sparse and
//! dense survivors, runs broken by a swap, blocks cut short at the end.

use super::super::candidates::{Work, KEPT};
use proptest::prelude::*;

/// Logits where about one in `every` is high (9.0 or a tie at 5.0), the rest low; ±0 among them.
fn logits() -> impl Strategy<Value = Vec<f32>> {
    (1usize..4000, 1u32..200, any::<u64>()).prop_map(|(n, every, seed)| {
        let mut x = seed | 1;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                match x % u64::from(every) {
                    0 => 9.0,
                    1 if every > 2 => 5.0,
                    _ => [-3.5f32, 0.0, -0.0, -1.25][(x >> 40) as usize % 4],
                }
            })
            .collect()
    })
}

fn work(logits: &[f32]) -> Work {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut w = Work::default();
    w.reset(logits, max);
    w
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn candidates_above_keeps_every_id_at_or_above_the_cut(
        logits in logits(),
        cut in prop_oneof![Just(5.0f64), Just(9.0), Just(0.0), Just(-2.0), Just(10.0)],
    ) {
        let w = work(&logits);
        let (mut ids, mut values) = (Vec::new(), Vec::new());
        let count = w.candidates_above_into(cut, &mut ids, &mut values);
        let want: Vec<u32> = (0..logits.len() as u32)
            .filter(|&i| f64::from(logits[i as usize]) >= cut)
            .collect();
        prop_assert_eq!(&ids[..count], &want[..]);
        let want_values: Vec<f32> = want.iter().map(|&i| logits[i as usize]).collect();
        prop_assert_eq!(&values[..count], &want_values[..]);
    }

    #[test]
    fn ids_at_least_lists_them_or_says_there_are_too_many(
        logits in logits(),
        cut in prop_oneof![Just(5.0f32), Just(9.0), Just(0.0), Just(-0.0)],
        limit in 0usize..300,
    ) {
        let w = work(&logits);
        let want: Vec<u32> = (0..logits.len() as u32)
            .filter(|&i| logits[i as usize] >= cut)
            .collect();
        let got = w.ids_at_least(cut, limit);
        if want.len() > limit {
            prop_assert_eq!(got, None);
        } else {
            prop_assert_eq!(got, Some(want));
        }
    }

    /// `kept` as a cutoff leaves it (id order, the best swapped to the front and sorted), marks
    /// from the logits: the survivors in `kept`'s order and the sorted prefix's survivors.
    #[test]
    fn retain_marked_keeps_the_marked_in_order(
        logits in logits(),
        cut in prop_oneof![Just(5.0f32), Just(9.0), Just(0.0)],
        best in any::<prop::sample::Index>(),
        sorted in 0usize..3,
    ) {
        let mut w = work(&logits);
        let best = best.index(logits.len());
        w.kept.swap(0, best);
        w.sorted = sorted.min(w.kept.len());
        for (mark, &l) in w.removed_by.iter_mut().zip(&logits) {
            *mark = if l >= cut { KEPT } else { 3 };
        }
        let before = w.kept.clone();
        let survives = |&id: &u32| logits[id as usize] >= cut;
        let want: Vec<u32> = before.iter().copied().filter(survives).collect();
        let want_sorted = before[..w.sorted].iter().filter(|id| survives(id)).count();
        let removed = w.retain_marked();
        prop_assert_eq!(removed, before.len() - want.len());
        prop_assert_eq!(&w.kept, &want);
        prop_assert_eq!(w.sorted, want_sorted);
        prop_assert_eq!(w.all_kept, want.len() == before.len());
    }
}
