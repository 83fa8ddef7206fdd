// Projector mode's header line ("T 0.8 · top-p 0.9 · seed 84"): a Step under the same settings
// neither rebuilds nor measures it (it was rewritten and measured, a forced layout, on every Step),
// yet it is never stale: a new setting, a narrower or wider window, a lesson and the other language
// each give the line a teacher expects, on a small projector (one header row, the line cut to what
// fits with "…") and a large one, and so does a window made shorter or taller across the one-row
// header's 641 px (a teacher's zoom).
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

  // A teacher's Ctrl/⌘ + on a 1024×768 projector makes the page 820×614 (125 %): under 641 px high
  // the header becomes one row (styles/projector-small.css) while its brand may stay as wide. The
  // line overflowed with no "…", or, the other way, stayed cut with room for every setting.
  const query = "?projector=1&lang=zh-CN&top_k=40&top_p=0.9&min_p=0.05&seed=84";
  for (const [width, from, to] of [[1024, 700, 620], [1024, 620, 700], [820, 660, 614], [820, 614, 660]]) {
    test(`${width}×${from} → ${width}×${to} (the header one row or two): the line shows what a fresh page at ${width}×${to} shows`, async () => {
      const fresh = await open(query, { viewport: { width, height: to } });
      await fresh.page.keyboard.press("ArrowRight");
      await fresh.page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
      await frames(fresh.page);
      const want = await fresh.page.evaluate(line);
      assert.equal(want.overflows, false);
      await fresh.context.close();

      const { page, context, problems } = await open(query, { viewport: { width, height: from } });
      await page.keyboard.press("ArrowRight");
      await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
      await frames(page);
      await page.setViewportSize({ width, height: to });
      // (the refit is the frame after the resize: wait for the line a fresh page shows, then check)
      await page.waitForFunction((shown) => {
        const el = document.querySelector(".projector-settings");
        const seen = el.querySelector("[aria-hidden='true']") ?? el;
        return seen.textContent.replace(/\s+/g, " ").trim() === shown;
      }, want.shown, { timeout: 5000 }).catch(() => {});
      const now = await page.evaluate(line);
      assert.equal(now.overflows, false, `the line runs past the header: ${now.shown}`);
      assert.equal(now.shown, want.shown);
      assert.deepEqual(problems, { console: [], foreign: [] });
      await context.close();
    });
  }
});
