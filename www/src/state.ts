// The page's whole state as one plain value: what the user chose and the path generated so far.
// Everything on screen is derived from it plus the core's traces (kept in `PathEntry`).
import { engineLacks } from "./engines";
import type { Candidate, Engine, StepConfig, StepResult } from "./core";
import type { Lang } from "./i18n/index";
import type { ManualPreset } from "./presets";

export interface Params {
  strategy: "sample" | "greedy";
  temperature: number;
  top_k: number;
  top_p: number;
  min_p: number;
  typical_p: number;
  repetition_penalty: number;
  frequency_penalty: number;
  presence_penalty: number;
  engine: Engine;
  seed: number;
  max_new_tokens: number;
  /** The end token is held back until this many tokens are generated (0 = off). */
  min_new_tokens: number;
  stop: string[];
}

export type StopReason =
  | { kind: "eos" }
  | { kind: "max_tokens"; n: number }
  | { kind: "stop_sequence"; sequence: string }
  | { kind: "user" }
  | { kind: "context_full" };

/** Where logits come from: the embedded model or the hand-made tables. */
export type SourceKind = "model" | "manual" | "server";

/** One generated token and the trace of the step that produced it. */
export interface PathEntry {
  id: number;
  result: StepResult;
  /** The appended token's candidate record (the core's choice, or the forced one). */
  chosen: Candidate;
  /** Its position in the trace's candidate order (0 = most likely after decoding). */
  rank: number;
  forced: boolean;
  /** What the core read at this step (its logits and config), so the step can be re-run in full
   * (every candidate, for Find a token and the CSV) after the source has moved on. */
  input?: StepInput;
  /** The vocabulary's size at this step (what the chips' tooltips read, so a replayed step's full
   * trace is not made just for it). */
  vocabSize?: number;
  /** The settings the step was made under (a link writes those that differ from its last ones). */
  params?: Params;
  /** Model only: text this token completed, and bytes of a character it left unfinished. */
  piece?: string;
  pending?: number[];
}

/** The input of one step: the logits and the config the core's `step` received. */
export interface StepInput {
  logits: Float32Array;
  config: StepConfig;
}

/** A path kept after forcing a different token: the tokens, where it left its parent. */
export interface Branch {
  ids: number[];
  entries: PathEntry[];
  parent: number | null;
  forkAt: number;
}

export interface AppState {
  lang: Lang;
  source: SourceKind;
  presetId: string;
  prompt: string;
  params: Params;
  path: PathEntry[];
  /** All paths, the current one at `currentBranch` (kept in sync with `path`). */
  branches: Branch[];
  currentBranch: number;
  /** Index of a past step being inspected, or null for the next step. */
  viewing: number | null;
  stopReason: StopReason | null;
  playing: boolean;
  tokensPerSecond: number;
}

/**
 * The seed of a first visit (a page opened with no seed in its link). Not a tuned number: it is the
 * smallest seed whose first `draws` random numbers all lie below `below`, so on every preset the
 * first steps pick tokens within the first 80 % of the final probability mass — typical draws, as
 * the chapter describes sampling — instead of a rare token on the very first click (seed 42's first
 * u is 0.955). tests/node/first-visit.test.mjs derives it again from the core's generator.
 */
export const FIRST_VISIT = { seed: 84, draws: 16, below: 0.8 } as const;

/** Defaults for every parameter a link or lesson leaves out (lessons and links keep seed 42). */
export const DEFAULT_PARAMS: Params = {
  strategy: "sample",
  temperature: 0.8,
  top_k: 0,
  top_p: 0.9,
  min_p: 0,
  typical_p: 1,
  repetition_penalty: 1,
  frequency_penalty: 0,
  presence_penalty: 0,
  engine: "hf",
  seed: 42,
  max_new_tokens: 16,
  min_new_tokens: 0,
  stop: [],
};

/** Numeric parameters and the range a control (and so a link) can set. */
export type NumericParam = Exclude<keyof Params, "strategy" | "engine" | "stop">;
export const PARAM_LIMITS: Record<NumericParam, { min: number; max: number; integer: boolean }> = {
  temperature: { min: 0, max: 2, integer: false },
  top_k: { min: 0, max: 50, integer: true },
  top_p: { min: 0.01, max: 1, integer: false },
  min_p: { min: 0, max: 1, integer: false },
  typical_p: { min: 0.01, max: 1, integer: false },
  repetition_penalty: { min: 0.5, max: 2, integer: false },
  frequency_penalty: { min: -2, max: 2, integer: false },
  presence_penalty: { min: -2, max: 2, integer: false },
  seed: { min: 0, max: 0xffffffff, integer: true },
  max_new_tokens: { min: 1, max: 512, integer: true },
  min_new_tokens: { min: 0, max: 512, integer: true },
};

/** How many candidates each trace lists. */
export const TRACE_TOP = 24;

/**
 * The core config for the next token: only keys away from their off value are sent. `eosId` is the
 * source's end token: min_new_tokens holds it back (and lists it, so its chart can show it).
 */
/** Each optional stage's off value: the step leaves the key out, the page says "off". */
export const OFF_VALUE = { top_k: 0, top_p: 1, min_p: 0, typical_p: 1, repetition_penalty: 1, frequency_penalty: 0, presence_penalty: 0 } as const;
export type StageKey = keyof typeof OFF_VALUE;

/** Whether a step under `params` applies the stage `key`: away from its off value, and one its engine has (engines.ts). */
export function stageOn(params: Readonly<Params>, key: StageKey): boolean {
  return params[key] !== OFF_VALUE[key] && !engineLacks(params.engine, key);
}

export function stepConfig(params: Params, history: number[], promptLength: number, draw: number, eosId?: number): StepConfig {
  const config: StepConfig = {
    strategy: params.strategy,
    temperature: params.temperature,
    engine: params.engine,
    seed: params.seed,
    draw,
    trace_top: TRACE_TOP,
  };
  // a stage at its off value, or one the engine has none of, is not sent (its control says so; the value is kept)
  for (const key of Object.keys(OFF_VALUE) as StageKey[]) if (stageOn(params, key)) config[key] = params[key];
  const penalised =
    config.repetition_penalty !== undefined || config.frequency_penalty !== undefined || config.presence_penalty !== undefined;
  const holdsEnd = params.min_new_tokens > 0 && eosId !== undefined;
  if (holdsEnd) {
    config.min_new_tokens = params.min_new_tokens;
    config.eos_token_id = eosId;
    config.trace_ids = [eosId];
  }
  if (penalised || holdsEnd) {
    config.history = history;
    config.history_prompt_len = promptLength;
  }
  return config;
}

/** The state a page opens with, before any link is applied. */
export function initialState(lang: Lang, preset: ManualPreset, seed: number): AppState {
  return {
    lang,
    source: "manual",
    presetId: preset.id,
    prompt: preset.prompt,
    params: { ...DEFAULT_PARAMS, seed },
    path: [],
    branches: [{ ids: [], entries: [], parent: null, forkAt: 0 }],
    currentBranch: 0,
    viewing: null,
    stopReason: null,
    playing: false,
    tokensPerSecond: 3,
  };
}
