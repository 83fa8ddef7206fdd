// The charts' layers, in Chromium: where a number's leader line crosses the top-p chart's running
// total, the curve is drawn over the leader, so the curve — the chart's message — stays whole (the
// leaders were drawn over it, cutting the curve into pieces wherever a number stood far above its bar).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, screenshot } from "./harness.mjs";

const open = browserSuite();

/** For each leader line that crosses the running-total curve: which of the two is on top there. */
function crossings() {
  const fig = document.querySelector('#stages figure[data-stage="top_p"]');
  const svg = fig.querySelector("svg.chart");
  const curve = fig.querySelector(".cum-curve");
  const ctm = svg.getScreenCTM();
  const length = curve.getTotalLength();
  const points = [];
  for (let s = 0; s <= length; s += 0.25) points.push(curve.getPointAtLength(s));
  const found = [];
  for (const line of fig.querySelectorAll(".leaders line")) {
    const x = line.x1.baseVal.value;
    const [top, bottom] = [line.y1.baseVal.value, line.y2.baseVal.value].sort((a, b) => a - b);
    const near = points.reduce((best, p) => (Math.abs(p.x - x) < Math.abs(best.x - x) ? p : best));
    if (Math.abs(near.x - x) > 0.5 || near.y <= top + 1 || near.y >= bottom - 1) continue;
    // SVG paints in document order (the charts take no pointer events to hit-test with): the curve
    // is on top where it follows the leader
    const curveOnTop = (line.compareDocumentPosition(curve) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
    const at = new DOMPoint(x, near.y).matrixTransform(ctm);
    found.push({ number: line.__data__.d.id, at: [Math.round(at.x), Math.round(at.y)], curveOnTop });
  }
  return found;
}

describe("the top-p chart's leader lines", () => {
  for (const [lang, query, width] of [
    ["en", "?lang=en&top_p=0.9&temperature=1.3", 1366],
    ["zh", "?lang=zh&top_p=0.95&temperature=1.5", 1024],
  ]) {
    test(`pass behind the running-total curve where they cross it (${lang}, ${width} px)`, async () => {
      const { page, problems } = await open(query, { viewport: { width, height: 900 } });
      let measured = 0;
      for (let i = 0; i < 3; i++) {
        await page.click("#step");
        await page.waitForTimeout(150);
        const found = await page.evaluate(crossings);
        measured += found.length;
        const over = found.filter((c) => !c.curveOnTop);
        if (over.length > 0) await screenshot(page, `chart-layers-${lang}.png`);
        assert.deepEqual(over, [], `step ${i + 1}: a leader drawn over the curve`);
      }
      // the settings make numbers stand far above small bars, so leaders do cross the curve
      assert.ok(measured > 0, "no leader line crossed the curve: the test measured nothing");
      assert.deepEqual(problems, { console: [], foreign: [] });
      await page.context().close();
    });
  }
});
