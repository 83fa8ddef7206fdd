// Replaying a link's tokens. `stepRecording` is one step that also gives a token's record (a forced
// token outside the listed candidates too). `Backfill` rebuilds the paths of a long link that are not
// on screen after the page is ready, a few milliseconds per turn of the event loop, with a
// `PathFiller` on a Generator of its own (the page's holds the path on screen): opening a link costs
// the path shown, not every path. The filler does what the page's own replay does (the model runs
// over the next tokens at once, `forceMany`, then one step per token on the logits it gave) under
// the settings each token was made under (the link's, and its `set=` runs), so each path gets the
// entries it had when it was made; the core's records
// come with the model's run, and each entry's full trace is made when first read. An entry keeps
// no logits: they are made again when read (path-logits.ts), so the paths not on screen hold their
// records, not 32 KB of logits per token.
import type { ForcedTokens, GeneratedToken, Generator, StepConfig } from "./core";
import type { PathLogits } from "./path-logits";
import { pathEntry, recordAt, recordedStep, stepRecording } from "./recorded-step";
import type { RecordedStep } from "./recorded-step";
import { stepConfig } from "./state";
import type { Params, PathEntry } from "./state";
import type { ScenarioToken } from "./scenario";
import { paramsAt, sameStepParams } from "./step-settings";
import type { StepParams } from "./step-settings";

/** One path to rebuild: every token from the first generated one, and whether it was forced. */
export interface PathTokens {
  ids: number[];
  forced: boolean[];
  /** Token i → the settings it was made under beyond the link's (none: the link's alone). */
  settings?: (i: number) => StepParams;
}

/** Token i → no settings beyond the link's. */
const NONE = (): StepParams => ({});

/** A path rebuilt: its entries, what the generator said of its last token, and why it ends early if it does. */
export interface FilledPath {
  entries: PathEntry[];
  last: GeneratedToken | null;
  error: string | null;
}

/** Tokens the model runs over at once while filling a path (one batched forward pass, a few ms). */
const FILL_CHUNK = 8;

/** Rebuilds paths one after another on `gen` (which nothing else may use), within a time budget per call. */
export class PathFiller {
  /** The tokens `gen` holds beyond the prompt, as entries: the path being (or last) filled. */
  private entries: PathEntry[] = [];
  /**
   * The next few tokens of the path, already run through the model and the core (`forceMany` under
   * `config`, the first one's step config); `used` of them are entries.
   */
  private ahead: { run: ForcedTokens; used: number; config: StepConfig } | null = null;
  private last: GeneratedToken | null = null;
  private started = false;

  private readonly gen: Generator;
  private readonly prompt: string;
  private readonly params: Params;
  /** Where an entry's logits come from when read (made again, not kept). */
  private readonly logits: PathLogits;
  /** The path being filled (its ids: what an entry's logits are made again from). */
  private path: readonly number[] = [];
  /** Token i of the path being filled → the settings it is made under. */
  private paramsOf: (i: number) => Params;

  constructor(gen: Generator, prompt: string, params: Params, logits: PathLogits) {
    this.gen = gen;
    this.prompt = prompt;
    this.params = params;
    this.logits = logits;
    this.paramsOf = () => params;
  }

  /** Start `path`, keeping the tokens (and entries) it shares with what `gen` holds. */
  begin(path: PathTokens): void {
    if (!this.started) {
      this.gen.setPrompt(this.prompt);
      this.gen.setMaxNewTokens(this.params.max_new_tokens);
      this.gen.setStopSequences([...this.params.stop]);
      this.started = true;
    }
    const paramsOf = paramsAt(this.params, path.settings ?? NONE);
    // a token kept is the same token, forced alike, made under the same settings
    const keeps = (i: number): boolean => {
      const entry = this.entries[i];
      return entry !== undefined && entry.id === path.ids[i] && entry.forced === (path.forced[i] ?? false) && sameStepParams(entry.params ?? this.params, paramsOf(i));
    };
    let shared = 0;
    while (shared < this.entries.length && shared < path.ids.length && keeps(shared)) shared++;
    // rewinding (even by 0) also clears a stop; tokens run ahead and not used go too
    const unused = this.ahead === null ? 0 : this.ahead.run.tokens.length - this.ahead.used;
    this.ahead = null;
    this.gen.rewind(this.entries.length - shared + unused);
    this.entries = this.entries.slice(0, shared);
    this.last = null;
    this.path = [...path.ids];
    this.paramsOf = paramsOf;
  }

