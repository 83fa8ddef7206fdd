// Projector mode's header line ("T 0.8 · top-p 0.9 · seed 84"): a Step under the same settings
// neither rebuilds nor measures it (it was rewritten and measured, a forced layout, on every Step),
// yet it is never stale: a new setting, a narrower or wider window, a lesson and the other language
// each give the line a teacher expects, on a small projector (one header row, the line cut to what
// fits with "…") and a large one.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite } from "./harness.mjs";

const open = browserSuite();
const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/** The line as the eye sees it, whether it overflows, and how often it was changed since `watch`. */
function line() {
  const el = document.querySelector(".projector-settings");
  const seen = el.querySelector("[aria-hidden='true']") ?? el;
  return { shown: seen.textContent.replace(/\s+/g, " ").trim(), overflows: el.scrollWidth > el.clientWidth + 1, changes: window.lineChanges ?? null };
}
function watch() {
  window.lineChanges = 0;
  new MutationObserver((records) => (window.lineChanges += records.length)).observe(document.querySelector(".projector-settings"), { childList: true, subtree: true, characterData: true, attributes: true });
}

describe("projector mode's header settings line", () => {
  for (const [width, height] of [[853, 533], [1280, 720]]) {
    test(`${width}×${height}: Steps under the same settings leave it alone; a setting, a resize, a lesson and the language each refit it`, async () => {
      const { page, context, problems } = await open(`?projector=1&lang=en&top_k=40`, { viewport: { width, height } });
      await page.keyboard.press("ArrowRight");
      await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
      await frames(page);
      await page.evaluate(watch);
      for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
      await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 4);
      await frames(page);
      let now = await page.evaluate(line);
      assert.equal(now.changes, 0, "three Steps under the same settings rewrote the line");
      assert.equal(now.overflows, false);
      assert.match(now.shown, /^T 0\.8/);

      // a new temperature: the line says it at once
      await page.evaluate(() => {
        const t = document.getElementById("temperature");
        t.value = "1.3";
        t.dispatchEvent(new Event("input", { bubbles: true }));
      });
      await page.waitForFunction(() => document.querySelector(".projector-settings").textContent.includes("T 1.3"));

      // narrower, then wider again, with no Step: cut to fit, then as much as a fresh page shows
      const fresh = await page.evaluate(line);
      await page.setViewportSize({ width: width - 200, height });
      await frames(page);
      await frames(page);
      now = await page.evaluate(line);
      assert.equal(now.overflows, false, `narrower: ${now.shown}`);
      await page.setViewportSize({ width, height });
      await frames(page);
      await frames(page);
      assert.equal((await page.evaluate(line)).shown, fresh.shown, "wider again: the line shows what it showed before");

      // a lesson (its menu entry in the header changes width), then the other language
      await page.keyboard.press("2");
      await page.waitForFunction(() => !document.getElementById("lessons")?.hasAttribute("aria-busy") && document.querySelector(".lesson-body") !== null);
      await frames(page);
      await frames(page);
      now = await page.evaluate(line);
      assert.equal(now.overflows, false, `with a lesson: ${now.shown}`);
      await page.locator("#lang-toggle").click();
      await page.waitForFunction(() => document.documentElement.lang.startsWith("zh"));
      await frames(page);
      await frames(page);
      now = await page.evaluate(line);
      assert.equal(now.overflows, false, `in Chinese: ${now.shown}`);
      assert.match(now.shown, /种子|温度|T /);
      assert.deepEqual(problems, { console: [], foreign: [] });
      await context.close();
    });
  }
});
