// A scenario is everything that puts the page in one exact state: the input, every decoding
// parameter and the seed, the generated tokens of every path, and the page's lesson and modes.
// The URL, the lessons and the <nexttoken-playground> element all describe the page this way, and
// playground/scenarios.ts's `applyScenario` is the one place that enacts a scenario (by replaying its tokens through the core).
import type { Lang } from "./i18n/index";
import type { Params, SourceKind } from "./state";
import type { ScenarioSettings } from "./step-settings";

/** One generated token: the core chose it (`forced: false`) or the user forced it. */
export interface ScenarioToken {
  /** Token id, or (lessons only) the token's display text, looked up in the source's vocabulary. */
  token: number | string;
  forced: boolean;
}

/** A path kept after forcing a token: it leaves path `parent` at step `forkAt` (its own tokens follow). */
export interface ScenarioBranch {
  parent: number;
  forkAt: number;
  tokens: ScenarioToken[];
}

export interface Scenario {
  source: SourceKind;
  /** The manual tables (and, unless `prompt` says otherwise, the prompt). */
  presetId: string;
  prompt: string;
  params: Params;
  /** Tokens of the first path. */
  path: ScenarioToken[];
  /** Every later path, in the order they were made. */
  branches: ScenarioBranch[];
  /** The path on screen (0 = the first). */
  current: number;
  /** The path on screen ended with the user's Stop. */
  stopped: boolean;
  /** A past step being inspected (0-based), or null for the next step. */
  viewing: number | null;
  /** Manual logits only: the preset's tables as edited (the rest are as the preset has them). */
  tables: ScenarioTable[];
  /** Steps made under other settings than `params` (runs of them, by path); none: all under `params`. */
  settings?: ScenarioSettings[];
}

/** One edited hand-made table: its index in the preset and its rows (token, logit). */
export interface ScenarioTable {
  index: number;
  rows: Array<{ token: string; logit: number }>;
}

/** A scenario as a lesson or a link asks for it: anything left out takes its default. */
export type ScenarioRequest = Partial<Omit<Scenario, "params">> & { params?: Partial<Params> };

/** The page around the scenario: language, lesson open, projector and embed modes. */
export interface PageModes {
  lang: Lang;
  lesson: string | null;
  projector: boolean;
  embed: boolean;
  /** The model server a `source=server` link names (never connected to without a click). */
  server?: { url: string; api: "llama.cpp" | "openai" | null };
}
