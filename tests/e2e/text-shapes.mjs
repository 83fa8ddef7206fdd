// In-page check that no two pieces of visible text are drawn over each other, SVG text included:
// a chart's rotated token labels, the numbers over its bars, the strip's "u = …", and the HTML
// around them (the key numbers, the captions). fit.mjs compares HTML text only, and by boxes; a
// rotated label's box is far larger than its letters, so here every text is the quadrilateral it
// is drawn in (its box through its transform to the screen), and two overlap when those cross
// (separating-axis test), after trimming each by `inset` px (the font's empty ascent and descent).

/** Runs in the page: a list, in words, of every pair of visible texts that overlap. */
export function textOverlaps({ inset = 2, within = "body" } = {}) {
  const root = document.querySelector(within) ?? document.body;
  const shown = (el) => {
    if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return false;
    // (read but not shown: a visually hidden 1 px box)
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) return false;
    // (a chart's axes are hidden from screen readers, not from the eye: aria-hidden counts in HTML only)
    const hidden = el instanceof SVGElement ? ".visually-hidden, dialog:not([open])" : ".visually-hidden, dialog:not([open]), [aria-hidden='true'], select, option, textarea, script, style";
    return el.closest(hidden) === null;
  };
  // a rectangle (x, y, w, h in some user space) through `m` (a DOMMatrix to the screen), trimmed by inset
  const quad = (x, y, w, h, m) => {
    const ix = Math.min(inset, w / 3);
    const iy = Math.min(inset, h / 3);
    const sx = Math.hypot(m.a, m.b) || 1;
    const sy = Math.hypot(m.c, m.d) || 1;
    const [x0, y0, x1, y1] = [x + ix / sx, y + iy / sy, x + w - ix / sx, y + h - iy / sy];
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]].map(([px, py]) => [m.a * px + m.c * py + m.e, m.b * px + m.d * py + m.f]);
  };
  const shapes = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (text === "" || el === null || !shown(el)) continue;
    if (el instanceof SVGGraphicsElement) {
      const b = el.getBBox();
      const m = el.getScreenCTM();
      if (b.width < 0.5 || b.height < 0.5 || m === null) continue;
      shapes.push({ el, text, q: quad(b.x, b.y, b.width, b.height, m) });
      continue;
    }
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      if (r.width < 0.5 || r.height < 0.5) continue;
      shapes.push({ el: node, text, q: quad(r.left, r.top, r.width, r.height, new DOMMatrix()) });
    }
  }
  // separating-axis test for two convex quadrilaterals
  const project = (q, [ax, ay]) => {
    const d = q.map(([x, y]) => x * ax + y * ay);
    return [Math.min(...d), Math.max(...d)];
  };
  const axes = (q) => q.map(([x, y], i) => {
    const [nx, ny] = q[(i + 1) % q.length];
    return [-(ny - y), nx - x];
  });
  const cross = (a, b) => [...axes(a), ...axes(b)].every((axis) => {
    const [a0, a1] = project(a, axis);
    const [b0, b1] = project(b, axis);
    return a1 > b0 && b1 > a0;
  });
  const problems = [];
  for (let i = 0; i < shapes.length; i++) {
    for (let j = i + 1; j < shapes.length; j++) {
      const [a, b] = [shapes[i], shapes[j]];
      if (a.el === b.el) continue;
      if (cross(a.q, b.q)) problems.push(`“${a.text.slice(0, 20)}” × “${b.text.slice(0, 20)}”`);
    }
  }
  return [...new Set(problems)];
}
