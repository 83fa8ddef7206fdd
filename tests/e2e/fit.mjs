// In-page measurements for "fits one screen" (issue 11, point 3), shared by the projector and embed
// suites. `fitProblems` runs inside the page (page.evaluate) and lists, in words, everything that
// would make a teacher scroll or squint: page scroll, any element that scrolls or clips its content,
// any text outside the screen or cut by a clipping ancestor, a short word broken over several lines
// (北京 squeezed into vertical characters), and text boxes that overlap.

/**
 * Runs in the page. `skip` is a CSS selector of elements exempt from the scroll check (the generated
 * text, which by design shows its newest lines and fades the older ones out).
 */
export function fitProblems({ skip = "#generated", minPx = 0, svgText = false } = {}) {
  const vw = innerWidth;
  const vh = innerHeight;
  const problems = [];
  const name = (el) => {
    const id = el.id ? `#${el.id}` : "";
    const cls = typeof el.className === "string" && el.className !== "" ? `.${el.className.trim().split(/\s+/).join(".")}` : "";
    return `${el.tagName.toLowerCase()}${id}${cls} “${(el.textContent ?? "").trim().slice(0, 30)}”`;
  };
  // hidden, or read but not shown (visually hidden: a 1 px clipped box)
  const shown = (el) => {
    if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return false;
    if (el.closest(".visually-hidden, dialog:not([open]), [aria-hidden='true']") !== null) return false;
    const r = el.getBoundingClientRect();
    return r.width >= 2 && r.height >= 2;
  };

  if (document.scrollingElement.scrollHeight > vh + 1) problems.push(`the page scrolls (${document.scrollingElement.scrollHeight} > ${vh})`);
  if (document.scrollingElement.scrollWidth > vw + 1) problems.push(`the page scrolls sideways (${document.scrollingElement.scrollWidth} > ${vw})`);

  // 0. a table's cells are laid out as cells (误解六's "Top token" column took the page header's
  // `.top` rule: a flex box, its rows' borders a row lower than the rest)
  for (const cell of document.body.querySelectorAll("td, th")) {
    if (shown(cell) && getComputedStyle(cell).display !== "table-cell") problems.push(`a table cell not laid out as one: ${name(cell)} (${getComputedStyle(cell).display})`);
  }

  // 1. no element scrolls or clips its own content
  const clippers = [];
  for (const el of document.body.querySelectorAll("*")) {
    if (el instanceof SVGElement || ["TEXTAREA", "INPUT", "SELECT", "OPTION"].includes(el.tagName) || !shown(el)) continue;
    const s = getComputedStyle(el);
    const clipsY = s.overflowY !== "visible";
    const clipsX = s.overflowX !== "visible";
    if (clipsY || clipsX) clippers.push(el);
    if (el.closest(skip) !== null) continue;
    if (clipsY && el.scrollHeight > el.clientHeight + 1) problems.push(`scrolls or clips vertically: ${name(el)} (${el.scrollHeight} > ${el.clientHeight})`);
    if (clipsX && el.scrollWidth > el.clientWidth + 1) problems.push(`clipped sideways: ${name(el)} (${el.scrollWidth} > ${el.clientWidth})`);
  }

  // 2. every line of visible text: on screen, inside its clipping ancestors, not broken mid-word
  const lines = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (text === "" || el === null || !shown(el)) continue;
    const inSvg = el instanceof SVGElement;
    if (inSvg && !svgText) continue;
    if (el.closest("select, option, textarea, style, script") !== null) continue;
    const px = parseFloat(getComputedStyle(el).fontSize);
    if (!inSvg && px < minPx) problems.push(`small type ${px}px: ${name(el)}`);
    const range = document.createRange();
    range.selectNodeContents(node);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0.5 && r.height > 0.5);
    if (rects.length === 0) continue;
    const tops = new Set(rects.map((r) => Math.round(r.top)));
    // a short word alone in its box (a cell, a label, a button) on several lines: squeezed (北京 in a
    // column one character wide); inline text in running prose may wrap like any sentence
    const ownBox = getComputedStyle(el).display !== "inline";
    if (ownBox && text.length <= 6 && tops.size > 1) problems.push(`“${text}” is broken over ${tops.size} lines`);
    for (const r of rects) {
      const clip = clippers.find((c) => {
        if (!c.contains(el)) return false;
        const b = c.getBoundingClientRect();
        return r.top < b.top - 1 || r.bottom > b.bottom + 1 || r.left < b.left - 1 || r.right > b.right + 1;
      });
      if (clip !== undefined) {
        // a box exempt from the scroll check hides this line on purpose (older lines of the text)
        if (clip.closest(skip) !== null) continue;
        problems.push(`cut by ${name(clip)}: “${text.slice(0, 30)}”`);
        break;
      }
      if (r.top < -0.5 || r.left < -0.5 || r.bottom > vh + 0.5 || r.right > vw + 0.5) {
        problems.push(`off screen: “${text.slice(0, 30)}” at ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)}`);
        break;
      }
      lines.push({ r, node, text });
    }
  }

  // 3. no two text lines overlap (different text nodes; a line's own glyph boxes may touch)
  for (let i = 0; i < lines.length; i++) {
    for (let j = i + 1; j < lines.length; j++) {
      const a = lines[i];
      const b = lines[j];
      if (a.node === b.node) continue;
      const dx = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
      const dy = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
      if (dx > 2 && dy > 2) problems.push(`text overlaps: “${a.text.slice(0, 20)}” × “${b.text.slice(0, 20)}”`);
    }
  }
  return [...new Set(problems)];
}
