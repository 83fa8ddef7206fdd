// A low-vision learner and a learner on a small phone, in Chromium: every word and number in the
// charts is at least 11 px on a 360 px phone (the token names under the bars were 8 px and the
// "✕ top-p" notes 8 px: only the numbers over the bars grew with a narrow chart), and the charts
// stay readable in forced colours (Windows high contrast) and at 400 % zoom (320 CSS px, WCAG 1.4.10).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, screenshot } from "./harness.mjs";

const open = browserSuite();

/** Every visible text in the page's charts drawn under 11 px on screen, as "chart class: px". */
function smallChartText() {
  const small = [];
  let measured = 0;
  for (const text of document.querySelectorAll("#stages svg.chart text, #final svg.chart text")) {
    if (text.getClientRects().length === 0 || text.textContent.trim() === "") continue;
    measured++;
    const m = text.getScreenCTM();
    // (a rotated label's scale is the length of its CTM's first column)
    const px = parseFloat(getComputedStyle(text).fontSize) * Math.hypot(m.a, m.b);
    const chart = text.closest("figure")?.dataset.stage ?? "final";
    if (px < 11 - 0.05) small.push(`${chart} ${text.getAttribute("class") ?? text.parentElement.getAttribute("class")} “${text.textContent}”: ${px.toFixed(1)} px`);
  }
  return { small, measured };
}

describe("a 360 × 740 phone: chart text ≥ 11 px", () => {
  const cases = ["?lang=en&top_k=5", "?lang=zh&preset=capital-zh&min_p=0.1", "?lang=en&preset=react-zh&top_p=0.5&temperature=1.4"];
  for (const query of cases) {
    test(query, async () => {
      const { page, context, problems } = await open(query, { viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });
      try {
        await page.locator("#step").tap();
        await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
        await page.waitForTimeout(400);
        const { small, measured } = await page.evaluate(smallChartText);
        assert.ok(measured > 40, `measured ${measured} texts`);
        assert.deepEqual(small.slice(0, 12), [], `${small.length} texts under 11 px`);
        // nothing wider than the phone
        assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 360), "no sideways scroll");
        assert.deepEqual(problems.console, []);
      } finally {
        await context.close();
      }
    });
  }
});
