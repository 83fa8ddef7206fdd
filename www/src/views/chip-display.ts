// How a token reads where the page names it: on its chip (the text it completed, or its pending
// byte), in the path tree, and in the charts (whitespace made visible, the end token as 「结束符」 / "end").
import { bytesLabel, visible } from "../format";
import { t } from "../i18n/index";
import type { LogitsSource } from "../sources/logits-source";
import type { PathEntry } from "../state";
import type { ChipDisplay } from "./tokens";

/** A token as charts name it. */
export function chartLabel(source: LogitsSource, id: number): string {
  return source.isEos(id) ? t("end.chip") : visible(source.tokenText(id));
}

/** How a generated token reads on its chip (a byte source: the text it completed, or its pending byte). */
export function chipDisplay(source: LogitsSource, entry: PathEntry): ChipDisplay {
  const token = source.tokenText(entry.id);
  if (source.isEos(entry.id)) return { text: t("end.chip"), token, kind: "eos" };
  if (entry.piece === undefined) return { text: token, token, kind: "text" };
  // bytes that cannot form a character come back spelled `<0xE4>`; shown like byte tokens, `<E4>`
  if (entry.piece !== "") return { text: entry.piece.replace(/<0x([0-9A-F]{2})>/g, "<$1>"), token, kind: "text" };
  if (entry.pending !== undefined && entry.pending.length > 0) {
    return { text: token, token, kind: "pending", pending: bytesLabel(entry.pending) };
  }
  return { text: token, token, kind: "text" };
}

/** A path entry's text for the path tree (the end token shows as nothing). */
export function entryText(source: LogitsSource, entry: PathEntry): string {
  const shown = chipDisplay(source, entry);
  return shown.kind === "eos" ? "" : shown.text;
}
