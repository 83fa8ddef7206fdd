// Projector mode's text strip keeps the prompt in view. The strip has a fixed number of lines (two on a
// 4:3 screen, one beside an open lesson); when the prompt and the tokens outgrow them, the oldest
// generated chips fold away behind "…" and the newest stay, and a prompt still too long for what is
// left keeps its start, cut with "…". So the class always reads what it was asked and what was just
// written. Nothing is folded outside projector mode (the classes act only under body[data-projector]).

const FOLDED = "pj-folded";
/** The shortest start of a prompt worth showing (「中国的首都是」 whole, "TypeScri…"). */
const MIN_PROMPT = 8;
/** The first chip shown after folded ones: it carries the "…" (styles/teach.css). */
const AFTER_FOLD = "pj-after-fold";

/** Fit the strip #generated to its box; `prompt` is the page's whole prompt (the echo may be cut). */
export function fitProjectorText(on: boolean, prompt: string): void {
  const box = document.getElementById("generated");
  const echo = document.getElementById("prompt-echo");
  if (box === null || echo === null) return;
  const chips = Array.from(document.querySelectorAll<HTMLLIElement>("#chips > li"));
  const fold = (n: number): void =>
    chips.forEach((li, i) => {
      li.classList.toggle(FOLDED, i < n);
      li.classList.toggle(AFTER_FOLD, n > 0 && i === n);
    });
  fold(0);
  if (echo.textContent !== prompt) echo.textContent = prompt;
  echo.removeAttribute("data-cut");
  if (!on || box.clientHeight === 0) return;
  const fits = (): boolean => box.scrollHeight <= box.clientHeight + 1;
  if (fits()) return;

  // the fewest oldest chips to fold (at least the newest one stays)
  if (chips.length > 1) {
    let lo = 1;
    let hi = chips.length - 1;
    fold(hi);
    if (fits()) {
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        fold(mid);
        if (fits()) hi = mid;
        else lo = mid + 1;
      }
      fold(lo);
      return;
    }
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
