//! The JavaScript adapter: parse → call the core → serialize. No decoding logic lives here; a range
//! check or an `if` about meaning belongs in `decode::config`.
//!
//! Every export returns `Result<_, JsError>`, so bad input becomes a thrown `Error` and the wasm
//! instance stays usable (a panic would abort it for good: the crate denies unwrap/expect/panic).

use crate::decode::{self, Config, Decoder, Value};
use crate::generate;
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

/// What one generated (or forced) token produced, as the page reads it.
#[derive(Serialize)]
struct GeneratedToken<'a> {
    token: u32,
    /// The vocabulary entry (`北京`, `<0xE4>`).
    token_text: &'a str,
    /// Text completed by this token (empty while a character is still spelled out in bytes).
    piece: &'a str,
    /// Bytes of an unfinished character, carried to the next token (never shown as U+FFFD).
    pending: &'a [u8],
    /// The decoding step's trace; null for a forced token.
    trace: Option<&'a crate::decode::Trace>,
    /// Why generation stopped, if this token ended it: "eos", "max_new_tokens",
    /// "stop_sequence", "user" or "context_full".
    stop: Option<&'static str>,
    /// The stop sequence matched, when `stop` is "stop_sequence".
    stop_sequence: Option<&'a str>,
}

fn generated(out: &generate::StepOutput) -> Result<JsValue, JsError> {
    to_js(&GeneratedToken {
        token: out.token,
        token_text: &out.token_text,
        piece: &out.piece,
        pending: &out.pending,
        trace: out.trace.as_ref(),
        stop: out.stop.as_ref().map(|s| s.name()),
        stop_sequence: match &out.stop {
            Some(generate::StopReason::StopSequence(s)) => Some(s),
            _ => None,
        },
    })
}

/// The embedded model generating text: load the shipped weights and tokenizer, set a prompt, then
/// `next(config)` (logits → `step` → append) or `force(token)`, and `rewind(n)` to go back.
/// Call `free()` when done with it.
#[wasm_bindgen(js_name = Generator)]
pub struct JsGenerator {
    inner: generate::Generator,
}

#[wasm_bindgen(js_class = Generator)]
impl JsGenerator {
    /// Loads `model.safetensors` bytes and `tokenizer.json` text; throws an Error naming what is
    /// wrong with either.
    #[wasm_bindgen(constructor)]
    pub fn new(weights: &[u8], tokenizer_json: &str) -> Result<JsGenerator, JsError> {
        let inner =
            generate::Generator::from_bytes(weights, tokenizer_json).map_err(to_js_error)?;
        Ok(JsGenerator { inner })
    }

    /// Starts over with `prompt` (the model reads all its tokens).
    #[wasm_bindgen(js_name = setPrompt)]
    pub fn set_prompt(&mut self, prompt: &str) -> Result<(), JsError> {
        self.inner.set_prompt(prompt).map_err(to_js_error)
    }

    /// Chooses and appends the next token under `config` (same keys as `step`).
    #[wasm_bindgen(unchecked_return_type = "GeneratedToken")]
    pub fn next(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "StepConfig | undefined")] config: JsValue,
    ) -> Result<JsValue, JsError> {
        let config = read_config(config)?;
        let out = self.inner.next(&config).map_err(to_js_error)?;
        generated(&out)
    }

    /// Appends `token` as if it had been chosen (branching).
    #[wasm_bindgen(unchecked_return_type = "GeneratedToken")]
    pub fn force(&mut self, token: u32) -> Result<JsValue, JsError> {
        let out = self.inner.force(token).map_err(to_js_error)?;
        generated(&out)
    }

    /// Removes the last `n` generated tokens and restores the exact state before them.
    pub fn rewind(&mut self, n: usize) -> Result<(), JsError> {
        self.inner.rewind(n).map_err(to_js_error)
    }

    /// The caller's stop: `next`/`force` are refused until `rewind` or a new prompt.
    pub fn stop(&mut self) {
        self.inner.stop();
    }

    /// The model's scores for the next token (a copy), for `step` with other settings.
    pub fn logits(&self) -> Vec<f32> {
        self.inner.logits().to_vec()
    }

    /// Prompt then generated token ids.
    pub fn tokens(&self) -> Vec<u32> {
        self.inner.tokens().to_vec()
    }

    /// How many of `tokens()` are the prompt.
    #[wasm_bindgen(getter, js_name = promptLength)]
    pub fn prompt_length(&self) -> usize {
        self.inner.prompt_len()
    }

    /// Generated text so far (complete characters only).
    pub fn text(&self) -> String {
        self.inner.text().to_owned()
    }

    /// Every vocabulary entry, indexed by id (byte tokens as `<0xE4>`).
    #[wasm_bindgen(unchecked_return_type = "string[]")]
    pub fn vocab(&self) -> Result<JsValue, JsError> {
        let tokenizer = self.inner.tokenizer();
        let entries: Vec<&str> = (0..tokenizer.vocab_size() as u32)
            .map(|id| tokenizer.token(id).unwrap_or(""))
            .collect();
        to_js(&entries)
    }

    /// Token ids of `text` under the model's tokenizer.
    pub fn encode(&self, text: &str) -> Vec<u32> {
        self.inner.tokenizer().encode(text)
    }

    /// The end-of-sequence token id, if the tokenizer has one.
    #[wasm_bindgen(getter, js_name = eosId)]
    pub fn eos_id(&self) -> Option<u32> {
        self.inner.tokenizer().eos_id()
    }

    /// Stop after this many generated tokens (default 64).
    #[wasm_bindgen(js_name = setMaxNewTokens)]
    pub fn set_max_new_tokens(&mut self, n: usize) {
        self.inner.max_new_tokens = n;
    }

    /// Stop when the generated text contains any of these (matched across token boundaries).
    #[wasm_bindgen(js_name = setStopSequences)]
    pub fn set_stop_sequences(&mut self, sequences: Vec<String>) {
        self.inner.stop_sequences = sequences.into_iter().filter(|s| !s.is_empty()).collect();
    }

    /// Why generation stopped, or null.
    #[wasm_bindgen(getter)]
    pub fn stopped(&self) -> Option<String> {
        self.inner.stopped().map(|s| s.name().to_owned())
    }
}
