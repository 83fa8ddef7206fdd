// What views beyond the playground itself (lessons, projector mode, keyboard, share dialog) may ask
// of the page. main.ts implements it; views receive it and never reach into the page's internals.
import type { StepOutcome } from "./core";
import type { Scenario, ScenarioRequest } from "./scenario";
import type { AppState, Params } from "./state";

/** The next-token distribution of another prompt (the page's own path is untouched). */
export interface Glimpse {
  /** Candidates kept by decoding, most likely first: display text and final probability. */
  kept: Array<{ text: string; p: number }>;
  /** The top candidates by softmax probability `p`; `pTempered` is the distribution the filters
   *  cut (after penalties and temperature), `kept` whether decoding keeps the token. */
  top: Array<{ text: string; p: number; pTempered: number; kept: boolean }>;
  /** How many candidates decoding keeps (may exceed `kept.length`, which is capped by the trace). */
  keptCount: number;
  vocabSize: number;
}

export interface Actions {
  /** Put the page in `scenario`'s exact state (replays its tokens); resolves with any problems. */
  apply(scenario: ScenarioRequest): Promise<string[]>;
  /** The page's state as a complete scenario. */
  snapshot(): Scenario;
  /** One decoding step; false if it could not step (finished, blocked, error). */
  step(): boolean;
  /** One step once an async source (a server) has the next logits; resolves false if it could not. */
  stepReady(): Promise<boolean>;
  /** Drop the last generated token (and its trace). */
  back(): void;
  reset(): void;
  togglePlay(): void;
  /** Read-only view of the state (do not mutate). */
  state(): Readonly<AppState>;
  /** The trace of the next step under the current settings, if any. */
  preview(): StepOutcome | null;
  /** Whether the embedded model is loaded (lessons with the model need it). */
  modelReady(): boolean;
  /** Called after every render. */
  onRender(listener: () => void): void;
  /**
   * The next-token distribution after `prompt` under `params`, beside the path on screen: over the
   * model server when the page is on it (a promise: one request), else on the embedded model (at
   * once); a string says why not.
   */
  glimpse(prompt: string, params: Params): Glimpse | string | Promise<Glimpse | string>;
  /** The connected model server (kept when the page moves to another source), or null. */
  server(): { model: string; url: string } | null;
  /** Back to the connected model server (no new Connect): the prompt and settings stay. */
  useServer(): void;
  /** Display text of a token id in the current source. */
  tokenText(id: number): string;
  /** Change settings as the sidebar's controls do (a lesson's own slider where the sidebar is hidden). */
  setParams(change: Partial<Params>): void;
  /** Set one logit of the hand-made table the next step reads, as the sidebar's table does (误解二's own table). */
  setLogit(id: number, logit: number): void;
  /** Draw the next token `n` times, as the Sample buttons do (hidden in projector mode); counts by token id, or null. */
  sample(n: number): ReadonlyMap<number, number> | null;
}
