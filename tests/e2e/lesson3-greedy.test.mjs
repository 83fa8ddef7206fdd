// 实验三 (lesson 3) at T = 0 in Chromium: the step is greedy, so each prompt keeps one token whatever
// top-p is. The lesson says so (caption and both counts) instead of crediting top-p with the 1, and
// reads as before once the temperature is above 0 again; opening the lesson starts it sampling.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite } from "./harness.mjs";

const open = browserSuite();

const TEXT = {
  en: { greedy: /Greedy \(or T = 0\)/, kept: /greedy, top-p does not run/, settings: /At T = 1, top-p = 0\.9/, topP: /kept at top-p 0\.9/ },
  zh: { greedy: /贪心解码（或温度为 0）/, kept: /贪心解码，top-p 不起作用/, settings: /温度 1，top-p = 0\.9 时/, topP: /top_p = 0\.9/ },
};

/** Moves the lesson's own temperature slider as a drag would. */
const setTemperature = (page, value) =>
  page.evaluate((v) => {
    const input = document.querySelector("#lesson-own-temperature");
    input.value = String(v);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }, value);

describe("实验三 (lesson 3) at T = 0", () => {
  for (const lang of ["en", "zh"]) {
    test(`${lang}: greedy is named, not top-p; T 1 reads as before`, async () => {
      const { page, context, problems } = await open(`?lang=${lang}&lesson=exp3`);
      const text = TEXT[lang];
      const caption = page.locator("#lesson-body .lesson-setting .lesson-caption");
      const counts = page.locator("#lesson-body .lesson-side .lesson-count");
      await page.waitForFunction(() => document.querySelectorAll("#lesson-body .lesson-side .lesson-count").length === 2);
      assert.match(await caption.innerText(), text.settings);
      for (const count of await counts.allInnerTexts()) assert.match(count, text.topP);
      // both prompts keep several at T 1 under top-p 0.9? B does: the lesson's point
      const before = await counts.allInnerTexts();
      assert.ok(before.some((c) => !/^1\b/.test(c.trim())), `a prompt keeps more than one at T 1 (${before})`);

      await setTemperature(page, 0);
      await page.waitForFunction((re) => new RegExp(re).test(document.querySelector("#lesson-body .lesson-setting .lesson-caption").textContent), text.greedy.source);
      await page.waitForFunction((re) => [...document.querySelectorAll("#lesson-body .lesson-side .lesson-count")].every((c) => new RegExp(re).test(c.textContent)), text.kept.source);
      for (const count of await counts.allInnerTexts()) {
        assert.match(count.trim(), /^1\b/, `one token kept when greedy (${count})`);
        assert.doesNotMatch(count, text.topP, "the count is not credited to top-p");
      }

      await setTemperature(page, 1);
      await page.waitForFunction((re) => new RegExp(re).test(document.querySelector("#lesson-body .lesson-setting .lesson-caption").textContent), text.settings.source);
      assert.deepEqual(await counts.allInnerTexts(), before, "the counts read as before");
      assert.deepEqual(problems, { console: [], foreign: [] });
      await context.close();
    });
  }
});
