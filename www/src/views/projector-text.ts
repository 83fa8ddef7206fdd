// Projector mode's text strip keeps the prompt in view. The strip has a fixed number of lines (two on a
// 4:3 screen, one beside an open lesson); when the prompt and the tokens outgrow them, the oldest
// generated chips fold away behind "…" and the newest stay, and a prompt still too long for what is
// left keeps its start, cut with "…". So the class always reads what it was asked and what was just
// written. Before the first token the hint ("Press Step…") gives way first: in a wide screen's
// narrow column it took the prompt's room. Nothing is folded outside projector mode (the classes act
// only under body[data-projector]).

const FOLDED = "pj-folded";
/** The shortest start of a prompt worth showing (「中国的首都是」 whole, "TypeScri…"). */
const MIN_PROMPT = 8;
/** The first chip shown after folded ones: it carries the "…" (styles/teach.css). */
const AFTER_FOLD = "pj-after-fold";
/** On the chip list: the empty text's hint hidden, so the prompt keeps the room (styles/teach.css). */
const NO_HINT = "pj-no-hint";

/**
 * The strip as last fitted: its chips and their text, the prompt, the page's language (the prompt
 * button's width), the box's size, and how many chips were folded. A fit of the same chips with more
 * appended (a Step, Play) starts its search there: more text never needs fewer folded, so a Step
 * measures the strip once or twice, not once per halving of every chip (a layout of the page each,
 * tens of ms on a slow PC late in a long text).
 */
let lastFit: { chips: HTMLLIElement[]; texts: string[]; prompt: string; lang: string; width: number; height: number; folded: number } | null = null;

/** Fit the strip #generated to its box; `prompt` is the page's whole prompt (the echo may be cut). */
export function fitProjectorText(on: boolean, prompt: string): void {
  const box = document.getElementById("generated");
  const echo = document.getElementById("prompt-echo");
  const list = document.getElementById("chips");
  const before = lastFit;
  lastFit = null;
  if (box === null || echo === null) return;
  list?.classList.remove(NO_HINT);
  const chips = Array.from(document.querySelectorAll<HTMLLIElement>("#chips > li"));
  const fold = (n: number): void =>
    chips.forEach((li, i) => {
      li.classList.toggle(FOLDED, i < n);
      li.classList.toggle(AFTER_FOLD, n > 0 && i === n);
    });
  if (echo.textContent !== prompt) echo.textContent = prompt;
  echo.removeAttribute("data-cut");
  if (!on) return fold(0);
  const texts = chips.map((li) => li.textContent ?? "");
  const lang = document.documentElement.lang;
  const grown = before !== null && before.prompt === prompt && before.lang === lang && before.chips.length <= chips.length && before.chips.every((li, i) => chips[i] === li && texts[i] === before.texts[i]);
  const from = grown ? before.folded : 0;
  fold(from);
  const width = box.clientWidth;
  const height = box.clientHeight;
  if (height === 0) return fold(0);
  // (a box of another size: searched from none folded)
  if (from > 0 && (width !== before?.width || height !== before.height)) return fitProjectorText(on, prompt);
  // a box squeezed under one line (a wide screen's column when "Undo reset" wraps the buttons) still
  // shows a line, scrolled to it: a line's text fits there, and a prompt that fits the line stays whole
  const room = Math.max(height, Math.ceil(parseFloat(getComputedStyle(box).lineHeight) || 0));
  const fits = (): boolean => box.scrollHeight <= room + 1;
  const done = (folded: number): void => {
    fold(folded);
    lastFit = { chips, texts, prompt, lang, width, height, folded };
  };
  if (fits()) return done(from);

  // the fewest oldest chips to fold (at least the newest one stays): from the last fit's count up,
  // one more, two more, four more, eight more …, then halving between the last that did not fit and
  // the first that did (a token or two more fold one or two chips: two or three measurements)
  const most = chips.length - 1;
  let failed = from;
  for (let probe = 0; failed < most; probe++) {
    const next = Math.min(from + 2 ** probe, most);
    fold(next);
    if (!fits()) {
      failed = next;
      continue;
    }
    let lo = failed + 1;
    let hi = next;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      fold(mid);
      if (fits()) hi = mid;
      else lo = mid + 1;
    }
    return done(lo);
  }

  // no token yet: the hint goes before any of the prompt does
  if (chips.length === 0 && list !== null) {
    list.classList.add(NO_HINT);
    if (fits()) return done(0);
  }

  // still too long: the longest start of the prompt that fits, then "…" (never under MIN_PROMPT
  // characters: a box too small even for that scrolls to its newest line, as before)
  const chars = Array.from(prompt);
  const cut = (n: number): void => {
    echo.textContent = `${chars.slice(0, n).join("")}…`;
    echo.dataset["cut"] = "true";
  };
  const least = Math.min(chars.length, MIN_PROMPT);
  if (least >= chars.length) return;
  cut(least);
  if (!fits()) return;
  let lo = least;
  let hi = chars.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    cut(mid);
    if (fits()) lo = mid;
    else hi = mid - 1;
  }
  cut(lo);
}
