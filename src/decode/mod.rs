//! The decoding core: logits in, one chosen token and a trace of every stage out.
//!
//! Pure: no wasm, DOM, model or clock. The one exception is `step` without a `seed`, which takes a
//! fresh seed from the operating system (or `crypto.getRandomValues` in a browser) and reports it.
//!
//! Pipeline (the order depends on the engine, see [`Engine::order`]):
//! validate logits → resolve config → logit_bias → penalties → [temperature, top-k, top-p, min-p,
//! typical, epsilon, eta in the engine's order] (pipeline.rs) → final weights (final_pass.rs) → the
//! inverse-CDF draw with u by selection (draw.rs) → listing (listing.rs) → trace (trace/build.rs).

mod candidates;
mod config;
mod crossing;
mod draw;
mod engine;
mod error;
mod final_pass;
mod head;
pub mod limits;
mod listing;
mod many;
mod parse;
mod pipeline;
mod ranges;
mod ranking;
mod removal;
mod resolve;
mod rest;
pub mod rng;
mod select;
mod softmax;
mod stages;
mod suggest;
mod trace;
mod value;

pub use config::{Config, Strategy, KEYS};
pub use engine::Engine;
pub use error::StepError;
pub use many::{draws_arg, Counts, MAX_DRAWS};
pub use rest::Rest;
pub use softmax::{checked_log_sum_exp, log_sum_exp};
pub use trace::{Candidate, Columns, StageKind, StageTrace, Trace};
pub use trace::{REMOVED_BY_LOGITS, REMOVED_BY_NONE};
pub use value::Value;

use candidates::Work;
use config::Settings;
use draw::Drawn;
use pipeline::Raw;

/// One decoding step with a fresh [`Decoder`]. For loops, keep a `Decoder` to reuse its buffers.
///
/// # Errors
/// Any [`StepError`]: bad logits (empty, NaN, +inf, all −inf) or a config value out of range; the
/// message names the field and the allowed range.
///
/// # Example
/// ```
/// use nexttoken::decode::{step, Config};
/// // The chapter's table: 超集 / 一个 / 类型 with logits 2.0 / 1.0 / 0.5.
/// let config = Config { temperature: Some(0.0), ..Config::default() };
/// let trace = step(&[2.0, 1.0, 0.5], &config).unwrap();
/// assert_eq!(trace.token, 0); // greedy takes the largest logit
/// assert_eq!(trace.u, None);  // and draws no random number
/// ```
pub fn step(logits: &[f32], config: &Config) -> Result<Trace, StepError> {
    Decoder::default().step(logits, config)
}

/// Reusable scratch for many steps: nothing grows per call once it has seen the vocabulary size.
#[derive(Debug, Default)]
pub struct Decoder {
    work: Work,
    /// The listed candidates of the last step, as columns (reused between calls).
    columns: Columns,
    /// The keys the draw's tally reads (final_pass.rs, draw.rs `gate`), reused between calls.
    gated: Vec<u64>,
}

impl Decoder {
    /// Runs one step. Same logits and config (including `seed` and `draw`) give the same trace.
    ///
    /// # Errors
    /// See [`step`].
    pub fn step(&mut self, logits: &[f32], config: &Config) -> Result<Trace, StepError> {
        let mut trace = self.step_columns(logits, config)?;
        trace::attach(&mut trace, &self.columns);
        Ok(trace)
    }

    /// [`Decoder::step`] with the listed candidates left as columns: the returned trace's
    /// `candidates` and every stage's `p_in` / `cum_in` are empty, and [`Decoder::columns`] holds
    /// them (one array per field, in the same order). What a caller that reads columns uses, so a
    /// long trace never becomes one object per candidate.
    ///
    /// # Errors
    /// See [`step`].
    pub fn step_columns(&mut self, logits: &[f32], config: &Config) -> Result<Trace, StepError> {
        let seed = match config.seed {
            Some(seed) => seed,
            None => fresh_seed()?,
        };
        self.run(logits, config, seed)
    }

