//! `Config::from_value`: a JSON-like [`Value`] (a JS object, a JSON document, a link's fields) read
//! into a [`Config`], key by key. Types and integer-ness are checked here, with the key in every
//! message; ranges that depend on the engine or the vocabulary are checked by `Config::resolve`.

use super::config::{Config, Strategy, KEYS, MAX_EOS_IDS, MAX_TRACE_IDS};
use super::engine::Engine;
use super::error::StepError;
use super::limits::{as_given, short, MAX_HISTORY, MAX_LOGIT_BIAS};
use super::ranges::{
    eos_rule, id_list_rule, integer_bounds, integer_rule, logit_bias_rule, number_rule,
    top_k_bounds, top_k_rule, ENGINE_RULE, STRATEGY_RULE,
};
use super::value::{format_number, Value};

/// A float-valued key: a value of another type (the string "0.7" too: never coerced) is refused
/// with the key's range under `engine`, as an out-of-range number would be.
fn float_value(field: &str, v: &Value, engine: Engine) -> Result<f64, StepError> {
    match v {
        Value::Number(n) => Ok(*n),
        other => Err(StepError::OutOfRange {
            field: field.into(),
            allowed: number_rule(field, engine),
            got: other.describe(),
        }),
    }
}

/// An integer-valued key in [min, max]: a fraction, a value outside it or of another type gets the
/// same message naming the range.
fn integer(field: &str, v: &Value, min: f64, max: f64) -> Result<f64, StepError> {
    let allowed = || integer_rule(min, max);
    let Value::Number(n) = *v else {
        return Err(StepError::OutOfRange {
            field: field.into(),
            allowed: allowed(),
            got: v.describe(),
        });
    };
    if n.fract() != 0.0 || !(min..=max).contains(&n) {
        return Err(StepError::OutOfRange {
            field: field.into(),
            allowed: allowed(),
            got: format_number(n),
        });
    }
    Ok(n)
}

/// top_k under `engine`: an engine's negative "off" (vLLM's -1, llama.cpp's k ≤ 0) becomes 0, the
/// off value every stage reads, so the trace shows the stage off whichever way it was written.
fn top_k(v: &Value, engine: Engine) -> Result<u32, StepError> {
    let (min, max) = top_k_bounds(engine);
    let got = match *v {
        Value::Number(n) if n.fract() == 0.0 && (min..=max).contains(&n) => {
            return Ok(n.max(0.0) as u32)
        }
        Value::Number(n) => format_number(n),
        _ => v.describe(),
    };
    Err(StepError::OutOfRange {
        field: "top_k".into(),
        allowed: top_k_rule(engine),
        got,
    })
}

/// An integer-valued key, in its bounds (`ranges::integer_bounds`).
fn integer_key(key: &str, v: &Value) -> Result<f64, StepError> {
    let (min, max) = integer_bounds(key).unwrap_or((0.0, u32::MAX as f64));
    integer(key, v, min, max)
}

/// A list of token ids: each element an integer id, named `field[i]` in errors, at most `max`.
fn id_list(field: &str, items: &[Value], max: usize) -> Result<Vec<u32>, StepError> {
    if items.len() > max {
        return Err(StepError::OutOfRange {
            field: field.into(),
            allowed: id_list_rule(max),
            got: format!("{} ids", items.len()),
        });
    }
    items
        .iter()
        .enumerate()
        .map(|(i, item)| match *item {
            // The common case without naming the element: a format per id was most of the cost
            // of reading a long history in wasm.
            Value::Number(n) if n.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&n) => {
                Ok(n as u32)
            }
            _ => Ok(integer(&format!("{field}[{i}]"), item, 0.0, u32::MAX as f64)? as u32),
        })
        .collect()
}

/// A token id written as JavaScript writes a u32 (`"5"`, not `"05"`, `"+5"` or `"5.0"`): what
/// `id.parse::<u32>()` accepts and `to_string` gives back unchanged, without the allocation.
fn canonical_id(id: &str) -> Option<u32> {
    let digits = id.bytes().all(|b| b.is_ascii_digit());
    let leading_zero = id.len() > 1 && id.starts_with('0');
    if !digits || leading_zero {
        return None;
    }
    id.parse::<u32>().ok()
}

/// The array a list-valued key must hold.
fn array<'a>(field: &str, v: &'a Value, max: usize) -> Result<&'a [Value], StepError> {
    match v {
        Value::Array(items) => Ok(items),
        other => Err(StepError::OutOfRange {
            field: field.into(),
            allowed: id_list_rule(max),
            got: other.describe_for_list(),
        }),
    }
}

