//! `Config::resolve`: every value checked against its range, defaults filled in, and every key an
//! engine lacks held at its off value — the one place a config becomes `Settings`.

use super::config::{Config, Settings, Strategy, MAX_EOS_IDS, MAX_TRACE_IDS};
use super::engine::Engine;
use super::error::StepError;
use super::limits::MAX_TRACE_TOP;
use super::ranges::{in_range, range};
use super::value::format_number;

fn too_many_trace_ids(len: usize) -> StepError {
    StepError::OutOfRange {
        field: "trace_ids".into(),
        allowed: format!("an array of at most {MAX_TRACE_IDS} token ids"),
        got: format!("{len} ids"),
    }
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

/// A float-valued key checked against its range under `engine`, in the words `ranges` gives it
/// (the same words as its type error).
fn check_key(field: &str, engine: Engine, value: f64) -> Result<(), StepError> {
    let ok = in_range(field, engine, value);
    check(field, value, ok, range(field, engine).unwrap_or("a number"))
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
        check_key("temperature", engine, temperature)?;
        let top_p = self.top_p.unwrap_or(1.0);
        check_key("top_p", engine, top_p)?;
        let min_p = self.min_p.unwrap_or(0.0);
        check_key("min_p", engine, min_p)?;
        let typical_p = self.typical_p.unwrap_or(1.0);
        check_key("typical_p", engine, typical_p)?;
        let epsilon_cutoff = self.epsilon_cutoff.unwrap_or(0.0);
        check_key("epsilon_cutoff", engine, epsilon_cutoff)?;
        let eta_cutoff = self.eta_cutoff.unwrap_or(0.0);
        check_key("eta_cutoff", engine, eta_cutoff)?;
        let repetition_penalty = self.repetition_penalty.unwrap_or(1.0);
        check_key("repetition_penalty", engine, repetition_penalty)?;
        let frequency_penalty = self.frequency_penalty.unwrap_or(0.0);
        check_key("frequency_penalty", engine, frequency_penalty)?;
        let presence_penalty = self.presence_penalty.unwrap_or(0.0);
        check_key("presence_penalty", engine, presence_penalty)?;
        let dynatemp_range = self.dynatemp_range.unwrap_or(0.0);
        check_key("dynatemp_range", engine, dynatemp_range)?;
        let dynatemp_exponent = self.dynatemp_exponent.unwrap_or(1.0);
        check_key("dynatemp_exponent", engine, dynatemp_exponent)?;

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
        // it says how many of history's ids are the prompt: without a history, "must be in [0, 0]
        // (the history's length)" named a length the caller never gave
        if self.history.is_none() && history_prompt_len > 0 {
            return Err(StepError::OutOfRange {
                field: "history_prompt_len".into(),
                allowed: "0 without a history (it says how many of history's ids are the prompt: pass the token ids so far, [] for none yet)".into(),
                got: history_prompt_len.to_string(),
            });
        }
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
                got: match self.eos_token_id {
                    Some(_) => "an empty array".into(),
                    None => "none".into(),
                },
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
            check_key(&format!("logit_bias[\"{id}\"]"), engine, bias)?;
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
                off("eta_cutoff", eta_cutoff == 0.0, "0")?;
            }
            Engine::Vllm => {
                off("typical_p", typical_p == 1.0, "1")?;
                off("epsilon_cutoff", epsilon_cutoff == 0.0, "0")?;
                off("eta_cutoff", eta_cutoff == 0.0, "0")?;
                off("penalty_last_n", penalty_last_n == -1, "-1")?;
                off("min_keep", min_keep_raw <= 1, "0 or 1")?;
                off("dynatemp_range", dynatemp_range == 0.0, "0")?;
            }
        }
        if engine != Engine::LlamaCpp {
            off("dynatemp_exponent", dynatemp_exponent == 1.0, "1")?;
        }
        // a penalty acts on the tokens in `history`: set without one, it silently did nothing
        if self.history.is_none() {
            for (field, value, off) in [
                ("repetition_penalty", repetition_penalty, 1.0),
                ("frequency_penalty", frequency_penalty, 0.0),
                ("presence_penalty", presence_penalty, 0.0),
            ] {
                check(field, value, value == off, &format!("{off} (off) without a history (it penalises the tokens in history: pass the token ids so far, [] for none yet)"))?;
            }
            // it counts the new tokens in `history`: without one it held the end back forever
            check("min_new_tokens", min_new_tokens as f64, min_new_tokens == 0, "0 (off) without a history (it counts the new tokens in history: pass the token ids so far and history_prompt_len, [] for none yet)")?;
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
            temperature_given: match engine {
                _ if greedy => 0.0,
                Engine::Vllm => temperature.max(0.01),
                _ => temperature,
            },
            top_k: self.top_k.unwrap_or(0) as usize,
            top_p,
            min_p,
            typical_p,
            epsilon_cutoff,
            eta_cutoff,
            repetition_penalty: repetition_penalty as f32,
            repetition_penalty_given: repetition_penalty,
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
