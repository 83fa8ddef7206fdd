//! The JavaScript adapter: parse → call the core → serialize. No decoding logic lives here; a range
//! check or an `if` about meaning belongs in `decode::config`.
//!
//! Every export returns `Result<_, JsError>`, so bad input becomes a thrown `Error` and the wasm
//! instance stays usable (a panic would abort it for good: the crate denies unwrap/expect/panic).

use crate::decode::{self, Config, Decoder, Value};
use serde::Serialize;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("types.d.ts");

thread_local! {
    // One decoder per instance: its scratch buffers are reused by every call, so a loop of steps
    // never grows wasm memory after the first call at a given vocabulary size.
    static DECODER: RefCell<Decoder> = RefCell::new(Decoder::default());
    static LOGITS: RefCell<Vec<f32>> = const { RefCell::new(Vec::new()) };
}

fn to_js_error(e: impl std::fmt::Display) -> JsError {
    JsError::new(&e.to_string())
}

/// Reads `logits` from a Float32Array (copied, no conversion) or an array of numbers.
fn read_logits(value: &JsValue, into: &mut Vec<f32>) -> Result<(), JsError> {
    into.clear();
    if let Some(array) = value.dyn_ref::<js_sys::Float32Array>() {
        into.resize(array.length() as usize, 0.0);
        array.copy_to(into);
        return Ok(());
    }
    if let Some(array) = value.dyn_ref::<js_sys::Array>() {
        for (i, item) in array.iter().enumerate() {
            match item.as_f64() {
                Some(x) => into.push(x as f32),
                None => {
                    return Err(JsError::new(&format!(
                        "logits[{i}] must be a number, got {}",
                        describe(&item)
                    )))
                }
            }
        }
        return Ok(());
    }
    Err(JsError::new(&format!(
        "logits must be a Float32Array or an array of numbers, got {}",
        describe(value)
    )))
}

fn describe(value: &JsValue) -> String {
    value
        .js_typeof()
        .as_string()
        .unwrap_or_else(|| "an unknown value".into())
}

fn read_config(config: JsValue) -> Result<Config, JsError> {
    let value: Value = if config.is_undefined() || config.is_null() {
        Value::Null
    } else {
        serde_wasm_bindgen::from_value(config)
            .map_err(|e| JsError::new(&format!("config must be a plain object ({e})")))?
    };
    Config::from_value(&value).map_err(to_js_error)
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
    #[wasm_bindgen(unchecked_param_type = "Float32Array | number[]")] logits: JsValue,
    #[wasm_bindgen(unchecked_param_type = "StepConfig | undefined")] config: JsValue,
) -> Result<JsValue, JsError> {
    let config = read_config(config)?;
    LOGITS.with_borrow_mut(|buffer| {
        read_logits(&logits, buffer)?;
        let trace = DECODER
            .with_borrow_mut(|decoder| decoder.step(buffer, &config))
            .map_err(to_js_error)?;
        to_js(&trace)
    })
}

/// The benchmark floor: one fused pass of max and Σ exp(l − max) over the logits, with the same
/// exp the core uses. Returns ln Σ exp(l) (the log-normaliser). Not part of the decoding API.
#[wasm_bindgen(js_name = logSumExp)]
pub fn log_sum_exp(logits: &[f32]) -> f64 {
    decode::log_sum_exp(logits)
}
