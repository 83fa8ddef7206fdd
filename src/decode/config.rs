//! `Config` (what the caller wrote, every field optional) and `Settings` (resolved for one engine
//! and one vocabulary, every value checked; resolve.rs does the checking). Stages read
//! `Settings` and never check again.
//!
//! Fields are `Option` so "use the default" differs from "explicitly set": an engine can then tell
//! a key the caller set to a non-off value (an error naming the key and engine) from one left alone.

use super::engine::Engine;

/// `"sample"` (default) draws from the final distribution; `"greedy"` takes its argmax.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Strategy {
    #[default]
    Sample,
    Greedy,
}

/// One decoding step's settings, named as in HF transformers / llama.cpp / vLLM. `None` = default.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Config {
    pub strategy: Option<Strategy>,
    /// ≥ 0, default 1; 0 means greedy.
    pub temperature: Option<f64>,
    /// Integer ≥ 0; 0 = off. From a value, vLLM's -1 and llama.cpp's k ≤ 0 are read as 0.
    pub top_k: Option<u32>,
    /// In [0, 1]; 1 = off (vLLM: (0, 1]).
    pub top_p: Option<f64>,
    /// In [0, 1]; 0 = off.
    pub min_p: Option<f64>,
    /// In (0, 1]; 1 = off. HF and llama.cpp only.
    pub typical_p: Option<f64>,
    /// In [0, 1); 0 = off. HF only.
    pub epsilon_cutoff: Option<f64>,
    /// In [0, 1); 0 = off. HF only (EtaLogitsWarper).
    pub eta_cutoff: Option<f64>,
    /// > 0; 1 = off.
    pub repetition_penalty: Option<f64>,
    /// Finite; 0 = off. llama.cpp and vLLM only.
    pub frequency_penalty: Option<f64>,
    /// Finite; 0 = off. llama.cpp and vLLM only.
    pub presence_penalty: Option<f64>,
    /// Token ids seen so far (prompt then generated), oldest first.
    pub history: Option<Vec<u32>>,
    /// How many leading `history` ids are prompt (vLLM's frequency/presence skip them).
    pub history_prompt_len: Option<usize>,
    /// llama.cpp's window over `history`; −1 = all (the only value other engines accept), 0 = none.
    pub penalty_last_n: Option<i64>,
    /// Added to a token's logit before anything else; in [−100, 100], or −inf to ban the token.
    pub logit_bias: Option<Vec<(u32, f64)>>,
    /// Every truncation keeps at least this many tokens (always at least 1).
    pub min_keep: Option<u32>,
    /// llama.cpp dynamic temperature half-range; 0 = off.
    pub dynatemp_range: Option<f64>,
    /// llama.cpp dynamic temperature exponent; default 1.
    pub dynatemp_exponent: Option<f64>,
    pub engine: Option<Engine>,
    /// 0 … 2^32 − 1. Without one, `step` takes a fresh one and reports it.
    pub seed: Option<u32>,
    /// Which draw of the seed's stream: 0 … 2^53.
    pub draw: Option<u64>,
    /// How many candidates the trace lists (default 20).
    pub trace_top: Option<u32>,
    /// While fewer than this many new tokens (`history` − `history_prompt_len`) exist, the
    /// `eos_token_id` tokens are removed (HF `min_new_tokens`, vLLM `min_tokens`); 0 = off.
    pub min_new_tokens: Option<u32>,
    /// The end-of-sequence id(s) `min_new_tokens` holds back (HF accepts one id or a list).
    pub eos_token_id: Option<Vec<u32>>,
    /// Ids the trace lists too, wherever they rank (at most [`MAX_TRACE_IDS`], each < vocabulary).
    pub trace_ids: Option<Vec<u32>>,
    /// Probability of the tokens the logits leave out (a server's top N); see `rest.rs`.
    pub rest_mass: Option<f64>,
}

/// The most ids `eos_token_id` may list (models have one to a handful).
pub const MAX_EOS_IDS: usize = 64;

/// The most ids `trace_ids` may name: enough for a page's "find a token" and forced links, small
/// enough that locating them stays one pass over the vocabulary.
pub const MAX_TRACE_IDS: usize = 1024;

/// Every key `step` reads. A key missing here is refused as unknown, so a new key must be added
/// here as well as to [`Config::from_value`]; the wasm adapter also reads these through getters
/// and prototypes.
pub const KEYS: &[&str] = &[
    "strategy",
    "engine",
    "temperature",
    "top_k",
    "top_p",
    "min_p",
    "typical_p",
    "epsilon_cutoff",
    "eta_cutoff",
    "repetition_penalty",
    "frequency_penalty",
    "presence_penalty",
    "history",
    "history_prompt_len",
    "penalty_last_n",
    "logit_bias",
    "min_keep",
    "dynatemp_range",
    "dynatemp_exponent",
    "seed",
    "draw",
    "trace_top",
    "trace_ids",
    "min_new_tokens",
    "eos_token_id",
    "rest_mass",
];

/// A config resolved for one engine and vocabulary: defaults filled in, every value in range,
/// every key outside the engine at its off value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Settings {
    pub engine: Engine,
    pub greedy: bool,
    /// The temperature as the engines hold it (float32), after vLLM's clamp to ≥ 0.01.
    pub temperature: f32,
    /// The temperature as the caller wrote it (after vLLM's clamp), for the trace: a caller who
    /// passed 0.7 reads 0.7 back, not float32's 0.699999988.
    pub temperature_given: f64,
    pub top_k: usize,
    pub top_p: f64,
    pub min_p: f64,
    pub typical_p: f64,
    pub epsilon_cutoff: f64,
    pub eta_cutoff: f64,
    pub repetition_penalty: f32,
    /// As the caller wrote it, for the trace (as `temperature_given`).
    pub repetition_penalty_given: f64,
    pub frequency_penalty: f32,
    pub presence_penalty: f32,
    pub history: Vec<u32>,
    pub history_prompt_len: usize,
    pub penalty_last_n: i64,
    pub logit_bias: Vec<(u32, f32)>,
    /// At least 1: every engine keeps one token whatever the settings.
    pub min_keep: usize,
    pub dynatemp_range: f32,
    pub dynatemp_exponent: f32,
    pub seed: u32,
    pub draw: u64,
    pub trace_top: usize,
    pub min_new_tokens: usize,
    /// Checked against the vocabulary; non-empty whenever `min_new_tokens` > 0.
    pub eos_token_id: Vec<u32>,
    /// New tokens so far: `history.len() − history_prompt_len`.
    pub new_tokens: usize,
    /// `trace_ids`, checked, sorted and without duplicates.
    pub trace_ids: Vec<u32>,
}
