// Stepping does not move the page up and down. Each chart's rotated token labels hang below it and
// its height followed the longest label of the step shown, so on a laptop the charts, and
// everything under them, jumped by up to 33 px from one Step to the next (268 ↔ 301 px). A chart
// now keeps the tallest height it has had (projector mode sizes its boxes itself).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite } from "./harness.mjs";

const open = browserSuite();

/** The height of each chart shown, in order. */
const heights = (page) =>
  page.evaluate(() => [...document.querySelectorAll("#stages > figure.stage:not([hidden])")].map((f) => Math.round(f.getBoundingClientRect().height)));

describe("a steady page while stepping", () => {
  for (const lang of ["en", "zh"]) {
    test(`${lang}: no chart gets shorter from one Step to the next (what is under it never jumps back up)`, async () => {
      const { page, context, problems } = await open(`?lang=${lang}`, { viewport: { width: 1366, height: 768 } });
      const step = page.locator("#step");
      let before = await heights(page);
      const seen = [before];
      for (let i = 0; i < 8 && (await step.isEnabled()); i++) {
        await step.click();
        await page.waitForTimeout(50);
        const now = await heights(page);
        seen.push(now);
        if (now.length === before.length) {
          now.forEach((h, chart) => assert.ok(h >= before[chart], `chart ${chart} went from ${before[chart]} to ${h} px at step ${i + 1}: ${JSON.stringify(seen)}`));
        }
        before = now;
      }
      assert.ok(seen.length >= 4, "at least three steps were taken");
      assert.deepEqual(problems.console, []);
      await context.close();
    });
  }
});
