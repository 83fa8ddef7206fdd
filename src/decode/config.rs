//! `Config` (what the caller wrote, every field optional) and `Settings` (resolved for one engine
//! and one vocabulary, every value checked). Stages read `Settings` and never check again.
//!
//! Fields are `Option` so "use the default" differs from "explicitly set": an engine can then tell
//! a key the caller set to a non-off value (an error naming the key and engine) from one left alone.

use super::engine::Engine;
use super::error::StepError;
use super::limits::{MAX_DYNATEMP_RANGE, MAX_TRACE_TOP};
use super::ranges::range;
use super::value::format_number;

/// `"sample"` (default) draws from the final distribution; `"greedy"` takes its argmax.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Strategy {
    #[default]
    Sample,
    Greedy,
}

/// One decoding step's settings, named as in HF transformers / llama.cpp / vLLM. `None` = default.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Config {
    pub strategy: Option<Strategy>,
    /// ≥ 0, default 1; 0 means greedy.
    pub temperature: Option<f64>,
    /// Integer ≥ 0; 0 = off.
    pub top_k: Option<u32>,
    /// In [0, 1]; 1 = off (vLLM: (0, 1]).
    pub top_p: Option<f64>,
    /// In [0, 1]; 0 = off.
    pub min_p: Option<f64>,
    /// In (0, 1]; 1 = off. HF and llama.cpp only.
    pub typical_p: Option<f64>,
    /// In [0, 1); 0 = off. HF only.
    pub epsilon_cutoff: Option<f64>,
    /// > 0; 1 = off.
    pub repetition_penalty: Option<f64>,
    /// Finite; 0 = off. llama.cpp and vLLM only.
    pub frequency_penalty: Option<f64>,
    /// Finite; 0 = off. llama.cpp and vLLM only.
    pub presence_penalty: Option<f64>,
    /// Token ids seen so far (prompt then generated), oldest first.
    pub history: Option<Vec<u32>>,
    /// How many leading `history` ids are prompt (vLLM's frequency/presence skip them).
    pub history_prompt_len: Option<usize>,
    /// llama.cpp's window over `history`; −1 = all (the only value other engines accept), 0 = none.
    pub penalty_last_n: Option<i64>,
    /// Added to a token's logit before anything else; in [−100, 100], or −inf to ban the token.
    pub logit_bias: Option<Vec<(u32, f64)>>,
    /// Every truncation keeps at least this many tokens (always at least 1).
    pub min_keep: Option<u32>,
    /// llama.cpp dynamic temperature half-range; 0 = off.
    pub dynatemp_range: Option<f64>,
    /// llama.cpp dynamic temperature exponent; default 1.
    pub dynatemp_exponent: Option<f64>,
    pub engine: Option<Engine>,
    /// 0 … 2^32 − 1. Without one, `step` takes a fresh one and reports it.
    pub seed: Option<u32>,
    /// Which draw of the seed's stream: 0 … 2^53.
    pub draw: Option<u64>,
    /// How many candidates the trace lists (default 20).
    pub trace_top: Option<u32>,
    /// While fewer than this many new tokens (`history` − `history_prompt_len`) exist, the
    /// `eos_token_id` tokens are removed (HF `min_new_tokens`, vLLM `min_tokens`); 0 = off.
    pub min_new_tokens: Option<u32>,
    /// The end-of-sequence id(s) `min_new_tokens` holds back (HF accepts one id or a list).
    pub eos_token_id: Option<Vec<u32>>,
    /// Ids the trace lists too, wherever they rank (at most [`MAX_TRACE_IDS`], each < vocabulary).
    pub trace_ids: Option<Vec<u32>>,
    /// Probability of the tokens the logits leave out (a server's top N); see `rest.rs`.
    pub rest_mass: Option<f64>,
}

/// The most ids `eos_token_id` may list (models have one to a handful).
pub const MAX_EOS_IDS: usize = 64;

/// The most ids `trace_ids` may name: enough for a page's "find a token" and forced links, small
/// enough that locating them stays one pass over the vocabulary.
pub const MAX_TRACE_IDS: usize = 1024;

