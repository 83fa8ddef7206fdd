//! A trace for JavaScript: the scalar fields and stages through serde (small), the candidates as
//! columns (one typed array per field, each copied out of wasm memory in one copy by
//! `columns.js`), with `candidates[i]` kept as a lazy accessor over them. The shape is
//! `StepResult` in types.d.ts.

use super::{to_js, to_js_error};
use crate::decode::{Candidate, Columns, Rest, Trace, REMOVED_BY_LOGITS, REMOVED_BY_NONE};
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/wasm/columns.js")]
extern "C" {
    #[wasm_bindgen(catch)]
    #[allow(clippy::too_many_arguments)]
    fn columnar_trace(
        head: &JsValue,
        holder: &JsValue,
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

/// The trace without its candidates and the stages without p_in / cum_in.
#[derive(Serialize)]
struct Head<'a> {
    token: u32,
    u: Option<f64>,
    seed: u32,
    draw: u64,
    engine: &'static str,
    strategy: &'static str,
    temperature: f64,
    vocab_size: usize,
    kept_count: usize,
    entropy_bits: f64,
    raw_entropy_bits: f64,
    stages: Vec<StageHead>,
    unlisted_kept_count: usize,
    unlisted_mass: f64,
    chosen_rank: usize,
    chosen: &'a Candidate,
    #[serde(skip_serializing_if = "Option::is_none")]
    rest: Option<&'a Rest>,
}

#[derive(Serialize)]
struct StageHead {
    name: &'static str,
    active: bool,
    kept_count: usize,
    removed_count: usize,
    value: Option<f64>,
    threshold: Option<f64>,
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
    let head = to_js(&Head {
        token: trace.token,
        u: trace.u,
        seed: trace.seed,
        draw: trace.draw,
        engine: trace.engine,
        strategy: trace.strategy,
        temperature: trace.temperature,
        vocab_size: trace.vocab_size,
        kept_count: trace.kept_count,
        entropy_bits: trace.entropy_bits,
        raw_entropy_bits: trace.raw_entropy_bits,
        stages: trace
            .stages
            .iter()
            .map(|s| StageHead {
                name: s.name,
                active: s.active,
                kept_count: s.kept_count,
                removed_count: s.removed_count,
                value: s.value,
                threshold: s.threshold,
            })
            .collect(),
        unlisted_kept_count: trace.unlisted_kept_count,
        unlisted_mass: trace.unlisted_mass,
        chosen_rank: trace.chosen_rank,
        chosen: &trace.chosen,
        rest: trace.rest.as_ref(),
    })?;
    columnar_trace(
        &head,
        holder,
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
    )
    .map_err(|_| to_js_error("the trace could not be handed to JavaScript"))
}