    /// The last step's listed candidates (see [`Decoder::step_columns`]).
    pub fn columns(&self) -> &Columns {
        &self.columns
    }

    /// Takes the column buffers out (to hand them on without a borrow of the Decoder); give them
    /// back with [`Decoder::restore_columns`] so the next step reuses their memory.
    pub fn take_columns(&mut self) -> Columns {
        std::mem::take(&mut self.columns)
    }

    /// Returns buffers taken by [`Decoder::take_columns`].
    pub fn restore_columns(&mut self, columns: Columns) {
        self.columns = columns;
    }

    /// The pipeline: validate → stages in the engine's order → final distribution → draw →
    /// listing → trace (candidates into `self.columns`).
    fn run(&mut self, logits: &[f32], config: &Config, seed: u32) -> Result<Trace, StepError> {
        let Staged {
            settings,
            rest_mass,
            order,
            raw,
            ran,
            ready,
            z,
            max,
        } = self.stages(logits, config, seed)?;
        let s = &settings;
        let w = &mut self.work;
        let head_len = s.trace_top.min(w.kept.len());
        let u = (!s.greedy).then(|| rng::uniform(s.seed, s.draw));
        let draws = u.map(|u| final_pass::Gate {
            gate: draw::gate(u, z, w.kept.len()),
            gated: &mut self.gated,
        });
        let fin = final_pass::final_pass(w, max, w.inv_t, head_len, ready, draws);
        let gated = &self.gated;
        let entropy_bits = ((z.ln() - fin.weighted / z) / std::f64::consts::LN_2).max(0.0);
        if u.is_some() && !fin.counted {
            // A short list is selected over in place (the listing then reads the keys in that
            // order): the weights go to `scratch` first if the keys held them.
            w.weights_out_of_keys();
        }
        let drawn = match u {
            // Greedy kept exactly one token.
            None => Drawn {
                id: w.kept.first().copied().unwrap_or_default(),
                rank: 0,
                cum: 1.0,
            },
            Some(u) => {
                let tallied = match (fin.counted, fin.gated) {
                    (false, _) => draw::Tallied::No,
                    (true, None) => draw::Tallied::All,
                    (true, Some(len)) => draw::Tallied::Gated(gated.get(..len).unwrap_or_default()),
                };
                draw::inverse_cdf(&mut w.keys, &mut w.draw_tables, tallied, u, z)
            }
        };
        let listing = listing::list(
            &listing::Final {
                head: &fin.head,
                keys: &w.keys,
                weight: w.final_weights(),
                z,
            },
            logits,
            &w.removed_by,
            &listing::Wanted {
                trace_top: s.trace_top,
                trace_ids: &s.trace_ids,
                chosen: (drawn.id, drawn.rank, drawn.cum),
            },
        );
        Ok(trace::build(
            trace::Parts {
                logits,
                s,
                order,
                work: w,
                ran: &ran,
                raw,
                z,
                entropy_bits,
                u,
                drawn,
                listing,
                rest_mass,
            },
            &mut self.columns,
        ))
    }
}

/// What the stages leave for the final pass and the draw.
struct Staged {
    settings: Settings,
    rest_mass: Option<f64>,
    order: &'static [StageKind],
    raw: Raw,
    ran: pipeline::Outcome,
    /// Σ e·s of the final weights when a pass already wrote them (final_pass.rs `ready`).
    ready: Option<f64>,
    /// The final distribution's normaliser and the max it is taken at.
    z: f64,
    max: f32,
}

