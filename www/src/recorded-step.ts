// A step of a replayed token with the token's candidate record in it. Either one ordinary step of
// the core that lists the token wherever it ranks (`stepRecording`), or the record the core made
// when the model ran over the tokens (`forceMany` with the step config: `recordedStep`), whose full
// trace is that same step, made only when something reads it (a replayed path's steps are seldom
// all looked at). Both give the same trace, the same record and the same choice.
import { runStep } from "./core";
import type { Candidate, ForcedRecord, ForcedTokens, StepConfig, StepResult } from "./core";
import type { Params, PathEntry, StepInput } from "./state";

/** A step's trace with one token's candidate record in it (the chosen one, or a forced one). */
export interface RecordedStep {
  /** The trace (for a recorded step: made on first read). */
  readonly result: StepResult;
  /** The token the core chooses at this step (the forced one, or another). */
  token: number;
  chosen: Candidate;
  /** Its position in the candidate order (0 = most likely after decoding). */
  rank: number;
  /** What the core read (kept with the path entry, so the step can be re-run in full later). */
  input: StepInput;
  /** The vocabulary's size (the logits' length, the trace's `vocab_size`). */
  vocabSize: number;
}

/**
 * One step of the core on `logits` that also lists token `id` (`trace_ids`) with its rank wherever
 * it ranks: the chosen token, or a forced one far outside the listed candidates, in one ordinary step.
 */
export function stepRecording(logits: Float32Array, config: StepConfig, id: number): RecordedStep | string {
  const next = runStep(logits, { ...config, trace_ids: [id] });
  if (!next.ok) return next.message;
  const chosen = next.result.candidates.find((c) => c.id === id);
  // the core lists every trace_ids entry; only an id outside the vocabulary would be missing
  if (chosen === undefined) return `trace_ids must be token ids below ${next.result.vocab_size}, got ${id}`;
  return { result: next.result, token: next.result.token, chosen, rank: chosen.rank, input: { logits, config }, vocabSize: next.result.vocab_size };
}

/**
 * Token `id`'s step from the core's record of it under `input` (see `recordAt`); its trace is made
 * when first read. `vocabSize`: the logits' length, given where reading them would make them.
 */
export function recordedStep(input: StepInput, id: number, record: ForcedRecord, vocabSize = input.logits.length): RecordedStep {
  let result: StepResult | null = null;
  return {
    get result(): StepResult {
      if (result === null) {
        const next = stepRecording(input.logits, input.config, id);
        // the core took this very input when it made the record
        if (typeof next === "string") throw new Error(next);
        result = next.result;
      }
      return result;
    },
    token: record.choice,
    chosen: record.candidate,
    rank: record.candidate.rank,
    input,
    vocabSize,
  };
}

/** A path entry for `id` from its step; the trace stays unread until the entry's is. */
export function pathEntry(id: number, step: RecordedStep, forced: boolean, out: { piece?: string; pending?: number[] }, params?: Params): PathEntry {
  const entry: PathEntry = {
    id,
    get result(): StepResult {
      return step.result;
    },
    chosen: step.chosen,
    rank: step.rank,
    forced,
    input: step.input,
    vocabSize: step.vocabSize,
  };
  if (params !== undefined) entry.params = params;
  if (out.piece !== undefined) entry.piece = out.piece;
  if (out.pending !== undefined) entry.pending = out.pending;
  return entry;
}

/**
 * The core's record of token `used` of `run` (a `forceMany` under `first`, the first token's step
 * config) if `config` is the config that run used there: `first` with `draw` `used` further and
 * the tokens before it appended to `history` (`trace_ids` aside: the record lists the token alone,
 * as `stepRecording` does). Null otherwise (the step is then taken in full).
 */
export function recordAt(run: ForcedTokens, first: StepConfig, used: number, config: StepConfig): ForcedRecord | null {
  const record = run.records?.[used];
  if (record === undefined || run.tokens[used] === undefined) return null;
  const a = config as Record<string, unknown>;
  const b = first as Record<string, unknown>;
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (key === "trace_ids") continue;
    const want = key === "draw" && typeof b[key] === "number" ? (b[key] as number) + used : key === "history" ? historyAt(run, b[key], used) : b[key];
    if (!samePlain(a[key], want)) return null;
  }
  return record;
}

/** `history` as `forceMany` extends it: the forced tokens before `used` appended. */
function historyAt(run: ForcedTokens, history: unknown, used: number): unknown {
  if (!Array.isArray(history)) return history;
  return [...(history as unknown[]), ...run.tokens.slice(0, used).map((t) => t.token)];
}

/** Equal primitives, or arrays of equal primitives; anything else counts as different. */
function samePlain(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => x === b[i] && (typeof x !== "object" || x === null));
  return a === b && (typeof a !== "object" || a === null);
}