impl Config {
    /// Reads a config from a plain object. Unknown keys and wrong types are errors naming the key;
    /// `null`/`undefined` values mean "default". Ranges are checked later, by [`Config::resolve`].
    ///
    /// # Errors
    /// `NotAnObject`, `UnknownKey`, or `OutOfRange` (naming the range) for a value of another type
    /// or a non-integer where an integer
    /// is required.
    pub fn from_value(value: &Value) -> Result<Config, StepError> {
        let entries = match value {
            Value::Object(entries) => entries,
            Value::Null => return Ok(Config::default()),
            other => {
                return Err(StepError::NotAnObject {
                    got: other.describe(),
                })
            }
        };
        let mut c = Config::default();
        // The engine first, wherever it is written: some ranges are the engine's (vLLM's top_p).
        if let Some((k, v)) = entries
            .iter()
            .find(|(k, v)| k == "engine" && *v != Value::Null)
        {
            let name = match v {
                Value::String(s) => Engine::from_name(s),
                _ => None,
            };
            c.engine = Some(name.ok_or_else(|| StepError::OutOfRange {
                field: k.clone(),
                allowed: ENGINE_RULE.into(),
                got: v.describe(),
            })?);
        }
        let engine = c.engine.unwrap_or_default();
        let number = |field: &str, v: &Value| float_value(field, v, engine);
        for (key, v) in entries {
            let k = key.as_str();
            // Refused even when null or undefined: `{ temprature: undefined }` is a misspelling
            // whatever it holds, and the typed config says an unknown key throws.
            if !KEYS.contains(&k) {
                return Err(StepError::UnknownKey { key: as_given(key) });
            }
            if *v == Value::Null {
                continue;
            }
            match k {
                "strategy" => {
                    c.strategy = Some(match v {
                        Value::String(s) if s == "sample" => Strategy::Sample,
                        Value::String(s) if s == "greedy" => Strategy::Greedy,
                        other => {
                            return Err(StepError::OutOfRange {
                                field: k.into(),
                                allowed: STRATEGY_RULE.into(),
                                got: other.describe(),
                            })
                        }
                    })
                }
                "engine" => {} // read first, above
                "temperature" => c.temperature = Some(number(k, v)?),
                "top_p" => c.top_p = Some(number(k, v)?),
                "min_p" => c.min_p = Some(number(k, v)?),
                "typical_p" => c.typical_p = Some(number(k, v)?),
                "epsilon_cutoff" => c.epsilon_cutoff = Some(number(k, v)?),
                "eta_cutoff" => c.eta_cutoff = Some(number(k, v)?),
                "rest_mass" => c.rest_mass = Some(number(k, v)?),
                "repetition_penalty" => c.repetition_penalty = Some(number(k, v)?),
                "frequency_penalty" => c.frequency_penalty = Some(number(k, v)?),
                "presence_penalty" => c.presence_penalty = Some(number(k, v)?),
                "dynatemp_range" => c.dynatemp_range = Some(number(k, v)?),
                "dynatemp_exponent" => c.dynatemp_exponent = Some(number(k, v)?),
                "top_k" => c.top_k = Some(top_k(v, engine)?),
                "min_keep" => c.min_keep = Some(integer_key(k, v)? as u32),
                "trace_top" => c.trace_top = Some(integer_key(k, v)? as u32),
                "seed" => c.seed = Some(integer_key(k, v)? as u32),
                "draw" => c.draw = Some(integer_key(k, v)? as u64),
                "history_prompt_len" => c.history_prompt_len = Some(integer_key(k, v)? as usize),
                "penalty_last_n" => c.penalty_last_n = Some(integer_key(k, v)? as i64),
                "min_new_tokens" => c.min_new_tokens = Some(integer_key(k, v)? as u32),
                "eos_token_id" => {
                    // HF accepts one id or a list of them.
                    c.eos_token_id = Some(match v {
                        Value::Number(_) => vec![integer(k, v, 0.0, u32::MAX as f64)? as u32],
                        Value::Array(items) => id_list(k, items, MAX_EOS_IDS)?,
                        other => {
                            return Err(StepError::OutOfRange {
                                field: k.into(),
                                allowed: eos_rule(),
                                got: other.describe(),
                            })
                        }
                    });
                }
                "trace_ids" => {
                    c.trace_ids = Some(id_list(k, array(k, v, MAX_TRACE_IDS)?, MAX_TRACE_IDS)?)
                }
                "history" => c.history = Some(id_list(k, array(k, v, MAX_HISTORY)?, MAX_HISTORY)?),
                "logit_bias" => {
                    let Value::Object(items) = v else {
                        return Err(StepError::OutOfRange {
                            field: k.into(),
                            allowed: logit_bias_rule(engine),
                            got: v.describe(),
                        });
                    };
                    if items.len() > MAX_LOGIT_BIAS {
                        return Err(StepError::OutOfRange {
                            field: k.into(),
                            allowed: format!("an object of at most {MAX_LOGIT_BIAS} entries"),
                            got: format!("{} entries", items.len()),
                        });
                    }
                    let mut biases = Vec::with_capacity(items.len());
                    for (id, bias) in items {
                        // Named only when refused (a format per entry is a wasm call's cost).
                        let field = || format!("logit_bias[\"{}\"]", short(id));
                        let Some(token) = canonical_id(id) else {
                            return Err(StepError::OutOfRange {
                                field: field(),
                                allowed: "keyed by a token id (an integer ≥ 0)".into(),
                                got: format!("key \"{}\"", short(id)),
                            });
                        };
                        // −inf cannot travel through JSON; accept the string "-inf" as a ban too.
                        let b = match bias {
                            Value::String(s) if s == "-inf" || s == "-Infinity" => {
                                f64::NEG_INFINITY
                            }
                            Value::Number(n) => *n,
                            other => number(&field(), other)?,
                        };
                        biases.push((token, b));
                    }
                    c.logit_bias = Some(biases);
                }
                _ => return Err(StepError::UnknownKey { key: as_given(key) }),
            }
        }
        Ok(c)
    }
}
