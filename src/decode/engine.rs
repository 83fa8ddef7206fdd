//! `Engine`: whose rules a step follows — Hugging Face transformers, llama.cpp or vLLM — and the
//! order in which each applies its stages (the chapter: the order "因系统而异").
//!
//! This is the only place the order lives; `SEMANTICS.md` (shared conformance data) is the source.

use super::trace::StageKind;

/// Whose semantics a step follows. Each fixes stage order, tie rules, the top-p boundary and greedy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Engine {
    /// transformers `generate()`: penalties → min_new_tokens → temperature → top-k → top-p → min-p → typical →
    /// epsilon → eta; greedy is the argmax of the penalised logits and skips every warper.
    #[default]
    Hf,
    /// llama.cpp `common_sampler`: (min_new_tokens as an eos ban) → penalties → top-k → typical → top-p → min-p → temperature;
    /// temperature is last, so every filter sees T = 1; top-k keeps exactly k.
    LlamaCpp,
    /// vLLM V1 sampler: min_tokens → penalties → (greedy if T < 1e-5) → temperature → min-p → top-k → top-p.
    Vllm,
}

impl Engine {
    /// The wire name used in configs and traces.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Hf => "hf",
            Engine::LlamaCpp => "llama.cpp",
            Engine::Vllm => "vllm",
        }
    }

    pub fn from_name(name: &str) -> Option<Engine> {
        match name {
            "hf" => Some(Engine::Hf),
            "llama.cpp" => Some(Engine::LlamaCpp),
            "vllm" => Some(Engine::Vllm),
            _ => None,
        }
    }

    /// Every stage this engine has, in applied order, for sampling (`greedy == false`) or greedy.
    ///
    /// Greedy takes the place where the engine decides: HF and vLLM right after the penalties (the
    /// warpers that follow are listed but skipped), llama.cpp at the end of its chain, where its
    /// temperature sampler keeps the first maximum among the survivors.
    pub fn order(self, greedy: bool) -> &'static [StageKind] {
        use StageKind::*;
        match (self, greedy) {
            (Engine::Hf, false) => &[
                LogitBias,
                Penalties,
                MinNewTokens,
                Temperature,
                TopK,
                TopP,
                MinP,
                TypicalP,
                EpsilonCutoff,
            ],
            (Engine::Hf, true) => &[
                LogitBias,
                Penalties,
                MinNewTokens,
                Greedy,
                Temperature,
                TopK,
                TopP,
                MinP,
                TypicalP,
                EpsilonCutoff,
            ],
            (Engine::LlamaCpp, false) => &[
                LogitBias,
                MinNewTokens,
                Penalties,
                TopK,
                TypicalP,
                TopP,
                MinP,
                Temperature,
            ],
            (Engine::LlamaCpp, true) => &[
                LogitBias,
                MinNewTokens,
                Penalties,
                TopK,
                TypicalP,
                TopP,
                MinP,
                Greedy,
            ],
            (Engine::Vllm, false) => &[
                MinNewTokens,
                LogitBias,
                Penalties,
                Temperature,
                MinP,
                TopK,
                TopP,
            ],
            (Engine::Vllm, true) => &[
                MinNewTokens,
                LogitBias,
                Penalties,
                Greedy,
                Temperature,
                MinP,
                TopK,
                TopP,
            ],
        }
    }

    /// [`Engine::order`] with HF's `eta_cutoff` after epsilon when it is on. Listed only then: it
    /// joined after traces were recorded, and an HF trace without it stays what it was.
    pub fn order_with(self, greedy: bool, eta: bool) -> &'static [StageKind] {
        use StageKind::*;
        match (self, greedy, eta) {
            (Engine::Hf, false, true) => &[
                LogitBias,
                Penalties,
                MinNewTokens,
                Temperature,
                TopK,
                TopP,
                MinP,
                TypicalP,
                EpsilonCutoff,
                EtaCutoff,
            ],
            (Engine::Hf, true, true) => &[
                LogitBias,
                Penalties,
                MinNewTokens,
                Greedy,
                Temperature,
                TopK,
                TopP,
                MinP,
                TypicalP,
                EpsilonCutoff,
                EtaCutoff,
            ],
            _ => self.order(greedy),
        }
    }

    /// Whether greedy ends the step before the rest of the chain (HF, vLLM) or the chain runs first.
    pub fn greedy_skips_rest(self) -> bool {
        !matches!(self, Engine::LlamaCpp)
    }
}
