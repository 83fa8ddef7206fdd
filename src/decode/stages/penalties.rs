//! penalties (重复惩罚): make tokens already in `history` less likely.
//!
//! - `repetition_penalty` r (> 0, 1 = off): once per distinct id, a positive logit is divided by r
//!   and a negative one multiplied by r. Engines differ only at 0 and by one ulp: HF `l < 0 ? l·r :
//!   l/r`; llama.cpp `l <= 0 ? l·r : l/r`; vLLM `l > 0 ? l·(1/r) : l·r` (SEMANTICS.md §5).
//! - `frequency_penalty` f and `presence_penalty` q (0 = off; llama.cpp, vLLM):
//!   `l −= count·f + [count > 0]·q`.
//!
//! Windows: HF and vLLM's repetition use the whole history; llama.cpp the last `penalty_last_n`
//! (−1 = all, 0 = none); vLLM's frequency/presence count only generated ids (after the prompt).
//! Float32 throughout, as in the engines, so penalty-created ties are reproduced exactly.

use super::super::candidates::{Work, KEPT};
use super::super::config::Settings;
use super::super::engine::Engine;
use super::super::softmax::larger;
use super::Applied;

/// Returns the id of the first logit the penalties pushed to +inf (an error for the caller).
pub(crate) fn apply(work: &mut Work, s: &Settings, stage: u8) -> Result<Applied, u32> {
    let history: &[u32] = match (s.engine, s.penalty_last_n) {
        (Engine::LlamaCpp, 0) => &[],
        (Engine::LlamaCpp, n) if n > 0 => {
            let n = (n as usize).min(s.history.len());
            s.history.get(s.history.len() - n..).unwrap_or_default()
        }
        _ => &s.history,
    };
    let r = s.repetition_penalty;
    let mut seen: Vec<u32> = history.to_vec();
    seen.sort_unstable();
    seen.dedup();
    work.before_penalties.clear();
    work.before_penalties.extend(
        seen.iter()
            .filter_map(|&id| work.processed.get(id as usize).map(|&l| (id, l))),
    );
    // The max before, and whether it sits on a penalised id: if not, the max after is the larger
    // of it and the penalised logits, with no pass over the vocabulary.
    let old_max = work.max_logit();
    let max_moved = seen
        .iter()
        .any(|&id| work.processed.get(id as usize) == Some(&old_max));
    if r != 1.0 {
        for &id in &seen {
            if let Some(l) = work.processed.get_mut(id as usize) {
                *l = match s.engine {
                    Engine::Hf => {
                        if *l < 0.0 {
                            *l * r
                        } else {
                            *l / r
                        }
                    }
                    Engine::LlamaCpp => {
                        if *l <= 0.0 {
                            *l * r
                        } else {
                            *l / r
                        }
                    }
                    Engine::Vllm => {
                        if *l > 0.0 {
                            *l * (1.0 / r)
                        } else {
                            *l * r
                        }
                    }
                };
            }
        }
    }
    let (f, q) = (s.frequency_penalty, s.presence_penalty);
    if f != 0.0 || q != 0.0 {
        let counted: &[u32] = match s.engine {
            Engine::Vllm => history.get(s.history_prompt_len..).unwrap_or_default(),
            _ => history,
        };
        let mut ids = counted.to_vec();
        ids.sort_unstable();
        for run in ids.chunk_by(|a, b| a == b) {
            let (Some(&id), count) = (run.first(), run.len() as f32) else {
                continue;
            };
            if let Some(l) = work.processed.get_mut(id as usize) {
                *l -= count * f + q;
            }
        }
    }
    // A penalty < 1 on a huge logit can overflow; −inf is a legitimate removal.
    for &id in &seen {
        if work
            .processed
            .get(id as usize)
            .is_some_and(|l| *l == f32::INFINITY || l.is_nan())
        {
            return Err(id);
        }
    }
    // Repetition changes only the ids in `seen`, and frequency/presence count ids of the window
    // (vLLM: its generated part), all in `seen` too.
    work.logits_changed(seen.iter().copied());
    if !max_moved {
        // Only kept ids count: a token an earlier stage removed (min_new_tokens' eos) may be
        // raised by a negative frequency penalty, but it is not in the distribution.
        let max = seen
            .iter()
            .filter(|&&id| work.removed_by.get(id as usize) == Some(&KEPT))
            .filter_map(|&id| work.processed.get(id as usize))
            .fold(old_max, |m, &l| larger(m, l));
        work.set_max(max);
    }
    // A huge negative logit times r can reach −inf: that token is now impossible.
    if seen
        .iter()
        .any(|&id| work.processed.get(id as usize) == Some(&f32::NEG_INFINITY))
    {
        let processed = std::mem::take(&mut work.processed);
        work.retain(stage, |id| {
            processed.get(id as usize) != Some(&f32::NEG_INFINITY)
        });
        work.processed = processed;
    }
    Ok(Applied {
        value: Some(s.repetition_penalty_given),
        threshold: None,
    })
}

/// Whether any penalty is on.
pub(crate) fn active(s: &Settings) -> bool {
    !s.history.is_empty()
        && (s.repetition_penalty != 1.0 || s.frequency_penalty != 0.0 || s.presence_penalty != 0.0)
}

#[cfg(test)]
mod tests {
    use crate::decode::{step, Config, Engine};

    /// The max after the penalties counts only kept tokens: an end token that min_new_tokens
    /// removed and a negative frequency penalty raised far above the rest must not become the
    /// distribution's reference (its e^(l − max) would flush every kept weight to 0).
    #[test]
    fn a_removed_token_raised_by_the_penalties_is_not_the_max() {
        for engine in [Engine::Vllm, Engine::LlamaCpp] {
            let config = Config {
                engine: Some(engine),
                history: Some(vec![0; 200]),
                history_prompt_len: Some(0),
                frequency_penalty: Some(-2.0),
                min_new_tokens: Some(500),
                eos_token_id: Some(vec![0]),
                seed: Some(3),
                ..Config::default()
            };
            let trace = step(&[0.0, 1.0, 2.0, 3.0], &config).unwrap();
            assert_ne!(trace.token, 0);
            let total: f64 = trace.candidates.iter().map(|c| c.p).sum();
            assert!((total - 1.0).abs() < 1e-6, "{engine:?}: Σp = {total}");
            assert!(trace.candidates.iter().all(|c| c.p.is_finite()));
        }
    }
}
