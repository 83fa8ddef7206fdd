//! A trace for JavaScript: the scalar fields and stages through serde (small), the candidates as
//! columns (one typed array per field, each copied out of wasm memory in one copy by
//! `columns.js`), with `candidates[i]` kept as a lazy accessor over them. The shape is
//! `StepResult` in types.d.ts.

use super::{to_js, to_js_error};
use crate::decode::{Candidate, Rest, Trace};
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

/// `removed_by` in the columns: the index of the removing stage in `stages`, or these.
const KEPT: i8 = -1;
const BY_LOGITS: i8 = -2;

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

/// One column per candidate field, in listing order.
#[derive(Default)]
struct Columns {
    id: Vec<u32>,
    rank: Vec<u32>,
    logit: Vec<f32>,
    logit_processed: Vec<f32>,
    p_raw: Vec<f64>,
    p_tempered: Vec<f64>,
    p: Vec<f64>,
    cum: Vec<f64>,
    kept: Vec<u8>,
    removed_by: Vec<i8>,
}

fn columns(trace: &Trace) -> Columns {
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
            None => KEPT,
            Some("logits") => BY_LOGITS,
            // Names are the same static strings, so the pointer usually decides (no memcmp).
            Some(name) => trace
                .stages
                .iter()
                .position(|s| std::ptr::eq(s.name, name))
                .or_else(|| trace.stages.iter().position(|s| s.name == name))
                .map_or(BY_LOGITS, |i| i as i8),
        });
    }
    c
}

/// The trace as `StepResult`; with a `holder` object (the Generator's token), set as its `trace`
/// and the holder returned.
pub(crate) fn to_js_trace(trace: &Trace, holder: &JsValue) -> Result<JsValue, JsError> {
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
    let c = columns(trace);
    let stage_p_in: Vec<f64> = trace
        .stages
        .iter()
        .flat_map(|s| s.p_in.iter().copied())
        .collect();
    let stage_cum_in: Vec<f64> = trace
        .stages
        .iter()
        .flat_map(|s| s.cum_in.iter().copied())
        .collect();
    let stage_lens: Vec<u32> = trace.stages.iter().map(|s| s.p_in.len() as u32).collect();
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
        &stage_p_in,
        &stage_cum_in,
        &stage_lens,
    )
    .map_err(|_| to_js_error("the trace could not be handed to JavaScript"))
}
