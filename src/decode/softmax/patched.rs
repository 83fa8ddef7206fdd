//! The raw softmax's weights as the final distribution's, corrected only where they changed.
//!
//! Why: when the only stages are a bias without bans, the penalties or a min_new_tokens that holds
//! nothing back, at T = 1, they change a few hundred logits of 151,936 and remove nothing. The
//! final distribution is then the raw one except at those ids (if the max stays), yet its sums
//! took a second full pass. Here the raw pass keeps each block's float32 sums; only the blocks
//! holding a changed id are summed again, from the changed logits, in exactly the lanes and order
//! of `weights_keys_and_sums` (and of `lane_sum`, which sums a block the same way). Every other
//! block's sums are the raw pass's: the same terms in the same lanes, so the same bits. The
//! blocks are then added up in order as those passes add them: z and Σ e·s are bit for bit
//! theirs. The weights themselves are not stored: each is `final_weight` of its (changed) logit
//! at the raw max (`Work::weights_by_exp`).

use super::changed_blocks::{ChangedBlocks, BLOCK};
use super::{above, exp_f32, runs_between, EXP_MIN, LANES};

/// The state of the raw pass's block sums, for weights computed again from the logits.
#[derive(Debug, Default)]
pub(crate) struct RawBlocks {
    /// The max the raw pass's weights are at; None when its block sums are not held.
    at: Option<f32>,
    /// Per block: its (Σ e, Σ e·s) in float32 as of the last `sums`, and the ids changed since.
    changes: ChangedBlocks,
}

/// The farthest the final distribution's max may lie from the raw pass's for its sums to be the
/// raw pass's block sums scaled by e^(raw max − max): a weight the raw pass flushed to 0 (its
/// logit 87 below the raw max) is then below e^−71 of the final max's, nothing a sum of 151,936
/// float32 weights can hold.
const MAX_SHIFT: f32 = 16.0;

impl RawBlocks {
    /// The block sums are no longer the raw pass's (new logits, or another first pass).
    pub fn off(&mut self) {
        self.at = None;
        self.changes.pending.clear();
    }

    /// After the raw pass at `max` wrote its block sums into `blocks()`.
    pub fn on(&mut self, max: f32, n: usize) {
        self.at = Some(max);
        self.changes.reset(n);
    }

    /// Where the raw pass puts its block sums.
    pub fn blocks(&mut self) -> &mut Vec<[f32; 2]> {
        &mut self.changes.blocks
    }

    /// A stage changed the logits of `ids` (and only those).
    pub fn changed(&mut self, ids: impl IntoIterator<Item = u32>) {
        if self.at.is_some() {
            self.changes.pending.extend(ids);
        }
    }

    /// Brings the changed ids' blocks' sums up to date (`processed` holds the logits now, and
    /// `removed` the ids stages removed, each of them also `changed`: weight 0) and returns
    /// (z, Σ e·s) of the distribution at the raw pass's max, T = 1. `remembered`: every
    /// id's weight at that max and T = 1 (cached.rs, refreshed where logits changed), read
    /// instead of taking the exps again.
    pub fn sums(
        &mut self,
        processed: &[f32],
        remembered: Option<&[f32]>,
        removed: &[u32],
    ) -> (f64, f64) {
        let Some(max) = self.at else {
            return (0.0, 0.0);
        };
        let scaled = |l: f32| above(l - max, EXP_MIN - 1.0);
        for b in self.changes.take_stale(processed.len()) {
            let start = b * BLOCK;
            let end = (start + BLOCK).min(processed.len());
            let es = remembered.and_then(|e| e.get(start..end));
            let (Some(slot), Some(ls)) =
                (self.changes.blocks.get_mut(b), processed.get(start..end))
            else {
                continue;
            };
            let within = |id: &u32| (start..end).contains(&(*id as usize));
            if !removed.iter().any(within) {
                *slot = match es {
                    Some(es) => block_sums::<true>(ls, es, scaled),
                    // `ls` stands in for the weights (same length, never read as weights).
                    None => block_sums::<false>(ls, ls, scaled),
                };
                continue;
            }
            // The block's removed ids (weight 0) split it into runs, summed one by one.
            let mut cuts: Vec<usize> = (removed.iter().filter(|id| within(id)))
                .map(|&id| id as usize - start)
                .collect();
            cuts.sort_unstable();
            let mut sums = [0.0f32; 2];
            for run in runs_between(ls.len(), &cuts) {
                let run_ls = ls.get(run.clone()).unwrap_or_default();
                let [z, w] = match es.and_then(|es| es.get(run)) {
                    Some(es) => block_sums::<true>(run_ls, es, scaled),
                    None => block_sums::<false>(run_ls, run_ls, scaled),
                };
                sums = [sums[0] + z, sums[1] + w];
            }
            *slot = sums;
        }
        let (mut z, mut weighted) = (0.0f64, 0.0f64);
        for &[bz, bw] in &self.changes.blocks {
            z += f64::from(bz);
            weighted += f64::from(bw);
        }
        (z, weighted)
    }

