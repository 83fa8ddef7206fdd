// 实验三's "Inspect A" / "Inspect B" and 误解五's "Inspect top-k = 10" / "Inspect top-p = 0.9" put
// the page on a prompt and settings whose count the lesson states; the press must show that count.
// On a phone (and below a laptop's fold) the inspector is a screen or two under the lesson, so the
// press seemed to do nothing: now the inspector's Kept count is lit and brought on screen, and it
// says the lesson's number. Failed on the old build (the Kept count stayed off screen).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, screenshot } from "./harness.mjs";

const open = browserSuite();
const settled = (page) => page.waitForFunction(() => !document.getElementById("lessons")?.hasAttribute("aria-busy"));
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const LAPTOP = { viewport: { width: 1366, height: 768 } };

/** The Kept count's text, whether it is within the viewport, and whether it is lit. */
const kept = (page) =>
  page.evaluate(() => {
    const node = document.getElementById("stat-kept");
    const r = node.getBoundingClientRect();
    return { text: node.textContent.trim(), onScreen: r.top >= 0 && r.bottom <= innerHeight && r.height > 0, lit: node.classList.contains("lesson-highlight") };
  });

const CASES = [
  // [lesson, button (en, zh), the count the lesson states for it]
  ["exp3", ["Inspect A", "在检查器里看 A"], "1"],
  ["exp3", ["Inspect B", "在检查器里看 B"], "472"],
  ["myth5", ["Inspect top-k = 10", "在检查器里看 top-k = 10"], "10"],
  ["myth5", ["Inspect top-p = 0.9", "在检查器里看 top-p = 0.9"], "472"],
];

describe("a lesson's Inspect buttons show the inspector's count they name", () => {
  for (const [where, options] of [["phone 390×844", PHONE], ["laptop 1366×768", LAPTOP]]) {
    for (const lang of ["en", "zh"]) {
      test(`${lang}, ${where}: each Inspect press brings the Kept count on screen, lit, saying the lesson's number`, async () => {
        const { page, context, problems } = await open(`?lang=${lang}`, options);
        for (const [lesson, names, count] of CASES) {
          await page.evaluate(() => scrollTo(0, 0));
          const nav = page.locator(`#lesson-list button[data-lesson="${lesson}"]`);
          if ((await nav.getAttribute("aria-current")) === null) {
            await nav.scrollIntoViewIfNeeded();
            await (options.hasTouch ? nav.tap() : nav.click());
            await settled(page);
          }
          const name = names[lang === "en" ? 0 : 1];
          const press = page.locator("#lesson-body").getByRole("button", { name, exact: true });
          await press.scrollIntoViewIfNeeded();
          // A second tap within the double-tap time near the first is its double and is dropped
          // (views/double-tap.ts); a learner reads the lesson before pressing, so the test waits too
          // (CI failed once on the first press, the likely cause a press that soon after the tab's tap).
          if (options.hasTouch) await page.waitForTimeout(400);
          await (options.hasTouch ? press.tap() : press.click());
          await settled(page);
          // (the lesson's own number, in its table or column, for the same prompt and settings)
          assert.ok((await page.locator("#lesson-body").textContent()).includes(count), `${lesson} states ${count}`);
          const k = await kept(page);
          assert.ok(k.onScreen, `${name}: the inspector's Kept count is on screen (${JSON.stringify(k)})`);
          assert.ok(k.lit, `${name}: the Kept count is lit`);
          assert.match(k.text, new RegExp(`^${count}\\b`), `${name}: Kept says ${count} (${k.text})`);
          if (count === "472" && lesson === "exp3") await screenshot(page, `lesson-inspect-buttons-${lang}-${options.viewport.width}.png`);
        }
        assert.deepEqual(problems, { console: [], foreign: [] });
        await context.close();
      });
    }
  }
});
