// A presentation clicker in projector mode: most send PageDown / PageUp (some → / ←). They did
// nothing there (the page does not scroll in projector mode): now PageDown steps, as →, and PageUp
// goes back, as ←; during Play PageDown pauses it. On the normal page they
// still scroll it. The shortcuts overlay lists them in both languages. Failed on the build before
// the fix (PageDown added no token).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite } from "./harness.mjs";

const open = browserSuite();
const XGA = { viewport: { width: 1024, height: 768 } };
const tokens = (page) => page.evaluate(() => document.querySelectorAll("#generated .chip:not(.prompt-chip)").length);
const stepNumber = (page) => page.evaluate(() => document.querySelector("#projector-nums .pj-chosen dt")?.textContent ?? "");

describe("a presentation clicker in projector mode", () => {
  for (const lang of ["en", "zh"]) {
    test(`${lang}: PageDown steps, PageUp goes back, Play pauses for PageDown; the overlay lists them`, async () => {
      const { page, context, problems } = await open(`?lang=${lang}&projector=1&seed=5`, XGA);
      const first = await stepNumber(page);
      await page.keyboard.press("PageDown");
      await page.waitForFunction((before) => document.querySelector("#projector-nums .pj-chosen dt")?.textContent !== before, first, { timeout: 5000 });
      const after1 = await stepNumber(page);
      assert.match(after1, /2/, `one step taken (${first} → ${after1})`);
      await page.keyboard.press("PageDown");
      await page.waitForFunction((before) => document.querySelector("#projector-nums .pj-chosen dt")?.textContent !== before, after1);
      assert.match(await stepNumber(page), /3/);
      await page.keyboard.press("PageUp");
      await page.waitForFunction((s) => document.querySelector("#projector-nums .pj-chosen dt")?.textContent === s, after1);
      assert.equal(await page.evaluate(() => scrollY), 0, "the page did not scroll");
      // during Play: a PageDown pauses it (Play's button says Play again)
      const playText = await page.locator("#play").textContent();
      await page.keyboard.press("Space");
      await page.waitForFunction((idle) => document.getElementById("play")?.textContent !== idle, playText);
      await page.keyboard.press("PageDown");
      await page.waitForFunction((idle) => document.getElementById("play")?.textContent === idle, playText);
      // the overlay lists the keys
      await page.keyboard.press("?");
      const row = page.locator("#help-dialog .keys > div", { has: page.locator("kbd", { hasText: /^PgDn$/ }) });
      assert.equal(await row.count(), 1);
      assert.match(await row.locator("dd").textContent(), lang === "en" ? /clicker/ : /翻页笔/);
      assert.deepEqual(problems, { console: [], foreign: [] });
      await context.close();
    });
  }

  test("en: on the normal page PageDown scrolls it and adds no token", async () => {
    const { page, context } = await open("?lang=en&seed=5", XGA);
    const before = await page.evaluate(() => document.getElementById("inspector-step")?.textContent ?? "");
    await page.keyboard.press("PageDown");
    await page.waitForFunction(() => scrollY > 0);
    assert.equal(await page.evaluate(() => document.getElementById("inspector-step")?.textContent ?? ""), before, "no step taken");
    await context.close();
  });
});
