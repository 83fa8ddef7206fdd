// Where the logits of the next position come from. The playground (playground/) talks to one
// `LogitsSource` and never to a table, a wasm Generator or an HTTP server directly, so a new source
// is one class. Every source only supplies logits and keeps the context; the choice is always the
// core's `step` (never sampled in TypeScript, never by the source), so every stage, u and the
// trace are the same whatever the source.
//
// Data flows one way: source → step → trace → view. The controller reads `nextLogits()`, runs the
// core on them, and `append`s the id the core chose (or the user forced).
import type { ForcedRecord, StepConfig } from "../core";

/** Which implementation (links and the page's chrome name the source by it). */
export type LogitsSourceKind = "manual" | "model" | "server";

/**
 * How much of the next-token distribution the logits describe.
 * - `full`: every id of the vocabulary has its logit (ids at −∞ are impossible, not unknown).
 * - `top`: only the `listed` ids the source was given carry a value (the others are −∞ in
 *   `logits` because they are unknown, not impossible); the values are log-probabilities over the
 *   whole vocabulary, and `restMass` = 1 − Σ p(listed) is what the unlisted ids share, as the
 *   source reported it, to be shown as one "rest of the vocabulary" candidate, never
 *   renormalised away silently. (A server asked for its top N, or limited to 20.) The Playground
 *   gives it to the core's `step` as `rest_mass` (its trace's `rest` says which p are exact).
 */
export type Known = { kind: "full" } | { kind: "top"; listed: number; restMass: number };

/** The logits of the next position: what the core's `step` reads, and how much of them is known. */
export interface NextLogits {
  /** One value per vocabulary id (length = `vocabSize`); unknown ids (see `known`) are −∞. */
  logits: Float32Array;
  known: Known;
}

/** What appending a token did to the source's text, and (for sources that judge it) whether it stopped. */
export interface Appended {
  /**
   * Text this token completed, for sources that decode bytes (the model, a server that returns
   * `bytes`): a byte token that starts a multi-byte character completes nothing (`""`) and leaves
   * its bytes in `pending`. Undefined for sources whose tokens are whole text (the manual tables).
   */
  piece?: string;
  /** Bytes of a character this token left unfinished (shown on its chip as pending bytes). */
  pending?: number[];
  /**
   * Why generation ends after this token, when the source checks the stop conditions itself (the
   * model does, in wasm, with the limits given to `setLimits`); null: it goes on. Undefined: the
   * source does not judge, and the playground checks eos, stop sequences on `text()` and
   * max_new_tokens itself.
   */
  stop?: SourceStop | null;
}

/** A stop as a source reports it (the generator's names). */
export type SourceStop =
  | { kind: "eos" }
  | { kind: "max_tokens" }
  | { kind: "stop_sequence"; sequence: string }
  | { kind: "user" }
  | { kind: "context_full" };

/** What a source can do beyond the common members; the page hides what a source cannot offer. */
export interface Capabilities {
  /**
   * The prompt is read into token ids by the source (the model's tokenizer, a server's
   * /tokenize), so the prompt box drives the logits. False for the hand-made tables: there the
   * prompt is a caption and `reset` ignores it.
   */
  tokenizesText: boolean;
  /**
   * Tokens have stable integer ids that the source takes back (`append`, links, `trace_ids`,
   * Find a token). False for a server that answers with token strings only (Ollama): then links
   * cannot carry ids and the page says so instead of guessing.
   */
  hasIds: boolean;
  /**
   * `nextLogits()` may be null: the logits arrive asynchronously (over fetch), so the page shows
   * a pending state and calls `loadNextLogits()`. False: `nextLogits()` never returns null.
   */
  async: boolean;
}

export interface LogitsSource {
  readonly kind: LogitsSourceKind;
  readonly capabilities: Capabilities;

