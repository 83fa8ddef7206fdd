//! `Generator` for JavaScript: the embedded model, one token at a time.
//!
//! Every method takes `&self` and borrows the state with `try_borrow_mut` only after its
//! arguments are read (see `read`), and only around pure Rust work; results are serialized after
//! the borrow ends. wasm-bindgen's own `&mut self` borrow would fail with a JS exception thrown
//! from inside wasm if a getter called back in; this way a re-entrant call simply runs, and a
//! Generator stays usable after any Error.

use super::read::{self, busy};
use super::{to_js, to_js_error};
use crate::generate::{self, MAX_TOKENIZER_JSON_CHARS};
use serde::Serialize;
use std::cell::{RefCell, RefMut};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/wasm/generator.js")]
extern "C" {
    /// The entries of `text` ending at each of `ends` (UTF-16 offsets), as an array of strings.
    fn split_vocab(text: &str, ends: &[u32]) -> JsValue;
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
    /// The decoding step's trace (set by `trace::to_js_trace`, columns and all); null for a
    /// forced token.
    #[serde(skip_serializing_if = "Option::is_some")]
    trace: Option<&'a crate::decode::Trace>,
    /// Why generation stopped, if this token ended it: "eos", "max_new_tokens",
    /// "stop_sequence", "user" or "context_full".
    stop: Option<&'static str>,
    /// The stop sequence matched, when `stop` is "stop_sequence".
    stop_sequence: Option<&'a str>,
}

fn generated(out: &generate::StepOutput) -> Result<JsValue, JsError> {
    let token = to_js(&GeneratedToken {
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
    })?;
    match &out.trace {
        Some(trace) => super::trace::to_js_trace(trace, &token),
        None => Ok(token),
    }
}

/// The embedded model generating text: load the shipped weights and tokenizer, set a prompt, then
/// `next(config)` (logits → `step` → append) or `force(token)`, and `rewind(n)` to go back.
/// Call `free()` when done with it.
#[wasm_bindgen(js_name = Generator)]
pub struct JsGenerator {
    /// `None` only in the placeholder `guard_generator` hands `generator.js` and frees at once.
    inner: RefCell<Option<generate::Generator>>,
}

#[wasm_bindgen(module = "/src/wasm/generator.js")]
extern "C" {
    /// Guards the methods of `instance`'s class (see generator.js), then frees `instance`.
    fn guard_class(instance: JsValue, class_name: &str);
    /// The next handle the glue assigns is a Generator it just made (see generator.js): called
    /// last thing before a new Generator is returned, so no caller's code runs in between.
    fn generator_born();
}

/// At instantiation: a call on a freed Generator, or on something that is not one, gets an Error
/// naming the method instead of wasm-bindgen's "null pointer passed to rust". The glue's class is
/// reachable from JavaScript only through an instance, hence the empty placeholder.
#[wasm_bindgen(start)]
fn guard_generator() {
    let placeholder = JsGenerator {
        inner: RefCell::new(None),
    };
    guard_class(placeholder.into(), "Generator");
}

impl JsGenerator {
    /// A Generator about to be handed to JavaScript: nothing may fail after this.
    fn new_over(inner: generate::Generator) -> JsGenerator {
        generator_born();
        JsGenerator {
            inner: RefCell::new(Some(inner)),
        }
    }

    fn state(&self, method: &str) -> Result<RefMut<'_, generate::Generator>, JsError> {
        let state = self
            .inner
            .try_borrow_mut()
            .map_err(|_| busy(&format!("Generator.{method}")))?;
        RefMut::filter_map(state, Option::as_mut).map_err(|_| {
            JsError::new(&format!(
                "Generator.{method}: this Generator holds no model"
            ))
        })
    }
}

