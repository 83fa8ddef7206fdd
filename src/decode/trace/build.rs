//! The trace from what the pipeline left: each listed candidate described (raw, tempered and
//! final probability, who removed it), each stage's view of the listed candidates, the counts.
//! Reads only; decides nothing.

use super::columns::{Columns, Scales};
use super::{Candidate, StageKind, StageTrace, Trace};
use crate::decode::candidates::{Work, KEPT, REMOVED_BY_INPUT};
use crate::decode::config::Settings;
use crate::decode::draw::Drawn;
use crate::decode::listing::{Listed, Listing};
use crate::decode::pipeline::{Outcome, Raw, EARLY};
use crate::decode::rest::{self, Rest};
use crate::decode::softmax;

/// Everything the trace is built from.
pub(crate) struct Parts<'a> {
    pub logits: &'a [f32],
    pub s: &'a Settings,
    pub order: &'a [StageKind],
    pub work: &'a Work,
    pub ran: &'a Outcome,
    pub raw: Raw,
    /// The final distribution's normaliser and entropy.
    pub z: f64,
    pub entropy_bits: f64,
    pub u: Option<f64>,
    pub drawn: Drawn,
    pub listing: Listing,
    /// The config's `rest_mass` (rest.rs), checked.
    pub rest_mass: Option<f64>,
}

/// The trace without its candidates (`candidates` empty, every stage's `p_in` / `cum_in` empty):
/// those go into `cols`; `attach` puts them into the trace when a caller wants objects.
pub(crate) fn build(parts: Parts, cols: &mut Columns) -> Trace {
    let Parts {
        logits,
        s,
        order,
        work: w,
        ran,
        raw,
        z,
        entropy_bits,
        u,
        drawn,
        listing,
        rest_mass,
    } = parts;
    let t_inv = if s.greedy { 1.0 } else { w.inv_t };
    let (tz, tmax) = if listing.entries.is_empty() {
        (1.0, 0.0)
    } else {
        ran.tempered_all
            .unwrap_or_else(|| tempered_normaliser(logits, w, order, ran, &raw, t_inv))
    };
    // With `rest_mass`, the given tokens hold 1 − rest_mass of the whole vocabulary (rest.rs).
    let known_share = 1.0 - rest_mass.unwrap_or(0.0);
    let rest = rest_mass.map(|mass| rest_of(mass, logits, w, order, ran, &raw));
    let scales = Scales {
        logits,
        work: w,
        order,
        ran,
        raw_max: raw.max,
        raw_z: raw.z,
        known_share,
        tmax,
        t_inv,
        tz,
        z,
    };
    cols.fill(&listing.entries, &scales);
    let stages = stage_traces(ran, logits.len() - w.input_removed);
    let names: Vec<&'static str> = stages.iter().map(|st| st.name).collect();
    // The same entry as in the columns (the listing always includes the chosen token).
    let chosen = cols
        .id
        .iter()
        .position(|&id| id == drawn.id)
        .and_then(|i| cols.candidate(i, &names))
        .unwrap_or_else(|| {
            let mut one = Columns::default();
            let entry = Listed {
                id: drawn.id,
                rank: drawn.rank,
                cum: drawn.cum,
            };
            one.fill(&[entry], &scales);
            one.candidate(0, &names).unwrap_or(Candidate {
                id: drawn.id,
                rank: drawn.rank,
                logit: f32::NEG_INFINITY,
                logit_processed: f32::NEG_INFINITY,
                p_raw: 0.0,
                p_tempered: 0.0,
                p: 0.0,
                cum: drawn.cum,
                kept: false,
                removed_by: None,
            })
        });
    Trace {
        token: drawn.id,
        u,
        seed: s.seed,
        draw: s.draw,
        engine: s.engine.name(),
        strategy: if s.greedy { "greedy" } else { "sample" },
        temperature: if s.greedy {
            0.0
        } else if w.inv_t == 1.0 / s.temperature {
            // a fixed temperature, as the caller wrote it (1/inv_t made 0.7 read 0.69999998)
            s.temperature_given
        } else {
            1.0 / f64::from(w.inv_t)
        },
        vocab_size: logits.len(),
        kept_count: w.kept.len(),
        entropy_bits,
        raw_entropy_bits: raw.entropy_bits,
        stages,
        candidates: Vec::new(),
        unlisted_kept_count: listing.unlisted_kept_count,
        unlisted_mass: listing.unlisted_mass,
        chosen_rank: drawn.rank,
        chosen,
        rest,
    }
}