    /// The final distribution's (z, Σ e·s) at `max`, T = 1, from the block sums: `sums` at the raw
    /// max, scaled to `max` when a removal or a penalty moved it (e^(l − max) = e^(l − raw max) ·
    /// e^(raw max − max), and s = l − max likewise shifted). None without block sums or when the
    /// max moved more than `MAX_SHIFT`. Moved, the sums are those of the weights `final_weight`
    /// gives within float32 rounding, not bit for bit.
    pub fn sums_at(
        &mut self,
        processed: &[f32],
        remembered: Option<&[f32]>,
        removed: &[u32],
        max: f32,
    ) -> Option<(f64, f64)> {
        let at = self.at?;
        if at.to_bits() == max.to_bits() {
            return Some(self.sums(processed, remembered, removed));
        }
        let shift = at - max;
        if shift.abs() > MAX_SHIFT {
            return None;
        }
        let (z, weighted) = self.sums(processed, remembered, removed);
        let (shift, scale) = (f64::from(shift), f64::from(shift).exp());
        Some((z * scale, (weighted + shift * z) * scale))
    }

    /// The max the block sums are at (the raw pass's), if they are held.
    pub fn at(&self) -> Option<f32> {
        self.at
    }
}

/// One block's (Σ e, Σ e·s) as `weights_keys_and_sums` sums it: float32 lanes, the tail of Σ e
/// apart and that of Σ e·s in lane 0; e = exp_f32(s), the raw pass's own weight of the logit, or
/// the same float32 remembered (REMEMBERED, from `es`).
fn block_sums<const REMEMBERED: bool>(
    logits: &[f32],
    es: &[f32],
    scaled: impl Fn(f32) -> f32,
) -> [f32; 2] {
    let weight = |s: f32, e: f32| if REMEMBERED { e } else { exp_f32(s) };
    let (mut zs, mut ws) = ([0.0f32; LANES], [0.0f32; LANES]);
    let mut lanes = logits.chunks_exact(LANES);
    let mut elanes = es.chunks_exact(LANES);
    for (group, egroup) in (&mut lanes).zip(&mut elanes) {
        // The group's (s, e) first, then the sums: two plain lane loops (one loop zipping four
        // arrays compiled to shuffles).
        let (mut s, mut e) = ([0.0f32; LANES], [0.0f32; LANES]);
        for (((s, e), &l), &w) in s.iter_mut().zip(e.iter_mut()).zip(group).zip(egroup) {
            *s = scaled(l);
            *e = weight(*s, w);
        }
        for (((za, wa), &s), &e) in zs.iter_mut().zip(ws.iter_mut()).zip(&s).zip(&e) {
            *za += e;
            *wa += e * s;
        }
    }
    let mut tail = 0.0f32;
    for (&l, &e) in lanes.remainder().iter().zip(elanes.remainder()) {
        let s = scaled(l);
        let e = weight(s, e);
        tail += e;
        ws[0] += e * s;
    }
    [zs.iter().sum::<f32>() + tail, ws.iter().sum::<f32>()]
}

#[cfg(test)]
mod tests {
    use super::super::super::draw::key;
    use super::super::{final_weight, raw_and_blocks, sum_weights_all, weights_keys_and_sums};
    use super::*;

    /// After one or two rounds of changes (blocks with and without one; the last block, whose
    /// tail of n mod 8 the raw pass sums in another order, unchanged in the first round; a token
    /// pushed to the bottom), z and Σ e·s are bit for bit those of the full pass over the changed
    /// logits, z is `sum_weights_all`'s (a stage input's z), and every weight `final_weight` gives
    /// is that pass's (its key); with the changed blocks summed from exps or from remembered
    /// weights (refreshed where logits changed, as cached.rs `refresh`).
    #[test]
    fn patched_sums_are_the_full_pass() {
        for remember in [false, true] {
            patched_rounds(remember);
        }
    }

