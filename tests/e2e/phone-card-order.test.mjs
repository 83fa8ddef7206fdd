// A learner on a phone (390×844 and 360×740, touch), zh and en: after typing a prompt, Step and the
// text it grows are on the same screen, with no scrolling — the Lessons card used to sit between
// the prompt and Step (~480 px), which put Step below the fold at 360×740. On a phone the order is
// prompt → Step and the text → Lessons → settings, in the DOM too (tab and reading order), also
// with a lesson open; a lesson's link starts the page at the lesson (it is the link's point); a wide
// window puts the lessons back above the text. Failed on the old build.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, screenshot } from "./harness.mjs";

const open = browserSuite();
const phone = (width, height) => ({ viewport: { width, height }, hasTouch: true, isMobile: true });

/** Page-y of the prompt, Step, the chips, the Lessons card and the settings; the tab order of the same. */
const layout = (page) =>
  page.evaluate(() => {
    const box = (s) => document.querySelector(s).getBoundingClientRect();
    const top = (s) => Math.round(box(s).top + scrollY);
    const focusable = [...document.querySelectorAll("textarea, button, input, select")].filter((e) => e.checkVisibility());
    const firstLesson = document.querySelector("#lesson-list button");
    return {
      prompt: top("#prompt"),
      step: top("#step"),
      stepBottom: Math.round(box("#step").bottom + scrollY),
      lessons: top("#lessons"),
      settings: top("#params-h"),
      tab: [document.getElementById("prompt"), document.getElementById("step"), firstLesson, document.getElementById("temperature")].map((e) => focusable.indexOf(e)),
    };
  });

describe("a phone: the prompt, then Step and the text, then the lessons", () => {
  for (const [width, height] of [[390, 844], [360, 740]]) {
    for (const lang of ["zh", "en"]) {
      test(`${lang} ${width}×${height}: Step and the first token on the first screen, lessons after them`, async () => {
        const { page, context, problems } = await open(`?lang=${lang}`, phone(width, height));
        const m = await layout(page);
        assert.ok(m.step < m.lessons, `Step (${m.step}) comes before the Lessons card (${m.lessons})`);
        assert.ok(m.lessons < m.settings, `the lessons (${m.lessons}) come before the settings (${m.settings})`);
        assert.ok(m.stepBottom <= height, `Step is on the first screen (its bottom at ${m.stepBottom}, the screen ${height})`);
        assert.ok(m.step - m.prompt < 0.45 * height, `Step is ${m.step - m.prompt} px below the prompt box`);
        const [prompt, step, lesson, temperature] = m.tab;
        assert.ok(prompt < step && step < lesson && lesson < temperature, `tab order prompt < Step < lessons < temperature: ${m.tab}`);
        // the first minute: type a prompt, tap Step — the token appears where she is looking
        const box = page.locator("#prompt");
        await box.tap();
        await box.fill(lang === "zh" ? "今天天气" : "The weather today is");
        await page.locator("#step").tap();
        await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
        const chip = await page.evaluate(() => {
          const r = document.querySelector("#chips li").getBoundingClientRect();
          return { top: r.top, bottom: r.bottom, scrollY };
        });
        assert.equal(chip.scrollY, 0, "nothing scrolled");
        assert.ok(chip.bottom <= height, `the first token's chip is on screen (bottom ${chip.bottom}, screen ${height})`);
        await screenshot(page, `phone-card-order-${lang}-${width}x${height}.png`);
        assert.deepEqual(problems, { console: [], foreign: [] });
        await context.close();
      });
    }
  }

  for (const [width, height, lang, lesson] of [[360, 740, "zh", "exp1"], [390, 844, "en", "myth4"]]) {
    test(`${lang} ${width}×${height}, a lesson's link (${lesson}): the page starts at the lesson, Step just above it; the lesson's Step grows the text`, async () => {
      const { page, context, problems } = await open(`?lang=${lang}&lesson=${lesson}`, phone(width, height));
      await page.waitForSelector("#lesson-body button");
      await page.waitForFunction(() => document.getElementById("lessons").getAttribute("aria-busy") !== "true");
      const m = await layout(page);
      assert.ok(m.step < m.lessons && m.lessons < m.settings, `Step ${m.step} < lessons ${m.lessons} < settings ${m.settings}`);
      // the link is about the lesson: its title is on the first screen, whatever the text above grew to
      const title = await page.evaluate(() => {
        const r = document.querySelector("#lesson-body h3, #lesson-title").getBoundingClientRect();
        return { top: r.top, bottom: r.bottom };
      });
      assert.ok(title.top >= 0 && title.bottom <= height, `the lesson's title is on screen (${title.top}–${title.bottom} of ${height})`);
      await screenshot(page, `phone-card-order-lesson-${lesson}-${width}x${height}.png`);
      if (lesson === "exp1") {
        const before = await page.locator("#chips li").count();
        // (the lesson asks for a guess first: its Step waits for one)
        const guess = page.locator("#lesson-body button", { hasText: "用户" }).first();
        await guess.scrollIntoViewIfNeeded();
        await guess.tap();
        const lessonStep = page.locator("#lesson-body button", { hasText: "单步" });
        await lessonStep.scrollIntoViewIfNeeded();
        await lessonStep.tap();
        await page.waitForFunction((n) => document.querySelectorAll("#chips li").length === n + 1, before);
      }
      assert.deepEqual(problems, { console: [], foreign: [] });
      await context.close();
    });
  }

  test("a wide window puts the lessons back above the text, and projector mode never moves them", async () => {
    const { page, context } = await open("?lang=en", phone(390, 844));
    const lessonsFirst = () => page.evaluate(() => document.getElementById("lessons").nextElementSibling === document.querySelector(".work .text-card"));
    assert.equal(await lessonsFirst(), false, "on the phone the lessons follow the text");
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.waitForFunction(() => document.getElementById("lessons").nextElementSibling === document.querySelector(".work .text-card"));
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForFunction(() => document.querySelector(".work .text-card").nextElementSibling === document.getElementById("lessons"));
    await context.close();
    const pj = await open("?lang=en&projector=1", phone(700, 500));
    assert.equal(await pj.page.evaluate(() => document.getElementById("lessons").nextElementSibling === document.querySelector(".work .text-card")), true, "projector mode keeps the lessons where its layout expects them");
    await pj.context.close();
  });
});
