//! `force_many` with the core's word on each forced token (a link replayed): at each position, the
//! token `step` would choose and the forced token's candidate record, from one config read once.
//! A page replaying a link needs no more than that for the tokens it does not show; the full trace
//! of any of them is `step` again on the same logits and config, whenever it is looked at.

use super::{GenerateError, Generator, StepOutput};
use crate::decode::{draws_fit, Candidate, Config, StepError};
use serde::Serialize;

/// What `step` made of one forced token's position.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ForcedRecord {
    /// The token `step` chooses there (the forced one or another).
    pub choice: u32,
    /// The forced token's candidate record there (as `trace_ids` lists it: its true rank and cum).
    pub candidate: Candidate,
}

/// `force_many`'s outputs and logits rows, and the record of each position.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedRun {
    pub outputs: Vec<StepOutput>,
    /// One row of `vocab_size` logits per output: what each token was forced at.
    pub logits: Vec<f32>,
    pub records: Vec<ForcedRecord>,
}

impl Generator {
    /// [`Generator::force_many`], and for each appended token the [`ForcedRecord`] of `step` on
    /// the logits it was forced at under that position's config: the first token under `config`
    /// with what `next` fills in where it is left out (`history` the tokens so far, this model's
    /// end id, with a seed the draw), then `draw` one further per token and each forced token
    /// appended to `history`, as `next` at each position would step.
    /// `trace_ids` is the forced token alone (so it is listed wherever it ranks); `trace_top` is
    /// kept, since the listing's length changes the last bits of `cum`. Refused with nothing
    /// changed if `step` refuses the config (its message names the field).
    pub fn force_many_recorded(
        &mut self,
        tokens: &[u32],
        config: &Config,
    ) -> Result<RecordedRun, GenerateError> {
        // At the first position the config `next` would step with (history, end ids, draw);
        // a draw given must stay a safe integer at the last one, as `sampleCounts` checks it.
        let first = self.with_own_defaults(config)?;
        let first_draw = first.draw;
        if let Some(d) = config.draw {
            let n = tokens.len();
            draws_fit(
                d,
                n as u64,
                &format!("for {n} tokens"),
                "the last one's draw",
            )?;
        }
        let (outs, rows) = self.force_many(tokens)?;
        let vocab_size = self.model.config().vocab_size;
        let mut records = Vec::with_capacity(outs.len());
        let mut cfg = first;
        for (i, (out, row)) in outs.iter().zip(rows.chunks_exact(vocab_size)).enumerate() {
            if i > 0 {
                cfg.draw = first_draw.map(|d| d + i as u64);
                if let (Some(history), Some(before)) = (cfg.history.as_mut(), outs.get(i - 1)) {
                    history.push(before.token);
                }
            }
            cfg.trace_ids = Some(vec![out.token]);
            match self.forced_record(row, &cfg, out.token) {
                Ok(record) => records.push(record),
                Err(e) => {
                    // back to the state before the call: rewinding is exact
                    self.rewind(outs.len())?;
                    return Err(e.into());
                }
            }
        }
        Ok(RecordedRun {
            outputs: outs,
            logits: rows,
            records,
        })
    }

    /// `step` on `row` under `cfg`, which lists `token` (`trace_ids`): its choice and `token`'s record.
    fn forced_record(
        &mut self,
        row: &[f32],
        cfg: &Config,
        token: u32,
    ) -> Result<ForcedRecord, StepError> {
        let trace = self.decoder.step(row, cfg)?;
        let choice = trace.token;
        // every `trace_ids` entry is listed; only an id outside the vocabulary would be missing,
        // and `force_many` refused those
        let candidate = trace.candidates.into_iter().find(|c| c.id == token);
        candidate
            .map(|candidate| ForcedRecord { choice, candidate })
            .ok_or_else(|| StepError::OutOfRange {
                field: "trace_ids".into(),
                allowed: "token ids below the vocabulary size".into(),
                got: token.to_string(),
            })
    }
}
