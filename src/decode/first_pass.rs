//! The first full read of the logits after validation: the raw softmax's sums, and whatever else
//! the same read can give for the passes after it (the final weights, the tempered normaliser,
//! the raw weights as keys, remembered exps, per-block sums), chosen by which stages run.

use super::candidates::Work;
use super::config::Settings;
use super::engine::Engine;
use super::final_pass;
use super::pipeline::{self, Raw};
use super::rng;
use super::softmax;
use super::stages;
use super::trace::StageKind;

/// What the first full read of the logits (after validation) measured.
pub(super) struct FirstPass {
    pub raw: Raw,
    /// The normaliser at the configured temperature, when this pass computed it.
    pub tempered_z: Option<f64>,
    /// Σ e·s of the final weights, when this pass also summed them because temperature is the
    /// only stage: the final pass then only picks the listed head.
    pub final_weighted: Option<f64>,
}

/// The raw softmax's sums, and whatever else the same read of the array can give: with
/// temperature the only stage (and no −inf logit), the final sums (the weights are computed again
/// where needed, `Work::weights_by_exp`); with
/// temperature the first thing to touch the logits (HF, vLLM, no bias or penalties), its
/// normaliser.
pub(super) fn first_pass(
    logits: &[f32],
    s: &Settings,
    order: &[StageKind],
    w: &mut Work,
    max: f32,
    one_draw: bool,
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
        let n = logits.len();
        let u = (one_draw && !s.greedy).then(|| rng::uniform(s.seed, s.draw));
        let (f, stored) = softmax::raw_and_final(logits, max, inv_t, &mut w.keys, |first, z| {
            final_pass::store_keys(u, s, n, first, z)
        });
        if stored {
            w.weights_in_keys = true;
        } else {
            w.weights_by_exp = Some((max, inv_t));
        }
        return FirstPass {
            raw: raw(f.z_raw, f.weighted_raw),
            tempered_z: (inv_t != 1.0).then_some(f.z),
            final_weighted: Some(f.weighted),
        };
    }
    if w.input_removed == 0 && few_changes_only(s, order) {
        let keep = w.exps.slots(logits.len());
        let filled = keep.is_some();
        let f = softmax::raw_and_blocks(logits, max, keep, w.raw_blocks.blocks());
        if filled {
            w.exps.filled(max, 1.0, true);
        }
        w.raw_blocks.on(max, logits.len());
        return FirstPass {
            raw: raw(f.z_raw, f.weighted_raw),
            tempered_z: None,
            final_weighted: None,
        };
    }
    let n = logits.len();
    if w.input_removed == 0 && few_changes_then_temperature(s, order, logits, max) {
        let inv_t = 1.0 / s.temperature;
        // After a top-k of a few, every later pass is over a few kept ids: remembering each
        // tempered weight would cost a store per token for nothing.
        let keep = if s.top_k > 0 && s.top_k.saturating_mul(8) <= n {
            None
        } else {
            w.exps.slots(n)
        };
        let filled = keep.is_some();
        let (z, weighted, _) =
            softmax::raw_and_tempered_blocks(logits, max, inv_t, keep, w.blocks.blocks());
        if filled {
            w.exps.filled(max, inv_t, true);
        }
        w.blocks.on(max, inv_t, n);
        return FirstPass {
            raw: raw(z, weighted),
            tempered_z: None,
            final_weighted: None,
        };
    }
    if tempers_first(s) {
        let inv_t = 1.0 / s.temperature;
        let keep = w.exps.slots(n);
        let filled = keep.is_some();
        // The raw weights too for a long listing's raw column (trace/columns.rs).
        let keep_raw = keep.is_some().then(|| w.raw_exps.slots(n)).flatten();
        let filled_raw = keep_raw.is_some();
        let (z, weighted, z_t) = softmax::raw_and_tempered_sums(logits, max, inv_t, keep, keep_raw);
        if filled {
            w.exps.filled(max, inv_t, true);
        }
        if filled_raw {
            w.raw_exps.filled(max, 1.0, true);
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

/// Whether a stage will remove a few listed ids (bans, end ids held back) while the raw pass
/// keeps its block sums (`few_changes_only`): then the max of what is left comes from the
/// blocks' maxima (`Work::block_max`), which validation takes.
pub(crate) fn reads_block_max(s: &Settings, order: &[StageKind]) -> bool {
    let removes = s.new_tokens < s.min_new_tokens
        || s.logit_bias.iter().any(|&(_, b)| b == f32::NEG_INFINITY);
    removes && few_changes_only(s, order)
}

/// Whether some stage of `stages` is active and every active one only changes a few logits and
/// removes nothing (a bias without bans, the penalties, a min_new_tokens that holds nothing
/// back), or, with `removing`, also removes a few listed ids (bans, end ids held back).
fn only_few_changes(s: &Settings, stages: &[StageKind], removing: bool) -> bool {
    let mut any = false;
    let only = stages.iter().all(|&kind| {
        let active = pipeline::stage_active(kind, s);
        any |= active;
        !active
            || match kind {
                StageKind::LogitBias => {
                    removing || s.logit_bias.iter().all(|&(_, b)| b != f32::NEG_INFINITY)
                }
                StageKind::Penalties => true,
                StageKind::MinNewTokens => removing || s.new_tokens >= s.min_new_tokens,
                _ => false,
            }
    });
    any && only
}

/// Whether the only stages change a few logits or remove a few listed ids (a bias, the
/// penalties, a min_new_tokens) at T = 1: then the raw pass's block sums are the final ones but
/// where logits changed or ids were removed, and only those blocks are summed again
/// (softmax/patched.rs; scaled when the max moved).
fn few_changes_only(s: &Settings, order: &[StageKind]) -> bool {
    only_few_changes(s, order, true) && !s.greedy && s.temperature == 1.0 && s.dynatemp_range == 0.0
}

/// Whether, at T ≠ 1, the stages before temperature only change a few logits in a few blocks and
/// remove nothing, most likely without moving the max: then the first pass also sums the tempered
/// weights per block and remembers them, and the two normalisers over the whole vocabulary that
/// follow (the temperature stage's input at T = 1, the "after temperature" one) correct only the
/// changed blocks (softmax/blocks.rs). A moved max only costs speed: the sums then take passes.
fn few_changes_then_temperature(
    s: &Settings,
    order: &[StageKind],
    logits: &[f32],
    max: f32,
) -> bool {
    let Some(at) = order.iter().position(|&k| k == StageKind::Temperature) else {
        return false;
    };
    if !(only_few_changes(s, order.split_at(at).0, false)
        && !s.greedy
        && s.temperature != 1.0
        && s.dynatemp_range == 0.0)
    {
        return false;
    }
    let penalised: &[u32] = if stages::penalties::active(s) {
        &s.history
    } else {
        &[]
    };
    let at_max = |id: u32| softmax::logit_of(logits, id) == max;
    let may_raise =
        s.repetition_penalty < 1.0 || s.frequency_penalty < 0.0 || s.presence_penalty < 0.0;
    let ids = penalised
        .iter()
        .copied()
        .chain(s.logit_bias.iter().map(|&(id, _)| id));
    let (touched, blocks) = softmax::blocks_touched(ids, logits.len());
    !early_stages_move_max(s, logits, max)
        && !(!penalised.is_empty() && (may_raise || penalised.iter().any(|&id| at_max(id))))
        && touched * 4 <= blocks
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

/// Whether the trace lists an eighth of the vocabulary or more (`trace_top`; an export's full
/// trace lists all of it): its raw and "after temperature" columns then read exps the first pass
/// remembered (trace/columns.rs), a store per token being cheaper than an exp per listed token.
pub(super) fn lists_most(s: &Settings, n: usize) -> bool {
    s.trace_top.saturating_mul(8) >= n
}

/// Whether a later pass over the vocabulary can read the exps a pass remembers (softmax/
/// cached.rs): the early stages change a few logits or remove a few tokens and keep the rest's
/// exps; typical-p, eta's entropy and the dynamic temperature read the exps of their input
/// again. Elsewhere remembering would cost a store per token for nothing.
pub(super) fn exps_read_again(s: &Settings) -> bool {
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
