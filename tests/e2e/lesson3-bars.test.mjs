// 实验三 (lesson 3) in Chromium: the two prompts' candidate bars line up — side by side at 640 and
// 1024 px and stacked at 640 and 360 px, zh and en, every row's track starts and ends where the
// others do (an English gloss such as "北京 (Beijing)" pushed its own row's track right).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite } from "./harness.mjs";

const open = browserSuite();

describe("实验三 (lesson 3): the bars line up", () => {
  /** Per list of bars: the left and right edge of every row's track, and whether a row's cells overflow it. */
  const tracks = () =>
    [...document.querySelectorAll(".lesson-side .lesson-bars")].filter((ol) => ol.getClientRects().length > 0).map((ol) =>
      [...ol.querySelectorAll("li")].map((li) => {
        const track = li.querySelector(".track").getBoundingClientRect();
        const value = li.querySelector(".bar-value").getBoundingClientRect();
        return { left: Math.round(track.left), right: Math.round(track.right), width: track.width, valueRight: Math.round(value.right), inside: li.getBoundingClientRect().right + 0.5 >= value.right };
      }),
    );
  for (const width of [640, 1024]) {
    for (const lang of ["zh", "en"]) {
      test(`embedded ${width} px wide, ${lang}: every row's track starts and ends where the others do`, async () => {
        const { page, context } = await open(`?lang=${lang}&lesson=exp3&embed=1`, { viewport: { width, height: 800 } });
        await page.waitForSelector(".lesson-side .lesson-bars li");
        const lists = await page.evaluate(tracks);
        assert.ok(lists.length >= 2, "both prompts' bars are shown");
        for (const [n, rows] of lists.entries()) {
          assert.ok(rows.length >= 2, `list ${n + 1} has bars`);
          for (const row of rows) {
            assert.equal(row.left, rows[0].left, `list ${n + 1}: tracks start together (${rows.map((r) => r.left)})`);
            assert.equal(row.right, rows[0].right, `list ${n + 1}: tracks end together (${rows.map((r) => r.right)})`);
            assert.equal(row.valueRight, rows[0].valueRight, `list ${n + 1}: the numbers end together`);
            assert.ok(row.width >= 24 && row.inside, `list ${n + 1}: a track of ${row.width} px, inside its row`);
          }
        }
        await context.close();
      });
    }
  }
});

describe("实验三 (lesson 3) stacked: both prompts' bars start at the same x", () => {
  const tracks = () =>
    [...document.querySelectorAll(".lesson-side .lesson-bars")].filter((ol) => ol.getClientRects().length > 0).map((ol) =>
      [...ol.querySelectorAll("li")].map((li) => {
        const track = li.querySelector(".track").getBoundingClientRect();
        return { left: Math.round(track.left), right: Math.round(track.right) };
      }),
    );
  for (const width of [640, 360]) {
    for (const lang of ["zh", "en"]) {
      test(`embedded ${width} px wide, ${lang}`, async () => {
        const { page, context } = await open(`?lang=${lang}&lesson=exp3&embed=1`, { viewport: { width, height: 800 } });
        await page.waitForSelector(".lesson-side .lesson-bars li");
        const lists = await page.evaluate(tracks);
        assert.ok(lists.length >= 2, "both prompts' bars are shown");
        const stacked = await page.evaluate(() => {
          const [a, b] = [...document.querySelectorAll(".lesson-side")].filter((s) => s.getClientRects().length > 0).map((s) => s.getBoundingClientRect());
          return b.top >= a.bottom - 1;
        });
        assert.ok(stacked, "the two lists are stacked");
        const lefts = lists.flat().map((r) => r.left);
        const rights = lists.flat().map((r) => r.right);
        assert.deepEqual(new Set(lefts).size, 1, `every track starts at one x (${lists.map((l) => l.map((r) => r.left).join(",")).join(" | ")})`);
        assert.deepEqual(new Set(rights).size, 1, `every track ends at one x (${lists.map((l) => l.map((r) => r.right).join(",")).join(" | ")})`);
        await context.close();
      });
    }
  }
});
