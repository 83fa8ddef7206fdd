//! The stages in the engine's order over the working set: which run, what each saw (its input
//! distribution, for the trace) and what it removed. The order itself lives in engine.rs.

use super::candidates::Work;
use super::config::Settings;
use super::error::StepError;
use super::stages::{self, Applied};
use super::trace::StageKind;
use super::value::format_number;

/// A stage's input distribution, remembered so the trace can show each candidate's probability
/// as that stage saw it: p = e^((l − max)·inv_t) / z over the tokens alive at `code`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct StageInput {
    pub code: u8,
    pub z: f64,
    pub max: f32,
    pub inv_t: f32,
}

/// One stage of the engine's order, as it ran (or did not).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ran {
    pub kind: StageKind,
    pub active: bool,
    pub removed: usize,
    pub result: Applied,
    pub input: Option<StageInput>,
}

/// What the stages leave besides the working set.
#[derive(Debug)]
pub(crate) struct Outcome {
    pub stages: Vec<Ran>,
    /// Σ exp over the survivors of the early stages at the applied temperature (the "after
    /// temperature" chart's normaliser) and its max, when a stage computed it anyway.
    pub tempered_all: Option<(f64, f32)>,
    /// The "after temperature" normaliser is the final one: temperature is the last stage, early
    /// stages changed logits but nothing was removed, or only they removed any (see
    /// `only_early_removed`). `Decoder::run` fills `tempered_all` from the final normaliser, so
    /// the trace does not sum the vocabulary again.
    pub tempered_is_final: bool,
}

/// Stages that change logits or ban tokens before any distribution is taken: the "after
/// temperature" chart is over what they leave.
pub(crate) const EARLY: &[StageKind] = &[
    StageKind::LogitBias,
    StageKind::MinNewTokens,
    StageKind::Penalties,
];

/// The raw softmax (T = 1, nothing removed) that `validate` measured.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Raw {
    pub max: f32,
    pub z: f64,
    pub entropy_bits: f64,
}

/// Runs `order` over `w`. `tempered_z`: the normaliser at the configured temperature, when the
/// validation pass computed it (temperature first, nothing before it).
pub(crate) fn apply(
    w: &mut Work,
    s: &Settings,
    order: &[StageKind],
    raw: &Raw,
    tempered_z: Option<f64>,
) -> Result<Outcome, StepError> {
    let mut ran: Vec<Ran> = Vec::with_capacity(order.len());
    let mut greedy_done = false;
    let mut tempered_all: Option<(f64, f32)> = None;
    let mut untouched = true; // processed == raw logits and nothing removed yet
    let mut tempered_last = false;
    for (index, &kind) in order.iter().enumerate() {
        let code = index as u8 + 1;
        let active = !greedy_done && stage_active(kind, s);
        if !active {
            ran.push(Ran {
                kind,
                active: false,
                removed: 0,
                result: Applied::default(),
                input: None,
            });
            continue;
        }
        let before = w.kept.len();
        let (z, max, inv_t) = if untouched && w.inv_t == 1.0 {
            (raw.z, raw.max, 1.0)
        } else {
            let (z, max) = w.normaliser();
            (z, max, w.inv_t)
        };
        let input = Some(StageInput {
            code,
            z,
            max,
            inv_t,
        });
        let result = match kind {
            StageKind::LogitBias => stages::logit_bias::apply(w, &s.logit_bias, code),
            StageKind::MinNewTokens => stages::min_new_tokens::apply(w, s, code),
            StageKind::Penalties => {
                stages::penalties::apply(w, s, code).map_err(|id| StepError::Overflow {
                    index: id as usize,
                    penalties: penalties_set(s),
                })?
            }
            StageKind::Greedy => {
                greedy_done = s.engine.greedy_skips_rest();
                stages::greedy::apply(w, code)
            }
            StageKind::Temperature => {
                let applied = stages::temperature::apply(w, s);
                if let Some(z) = tempered_z {
                    w.seed_normaliser(z, raw.max);
                }
                applied
            }
            StageKind::TopK => stages::top_k::apply(w, s, code),
            StageKind::TopP => stages::top_p::apply(w, s, code),
            StageKind::MinP => stages::min_p::apply(w, s, code),
            StageKind::TypicalP => stages::typical_p::apply(w, s, code),
            StageKind::EpsilonCutoff => stages::epsilon_cutoff::apply(w, s, code),
            StageKind::EtaCutoff => stages::eta_cutoff::apply(w, s, code),
        };
        if EARLY.contains(&kind) || w.kept.len() != before {
            untouched = false;
        }
        if w.kept.is_empty() {
            return Err(StepError::NothingLeft { stage: kind.name() });
        }
        ran.push(Ran {
            kind,
            active: true,
            removed: before - w.kept.len(),
            result,
            input,
        });
        if tempered_all.is_none() && kind == StageKind::Temperature {
            // HF and vLLM temper before any truncation: the survivors are "all".
            let all = ran
                .iter()
                .all(|r| !r.active || r.removed == 0 || EARLY.contains(&r.kind));
            if all && !order.iter().skip(index + 1).any(|&k| stage_active(k, s)) {
                // Temperature is the last stage: its normaliser is the final one, which the
                // final pass sums together with the weights (`Decoder::run` fills it in).
                tempered_last = true;
            } else if all {
                tempered_all = Some(w.normaliser());
            }
        }
    }
    let early_ran = ran.iter().any(|r| r.active && EARLY.contains(&r.kind));
    let tempered_is_final =
        tempered_last || (!s.greedy && early_ran && (w.all_kept || only_early_removed(&ran)));
    Ok(Outcome {
        stages: ran,
        tempered_all,
        tempered_is_final,
    })
}

/// Whether the "after temperature" normaliser is the final one although tokens were removed:
/// only the early stages removed any (bans, end ids held back), so the early stages' survivors
/// are the final kept set, at the final scale.
fn only_early_removed(ran: &[Ran]) -> bool {
    ran.iter()
        .all(|r| !r.active || r.removed == 0 || EARLY.contains(&r.kind))
}

/// Whether temperature (a fixed one, not llama.cpp's dynamic one) is the only stage that runs:
/// then the final distribution is the whole vocabulary at one scale, known before any stage runs.
pub(crate) fn only_temperature(s: &Settings, order: &[StageKind]) -> bool {
    s.dynatemp_range == 0.0
        && order
            .iter()
            .all(|&kind| kind == StageKind::Temperature || !stage_active(kind, s))
}

/// Whether a stage is switched on by the settings (off values and greedy-only stages are skipped).
pub(crate) fn stage_active(kind: StageKind, s: &Settings) -> bool {
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
        StageKind::EtaCutoff => s.eta_cutoff > 0.0,
    }
}

/// The penalties `s` sets, as given, for an overflow's message: "repetition_penalty 1e-30".
fn penalties_set(s: &Settings) -> String {
    let mut set = Vec::new();
    if s.repetition_penalty != 1.0 {
        set.push(format!(
            "repetition_penalty {}",
            format_number(s.repetition_penalty_given)
        ));
    }
    for (key, value) in [
        ("frequency_penalty", s.frequency_penalty),
        ("presence_penalty", s.presence_penalty),
    ] {
        if value != 0.0 {
            // (float32's shortest digits: 0.1, not 0.10000000149011612)
            let shortest = value.to_string().parse().unwrap_or(f64::from(value));
            set.push(format!("{key} {}", format_number(shortest)));
        }
    }
    set.join(", ")
}
