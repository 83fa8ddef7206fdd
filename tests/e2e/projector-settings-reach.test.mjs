// Projector mode's settings row as a teacher reaches it at 1024×768 (a 4:3 projector), the row of
// projector-settings.test.mjs: each slider long enough to set a value with a finger or a mouse (the
// English row's were 61 px: label, value and Greedy took the width), the header's settings line on
// one line with T, top-k, top-p and the seed (it wrapped to two), and the row opened from the
// keyboard with S, listed in the shortcuts overlay in both languages. Each failed on the build
// before the fix. Screenshots go to /tmp/class17/ (look at them).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { browserSuite } from "./harness.mjs";
import { fitProblems } from "./fit.mjs";

const open = browserSuite();
const SHOTS = "/tmp/class17";
mkdirSync(SHOTS, { recursive: true });
const XGA = { viewport: { width: 1024, height: 768 } };
const SET = "&temperature=1.2&top_k=40&top_p=0.9&seed=7";
/** A slider this long moves top-p (0–1 in 0.01 steps) by about one step per 2 px. */
const MIN_SLIDER_PX = 200;

/** How many lines a node's text is laid out on. */
const lines = (page, selector) =>
  page.evaluate((s) => {
    const range = document.createRange();
    range.selectNodeContents(document.querySelector(s));
    return new Set([...range.getClientRects()].filter((r) => r.width > 0.5).map((r) => Math.round(r.top))).size;
  }, selector);

describe("projector mode's settings row at 1024×768", () => {
  for (const lang of ["en", "zh"]) {
    test(`${lang}: sliders at least ${MIN_SLIDER_PX} px long, the settings line one line, nothing overlaps or scrolls`, async () => {
      const { page, context, problems } = await open(`?lang=${lang}&projector=1${SET}`, XGA);
      assert.equal(await lines(page, ".projector-settings"), 1, "the header's settings line (T · top-k · top-p · seed) is one line");
      await page.click("#projector-controls-toggle");
      await page.waitForSelector("#projector-controls");
      const widths = await page.$$eval("#projector-controls input[type=range]", (inputs) => inputs.map((i) => Math.round(i.getBoundingClientRect().width)));
      assert.equal(widths.length, 3);
      for (const w of widths) assert.ok(w >= MIN_SLIDER_PX, `slider ${w} px long (${widths.join(", ")})`);
      assert.equal(await lines(page, ".projector-settings"), 1, "still one line with the row open");
      await page.screenshot({ path: `${SHOTS}/projector-settings-reach-${lang}-1024.png` });
      assert.deepEqual(await page.evaluate(fitProblems, { minPx: 18 }), []);
      // a finger's drag along the slider sets a value (its track is long enough to aim at)
      const topP = page.locator("#pj-top-p");
      const box = await topP.boundingBox();
      await page.mouse.click(box.x + box.width * 0.25, box.y + box.height / 2);
      const value = Number(await topP.inputValue());
      assert.ok(value > 0.15 && value < 0.35, `a click a quarter along top-p sets about 0.25 (${value})`);
      assert.deepEqual(problems, { console: [], foreign: [] });
      await context.close();
    });
  }

  for (const lang of ["en", "zh"]) {
    test(`${lang}: S opens the row with focus in it, S closes it; the shortcuts list names S`, async () => {
      const { page, context, problems } = await open(`?lang=${lang}&projector=1${SET}`, XGA);
      await page.keyboard.press("s");
      await page.waitForSelector("#projector-controls");
      assert.equal(await page.getAttribute("#projector-controls-toggle", "aria-expanded"), "true");
      assert.equal(await page.evaluate(() => document.getElementById("projector-controls")?.contains(document.activeElement)), true, "focus is in the row");
      // Tab to the temperature slider: its arrows set T (the row is keyboard operable)
      await page.keyboard.press("Tab");
      assert.equal(await page.evaluate(() => document.activeElement?.id), "pj-temperature");
      await page.keyboard.press("ArrowRight");
      await page.waitForFunction(() => new URLSearchParams(location.search || location.hash.slice(1)).get("temperature") !== "1.2");
      // S from a slider is not a shortcut (keys there are the slider's); Shift+Tab back to Greedy, then S
      await page.keyboard.press("Shift+Tab");
      await page.keyboard.press("s");
      await page.waitForFunction(() => document.getElementById("projector-controls") === null);
      assert.equal(await page.getAttribute("#projector-controls-toggle", "aria-expanded"), "false");
      assert.equal(await page.evaluate(() => document.activeElement?.id), "projector-controls-toggle", "focus back on the Settings button");
      assert.equal(await page.getAttribute("#projector-controls-toggle", "aria-keyshortcuts"), "S");
      // the shortcuts overlay lists it, in the page's language
      await page.keyboard.press("?");
      const row = page.locator("#help-dialog .keys > div", { has: page.locator("kbd", { hasText: /^S$/ }) });
      assert.equal(await row.count(), 1, "the overlay lists S");
      const says = await row.locator("dd").textContent();
      assert.match(says, lang === "en" ? /settings row/ : /设置栏/);
      await page.keyboard.press("Escape");
      // outside projector mode S does nothing (there is no row)
      await page.keyboard.press("p");
      await page.keyboard.press("s");
      assert.equal(await page.evaluate(() => document.body.dataset.pjControls ?? null), null);
      assert.deepEqual(problems, { console: [], foreign: [] });
      await context.close();
    });
  }
});
