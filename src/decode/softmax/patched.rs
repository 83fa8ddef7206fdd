//! The raw softmax's weights as the final distribution's, corrected only where they changed.
//!
//! Why: when the only stages are a bias without bans, the penalties or a min_new_tokens that holds
//! nothing back, at T = 1, they change a few hundred logits of 151,936 and remove nothing. The
//! final distribution is then the raw one except at those ids (if the max stays), yet its weights,
//! keys and sums took a second full pass. Here the raw pass writes every weight as its final order
//! key (draw.rs) and keeps each block's float32 sums; a changed id gets its key again, and only
//! the blocks holding one are summed again, from the keys, in exactly the lanes and order of
//! `weights_keys_and_sums` (and of `lane_sum`, which sums a block the same way). Every other
//! block's sums are the raw pass's: the same terms in the same lanes, so the same bits. The
//! blocks are then added up in order as those passes add them: z and Σ e·s are bit for bit theirs.

use super::super::draw::{key, key_weight};
use super::changed_blocks::{ChangedBlocks, BLOCK};
use super::{above, exp_f32, logit_of, EXP_MIN, LANES};

/// The state of the raw weights held as keys.
#[derive(Debug, Default)]
pub(crate) struct RawKeys {
    /// The max the keys' weights are at; None when the keys do not hold them.
    at: Option<f32>,
    /// Per block: its (Σ e, Σ e·s) in float32 as of the last `sums`, and the ids changed since
    /// (their keys too are out of date).
    changes: ChangedBlocks,
}

impl RawKeys {
    /// The keys no longer hold the raw weights (new logits, or another first pass).
    pub fn off(&mut self) {
        self.at = None;
        self.changes.pending.clear();
    }

    /// After the raw pass wrote every id's key at `max` and its block sums into `blocks()`.
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

    /// Whether the keys hold every id's final weight at (`max`, T = 1): call only while every
    /// id is kept.
    pub fn usable(&self, max: f32, inv_t: f32) -> bool {
        inv_t == 1.0 && self.at.is_some_and(|at| at.to_bits() == max.to_bits())
    }

    /// Brings the changed ids' keys and their blocks' sums up to date (`processed` holds the
    /// logits now) and returns (z, Σ e·s) of the distribution at the keys' max, T = 1.
    pub fn sums(&mut self, processed: &[f32], keys: &mut [u64]) -> (f64, f64) {
        let Some(max) = self.at else {
            return (0.0, 0.0);
        };
        let scaled = |l: f32| above(l - max, EXP_MIN - 1.0);
        for &id in &self.changes.pending {
            if let Some(k) = keys.get_mut(id as usize) {
                *k = key(exp_f32(scaled(logit_of(processed, id))), id);
            }
        }
        // (an id past the keys has no key; its block, if any, is summed again from the same keys
        // and logits: the same bits)
        for b in self.changes.take_stale(processed.len()) {
            let start = b * BLOCK;
            let end = (start + BLOCK).min(processed.len());
            if let (Some(slot), Some(ls), Some(ks)) = (
                self.changes.blocks.get_mut(b),
                processed.get(start..end),
                keys.get(start..end),
            ) {
                *slot = block_sums(ls, ks, scaled);
            }
        }
        let (mut z, mut weighted) = (0.0f64, 0.0f64);
        for &[bz, bw] in &self.changes.blocks {
            z += f64::from(bz);
            weighted += f64::from(bw);
        }
        (z, weighted)
    }
}

/// One block's (Σ e, Σ e·s) as `weights_keys_and_sums` sums it: float32 lanes, the tail of Σ e
/// apart and that of Σ e·s in lane 0; e read back from the key (the same float32).
fn block_sums(logits: &[f32], keys: &[u64], scaled: impl Fn(f32) -> f32) -> [f32; 2] {
    let (mut zs, mut ws) = ([0.0f32; LANES], [0.0f32; LANES]);
    let mut lanes = logits.chunks_exact(LANES);
    let mut klanes = keys.chunks_exact(LANES);
    for (group, kgroup) in (&mut lanes).zip(&mut klanes) {
        for (((za, wa), &l), &k) in zs.iter_mut().zip(ws.iter_mut()).zip(group).zip(kgroup) {
            let e = key_weight(k) as f32;
            *za += e;
            *wa += e * scaled(l);
        }
    }
    let mut tail = 0.0f32;
    for (&l, &k) in lanes.remainder().iter().zip(klanes.remainder()) {
        let e = key_weight(k) as f32;
        tail += e;
        ws[0] += e * scaled(l);
    }
    [zs.iter().sum::<f32>() + tail, ws.iter().sum::<f32>()]
}

#[cfg(test)]
mod tests {
    use super::super::{raw_keys_and_blocks, sum_weights_all, weights_keys_and_sums};
    use super::*;

    /// After one or two rounds of changes (blocks with and without one; the last block, whose
    /// tail of n mod 8 the raw pass sums in another order, unchanged in the first round; a token
    /// pushed to the bottom), z, Σ e·s and every key are bit for bit those of the full pass over
    /// the changed logits, and z is `sum_weights_all`'s (a stage input's z).
    #[test]
    fn patched_sums_and_keys_are_the_full_pass() {
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
            let (mut keys, mut raw) = (Vec::new(), RawKeys::default());
            raw_keys_and_blocks(&logits, max, &mut keys, raw.blocks());
            raw.on(max, n);
            let rounds: [&[usize]; 2] = [&[0, n / 2], &[n / 3, n / 3, n - 1]];
            for (round, ids) in rounds.iter().enumerate() {
                for &i in ids.iter() {
                    logits[i] = if round == 0 { logits[i] / 1.3 } else { -80.0 };
                }
                raw.changed(ids.iter().map(|&i| i as u32));
                assert!(raw.usable(max, 1.0));
                let (z, weighted) = raw.sums(&logits, &mut keys);
                let (mut out, mut want_keys) = (vec![0.0f64; n], Vec::new());
                let want = weights_keys_and_sums(&logits, max, 1.0, None, &mut out, &mut want_keys);
                assert_eq!(
                    (z.to_bits(), weighted.to_bits()),
                    (want.0.to_bits(), want.1.to_bits())
                );
                assert_eq!(z.to_bits(), sum_weights_all(&logits, max, 1.0).to_bits());
                assert_eq!(keys, want_keys, "n {n} round {round}");
            }
        }
    }
}
