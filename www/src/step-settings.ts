// Settings per step. A path can be made under several settings (T 0.8 for three steps, then T 2):
// each entry keeps the settings it was made under, a link writes the runs of steps whose settings
// differ from its last ones (`set=path_from_key:value,…`), and a replay sets them again step by
// step, so every step reopens with the trace its author saw. Only the keys the core reads at a
// step travel this way; the stop conditions (max new tokens, stop sequences) are the path's.
import type { Engine } from "./core";
import type { Params, PathEntry } from "./state";
import { PARAM_LIMITS } from "./state";

/** The settings a step is made under. */
export const STEP_KEYS = [
  "strategy", "engine", "temperature", "top_k", "top_p", "min_p", "typical_p",
  "repetition_penalty", "frequency_penalty", "presence_penalty", "seed", "min_new_tokens",
] as const;
export type StepKey = (typeof STEP_KEYS)[number];
export type StepParams = Partial<Pick<Params, StepKey>>;

/** From token `from` of path `path` (counted from its first generated token) on, these settings differ from the link's. */
export interface ScenarioSettings {
  path: number;
  from: number;
  /** The keys that differ; empty: the link's own settings again. */
  params: StepParams;
}

const ENGINES: readonly Engine[] = ["hf", "llama.cpp", "vllm"];

/** The step keys in which `made` differs from `now`, with `made`'s values. */
export function changes(made: Readonly<Params>, now: Readonly<Params>): StepParams {
  const out: Record<string, unknown> = {};
  for (const key of STEP_KEYS) if (made[key] !== now[key]) out[key] = made[key];
  return out as StepParams;
}

/** Whether two sets of step settings are the same (keys left out or undefined alike). */
export function sameSettings(a: StepParams, b: StepParams): boolean {
  const keys = (x: StepParams): string[] => Object.keys(x).filter((k) => x[k as StepKey] !== undefined);
  return keys(a).length === keys(b).length && keys(a).every((k) => a[k as StepKey] === b[k as StepKey]);
}

/**
 * The runs of path `path`'s tokens from `start` on whose settings differ from `now` (and where they
 * become `now` again): `madeAt(i)` is the settings token i was made under.
 */
export function pathSettings(path: number, length: number, start: number, madeAt: (i: number) => Readonly<Params> | undefined, now: Readonly<Params>): ScenarioSettings[] {
  const out: ScenarioSettings[] = [];
  let current: StepParams = {};
  for (let i = start; i < length; i++) {
    const diff = changes(madeAt(i) ?? now, now);
    if (!sameSettings(diff, current)) out.push({ path, from: i, params: diff });
    current = diff;
  }
  return out;
}

/** The settings entry i was made under. */
export const entryParams = (entries: readonly PathEntry[]) => (i: number): Readonly<Params> | undefined => entries[i]?.params;

/** Token i of path `path` → the settings it differs from the link's by (empty for none). */
export function settingsAt(settings: readonly ScenarioSettings[] | undefined, path: number): (i: number) => StepParams {
  const runs = (settings ?? []).filter((s) => s.path === path).sort((a, b) => a.from - b.from);
  return (i) => {
    let found: StepParams = {};
    for (const run of runs) if (run.from <= i) found = run.params;
    return found;
  };
}

/**
 * Token i → the settings it is made under: `base` with `settings(i)` over it. One object per run of
 * equal settings (`settingsAt` gives a run's own object), `base` itself where nothing differs.
 */
export function paramsAt(base: Params, settings: (i: number) => StepParams): (i: number) => Params {
  const made = new WeakMap<StepParams, Params>();
  return (i) => {
    const over = settings(i);
    if (!STEP_KEYS.some((k) => over[k] !== undefined)) return base;
    let params = made.get(over);
    if (params === undefined) {
      params = { ...base, ...over };
      made.set(over, params);
    }
    return params;
  };
}

/** Whether two steps were made under the same step settings (the stop conditions aside). */
export function sameStepParams(a: Readonly<Params>, b: Readonly<Params>): boolean {
  return a === b || STEP_KEYS.every((k) => a[k] === b[k]);
}

/** `1_3_temperature:0.8,seed:7`. */
export function formatSettings(s: ScenarioSettings): string {
  const pairs = STEP_KEYS.filter((k) => s.params[k] !== undefined).map((k) => `${k}:${String(s.params[k])}`);
  return `${s.path}_${s.from}_${pairs.join(",")}`;
}

/** The inverse of `formatSettings`; null if malformed, a key unknown or a value out of its range. */
export function parseSettings(text: string): ScenarioSettings | null {
  const match = /^(\d{1,4})_(\d{1,5})_(.*)$/s.exec(text);
  if (match === null) return null;
  const params: Record<string, unknown> = {};
  for (const pair of (match[3] ?? "") === "" ? [] : (match[3] ?? "").split(",")) {
    const colon = pair.indexOf(":");
    const key = pair.slice(0, colon);
    const value = pair.slice(colon + 1);
    if (colon < 0 || !(STEP_KEYS as readonly string[]).includes(key) || key in params) return null;
    if (key === "strategy") {
      if (value !== "sample" && value !== "greedy") return null;
      params[key] = value;
    } else if (key === "engine") {
      if (!(ENGINES as readonly string[]).includes(value)) return null;
      params[key] = value;
    } else {
      const limit = PARAM_LIMITS[key as Exclude<StepKey, "strategy" | "engine">];
      const n = value.trim() === "" ? Number.NaN : Number(value);
      if (!Number.isFinite(n) || n < limit.min || n > limit.max || (limit.integer && !Number.isInteger(n))) return null;
      params[key] = n;
    }
  }
  return { path: Number(match[1]), from: Number(match[2]), params: params as StepParams };
}