  /**
   * Replays `path` on from where it was left until `deadline` (performance.now()): the filled path
   * once every token is in or one is refused, else null (call again).
   */
  fill(path: PathTokens, deadline: number): FilledPath | null {
    while (this.entries.length < path.ids.length) {
      if (performance.now() > deadline) return null;
      const at = this.entries.length;
      if (this.ahead === null) {
        const config = this.configHere(0);
        // the tokens run at once share their settings (the core runs at each under the first's)
        const under = this.paramsOf(at);
        let end = at + 1;
        while (end < at + FILL_CHUNK && end < path.ids.length && this.paramsOf(end) === under) end++;
        const run = this.runAhead(path.ids.slice(at, end), config);
        if (typeof run === "string") return this.done(run);
        this.ahead = { run, used: 0, config };
      }
      const error = this.append(path.ids[at] ?? 0, path.forced[at] ?? false, this.ahead);
      if (error !== null) return this.done(error);
      if (this.last?.stop != null && this.entries.length < path.ids.length) return this.done(`generation stopped (${this.last.stop})`);
    }
    return this.done(null);
  }

  /**
   * The step config of the next token (under the settings it was made under), `unused` tokens the
   * generator holds not counted.
   */
  private configHere(unused: number): StepConfig {
    const tokens = this.gen.tokens();
    const history = Array.from(tokens.subarray(0, tokens.length - unused));
    // the end id too, as the page's own steps (Playground.config): min_new_tokens holds it back
    return stepConfig(this.paramsOf(this.entries.length), history, this.gen.promptLength, this.entries.length, this.gen.eosId);
  }

  /**
   * The model over `ids` at once, and the core at each position (`config` the first's); if that
   * is refused, the model alone over the first (so the refusal names that token, or the step names
   * the config).
   */
  private runAhead(ids: number[], config: StepConfig): ForcedTokens | string {
    try {
      return this.gen.forceMany(Uint32Array.from(ids), config);
    } catch {
      // said below: the model's refusal of the first token, else the core's of the config (`append`)
    }
    try {
      return this.gen.forceMany(Uint32Array.from(ids.slice(0, 1)));
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    }
  }

  private done(error: string | null): FilledPath {
    return { entries: [...this.entries], last: this.last, error };
  }

  /**
   * Append `id`, which `ahead` has already run through the model (its logits and output are
   * there) and, under the same config, through the core (its record, when `forceMany` made one).
   */
  private append(id: number, forced: boolean, ahead: { run: ForcedTokens; used: number; config: StepConfig }): string | null {
    const { run, used } = ahead;
    const out: GeneratedToken | undefined = run.tokens[used];
    // (forceMany ends at a stop; `fill` ends the path there first)
    if (out === undefined || out.token !== id) return `token ${id} could not be appended`;
    const vocab = run.logits.length / run.tokens.length;
    const config = this.configHere(run.tokens.length - used);
    // the entry's logits are made again when read (the same bits: the model over the same tokens)
    const input = this.logits.input(this.path, this.entries.length, config);
    const record = recordAt(run, ahead.config, used, config);
    let next: RecordedStep | string;
    if (record === null) {
      const step = stepRecording(run.logits.slice(used * vocab, (used + 1) * vocab), config, id);
      next = typeof step === "string" ? step : { ...step, input };
    } else next = recordedStep(input, id, record, vocab);
    if (typeof next === "string") return next;
    ahead.used += 1;
    if (ahead.used === run.tokens.length) this.ahead = null;
    this.last = out;
    this.entries.push(pathEntry(id, next, forced || next.token !== id, out, this.paramsOf(this.entries.length)));
    return null;
  }
}

