// QA pass 7, in Chromium: the top-p chart's numbers. Each kept bar's number is written, none over a
// bar (the chosen bar's number straddled its bar, legible only through its halo) and none over
// another; where there was room higher up a second number was hidden (an every-other-bar rule).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite } from "./harness.mjs";

const open = browserSuite();

/**
 * The top-p chart's numbers as drawn: which kept bars have none, and every number whose box meets a
 * bar or another number, as "71.5% × bar 1". Null when the chart is not on screen.
 */
function topPNumbers() {
  const fig = document.querySelector('#stages figure[data-stage="top_p"]');
  if (fig === null || fig.getClientRects().length === 0) return null;
  const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const bars = [...fig.querySelectorAll(".bars rect")].map((r) => ({ state: r.getAttribute("class"), box: r.getBoundingClientRect() }));
  const texts = [...fig.querySelectorAll(".values text")].map((t) => ({ text: t.textContent, state: t.getAttribute("class"), box: t.getBoundingClientRect() }));
  const overlaps = [];
  texts.forEach(({ text, box }, i) => {
    bars.forEach((b, j) => b.box.height > 0 && meets(box, b.box) && overlaps.push(`${text} × bar ${j + 1}`));
    texts.slice(i + 1).forEach((o) => meets(box, o.box) && overlaps.push(`${text} × ${o.text}`));
  });
  const kept = bars.filter((b) => /\b(kept|chosen)\b/.test(b.state)).length;
  const written = texts.filter((t) => /\b(kept|chosen)\b/.test(t.state)).length;
  const chosen = texts.filter((t) => /\bchosen\b/.test(t.state)).length;
  return { overlaps, kept, written, chosen };
}

describe("the top-p chart: every kept bar's number is written, over no bar and no other number", () => {
  const cases = [
    ["react-zh", "zh", true, { width: 1024, height: 768 }],
    ["react-zh", "en", true, { width: 1024, height: 768 }],
    ["capital-zh", "en", true, { width: 1024, height: 768 }],
    ["capital-zh", "zh", false, { width: 1280, height: 800 }],
    ["plugin-zh", "en", false, { width: 1024, height: 768 }],
  ];
  for (const [preset, lang, projector, viewport] of cases) {
    test(`${preset}, ${lang}, ${viewport.width}×${viewport.height}${projector ? ", projector" : ""}`, async () => {
      const { page, context } = await open(`?lang=${lang}&preset=${preset}&top_p=0.9${projector ? "&projector=1" : ""}`, { viewport });
      const found = [];
      let measured = 0;
      for (let i = 0; i < 3; i++) {
        await page.locator("#step").click();
        const seen = await page.evaluate(topPNumbers);
        if (seen === null) continue;
        measured++;
        found.push(...seen.overlaps.map((o) => `step ${i + 1}: ${o}`));
        if (seen.written < seen.kept) found.push(`step ${i + 1}: ${seen.written} of ${seen.kept} kept bars' numbers written`);
        if (seen.chosen !== 1) found.push(`step ${i + 1}: the chosen bar's number is not written`);
      }
      assert.equal(measured, 3, "the top-p chart was measured at each step");
      assert.deepEqual(found, []);
      await context.close();
    });
  }
});
