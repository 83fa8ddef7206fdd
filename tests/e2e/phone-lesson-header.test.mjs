// A lesson on a phone (390×844, 360×740, touch): its Start over / 重新开始 and Close / 关闭 stay on
// one line together (关闭 wrapped alone under 重新开始 beside a two-line Chinese title), and an
// Inspect button brings the inspector's Kept count where the eye is, not to the screen's very bottom
// edge (it landed with its bottom on the last pixel). Both failed on the build before the fix.
// Screenshots go to /tmp/class17/.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { browserSuite } from "./harness.mjs";

const open = browserSuite();
const SHOTS = "/tmp/class17";
mkdirSync(SHOTS, { recursive: true });
const settled = (page) => page.waitForFunction(() => !document.getElementById("lessons")?.hasAttribute("aria-busy"));
const PHONES = [
  { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true },
  { viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true },
];
const NAMES = { en: ["Start over", "Close"], zh: ["重新开始", "关闭"] };

describe("a lesson on a phone", () => {
  for (const phone of PHONES) {
    for (const lang of ["zh", "en"]) {
      const size = `${phone.viewport.width}×${phone.viewport.height}`;
      test(`${lang}, ${size}: every lesson's Start over and Close share a line, inside the card`, async () => {
        const { page, context, problems } = await open(`?lang=${lang}`, phone);
        const [again, close] = NAMES[lang];
        const ids = await page.$$eval("#lesson-list button[data-lesson]", (bs) => bs.map((b) => b.dataset.lesson));
        assert.ok(ids.length >= 10, `${ids.length} lessons`);
        for (const id of ids) {
          const nav = page.locator(`#lesson-list button[data-lesson="${id}"]`);
          await nav.scrollIntoViewIfNeeded();
          await nav.tap();
          await settled(page);
          const title = page.locator("#lesson-body .lesson-title");
          const a = await title.getByRole("button", { name: again, exact: true }).boundingBox();
          // (Close's accessible name is longer than its word: found by its text)
          const c = await title.locator("button", { hasText: new RegExp(`^${close}$`) }).boundingBox();
          const card = await page.locator("#lesson-body").boundingBox();
          assert.ok(a !== null && c !== null, `${id}: both buttons shown`);
          assert.ok(Math.abs(a.y - c.y) < 2, `${id}: ${close} (top ${c.y}) on the line of ${again} (top ${a.y})`);
          assert.ok(c.x > a.x + a.width - 1, `${id}: ${close} right of ${again}`);
          assert.ok(c.x + c.width <= card.x + card.width + 1, `${id}: ${close} inside the lesson card`);
          if (id === "exp3") await page.screenshot({ path: `${SHOTS}/phone-lesson-header-${lang}-${phone.viewport.width}.png` });
          // (a second tap soon after the first near it is dropped as a double tap: views/double-tap.ts)
          await page.waitForTimeout(350);
        }
        assert.deepEqual(problems, { console: [], foreign: [] });
        await context.close();
      });

      test(`${lang}, ${size}: Inspect brings the Kept count to the middle of the screen, not its edge`, async () => {
        const { page, context } = await open(`?lang=${lang}`, phone);
        const nav = page.locator(`#lesson-list button[data-lesson="exp3"]`);
        await nav.scrollIntoViewIfNeeded();
        await nav.tap();
        await settled(page);
        const press = page.locator("#lesson-body").getByRole("button", { name: lang === "en" ? "Inspect B" : "在检查器里看 B", exact: true });
        await press.scrollIntoViewIfNeeded();
        await page.waitForTimeout(400);
        await press.tap();
        await settled(page);
        await page.waitForFunction(() => document.getElementById("stat-kept")?.classList.contains("lesson-highlight"));
        const k = await page.evaluate(() => {
          const r = document.getElementById("stat-kept").getBoundingClientRect();
          return { top: r.top, bottom: r.bottom, vh: innerHeight };
        });
        await page.screenshot({ path: `${SHOTS}/phone-lesson-inspect-${lang}-${phone.viewport.width}.png` });
        assert.ok(k.top >= k.vh * 0.2 && k.bottom <= k.vh * 0.8, `the Kept count lies between 20 % and 80 % of the screen's height (${Math.round(k.top)}–${Math.round(k.bottom)} of ${k.vh})`);
        await context.close();
      });
    }
  }
});
