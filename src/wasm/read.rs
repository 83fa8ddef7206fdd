//! Reading JavaScript arguments without running JavaScript while Rust state is borrowed.
//!
//! Objects go through `boundary.js` (model bytes and texts: `generator.js`), a copy made inside
//! try/catch (an exception there becomes a message); primitives are read with wasm-bindgen's
//! `typeof` intrinsics, which run no user code. Nothing here borrows any state.

use crate::decode::limits::{MAX_HISTORY, MAX_LOGITS};
use crate::decode::{Config, StepError, Value, KEYS};
use crate::generate::{
    self, MAX_FORCED_TOKENS, MAX_STOP_SEQUENCES, MAX_STOP_SEQUENCE_CHARS, MAX_TEXT_CHARS,
};
use crate::model::MAX_MODEL_BYTES;
use js_sys::{Array, Float32Array, Float64Array, JsString, Object, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(module = "/src/wasm/boundary.js")]
extern "C" {
    #[wasm_bindgen(catch)]
    fn snapshot_logits(value: &JsValue, max: u32) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(catch)]
    fn snapshot_tree(
        what: &str,
        value: &JsValue,
        known: &str,
        max_depth: u32,
        max_items: u32,
        max_total: u32,
        max_string: u32,
    ) -> Result<JsValue, JsValue>;
    fn describe_object(value: &JsValue) -> String;
}

// The arguments only a Generator takes (generator.js, which the guard already makes a snippet).
#[wasm_bindgen(module = "/src/wasm/generator.js")]
extern "C" {
    #[wasm_bindgen(catch)]
    fn snapshot_bytes(what: &str, value: &JsValue, max: u32) -> Result<JsValue, JsValue>;
    fn lone_surrogate_index(text: &JsString) -> i32;
}

#[wasm_bindgen(module = "/src/wasm/boundary.js")]
extern "C" {
    /// An object of numbers from the snapshot: its keys joined by U+0000, its values in order.
    type NumberEntries;
    #[wasm_bindgen(method, getter)]
    fn keys(this: &NumberEntries) -> String;
    #[wasm_bindgen(method, getter)]
    fn numbers(this: &NumberEntries) -> Float64Array;
}

/// How deep a config may nest: the deepest real one is `config.logit_bias["5"]` (2 levels).
pub const MAX_CONFIG_DEPTH: u32 = 4;
/// Most values in one config: a full `history` and a full `logit_bias`, and a little more.
pub const MAX_CONFIG_VALUES: u32 = (MAX_HISTORY as u32) * 2 + 1024;
/// Longest string value in a config (engine and strategy names are a few characters).
pub const MAX_CONFIG_STRING: u32 = 1024;

/// The error a re-entrant call gets if it ever finds the state borrowed (the read-first rule
/// should make this unreachable; it is an Error rather than a trap all the same).
pub fn busy(what: &str) -> JsError {
    JsError::new(&format!(
        "{what} is already running (called again from inside its own argument's getter?); try again after it returns"
    ))
}

/// A message for a snapshot that could not even be taken (the JS stack was exhausted, say).
fn unreadable(what: &str) -> JsError {
    JsError::new(&format!("{what} could not be read"))
}

/// What a primitive (or any value) is, for a message, without running user code.
pub fn describe(value: &JsValue) -> String {
    if let Some(n) = value.as_f64() {
        return Value::Number(n).describe();
    }
    if value.is_string() {
        let s: &JsString = value.unchecked_ref();
        let head: String = s.slice(0, 41).into();
        return Value::String(head).describe();
    }
    if let Some(b) = value.as_bool() {
        return format!("boolean {b}");
    }
    if value.is_undefined() {
        "undefined".into()
    } else if value.is_null() {
        "null".into()
    } else if value.is_function() {
        "a function".into()
    } else if value.is_symbol() {
        "a symbol".into()
    } else if let Some(big) = value.dyn_ref::<js_sys::BigInt>() {
        // (a BigInt's decimal digits: no user code runs)
        let digits: String = big.to_string(10).map(String::from).unwrap_or_default();
        let head: String = digits.chars().take(40).collect();
        let more = if digits.len() > head.len() { "…" } else { "" };
        format!("bigint {head}{more}")
    } else {
        // a wrapped primitive (`new String("hi")`) or a Map is named (brand checks: no user code)
        describe_object(value)
    }
}

