// The embedded model as a logits source: a wasm `Generator` (weights + tokenizer + KV cache). The
// page reads its logits, chooses with the core's `step` and appends the id (`force`, which runs the
// model over it and checks the stop conditions in Rust); rewinding is exact.
import { messageOf } from "../core";
import type { GeneratedToken, Generator } from "../core";
import { isByteToken, tokenLabel } from "../format";
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
  /** Display text by id (byte tokens as `<E4>`). */
  private readonly labels: string[];
  private readonly raw: string[];
  private readonly lookup = new Map<string, number>();
  readonly eosId: number | undefined;
  promptError: string | null = null;
  private limits: { maxNewTokens: number; stop: readonly string[] } = { maxNewTokens: 0xffffffff, stop: [] };

  /** Makes another Generator from the same loaded bytes (for side-by-side comparisons). */
  private readonly spawn: (() => Generator) | null;

  constructor(gen: Generator, spawn: (() => Generator) | null = null) {
    this.gen = gen;
    this.spawn = spawn;
    this.raw = gen.vocab();
    this.labels = this.raw.map(tokenLabel);
    this.raw.forEach((entry, id) => {
      this.lookup.set(entry, id);
      this.lookup.set(tokenLabel(entry), id);
    });
    this.eosId = gen.eosId;
  }

  get length(): number {
    return this.gen.tokens().length - this.gen.promptLength;
  }

  /** A separate Generator over the same weights and tokenizer (its own KV cache), or null. */
  spawnGenerator(): Generator | null {
    return this.spawn === null ? null : this.spawn();
  }

  get vocabSize(): number {
    return this.raw.length;
  }

  async reset(prompt: string): Promise<void> {
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
    return { logits: this.gen.logits(), known: { kind: "full" } };
  }

  async loadNextLogits(): Promise<NextLogits> {
    return this.nextLogits();
  }

  /** Runs the model over `id`; the generator checks eos, stop sequences, max_new_tokens and the context. */
  append(id: number): Appended {
    const out = this.gen.force(id);
    return { piece: out.piece, pending: out.pending, stop: generatedStop(out) };
  }

  rewind(n: number): void {
    this.gen.rewind(n);
  }

  /** Clear a stop (the generator refuses to append after one) without changing any token. */
  resume(): void {
    this.gen.rewind(0);
  }

  /** The user's stop. */
  stop(): void {
    this.gen.stop();
  }

  setLimits(maxNewTokens: number, stopSequences: readonly string[]): void {
    this.limits = { maxNewTokens, stop: [...stopSequences] };
    this.gen.setMaxNewTokens(maxNewTokens);
    this.gen.setStopSequences([...stopSequences]);
  }

  /**
   * Replace every generated token by `ids` (forced in order, limits off while replaying). The tokens
   * it already shares with `ids` are kept (rewinding is exact), so the model runs only over the rest.
   */
  load(ids: readonly number[]): void {
    const generated = this.gen.tokens().subarray(this.gen.promptLength);
    let shared = 0;
    while (shared < ids.length && shared < generated.length && ids[shared] === generated[shared]) shared++;
    // rewinding (even by 0) also clears a stop
    this.gen.rewind(generated.length - shared);
    this.gen.setMaxNewTokens(0xffffffff);
    this.gen.setStopSequences([]);
    try {
      for (const id of ids.slice(shared)) this.gen.force(id);
    } finally {
      this.setLimits(this.limits.maxNewTokens, this.limits.stop);
    }
  }

  history(): number[] {
    return Array.from(this.gen.tokens());
  }

  promptLength(): number {
    return this.gen.promptLength;
  }

  tokenText(id: number): string {
    return this.labels[id] ?? "";
  }

  /** The vocabulary entry as stored (`<0xE4>`, `</s>`). */
  rawText(id: number): string {
    return this.raw[id] ?? "";
  }

  isByte(id: number): boolean {
    return isByteToken(this.raw[id] ?? "");
  }

  text(): string {
    return this.gen.text();
  }

  isEos(id: number): boolean {
    return id === this.eosId;
  }

  idOf(text: string): number | undefined {
    return this.lookup.get(text) ?? this.lookup.get(text.replace(/␣/g, " ")) ?? this.lookup.get(text.toUpperCase());
  }
}
