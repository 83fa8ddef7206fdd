//! The decoding core: logits in, one chosen token and a trace of every stage out.
//!
//! Pure: no wasm, DOM, model or clock. The one exception is `step` without a `seed`, which takes a
//! fresh seed from the operating system (or `crypto.getRandomValues` in a browser) and reports it.
//!
//! Pipeline (the order depends on the engine, see [`Engine::order`]):
//! validate logits → resolve config → logit_bias → penalties → [temperature, top-k, top-p, min-p,
//! typical, epsilon in the engine's order] → final softmax → inverse-CDF draw with u → trace.

mod candidates;
mod config;
mod engine;
mod error;
pub mod limits;
mod listing;
mod parse;
mod rest;
pub mod rng;
mod softmax;
mod stages;
mod trace;
mod value;

pub use config::{Config, Strategy, KEYS};
pub use engine::Engine;
pub use error::StepError;
pub use rest::Rest;
pub use softmax::{checked_log_sum_exp, log_sum_exp};
pub use trace::{Candidate, StageKind, StageTrace, Trace};
pub use value::Value;

use candidates::{by_key_desc, extend_sorted, Work, KEPT, REMOVED_BY_INPUT};
use config::Settings;
use stages::Applied;

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
}

/// A stage's input distribution, remembered so the trace can show each candidate's probability
/// as that stage saw it.
#[derive(Debug, Clone, Copy)]
struct StageInput {
    code: u8,
    z: f64,
    max: f32,
    inv_t: f32,
}

impl Decoder {
    /// Runs one step. Same logits and config (including `seed` and `draw`) give the same trace.
    ///
    /// # Errors
    /// See [`step`].
    pub fn step(&mut self, logits: &[f32], config: &Config) -> Result<Trace, StepError> {
        let seed = match config.seed {
            Some(seed) => seed,
            None => fresh_seed()?,
        };
        self.run(logits, config, seed)
    }