/** What the page does with a rebuilt path, and with a generator that refuses outright. */
export interface BackfillHooks {
  /** Path `index` is in (`filled.error` if it ends early); `given` is its tokens as the link gave them. */
  onFilled(index: number, filled: FilledPath, given: ScenarioToken[]): void;
  onError(message: string): void;
}

/** The waiting paths of a link, rebuilt a few milliseconds per turn of the event loop until `stop`. */
export class Backfill {
  /** Path index → its tokens (ids), for the paths not rebuilt yet; the link the page writes reads them. */
  readonly waiting: Map<number, ScenarioToken[]>;
  /** Made on first use, so that making its Generator is not part of opening the link. */
  private filler: PathFiller | null = null;
  private readonly makeFiller: () => PathFiller;
  private readonly hooks: BackfillHooks;
  private current: { index: number; path: PathTokens } | null = null;
  private stopped = false;
  /** The link's settings, which every waiting path was made under (with its `set=` runs over them). */
  readonly params: Params;
  /** Path index → its tokens' settings beyond the link's (the link's `set=` runs for that path). */
  private readonly settingsOf: (index: number) => (i: number) => StepParams;

  constructor(makeFiller: () => PathFiller, waiting: Map<number, ScenarioToken[]>, hooks: BackfillHooks, params: Params, settingsOf: (index: number) => (i: number) => StepParams = () => NONE) {
    this.params = params;
    this.settingsOf = settingsOf;
    this.makeFiller = makeFiller;
    this.waiting = waiting;
    this.hooks = hooks;
  }

  /** Token i of waiting path `index` → the settings it was made under (for the link the page writes meanwhile). */
  paramsOf(index: number): (i: number) => Params {
    return paramsAt(this.params, this.settingsOf(index));
  }

  start(): void {
    window.setTimeout(() => this.tick(), 0);
  }

  /** Forget the waiting paths (the page moved on: a new link, a reset). */
  stop(): void {
    this.stopped = true;
  }

  /** Rebuild path `index` now, if it is still waiting (the user opened it). */
  finish(index: number): void {
    if (this.stopped) return;
    try {
      this.run(index, Number.POSITIVE_INFINITY);
    } catch (err) {
      this.fail(err);
    }
  }

  private tick(): void {
    if (this.stopped) return;
    const deadline = performance.now() + 12;
    try {
      while (performance.now() < deadline) {
        const index = this.current?.index ?? [...this.waiting.keys()][0];
        if (index === undefined) return;
        if (!this.run(index, deadline)) break;
      }
    } catch (err) {
      return this.fail(err);
    }
    window.setTimeout(() => this.tick(), 0);
  }

  /** Go on with path `index` until `deadline`; true once it is in (or was not waiting). */
  private run(index: number, deadline: number): boolean {
    const given = this.waiting.get(index);
    if (given === undefined) return true;
    this.filler ??= this.makeFiller();
    if (this.current?.index !== index) {
      this.current = { index, path: { ids: given.map((token) => token.token as number), forced: given.map((token) => token.forced), settings: this.settingsOf(index) } };
      this.filler.begin(this.current.path);
    }
    const filled = this.filler.fill(this.current.path, deadline);
    if (filled === null) return false;
    this.current = null;
    this.waiting.delete(index);
    this.hooks.onFilled(index, filled, given);
    return true;
  }

  /** The generator refused outright: the waiting paths stay as the link gave them. */
  private fail(err: unknown): void {
    this.stopped = true;
    this.current = null;
    this.hooks.onError(err instanceof Error ? err.message : String(err));
  }
}
