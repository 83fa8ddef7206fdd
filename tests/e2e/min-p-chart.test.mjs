// The min-p chart, in Chromium: its threshold line's label sits over no note and no number.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite } from "./harness.mjs";

const open = browserSuite();

describe("the min-p chart: its line's label over no note and no number", () => {
  for (const lang of ["en", "zh"]) {
    test(`${lang}, 1024×768: min-p 0.05 after top-k 8 (“✕ top-k” ran through “1.2%”)`, async () => {
      const { page, context } = await open(`?lang=${lang}&preset=capital-zh&temperature=0.7&top_k=8&top_p=0.9&min_p=0.05`, { viewport: { width: 1024, height: 768 } });
      const found = [];
      for (let i = 0; i < 3; i++) {
        await page.locator("#step").click();
        const hits = await page.evaluate(() => {
          const fig = document.querySelector('#stages figure[data-stage="min_p"]');
          const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
          const label = fig.querySelector(".threshold text");
          const box = label.getBoundingClientRect();
          const svg = fig.querySelector("svg").getBoundingClientRect();
          const out = [...fig.querySelectorAll(".notes text, .values text")].filter((t) => meets(box, t.getBoundingClientRect())).map((t) => `“${label.textContent}” × “${t.textContent}”`);
          if (box.top < svg.top || box.bottom > svg.bottom) out.push(`“${label.textContent}” outside the chart`);
          return out;
        });
        found.push(...hits.map((h) => `step ${i + 1}: ${h}`));
      }
      assert.deepEqual(found, []);
      await context.close();
    });
  }
});
