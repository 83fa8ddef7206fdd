//! The listed candidates as columns: one array per `Candidate` field, filled in a few passes over
//! contiguous arrays (gathers first, then the exponentials, which vectorise), into buffers the
//! Decoder keeps between calls. `Trace::candidates` is built from them (`Columns::candidate`); the
//! wasm layer hands them to JavaScript as they are, so a full 8,000-candidate trace never becomes
//! 8,000 objects on either side.
//!
//! Every number is computed exactly as a per-candidate description would: the same float32 exp of
//! the same operands, divided by the same normaliser. A stage whose input distribution has the
//! same scale (max, 1/T) as the "after temperature" one reuses those exponentials bit for bit.

use super::{Candidate, StageKind};
use crate::decode::candidates::{Work, KEPT, REMOVED_BY_INPUT};
use crate::decode::listing::Listed;
use crate::decode::pipeline::{Outcome, EARLY};
use crate::decode::softmax::{cached, exp_f32};

/// `removed_by` in the columns: the removing stage's index in `Trace::stages`, or one of these.
pub const REMOVED_BY_NONE: i8 = -1;
/// `removed_by` of a token whose input logit was −inf (`"logits"`).
pub const REMOVED_BY_LOGITS: i8 = -2;

/// The listed candidates, one column per field, in listing (rank) order, and each stage's p_in /
/// cum_in one after the other (`stage_lens[s]` values for stage s: the candidate count for an
/// active stage with an input distribution, 0 otherwise).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Columns {
    pub id: Vec<u32>,
    /// Ranks are < 2^20 (`limits::MAX_LOGITS`).
    pub rank: Vec<u32>,
    pub logit: Vec<f32>,
    pub logit_processed: Vec<f32>,
    pub p_raw: Vec<f64>,
    pub p_tempered: Vec<f64>,
    pub p: Vec<f64>,
    pub cum: Vec<f64>,
    /// 1 kept, 0 removed.
    pub kept: Vec<u8>,
    /// The stage's index in `stages`, `REMOVED_BY_NONE` or `REMOVED_BY_LOGITS`.
    pub removed_by: Vec<i8>,
    pub stage_p_in: Vec<f64>,
    pub stage_cum_in: Vec<f64>,
    pub stage_lens: Vec<u32>,
    /// Scratch: the core's removal code per candidate, and exponentials at two scales.
    pub(super) code: Vec<u8>,
    pub(super) e_tempered: Vec<f32>,
    pub(super) e_stage: Vec<f32>,
    /// Scratch: the second stage's cum_in while two are summed side by side.
    pub(super) cum_b: Vec<f64>,
    /// Scratch: the listed candidates' logits as the penalties stage saw them.
    pub(super) logit_before_penalties: Vec<f32>,
}

/// What the columns are computed from (build.rs gathers it).
pub(crate) struct Scales<'a> {
    pub logits: &'a [f32],
    pub work: &'a Work,
    pub order: &'a [StageKind],
    pub ran: &'a Outcome,
    /// Raw softmax: max and normaliser; `known_share` scales p_raw (rest.rs).
    pub raw_max: f32,
    pub raw_z: f64,
    pub known_share: f64,
    /// The "after temperature" distribution: max, 1/T, normaliser.
    pub tmax: f32,
    pub t_inv: f32,
    pub tz: f64,
    /// The final distribution's normaliser (weights: `work.final_weights()`).
    pub z: f64,
}

impl Columns {
    /// How many candidates are listed.
    pub fn len(&self) -> usize {
        self.id.len()
    }

    pub fn is_empty(&self) -> bool {
        self.id.is_empty()
    }

