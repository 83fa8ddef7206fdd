// A phone (390×844, 320×568, touch), in Chromium: the header's title and buttons do not overlap and
// the page does not scroll sideways; Step follows the prompt and the settings follow the text (in the
// DOM, so tab order follows the screen), back in the sidebar on a wide screen; every visible control
// is at least 24 × 24 CSS px.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, screenshot } from "./harness.mjs";

const open = browserSuite();

describe("a phone (390×844, touch)", () => {
  for (const lang of ["zh", "en"]) {
    test(`${lang}: the title and the header's buttons do not overlap, each button on one line, no sideways scroll`, async () => {
      const { page, context } = await open(`?lang=${lang}`, { viewport: { width: 390, height: 844 } });
      const m = await page.evaluate(() => {
        const boxes = [document.querySelector(".brand h1"), ...document.querySelectorAll(".top > button, .top > a, .top > label")]
          .filter((e) => e.checkVisibility())
          .map((e) => {
            // the text as drawn, not the flex item's box (a squeezed h1 overflows its box)
            const range = document.createRange();
            range.selectNodeContents(e);
            return { name: e.textContent.trim(), r: range.getBoundingClientRect(), lines: new Set([...range.getClientRects()].map((q) => Math.round(q.top))).size };
          });
        const overlaps = [];
        for (let i = 0; i < boxes.length; i++) {
          for (let j = i + 1; j < boxes.length; j++) {
            const [a, b] = [boxes[i].r, boxes[j].r];
            if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) overlaps.push(`${boxes[i].name} × ${boxes[j].name}`);
          }
        }
        return { overlaps, broken: boxes.filter((b) => b.lines > 1).map((b) => b.name), width: document.scrollingElement.scrollWidth };
      });
      await screenshot(page, `qa-phone-${lang}.png`);
      assert.deepEqual(m.overlaps, [], "header text overlaps");
      assert.deepEqual(m.broken, [], "header buttons broken over lines");
      assert.ok(m.width <= 390, `no sideways scroll (${m.width})`);
      await context.close();
    });
  }
});

describe("a phone: Step follows the prompt, the settings come after the text", () => {
  for (const [width, height] of [[390, 844], [320, 568]]) {
    for (const lang of ["zh", "en"]) {
      test(`${lang} ${width}×${height}: Step before the settings, on or next to the first screen; no sideways scroll`, async () => {
        const { page, context, problems } = await open(`?lang=${lang}`, { viewport: { width, height } });
        const m = await page.evaluate(() => {
          const top = (s) => document.querySelector(s).getBoundingClientRect().top + scrollY;
          return { step: top("#step"), prompt: top("#prompt"), settings: top("#params-h"), temperature: top("#temperature"), scrollWidth: document.scrollingElement.scrollWidth };
        });
        assert.ok(m.step < m.settings && m.step < m.temperature, `Step (${m.step}) comes before the settings (${m.settings})`);
        assert.ok(m.step - m.prompt < 1.1 * height, `Step is ${m.step - m.prompt} px below the prompt box (a screen is ${height})`);
        assert.ok(m.scrollWidth <= width, `no sideways scroll at ${width} px (${m.scrollWidth})`);
        // the tab order is the order on screen: prompt → … → Step → … → temperature
        const order = await page.evaluate(() => {
          const all = [...document.querySelectorAll("textarea, button, input, select")].filter((e) => e.checkVisibility());
          return ["prompt", "step", "temperature"].map((id) => all.indexOf(document.getElementById(id)));
        });
        assert.ok(order[0] < order[1] && order[1] < order[2], `DOM (tab) order prompt < Step < temperature: ${order}`);
        // Step works from there
        await page.locator("#step").click();
        await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
        await page.locator("#step").scrollIntoViewIfNeeded();
        await screenshot(page, `qa2-phone-${width}-${lang}.png`);
        assert.deepEqual(problems, { console: [], foreign: [] });
        await context.close();
      });
    }
  }

  test("the settings card goes back to the sidebar on a wide screen, and stays there in embed mode", async () => {
    const { page, context } = await open("?lang=en", { viewport: { width: 390, height: 844 } });
    const inSidebar = () => page.evaluate(() => document.getElementById("params-h").closest("aside") !== null);
    assert.equal(await inSidebar(), false);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.waitForFunction(() => document.getElementById("params-h").closest("aside") !== null);
    assert.ok((await page.evaluate(() => document.querySelector("#temperature").getBoundingClientRect().left)) < 400, "temperature in the left column");
    await context.close();
    const embed = await open("?lang=en&embed=1", { viewport: { width: 390, height: 600 } });
    assert.equal(await embed.page.evaluate(() => document.getElementById("params-h").closest("aside") !== null), true, "embed: the drawer keeps every setting");
    await embed.context.close();
  });
});

describe("a phone (390 × 844, touch)", () => {
  for (const source of ["model", "manual"]) test(`every visible control the learner taps is at least 24 × 24 CSS px (${source})`, async () => {
    const { page, context } = await open(`?lang=en&source=${source}`, { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    await page.getByRole("button", { name: "Step", exact: true }).tap();
    await page.locator("#params-h").scrollIntoViewIfNeeded();
    await page.locator("details:has(#typical-p) > summary").tap();
    const small = await page.evaluate(() =>
      [...document.querySelectorAll("button, input, select, textarea, summary")]
        .filter((e) => e.checkVisibility())
        .map((e) => [e.id || e.className || e.textContent.trim().slice(0, 20), e.getBoundingClientRect()])
        .filter(([, b]) => b.width < 24 || b.height < 24)
        .map(([name, b]) => `${name} ${b.width.toFixed(0)}×${b.height.toFixed(0)}`),
    );
    assert.deepEqual(small, []);
    await context.close();
  });
});

describe("projector mode on a phone (390×844, portrait)", () => {
  // the 4:3 arrangement put the chart beside the key numbers: a column 80 px wide, its sixteen
  // rotated labels one smudge, its title a word a line
  for (const lang of ["zh", "en"]) {
    test(`${lang}: the chart as wide as the screen, its token labels apart, nothing sideways`, async () => {
      const { page, context, problems } = await open(`?lang=${lang}&projector=1`, { viewport: { width: 390, height: 844 } });
      await page.locator("#step").click();
      await page.waitForTimeout(800);
      const m = await page.evaluate(() => {
        const svg = document.querySelector(".stage.pj-focus svg.chart");
        const labels = [...svg.querySelectorAll(".axis-x text")].filter((t) => t.checkVisibility()).map((t) => t.getBoundingClientRect());
        let touching = 0;
        for (let i = 1; i < labels.length; i++) {
          const [a, b] = [labels[i - 1], labels[i]];
          // rotated labels hang down-left from their bars: each one's end (at its bar) a line of
          // letters right of the one before's (sixteen bars in 300 px put them 17 px apart)
          if (b.right < a.right + 20) touching++;
        }
        return { chart: svg.getBoundingClientRect().width, labels: labels.length, touching, wide: document.documentElement.scrollWidth };
      });
      assert.ok(m.chart >= 300, `the chart is ${m.chart} px wide`);
      assert.ok(m.labels >= 3 && m.labels <= 10, `${m.labels} token labels`);
      assert.equal(m.touching, 0);
      assert.ok(m.wide <= 390, `the page is ${m.wide} px wide`);
      await screenshot(page, `phone-projector-${lang}.png`);
      assert.deepEqual(problems.console, []);
      await context.close();
    });
  }
});