impl Decoder {
    /// Validate → resolve the config → stages in the engine's order → the final normaliser:
    /// everything before the final pass, which does not depend on the draw.
    fn stages(&mut self, logits: &[f32], config: &Config, seed: u32) -> Result<Staged, StepError> {
        if logits.is_empty() {
            return Err(StepError::EmptyLogits);
        }
        let settings = config.resolve(logits.len(), seed)?;
        let rest_mass = rest::check(config.rest_mass)?;
        let s = &settings;
        let (max, input_removed) = validate(logits)?;
        let w = &mut self.work;
        w.reset_counted(logits, max, input_removed);
        w.exps.wanted = exps_read_again(s);
        let order = s.engine.order_with(s.greedy, s.eta_cutoff > 0.0);
        let first = first_pass(logits, s, order, w, max);
        let raw = first.raw;
        w.seed_normaliser(raw.z, raw.max);

        let mut ran = pipeline::apply(w, s, order, &raw, first.tempered_z)?;

        let ready = first
            .final_weighted
            .or_else(|| final_pass::with_normaliser(w));
        let (z, max) = w.normaliser();
        if ran.tempered_is_final && ran.tempered_all.is_none() {
            ran.tempered_all = Some((z, max));
        }
        Ok(Staged {
            settings,
            rest_mass,
            order,
            raw,
            ran,
            ready,
            z,
            max,
        })
    }
}

/// What the first full read of the logits (after validation) measured.
struct FirstPass {
    raw: Raw,
    /// The normaliser at the configured temperature, when this pass computed it.
    tempered_z: Option<f64>,
    /// Σ e·s of the final weights, when this pass also wrote them (and their keys) because
    /// temperature is the only stage: the final pass then only picks the listed head.
    final_weighted: Option<f64>,
}

/// The raw softmax's sums, and whatever else the same read of the array can give: with
/// temperature the only stage (and no −inf logit), the final weights and keys themselves; with
/// temperature the first thing to touch the logits (HF, vLLM, no bias or penalties), its
/// normaliser.
fn first_pass(
    logits: &[f32],
    s: &Settings,
    order: &[StageKind],
    w: &mut Work,
    max: f32,
) -> FirstPass {
    let raw = |z: f64, weighted: f64| Raw {
        max,
        z,
        entropy_bits: ((z.ln() - weighted / z) / std::f64::consts::LN_2).max(0.0),
    };
    if w.input_removed == 0 && pipeline::only_temperature(s, order) {
        let inv_t = if s.temperature != 1.0 {
            1.0 / s.temperature
        } else {
            1.0
        };
        let f = softmax::raw_and_final(logits, max, inv_t, &mut w.keys);
        w.weights_in_keys = true;
        return FirstPass {
            raw: raw(f.z_raw, f.weighted_raw),
            tempered_z: (inv_t != 1.0).then_some(f.z),
            final_weighted: Some(f.weighted),
        };
    }
    if w.input_removed == 0 && few_changes_only(s, order) {
        let f = softmax::raw_keys_and_blocks(logits, max, &mut w.keys, w.raw_keys.blocks());
        w.raw_keys.on(max, logits.len());
        return FirstPass {
            raw: raw(f.z_raw, f.weighted_raw),
            tempered_z: None,
            final_weighted: None,
        };
    }
    let n = logits.len();
    if tempers_first(s) {
        let inv_t = 1.0 / s.temperature;
        let keep = w.exps.slots(n);
        let filled = keep.is_some();
        let (z, weighted, z_t) = softmax::raw_and_tempered_sums(logits, max, inv_t, keep);
        if filled {
            w.exps.filled(max, inv_t, true);
        }
        return FirstPass {
            raw: raw(z, weighted),
            tempered_z: Some(z_t),
            final_weighted: None,
        };
    }
    // Remembered at the raw max only if a later pass can run at it.
    let keep = if early_stages_move_max(s, logits, max) {
        None
    } else {
        w.exps.slots(n)
    };
    let filled = keep.is_some();
    let (z, weighted) = softmax::raw_sums(logits, max, keep);
    if filled {
        w.exps.filled(max, 1.0, true);
    }
    FirstPass {
        raw: raw(z, weighted),
        tempered_z: None,
        final_weighted: None,
    }
}

