// The inputs of the columnar-trace contract (tests/node/columns.test.mjs) and of its golden file
// (tests/data/trace-golden.json, recorded from the object-per-candidate build before issue 10).
import { peakedLogits } from "../bench/logits.mjs";

const withHoles = () => {
  const l = peakedLogits(200);
  for (let i = 5; i < 200; i += 23) l[i] = -Infinity;
  return l;
};

export const cases = [
  { name: "hf combined, short head, trace_ids", logits: () => peakedLogits(1000), config: { temperature: 0.8, top_k: 40, top_p: 0.95, min_p: 0.05, seed: 7, draw: 3, trace_top: 25, trace_ids: [1, 2, 999] } },
  { name: "llama.cpp combined, every candidate", logits: () => peakedLogits(150), config: { engine: "llama.cpp", temperature: 0.8, top_k: 40, top_p: 0.95, min_p: 0.05, seed: 9, draw: 1, trace_top: 150 } },
  { name: "vllm, T 1.5, −inf logits, every candidate", logits: withHoles, config: { engine: "vllm", temperature: 1.5, top_p: 0.9, seed: 1, draw: 5, trace_top: 200 } },
  { name: "greedy with penalties and a ban", logits: () => peakedLogits(500), config: { temperature: 0, repetition_penalty: 1.3, history: [0, 3, 7, 9, 11], logit_bias: { 3: -Infinity, 4: 2.5 }, seed: 4, trace_top: 60 } },
  { name: "typical-p, min_new_tokens", logits: () => peakedLogits(800), config: { typical_p: 0.9, min_new_tokens: 2, eos_token_id: 0, history: [5], history_prompt_len: 1, seed: 3, draw: 11, trace_top: 40 } },
];