/// Puts the columns into a trace `build` left without them: `candidates` and each stage's
/// `p_in` / `cum_in`.
pub(crate) fn attach(trace: &mut Trace, cols: &Columns) {
    let names: Vec<&'static str> = trace.stages.iter().map(|st| st.name).collect();
    trace.candidates = cols.candidates(&names);
    for (i, stage) in trace.stages.iter_mut().enumerate() {
        let (p_in, cum_in) = cols.stage(i);
        stage.p_in = p_in.to_vec();
        stage.cum_in = cum_in.to_vec();
    }
}

/// `Trace::rest`: follows the unknown tail through the stages from the least likely given token
/// (its raw logit and the stage that removed it, if any).
fn rest_of(
    mass: f64,
    logits: &[f32],
    w: &Work,
    order: &[StageKind],
    ran: &Outcome,
    raw: &Raw,
) -> Rest {
    let mut given = 0usize;
    let lowest = logits
        .iter()
        .enumerate()
        .filter(|(_, l)| l.is_finite())
        .fold((usize::MAX, f32::INFINITY), |best, (i, &l)| {
            given += 1;
            if l < best.1 {
                (i, l)
            } else {
                best
            }
        });
    let removed = w.removed_by.get(lowest.0).copied().unwrap_or(KEPT);
    let by = match removed {
        KEPT | REMOVED_BY_INPUT => None,
        code => order.get(code as usize - 1).copied(),
    };
    let stages: Vec<rest::Ran> = ran
        .stages
        .iter()
        .map(|r| rest::Ran {
            kind: r.kind,
            active: r.active,
            threshold: r.result.threshold,
        })
        .collect();
    let fate = rest::assess(mass, &stages, (lowest.1, by));
    // the least likely given token's probability over the whole vocabulary
    let p_min = softmax::weight(lowest.1, raw.max, 1.0) / raw.z * (1.0 - mass);
    let (low, high) = rest::entropy_bounds(raw.entropy_bits, mass, p_min, logits.len() - given);
    Rest {
        mass,
        exact: fate.exact,
        removed_by: fate.removed_by.map(StageKind::name),
        given,
        raw_entropy_bits_min: low,
        raw_entropy_bits_max: high,
    }
}

/// Σ e^((l − max)·inv_t) over what the early stages (bias, penalties, min_new_tokens) left, and
/// that max, when no stage computed it on the way. Contiguous passes when only −inf logits are
/// missing (the usual case: bans make the processed logit −inf, penalties remove nothing).
fn tempered_normaliser(
    logits: &[f32],
    w: &Work,
    order: &[StageKind],
    ran: &Outcome,
    raw: &Raw,
    t_inv: f32,
) -> (f64, f32) {
    let early_active = ran
        .stages
        .iter()
        .any(|r| r.active && EARLY.contains(&r.kind));
    if !early_active {
        if t_inv == 1.0 {
            return (raw.z, raw.max);
        }
        return (sum_all(logits, w, raw.max, t_inv), raw.max);
    }
    let min_new_removed = ran
        .stages
        .iter()
        .any(|r| r.active && r.kind == StageKind::MinNewTokens && r.removed > 0);
    if !min_new_removed {
        let max = softmax::scan(&w.processed).0;
        return (sum_all(&w.processed, w, max, t_inv), max);
    }
    // Per removal code, whether its token survived the early stages (one table, then one byte
    // compare per token rather than a search of the engine order per token).
    let mut survived = [false; 256];
    for (code, slot) in survived.iter_mut().enumerate() {
        let code = code as u8;
        *slot = code != REMOVED_BY_INPUT && !removed_by_kind(order, code, EARLY);
    }
    if let Some(sums) = between_removed(w, &survived, t_inv) {
        return sums;
    }
    let n = logits.len().min(w.removed_by.len());
    let survivors: Vec<u32> = (0..n as u32)
        .zip(&w.removed_by)
        .filter(|&(_, &rb)| survived.get(usize::from(rb)) == Some(&true))
        .map(|(id, _)| id)
        .collect();
    let max = survivors
        .iter()
        .filter_map(|&id| w.processed.get(id as usize))
        .copied()
        .fold(f32::NEG_INFINITY, softmax::larger);
    (
        softmax::sum_weights(&w.processed, &survivors, max, t_inv),
        max,
    )
}

