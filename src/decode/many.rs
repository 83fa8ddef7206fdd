//! Many draws of one step (the page's "Sample N times"): the stages and the final pass run once,
//! then the inverse-CDF draw runs for draws d, d + 1, … d + n − 1 of the seed. Each draw chooses
//! exactly the token `step` chooses with that draw: the same keys, normaliser and draw function,
//! started from the keys in the same order; only the listing and the trace are skipped. Calling
//! `step` n times costs n full passes over the vocabulary; this costs one, plus one pass over the
//! kept tokens per draw (when more than `draw::SELECT_DIRECTLY` are kept, their bucket tables
//! and each bucket's keys are prepared once and a draw reads one bucket).

use super::draw::{self, Tallied};
use super::error::StepError;
use super::ranges::MAX_SAFE_INTEGER;
use super::value::Value;
use super::{final_pass, fresh_seed, rng, Config, Decoder, Staged};

/// How often each token came up in `n` draws.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Counts {
    /// The tokens drawn at least once, ascending.
    pub ids: Vec<u32>,
    /// How often each of `ids` was drawn (they sum to n).
    pub counts: Vec<u32>,
    /// The seed the draws came from: the config's, or a fresh one when it has none.
    pub seed: u32,
}

/// The most draws one call makes.
pub const MAX_DRAWS: u32 = 1 << 20;

/// How many draws, from a caller's number (or the description of what it gave instead).
///
/// # Errors
/// `n` not an integer in 1 … [`MAX_DRAWS`], named with what was given.
pub fn draws_arg(n: Result<f64, String>) -> Result<u32, StepError> {
    match n {
        Ok(x) if x.fract() == 0.0 && (1.0..=f64::from(MAX_DRAWS)).contains(&x) => Ok(x as u32),
        Ok(x) => Err(bad_n(Value::Number(x).describe())),
        Err(got) => Err(bad_n(got)),
    }
}

/// `count` draws from `first` on stay safe integers (JavaScript reads each exactly): the last at
/// most 2^53 − 1. `many` names the count (`with n = 5`), `last` the last draw in the message.
///
/// # Errors
/// `OutOfRange` naming `draw` and the largest first draw allowed.
pub fn draws_fit(first: u64, count: u64, many: &str, last: &str) -> Result<(), StepError> {
    let last_allowed = (MAX_SAFE_INTEGER as u64).saturating_sub(count.saturating_sub(1));
    if first <= last_allowed {
        return Ok(());
    }
    Err(StepError::OutOfRange {
        field: "draw".into(),
        allowed: format!("at most {last_allowed} {many} ({last} at most 2^53 − 1)"),
        got: first.to_string(),
    })
}

fn bad_n(got: String) -> StepError {
    StepError::OutOfRange {
        field: "n".into(),
        allowed: format!("an integer in [1, {MAX_DRAWS}]"),
        got,
    }
}

impl Decoder {
    /// The tokens [`Decoder::step`] would choose with `config` and draws `config.draw` (0 when
    /// absent) … `config.draw + n − 1`, counted. Greedy chooses one token n times.
    ///
    /// # Errors
    /// What [`Decoder::step`] refuses, and `n` outside 1 … [`MAX_DRAWS`] or a last draw past
    /// 2^53 − 1.
    pub fn sample_counts(
        &mut self,
        logits: &[f32],
        config: &Config,
        n: u32,
    ) -> Result<Counts, StepError> {
        if n == 0 || n > MAX_DRAWS {
            return Err(bad_n(n.to_string()));
        }
        let first = config.draw.unwrap_or(0);
        draws_fit(
            first,
            u64::from(n),
            &format!("with n = {n}"),
            "the last draw",
        )?;
        let seed = match config.seed {
            Some(seed) => seed,
            None => fresh_seed()?,
        };
        let Staged {
            settings,
            z,
            max,
            ready,
            ..
        } = self.stages(logits, config, seed, false)?;
        let w = &mut self.work;
        final_pass::final_pass(w, max, w.inv_t, 0, ready, None);
        let mut drawn: Vec<u32> = Vec::with_capacity(n as usize);
        if settings.greedy {
            // Greedy kept exactly one token (as in `run`).
            let id = w.kept.first().copied().unwrap_or_default();
            drawn.resize(n as usize, id);
        } else if draw::uses_tables(w.keys.len()) {
            // The tables and each bucket's keys once; a draw walks the buckets and selects in one.
            let mut prepared = draw::prepare(&w.keys, &mut w.draw_tables);
            let mut scratch = Vec::new();
            for i in 0..u64::from(n) {
                let u = rng::uniform(seed, first + i);
                drawn.push(draw::draw_prepared(&mut prepared, &mut scratch, u, z).id);
            }
        } else {
            // A short list is selected over in place: each draw starts from the final pass's order.
            let mut keys = w.keys.clone();
            for i in 0..u64::from(n) {
                let u = rng::uniform(seed, first + i);
                keys.copy_from_slice(&w.keys);
                let d = draw::inverse_cdf(&mut keys, &mut w.draw_tables, Tallied::No, u, z);
                drawn.push(d.id);
            }
        }
        drawn.sort_unstable();
        let mut counts = Counts {
            seed,
            ..Counts::default()
        };
        for id in drawn {
            match (counts.ids.last(), counts.counts.last_mut()) {
                (Some(&last), Some(count)) if last == id => *count += 1,
                _ => {
                    counts.ids.push(id);
                    counts.counts.push(1);
                }
            }
        }
        Ok(counts)
    }
}