/// Whether the only stages change a few logits and remove nothing (a bias without bans, the
/// penalties, a min_new_tokens that holds nothing back) at T = 1: then the raw pass writes its
/// weights as the final keys and the final pass corrects only what changed (softmax/patched.rs).
fn few_changes_only(s: &Settings, order: &[StageKind]) -> bool {
    let mut any = false;
    let only = order.iter().all(|&kind| {
        let active = pipeline::stage_active(kind, s);
        any |= active;
        !active
            || match kind {
                StageKind::LogitBias => s.logit_bias.iter().all(|&(_, b)| b != f32::NEG_INFINITY),
                StageKind::Penalties => true,
                StageKind::MinNewTokens => s.new_tokens >= s.min_new_tokens,
                _ => false,
            }
    });
    any && only && !s.greedy && s.temperature == 1.0 && s.dynatemp_range == 0.0
}

/// When temperature is the first thing to touch the logits (HF, vLLM, no bias or penalties), its
/// normaliser comes from the same pass as the raw softmax's: one read of the array.
fn tempers_first(s: &Settings) -> bool {
    !s.greedy
        && s.engine != Engine::LlamaCpp
        && s.dynatemp_range == 0.0
        && s.logit_bias.is_empty()
        && !stages::penalties::active(s)
        && s.temperature != 1.0
}

/// Whether a later pass over the vocabulary can read the exps a pass remembers (softmax/
/// cached.rs): the early stages change a few logits or remove a few tokens and keep the rest's
/// exps; typical-p, eta's entropy and the dynamic temperature read the exps of their input
/// again. Elsewhere remembering would cost a store per token for nothing.
fn exps_read_again(s: &Settings) -> bool {
    !s.greedy
        && (!s.logit_bias.is_empty()
            || s.min_new_tokens > 0
            || stages::penalties::active(s)
            || s.typical_p < 1.0
            || s.eta_cutoff > 0.0
            || s.dynatemp_range > 0.0)
}

/// Whether min_new_tokens or logit_bias may change the largest logit of what they leave (an end
/// id held back or a biased id holds it, or a bias lifts a token past it): then later passes run
/// at another max and remembering the raw pass's exps would most likely be wasted (only speed
/// depends on this).
fn early_stages_move_max(s: &Settings, logits: &[f32], max: f32) -> bool {
    let at = |id: u32| softmax::logit_of(logits, id);
    let held_back = s.min_new_tokens > 0 && s.new_tokens < s.min_new_tokens;
    (held_back && s.eos_token_id.iter().any(|&id| at(id) == max))
        || s.logit_bias
            .iter()
            .any(|&(id, b)| at(id) == max || at(id) + b > max)
}

/// Checks the logits; returns the max finite logit and how many are −inf (one vectorised pass).
fn validate(logits: &[f32]) -> Result<(f32, usize), StepError> {
    if logits.is_empty() {
        return Err(StepError::EmptyLogits);
    }
    if logits.len() > limits::MAX_LOGITS {
        return Err(StepError::TooManyLogits { len: logits.len() });
    }
    // One vectorised pass for the max and for NaN/+inf; find the culprit only if there is one.
    let (max, bad, input_removed) = softmax::scan_input(logits);
    if bad {
        let index = logits
            .iter()
            .position(|l| l.is_nan() || *l == f32::INFINITY)
            .unwrap_or(0);
        return Err(StepError::BadLogit {
            index,
            value: logits.get(index).copied().unwrap_or(f32::NAN),
        });
    }
    if max == f32::NEG_INFINITY {
        return Err(StepError::AllNegativeInfinity);
    }
    Ok((max, input_removed))
}

/// A fresh seed from the platform's entropy source.
fn fresh_seed() -> Result<u32, StepError> {
    getrandom::u32().map_err(|e| StepError::NoEntropy {
        reason: e.to_string(),
    })
}

#[cfg(test)]
mod tests;
