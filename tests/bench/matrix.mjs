// Issue 10's configurations, shared by the Node benchmark (tests/bench/step.mjs); the criterion
// half (tests/bench/step.rs) lists the same ones under the same names. `tj`: the
// transformers.js GenerationConfig with the same meaning, where it has one (it has no top-p,
// min-p, typical-p or repetition penalty in its sampler).
// After issue 10's rows: every other stage the config accepts, and the HF configuration a user
// meets with the penalties on (tests/support/mod.rs `more_stages`), then `newer_stages` (the last: the
// mix the page's sliders make).
export function matrix(n) {
  const historyOf = (len) => Array.from({ length: len }, (_, i) => (i * 7919 + 17) % n);
  const history = historyOf(256);
  const bias = Object.fromEntries(
    Array.from({ length: 32 }, (_, i) => [(i * 4099 + 5) % n, i % 4 === 0 ? -Infinity : 3]),
  );
  const combined = (engine) => ({ engine, temperature: 0.8, top_k: 40, top_p: 0.95, min_p: 0.05 });
  return [
    { name: "greedy", config: { temperature: 0 }, tj: { do_sample: false } },
    { name: "T 1", config: {}, tj: { do_sample: true, temperature: 1, top_k: 0 } },
    { name: "T 0.7", config: { temperature: 0.7 }, tj: { do_sample: true, temperature: 0.7, top_k: 0 } },
    { name: "T 1.5", config: { temperature: 1.5 }, tj: { do_sample: true, temperature: 1.5, top_k: 0 } },
    { name: "top-k 40", config: { top_k: 40 }, tj: { do_sample: true, temperature: 1, top_k: 40 } },
    { name: "top-p 0.9", config: { top_p: 0.9 } },
    { name: "min-p 0.05", config: { min_p: 0.05 } },
    { name: "typical-p 0.9", config: { typical_p: 0.9 } },
    { name: "repetition 1.3 (256 history)", config: { repetition_penalty: 1.3, history } },
    { name: "combined hf", config: combined("hf") },
    { name: "combined llama.cpp", config: combined("llama.cpp") },
    { name: "combined vllm", config: combined("vllm") },
    { name: "epsilon 3e-5", config: { epsilon_cutoff: 3e-5 } },
    {
      name: "hf T 1.3 top-p 0.95 rep 1.1 (512) eps 3e-5",
      config: { temperature: 1.3, top_p: 0.95, repetition_penalty: 1.1, history: historyOf(512), epsilon_cutoff: 3e-5 },
    },
    {
      name: "llama.cpp rep 1.1 freq 0.5 pres 0.5 (last 64)",
      config: { engine: "llama.cpp", repetition_penalty: 1.1, frequency_penalty: 0.5, presence_penalty: 0.5, penalty_last_n: 64, history },
    },
    { name: "llama.cpp dynatemp 0.8 ± 0.5", config: { engine: "llama.cpp", temperature: 0.8, dynatemp_range: 0.5 } },
    { name: "logit_bias 32 ids (8 bans)", config: { logit_bias: bias } },
    { name: "min_new_tokens 8 (eos 0)", config: { min_new_tokens: 8, eos_token_id: [0], history: [] } },
    {
      name: "llama.cpp typical 0.9 rep/freq/pres (last 64) min_new 8 T 0.8",
      config: {
        engine: "llama.cpp", temperature: 0.8, typical_p: 0.9, repetition_penalty: 1.1, frequency_penalty: 0.5,
        presence_penalty: 0.5, penalty_last_n: 64, history, history_prompt_len: 252, min_new_tokens: 8, eos_token_id: [0],
      },
    },
    { name: "eta 3e-4", config: { eta_cutoff: 3e-4 } },
    {
      name: "learner T 1.2 top-k 100 min-p 0.1 rep 1.15 (6 history)",
      config: { temperature: 1.2, top_k: 100, min_p: 0.1, repetition_penalty: 1.15, history: historyOf(6) },
    },
  ];
}

// Rows measured on uncertainLogits (an open context) too, named with " · uncertain": where the
// peaked logits flatter a configuration whose cost grows with what it keeps. tests/support's
// uncertain_rows.
export const UNCERTAIN = " · uncertain";
export function uncertainRows() {
  return [
    { name: `T 1${UNCERTAIN}`, config: {} },
    { name: `T 0.8 top-p 0.95${UNCERTAIN}`, config: { temperature: 0.8, top_p: 0.95 } },
    { name: `top-p 0.9${UNCERTAIN}`, config: { top_p: 0.9 } },
    { name: `min-p 0.05${UNCERTAIN}`, config: { min_p: 0.05 } },
    { name: `typical-p 0.9${UNCERTAIN}`, config: { typical_p: 0.9 } },
    { name: `combined hf${UNCERTAIN}`, config: { temperature: 0.8, top_k: 40, top_p: 0.95, min_p: 0.05 } },
    // a learner who drags temperature to the slider's end under the page's default top-p
    { name: `T 2 top-p 0.9${UNCERTAIN}`, config: { temperature: 2, top_p: 0.9 } },
  ];
}