#[wasm_bindgen(js_class = Generator)]
impl JsGenerator {
    /// Loads `model.safetensors` bytes (a Uint8Array) and `tokenizer.json` text; throws an Error
    /// naming what is wrong with either.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "Uint8Array")] weights: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] tokenizer_json: JsValue,
    ) -> Result<JsGenerator, JsError> {
        let weights = read::model_bytes(&weights)?;
        let json = read::text_up_to("tokenizer JSON", &tokenizer_json, MAX_TOKENIZER_JSON_CHARS)?;
        let inner = generate::Generator::from_bytes(&weights, &json).map_err(to_js_error)?;
        Ok(JsGenerator::new_over(inner))
    }

    /// Another Generator over the same weights and tokenizer, already parsed: no prompt, its own
    /// context and limits (as `new Generator(weights, tokenizerJson)` on the same files gives).
    pub fn spawn(&self) -> Result<JsGenerator, JsError> {
        let inner = self.state("spawn")?.spawn();
        Ok(JsGenerator::new_over(inner))
    }

    /// Starts over with `prompt` (the model reads all its tokens).
    #[wasm_bindgen(js_name = setPrompt)]
    pub fn set_prompt(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] prompt: JsValue,
    ) -> Result<(), JsError> {
        let prompt = read::text("prompt", &prompt)?;
        self.state("setPrompt")?
            .set_prompt(&prompt)
            .map_err(to_js_error)
    }

    /// Chooses and appends the next token under `config` (same keys as `step`).
    #[wasm_bindgen(unchecked_return_type = "NextToken")]
    pub fn next(
        &self,
        #[wasm_bindgen(unchecked_optional_param_type = "StepConfig")] config: JsValue,
    ) -> Result<JsValue, JsError> {
        let config = read::config(&config)?;
        let out = self.state("next")?.next(&config).map_err(to_js_error)?;
        generated(&out)
    }

    /// Appends `token` (an integer id in the vocabulary) as if it had been chosen (branching).
    #[wasm_bindgen(unchecked_return_type = "ForcedToken")]
    pub fn force(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] token: JsValue,
    ) -> Result<JsValue, JsError> {
        let max = {
            let vocab = self.state("force")?.tokenizer().vocab_size();
            vocab.saturating_sub(1) as u64
        };
        let token = read::integer("force token", &token, max)? as u32;
        let out = self.state("force")?.force(token).map_err(to_js_error)?;
        generated(&out)
    }

    /// `force` over `tokens` (token ids) in order with one batched forward pass, ending after the
    /// first that stops generation: `{ tokens, logits }`, each appended token as `force` gives it
    /// and, row after row (`vocab_size` each), the logits each one was forced at (the first row
    /// is what `logits()` gave before the call). The same state as forcing them one by one.
    /// With a `config` (the first token's, filled in as `next` fills it), also `records`: at each
    /// position the token `next` would choose and the forced token's candidate record, `draw` one
    /// further and the forced tokens appended to `history` per token; refused, with nothing
    /// changed, for a config `step` refuses.
    #[wasm_bindgen(js_name = forceMany, unchecked_return_type = "ForcedTokens")]
    pub fn force_many(
        &self,
        #[wasm_bindgen(unchecked_param_type = "TokenIds")] tokens: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "StepConfig")] config: JsValue,
    ) -> Result<JsValue, JsError> {
        let max = {
            let vocab = self.state("forceMany")?.tokenizer().vocab_size();
            vocab.saturating_sub(1) as u64
        };
        let tokens = read::token_ids(&tokens, max)?;
        let config = if config.is_undefined() {
            None
        } else {
            Some(read::config(&config)?)
        };
        let (outs, rows, records) = {
            let mut state = self.state("forceMany")?;
            match &config {
                Some(config) => {
                    let run = state
                        .force_many_recorded(&tokens, config)
                        .map_err(to_js_error)?;
                    (run.outputs, run.logits, Some(run.records))
                }
                None => {
                    let (outs, rows) = state.force_many(&tokens).map_err(to_js_error)?;
                    (outs, rows, None)
                }
            }
        };
        let list = js_sys::Array::new();
        for out in &outs {
            list.push(&generated(out)?);
        }
        let result = js_sys::Object::new();
        let set = |key: &str, value: &JsValue| {
            js_sys::Reflect::set(&result, &JsValue::from_str(key), value)
        };
        let records = match &records {
            Some(records) => Some(to_js(records)?),
            None => None,
        };
        set("tokens", &list)
            .and_then(|_| set("logits", &js_sys::Float32Array::from(&rows[..]).into()))
            .and_then(|_| match &records {
                Some(records) => set("records", records),
                None => Ok(true),
            })
            .map_err(|_| JsError::new("forceMany: the result could not be built"))?;
        Ok(result.into())
    }

    /// Removes the last `n` generated tokens and restores the exact state before them.
    pub fn rewind(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
    ) -> Result<(), JsError> {
        // Any count the core could hold is read; more than were generated is the core's error.
        let n = read::integer("rewind n", &n, u64::from(u32::MAX))?;
        self.state("rewind")?
            .rewind(n as usize)
            .map_err(to_js_error)
    }

    /// The caller's stop: `next`/`force` are refused until `rewind` or a new prompt.
    pub fn stop(&self) -> Result<(), JsError> {
        self.state("stop")?.stop();
        Ok(())
    }

    /// The model's scores for the next token (a copy), for `step` with other settings. Throws
    /// before a prompt is set, and when the context is full (no next token fits).
    pub fn logits(&self) -> Result<Vec<f32>, JsError> {
        let state = self.state("logits")?;
        state
            .next_logits()
            .map(<[f32]>::to_vec)
            .map_err(to_js_error)
    }

    /// Prompt then generated token ids (empty before a prompt).
    pub fn tokens(&self) -> Result<Vec<u32>, JsError> {
        Ok(self.state("tokens")?.tokens().to_vec())
    }

    /// How many of `tokens()` are the prompt (0 before a prompt).
    #[wasm_bindgen(getter, js_name = promptLength)]
    pub fn prompt_length(&self) -> Result<usize, JsError> {
        Ok(self.state("promptLength")?.prompt_len())
    }

    /// Generated text so far (complete characters only).
    pub fn text(&self) -> Result<String, JsError> {
        Ok(self.state("text")?.text().to_owned())
    }

    /// Every vocabulary entry, indexed by id (byte tokens as `<0xE4>`).
    #[wasm_bindgen(unchecked_return_type = "string[]")]
    pub fn vocab(&self) -> Result<JsValue, JsError> {
        // one string and where each entry ends: one decode instead of one per entry
        let (text, ends) = {
            let state = self.state("vocab")?;
            let tokenizer = state.tokenizer();
            let n = tokenizer.vocab_size();
            let mut text = String::new();
            let mut ends = Vec::with_capacity(n);
            let mut units = 0u32;
            for id in 0..n as u32 {
                let entry = tokenizer.token(id).unwrap_or("");
                text.push_str(entry);
                // ≤ 8,388,608 characters of tokenizer.json hold every entry, so this fits in u32
                units += entry.encode_utf16().count() as u32;
                ends.push(units);
            }
            (text, ends)
        };
        Ok(split_vocab(&text, &ends))
    }

    /// Token ids of `text` under the model's tokenizer.
    pub fn encode(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    ) -> Result<Vec<u32>, JsError> {
        let text = read::text("encode text", &text)?;
        Ok(self.state("encode")?.tokenizer().encode(&text))
    }

    /// The end-of-sequence token id, if the tokenizer has one.
    #[wasm_bindgen(getter, js_name = eosId)]
    pub fn eos_id(&self) -> Result<Option<u32>, JsError> {
        Ok(self.state("eosId")?.tokenizer().eos_id())
    }

    /// Stop after this many generated tokens (an integer in [1, 2^32 − 1]; default 64). Lowered
    /// below the tokens already generated, `next` refuses until it is raised or the text rewound;
    /// raised after a `max_new_tokens` stop, generation goes on from where it stopped.
    #[wasm_bindgen(js_name = setMaxNewTokens)]
    pub fn set_max_new_tokens(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] n: JsValue,
    ) -> Result<(), JsError> {
        let n = read::integer_in("setMaxNewTokens n", &n, 1, u64::from(u32::MAX))?;
        self.state("setMaxNewTokens")?.max_new_tokens = n as usize;
        Ok(())
    }

    /// Stop when the generated text contains any of these (matched across token boundaries): an
    /// array of at most 64 strings of at most 256 characters (an empty one matches nothing and is
    /// dropped, as the page's own stop list drops it).
    #[wasm_bindgen(js_name = setStopSequences)]
    pub fn set_stop_sequences(
        &self,
        #[wasm_bindgen(unchecked_param_type = "readonly string[]")] sequences: JsValue,
    ) -> Result<(), JsError> {
        let sequences = read::stop_sequences(&sequences)?;
        self.state("setStopSequences")?.stop_sequences = sequences;
        Ok(())
    }

    /// Why generation stopped (as `GeneratedToken.stop` said it), or undefined while it may go on
    /// (a getter's "none" is undefined, as `eosId`'s; a returned token's `stop` is null then).
    #[wasm_bindgen(getter, unchecked_return_type = "StopReason | undefined")]
    pub fn stopped(&self) -> Result<Option<String>, JsError> {
        Ok(self
            .state("stopped")?
            .stopped()
            .map(|s| s.name().to_owned()))
    }
}