/// `tempered_normaliser` over the survivors of the early stages when they removed only listed
/// ids (bans, end ids held back: `Work::listed_removed`, at most 64 of them): the runs of ids
/// between those, each a contiguous read (a −inf logit gives 0 and is never the max), with no
/// list of survivors and no gather. None otherwise (the caller lists the survivors).
fn between_removed(w: &Work, survived: &[bool; 256], t_inv: f32) -> Option<(f64, f32)> {
    let early = |&id: &u32| {
        let code = w.removed_by.get(id as usize).copied().unwrap_or(KEPT);
        survived.get(usize::from(code)) == Some(&false)
    };
    let mut cuts: Vec<usize> = (w.listed_removed.iter().filter(|id| early(id)))
        .map(|&id| id as usize)
        .collect();
    if cuts.len() > 64 {
        return None;
    }
    cuts.sort_unstable();
    let processed = &w.processed;
    let runs = || softmax::runs_between(processed.len(), &cuts).filter_map(|r| processed.get(r));
    let max = runs()
        .map(|run| softmax::scan(run).0)
        .fold(f32::NEG_INFINITY, softmax::larger);
    let z = runs()
        .map(|run| softmax::sum_weights_all(run, max, t_inv))
        .sum();
    Some((z, max))
}

/// `sum_weights_all` over `values` (the processed logits, or the logits when no early stage
/// changed them), from the exps a pass remembered for every id at (max, inv_t) when there are
/// (softmax/cached.rs: the same sum bit for bit).
fn sum_all(values: &[f32], w: &Work, max: f32, inv_t: f32) -> f64 {
    match w.exps.hit(max, inv_t, true) {
        Some(e) => softmax::cached::sum_all(e.get(..values.len()).unwrap_or_default()),
        None => softmax::sum_weights_all(values, max, inv_t),
    }
}

/// Each stage's trace: its parameter, its cut and the counts (the listed candidates' p_in and
/// cum_in are in the columns).
fn stage_traces(ran: &Outcome, mut kept: usize) -> Vec<StageTrace> {
    ran.stages
        .iter()
        .map(|r| {
            let threshold = match (r.kind, r.input) {
                // min-p's cut as a probability of its own input distribution: min_p · p_max.
                (StageKind::MinP, Some(inp)) => r.result.threshold.map(|ratio| ratio / inp.z),
                _ => r.result.threshold,
            };
            kept -= r.removed.min(kept);
            StageTrace {
                name: r.kind.name(),
                active: r.active,
                kept_count: kept,
                removed_count: r.removed,
                value: r.result.value,
                threshold,
                p_in: Vec::new(),
                cum_in: Vec::new(),
            }
        })
        .collect()
}

fn removed_by_kind(order: &[StageKind], code: u8, kinds: &[StageKind]) -> bool {
    code != KEPT
        && code != REMOVED_BY_INPUT
        && order
            .get(code as usize - 1)
            .is_some_and(|k| kinds.contains(k))
}
