// Status lines and a screen reader, in Chromium: a live region is rewritten only when its words
// change (a screen reader read the comparison's note again at every step).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite } from "./harness.mjs";

const open = browserSuite();

/**
 * Watches every status line on the page (role status / alert / log, aria-live): `window.repeatedStatusLines`
 * collects each one rewritten on screen with the words it already had, which a screen reader says
 * again (at every step, the comparison's "Press Run comparison…" was read out anew).
 */
function watchStatusLines() {
  window.repeatedStatusLines = [];
  const watched = new Set();
  const watch = () => {
    // (aria-live="off" silences a region, an <output>'s implicit status too: the plain text is one)
    for (const r of document.querySelectorAll("[aria-live]:not([aria-live=off]), [role=status], [role=alert], [role=log]")) {
      if (watched.has(r)) continue;
      watched.add(r);
      let before = r.textContent;
      new MutationObserver(() => {
        const now = r.textContent;
        if (now === before && now.trim() !== "" && r.checkVisibility()) window.repeatedStatusLines.push(`${r.id || r.className}: “${now.trim().slice(0, 50)}”`);
        before = now;
      }).observe(r, { childList: true, subtree: true, characterData: true });
    }
  };
  watch();
  // a lesson's own status lines are built when it opens
  new MutationObserver(watch).observe(document.body, { childList: true, subtree: true });
}

describe("a screen reader hears a status line again only when its words change", () => {
  const cases = [
    ["?lang=en", "the page (the comparison's note)"],
    ["?lang=zh&embed=1", "embedded, zh"],
    ["?lang=en&lesson=exp1", "实验一"],
    ["?lang=zh&lesson=exp2", "实验二"],
    ["?lang=en&lesson=exp3", "实验三"],
    ["?lang=zh&lesson=myth2", "误解二"],
    ["?lang=en&lesson=myth4", "误解四"],
  ];
  for (const [query, name] of cases) {
    test(`${name}: three steps and a temperature change`, async () => {
      const { page, context } = await open(query, { viewport: { width: 1280, height: 800 } });
      await page.evaluate(watchStatusLines);
      for (let i = 0; i < 3 && !(await page.locator("#step").isDisabled()); i++) {
        await page.locator("#step").click();
        await page.waitForTimeout(50);
      }
      const slider = page.locator("#temperature:visible, .lesson-own input[type=range]:visible").first();
      if ((await slider.count()) > 0) {
        await slider.focus();
        await page.keyboard.press("ArrowRight");
      }
      await page.waitForTimeout(100);
      const same = await page.evaluate(() => window.repeatedStatusLines);
      assert.deepEqual([...new Set(same)], []);
      await context.close();
    });
  }
});