fn too_many_trace_ids(len: usize) -> StepError {
    StepError::OutOfRange {
        field: "trace_ids".into(),
        allowed: format!("an array of at most {MAX_TRACE_IDS} token ids"),
        got: format!("{len} ids"),
    }
}

/// Every key `step` reads. A key missing here is refused as unknown, so a new key must be added
/// here as well as to [`Config::from_value`]; the wasm adapter also reads these through getters
/// and prototypes.
pub const KEYS: &[&str] = &[
    "strategy",
    "engine",
    "temperature",
    "top_k",
    "top_p",
    "min_p",
    "typical_p",
    "epsilon_cutoff",
    "repetition_penalty",
    "frequency_penalty",
    "presence_penalty",
    "history",
    "history_prompt_len",
    "penalty_last_n",
    "logit_bias",
    "min_keep",
    "dynatemp_range",
    "dynatemp_exponent",
    "seed",
    "draw",
    "trace_top",
    "trace_ids",
    "min_new_tokens",
    "eos_token_id",
    "rest_mass",
];

/// A config resolved for one engine and vocabulary: defaults filled in, every value in range,
/// every key outside the engine at its off value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Settings {
    pub engine: Engine,
    pub greedy: bool,
    /// The temperature as the engines hold it (float32), after vLLM's clamp to ≥ 0.01.
    pub temperature: f32,
    pub top_k: usize,
    pub top_p: f64,
    pub min_p: f64,
    pub typical_p: f64,
    pub epsilon_cutoff: f64,
    pub repetition_penalty: f32,
    pub frequency_penalty: f32,
    pub presence_penalty: f32,
    pub history: Vec<u32>,
    pub history_prompt_len: usize,
    pub penalty_last_n: i64,
    pub logit_bias: Vec<(u32, f32)>,
    /// At least 1: every engine keeps one token whatever the settings.
    pub min_keep: usize,
    pub dynatemp_range: f32,
    pub dynatemp_exponent: f32,
    pub seed: u32,
    pub draw: u64,
    pub trace_top: usize,
    pub min_new_tokens: usize,
    /// Checked against the vocabulary; non-empty whenever `min_new_tokens` > 0.
    pub eos_token_id: Vec<u32>,
    /// New tokens so far: `history.len() − history_prompt_len`.
    pub new_tokens: usize,
    /// `trace_ids`, checked, sorted and without duplicates.
    pub trace_ids: Vec<u32>,
}

fn check(field: &str, value: f64, ok: bool, allowed: &str) -> Result<(), StepError> {
    if ok {
        Ok(())
    } else {
        Err(StepError::OutOfRange {
            field: field.into(),
            allowed: allowed.into(),
            got: format_number(value),
        })
    }
}

/// `check` with the key's range as `ranges` words it (the same words as its type error).
fn check_key(field: &str, value: f64, ok: bool) -> Result<(), StepError> {
    check(field, value, ok, range(field).unwrap_or("a number"))
}