/// The logits as an owned copy. The caller's array is copied in JS first, so the copy into wasm
/// memory reads only a fresh `Float32Array`.
pub fn logits(value: &JsValue) -> Result<Vec<f32>, JsError> {
    let copy = snapshot_logits(value, MAX_LOGITS as u32).map_err(|_| unreadable("logits"))?;
    if let Some(message) = copy.as_string() {
        return Err(JsError::new(&message));
    }
    Ok(copy.unchecked_into::<Float32Array>().to_vec())
}

/// Model bytes (a Uint8Array of at most `MAX_MODEL_BYTES`) as an owned copy.
pub fn model_bytes(value: &JsValue) -> Result<Vec<u8>, JsError> {
    let what = "model bytes";
    let copy = snapshot_bytes(what, value, MAX_MODEL_BYTES as u32).map_err(|_| unreadable(what))?;
    if let Some(message) = copy.as_string() {
        return Err(JsError::new(&message));
    }
    Ok(copy.unchecked_into::<Uint8Array>().to_vec())
}

/// A JSON-like argument as a [`Value`], through the snapshot's bounded copy (a value JSON has no
/// form for — a symbol, a hole — arrives as `Value::Other`, refused by the parser in its words).
/// `known`: the keys looked up with `in` besides the enumerable ones (a config's).
fn tree(
    what: &str,
    value: &JsValue,
    known: &str,
    limits: (u32, u32, u32, u32),
) -> Result<Value, JsError> {
    let (depth, items, total, string) = limits;
    let snap = snapshot_tree(what, value, known, depth, items, total, string)
        .map_err(|_| unreadable(what))?;
    if let Some(message) = snap.as_string() {
        return Err(JsError::new(&message));
    }
    // `snap` is the snapshot's own `{ value }`: a plain data property, no getter.
    let inner =
        js_sys::Reflect::get(&snap, &JsValue::from_str("value")).map_err(|_| unreadable(what))?;
    value_of(inner).map_err(|e| JsError::new(&format!("{what} could not be read ({e})")))
}

/// The snapshot's tree as a [`Value`]. A list of numbers arrives as one Float64Array (boundary.js)
/// and is copied in one call, an object of numbers as one `NumberEntries` (two calls); objects and other lists are walked here, so such a list is found at
/// any depth; every other value is read by serde-wasm-bindgen, as the whole tree was before.
fn value_of(value: JsValue) -> Result<Value, serde_wasm_bindgen::Error> {
    if let Some(numbers) = value.dyn_ref::<Float64Array>() {
        return Ok(Value::Array(
            numbers.to_vec().into_iter().map(number).collect(),
        ));
    }
    if let Some(entries) = value.dyn_ref::<NumberEntries>() {
        let numbers = entries.numbers().to_vec();
        let keys = entries.keys();
        let keys = keys.split('\0').take(numbers.len()).map(String::from);
        return Ok(Value::Object(
            keys.zip(numbers).map(|(k, x)| (k, number(x))).collect(),
        ));
    }
    if Array::is_array(&value) {
        let list: Array = value.unchecked_into();
        return list
            .iter()
            .map(value_of)
            .collect::<Result<_, _>>()
            .map(Value::Array);
    }
    if value.is_object() && !value.is_instance_of::<Uint8Array>() {
        // A null-prototype object of the snapshot: own data properties only, no getters.
        let entries = Object::entries(value.unchecked_ref());
        let mut out = Vec::with_capacity(entries.length() as usize);
        for entry in entries.iter() {
            let pair: Array = entry.unchecked_into();
            let key = pair.get(0).as_string().unwrap_or_default();
            out.push((key, value_of(pair.get(1))?));
        }
        return Ok(Value::Object(out));
    }
    serde_wasm_bindgen::from_value(value)
}

/// A number of a list, as serde-wasm-bindgen reads one (a safe integer through i64, so −0 is 0).
fn number(x: f64) -> Value {
    Value::Number(if x == 0.0 { 0.0 } else { x })
}

