// Which of the page's controls each engine's sampler lacks. The core refuses a step that sets one
// away from its off value ("frequency_penalty has no stage in engine \"hf\"", src/decode/resolve.rs),
// so the page never sends it: its slider is dimmed and says why, and its value is kept for an engine
// that has it. tests/node/engine-off-values.test.mjs holds this table to the core's.
import type { Engine } from "./core";

/** The page's settings some engine lacks. */
export type LackableKey = "typical_p" | "frequency_penalty" | "presence_penalty";

export const ENGINE_LACKS: Readonly<Record<Engine, readonly LackableKey[]>> = {
  hf: ["frequency_penalty", "presence_penalty"],
  "llama.cpp": [],
  vllm: ["typical_p"],
};

/** Whether `engine` has no stage for the setting `key`. */
export function engineLacks(engine: Engine, key: string): boolean {
  return (ENGINE_LACKS[engine] as readonly string[]).includes(key);
}
