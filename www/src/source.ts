// Where logits come from. The page only talks to a `Source`, so the hand-made tables and the
// embedded language model are interchangeable; neither one ever samples in TypeScript (the model's
// `next` runs the core's `step` inside wasm).
import { createGenerator, messageOf } from "./core";
import type { GeneratedToken, Generator, StepConfig } from "./core";
import { isByteToken, tokenLabel } from "./format";
import type { ModelFiles } from "./payload";
import type { LogitTable, ManualPreset } from "./presets";

export interface Source {
  readonly kind: "manual" | "model";
  /** Start over from `prompt`: drops every appended token. */
  reset(prompt: string): Promise<void>;
  /** Logits for the next token after the prompt and every appended token (length = vocabulary). */
  logits(): Float32Array;
  /** Append the chosen token to the context. */
  append(id: number): void;
  /** Remove the last appended token. */
  rewind(): void;
  /** How many tokens have been appended since `reset`. */
  readonly length: number;
  /** Token ids seen so far, prompt first (for repetition penalties). */
  history(): number[];
  /** How many leading `history()` ids are prompt. */
  promptLength(): number;
  /** Display text of one token (may be a partial character for byte tokens). */
  tokenText(id: number): string;
  /** Text of the appended tokens (complete characters only), for stop sequences. */
  text(): string;
  /** Whether choosing `id` ends generation (end-of-sequence). */
  isEos(id: number): boolean;
  /** The end-of-sequence id, if the vocabulary has one. */
  readonly eosId: number | undefined;
  /** The id of a token typed by the user (its display text, or `<E4>` for a byte), if any. */
  idOf(text: string): number | undefined;
}

/** Editable rows of the table the next step reads. */
export interface TableRow {
  token: string;
  logit: number;
}

/**
 * Hand-made logits: each table scores a few tokens after a given last token; tokens absent from
 * the table get −∞, so they are impossible. It is a lookup, not a model, and the page says so.
 */
export class ManualSource implements Source {
  readonly kind = "manual";
  private readonly vocab: string[] = [];
  private readonly ids = new Map<string, number>();
  private readonly tables: Array<{ after: LogitTable["after"]; rows: TableRow[] }>;
  private readonly appended: number[] = [];
  readonly eosId: number;
  readonly preset: ManualPreset;

  constructor(preset: ManualPreset) {
    this.preset = preset;
    this.tables = preset.tables.map((table) => ({
      after: table.after,
      rows: table.rows.map(([token, logit]) => ({ token, logit })),
    }));
    for (const table of this.tables) for (const row of table.rows) this.intern(row.token);
    this.eosId = this.intern(preset.eos);
  }

  get length(): number {
    return this.appended.length;
  }

  /** The prompt does not change a hand-made table; only the appended tokens are dropped. */
  async reset(_prompt: string): Promise<void> {
    this.appended.length = 0;
  }

  /** Index of the table that scores the next token. */
  tableIndex(): number {
    const last = this.appended.at(-1);
    const lastText = last === undefined ? null : this.tokenText(last);
    const exact = this.tables.findIndex((table) =>
      lastText === null ? table.after === null : Array.isArray(table.after) && table.after.includes(lastText),
    );
    if (exact >= 0 || lastText === null) return exact;
    return this.tables.findIndex((table) => table.after === "*");
  }

  /** The rows the next step reads (a copy). */
  currentRows(): TableRow[] {
    return (this.tables[this.tableIndex()]?.rows ?? []).map((row) => ({ ...row }));
  }

  /** Replace the rows the next step reads; new tokens join the vocabulary. */
  setCurrentRows(rows: readonly TableRow[]): void {
    const table = this.tables[this.tableIndex()];
    if (table === undefined) return;
    table.rows = rows.map((row) => ({ ...row }));
    for (const row of rows) this.intern(row.token);
  }

  /** The tables whose rows differ from the preset's (what a link must carry), by index. */
  edits(): Array<{ index: number; rows: TableRow[] }> {
    const out: Array<{ index: number; rows: TableRow[] }> = [];
    this.tables.forEach((table, index) => {
      const original = this.preset.tables[index]?.rows ?? [];
      const same = table.rows.length === original.length && table.rows.every((row, i) => row.token === original[i]?.[0] && row.logit === original[i]?.[1]);
      if (!same) out.push({ index, rows: table.rows.map((row) => ({ ...row })) });
    });
    return out;
  }

  /** Replace table `index`'s rows (a link's edit); false if there is no such table. */
  setRows(index: number, rows: readonly TableRow[]): boolean {
    const table = this.tables[index];
    if (table === undefined) return false;
    table.rows = rows.map((row) => ({ ...row }));
    for (const row of rows) this.intern(row.token);
    return true;
  }

  logits(): Float32Array {
    const out = new Float32Array(this.vocab.length).fill(Number.NEGATIVE_INFINITY);
    for (const row of this.tables[this.tableIndex()]?.rows ?? []) {
      const id = this.ids.get(row.token);
      if (id !== undefined) out[id] = row.logit;
    }
    return out;
  }

  append(id: number): void {
    this.appended.push(id);
  }

  rewind(): void {
    this.appended.pop();
  }

