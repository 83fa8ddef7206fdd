// The page embedded in a lesson's column, in Chromium. The numbers over the bars are at
// least 11 px on screen in a 360 px embed (they were 8 px: the charts scale with their box), and
// every number sits near its own bar, or is joined to it by a leader line (a 0.15 % was written at
// 60 % of the chart's height, over other bars); the final strip's numbers are legible in a narrow
// frame; and a learner with the keyboard only keeps the focus on a control when the text ends.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, chartsAfterStep, screenshot } from "./harness.mjs";

const open = browserSuite();

/**
 * Every number over a bar in the stage charts on the page, as problems in words: drawn under 11 px
 * (font size × the chart's scale), or not over its own bar: its box does not span the bar's centre,
 * or its bottom is more than three of its own heights above the bar's top (or its T = 1 outline's) with no leader line from
 * it to the bar. Also how many numbers were measured.
 */
function barNumbers() {
  const problems = [];
  let measured = 0;
  for (const fig of document.querySelectorAll("#stages figure[data-stage]")) {
    if (fig.getClientRects().length === 0) continue;
    const svg = fig.querySelector("svg.chart");
    const scale = svg.getScreenCTM()?.a ?? 0;
    const stage = fig.dataset.stage;
    // (d3 keeps each element's datum on it: a number's is { d: its bar's item }, a bar's the item)
    const bars = new Map([...fig.querySelectorAll(".bars rect")].map((r) => [r.__data__.id, r.getBoundingClientRect()]));
    // (the temperature chart's dashed T = 1 outline: a number sits over the taller of the two)
    const ghosts = new Map([...fig.querySelectorAll(".ghosts rect")].map((r) => [r.__data__.id, r.getBoundingClientRect()]));
    const leaders = new Map([...fig.querySelectorAll(".leaders line")].map((l) => [l.__data__.d.id, l.getBoundingClientRect()]));
    for (const text of fig.querySelectorAll(".values text")) {
      measured++;
      const px = parseFloat(getComputedStyle(text).fontSize) * scale;
      const name = `${stage} “${text.textContent}”`;
      if (px < 11 - 0.05) problems.push(`${name}: ${px.toFixed(1)} px`);
      const box = text.getBoundingClientRect();
      const bar = bars.get(text.__data__.d.id);
      const centre = (bar.left + bar.right) / 2;
      if (box.left > centre || box.right < centre) problems.push(`${name}: not over its bar (text ${box.left.toFixed(0)}–${box.right.toFixed(0)}, bar centre ${centre.toFixed(0)})`);
      const rise = Math.min(bar.top, ghosts.get(text.__data__.d.id)?.top ?? Infinity) - box.bottom;
      if (rise <= 3 * px) continue;
      const leader = leaders.get(text.__data__.d.id);
      const joined = leader !== undefined && Math.abs(leader.top - box.bottom) < 3 && Math.abs(leader.bottom - bar.top) < 3;
      if (!joined) problems.push(`${name}: ${rise.toFixed(0)} px above its bar (${px.toFixed(1)} px type), no leader line`);
    }
  }
  return { problems, measured };
}

describe("numbers over the bars: ≥ 11 px in a lesson's column, each near its own bar", () => {
  const cases = [
    ["?lang=en&embed=1&preset=capital-zh", 360, 600],
    ["?lang=zh&embed=1&preset=react-zh&top_p=0.9&seed=3", 360, 480],
    ["?lang=en&embed=1&preset=plugin-zh&top_k=5&temperature=1.4&seed=7", 480, 400],
    ["?lang=zh&embed=1&preset=capital-zh&min_p=0.05", 640, 500],
    ["?lang=en&embed=1&preset=ts-zh&top_p=0.5&temperature=1.6&seed=84", 800, 600],
    ["?lang=en&preset=capital-zh", 1280, 800],
    ["?lang=zh&preset=react-zh&top_k=8&top_p=0.9", 1280, 800],
  ];
  for (const [query, width, height] of cases) {
    test(`${query} at ${width}×${height}`, async () => {
      const { page, context, problems: console } = await open(query, { viewport: { width, height } });
      const found = [];
      for (let i = 1; i <= 3; i++) {
        await page.locator("#step").click();
        await chartsAfterStep(page, i);
        const seen = await page.evaluate(barNumbers);
        assert.ok(seen.measured > 0, "numbers were measured");
        found.push(...seen.problems.map((p) => `step ${i}: ${p}`));
      }
      if (width === 360 && query.includes("capital")) {
        await page.locator('#stages figure[data-stage="softmax"]').scrollIntoViewIfNeeded();
        await screenshot(page, "qa10-embed-360-softmax.png");
      }
      assert.deepEqual(found, []);
      assert.deepEqual(console.console, []);
      await context.close();
    });
  }
});