/// A step config: undefined/null mean defaults; anything but an object is refused by name. Keys
/// come from `for…in` (own and inherited enumerable) plus every known key `in` the object, so
/// prototype keys and class getters count.
pub fn config(value: &JsValue) -> Result<Config, JsError> {
    if value.is_undefined() || value.is_null() {
        return Ok(Config::default());
    }
    if !value.is_object() {
        let got = describe(value);
        return Err(JsError::new(&StepError::NotAnObject { got }.to_string()));
    }
    let known = KEYS.join(",");
    let limits = (
        MAX_CONFIG_DEPTH,
        MAX_HISTORY as u32,
        MAX_CONFIG_VALUES,
        MAX_CONFIG_STRING,
    );
    let parsed = tree("config", value, &known, limits)?;
    let mut config = Config::from_value(&parsed).map_err(super::to_js_error)?;
    // The seed is taken here, before any state is borrowed (the platform's entropy source is a
    // JavaScript call). `draw` 0 is what the core would use without a seed; same result.
    if config.seed.is_none() {
        let seed = getrandom::u32().map_err(|e| {
            super::to_js_error(StepError::NoEntropy {
                reason: e.to_string(),
            })
        })?;
        config.seed = Some(seed);
        config.draw.get_or_insert(0);
    }
    Ok(config)
}

/// The stop sequences: an array of at most `MAX_STOP_SEQUENCES` strings.
pub fn stop_sequences(value: &JsValue) -> Result<Vec<String>, JsError> {
    let limits = (
        1,
        MAX_STOP_SEQUENCES as u32,
        MAX_STOP_SEQUENCES as u32 + 1,
        MAX_STOP_SEQUENCE_CHARS as u32,
    );
    let parsed = tree("stop sequences", value, "", limits)?;
    generate::stop_sequences_arg(&parsed).map_err(super::to_js_error)
}

/// Token ids (`forceMany`): an array (or typed array) of at most `MAX_FORCED_TOKENS` integers in
/// [0, max_id].
pub fn token_ids(value: &JsValue, max_id: u64) -> Result<Vec<u32>, JsError> {
    let n = MAX_FORCED_TOKENS as u32;
    let parsed = tree("tokens", value, "", (1, n, n + 1, 64))?;
    generate::token_ids_arg("tokens", &parsed, max_id).map_err(super::to_js_error)
}

/// An integer argument in [0, max], taken as f64: never wrapped, truncated or coerced.
pub fn integer(name: &str, value: &JsValue, max: u64) -> Result<u64, JsError> {
    integer_in(name, value, 0, max)
}

/// An integer argument in [min, max], as [`integer`].
pub fn integer_in(name: &str, value: &JsValue, min: u64, max: u64) -> Result<u64, JsError> {
    let n = value.as_f64().ok_or_else(|| describe(value));
    generate::integer_arg_in(name, n, min, max).map_err(super::to_js_error)
}

/// A string argument of at most `MAX_TEXT_CHARS` UTF-16 units (checked before it is copied).
pub fn text(name: &str, value: &JsValue) -> Result<String, JsError> {
    text_up_to(name, value, MAX_TEXT_CHARS)
}

/// A string argument of at most `max` UTF-16 units.
pub fn text_up_to(name: &str, value: &JsValue, max: usize) -> Result<String, JsError> {
    if !value.is_string() {
        return Err(JsError::new(&format!(
            "{name} must be a string, got {}",
            describe(value)
        )));
    }
    let s: &JsString = value.unchecked_ref();
    let len = s.length() as usize;
    if len > max {
        return Err(JsError::new(&format!(
            "{name} must be a string of at most {max} characters, got {len} characters"
        )));
    }
    // Copied, a lone surrogate would become U+FFFD: a prompt would then hold a character the
    // caller never wrote. Refused like one in a config string (boundary.js), by position.
    // (found by one regex search in JS: `is_valid_utf16` reads the string one unit per call)
    if let Ok(index) = u32::try_from(lone_surrogate_index(s)) {
        let unit = s.char_code_at(index) as u16;
        return Err(JsError::new(&format!(
            "{name} must be well-formed Unicode text, got a lone surrogate U+{unit:04X} at index {index}"
        )));
    }
    Ok(value.as_string().unwrap_or_default())
}
