// The only importer of ../pkg: loads the wasm decoding core and turns its thrown Errors into values,
// so every view receives either a trace or a message and never has to catch.
import init, { step } from "../pkg/nexttoken.js";
import type { StepConfig, StepResult } from "../pkg/nexttoken.js";

export type { Candidate, Engine, StageName, StageTrace, StepConfig, StepResult } from "../pkg/nexttoken.js";

export type StepOutcome = { ok: true; result: StepResult } | { ok: false; message: string };

let ready: Promise<void> | null = null;

/** Loads and instantiates the wasm module once. */
export function initCore(): Promise<void> {
  ready ??= init().then(() => undefined);
  return ready;
}

/** One decoding step through the core; a bad config comes back as `{ ok: false, message }`. */
export function runStep(logits: Float32Array, config: StepConfig): StepOutcome {
  try {
    return { ok: true, result: step(logits, config) };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}