describe("the final strip's numbers (its tokens' shares, u, the axis) are ≥ 11 px in a narrow frame", () => {
  // (the strip is 820 units wide: in a 360 px embed its text was drawn 4 px tall)
  const cases = [
    ["?lang=zh&embed=1&preset=react-zh&top_p=0.9", 360, 600],
    ["?lang=en&embed=1&preset=capital-zh&temperature=1.2&seed=5", 480, 400],
    ["?lang=en&embed=1&preset=plugin-zh", 640, 500],
    ["?lang=zh&embed=1&preset=react-zh&strategy=greedy", 800, 300],
    ["?lang=zh&preset=react-zh", 390, 844],
    ["?lang=en&preset=react-zh", 1280, 800],
  ];
  for (const [query, width, height] of cases) {
    test(`${query} at ${width}×${height}`, async () => {
      const { page, context } = await open(query, { viewport: { width, height } });
      await page.locator("#step").click();
      await chartsAfterStep(page, 1);
      const texts = await page.evaluate(() => {
        const svg = document.querySelector("#final svg.chart");
        const scale = svg.getScreenCTM().a;
        return [...svg.querySelectorAll("text")]
          .filter((t) => t.getClientRects().length > 0 && t.textContent.trim() !== "")
          .map((t) => ({ text: t.textContent, px: parseFloat(getComputedStyle(t).fontSize) * scale }));
      });
      assert.ok(texts.some((t) => /%/.test(t.text)), "numbers are drawn");
      assert.deepEqual(texts.filter((t) => t.px < 11 - 0.05).map((t) => `“${t.text}” ${t.px.toFixed(1)} px`), []);
      if (width === 360) {
        await page.locator("#final").scrollIntoViewIfNeeded();
        await screenshot(page, "qa10-embed-360-final.png");
      }
      await context.close();
    });
  }
});

describe("a learner with the keyboard only, in an embed", () => {
  for (const lang of ["en", "zh"]) {
    test(`${lang}: Step or Play to the end of the text leaves the focus on Reset, not on the page`, async () => {
      const { page, context } = await open(`?lang=${lang}&embed=1&preset=react-zh&max_new_tokens=3`, { viewport: { width: 360, height: 400 } });
      const focused = () => page.evaluate(() => `${document.activeElement?.id || document.activeElement?.tagName}${document.activeElement?.disabled ? " (disabled)" : ""}`);
      await page.locator("#step").focus();
      for (let i = 0; i < 3; i++) await page.keyboard.press("Enter");
      await page.locator("#chips li").nth(2).waitFor();
      // the text is finished: Step is disabled, and the focus was on it (it fell to the page's body)
      assert.ok(await page.locator("#step").isDisabled());
      assert.equal(await focused(), "reset");
      await page.keyboard.press("Enter");
      assert.equal(await page.locator("#chips li").count(), 0, "Enter resets");
      // Play to the end, by keyboard: the focus stays on a control too
      await page.locator("#play").focus();
      await page.keyboard.press("Enter");
      await page.locator("#chips li").nth(2).waitFor();
      await page.waitForFunction(() => document.querySelector("#play").disabled);
      assert.equal(await focused(), "reset");
      await context.close();
    });
  }
});
