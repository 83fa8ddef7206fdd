// The English gloss of a quoted prompt *and* what the model wrote after it (English interface
// only): 「英国的首都是巴黎」 is glossed (“The capital of the UK is Paris”), never with the
// prompt's gloss alone, which read as if the whole line said "The capital of the UK is". Pieces
// are matched longest first against the glosses; a word repeated in a row is written once with
// its count (状态 ×24); when a piece has no gloss, the gloss says it covers the prompt only.
import { GLOSSES } from "../i18n/classroom.en";
import { lang, t } from "../i18n/index";

const PUNCTUATION: Readonly<Record<string, string>> = { "。": ".", "，": ",", "：": ":", "！": "!", "？": "?", "、": "," };
const KEYS = Object.keys(GLOSSES).sort((a, b) => b.length - a.length);

/** The English words of `text`, or null when some piece of it has no gloss. */
function words(text: string): string | null {
  const out: { word: string; punct: boolean; count: number }[] = [];
  let rest = text.trim();
  while (rest.length > 0) {
    const key = KEYS.find((k) => rest.startsWith(k));
    const mark = PUNCTUATION[rest[0] ?? ""];
    const piece = key !== undefined ? { word: GLOSSES[key] ?? "", punct: false, len: key.length } : mark !== undefined ? { word: mark, punct: true, len: 1 } : null;
    if (piece === null) return null;
    const last = out[out.length - 1];
    if (last !== undefined && last.word === piece.word && !piece.punct) last.count += 1;
    else out.push({ word: piece.word, punct: piece.punct, count: 1 });
    rest = rest.slice(piece.len).trimStart();
  }
  return out.map((p) => (p.punct ? p.word : ` ${p.count >= 3 ? `${p.word} ×${p.count}` : Array(p.count).fill(p.word).join(" ")}`)).join("").trim();
}

/** ` (“…”)` after a quoted prompt and its continuation, or "" (Chinese interface, no gloss). */
export function glossWithText(prompt: string, written: string): string {
  const base = lang() === "en" ? GLOSSES[prompt] : undefined;
  if (base === undefined) return "";
  if (written.trim() === "") return base.includes(" ") ? ` (“${base}”)` : ` (${base})`;
  const tail = words(written);
  if (tail === null) return ` (${t("gloss.promptOnly")} “${base}”)`;
  const joined = /^[.,:!?]/.test(tail) ? `${base}${tail}` : `${base} ${tail}`;
  return ` (“${joined}”)`;
}
