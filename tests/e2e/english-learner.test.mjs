// An English-speaking learner, in Chromium: the lessons gloss every Chinese token they offer (实验一,
// 误解六, the live context); the language button is read in its own language; the model's Chinese
// tokens carry lang="zh-CN" wherever the page writes them, English tokens do not.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, screenshot } from "./harness.mjs";

const open = browserSuite();

describe("English lessons gloss every Chinese token they offer", () => {
  test("experiment 1: each token to predict and each candidate bar carries its gloss", async () => {
    const { page, context } = await open("?lang=en&lesson=exp1", { viewport: { width: 1024, height: 768 } });
    const body = page.locator(".lesson-body");
    await body.getByRole("button", { name: /用户/ }).first().waitFor();
    const predict = (await body.locator("button").allTextContents()).filter((s) => /[\u4e00-\u9fff]/.test(s));
    assert.ok(predict.length >= 3, `tokens to predict: ${predict}`);
    for (const label of predict) assert.match(label, /^[\u4e00-\u9fff]+ \(.+\)$/, `“${label}” has a gloss`);
    await context.close();
  });
});

describe("an English-speaking learner", () => {
  test("误解六: the gloss of greedy's wrong answer covers the answer, not only the prompt", async () => {
    const { page, context } = await open("?lang=en&lesson=myth6", { viewport: { width: 1280, height: 900 } });
    const said = page.locator(".lesson-body q", { hasText: "英国的首都是" }).first();
    await page.waitForFunction(() => /英国的首都是.+/.test(document.querySelector(".lesson-body q mark")?.textContent ? document.querySelector(".lesson-body q").textContent : ""));
    const line = await said.evaluate((q) => q.parentElement.textContent);
    assert.match(line, /英国的首都是巴黎 \(“The capital of the UK is Paris”\)/, line);
    await context.close();
  });

  test("实验一: the live context's gloss follows the words the learner adds", async () => {
    const { page, context } = await open("?lang=en&lesson=exp1", { viewport: { width: 1280, height: 900 } });
    const body = page.locator(".lesson-body");
    await body.getByRole("button", { name: /用户/ }).first().click();
    await body.getByRole("button", { name: /^Step/ }).click();
    await page.waitForFunction(() => /React 是一个用于构建用户 \(“React is a … for building user”\)/.test(document.querySelector(".lesson-body").textContent));
    await context.close();
  });

  test("the language button is marked as Chinese in English (and English in Chinese), so it is read in its own voice", async () => {
    const { page, context } = await open("?lang=en");
    assert.equal(await page.locator("#lang-toggle").getAttribute("lang"), "zh-CN");
    await page.locator("#lang-toggle").click();
    await page.waitForFunction(() => document.documentElement.lang === "zh-CN");
    assert.equal(await page.locator("#lang-toggle").getAttribute("lang"), "en");
    await context.close();
  });
});

describe("the model's Chinese tokens are marked as Chinese on the English page", () => {
  test("chips, the prompt, the plain text, the chart labels, the final strip, the chosen token and the tooltip carry lang=zh-CN; English tokens do not; the chips keep their size", async () => {
    const { page, context, problems } = await open(`?lang=en&strategy=greedy&prompt=${encodeURIComponent("中国的首都是")}`);
    const widthBefore = await page.evaluate(() => document.getElementById("chips").getBoundingClientRect().height);
    for (let i = 0; i < 3; i++) {
      await page.locator("#step").click();
      await page.waitForFunction((n) => document.querySelectorAll("#chips > li").length === n, i + 1);
    }
    const found = await page.evaluate(() => {
      const HAN = /\p{Script=Han}/u;
      const langOf = (node) => node.closest("[lang]")?.getAttribute("lang");
      /** Every element under `root` whose own text holds Chinese, with the language it is read in. */
      const texts = (root) =>
        [root, ...root.querySelectorAll("*")]
          .filter((e) => [...e.childNodes].some((n) => n.nodeType === 3 && HAN.test(n.textContent)))
          .map((e) => ({ text: e.textContent.trim(), lang: langOf(e) }));
      const english = (root) =>
        [...root.querySelectorAll(".chip, .tick-label")].filter((e) => !HAN.test(e.textContent) && /[a-z]/i.test(e.textContent)).map((e) => ({ text: e.textContent.trim(), lang: langOf(e) }));
      return {
        page: document.documentElement.lang,
        chips: texts(document.getElementById("chips")),
        echo: langOf(document.getElementById("prompt-echo")),
        plain: texts(document.getElementById("plain-text")),
        ticks: texts(document.getElementById("stages")),
        strip: texts(document.getElementById("final")),
        chosen: texts(document.getElementById("stat-chosen")),
        englishChips: english(document.body),
      };
    });
    assert.equal(found.page, "en");
    assert.ok(found.chips.length >= 1, JSON.stringify(found));
    assert.equal(found.echo, "zh-CN");
    for (const part of ["chips", "ticks", "strip", "chosen", "plain"]) {
      assert.ok(found[part].length > 0, `${part}: some Chinese text`);
      const unmarked = found[part].filter((x) => x.lang !== "zh-CN");
      assert.deepEqual(unmarked, [], `${part}: Chinese text read as ${unmarked[0]?.lang}`);
    }
    const englishMarked = found.englishChips.filter((x) => x.lang === "zh-CN");
    assert.deepEqual(englishMarked, [], "English tokens are not marked Chinese");
    // the tooltip over a chart bar names its token in Chinese
    await page.locator("#stages .hit").first().hover();
    await page.waitForFunction(() => document.querySelector(".tip-title [lang='zh-CN']") !== null);
    const widthAfter = await page.evaluate(() => document.getElementById("chips").getBoundingClientRect().height);
    assert.ok(widthAfter <= Math.max(widthBefore, 60), `the chips stay on one line (${widthAfter})`);
    await screenshot(page, "qa3-lang-zh-tokens-en.png");
    assert.deepEqual(problems, { console: [], foreign: [] });
    await context.close();
  });
});
