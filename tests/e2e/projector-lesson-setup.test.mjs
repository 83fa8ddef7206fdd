// Projector mode's lessons lose nothing when their try-it and inspector buttons are hidden there: the
// quiz's hint no longer invites the class to "try it on the page" (its buttons are gone), and 误解五
// can still put the page on top-k = 10 / top-p = 0.9 with seed 42, whose first Step draws the 10th
// kept token, with a button that says what it sets (not "Inspect", the inspector being hidden).
// Both failed on the old build.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, screenshot } from "./harness.mjs";

const open = browserSuite();
const XGA = { width: 1024, height: 768 };
const settled = (page) => page.waitForFunction(() => !document.getElementById("lessons")?.hasAttribute("aria-busy"));
const NAV = { zh: { quiz: /^自测题/, myth5: /^误解五/ }, en: { quiz: /^Quiz/, myth5: /^Myth 5/ } };

/** Open lesson `id`: from projector mode's lesson menu, or the page's lesson buttons. */
async function openLesson(page, lang, id) {
  const projector = await page.evaluate(() => document.body.dataset.projector === "true");
  if (projector) await page.getByRole("combobox", { name: lang === "zh" ? "课程" : "Lesson" }).selectOption(id);
  else await page.getByRole("navigation").getByRole("button", { name: NAV[lang][id] }).click();
  await settled(page);
}
const TRY = /试一试|try it/i;

/** The quiz's hint as shown (innerText: only what is displayed), or null when it is hidden. */
const shownHint = (page) =>
  page.evaluate(() => {
    const hint = document.querySelector("#lesson-body .quiz .lesson-hint");
    return hint instanceof HTMLElement && hint.getClientRects().length > 0 ? hint.innerText.trim() : null;
  });

/** 误解五 on `query`: click the button named `name`, Step once: the settings and the first chip. */
async function myth5FirstStep(page, lang, name) {
  await openLesson(page, lang, "myth5");
  // the page moved on from the lesson's set-up: a Step under other settings
  await page.evaluate(() => {
    const seed = document.getElementById("seed");
    seed.value = "7";
    seed.dispatchEvent(new Event("change", { bubbles: true }));
    document.getElementById("step").click();
  });
  await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
  await page.locator("#lesson-body").getByRole("button", { name, exact: true }).click();
  await settled(page);
  await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 0);
  await page.locator("#step").click();
  await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
  return page.evaluate(() => ({
    topK: document.getElementById("top-k").value,
    topP: document.getElementById("top-p").value,
    seed: document.getElementById("seed").value,
    chip: document.querySelector("#chips li").textContent,
  }));
}

describe("projector mode's lessons without their hidden buttons", () => {
  for (const lang of ["zh", "en"]) {
    test(`${lang}: the quiz's hint invites trying the page only where its try-it buttons are shown`, async () => {
      for (const projector of [true, false]) {
        const { page, context } = await open(`?lang=${lang}${projector ? "&projector=1" : ""}`, { viewport: XGA });
        await openLesson(page, lang, "quiz");
        for (let n = 1; n <= 6; n++) {
          const hint = await shownHint(page);
          const tryShown = await page.locator("#lesson-body .quiz button[data-target]").isVisible();
          assert.ok(hint !== null && hint.length > 0, `quiz ${n}: a hint is shown (${projector ? "projector" : "page"})`);
          assert.equal(TRY.test(hint), tryShown, `quiz ${n} (${projector ? "projector" : "page"}, try-it ${tryShown ? "shown" : "hidden"}): "${hint}"`);
          if (projector && n === 1) await screenshot(page, `projector-quiz-hint-${lang}-1024x768.png`);
          if (n < 6) await page.locator("#lesson-body").getByRole("button", { name: lang === "zh" ? "下一题" : "Next", exact: true }).click();
        }
        await context.close();
      }
    });

    test(`${lang}: 误解五 in projector mode sets the page on top-k 10 / top-p 0.9 with seed 42, as the page's Inspect buttons do`, async () => {
      const names = lang === "zh" ? { k: "在检查器里看 top-k = 10", p: "在检查器里看 top-p = 0.9" } : { k: "Inspect top-k = 10", p: "Inspect top-p = 0.9" };
      const set = lang === "zh" ? { k: "把页面设为 top-k = 10，种子 42", p: "把页面设为 top-p = 0.9，种子 42" } : { k: "Set the page to top-k = 10, seed 42", p: "Set the page to top-p = 0.9, seed 42" };
      for (const key of ["k", "p"]) {
        const normal = await open(`?lang=${lang}`, { viewport: XGA });
        const expected = await myth5FirstStep(normal.page, lang, names[key]);
        assert.equal(await normal.page.locator("#lesson-body").getByRole("button", { name: set[key], exact: true }).count(), 0, "the page's own button is Inspect");
        await normal.context.close();
        const { page, context, problems } = await open(`?lang=${lang}&projector=1`, { viewport: XGA });
        const got = await myth5FirstStep(page, lang, set[key]);
        assert.deepEqual(got, expected, `top-${key}: the same settings and first token as the page's Inspect button`);
        assert.equal(got.seed, "42");
        if (key === "k") assert.equal(got.topK, "10");
        await screenshot(page, `projector-myth5-set-${key}-${lang}-1024x768.png`);
        assert.deepEqual(problems, { console: [], foreign: [] });
        await context.close();
      }
    });
  }
});
