// The numbers over a chart's bars, as a class sees them at T 2 in projector mode on a small board
// (853×533, a 1280×800 screen at 150 %) and a 4:3 projector (1024×768): every two numbers keep some
// air between them, side by side or one row over the other. With one viewBox unit between them, rows
// of numbers touched ("2.5%2.2%2.1%") and a row sat on the one below; failed on the build before
// the fix (0 px between 1.3% and 0.82%, zh, 853×533). Screenshots go to /tmp/class17/.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { browserSuite } from "./harness.mjs";

const open = browserSuite();
const SHOTS = "/tmp/class17";
mkdirSync(SHOTS, { recursive: true });
/** Air between two numbers on screen, px (a sixth of the projector's 18.5 px chart type). */
const MIN_AIR_PX = 3;

/** The closest two numbers of the enlarged chart: the px between their boxes (the larger of across and down). */
const tightest = (page) =>
  page.evaluate(() => {
    const svg = document.querySelector("#stages .stage.pj-focus svg");
    const numbers = [...svg.querySelectorAll("text.value")].filter((t) => t.getBoundingClientRect().width > 0);
    let worst = { air: Infinity, pair: "", count: numbers.length };
    for (const [i, a] of numbers.entries()) {
      for (const b of numbers.slice(i + 1)) {
        const [p, q] = [a.getBoundingClientRect(), b.getBoundingClientRect()];
        const air = Math.max(p.left - q.right, q.left - p.right, p.top - q.bottom, q.top - p.bottom);
        if (air < worst.air) worst = { air, pair: `${a.textContent} / ${b.textContent}`, count: numbers.length };
      }
    }
    return worst;
  });

describe("projector mode at T 2: the chart's numbers keep air between them", () => {
  for (const viewport of [{ width: 853, height: 533 }, { width: 1024, height: 768 }]) {
    for (const lang of ["zh", "en"]) {
      test(`${lang}, ${viewport.width}×${viewport.height}: top-p chart, 3 seeds × 3 steps`, async () => {
        const { page, context, problems } = await open(`?lang=${lang}&projector=1&temperature=2&top_p=0.9&seed=3`, { viewport });
        for (const seed of [3, 1, 8]) {
          await page.goto(page.url().replace(/seed=\d+/, `seed=${seed}`));
          await page.waitForSelector("body[data-ready='true']");
          for (let step = 0; step < 3; step++) {
            await page.waitForTimeout(150);
            assert.equal(await page.locator("#stages .stage.pj-focus").getAttribute("data-stage"), "top_p");
            const worst = await tightest(page);
            if (worst.air < MIN_AIR_PX) await page.screenshot({ path: `${SHOTS}/chart-number-air-${lang}-${viewport.width}-seed${seed}-step${step}.png` });
            assert.ok(worst.count >= 8, `seed ${seed}, step ${step}: ${worst.count} numbers written`);
            assert.ok(worst.air >= MIN_AIR_PX, `seed ${seed}, step ${step}: ${worst.pair} ${worst.air.toFixed(1)} px apart`);
            await page.keyboard.press("ArrowRight");
          }
        }
        await page.screenshot({ path: `${SHOTS}/chart-number-air-${lang}-${viewport.width}.png` });
        assert.deepEqual(problems, { console: [], foreign: [] });
        await context.close();
      });
    }
  }
});
