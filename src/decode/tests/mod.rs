//! Hand-checkable cases: logits chosen so softmax gives simple fractions (ln 1, ln 2, ln 3 …), with
//! the arithmetic in comments. Each names the rule it pins. One file per subject: the stages'
//! rules (stages.rs), errors (errors.rs), what the trace lists (trace.rs), min_new_tokens
//! (min_new_tokens.rs), the entropy-driven cutoff eta (eta_cutoff.rs), a temperature after a
//! penalty (tempered_after_penalties.rs), and the passes that pass over blocks (passed_over.rs).

use super::*;

mod errors;
mod eta_cutoff;
mod holes;
mod min_new_tokens;
mod passed_over;
mod stages;
mod tempered_after_penalties;
mod trace;

pub(super) const LN2: f32 = std::f32::consts::LN_2;
pub(super) const LN3: f32 = 1.098_612_3;

pub(super) fn cfg() -> Config {
    Config {
        seed: Some(1),
        trace_top: Some(100),
        ..Config::default()
    }
}

pub(super) fn probs(trace: &Trace) -> Vec<(u32, f64)> {
    let mut p: Vec<(u32, f64)> = trace.candidates.iter().map(|c| (c.id, c.p)).collect();
    p.sort_by_key(|(id, _)| *id);
    p
}

pub(super) fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}
