// The embedded model as a logits source: a wasm `Generator` (weights + tokenizer + KV cache). The
// page reads its logits, chooses with the core's `step` and appends the id (`force`, which runs the
// model over it and checks the stop conditions in Rust); rewinding is exact.
import { messageOf } from "../core";
import type { ForcedRecord, ForcedTokens, GeneratedToken, Generator, StepConfig } from "../core";
import { recordAt } from "../recorded-step";
import { byteName, isByteToken, tokenLabel } from "../format";
import type { Appended, Capabilities, LogitsSource, NextLogits, SourceStop } from "./logits-source";

/** The generator's stop name as a source's stop. */
export function generatedStop(out: GeneratedToken): SourceStop | null {
  switch (out.stop) {
    case null:
      return null;
    case "eos":
      return { kind: "eos" };
    case "max_new_tokens":
      return { kind: "max_tokens" };
    case "stop_sequence":
      return { kind: "stop_sequence", sequence: out.stop_sequence ?? "" };
    case "user":
      return { kind: "user" };
    case "context_full":
      return { kind: "context_full" };
  }
}

export class ModelSource implements LogitsSource {
  readonly kind = "model";
  /** The tokenizer reads the prompt; logits are in wasm memory, a copy away. */
  readonly capabilities: Capabilities = { tokenizesText: true, hasIds: true, async: false };
  private readonly gen: Generator;
  /** Display text by id (byte tokens as `<E4>`), made when first asked for. */
  private readonly labels: Array<string | undefined>;
  private readonly raw: string[];
  /** Text (stored or displayed) → id, built on the first lookup: opening the page needs none. */
  private lookup: Map<string, number> | null = null;
  readonly eosId: number | undefined;
  promptError: string | null = null;
  private limits: { maxNewTokens: number; stop: readonly string[] } = { maxNewTokens: 0xffffffff, stop: [] };
  /**
   * A prefill the generator has already run (`forceMany`, with the core under `config`, the first
   * token's step config, or null): its tokens are in the generator, but only the first `used` are
   * appended as far as the page knows; the rest wait for `append`.
   */
  private ahead: { run: ForcedTokens; used: number; config: StepConfig | null } | null = null;

  /** Makes another Generator from the same loaded bytes (for side-by-side comparisons). */
  private readonly spawn: (() => Generator) | null;

  constructor(gen: Generator, spawn: (() => Generator) | null = null) {
    this.gen = gen;
    this.spawn = spawn;
    this.raw = gen.vocab();
    this.labels = new Array<string | undefined>(this.raw.length);
    this.eosId = gen.eosId;
  }

  get length(): number {
    return this.gen.tokens().length - this.gen.promptLength - this.unused();
  }

  /** Tokens the generator holds beyond what was appended (a prefill not used up yet). */
  private unused(): number {
    return this.ahead === null ? 0 : this.ahead.run.tokens.length - this.ahead.used;
  }

  /** Drop what is left of a prefill: the generator is back at the tokens appended (exactly). */
  private settle(): void {
    const left = this.unused();
    this.ahead = null;
    // rewinding clears a stop, but only the last token of a prefill can carry one, and it is dropped here
    if (left > 0) this.gen.rewind(left);
  }

  /**
   * Runs the model over `ids` at once (one batched forward pass), ending at the first stop, and
   * with `config` the core at each position (`recorded`).
   */
  prefill(ids: readonly number[], config?: StepConfig): void {
    this.settle();
    if (ids.length === 0 || this.gen.stopped != null) return;
    try {
      const run = config === undefined ? this.gen.forceMany(Uint32Array.from(ids)) : this.gen.forceMany(Uint32Array.from(ids), config);
      this.ahead = { run, used: 0, config: config ?? null };
    } catch {
      // a refused list or config changes nothing: the tokens go one by one, and what is refused is named there
      this.ahead = null;
    }
  }

  recorded(id: number, config: StepConfig): ForcedRecord | null {
    const ahead = this.ahead;
    if (ahead === null || ahead.config === null || ahead.run.tokens[ahead.used]?.token !== id) return null;
    return recordAt(ahead.run, ahead.config, ahead.used, config);
  }

  /** A separate Generator over the same weights and tokenizer (its own KV cache), or null. */
  spawnGenerator(): Generator | null {
    return this.spawn === null ? null : this.spawn();
  }

  get vocabSize(): number {
    return this.raw.length;
  }

  async reset(prompt: string): Promise<void> {
    this.ahead = null;
    try {
      this.gen.setPrompt(prompt);
      this.promptError = null;
    } catch (err) {
      this.promptError = messageOf(err);
      throw err;
    }
  }