    /// Candidate `i` as an object; `stage_names` are `Trace::stages`' names in order.
    pub fn candidate(&self, i: usize, stage_names: &[&'static str]) -> Option<Candidate> {
        let rb = *self.removed_by.get(i)?;
        Some(Candidate {
            id: *self.id.get(i)?,
            rank: *self.rank.get(i)? as usize,
            logit: *self.logit.get(i)?,
            logit_processed: *self.logit_processed.get(i)?,
            p_raw: *self.p_raw.get(i)?,
            p_tempered: *self.p_tempered.get(i)?,
            p: *self.p.get(i)?,
            cum: *self.cum.get(i)?,
            kept: *self.kept.get(i)? == 1,
            removed_by: match rb {
                REMOVED_BY_NONE => None,
                REMOVED_BY_LOGITS => Some("logits"),
                s => stage_names.get(s as usize).copied(),
            },
        })
    }

    /// Every candidate as an object, in order (`candidate` for each, in one pass over the columns).
    pub fn candidates(&self, stage_names: &[&'static str]) -> Vec<Candidate> {
        let removed_by = |rb: i8| match rb {
            REMOVED_BY_NONE => None,
            REMOVED_BY_LOGITS => Some("logits"),
            s => stage_names.get(s as usize).copied(),
        };
        let ids = self.id.iter().zip(&self.rank);
        let logits = self.logit.iter().zip(&self.logit_processed);
        let ps = self.p_raw.iter().zip(&self.p_tempered).zip(&self.p);
        let rest = self.cum.iter().zip(&self.kept).zip(&self.removed_by);
        ids.zip(logits)
            .zip(ps.zip(rest))
            .map(
                |(
                    ((&id, &rank), (&logit, &processed)),
                    (((&p_raw, &p_tempered), &p), ((&cum, &kept), &rb)),
                )| {
                    Candidate {
                        id,
                        rank: rank as usize,
                        logit,
                        logit_processed: processed,
                        p_raw,
                        p_tempered,
                        p,
                        cum,
                        kept: kept == 1,
                        removed_by: removed_by(rb),
                    }
                },
            )
            .collect()
    }

    /// Stage `s`'s p_in and cum_in.
    pub fn stage(&self, s: usize) -> (&[f64], &[f64]) {
        let start: usize = self.stage_lens.iter().take(s).map(|&n| n as usize).sum();
        let len = self.stage_lens.get(s).map_or(0, |&n| n as usize);
        (
            self.stage_p_in.get(start..start + len).unwrap_or_default(),
            self.stage_cum_in
                .get(start..start + len)
                .unwrap_or_default(),
        )
    }

    fn clear(&mut self) {
        self.id.clear();
        self.rank.clear();
        self.logit.clear();
        self.logit_processed.clear();
        self.p_raw.clear();
        self.p_tempered.clear();
        self.p.clear();
        self.cum.clear();
        self.kept.clear();
        self.removed_by.clear();
        self.stage_p_in.clear();
        self.stage_cum_in.clear();
        self.stage_lens.clear();
        self.code.clear();
    }

    /// Describes `entries` (rank order) under `sc`, replacing what the columns held.
    pub(crate) fn fill(&mut self, entries: &[Listed], sc: &Scales) {
        self.clear();
        let w = sc.work;
        // Removal code → (column value, removed before temperature's distribution?).
        let mut by_code = [(REMOVED_BY_NONE, false); 256];
        // (a u8 code always has its entry: `get` stands for the table's 256 rows)
        if let Some(slot) = by_code.get_mut(usize::from(REMOVED_BY_INPUT)) {
            *slot = (REMOVED_BY_LOGITS, true);
        }
        for (index, kind) in sc.order.iter().enumerate() {
            if let Some(slot) = by_code.get_mut(index + 1) {
                *slot = (index as i8, EARLY.contains(kind));
            }
        }
        // Gathers: everything read by id, once, into columns sized up front.
        self.id.extend(entries.iter().map(|e| e.id));
        self.rank.extend(entries.iter().map(|e| e.rank as u32));
        self.cum.extend(entries.iter().map(|e| e.cum));
        let id_at = |i: u32| i as usize;
        self.logit.extend(self.id.iter().map(|&id| {
            sc.logits
                .get(id_at(id))
                .copied()
                .unwrap_or(f32::NEG_INFINITY)
        }));
        self.logit_processed.extend(self.id.iter().map(|&id| {
            w.processed
                .get(id_at(id))
                .copied()
                .unwrap_or(f32::NEG_INFINITY)
        }));
        self.code.extend(self.id.iter().map(|&id| {
            w.removed_by
                .get(id_at(id))
                .copied()
                .unwrap_or(REMOVED_BY_INPUT)
        }));
        self.kept
            .extend(self.code.iter().map(|&rb| u8::from(rb == KEPT)));
        self.removed_by.extend(self.code.iter().map(|&rb| {
            by_code
                .get(usize::from(rb))
                .map_or(REMOVED_BY_NONE, |c| c.0)
        }));
        let z = sc.z;
        let weights = w.final_weights();
        self.p
            .extend(self.id.iter().zip(&self.code).map(|(&id, &rb)| {
                if rb == KEPT {
                    weights.of(id) / z
                } else {
                    0.0
                }
            }));
        // Contiguous passes: the exps vectorise, then the divisions alone (they vectorise too),
        // then the zeros of tokens a distribution does not hold. Written by `extend`, not zeroed
        // first.
        // The raw softmax's weights: remembered by the first pass for a long listing, or, where
        // the listed logits are unchanged, the remembered weights at the raw scale; else taken.
        let unchanged = || same_bits(&self.logit, &self.logit_processed);
        let remembered_raw = (w.raw_exps.hit(sc.raw_max, 1.0, true))
            .or_else(|| w.exps.hit(sc.raw_max, 1.0, true).filter(|_| unchanged()));
        match remembered_raw {
            Some(e) => gather(e, &self.id, &mut self.e_stage),
            None => exps_into(&self.logit, sc.raw_max, 1.0, &mut self.e_stage),
        }
        let (raw_z, share) = (sc.raw_z, sc.known_share);
        self.p_raw
            .extend(self.e_stage.iter().map(|&e| f64::from(e) / raw_z * share));
        let (tmax, t_inv, tz) = (sc.tmax, sc.t_inv, sc.tz);
        // Every id's weight at this scale, when a pass remembered them (a long listing asks the
        // first pass to): the same float32 exp of the same operands, read instead of taken again.
        // At the raw scale with the logits unchanged (T = 1, no bias or penalties listed), the
        // raw weights themselves.
        let raw_scale = t_inv == 1.0 && tmax.to_bits() == sc.raw_max.to_bits();
        match w.exps.hit(tmax, t_inv, true) {
            Some(e) => gather(e, &self.id, &mut self.e_tempered),
            None if raw_scale && unchanged() => {
                self.e_tempered.clear();
                self.e_tempered.extend_from_slice(&self.e_stage);
            }
            None => exps_into(&self.logit_processed, tmax, t_inv, &mut self.e_tempered),
        }
        self.p_tempered
            .extend(self.e_tempered.iter().map(|&e| f64::from(e) / tz));
        // One past where each removal code last appears in the listing (`live` in fill_stages).
        let mut end_of = [0usize; 256];
        for (i, &rb) in self.code.iter().enumerate() {
            if let Some(end) = end_of.get_mut(usize::from(rb)) {
                *end = i + 1;
            }
        }
        let early = |rb: u8| by_code.get(usize::from(rb)).is_some_and(|c| c.1);
        let any_early = (0..=u8::MAX).any(|rb| early(rb) && end_of.get(usize::from(rb)) > Some(&0));
        if any_early {
            for (p, &rb) in self.p_tempered.iter_mut().zip(&self.code) {
                if early(rb) {
                    *p = 0.0;
                }
            }
        }
        self.fill_stages(sc, any_early, &end_of);
    }
}

/// Remembered weights `e` (cached.rs) of `ids`, in order, into `out`: what `exps_into` gives for
/// their logits at the scale they were remembered at.
fn gather(e: &[f32], ids: &[u32], out: &mut Vec<f32>) {
    out.clear();
    out.extend(ids.iter().map(|&id| cached::e_of(e, id)));
}

/// Whether two float32 columns hold the same bits (no early exit: the loop vectorises).
pub(super) fn same_bits(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len()
        && (a.iter().zip(b)).fold(true, |same, (x, y)| same & (x.to_bits() == y.to_bits()))
}

/// e^((l − max)·inv_t) for each l, in float32 (the exp every probability in the core uses).
pub(super) fn exps_into(ls: &[f32], max: f32, inv_t: f32, out: &mut Vec<f32>) {
    out.clear();
    out.extend(ls.iter().map(|&l| exp_f32((l - max) * inv_t)));
}