  history(): number[] {
    return [...this.appended];
  }

  promptLength(): number {
    return 0;
  }

  tokenText(id: number): string {
    return this.vocab[id] ?? "";
  }

  text(): string {
    return this.appended.filter((id) => !this.isEos(id)).map((id) => this.tokenText(id)).join("");
  }

  isEos(id: number): boolean {
    return id === this.eosId;
  }

  idOf(text: string): number | undefined {
    return this.ids.get(text) ?? this.ids.get(text.replace(/␣/g, " "));
  }

  private intern(token: string): number {
    const known = this.ids.get(token);
    if (known !== undefined) return known;
    this.vocab.push(token);
    this.ids.set(token, this.vocab.length - 1);
    return this.vocab.length - 1;
  }
}

/**
 * The embedded model: a wasm `Generator` (weights + tokenizer + KV cache). It chooses tokens with
 * `next(config)` (logits → the core's `step` → append, stop conditions checked in Rust), `force`s a
 * token for branching and `rewind`s exactly. `logits()` lets the page re-run `step` under other
 * settings without appending.
 */
export class ModelSource implements Source {
  readonly kind = "model";
  private readonly gen: Generator;
  /** Display text by id (byte tokens as `<E4>`). */
  private readonly labels: string[];
  private readonly raw: string[];
  private readonly lookup = new Map<string, number>();
  readonly eosId: number | undefined;
  /** Why the last prompt could not be read, if it could not. */
  promptError: string | null = null;

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

  logits(): Float32Array {
    return this.gen.logits();
  }

  /** Choose and append the next token in wasm (throws the core's or the generator's Error). */
  next(config: StepConfig): GeneratedToken {
    return this.gen.next(config);
  }

  /** Force `id` (throws if generation has stopped). */
  force(id: number): GeneratedToken {
    return this.gen.force(id);
  }

  append(id: number): void {
    this.gen.force(id);
  }

  rewind(n = 1): void {
    this.gen.rewind(n);
  }

  /** Clear a stop (the generator refuses `next` after one) without changing any token. */
  resume(): void {
    this.gen.rewind(0);
  }

  /** The user's stop. */
  stop(): void {
    this.gen.stop();
  }

  setLimits(maxNewTokens: number, stopSequences: readonly string[]): void {
    this.gen.setMaxNewTokens(maxNewTokens);
    this.gen.setStopSequences([...stopSequences]);
  }

  /**
   * Replace every generated token by `ids` (forced in order, limits off while replaying). The tokens
   * it already shares with `ids` are kept (rewinding is exact), so the model runs only over the rest.
   */
  replay(ids: readonly number[], maxNewTokens: number, stopSequences: readonly string[]): void {
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
      this.setLimits(maxNewTokens, stopSequences);
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

/** Bytes received so far of everything being loaded; `total` is null when the server does not say. */
export interface LoadProgress {
  loaded: number;
  total: number | null;
}

/** Fetch one same-origin file, streaming its body so progress can be counted. */
async function fetchBytes(url: string, onBytes: (delta: number) => void, onTotal: (n: number | null) => void): Promise<Uint8Array> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url.split("/").pop() ?? url}: HTTP ${response.status}`);
  const length = Number(response.headers.get("content-length"));
  // a compressed response reports its compressed size: the count would overshoot, so drop it
  const encoded = (response.headers.get("content-encoding") ?? "identity") !== "identity";
  onTotal(Number.isFinite(length) && length > 0 && !encoded ? length : null);
  if (response.body === null) {
    const whole = new Uint8Array(await response.arrayBuffer());
    onBytes(whole.length);
    return whole;
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
    onBytes(value.length);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/**
 * Load the bundled weights and tokenizer (after `initCore`), reporting bytes as they arrive. When
 * the page carries them (single-file build) nothing is fetched and progress is complete at once.
 */
export async function loadModel(files: ModelFiles, onProgress: (progress: LoadProgress) => void): Promise<ModelSource> {
  if (files.inline) {
    const weights = files.weights();
    const size = weights.length + files.tokenizerJson.length;
    onProgress({ loaded: size, total: size });
    return modelSource(weights, files.tokenizerJson);
  }
  let loaded = 0;
  const totals: Array<number | null | undefined> = [undefined, undefined];
  const report = (): void => {
    const known = totals.every((x) => typeof x === "number");
    const total = known ? totals.reduce<number>((sum, x) => sum + (x ?? 0), 0) : null;
    onProgress({ loaded, total: total !== null && loaded <= total ? total : null });
  };
  const bytes = (delta: number): void => {
    loaded += delta;
    report();
  };
  const [weights, tokenizer] = await Promise.all([
    fetchBytes(files.weightsUrl, bytes, (n) => {
      totals[0] = n;
      report();
    }),
    fetchBytes(files.tokenizerUrl, bytes, (n) => {
      totals[1] = n;
      report();
    }),
  ]);
  return modelSource(weights, new TextDecoder().decode(tokenizer));
}

function modelSource(weights: Uint8Array, tokenizerJson: string): ModelSource {
  return new ModelSource(createGenerator(weights, tokenizerJson), () => createGenerator(weights, tokenizerJson));
}
