// Hand-made logits: the preset's tables, editable on the page. A lookup, not a model (the page
// says so): each table scores a few tokens after a given last token; tokens absent from it get −∞.
import type { Appended, Capabilities, LogitsSource, NextLogits } from "./logits-source";
import type { LogitTable, ManualPreset } from "../presets";

/** Editable rows of the table the next step reads. */
export interface TableRow {
  token: string;
  logit: number;
}

export class ManualSource implements LogitsSource {
  readonly kind = "manual";
  /** The prompt is a caption; ids are the tables' tokens in order of first appearance; logits are at hand. */
  readonly capabilities: Capabilities = { tokenizesText: false, hasIds: true, async: false };
  /** A table never fails to read a prompt. */
  readonly promptError = null;
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

  /** Grows when an edited row brings a new token. */
  get vocabSize(): number {
    return this.vocab.length;
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

  /** Every token of the vocabulary has a value (−∞: not in this table, so impossible). */
  nextLogits(): NextLogits {
    const out = new Float32Array(this.vocab.length).fill(Number.NEGATIVE_INFINITY);
    for (const row of this.tables[this.tableIndex()]?.rows ?? []) {
      const id = this.ids.get(row.token);
      if (id !== undefined) out[id] = row.logit;
    }
    return { logits: out, known: { kind: "full" } };
  }

  async loadNextLogits(): Promise<NextLogits> {
    return this.nextLogits();
  }

  /** Tokens are whole text and the page judges the stops (no `piece`, no `stop`). */
  append(id: number): Appended {
    this.appended.push(id);
    return {};
  }

  rewind(n: number): void {
    this.appended.length = Math.max(0, this.appended.length - n);
  }

  load(ids: readonly number[]): void {
    this.appended.length = 0;
    this.appended.push(...ids);
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

  /** The page checks the limits itself for a table. */
  setLimits(): void {}
  stop(): void {}
  resume(): void {}

  private intern(token: string): number {
    const known = this.ids.get(token);
    if (known !== undefined) return known;
    this.vocab.push(token);
    this.ids.set(token, this.vocab.length - 1);
    return this.vocab.length - 1;
  }
}
