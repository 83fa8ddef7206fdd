//! The JavaScript adapter: read → parse → call the core → serialize. No decoding logic lives here;
//! a range check or an `if` about meaning belongs in `decode::config` or `generate`.
//!
//! The boundary cannot be poisoned (issue 9). Three rules, in every export:
//! 1. **Read first.** Every object argument is copied by `boundary.js` (inside try/catch) before
//!    any Rust state is borrowed; Rust reads only that copy, so no user code (getter, Proxy trap,
//!    re-entrant call) runs while a `RefCell` is borrowed, and no JS exception unwinds through
//!    wasm frames. Primitives are read with wasm-bindgen intrinsics (`typeof`), which run none.
//! 2. **Check, never coerce.** Numbers arrive as f64 and are range-checked (no `>>> 0`); lists
//!    must be arrays; strings must be strings of bounded length.
//! 3. **No borrow across JavaScript.** State is borrowed with `try_borrow_mut` only around pure
//!    Rust work; results are serialized after the borrow ends. Every export returns
//!    `Result<_, JsError>`; the crate denies unwrap/expect/panic, and the limits in
//!    `decode::limits`, `generate` and `model` keep every allocation bounded, so nothing traps.

mod generator;
mod read;
mod trace;

pub use generator::JsGenerator;

use crate::decode::{self, Decoder};
use serde::Serialize;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("types.d.ts");

thread_local! {
    // One decoder per instance: its scratch buffers are reused by every call, so a loop of steps
    // never grows wasm memory after the first call at a given vocabulary size.
    static DECODER: RefCell<Decoder> = RefCell::new(Decoder::default());
}

fn to_js_error(e: impl std::fmt::Display) -> JsError {
    JsError::new(&e.to_string())
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(to_js_error)
}

/// One decoding step: logits in, the chosen token and a trace of every stage out.
/// Throws an `Error` naming the field and its allowed range on any invalid input.
#[wasm_bindgen(unchecked_return_type = "StepResult")]
pub fn step(
    #[wasm_bindgen(unchecked_param_type = "Logits")] logits: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "StepConfig")] config: JsValue,
) -> Result<JsValue, JsError> {
    let config = read::config(&config)?;
    let logits = read::logits(&logits)?;
    // The candidates stay columns; their buffers leave the Decoder for the hand-over (no borrow
    // while JavaScript runs) and go back afterwards, so the next step reuses them.
    let (trace, columns) = DECODER.with(|cell| {
        let mut decoder = cell.try_borrow_mut().map_err(|_| read::busy("step"))?;
        let trace = decoder
            .step_columns(&logits, &config)
            .map_err(to_js_error)?;
        Ok::<_, JsError>((trace, decoder.take_columns()))
    })?;
    let out = trace::to_js_columnar(&trace, &columns, &JsValue::UNDEFINED);
    DECODER.with(|cell| {
        if let Ok(mut decoder) = cell.try_borrow_mut() {
            decoder.restore_columns(columns);
        }
    });
    out
}

/// `n` draws of the next token (draws `config.draw` … `config.draw + n − 1` of the seed), counted:
/// exactly the tokens `n` calls of `step` would choose, at the cost of about one. Returns
/// `{ ids, counts, seed }` (`ids` ascending, each drawn at least once).
#[wasm_bindgen(js_name = sampleCounts, unchecked_return_type = "SampleCounts")]
pub fn sample_counts(
    #[wasm_bindgen(unchecked_param_type = "Logits")] logits: JsValue,
    #[wasm_bindgen(unchecked_param_type = "StepConfig | undefined")] config: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
) -> Result<JsValue, JsError> {
    let config = read::config(&config)?;
    let logits = read::logits(&logits)?;
    let n = decode::draws_arg(n.as_f64().ok_or_else(|| read::describe(&n))).map_err(to_js_error)?;
    let counts = DECODER.with(|cell| {
        let mut decoder = cell
            .try_borrow_mut()
            .map_err(|_| read::busy("sampleCounts"))?;
        decoder
            .sample_counts(&logits, &config, n)
            .map_err(to_js_error)
    })?;
    let result = js_sys::Object::new();
    let set =
        |key: &str, value: &JsValue| js_sys::Reflect::set(&result, &JsValue::from_str(key), value);
    set("ids", &js_sys::Uint32Array::from(&counts.ids[..]).into())
        .and_then(|_| {
            set(
                "counts",
                &js_sys::Uint32Array::from(&counts.counts[..]).into(),
            )
        })
        .and_then(|_| set("seed", &JsValue::from(counts.seed)))
        .map_err(|_| JsError::new("sampleCounts: the result could not be built"))?;
    Ok(result.into())
}

/// The benchmark floor: one fused pass of max and Σ exp(l − max) over the logits, with the same
/// exp the core uses. Returns ln Σ exp(l) (the log-normaliser). Not part of the decoding API.
/// The logits are read and checked as `step` reads them.
#[wasm_bindgen(js_name = logSumExp)]
pub fn log_sum_exp(
    #[wasm_bindgen(unchecked_param_type = "Logits")] logits: JsValue,
) -> Result<f64, JsError> {
    let logits = read::logits(&logits)?;
    decode::checked_log_sum_exp(&logits).map_err(to_js_error)
}
