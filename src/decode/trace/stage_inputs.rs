//! Each stage's input distribution over the listed candidates (`Columns::stage_p_in`,
//! `stage_cum_in`): p = e^((l − max)·inv_t) / z with the logits that stage saw and the scale and
//! normaliser the pipeline remembered (`StageInput`), 0 for a candidate an earlier stage removed.

use super::columns::{exps_into, same_bits, Columns, Scales};
use super::StageKind;
use crate::decode::candidates::{KEPT, REMOVED_BY_INPUT};
use crate::decode::softmax::at_most_one;

/// Which logits a stage saw. logit_bias runs before penalties in every engine order, so three
/// cases cover every stage: the raw logits up to logit_bias, the biased ones up to penalties (the
/// processed ones with the penalised ids as penalties found them), the processed ones after.
#[derive(Clone, Copy, PartialEq)]
enum Seen {
    Raw,
    BeforePenalties,
    Processed,
}

impl Columns {
    /// Each active stage's p_in over the listed candidates, then every cum_in. `any_early`: a
    /// listed candidate was removed before temperature (`p_tempered` holds zeros); `end_of[code]`:
    /// one past the last listed candidate with that removal code.
    pub(super) fn fill_stages(&mut self, sc: &Scales, any_early: bool, end_of: &[usize; 256]) {
        let n = self.id.len();
        // When the listed processed logits are the raw ones, every stage saw those.
        let unprocessed = same_bits(&self.logit, &self.logit_processed);
        let code_of = |kind: StageKind| {
            (sc.ran.stages.iter())
                .position(|r| r.active && r.kind == kind)
                .map(|i| i as u8 + 1)
        };
        let (bias, penalties) = (code_of(StageKind::LogitBias), code_of(StageKind::Penalties));
        let seen_by = |code: u8| {
            if unprocessed || bias.is_some_and(|b| code <= b) {
                Seen::Raw
            } else if penalties.is_some_and(|p| code <= p) {
                Seen::BeforePenalties
            } else {
                Seen::Processed
            }
        };
        if penalties.is_some() && !unprocessed {
            let before = &sc.work.before_penalties;
            self.logit_before_penalties.clear();
            self.logit_before_penalties
                .extend(self.id.iter().zip(&self.logit_processed).map(|(id, &l)| {
                    match before.binary_search_by_key(id, |&(id, _)| id) {
                        Ok(i) => before.get(i).map_or(l, |&(_, was)| was),
                        Err(_) => l,
                    }
                }));
        }
        let raw_scale = (sc.raw_max.to_bits(), 1.0f32.to_bits());
        let tempered_scale = (sc.tmax.to_bits(), sc.t_inv.to_bits());
        // What e_stage and e_tempered hold: exps of these logits at this scale.
        let mut stage_exps = (Seen::Raw, raw_scale);
        let tempered_exps = (seen_by(u8::MAX), tempered_scale);
        // (start, live) of each stage's p_in in `stage_p_in`.
        let mut runs: Vec<(usize, usize)> = Vec::new();
        for r in &sc.ran.stages {
            let Some(inp) = r.input.filter(|_| r.active) else {
                self.stage_lens.push(0);
                continue;
            };
            // Alive at this stage: kept, or removed by this stage or a later one.
            let code = inp.code;
            let alive = |rb: u8| rb == KEPT || (rb != REMOVED_BY_INPUT && rb >= code);
            // A later stage holds few of the listed candidates (what an earlier filter kept comes
            // first in the listing): past the last one it holds, every p_in is 0 and cum_in stays
            // where it is (a sum plus +0 is that sum), so neither the divisions nor the serial
            // chain of sums run there.
            let live = (0..=u8::MAX)
                .filter(|&rb| alive(rb))
                .filter_map(|rb| end_of.get(usize::from(rb)).copied())
                .max()
                .unwrap_or(0)
                .min(n);
            let seen = seen_by(code);
            let scale = (inp.max.to_bits(), inp.inv_t.to_bits());
            let z = inp.z.to_bits();
            let start = self.stage_p_in.len();
            // The raw or the tempered distribution itself (temperature's input, the first
            // filter's): the column already holds these quotients.
            let same_column = if (seen, scale) == (Seen::Raw, raw_scale)
                && z == sc.raw_z.to_bits()
                && sc.known_share == 1.0
            {
                Some(&self.p_raw)
            } else if (seen, scale) == tempered_exps && !any_early && z == sc.tz.to_bits() {
                Some(&self.p_tempered)
            } else {
                None
            };
            if let Some(column) = same_column {
                self.stage_p_in
                    .extend_from_slice(column.get(..live).unwrap_or_default());
            } else {
                let exps = if (seen, scale) == tempered_exps {
                    &self.e_tempered
                } else {
                    if stage_exps != (seen, scale) {
                        let logits = match seen {
                            Seen::Raw => &self.logit,
                            Seen::BeforePenalties => &self.logit_before_penalties,
                            Seen::Processed => &self.logit_processed,
                        };
                        exps_into(logits, inp.max, inp.inv_t, &mut self.e_stage);
                        stage_exps = (seen, scale);
                    }
                    &self.e_stage
                };
                let inp_z = inp.z;
                self.stage_p_in
                    .extend(exps.iter().take(live).map(|&e| f64::from(e) / inp_z));
            }
            let p_in = self.stage_p_in.get_mut(start..).unwrap_or_default();
            for (p, &rb) in p_in.iter_mut().zip(&self.code) {
                if !alive(rb) {
                    *p = 0.0;
                }
            }
            self.stage_p_in.resize(start + n, 0.0);
            runs.push((start, live));
            self.stage_lens.push(n as u32);
        }
        self.running_sums(&runs, n);
    }

    /// Every stage's cum_in from its p_in, two stages at a time: each is one serial chain of
    /// additions (its order fixes its bits), and two independent chains run side by side.
    fn running_sums(&mut self, runs: &[(usize, usize)], n: usize) {
        let (p_in, cum_in, cum_b) = (&self.stage_p_in, &mut self.stage_cum_in, &mut self.cum_b);
        for pair in runs.chunks(2) {
            let (&(a_start, a_live), b) = match pair {
                [a, b] => (a, Some(b)),
                [a] => (a, None),
                _ => continue,
            };
            let a = p_in.get(a_start..a_start + a_live).unwrap_or_default();
            let b_p = b.map_or(&[][..], |&(start, live)| {
                p_in.get(start..start + live).unwrap_or_default()
            });
            let both = a.len().min(b_p.len());
            let ((a_head, a_rest), (b_head, b_rest)) = (a.split_at(both), b_p.split_at(both));
            let (mut ta, mut tb) = (0.0f64, 0.0f64);
            cum_b.clear();
            cum_b.reserve(both);
            cum_in.extend(a_head.iter().zip(b_head).map(|(&pa, &pb)| {
                tb += pb;
                cum_b.push(at_most_one(tb));
                ta += pa;
                at_most_one(ta)
            }));
            running_sum(cum_in, ta, a_rest, a_start + n);
            if let Some(&(b_start, _)) = b {
                cum_in.extend_from_slice(cum_b);
                running_sum(cum_in, tb, b_rest, b_start + n);
            }
        }
    }
}

/// Appends the running sums (at most 1) of `p` from `total` on, then copies of the last up to
/// `end` values in all (the end of this stage's cum_in).
fn running_sum(out: &mut Vec<f64>, mut total: f64, p: &[f64], end: usize) {
    out.extend(p.iter().map(|&p| {
        total += p;
        at_most_one(total)
    }));
    out.resize(end, at_most_one(total));
}