  /** The whole vocabulary's logits (a copy out of wasm memory). */
  nextLogits(): NextLogits {
    const ahead = this.ahead;
    if (ahead !== null && ahead.used < ahead.run.tokens.length) {
      const v = this.raw.length;
      // a view, not a copy: the run's rows are made once and never written. A replayed path keeps
      // its rows either way (its entries' inputs); a prefill cut short keeps its whole run alive
      // while an entry's view of it does
      return { logits: ahead.run.logits.subarray(ahead.used * v, (ahead.used + 1) * v), known: { kind: "full" } };
    }
    return { logits: this.gen.logits(), known: { kind: "full" } };
  }

  async loadNextLogits(): Promise<NextLogits> {
    return this.nextLogits();
  }

  /** Runs the model over `id`; the generator checks eos, stop sequences, max_new_tokens and the context. */
  append(id: number): Appended {
    const ahead = this.ahead;
    const next = ahead?.run.tokens[ahead.used];
    let out: GeneratedToken;
    if (ahead !== null && next !== undefined && next.token === id) {
      ahead.used += 1;
      if (ahead.used === ahead.run.tokens.length) this.ahead = null;
      out = next;
    } else {
      this.settle();
      out = this.gen.force(id);
    }
    return { piece: out.piece, pending: out.pending, stop: generatedStop(out) };
  }

  rewind(n: number): void {
    this.settle();
    this.gen.rewind(n);
  }

  /** Clear a stop (the generator refuses to append after one) without changing any token. */
  resume(): void {
    this.settle();
    this.gen.rewind(0);
  }

  /** The user's stop. */
  stop(): void {
    this.settle();
    this.gen.stop();
  }

  setLimits(maxNewTokens: number, stopSequences: readonly string[]): void {
    this.settle();
    this.limits = { maxNewTokens, stop: [...stopSequences] };
    this.gen.setMaxNewTokens(maxNewTokens);
    this.gen.setStopSequences([...stopSequences]);
  }

  /**
   * Replace every generated token by `ids` (forced in order, limits off while replaying). The tokens
   * it already shares with `ids` are kept (rewinding is exact), so the model runs only over the rest.
   */
  load(ids: readonly number[]): void {
    this.settle();
    const generated = this.gen.tokens().subarray(this.gen.promptLength);
    let shared = 0;
    while (shared < ids.length && shared < generated.length && ids[shared] === generated[shared]) shared++;
    // rewinding (even by 0) also clears a stop
    this.gen.rewind(generated.length - shared);
    this.gen.setMaxNewTokens(0xffffffff);
    this.gen.setStopSequences([]);
    try {
      // one batched forward pass (switching to a path of 127 tokens: one call, not 127); what it
      // did not append (a stop, or a refused id: nothing appended) goes one by one, so a token
      // that cannot follow is refused by `force` as before
      const rest = ids.slice(shared);
      let appended = 0;
      if (rest.length > 1) {
        try {
          appended = this.gen.forceMany(Uint32Array.from(rest)).tokens.length;
        } catch {
          appended = 0;
        }
      }
      for (const id of rest.slice(appended)) this.gen.force(id);
    } finally {
      this.setLimits(this.limits.maxNewTokens, this.limits.stop);
    }
  }

  history(): number[] {
    const tokens = this.gen.tokens();
    return Array.from(tokens.subarray(0, tokens.length - this.unused()));
  }

  promptLength(): number {
    return this.gen.promptLength;
  }

  tokenText(id: number): string {
    const entry = this.raw[id];
    if (entry === undefined) return "";
    return (this.labels[id] ??= tokenLabel(entry));
  }

  /** The vocabulary entry as stored (`<0xE4>`, `</s>`). */
  rawText(id: number): string {
    return this.raw[id] ?? "";
  }

  isByte(id: number): boolean {
    return isByteToken(this.raw[id] ?? "");
  }

  text(): string {
    this.settle();
    return this.gen.text();
  }

  isEos(id: number): boolean {
    return id === this.eosId;
  }

  idOf(text: string): number | undefined {
    const lookup = this.lookup ?? this.buildLookup();
    return lookup.get(text) ?? lookup.get(text.replace(/␣/g, " ").replace(/↵/g, "\n").replace(/⇥/g, "\t")) ?? lookup.get(text.toUpperCase());
  }

  private buildLookup(): Map<string, number> {
    const lookup = new Map<string, number>();
    this.raw.forEach((entry, id) => {
      lookup.set(entry, id);
      lookup.set(this.tokenText(id), id);
      // a byte token also as `<0A>`, though its label is the character it stands for (↵)
      const short = byteName(entry);
      if (short !== null) lookup.set(short, id);
    });
    this.lookup = lookup;
    return lookup;
  }
}
