//! A trace for JavaScript: the scalar fields as one Float64Array and the names as one string
//! (the head, the stages and `chosen` are built in `columns.js` as object literals, rather than
//! by serde one key string at a time), the candidates as columns (copied by `columns.js` into one
//! fresh ArrayBuffer per call), with `candidates[i]` kept as a lazy accessor over them. The shape
//! is `StepResult` in types.d.ts.

use super::to_js_error;
use crate::decode::{Candidate, Columns, Trace, REMOVED_BY_LOGITS, REMOVED_BY_NONE};
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/wasm/columns.js")]
extern "C" {
    #[wasm_bindgen(catch)]
    #[allow(clippy::too_many_arguments)]
    fn columnar_trace(
        holder: &JsValue,
        scalars: &[f64],
        names: &str,
        id: &[u32],
        rank: &[u32],
        logit: &[f32],
        logit_processed: &[f32],
        p_raw: &[f64],
        p_tempered: &[f64],
        p: &[f64],
        cum: &[f64],
        kept: &[u8],
        removed_by: &[i8],
        stage_p_in: &[f64],
        stage_cum_in: &[f64],
        stage_lens: &[u32],
    ) -> Result<JsValue, JsValue>;
}

thread_local! {
    // The scalars' buffer, reused by every call (taken out while JavaScript runs).
    static SCALARS: RefCell<Vec<f64>> = const { RefCell::new(Vec::new()) };
}

/// A count or rank as a number (all are < 2^53).
fn count(n: usize) -> f64 {
    n as f64
}

/// An optional number as (present, value): `columns.js` reads null for an absent one.
fn optional(out: &mut Vec<f64>, x: Option<f64>) {
    out.push(f64::from(u8::from(x.is_some())));
    out.push(x.unwrap_or(0.0));
}

/// `chosen` (its removed_by goes in `names`), in the order `columns.js` reads it.
fn push_candidate(out: &mut Vec<f64>, c: &Candidate) {
    out.extend_from_slice(&[
        f64::from(c.id),
        count(c.rank),
        f64::from(c.logit),
        f64::from(c.logit_processed),
        c.p_raw,
        c.p_tempered,
        c.p,
        c.cum,
        f64::from(u8::from(c.kept)),
        f64::from(u8::from(c.removed_by.is_some())),
    ]);
}

/// The trace's scalars in the order `columns.js` (`SCALAR` offsets) reads them, and its names:
/// engine, strategy, chosen.removed_by, rest.removed_by, then each stage's, one per line.
fn scalars_of(trace: &Trace, out: &mut Vec<f64>) -> String {
    out.clear();
    out.extend_from_slice(&[
        f64::from(trace.token),
        f64::from(trace.seed),
        trace.draw as f64, // ≤ 2^53 − 1 (ranges.rs)
        trace.temperature,
        count(trace.vocab_size),
        count(trace.kept_count),
        trace.entropy_bits,
        trace.raw_entropy_bits,
        count(trace.unlisted_kept_count),
        trace.unlisted_mass,
        count(trace.chosen_rank),
        count(trace.stages.len()),
    ]);
    optional(out, trace.u);
    push_candidate(out, &trace.chosen);
    let rest = trace.rest.as_ref();
    out.push(f64::from(u8::from(rest.is_some())));
    if let Some(r) = rest {
        out.extend_from_slice(&[
            r.mass,
            f64::from(u8::from(r.exact)),
            f64::from(u8::from(r.removed_by.is_some())),
            count(r.given),
            r.raw_entropy_bits_min,
            r.raw_entropy_bits_max,
        ]);
    } else {
        out.extend_from_slice(&[0.0; 6]);
    }
    let mut names = String::with_capacity(16 * (trace.stages.len() + 4));
    for name in [
        trace.engine,
        trace.strategy,
        trace.chosen.removed_by.unwrap_or(""),
        rest.and_then(|r| r.removed_by).unwrap_or(""),
    ] {
        names.push_str(name);
        names.push('\n');
    }
    for s in &trace.stages {
        out.extend_from_slice(&[
            f64::from(u8::from(s.active)),
            count(s.kept_count),
            count(s.removed_count),
        ]);
        optional(out, s.value);
        optional(out, s.threshold);
        names.push_str(s.name);
        names.push('\n');
    }
    names
}

/// The columns of a trace that carries its candidates as objects (the Generator's): the same
/// layout `Decoder::step_columns` fills directly.
fn columns_of(trace: &Trace) -> Columns {
    let n = trace.candidates.len();
    let mut c = Columns::default();
    for v in [&mut c.p_raw, &mut c.p_tempered, &mut c.p, &mut c.cum] {
        v.reserve(n);
    }
    for cand in &trace.candidates {
        c.id.push(cand.id);
        c.rank.push(cand.rank as u32); // ranks < 2^20 (limits::MAX_LOGITS)
        c.logit.push(cand.logit);
        c.logit_processed.push(cand.logit_processed);
        c.p_raw.push(cand.p_raw);
        c.p_tempered.push(cand.p_tempered);
        c.p.push(cand.p);
        c.cum.push(cand.cum);
        c.kept.push(u8::from(cand.kept));
        c.removed_by.push(match cand.removed_by {
            None => REMOVED_BY_NONE,
            Some("logits") => REMOVED_BY_LOGITS,
            // Names are the same static strings, so the pointer usually decides (no memcmp).
            Some(name) => trace
                .stages
                .iter()
                .position(|s| std::ptr::eq(s.name, name))
                .or_else(|| trace.stages.iter().position(|s| s.name == name))
                .map_or(REMOVED_BY_LOGITS, |i| i as i8),
        });
    }
    for stage in &trace.stages {
        c.stage_p_in.extend_from_slice(&stage.p_in);
        c.stage_cum_in.extend_from_slice(&stage.cum_in);
        c.stage_lens.push(stage.p_in.len() as u32);
    }
    c
}

/// A trace with its candidates as objects (the Generator's) as `StepResult`; with a `holder`
/// object (the Generator's token), set as its `trace` and the holder returned.
pub(crate) fn to_js_trace(trace: &Trace, holder: &JsValue) -> Result<JsValue, JsError> {
    to_js_columnar(trace, &columns_of(trace), holder)
}

/// `trace` (its scalars and stages; its `candidates` and stage p_in / cum_in are not read) with
/// the candidates from `c`, as `StepResult`.
pub(crate) fn to_js_columnar(
    trace: &Trace,
    c: &Columns,
    holder: &JsValue,
) -> Result<JsValue, JsError> {
    let mut scalars = SCALARS.with(|cell| cell.take());
    let names = scalars_of(trace, &mut scalars);
    let out = columnar_trace(
        holder,
        &scalars,
        &names,
        &c.id,
        &c.rank,
        &c.logit,
        &c.logit_processed,
        &c.p_raw,
        &c.p_tempered,
        &c.p,
        &c.cum,
        &c.kept,
        &c.removed_by,
        &c.stage_p_in,
        &c.stage_cum_in,
        &c.stage_lens,
    );
    SCALARS.with(|cell| cell.replace(scalars));
    out.map_err(|_| to_js_error("the trace could not be handed to JavaScript"))
}
