// QA pass 5, in Chromium: the top-p chart's numbers never touch the value axis's labels ("100.0%"
// over the first bar ran into "100%" at 1024×768), and lesson 3's bars line up at 640 and 1024 px.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite } from "./harness.mjs";

const open = browserSuite();

/** Every pair of a number over a bar and a value-axis label whose boxes meet, in one chart. */
function collisions(stage) {
  const fig = document.querySelector(`#stages figure[data-stage="${stage}"]`);
  if (fig === null || fig.getClientRects().length === 0) return null;
  const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const axis = [...fig.querySelectorAll(".axis-y text")].map((t) => ({ text: t.textContent, box: t.getBoundingClientRect() }));
  const values = [...fig.querySelectorAll(".values text")].map((t) => ({ text: t.textContent, box: t.getBoundingClientRect() }));
  return values.flatMap((v) => axis.filter((a) => hit(v.box, a.box)).map((a) => `${v.text} × ${a.text}`));
}

describe("the top-p chart at 1024×768", () => {
  for (const lang of ["en", "zh"]) {
    for (const projector of [false, true]) {
      test(`${lang}${projector ? ", projector mode" : ""}: no number over a bar meets an axis label, over six steps of three presets`, async () => {
        let seen = 0;
        for (const preset of ["plugin-zh", "capital-zh", "react-zh"]) {
          const { page, context } = await open(`?lang=${lang}&preset=${preset}${projector ? "&projector=1" : ""}`, { viewport: { width: 1024, height: 768 } });
          for (let i = 0; i < 6 && !(await page.locator("#step").isDisabled()); i++) {
            const found = await page.evaluate(collisions, "top_p");
            if (found !== null) {
              seen++;
              assert.deepEqual(found, [], `${preset}, after ${i} steps`);
            }
            await page.locator("#step").click();
          }
          await context.close();
        }
        assert.ok(seen >= 6, `the top-p chart was measured (${seen} times)`);
      });
    }
  }
});