    fn run(&mut self, logits: &[f32], config: &Config, seed: u32) -> Result<Trace, StepError> {
        if logits.is_empty() {
            return Err(StepError::EmptyLogits);
        }
        let settings = config.resolve(logits.len(), seed)?;
        let rest_mass = rest::check(config.rest_mass)?;
        let s = &settings;
        // When temperature is the first thing to touch the logits (HF, vLLM, no bias or penalties),
        // its normaliser comes from the same pass as the raw softmax's: one read of the array.
        let temper_first = !s.greedy
            && s.engine != Engine::LlamaCpp
            && s.dynatemp_range == 0.0
            && s.logit_bias.is_empty()
            && !stages::penalties::active(s)
            && s.temperature != 1.0;
        let inv_t = 1.0 / s.temperature;
        let (raw_max, raw_z, raw_entropy_bits, tempered_z) =
            validate(logits, temper_first.then_some(inv_t))?;
        let w = &mut self.work;
        w.reset(logits, raw_max);

        let order = s.engine.order(s.greedy);
        let mut applied: Vec<(StageKind, bool, usize, Applied, Option<StageInput>)> =
            Vec::with_capacity(order.len());
        let mut greedy_done = false;
        // Σ exp over the survivors of bias and penalties at the applied temperature: the
        // "after temperature" chart's normaliser; filled in when some stage computed it anyway.
        let mut tempered_all: Option<(f64, f32)> = None;
        let mut untouched = true; // processed == raw logits and nothing removed yet
        for (index, &kind) in order.iter().enumerate() {
            let code = index as u8 + 1;
            let active = !greedy_done && stage_active(kind, s);
            if !active {
                applied.push((kind, false, 0, Applied::default(), None));
                continue;
            }
            let before = w.kept.len();
            let input = if untouched && w.inv_t == 1.0 {
                Some(StageInput {
                    code,
                    z: raw_z,
                    max: raw_max,
                    inv_t: 1.0,
                })
            } else {
                let (z, max) = w.normaliser();
                Some(StageInput {
                    code,
                    z,
                    max,
                    inv_t: w.inv_t,
                })
            };
            let result = match kind {
                StageKind::LogitBias => stages::logit_bias::apply(w, &s.logit_bias, code),
                StageKind::MinNewTokens => stages::min_new_tokens::apply(w, s, code),
                StageKind::Penalties => {
                    stages::penalties::apply(w, s, code).map_err(|id| StepError::Overflow {
                        index: id as usize,
                        stage: "penalties",
                    })?
                }
                StageKind::Greedy => {
                    greedy_done = s.engine.greedy_skips_rest();
                    stages::greedy::apply(w, code)
                }
                StageKind::Temperature => {
                    let applied = stages::temperature::apply(w, s);
                    if let Some(z) = tempered_z {
                        w.seed_normaliser(z, raw_max);
                    }
                    applied
                }
                StageKind::TopK => stages::top_k::apply(w, s, code),
                StageKind::TopP => stages::top_p::apply(w, s, code),
                StageKind::MinP => stages::min_p::apply(w, s, code),
                StageKind::TypicalP => stages::typical_p::apply(w, s, code),
                StageKind::EpsilonCutoff => stages::epsilon_cutoff::apply(w, s, code),
            };
            if EARLY.contains(&kind) || w.kept.len() != before {
                untouched = false;
            }
            if w.kept.is_empty() {
                return Err(StepError::NothingLeft { stage: kind.name() });
            }
            applied.push((kind, true, before - w.kept.len(), result, input));
            if tempered_all.is_none() && kind == StageKind::Temperature {
                // HF and vLLM temper before any truncation: the survivors are "all".
                let all = applied
                    .iter()
                    .all(|(k, on, removed, ..)| !on || *removed == 0 || EARLY.contains(k));
                if all {
                    tempered_all = Some(w.normaliser());
                }
            }
        }

        // Final distribution over the kept tokens, ordered by p (descending, ties by lower id).
        let (z, max) = w.normaliser();
        let inv_t = w.inv_t;
        let mut weighted_s = 0.0f64;
        for &id in &w.kept {
            let l = w
                .processed
                .get(id as usize)
                .copied()
                .unwrap_or(f32::NEG_INFINITY);
            let sc = (l - max) * inv_t;
            let e = f64::from(softmax::exp_f32(sc));
            if e > 0.0 {
                weighted_s += e * f64::from(sc); // 0 · −inf would be NaN
            }
            if let Some(slot) = w.scratch.get_mut(id as usize) {
                *slot = e;
            }
        }
        let entropy_bits = ((z.ln() - weighted_s / z) / std::f64::consts::LN_2).max(0.0);
        let mut final_order = std::mem::take(&mut w.aux);
        final_order.clear();
        final_order.extend_from_slice(&w.kept);
        let scratch = &w.scratch;
        let cmp = |a: &u32, b: &u32| by_key_desc(scratch, *a, *b);

        let u = if s.greedy {
            None
        } else {
            Some(rng::uniform(s.seed, s.draw))
        };
        let mut sorted = 0usize;
        let (chosen_rank, chosen, chosen_cum) = match u {
            None => {
                sorted = extend_sorted(&mut final_order, sorted, 1, cmp);
                (0, final_order.first().copied().unwrap_or_default(), 1.0)
            }
            Some(u) => {
                let mut cum = 0.0f64;
                let mut rank = 0usize;
                let mut block = 64usize;
                let mut found = None;
                // Pre-filter (the top-p bound again): tokens with p < (1 − u)/(n − 1) hold less than
                // 1 − u together, so the walk reaches u before any of them. Walk the others first;
                // they are all more likely, so the order (and a rank found later) stays exact.
                let n = final_order.len();
                let mut limit = n;
                if n > 1024 {
                    let cutoff = (1.0 - u) / (n - 1) as f64 * z;
                    let mut front = 0;
                    for read in 0..n {
                        let id = final_order[read];
                        if scratch.get(id as usize).is_some_and(|&e| e >= cutoff) {
                            final_order.swap(front, read);
                            front += 1;
                        }
                    }
                    limit = if front == 0 { n } else { front };
                }
                'walk: while sorted < n {
                    let head = final_order.get_mut(..limit).unwrap_or_default();
                    sorted = extend_sorted(head, sorted, sorted + block, cmp);
                    if sorted >= limit {
                        limit = n; // past the pre-filtered head (only after rounding): walk on
                    }
                    while rank < sorted {
                        let id = final_order.get(rank).copied().unwrap_or_default();
                        cum += scratch.get(id as usize).copied().unwrap_or(0.0) / z;
                        if cum > u {
                            found = Some((rank, id, cum.min(1.0)));
                            break 'walk;
                        }
                        rank += 1;
                    }
                    block *= 2;
                }
                // Rounding can leave the total a hair below u: fall back to the last kept token.
                found.unwrap_or_else(|| {
                    let last = final_order.len().saturating_sub(1);
                    (
                        last,
                        final_order.get(last).copied().unwrap_or_default(),
                        1.0,
                    )
                })
            }
        };

        // Listed candidates: the head of the final order, the best removed by raw logit, the chosen
        // token and `trace_ids`, each with its rank (see listing.rs).
        extend_sorted(&mut final_order, sorted, s.trace_top, cmp);
        let listing = listing::list(
            &listing::Final {
                order: &final_order,
                weight: scratch,
                z,
            },
            logits,
            &w.removed_by,
            &listing::Wanted {
                trace_top: s.trace_top,
                trace_ids: &s.trace_ids,
                chosen: (chosen, chosen_rank, chosen_cum),
            },
        );
        let listed: Vec<u32> = listing.entries.iter().map(|e| e.id).collect();
        w.aux = final_order;

