// Issue 10's configurations, shared by the Node benchmark (tests/bench/step.mjs); the criterion
// half (tests/bench/step.rs) lists the same ones under the same names. `tj`: the
// transformers.js GenerationConfig with the same meaning, where it has one (it has no top-p,
// min-p, typical-p or repetition penalty in its sampler).
export function matrix(n) {
  const history = Array.from({ length: 256 }, (_, i) => (i * 7919 + 17) % n);
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
  ];
}
