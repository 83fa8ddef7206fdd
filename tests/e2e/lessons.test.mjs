// The lessons panel in a real browser, with the embedded model: each lesson is one click that sets
// every parameter and the seed, the chapter's experiments behave as the chapter says, the quiz hides
// its answers until the learner tries, and both languages show complete text. Controls are found by
// accessible name; the page's own controls are read by id (their values are the state under test).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, installWcag, screenshot } from "./harness.mjs";

const open = browserSuite();

const NAV = { zh: "本章的课程", en: "Lessons from the chapter" };
const SHORT = {
  zh: { exp1: "实验一", exp2: "实验二", exp3: "实验三", myth1: "误解一", myth2: "误解二", myth3: "误解三", myth4: "误解四", myth5: "误解五", myth6: "误解六", quiz: "自测题" },
  en: { exp1: "Exp. 1", exp2: "Exp. 2", exp3: "Exp. 3", myth1: "Myth 1", myth2: "Myth 2", myth3: "Myth 3", myth4: "Myth 4", myth5: "Myth 5", myth6: "Myth 6", quiz: "Quiz" },
};
const IDS = Object.keys(SHORT.zh);

const panel = (page) => page.locator("#lessons");
const body = (page) => page.locator("#lesson-body");
const chips = (page) => page.locator("#chips > li");
async function generated(page) {
  return (await chips(page).allTextContents()).map((s) => s.replace(/^␣ /, " ")).join("");
}
/** Wait until the panel's page changes (set-up, draws) have finished. */
async function settled(page) {
  await page.waitForFunction(() => !document.getElementById("lessons")?.hasAttribute("aria-busy"));
}
async function openLesson(page, id, lang = "zh") {
  await page.getByRole("navigation", { name: NAV[lang] }).getByRole("button", { name: new RegExp(`^${SHORT[lang][id].replace(".", "\\.")}`) }).click();
  await settled(page);
}
/** The values of the page's controls that a lesson sets. */
async function controls(page) {
  return page.evaluate(() => {
    const v = (id) => document.getElementById(id).value;
    return {
      source: v("source"), prompt: v("prompt"), strategy: v("strategy"), temperature: Number(v("temperature")),
      top_k: Number(v("top-k")), top_p: Number(v("top-p")), min_p: Number(v("min-p")), seed: Number(v("seed")), max_new: Number(v("max-new")),
    };
  });
}

/** Texts in the panel whose contrast against what is behind them is below WCAG AA (4.5:1). */
function lowContrast() {
  const { parse, ratio: contrast, backdrop } = window.wcag;
  const low = [];
  for (const el of document.querySelectorAll("#lessons *")) {
    const text = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent.trim()).join("");
    if (text === "" || !el.checkVisibility() || el.closest(":disabled") !== null) continue;
    const ratio = contrast(parse(getComputedStyle(el).color), backdrop(el));
    if (ratio < 4.5) low.push(`${text} ${ratio.toFixed(2)}`);
  }
  return low;
}

const DEFAULTS = { source: "model", strategy: "sample", temperature: 0.8, top_k: 0, top_p: 0.9, min_p: 0, seed: 42, max_new: 16 };
const EXPECTED = {
  exp1: { prompt: "React 是一个用于构建", strategy: "greedy", max_new: 8, tokens: 0 },
  exp2: { prompt: "React 是一个用于构建", temperature: 1, top_p: 1, seed: 1, max_new: 8, tokens: 0 },
  exp3: { prompt: "中国的首都是", temperature: 1, top_p: 0.9, tokens: 0 },
  myth1: { prompt: "TypeScript 是 JavaScript 的", strategy: "greedy", max_new: 12 },
  myth2: { source: "manual", prompt: "TypeScript 是 JavaScript 的", temperature: 1, top_p: 1, seed: 84, tokens: 0 },
  myth3: { prompt: "中国的首都是", temperature: 2, top_p: 1, tokens: 0 },
  myth4: { prompt: "状态", strategy: "greedy", max_new: 32 },
  myth5: { prompt: "给一个代码编辑器插件起名：", temperature: 1, top_k: 10, top_p: 1, tokens: 0 },
  myth6: { prompt: "英国的首都是", strategy: "greedy", max_new: 2 },
  quiz: { prompt: "TypeScript 是 JavaScript 的", seed: 84, tokens: 0 },
};