    /// Ids removed (the max among them, so the max moves down; a block with two removed ids, one
    /// at its edge; a removed id whose logit also changed): z and Σ e·s at the new max are the
    /// sums of `final_weight` over the kept ids within float32 rounding; a max moved further than
    /// `MAX_SHIFT` gives None (the caller sums the weights).
    #[test]
    fn removed_ids_and_a_moved_max_give_the_kept_ids_sums() {
        for (n, drop) in [(3000usize, 2.5f32), (151_936, 9.0), (5000, 17.0)] {
            let mut logits: Vec<f32> = (0..n)
                .map(|i| ((i as u64 * 2_654_435_761) % 10_007) as f32 * 1.3e-3 - 20.0)
                .collect();
            logits[7] = 12.0;
            logits[n / 2] = 12.0 - drop;
            let max = 12.0;
            let mut raw = RawBlocks::default();
            raw_and_blocks(&logits, max, None, raw.blocks());
            raw.on(max, n);
            logits[1023] += 3.0;
            raw.changed([1023]);
            let gone = [7u32, 1023, 1024, 2047, n as u32 - 1];
            raw.changed(gone);
            let removed = |i: usize| [7, 1023, 1024, 2047, n - 1].contains(&i);
            let kept_max = (0..n)
                .filter(|&i| !removed(i))
                .map(|i| logits[i])
                .fold(f32::NEG_INFINITY, f32::max);
            assert_eq!(kept_max, 12.0 - drop);
            let got = raw.sums_at(&logits, None, &gone, kept_max);
            if drop > MAX_SHIFT {
                assert_eq!(got, None, "n {n}");
                continue;
            }
            let (z, weighted) = got.expect("within MAX_SHIFT");
            let (mut want_z, mut want_w) = (0.0f64, 0.0f64);
            for (_, &l) in logits.iter().enumerate().filter(|&(i, _)| !removed(i)) {
                let e = f64::from(final_weight(l, kept_max, 1.0));
                want_z += e;
                want_w += e * f64::from(l - kept_max);
            }
            assert!(
                (z / want_z - 1.0).abs() < 2e-6,
                "n {n}: z {z} want {want_z}"
            );
            assert!(
                (weighted - want_w).abs() < 2e-6 * want_z,
                "n {n}: {weighted} {want_w}"
            );
        }
    }

    fn patched_rounds(remember: bool) {
        for n in [1usize, 7, 100]
            .into_iter()
            .chain(1031..1100)
            .chain(3001..3040)
        {
            let mut logits: Vec<f32> = (0..n)
                .map(|i| ((i as u64 * 2_654_435_761) % 10_007) as f32 * 1.3e-3 - 6.0)
                .enumerate()
                .map(|(i, l)| if i + 3 >= n { l * 0.1 + 5.0 } else { l })
                .collect();
            let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let (mut raw, mut remembered) = (RawBlocks::default(), vec![0.0f32; n]);
            let keep = remember.then_some(&mut remembered[..]);
            raw_and_blocks(&logits, max, keep, raw.blocks());
            raw.on(max, n);
            let rounds: [&[usize]; 2] = [&[0, n / 2], &[n / 3, n / 3, n - 1]];
            for (round, ids) in rounds.iter().enumerate() {
                for &i in ids.iter() {
                    logits[i] = if round == 0 { logits[i] / 1.3 } else { -80.0 };
                }
                raw.changed(ids.iter().map(|&i| i as u32));
                for &i in ids.iter() {
                    remembered[i] = exp_f32(logits[i] - max);
                }
                let (z, weighted) = raw.sums(&logits, remember.then_some(&remembered[..]), &[]);
                let (mut out, mut want_keys) = (vec![0.0f64; n], Vec::new());
                let want = weights_keys_and_sums(&logits, max, 1.0, None, &mut out, &mut want_keys);
                assert_eq!(
                    (z.to_bits(), weighted.to_bits()),
                    (want.0.to_bits(), want.1.to_bits())
                );
                assert_eq!(z.to_bits(), sum_weights_all(&logits, max, 1.0).to_bits());
                let keys: Vec<u64> = (0..n)
                    .map(|i| key(final_weight(logits[i], max, 1.0), i as u32))
                    .collect();
                assert_eq!(keys, want_keys, "n {n} round {round}");
            }
        }
    }
}
