// The only importer of ../pkg: loads the wasm decoding core and turns its thrown Errors into values,
// so every view receives either a trace or a message and never has to catch. The embedded model's
// `Generator` is created here too; `sources/model.ts` wraps it behind the page's `LogitsSource` interface.
import init, { Generator, initSync, sampleCounts, step } from "../pkg/nexttoken.js";
import type { SampleCounts, StepConfig, StepResult } from "../pkg/nexttoken.js";
import { earlyWasm } from "./early";
import { INLINE, wasmBytes } from "./payload";

export type {
  Candidate,
  Engine,
  ForcedRecord,
  ForcedTokens,
  GeneratedToken,
  RestTrace,
  StageName,
  StageTrace,
  StepConfig,
  StepResult,
} from "../pkg/nexttoken.js";
export type { Generator };

/** A core call's result, or the message of the Error it threw (a bad config, say). */
export type Outcome<T> = { ok: true; result: T } | { ok: false; message: string };

export type StepOutcome = Outcome<StepResult>;

let ready: Promise<void> | null = null;

/**
 * Loads and instantiates the wasm module once: fetched next to the page (already requested by the
 * page's early script), or (single-file build) compiled from the bytes inside it,
 * with no request.
 */
export function initCore(): Promise<void> {
  ready ??= INLINE ? Promise.resolve().then(() => void initSync({ module: inlineWasm() })) : fetchedCore();
  return ready;
}

/** From the page's early script's response (www/scripts/start-up.mjs), if it ran; otherwise, or if it failed, init's own fetch. */
function fetchedCore(): Promise<void> {
  const early = earlyWasm();
  const own = (): Promise<void> => init().then(() => undefined);
  if (early === null) return own();
  return early.then(
    (response) => init({ module_or_path: response }).then(() => undefined),
    () => own(),
  );
}

function inlineWasm(): Uint8Array {
  const bytes = wasmBytes();
  if (bytes === null) throw new Error("the page carries no wasm module");
  return bytes;
}

function outcome<T>(call: () => T): Outcome<T> {
  try {
    return { ok: true, result: call() };
  } catch (err) {
    return { ok: false, message: messageOf(err) };
  }
}

/** One decoding step through the core; a bad config comes back as `{ ok: false, message }`. */
export function runStep(logits: Float32Array, config: StepConfig): StepOutcome {
  return outcome(() => step(logits, config));
}

/** `n` draws of the next token (draws `config.draw` … + n − 1), counted by the core in one call. */
export function runSampleCounts(logits: Float32Array, config: StepConfig, n: number): Outcome<SampleCounts> {
  return outcome(() => sampleCounts(logits, config, n));
}

/** The embedded model from its safetensors bytes and tokenizer.json text (after `initCore`). */
export function createGenerator(weights: Uint8Array, tokenizerJson: string): Generator {
  return new Generator(weights, tokenizerJson);
}

/** A thrown value as a message. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