describe("lessons", () => {
  test("each lesson is one click that sets every parameter, the seed and the URL, reproducibly", async () => {
    const { page, context, problems } = await open("?lang=zh");
    // scramble the page first, so every value below was set by the lesson
    await page.getByLabel("温度", { exact: true }).focus();
    await page.keyboard.press("End");
    await page.getByLabel("随机种子").fill("999");
    await page.getByLabel("随机种子").press("Tab");
    for (const id of IDS) {
      await openLesson(page, id);
      const { tokens, ...want } = EXPECTED[id];
      const got = await controls(page);
      assert.deepEqual(got, { ...DEFAULTS, ...want, prompt: want.prompt }, id);
      if (tokens !== undefined) assert.equal(await chips(page).count(), tokens, `${id} tokens`);
      assert.match(page.url(), new RegExp(`lesson=${id}`));
      assert.equal(await panel(page).getByRole("button", { name: new RegExp(`^${SHORT.zh[id]}`) }).getAttribute("aria-current"), "true");
      assert.equal(await body(page).getByRole("heading", { level: 3 }).count(), 1, id);
      // the same click again gives the same state
      const text = await generated(page);
      await page.getByLabel("温度", { exact: true }).focus();
      await page.keyboard.press("Home");
      await openLesson(page, id);
      assert.equal(await generated(page), text, `${id} reproducible`);
      assert.deepEqual(await controls(page), got, `${id} reproducible controls`);
    }
    // a link with the lesson opens it without changing the linked state
    const url = page.url();
    const again = await open(url.slice(url.indexOf("?")));
    assert.equal(await again.page.locator("#lesson-title").textContent(), "自测题");
    await again.context.close();
    assert.deepEqual(problems.console, []);
    assert.deepEqual(problems.foreign, []);
    await context.close();
  });

  test("实验一: predict greedy's pick, step, and 用户 then 界面 come out", async () => {
    const { page, context } = await open("?lang=zh");
    await openLesson(page, "exp1");
    const choices = body(page).getByRole("group");
    const step = body(page).getByRole("button", { name: "单步（greedy）" });
    assert.equal(await step.isDisabled(), true, "step waits for a prediction");
    // the page's own answer (the inspector's chosen token) is veiled until the learner predicts
    const veiled = () => page.locator("#stat-chosen").evaluate((el) => getComputedStyle(el).filter.includes("blur"));
    assert.equal(await veiled(), true);
    // a wrong prediction is corrected, the right one confirmed
    const wrong = choices.getByRole("button").filter({ hasNotText: /^用户$/ }).first();
    await wrong.click();
    assert.equal(await veiled(), false);
    assert.match(await body(page).locator(".lesson-feedback").textContent(), /^不是「.+」：greedy 只看概率最高的「用户」/);
    await choices.getByRole("button", { name: "greedy 会选「用户」" }).click();
    assert.match(await body(page).locator(".lesson-feedback").textContent(), /^对：greedy 选择概率最高的「用户」/);
    await step.click();
    await settled(page);
    assert.equal(await generated(page), "用户");
    assert.match(await body(page).locator(".lesson-context").textContent(), /React 是一个用于构建用户/);
    // the next distribution: 界面 is now the top candidate, and greedy takes it
    assert.match(await body(page).locator(".lesson-bars li").first().textContent(), /^界面/);
    assert.equal(await step.isDisabled(), true);
    await choices.getByRole("button", { name: "greedy 会选「界面」" }).click();
    await step.click();
    await settled(page);
    assert.equal(await generated(page), "用户界面");
    assert.match(await body(page).locator(".lesson-wrap").textContent(), /每一步只看当前最可能的候选/);
    // leaving the lesson lifts the veil for good
    await openLesson(page, "exp3");
    assert.equal(await veiled(), false);
    await context.close();
  });

  test("实验二: each draw is its own seed, reproducible, and 界面 comes up sometimes", async () => {
    const { page, context } = await open("?lang=zh");
    const drawAll = async () => {
      await openLesson(page, "exp2");
      await body(page).getByRole("button", { name: "再抽 5 次" }).click();
      await settled(page);
      await body(page).getByRole("button", { name: /^再抽一次/ }).click();
      await settled(page);
      return body(page).locator(".lesson-draws li").allTextContents();
    };
    const first = await drawAll();
    assert.equal(first.length, 7);
    assert.deepEqual(first.map((d) => d.split(" ")[0]), ["#1", "#2", "#3", "#4", "#5", "#6", "#7"]);
    assert.ok(first.some((d) => d.endsWith("用户")), first.join(" "));
    assert.ok(first.some((d) => d.endsWith("界面")), first.join(" "));
    assert.match(await body(page).locator(".lesson-wrap").textContent(), /React 是一个用于构建界面/);
    // the panel's u is the one on the page's 0–1 strip, for the seed on the page
    assert.equal(await page.getByLabel("随机种子").inputValue(), "7");
    const u = (await body(page).locator(".lesson-question").textContent()).match(/u = ([0-9.]+)/)?.[1];
    assert.ok(u !== undefined);
    assert.match(await page.locator("#final-explain").textContent(), new RegExp(`u = ${u.replace(".", "\\.")}`));
    // the same clicks again: the same draws
    assert.deepEqual(await drawAll(), first);
    // more draws: the latest seven listed after how many came before, the total over every one
    await body(page).getByRole("button", { name: "再抽 5 次" }).click();
    await settled(page);
    const more = await body(page).locator(".lesson-draws li").allTextContents();
    assert.deepEqual(more.map((d) => d.split(" ")[0]), ["更早的", "#6", "#7", "#8", "#9", "#10", "#11", "#12"]);
    assert.equal(more[0], "更早的 5 次 …");
    assert.match(await body(page).locator(".lesson-draws + p, p:has(+ .lesson-draws)").first().textContent(), /^共 12 次：/);
    // the "show me" button lights up the strip with u
    await body(page).getByRole("button", { name: "指给我看：0–1 上的随机数 u" }).click();
    assert.equal(await page.evaluate(() => document.activeElement?.id), "final");
    assert.equal(await page.locator("#final").getAttribute("class").then((c) => c.includes("lesson-highlight")), true);
    await context.close();
  });

  test("实验三 and 误解五: top-p keeps few after 中国的首都是 and many after the plugin prompt", async () => {
    const { page, context } = await open("?lang=zh");
    await openLesson(page, "exp3");
    const counts = await body(page).locator(".lesson-side .count").evaluateAll((els) => els.map((e) => Number(e.dataset.count)));
    assert.equal(counts.length, 2);
    assert.ok(counts[0] >= 1 && counts[0] <= 3, `capital keeps ${counts[0]}`);
    assert.ok(counts[1] >= 15, `plugin keeps ${counts[1]}`);
    assert.match(await body(page).locator(".lesson-side").first().textContent(), /北京/);
    // the page's Top-p slider drives both counts
    await page.getByLabel("Top-p", { exact: true }).focus();
    await page.keyboard.press("End");
    const all = await body(page).locator(".lesson-side .count").evaluateAll((els) => els.map((e) => Number(e.dataset.count)));
    assert.ok(all[0] > counts[0] && all[1] > counts[1], `${all} > ${counts}`);

    await openLesson(page, "myth5");
    const cell = (row, col) => body(page).locator(`tr[data-setting="${row}"] td.${col}`).textContent().then(Number);
    assert.equal(await cell("k", "capital"), 10);
    assert.equal(await cell("k", "plugin"), 10);
    assert.ok((await cell("p", "capital")) <= 3);
    assert.ok((await cell("p", "plugin")) >= 15);
    await body(page).getByRole("button", { name: "在检查器里看 top-p = 0.9" }).click();
    await settled(page);
    assert.deepEqual([(await controls(page)).top_k, (await controls(page)).top_p], [0, 0.9]);
    await context.close();
  });

  test("the misconceptions demonstrate what the chapter says", async () => {
    const { page, context } = await open("?lang=zh");
    // 误解一: another first token, and greedy writes something else after it
    await openLesson(page, "myth1");
    const greedyText = await generated(page);
    assert.match(greedyText, /^超集/);
    await body(page).getByRole("group").getByRole("button").first().click();
    await settled(page);
    const forkText = await generated(page);
    assert.notEqual(forkText.slice(0, 2), "超集");
    assert.equal(await chips(page).first().getAttribute("data-forced"), "true");
    assert.equal(await body(page).locator(".lesson-paths li").count(), 2);
    assert.equal(await page.getByRole("region", { name: "路径" }).getByRole("button").count(), 2);
    assert.notEqual(forkText.slice(2), greedyText.slice(2));

    // 误解二: the logits sum to anything, the probabilities to 1; an edited logit changes the first only
    await openLesson(page, "myth2");
    const sums = async () => [Number(await body(page).locator(".sum-logits").textContent().then((s) => s.replace("−", "-"))), Number(await body(page).locator(".sum-p").textContent())];
    const [logits, p] = await sums();
    assert.notEqual(logits, 1);
    assert.equal(p, 1);
    await body(page).getByRole("button", { name: "指给我看：改一个 logit" }).click();
    const focused = page.locator(":focus");
    assert.equal(await focused.evaluate((e) => e.closest("#logit-table") !== null), true);
    await focused.fill("7");
    await focused.press("Tab");
    const [logits2, p2] = await sums();
    assert.notEqual(logits2, logits);
    assert.equal(p2, 1);
    // its first Step on the chapter's table draws a likely token (超集 or 一个), not a tail one
    await openLesson(page, "myth2");
    await page.locator("#step").click();
    await settled(page);
    assert.match(await chips(page).first().textContent(), /超集|一个/);

    // 误解三: at T = 2, 北京 keeps far less than at T = 0.5
    await openLesson(page, "myth3");
    const beijing = (tv) => body(page).locator(`.lesson-side[data-t="${tv}"] li.chosen .bar-value`).textContent().then((s) => parseFloat(s));
    assert.ok((await beijing(0.5)) > 95);
    assert.ok((await beijing(2)) < 50, `T=2: ${await beijing(2)}`);

    // 误解四: greedy loops on the tiny model; sampling (seed 42) does not
    await openLesson(page, "myth4");
    assert.match(await body(page).locator(".lesson-feedback").textContent(), /^重复：/);
    await body(page).getByRole("button", { name: /^sampling/ }).click();
    await settled(page);
    assert.equal(await page.getByLabel("解码策略").inputValue(), "sample");

    // 误解六: greedy writes 巴黎 and no setting puts 伦 (of 伦敦) first
    await openLesson(page, "myth6");
    assert.equal(await generated(page), "巴黎");
    const tops = await body(page).locator("td.top-token").allTextContents();
    assert.equal(tops.length, 6);
    assert.ok(tops.every((x) => x === "巴"), tops.join(" "));
    await context.close();
  });

  test("自测题: an answer stays hidden until asked for, can be revealed without typing, and 'try it' lights up the control", async () => {
    const { page, context } = await open("?lang=zh");
    await openLesson(page, "quiz");
    const reveal = body(page).getByRole("button", { name: "看参考答案" });
    const answer = body(page).locator(".quiz-answer");
    const hint = body(page).getByText("先想一想：写下你的答案，或者在页面上试一试。");
    assert.equal(await answer.isHidden(), true);
    assert.equal(await hint.isVisible(), true);
    // a teacher reveals it in front of the class without typing anything
    assert.equal(await reveal.isDisabled(), false);
    await reveal.click();
    assert.equal(await answer.isVisible(), true);
    assert.match(await answer.textContent(), /softmax/);
    assert.equal(await hint.isVisible(), false);
    assert.equal(await body(page).getByLabel("你的答案").inputValue(), "");
    // question 2: "try it" sets the page up and focuses the strategy control
    await body(page).getByRole("button", { name: "下一题" }).click();
    assert.match(await body(page).getByRole("heading", { level: 4 }).textContent(), /^2\/6 greedy 解码为什么稳定/);
    assert.equal(await answer.isHidden(), true);
    await body(page).getByLabel("你的答案").fill("总选最高的");
    assert.equal(await answer.isHidden(), true, "still hidden until asked");
    await body(page).getByRole("button", { name: "试一试：解码策略" }).click();
    await settled(page);
    assert.equal(await page.evaluate(() => document.activeElement?.id), "strategy");
    assert.equal(await page.getByLabel("解码策略").inputValue(), "greedy");
    // going back keeps what was shown, and what was written stays with its question
    await body(page).getByRole("button", { name: "上一题" }).click();
    assert.equal(await body(page).locator(".quiz-answer").isVisible(), true);
    await body(page).getByRole("button", { name: "下一题" }).click();
    assert.equal(await body(page).getByLabel("你的答案").inputValue(), "总选最高的");
    // key 0 opens the self-test from anywhere (keys 1–9 open the first nine lessons)
    await openLesson(page, "exp1");
    await page.locator("h1").click();
    await page.keyboard.press("0");
    await page.waitForURL(/lesson=quiz/);
    assert.equal(await page.locator("#lesson-title").textContent(), "自测题");
    await context.close();
  });

  test("both languages show the whole panel with no missing text; zh uses the chapter's terms", async () => {
    for (const lang of ["zh", "en"]) {
      const { page, context, problems } = await open(`?lang=${lang}`);
      assert.equal(await page.getByRole("heading", { level: 2, name: lang === "zh" ? "课程" : "Lessons" }).count(), 1);
      let all = "";
      for (const id of IDS) {
        await openLesson(page, id, lang);
        const text = await panel(page).innerText();
        assert.doesNotMatch(text, /lesson\.[a-z]|\{[a-z]+\}|undefined|NaN/, `${lang} ${id}`);
        // every button in the panel has a name, every text field a label
        const unnamed = await panel(page).locator("button, textarea, input").evaluateAll((els) =>
          els.filter((e) => (e.getAttribute("aria-label") ?? e.labels?.[0]?.textContent ?? e.textContent ?? "").trim() === "").length,
        );
        assert.equal(unnamed, 0, `${lang} ${id}`);
        all += text;
        await installWcag(page);
        assert.deepEqual(await page.evaluate(lowContrast), [], `${lang} ${id} contrast`);
      }
      if (lang === "zh") {
        for (const term of ["手动做一次 greedy", "手动做一次 sampling", "top-p 的候选数量会变化", "模型先想好整段答案", "logits 就是概率", "temperature 越高，模型越聪明", "greedy 一定最正确", "top-k 和 top-p 是同一个东西", "采样参数能解决事实错误", "自测题", "候选", "随机种子", "softmax"]) {
          assert.ok(all.includes(term), term);
        }
      }
      // switching language redraws the open lesson in the other language
      await page.getByRole("button", { name: lang === "zh" ? "Switch to English" : "切换到中文" }).click();
      assert.equal(await page.locator("#lesson-title").textContent(), lang === "zh" ? "Self-test" : "自测题");
      assert.deepEqual(problems.console, []);
      await context.close();
    }
  });

  test("keyboard: the lesson list, hide/show and the controls inside a lesson", async () => {
    const { page, context } = await open("?lang=en");
    await page.getByRole("button", { name: /^Exp\. 1/ }).focus();
    await page.keyboard.press("Enter");
    await settled(page);
    assert.equal(await page.locator("#lesson-title").textContent(), "Experiment 1 · Greedy by hand");
    assert.equal(await page.evaluate(() => document.activeElement?.id), "lesson-title", "focus on the lesson's heading (screen-reader.test)");
    const hide = page.getByRole("button", { name: "Hide the lesson" });
    await hide.focus();
    await page.keyboard.press("Enter");
    assert.equal(await body(page).isHidden(), true);
    assert.equal(await page.getByRole("button", { name: "Show the lesson" }).getAttribute("aria-expanded"), "false");
    await page.keyboard.press("Enter");
    assert.equal(await body(page).isVisible(), true);
    await page.getByRole("button", { name: "Greedy picks “用户 (user)”" }).focus();
    await page.keyboard.press("Space");
    await page.getByRole("button", { name: "Step (greedy)" }).focus();
    await page.keyboard.press("Enter");
    await settled(page);
    assert.equal(await generated(page), "用户");
    // the step button now waits for a prediction; focus moved on to the next step's choices
    assert.equal(await page.evaluate(() => document.activeElement?.closest(".lesson-choices") !== null), true);
    await page.getByRole("button", { name: "Close the lesson" }).click();
    assert.equal(await body(page).textContent().then((s) => s.startsWith("Pick a lesson")), true);
    assert.doesNotMatch(page.url(), /lesson=/);
    await context.close();
  });

  test("links: a bare ?lesson= sets the lesson up; in embed mode it opens expanded and can be folded", async () => {
    const bare = await open("?lang=zh&lesson=exp3");
    await settled(bare.page);
    assert.equal((await controls(bare.page)).prompt, "中国的首都是");
    assert.equal(await bare.page.locator("#lesson-title").textContent(), "实验三：top-p 的候选数量会变化");
    assert.equal(await body(bare.page).locator(".lesson-side .count").count(), 2);
    await bare.context.close();

    const embed = await open("?lang=zh&embed=1");
    assert.equal(await panel(embed.page).isHidden(), true, "no lesson: no panel in embed mode");
    await embed.context.close();
    const embedLesson = await open("?lang=zh&embed=1&lesson=exp1");
    await settled(embedLesson.page);
    assert.equal(await panel(embedLesson.page).isVisible(), true);
    assert.equal(await body(embedLesson.page).isVisible(), true, "expanded in embed mode");
    assert.equal(await embedLesson.page.locator("#lesson-title").textContent(), "实验一：手动做一次 greedy");
    await embedLesson.page.getByRole("button", { name: "收起这一课" }).click();
    assert.equal(await body(embedLesson.page).isHidden(), true);
    await embedLesson.page.getByRole("button", { name: "展开这一课" }).click();
    assert.equal(await body(embedLesson.page).isVisible(), true);
    await embedLesson.context.close();
  });

  test("screenshots (zh, 1280×800 and 1024×768)", async () => {
    for (const viewport of [{ width: 1280, height: 800 }, { width: 1024, height: 768 }]) {
      const { page, context } = await open("?lang=zh", { viewport });
      const size = `${viewport.width}x${viewport.height}`;
      await screenshot(page, `lessons-none-zh-${size}.png`);
      for (const id of ["exp1", "exp2", "exp3", "myth1", "myth2", "myth3", "myth4", "myth5", "myth6", "quiz"]) {
        await openLesson(page, id);
        if (id === "exp1") await body(page).getByRole("button", { name: "greedy 会选「用户」" }).click();
        if (id === "exp2") {
          await body(page).getByRole("button", { name: "再抽 5 次" }).click();
          await settled(page);
        }
        await page.evaluate(() => window.scrollTo(0, 0));
        await screenshot(page, `lessons-${id}-zh-${size}.png`);
      }
      await context.close();
    }
  });
});