        if tempered_all.is_none() && !listed.is_empty() {
            let survivors: Vec<u32> = (0..logits.len() as u32)
                .filter(|&id| {
                    let rb = w
                        .removed_by
                        .get(id as usize)
                        .copied()
                        .unwrap_or(REMOVED_BY_INPUT);
                    rb != REMOVED_BY_INPUT && !removed_by_kind(order, rb, EARLY)
                })
                .collect();
            let pmax = survivors
                .iter()
                .filter_map(|&id| w.processed.get(id as usize))
                .copied()
                .fold(f32::NEG_INFINITY, softmax::larger);
            let t_inv = if s.greedy { 1.0 } else { inv_t };
            tempered_all = Some((
                softmax::sum_weights(&w.processed, &survivors, pmax, t_inv),
                pmax,
            ));
        }
        let (tz, tmax) = tempered_all.unwrap_or((1.0, 0.0));
        let t_inv = if s.greedy { 1.0 } else { inv_t };

        // With `rest_mass`, the given tokens hold 1 − rest_mass of the whole vocabulary (rest.rs).
        let known_share = 1.0 - rest_mass.unwrap_or(0.0);
        let rest = rest_mass.map(|mass| {
            let lowest = logits
                .iter()
                .enumerate()
                .filter(|(_, l)| l.is_finite())
                .fold((usize::MAX, f32::INFINITY), |best, (i, &l)| {
                    if l < best.1 {
                        (i, l)
                    } else {
                        best
                    }
                });
            let removed = w.removed_by.get(lowest.0).copied().unwrap_or(KEPT);
            let by = match removed {
                KEPT | REMOVED_BY_INPUT => None,
                code => order.get(code as usize - 1).copied(),
            };
            let ran: Vec<rest::Ran> = applied
                .iter()
                .map(|(kind, active, _, result, _)| rest::Ran {
                    kind: *kind,
                    active: *active,
                    threshold: result.threshold,
                })
                .collect();
            rest::assess(mass, &ran, (lowest.1, by))
        });
        let describe = |id: u32, rank: usize, cum: f64| -> Candidate {
            let i = id as usize;
            let raw = logits.get(i).copied().unwrap_or(f32::NEG_INFINITY);
            let processed = w.processed.get(i).copied().unwrap_or(f32::NEG_INFINITY);
            let rb = w.removed_by.get(i).copied().unwrap_or(REMOVED_BY_INPUT);
            let kept = rb == KEPT;
            let removed_by = match rb {
                KEPT => None,
                REMOVED_BY_INPUT => Some("logits"),
                code => order.get(code as usize - 1).map(|k| k.name()),
            };
            let removed_early = removed_by_kind(order, rb, EARLY) || rb == REMOVED_BY_INPUT;
            Candidate {
                id,
                rank,
                logit: raw,
                logit_processed: processed,
                p_raw: softmax::weight(raw, raw_max, 1.0) / raw_z * known_share,
                p_tempered: if removed_early {
                    0.0
                } else {
                    softmax::weight(processed, tmax, t_inv) / tz
                },
                p: if kept {
                    w.scratch.get(i).copied().unwrap_or(0.0) / z
                } else {
                    0.0
                },
                cum,
                kept,
                removed_by,
            }
        };
        let candidates: Vec<Candidate> = listing
            .entries
            .iter()
            .map(|e| describe(e.id, e.rank, e.cum))
            .collect();
        // The same entry as in `candidates` (the listing always includes the chosen token).
        let chosen_entry = candidates
            .iter()
            .find(|c| c.id == chosen)
            .cloned()
            .unwrap_or_else(|| describe(chosen, chosen_rank, chosen_cum));

