// Projector mode's settings line in the header ("T 0.8 · top-p 0.9 · seed 84"). On a small screen
// (styles/projector-small.css keeps it on one line) the header is one row: the line shows the
// settings that fit, first to last (the temperature first, the seed last), then "…". Cut, it still
// reads whole to a screen reader (a visually hidden copy, the shown part hidden from it) and on
// hover (its title): no value is shown twice.

const CUT = "…";

/**
 * The header's settings line, rewritten only when its text, its mode or its width changed: a Step
 * under the same settings neither rebuilds it nor measures it (a forced layout on every Step). The
 * room it has is watched, not read, so a resize, a lesson's wider menu or the other language refits
 * it in the next frame without a Step.
 */
export function settingsLine(line: HTMLElement): (parts: readonly string[], fit: boolean) => void {
  let written: { full: string; fit: boolean; width: number } | null = null;
  let last: { parts: readonly string[]; fit: boolean } | null = null;
  let width = -1;
  let refit = 0;
  // (in the next frame: refitting inside the observer's callback would resize what it observes)
  const refitSoon = (): void => {
    if (refit !== 0) return;
    refit = requestAnimationFrame(() => {
      refit = 0;
      if (last !== null) write(last.parts, last.fit);
    });
  };
  // (the line is as wide as its text where it shares the header's brand: the room it may take is
  // the brand's, which a narrower window or a wider lesson menu changes)
  new ResizeObserver((entries) => {
    for (const entry of entries) width = entry.contentRect.width;
    if (written === null || written.width === width) return;
    refitSoon();
  }).observe(line.parentElement ?? line);
  // A window that gets shorter or taller (a teacher's Ctrl/⌘ +) can switch the header to one row
  // or back (styles/projector-small.css) and leave the brand as wide as it was: the line overflowed
  // with no "…", or stayed cut with room for all of it. Any resize refits it once (a line that
  // may wrap is never measured, so it has nothing to refit).
  addEventListener("resize", () => {
    if (written === null || !written.fit) return;
    written = { ...written, width: -1 };
    refitSoon();
  });
  function write(parts: readonly string[], fit: boolean): void {
    last = { parts, fit };
    const full = parts.join(" · ");
    if (written !== null && written.full === full && written.fit === fit && written.width === width) return;
    writeSettingsLine(line, parts, fit);
    written = { full, fit, width };
  }
  return write;
}

/**
 * Write `parts` into `line`, as many as fit its width (all of them where the line may wrap); only
 * `fit` measures (projector mode: the normal page hides the line, and a Step there forces no layout).
 */
function writeSettingsLine(line: HTMLElement, parts: readonly string[], fit: boolean): void {
  const full = parts.join(" · ");
  const shown = (n: number): Array<Node | string> => {
    const spans = parts.slice(0, n).flatMap((part, i) => [...(i > 0 ? [" · "] : []), span(part)]);
    if (n === parts.length) return spans;
    const hidden = span(full);
    hidden.className = "visually-hidden";
    const seen = document.createElement("span");
    seen.setAttribute("aria-hidden", "true");
    seen.append(...spans, ` ${CUT}`);
    return [seen, hidden];
  };
  line.replaceChildren(...shown(parts.length));
  line.removeAttribute("title");
  // (a line that may wrap never overflows: nothing is measured again)
  if (!fit || line.scrollWidth <= line.clientWidth + 1) return;
  let n = parts.length - 1;
  for (; n > 1; n--) {
    line.replaceChildren(...shown(n));
    if (line.scrollWidth <= line.clientWidth + 1) break;
  }
  line.replaceChildren(...shown(n));
  line.title = full;
}

function span(text: string): HTMLSpanElement {
  const s = document.createElement("span");
  s.textContent = text;
  return s;
}
