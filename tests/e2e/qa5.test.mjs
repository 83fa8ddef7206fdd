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

describe("a prompt the model cannot read", () => {
  for (const projector of [false, true]) {
    test(`a 300-character paste${projector ? " in projector mode" : ""}: the error says what to do, and nothing says "Press Step"`, async () => {
      const prompt = "语言模型每一步都会为词表里的每个词元打分，".repeat(15).slice(0, 300);
      const { page, context } = await open(`?lang=en${projector ? "&projector=1" : ""}&prompt=${encodeURIComponent(prompt)}`, { viewport: { width: 1024, height: 768 } });
      await page.keyboard.press("ArrowRight");
      assert.match(await page.locator("#error").innerText(), /at most 127 tokens, got 213\. Shorten the prompt/);
      assert.ok(await page.locator("#step").isDisabled(), "Step is off");
      const hint = await page.locator("#chips").evaluate((list) => getComputedStyle(list, "::after").content);
      assert.doesNotMatch(hint, /Press Step/, "the empty strip does not ask for a Step that is off");
      await context.close();
    });
  }
});
