// Display-only helpers, in one place: percentages, numbers, stage names and visible whitespace in
// token text.
import type { StageName } from "./core";

/** A probability as a percentage with sensible precision: 54.3%, 0.81%, <0.01%. */
export function percent(p: number): string {
  if (p === 0) return "0%";
  if (p < 0.0001) return "<0.01%";
  const v = p * 100;
  return `${v >= 10 ? v.toFixed(1) : v >= 1 ? v.toFixed(1) : v.toFixed(2)}%`;
}

/**
 * A whole number grouped by thousands (7,999), exactly as `toLocaleString("en-US")` writes it, without
 * starting the browser's locale machinery: its first use costs tens of ms of the page's opening
 * (ICU's number formatter), for a comma. Anything but a safe integer goes to `toLocaleString` itself.
 */
export function grouped(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString("en-US");
  return (n < 0 ? "-" : "") + String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ",");
}

/** A plain number with at most `digits` decimals, trailing zeros trimmed; −∞ shown as such. */
export function num(x: number | null, digits = 2): string {
  if (x === null) return "−∞";
  if (!Number.isFinite(x)) return x > 0 ? "∞" : "−∞";
  const fixed = x.toFixed(digits);
  // trailing zeros are trimmed after a decimal point only (10 stays 10, 0 stays 0)
  const s = fixed.includes(".") ? fixed.replace(/\.?0+$/, "") : fixed;
  return (s === "-0" ? "0" : s).replace(/^-/, "−");
}

/** Token text with whitespace made visible: leading/trailing spaces as ␣, newlines as ↵. */
export function visible(token: string): string {
  if (token === "") return "∅";
  return token.replace(/\n/g, "↵").replace(/\t/g, "⇥").replace(/ /g, "␣");
}

/** Token text for chips: a leading space becomes a visible gap marker, the rest as typed. */
export function chipParts(token: string): { space: boolean; text: string } {
  const space = token.startsWith(" ");
  return { space, text: (space ? token.slice(1) : token).replace(/\n/g, "↵") || (space ? "" : "∅") };
}

/**
 * A vocabulary entry for display: byte tokens `<0xE4>` as `<E4>`, everything else as is. A line
 * break's and a tab's byte token is that character (drawn ↵ and ⇥, as on the chips: the charts said
 * `<0A>` beside a chip's ↵); the vocabulary has no other token for either.
 */
export function tokenLabel(entry: string): string {
  const short = byteName(entry);
  return short === null ? entry : short === "<0A>" ? "\n" : short === "<09>" ? "\t" : short;
}

/** A byte token's short name, `<0xe4>` → `<E4>` (what the force and find fields accept); null for any other entry. */
export function byteName(entry: string): string | null {
  const byte = /^<0x([0-9A-Fa-f]{2})>$/.exec(entry);
  return byte === null ? null : `<${(byte[1] ?? "").toUpperCase()}>`;
}

/** Whether a vocabulary entry is a single-byte fallback token. */
export function isByteToken(entry: string): boolean {
  return /^<0x[0-9A-Fa-f]{2}>$/.test(entry);
}

/** Bytes of an unfinished character as `<E4><B8>` (never decoded, so never U+FFFD). */
export function bytesLabel(bytes: readonly number[]): string {
  return bytes.map((b) => `<${b.toString(16).toUpperCase().padStart(2, "0")}>`).join("");
}

/** A byte count as kB / MB. */
export function bytesSize(n: number): string {
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(0)} kB`;
  return `${(n / (1024 * 1024)).toFixed(2)} MB`;
}

/** Short display names of stages (the chapter's terms, the same in both languages). */
export const STAGE_NAMES: Record<StageName | "logits", string> = {
  logits: "logits",
  logit_bias: "logit bias",
  min_new_tokens: "min new tokens",
  penalties: "penalties",
  greedy: "greedy",
  temperature: "temperature",
  top_k: "top-k",
  top_p: "top-p",
  min_p: "min-p",
  typical_p: "typical-p",
  epsilon_cutoff: "epsilon",
  eta_cutoff: "eta",
};
