// One step's candidate table as CSV (RFC 4180), safe to open in a spreadsheet: token text is quoted
// when it holds a quote, comma, line break or edge space, and text a spreadsheet would run as a
// formula (leading = + - @, tab or CR) is prefixed with ' (OWASP's CSV-injection advice).
import type { StepResult } from "../core";

export const CSV_COLUMNS = [
  "rank",
  "id",
  "token",
  "logit",
  "logit_processed",
  "p_raw",
  "p_tempered",
  "p",
  "cum",
  "kept",
  "removed_by",
  "chosen",
] as const;

/** A text field: defused if a spreadsheet would execute it, quoted if CSV needs it. */
export function csvText(text: string): string {
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]|^\s|\s$/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A number exactly as JavaScript holds it (shortest round-trip form); ±∞ as ±inf, null empty. */
export function csvNumber(x: number | null): string {
  if (x === null) return "";
  if (x === Number.POSITIVE_INFINITY) return "inf";
  if (x === Number.NEGATIVE_INFINITY) return "-inf";
  return String(x);
}

/**
 * Every candidate of `result` (a trace listing the whole vocabulary), one row each in candidate
 * order; `chosen` marks the token appended at this step. A byte-order mark lets spreadsheets read
 * the UTF-8 (Chinese tokens) correctly.
 */
export function candidatesCsv(result: StepResult, tokenText: (id: number) => string, chosenId: number): string {
  const lines = [CSV_COLUMNS.join(",")];
  for (const c of result.candidates) {
    lines.push(
      [
        String(c.rank + 1),
        String(c.id),
        csvText(tokenText(c.id)),
        csvNumber(c.logit),
        csvNumber(c.logit_processed),
        csvNumber(c.p_raw),
        csvNumber(c.p_tempered),
        csvNumber(c.p),
        csvNumber(c.cum),
        String(c.kept),
        c.removed_by ?? "",
        String(c.id === chosenId),
      ].join(","),
    );
  }
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}
