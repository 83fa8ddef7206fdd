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
mod echo;
mod engine;
mod error;
mod exact_sum;
mod few_removed;
mod final_pass;
mod first_pass;
mod gathered;
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
pub use many::{draws_arg, draws_fit, Counts, MAX_DRAWS};
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
        } = self.stages(logits, config, seed, true)?;
        let s = &settings;
        let w = &mut self.work;
        let head_len = s.trace_top.min(w.kept.len());
        let u = (!s.greedy).then(|| rng::uniform(s.seed, s.draw));
        let draws = u.map(|u| final_pass::Gate {
            gate: draw::gate(u, z, w.kept.len()),
            gated: &mut self.gated,
            target: u * z,
            z,
        });
        let fin = final_pass::final_pass(w, max, w.inv_t, head_len, ready, draws);
        let gated = &self.gated;
        let entropy_bits = ((z.ln() - fin.weighted / z) / std::f64::consts::LN_2).max(0.0);
        if u.is_some() && !fin.counted {
            // A short list is selected over in place (the listing then reads the keys in that
            // order): the weights go to `scratch` first if the keys held them.
            w.weights_out_of_keys();
        }
        let drawn = match (u, fin.drawn) {
            // Greedy kept exactly one token.
            (None, _) => Drawn {
                id: w.kept.first().copied().unwrap_or_default(),
                rank: 0,
                cum: 1.0,
            },
            // Among the best keys the final pass read (no key tallied).
            (Some(_), Some(d)) => d,
            (Some(u), None) => {
                let gated = gated.get(..fin.gated.unwrap_or(0)).unwrap_or_default();
                // Keys never stored (`Work::weights_by_exp`): drawn from the gated ones alone
                // when the walk crosses there, as `inverse_cdf` would; else every key is written.
                let n = w.kept.len();
                let by_exp = w.weights_by_exp.is_some();
                match by_exp.then(|| draw::gated_inverse_cdf(n, gated, &w.draw_tables, u, z)) {
                    Some(Some(d)) => d,
                    Some(None) => {
                        w.materialise_keys();
                        draw::inverse_cdf(&mut w.keys, &mut w.draw_tables, draw::Tallied::No, u, z)
                    }
                    None => {
                        let tallied = match (fin.counted, fin.gated) {
                            (false, _) => draw::Tallied::No,
                            (true, None) => draw::Tallied::All,
                            (true, Some(_)) => draw::Tallied::Gated(gated),
                        };
                        draw::inverse_cdf(&mut w.keys, &mut w.draw_tables, tallied, u, z)
                    }
                }
            }
        };
        if !s.trace_ids.is_empty() {
            // Ranking the asked-for ids reads every kept key.
            w.materialise_keys();
        }
        let listing = listing::list(
            &listing::Final {
                head: &fin.head,
                kept: w.kept.len(),
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
    /// everything before the final pass, which does not depend on the draw. `one_draw`: one
    /// draw (or greedy's choice) and the listing follow, not many draws (only speed depends on
    /// it: which weights a pass stores, first_pass.rs).
    fn stages(
        &mut self,
        logits: &[f32],
        config: &Config,
        seed: u32,
        one_draw: bool,
    ) -> Result<Staged, StepError> {
        if logits.is_empty() {
            return Err(StepError::EmptyLogits);
        }
        let settings = config.resolve(logits.len(), seed)?;
        let rest_mass = rest::check(config.rest_mass)?;
        let s = &settings;
        let order = s.engine.order_with(s.greedy, s.eta_cutoff > 0.0);
        // Blocks' maxima only where they are read; never a previous step's.
        let blocks = first_pass::reads_block_max(s, order);
        self.work.block_max.clear();
        let w = &mut self.work;
        let block_max = blocks.then_some(&mut w.block_max);
        let (max, input_removed) = validate(logits, block_max, &mut w.processed)?;
        w.reset_scanned(logits, max, input_removed);
        let lists_most = first_pass::lists_most(s, logits.len());
        w.exps.wanted = first_pass::exps_read_again(s) || lists_most;
        w.raw_exps.wanted = lists_most;
        let first = first_pass::first_pass(logits, s, order, w, max, one_draw);
        let raw = first.raw;
        w.seed_normaliser(raw.z, raw.max);

        let mut ran = pipeline::apply(w, s, order, &raw, first.tempered_z)?;

        // u, when a single draw follows that may read few weights (first_pass.rs asks the same).
        let u = (one_draw && !s.greedy).then(|| rng::uniform(s.seed, s.draw));
        let gated = final_pass::gated_draw(u, s, w.kept.len());
        let ready = first
            .final_weighted
            .or_else(|| final_pass::with_normaliser(w, gated));
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

/// Checks the logits; returns the max finite logit and how many are −inf (one vectorised pass),
/// and, when asked, writes each block's max into `block_max` (`Work::block_max`); `copy` is left
/// holding the logits (`Work::processed`; anything after an error).
fn validate(
    logits: &[f32],
    block_max: Option<&mut Vec<f32>>,
    copy: &mut Vec<f32>,
) -> Result<(f32, usize), StepError> {
    if logits.is_empty() {
        return Err(StepError::EmptyLogits);
    }
    if logits.len() > limits::MAX_LOGITS {
        return Err(StepError::TooManyLogits { len: logits.len() });
    }
    // One vectorised pass for the max and for NaN/+inf; find the culprit only if there is one.
    let (max, bad, input_removed) = softmax::scan_input(logits, block_max, copy);
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
