//! The trace: what `step` returns, rich enough to draw every stage. These field names are the
//! JavaScript contract (`StepResult` in `types.d.ts`); change them only together.

use serde::Serialize;

mod build;
mod columns;
mod stage_inputs;
pub(crate) use build::{attach, build, Parts};
pub use columns::{Columns, REMOVED_BY_LOGITS, REMOVED_BY_NONE};

/// One stage of the pipeline. `name()` is the config key it is controlled by, used for
/// `stages[].name`, `removed_by` and the page's labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StageKind {
    LogitBias,
    MinNewTokens,
    Penalties,
    Greedy,
    Temperature,
    TopK,
    TopP,
    MinP,
    TypicalP,
    EpsilonCutoff,
    EtaCutoff,
}

impl StageKind {
    pub const ALL: [StageKind; 11] = [
        StageKind::LogitBias,
        StageKind::MinNewTokens,
        StageKind::Penalties,
        StageKind::Greedy,
        StageKind::Temperature,
        StageKind::TopK,
        StageKind::TopP,
        StageKind::MinP,
        StageKind::TypicalP,
        StageKind::EpsilonCutoff,
        StageKind::EtaCutoff,
    ];

    pub fn name(self) -> &'static str {
        match self {
            StageKind::LogitBias => "logit_bias",
            StageKind::MinNewTokens => "min_new_tokens",
            StageKind::Penalties => "penalties",
            StageKind::Greedy => "greedy",
            StageKind::Temperature => "temperature",
            StageKind::TopK => "top_k",
            StageKind::TopP => "top_p",
            StageKind::MinP => "min_p",
            StageKind::TypicalP => "typical_p",
            StageKind::EpsilonCutoff => "epsilon_cutoff",
            StageKind::EtaCutoff => "eta_cutoff",
        }
    }
}

/// What one stage did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StageTrace {
    /// The config key of the stage (`"top_p"`), or `"greedy"`.
    pub name: &'static str,
    /// False if the stage is at its off value, or skipped because greedy decided first.
    pub active: bool,
    /// Tokens left after this stage.
    pub kept_count: usize,
    /// Tokens this stage removed.
    pub removed_count: usize,
    /// The stage's parameter as applied (k, p, T after dynamic temperature, …); null if none.
    pub value: Option<f64>,
    /// The cut the parameter became: top-k the k-th logit, min-p / epsilon / eta the
    /// probability threshold, top-p the probability mass kept, typical_p the entropy (nats) of its input,
    /// min_new_tokens the new tokens generated so far (the end token is removed while below n).
    pub threshold: Option<f64>,
    /// Probability of each listed candidate (same order as `Trace::candidates`) in this stage's
    /// input distribution; 0 for tokens already removed. Empty for inactive stages.
    pub p_in: Vec<f64>,
    /// Running total of `p_in` in candidate order (the top-p chart's cumulative curve).
    pub cum_in: Vec<f64>,
}

/// One vocabulary entry, as the charts need it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Candidate {
    pub id: u32,
    /// Position in the full candidate order (0-based): kept tokens by final p descending, ties by
    /// lower id, then removed tokens by raw logit descending, ties by lower id.
    pub rank: usize,
    /// The raw input logit.
    pub logit: f32,
    /// The logit after logit_bias and penalties: what every filter ranks by.
    pub logit_processed: f32,
    /// Plain softmax of the raw logits (T = 1, nothing removed).
    pub p_raw: f64,
    /// Softmax of the processed logits at the applied temperature over the whole vocabulary
    /// (before truncation): the "after temperature" chart.
    pub p_tempered: f64,
    /// Final probability (0 if removed).
    pub p: f64,
    /// Cumulative final probability in candidate order; the draw picks the first `cum > u`.
    pub cum: f64,
    pub kept: bool,
    /// The stage that removed the token (`"logits"` if its input logit was −inf), or null.
    pub removed_by: Option<&'static str>,
}

/// Everything one decoding step did.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Trace {
    /// The chosen token id.
    pub token: u32,
    /// u: the uniform draw (随机数) in [0, 1) that chose the token; null for greedy.
    pub u: Option<f64>,
    pub seed: u32,
    pub draw: u64,
    pub engine: &'static str,
    /// `"sample"` or `"greedy"` (temperature 0 is reported as greedy).
    pub strategy: &'static str,
    /// The temperature applied (after vLLM's clamp or llama.cpp's dynamic temperature); 0 = greedy.
    /// A fixed one as the caller wrote it (0.7, not float32's 0.699999988).
    pub temperature: f64,
    pub vocab_size: usize,
    /// Tokens left after every stage.
    pub kept_count: usize,
    /// Entropy of the final distribution, in bits.
    pub entropy_bits: f64,
    /// Entropy of the plain softmax of the raw logits, in bits.
    pub raw_entropy_bits: f64,
    /// Every stage of the engine, in applied order.
    pub stages: Vec<StageTrace>,
    /// In rank order: the first `trace_top` of the candidate order (kept tokens by final
    /// probability, descending, ties by lower id, then the best removed by raw logit), plus the
    /// chosen token and every `trace_ids` entry wherever they rank. Ranks may skip.
    pub candidates: Vec<Candidate>,
    /// Kept tokens not in `candidates`: the "rest" of the final distribution.
    pub unlisted_kept_count: usize,
    /// Their total final probability: 1 − the listed kept tokens' `p` (0 when none is unlisted).
    pub unlisted_mass: f64,
    /// The chosen token's rank (kept for compatibility: equals `chosen.rank`).
    pub chosen_rank: usize,
    /// The chosen token's entry (always also in `candidates`).
    pub chosen: Candidate,
    /// Set when the config gave `rest_mass` (logits for the top of the vocabulary only): that
    /// mass and whether the final probabilities are exact (see `rest.rs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rest: Option<super::rest::Rest>,
}
