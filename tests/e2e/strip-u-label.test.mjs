// The final strip's "u = 0.516" (or "argmax" under greedy): a class reads it from the back of the
// room, so it sits clear of the chart's heading (above the triangle it reached 2–6 px into the
// heading's box, and visibly touched it on a 853×533 projector) and of the triangle itself, inside
// the figure; and u's line, which always falls in the chosen band, is drawn under that band's label
// with a halo of the band's colour (it ran through the label's letters, e.g. "超集 100.0%").
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite } from "./harness.mjs";

const open = browserSuite();

function uLabelProblems() {
  const box = (el) => el.getBoundingClientRect();
  const fig = document.getElementById("final");
  const head = fig.querySelector("figcaption");
  const u = fig.querySelector(".u-marker text");
  const triangle = fig.querySelector(".u-marker path");
  const line = fig.querySelector(".u-marker line");
  const problems = [];
  const [h, t, f, tri] = [box(head), box(u), box(fig), box(triangle)];
  const cross = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  if (u.textContent.trim() === "") problems.push("no u label");
  if (cross(t, h)) problems.push(`u label ${Math.round(t.top)}–${Math.round(t.bottom)} reaches into the heading ${Math.round(h.top)}–${Math.round(h.bottom)}`);
  if (cross(t, tri)) problems.push("u label over the triangle");
  if (t.left < f.left || t.right > f.right || t.top < f.top) problems.push("u label outside the figure");
  const chosen = fig.querySelector(".band-labels text.chosen");
  // (a vertical line's box is 0 wide: widened by its stroke)
  const l = box(line);
  const lineBox = { left: l.left - 1, right: l.right + 1, top: l.top, bottom: l.bottom };
  const crossed = chosen !== null && cross(box(chosen), lineBox);
  if (crossed) {
    const style = getComputedStyle(chosen);
    if (!(line.compareDocumentPosition(chosen) & Node.DOCUMENT_POSITION_FOLLOWING)) problems.push("u's line is drawn over the chosen band's label");
    if (!style.paintOrder.startsWith("stroke") || parseFloat(style.strokeWidth) < 2) problems.push(`the chosen label has no halo (${style.paintOrder}, ${style.strokeWidth})`);
    const band = fig.querySelector(".bands .band.chosen, .band.chosen");
    if (band !== null && getComputedStyle(band).fill !== style.stroke) problems.push(`halo ${style.stroke} is not the band's ${getComputedStyle(band).fill}`);
  }
  return { problems, crossed };
}

describe("the final strip's u label and line", () => {
  const cases = [
    ["zh", 853, 533, true],
    ["en", 853, 533, true],
    ["zh", 1024, 768, true],
    ["en", 1280, 720, true],
    ["en", 1920, 1080, true],
    ["zh", 1366, 768, false],
    ["en", 390, 844, false],
  ];
  for (const [lang, width, height, projector] of cases) {
    test(`${lang} ${width}×${height}${projector ? " projector" : ""}: clear of the heading and the triangle, the line under the chosen label, sampling and greedy`, async () => {
      const { page, context, problems } = await open(`?lang=${lang}${projector ? "&projector=1" : ""}`, { viewport: { width, height } });
      const found = [];
      let crossings = 0;
      for (const [what, query] of [["sampling", ""], ["T 2", "&temperature=2&top_p=1"], ["greedy", "&strategy=greedy"]]) {
        if (query !== "") await page.goto(new URL(page.url()).origin + `/?lang=${lang}${projector ? "&projector=1" : ""}${query}`);
        await page.waitForFunction(() => document.body.dataset.ready === "true");
        for (let i = 0; i < 3; i++) {
          await page.keyboard.press("ArrowRight");
          await page.waitForFunction((n) => document.querySelectorAll("#chips li").length === n, i + 1);
          // (drawn; the marker may still be sliding to u, which moves its label, triangle and line together)
          await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
          const seen = await page.evaluate(uLabelProblems);
          found.push(...seen.problems.map((p) => `${what} step ${i + 1}: ${p}`));
          crossings += seen.crossed ? 1 : 0;
        }
      }
      assert.deepEqual(found, []);
      assert.ok(crossings > 0, "u's line crossed the chosen label at least once (the case this checks)");
      assert.deepEqual(problems, { console: [], foreign: [] });
      await context.close();
    });
  }
});