        let stages = applied
            .iter()
            .map(|(kind, active, removed, result, input)| {
                let p_in = match input {
                    Some(inp) if *active => listed
                        .iter()
                        .map(|&id| {
                            let rb = w
                                .removed_by
                                .get(id as usize)
                                .copied()
                                .unwrap_or(REMOVED_BY_INPUT);
                            let alive = rb == KEPT || (rb != REMOVED_BY_INPUT && rb >= inp.code);
                            let l = w
                                .processed
                                .get(id as usize)
                                .copied()
                                .unwrap_or(f32::NEG_INFINITY);
                            if alive {
                                softmax::weight(l, inp.max, inp.inv_t) / inp.z
                            } else {
                                0.0
                            }
                        })
                        .collect(),
                    _ => Vec::new(),
                };
                let threshold = match (kind, input) {
                    // min-p's cut as a probability of its own input distribution: min_p · p_max.
                    (StageKind::MinP, Some(inp)) => result.threshold.map(|ratio| ratio / inp.z),
                    _ => result.threshold,
                };
                let cum_in = p_in
                    .iter()
                    .scan(0.0f64, |total, p| {
                        *total += p;
                        Some(total.min(1.0))
                    })
                    .collect();
                StageTrace {
                    name: kind.name(),
                    active: *active,
                    kept_count: 0,
                    removed_count: *removed,
                    value: result.value,
                    threshold,
                    p_in,
                    cum_in,
                }
            })
            .collect::<Vec<_>>();
        let stages = with_kept_counts(stages, logits.len() - w.input_removed);

        Ok(Trace {
            token: chosen,
            u,
            seed: s.seed,
            draw: s.draw,
            engine: s.engine.name(),
            strategy: if s.greedy { "greedy" } else { "sample" },
            temperature: if s.greedy {
                0.0
            } else {
                1.0 / f64::from(inv_t)
            },
            vocab_size: logits.len(),
            kept_count: w.kept.len(),
            entropy_bits,
            raw_entropy_bits,
            stages,
            candidates,
            unlisted_kept_count: listing.unlisted_kept_count,
            unlisted_mass: listing.unlisted_mass,
            chosen_rank,
            chosen: chosen_entry,
            rest,
        })
    }
}

/// Stages that change logits or ban tokens before any distribution is taken: the "after
/// temperature" chart is over what they leave.
const EARLY: &[StageKind] = &[
    StageKind::LogitBias,
    StageKind::MinNewTokens,
    StageKind::Penalties,
];

/// Fills each stage's `kept_count` from the running total.
fn with_kept_counts(mut stages: Vec<StageTrace>, mut kept: usize) -> Vec<StageTrace> {
    for stage in &mut stages {
        kept -= stage.removed_count.min(kept);
        stage.kept_count = kept;
    }
    stages
}

fn removed_by_kind(order: &[StageKind], code: u8, kinds: &[StageKind]) -> bool {
    code != KEPT
        && code != REMOVED_BY_INPUT
        && order
            .get(code as usize - 1)
            .is_some_and(|k| kinds.contains(k))
}

/// Whether a stage is switched on by the settings (off values and greedy-only stages are skipped).
fn stage_active(kind: StageKind, s: &Settings) -> bool {
    match kind {
        StageKind::LogitBias => !s.logit_bias.is_empty(),
        StageKind::MinNewTokens => s.min_new_tokens > 0,
        StageKind::Penalties => stages::penalties::active(s),
        StageKind::Greedy => s.greedy,
        StageKind::Temperature => !s.greedy && (s.temperature != 1.0 || s.dynatemp_range > 0.0),
        StageKind::TopK => s.top_k > 0,
        StageKind::TopP => s.top_p < 1.0,
        StageKind::MinP => s.min_p > 0.0,
        StageKind::TypicalP => s.typical_p < 1.0,
        StageKind::EpsilonCutoff => s.epsilon_cutoff > 0.0,
    }
}

/// Checks the logits; returns the max finite logit, the raw softmax's normaliser Σ e^(l − max)
/// and its entropy in bits, all from two contiguous passes.
fn validate(
    logits: &[f32],
    tempered_inv_t: Option<f32>,
) -> Result<(f32, f64, f64, Option<f64>), StepError> {
    if logits.is_empty() {
        return Err(StepError::EmptyLogits);
    }
    if logits.len() > limits::MAX_LOGITS {
        return Err(StepError::TooManyLogits { len: logits.len() });
    }
    // One vectorised pass for the max and for NaN/+inf; find the culprit only if there is one.
    let (max, bad) = softmax::scan(logits);
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
    let (z, weighted, tempered) = match tempered_inv_t {
        Some(inv_t) => {
            let (z, weighted, z_t) = softmax::raw_and_tempered_sums(logits, max, inv_t);
            (z, weighted, Some(z_t))
        }
        None => {
            let (z, weighted) = softmax::raw_sums(logits, max);
            (z, weighted, None)
        }
    };
    let entropy_bits = ((z.ln() - weighted / z) / std::f64::consts::LN_2).max(0.0);
    Ok((max, z, entropy_bits, tempered))
}

/// A fresh seed from the platform's entropy source.
fn fresh_seed() -> Result<u32, StepError> {
    getrandom::u32().map_err(|e| StepError::NoEntropy {
        reason: e.to_string(),
    })
}

#[cfg(test)]
mod tests;
