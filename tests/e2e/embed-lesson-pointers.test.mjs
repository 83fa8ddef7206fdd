// A lesson embedded in a course page (embed mode: the sidebar folded into the Settings drawer): every
// "show me" / "try it" button on screen lights a control the learner can then see and use. They lit
// sidebar controls inside the closed drawer (nothing on screen changed; the lesson said "drag the
// slider"); now the drawer opens, focus on the lit control. Failed on the old build.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, screenshot } from "./harness.mjs";

const open = browserSuite();
const FRAME = { width: 720, height: 480 };
const settled = (page) => page.waitForFunction(() => !document.getElementById("lessons")?.hasAttribute("aria-busy"));
const LESSONS = { zh: ["实验三", "误解二", "误解三", "误解四", "误解五", "误解六"], en: ["Exp. 3", "Myth 2", "Myth 3", "Myth 4", "Myth 5", "Myth 6"] };

/** Whether the element `selector` names is on screen: laid out, inside the frame, not covered at its centre. */
const onScreen = (page, selector) =>
  page.evaluate((selector) => {
    const node = document.querySelector(selector);
    if (!(node instanceof HTMLElement) || node.getClientRects().length === 0) return false;
    const box = node.getBoundingClientRect();
    const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
    if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) return false;
    const top = document.elementFromPoint(x, y);
    return top !== null && (node.contains(top) || top.contains(node) || top.closest("label")?.htmlFor === node.id);
  }, selector);

describe("embed mode: a lesson's pointers light controls the learner can see", () => {
  for (const lang of ["zh", "en"]) {
    test(`${lang}: each lesson's sidebar pointer opens the Settings drawer on the control it lights, and Esc folds it again`, async () => {
      const { page, context, problems } = await open(`?lang=${lang}&embed=1&lesson=exp3`, { viewport: FRAME });
      const missed = [];
      let pointed = 0;
      for (const name of LESSONS[lang]) {
        await page.getByRole("navigation").getByRole("button", { name: new RegExp(`^${name}`) }).click();
        await settled(page);
        const targets = await page.locator("#lesson-body button[data-target]").evaluateAll((buttons) =>
          buttons.filter((b) => b.getClientRects().length > 0).map((b) => ({ text: b.textContent, target: b.dataset.target })),
        );
        for (const { text, target } of targets) {
          await page.locator("#lesson-body").getByRole("button", { name: text, exact: true }).click();
          await settled(page);
          pointed++;
          // the lit control is on screen and has focus (a keyboard user lands on it)
          const seen = await onScreen(page, target);
          const focused = await page.evaluate((target) => document.activeElement === document.querySelector(target) || document.querySelector(target)?.contains(document.activeElement), target);
          if (!seen || !focused) missed.push(`${name}: “${text}” → ${target} (on screen ${seen}, focused ${focused})`);
          if (name === LESSONS[lang][5]) await screenshot(page, `embed-lesson-pointers-myth6-${lang}-720x480.png`);
          // Esc folds the drawer back (focus to its button), the lesson still open
          if ((await page.evaluate(() => document.body.dataset.settings)) === "open") {
            await page.keyboard.press("Escape");
            assert.equal(await page.evaluate(() => document.body.dataset.settings), undefined);
            assert.ok(await page.locator("#lesson-body").isVisible());
          }
        }
      }
      assert.ok(pointed >= 6, `the lessons have pointers to try (${pointed})`);
      assert.deepEqual(missed, []);
      const size = await page.evaluate(() => ({ scroll: document.scrollingElement.scrollHeight, width: document.scrollingElement.scrollWidth }));
      assert.ok(size.scroll <= FRAME.height && size.width <= FRAME.width, `no outer scroll (${JSON.stringify(size)})`);
      assert.deepEqual(problems, { console: [], foreign: [] });
      await context.close();
    });
  }

  test("zh: 自测题's try-it buttons light their control in the drawer", async () => {
    const { page, context } = await open("?lang=zh&embed=1&lesson=quiz", { viewport: FRAME });
    await settled(page);
    const missed = [];
    for (let n = 1; n <= 6; n++) {
      const tryIt = page.locator("#lesson-body button[data-target]").filter({ visible: true });
      if ((await tryIt.count()) > 0) {
        const target = await tryIt.first().getAttribute("data-target");
        await tryIt.first().click();
        await settled(page);
        if (!(await onScreen(page, target))) missed.push(`question ${n} → ${target}`);
        if ((await page.evaluate(() => document.body.dataset.settings)) === "open") await page.keyboard.press("Escape");
      }
      if (n < 6) await page.locator("#lesson-body").getByRole("button", { name: "下一题", exact: true }).click();
    }
    assert.deepEqual(missed, []);
    await context.close();
  });
});
