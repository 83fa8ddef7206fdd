// A server's answer as the logits the core's `step` reads: one value per vocabulary id, the
// server's log-probability where it listed the token and −∞ where it did not (unknown, not
// impossible: `coverage` says which). Log-probabilities are logits up to a constant, so the
// core's softmax of a full answer is the server's distribution unchanged.
import { ServerError } from "./types";
import type { Coverage, Distribution } from "./types";

export interface ServerLogits {
  logits: Float32Array;
  coverage: Coverage;
}

/**
 * `idOf` maps an entry without an id (Ollama, vLLM without ids) to the page's own id for its
 * text; entries with ids ≥ `vocabSize` are a server error and refused.
 */
export function toLogits(dist: Distribution, vocabSize: number, idOf: (text: string) => number): ServerLogits {
  const logits = new Float32Array(vocabSize).fill(-Infinity);
  for (const e of dist.entries) {
    const id = e.id ?? idOf(e.text);
    if (!Number.isInteger(id) || id < 0 || id >= vocabSize) {
      throw new ServerError({ code: "model_changed", vars: { detail: `token id ${id} ≥ ${vocabSize}` } });
    }
    logits[id] = e.logprob;
  }
  return { logits, coverage: dist.coverage };
}