  /** Number of token ids (the length of every `logits` array; ids a link may carry are below it). */
  readonly vocabSize: number;
  /** The end-of-sequence id, if the vocabulary has one (min_new_tokens holds it back, its chip says "end"). */
  readonly eosId: number | undefined;
  /**
   * The source's tokenizer read the prompt's text into the end token itself (llama.cpp's parses
   * special tokens, so a typed "</s>" becomes it); the embedded model's never does.
   */
  readonly promptHoldsEnd?: boolean;

  /**
   * Start over from `prompt`: drops every appended token. Rejects with a message when the prompt
   * cannot be read (too long, unreachable server); `promptError` keeps that message for the page,
   * which then shows it and offers no step.
   */
  reset(prompt: string): Promise<void>;
  /** Why the last `reset` failed, or null (the page blocks stepping while it is set). */
  readonly promptError: string | null;

  /**
   * The logits for the position after the prompt and every appended token, if known now. A
   * synchronous source always returns them (cheap enough to call on every redraw); an async one
   * returns null until `loadNextLogits()` has resolved for the current context.
   */
  nextLogits(): NextLogits | null;
  /**
   * Fetch the logits for the current context (the server's request); resolves with them, rejects
   * with a message. If the context changes before it resolves, the result is for the old context:
   * the caller asks `nextLogits()` again. A call while a request for the same context is in flight
   * returns that request's promise (the page may ask on every redraw); a call while `reset` is
   * still reading the prompt waits for it. Synchronous sources resolve at once.
   */
  loadNextLogits(): Promise<NextLogits>;

  /** Append a token (the core's choice or a forced one); throws if the source refuses it. */
  append(id: number): Appended;
  /**
   * The tokens about to be appended, in order (a link or lesson replaying its path): a source may
   * run its model over all of them at once, then serve `nextLogits` and `append` of each from that
   * run. Appending another id, or any other call that changes the context, drops the rest. With
   * `config` (the first token's step config) the core may also be run at each position then.
   */
  prefill?(ids: readonly number[], config?: StepConfig): void;
  /**
   * The core's record of appending `id` next under `config`, if a prefill made it under that very
   * config (`recordAt`), else null: the step is then taken in full.
   */
  recorded?(id: number, config: StepConfig): ForcedRecord | null;
  /** Remove the last `n` appended tokens, exactly (the logits are those before them again). */
  rewind(n: number): void;
  /**
   * Make the appended tokens exactly `ids` (switching to another path). A source keeps the
   * tokens it already shares with `ids` (the model's KV cache, a server's prompt cache), so only
   * the rest is run again; limits are off while it does.
   */
  load(ids: readonly number[]): void;

  /** How many tokens have been appended since `reset`. */
  readonly length: number;
  /** Every id of the context, prompt first (penalties and min_new_tokens read it). */
  history(): number[];
  /** How many leading `history()` ids are prompt. */
  promptLength(): number;

  /** Display text of one token (a byte token as `<E4>`; may be part of a character). */
  tokenText(id: number): string;
  /** Text of the appended tokens (complete characters only), where stop sequences are looked for. */
  text(): string;
  isEos(id: number): boolean;
  /** The id of a token the user typed (its display text, `␣` for a space, `<E4>` for a byte), if any. */
  idOf(text: string): number | undefined;

  /**
   * Limits a source that judges stops itself applies (see `Appended.stop`); others ignore them.
   */
  setLimits(maxNewTokens: number, stopSequences: readonly string[]): void;
  /**
   * The page stopped (the user's Stop, or a stopped path put on screen): a source that refuses to
   * append after a stop is told so. `resume` clears such a stop without changing any token.
   */
  stop(): void;
  resume(): void;
}

/** The logits of a synchronous source, or an error if it is async (for code paths that are sync-only). */
export function syncLogits(source: LogitsSource): NextLogits {
  const next = source.nextLogits();
  if (next === null) throw new Error(`the ${source.kind} source has no logits yet`);
  return next;
}