impl Config {
    /// Checks every value and fills in defaults for `vocab_size` tokens.
    ///
    /// # Errors
    /// `OutOfRange` naming the field and its allowed range, or `NotInEngine` for a key set to a
    /// non-off value on an engine without that stage.
    pub(crate) fn resolve(&self, vocab_size: usize, seed: u32) -> Result<Settings, StepError> {
        let engine = self.engine.unwrap_or_default();
        let temperature = self.temperature.unwrap_or(1.0);
        // 1/T must stay finite in float32 and T itself meaningful: at 1e6 every distribution is flat.
        let temperature_ok = temperature == 0.0 || (1e-38..=1e6).contains(&temperature);
        check_key("temperature", temperature, temperature_ok)?;
        let top_p = self.top_p.unwrap_or(1.0);
        if engine == Engine::Vllm {
            check(
                "top_p",
                top_p,
                top_p > 0.0 && top_p <= 1.0,
                "in (0, 1] for engine \"vllm\"",
            )?;
        } else {
            check_key("top_p", top_p, (0.0..=1.0).contains(&top_p))?;
        }
        let min_p = self.min_p.unwrap_or(0.0);
        check_key("min_p", min_p, (0.0..=1.0).contains(&min_p))?;
        let typical_p = self.typical_p.unwrap_or(1.0);
        check_key("typical_p", typical_p, typical_p > 0.0 && typical_p <= 1.0)?;
        let epsilon_cutoff = self.epsilon_cutoff.unwrap_or(0.0);
        check_key(
            "epsilon_cutoff",
            epsilon_cutoff,
            (0.0..1.0).contains(&epsilon_cutoff),
        )?;
        let repetition_penalty = self.repetition_penalty.unwrap_or(1.0);
        // Checked as float32, the precision every engine applies it in.
        let rp32 = repetition_penalty as f32;
        check_key(
            "repetition_penalty",
            repetition_penalty,
            rp32.is_finite() && rp32 > 0.0,
        )?;
        let frequency_penalty = self.frequency_penalty.unwrap_or(0.0);
        check_key(
            "frequency_penalty",
            frequency_penalty,
            (frequency_penalty as f32).is_finite(),
        )?;
        let presence_penalty = self.presence_penalty.unwrap_or(0.0);
        check_key(
            "presence_penalty",
            presence_penalty,
            (presence_penalty as f32).is_finite(),
        )?;
        let dynatemp_range = self.dynatemp_range.unwrap_or(0.0);
        // Bounded like temperature, so T ± range (and 1/T) stay finite in float32.
        check_key(
            "dynatemp_range",
            dynatemp_range,
            (0.0..=MAX_DYNATEMP_RANGE).contains(&dynatemp_range),
        )?;
        let dynatemp_exponent = self.dynatemp_exponent.unwrap_or(1.0);
        check_key(
            "dynatemp_exponent",
            dynatemp_exponent,
            dynatemp_exponent.is_finite() && dynatemp_exponent >= 0.0,
        )?;

        let history = self.history.clone().unwrap_or_default();
        if let Some((i, &id)) = history
            .iter()
            .enumerate()
            .find(|(_, &id)| id as usize >= vocab_size)
        {
            return Err(StepError::OutOfRange {
                field: format!("history[{i}]"),
                allowed: format!("a token id < vocabulary size {vocab_size}"),
                got: id.to_string(),
            });
        }
        let history_prompt_len = self.history_prompt_len.unwrap_or(0);
        if history_prompt_len > history.len() {
            return Err(StepError::OutOfRange {
                field: "history_prompt_len".into(),
                allowed: format!("in [0, {}] (the history's length)", history.len()),
                got: history_prompt_len.to_string(),
            });
        }
        let penalty_last_n = self.penalty_last_n.unwrap_or(-1);
        if penalty_last_n < -1 {
            return Err(StepError::OutOfRange {
                field: "penalty_last_n".into(),
                allowed: "an integer ≥ -1 (-1 = all)".into(),
                got: penalty_last_n.to_string(),
            });
        }
        let min_new_tokens = self.min_new_tokens.unwrap_or(0) as usize;
        let new_tokens = history.len() - history_prompt_len; // checked ≤ above
        let eos_token_id = self.eos_token_id.clone().unwrap_or_default();
        if eos_token_id.len() > MAX_EOS_IDS {
            return Err(StepError::OutOfRange {
                field: "eos_token_id".into(),
                allowed: format!("an array of at most {MAX_EOS_IDS} token ids"),
                got: format!("{} ids", eos_token_id.len()),
            });
        }
        if let Some((i, &id)) = eos_token_id
            .iter()
            .enumerate()
            .find(|(_, &id)| id as usize >= vocab_size)
        {
            return Err(StepError::OutOfRange {
                field: format!("eos_token_id[{i}]"),
                allowed: format!("a token id < vocabulary size {vocab_size}"),
                got: id.to_string(),
            });
        }
        if min_new_tokens > 0 && eos_token_id.is_empty() {
            return Err(StepError::OutOfRange {
                field: "eos_token_id".into(),
                allowed: "set (a token id or an array of them) when min_new_tokens > 0".into(),
                got: "none".into(),
            });
        }
        let mut trace_ids = self.trace_ids.clone().unwrap_or_default();
        if trace_ids.len() > MAX_TRACE_IDS {
            return Err(too_many_trace_ids(trace_ids.len()));
        }
        if let Some((i, &id)) = trace_ids
            .iter()
            .enumerate()
            .find(|(_, &id)| id as usize >= vocab_size)
        {
            return Err(StepError::OutOfRange {
                field: format!("trace_ids[{i}]"),
                allowed: format!("a token id < vocabulary size {vocab_size}"),
                got: id.to_string(),
            });
        }
        trace_ids.sort_unstable();
        trace_ids.dedup();
        let mut logit_bias = Vec::new();
        for &(id, bias) in self.logit_bias.as_deref().unwrap_or_default() {
            if id as usize >= vocab_size {
                return Err(StepError::OutOfRange {
                    field: format!("logit_bias[\"{id}\"]"),
                    allowed: format!("keyed by a token id < vocabulary size {vocab_size}"),
                    got: format!("key {id}"),
                });
            }
            // Bounded so that no finite logit + bias can overflow float32.
            let ok = bias == f64::NEG_INFINITY || (-100.0..=100.0).contains(&bias);
            check_key(&format!("logit_bias[\"{id}\"]"), bias, ok)?;
            logit_bias.push((id, bias as f32));
        }

        let off = |field: &'static str, is_off: bool, off: &'static str| {
            if is_off {
                Ok(())
            } else {
                Err(StepError::NotInEngine {
                    field,
                    engine: engine.name(),
                    off,
                })
            }
        };
        let min_keep_raw = self.min_keep.unwrap_or(0);
        match engine {
            Engine::Hf => {
                off("frequency_penalty", frequency_penalty == 0.0, "0")?;
                off("presence_penalty", presence_penalty == 0.0, "0")?;
                off("penalty_last_n", penalty_last_n == -1, "-1")?;
                off("dynatemp_range", dynatemp_range == 0.0, "0")?;
            }
            Engine::LlamaCpp => {
                off("epsilon_cutoff", epsilon_cutoff == 0.0, "0")?;
            }
            Engine::Vllm => {
                off("typical_p", typical_p == 1.0, "1")?;
                off("epsilon_cutoff", epsilon_cutoff == 0.0, "0")?;
                off("penalty_last_n", penalty_last_n == -1, "-1")?;
                off("min_keep", min_keep_raw <= 1, "0 or 1")?;
                off("dynatemp_range", dynatemp_range == 0.0, "0")?;
            }
        }
        if engine != Engine::LlamaCpp {
            off("dynatemp_exponent", dynatemp_exponent == 1.0, "1")?;
        }

        let strategy = self.strategy.unwrap_or_default();
        let temperature32 = temperature as f32;
        let greedy = strategy == Strategy::Greedy
            || match engine {
                // vLLM treats anything below 1e-5 as greedy and raises (0, 0.01) to 0.01.
                Engine::Vllm => temperature < 1e-5,
                _ => temperature == 0.0,
            };
        let temperature32 = if engine == Engine::Vllm && !greedy {
            temperature32.max(0.01)
        } else {
            temperature32
        };
        Ok(Settings {
            engine,
            greedy,
            temperature: if greedy { 0.0 } else { temperature32 },
            top_k: self.top_k.unwrap_or(0) as usize,
            top_p,
            min_p,
            typical_p,
            epsilon_cutoff,
            repetition_penalty: repetition_penalty as f32,
            frequency_penalty: frequency_penalty as f32,
            presence_penalty: presence_penalty as f32,
            history,
            history_prompt_len,
            penalty_last_n,
            logit_bias,
            min_keep: (min_keep_raw as usize).max(1),
            dynatemp_range: dynatemp_range as f32,
            dynatemp_exponent: dynatemp_exponent as f32,
            seed: self.seed.unwrap_or(seed),
            draw: self.draw.unwrap_or(0),
            // Never more than exist, nor than a trace can reasonably carry: nothing is
            // allocated by the number asked for.
            trace_top: (self.trace_top.unwrap_or(20) as usize)
                .min(vocab_size)
                .min(MAX_TRACE_TOP),
            min_new_tokens,
            eos_token_id,
            new_tokens,
            trace_ids,
        })
    }
}
