// Where logits come from. The page only talks to a `Source`, so the hand-made tables used now and
// the embedded language model plugged in later are interchangeable; neither one ever samples.
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

  private intern(token: string): number {
    const known = this.ids.get(token);
    if (known !== undefined) return known;
    this.vocab.push(token);
    this.ids.set(token, this.vocab.length - 1);
    return this.vocab.length - 1;
  }
}
