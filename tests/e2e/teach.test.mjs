// A teacher in front of a class (session 6): projector mode's own prompt box, Esc closing a lesson,
// the text strip keeping the prompt in view beside a lesson, the hand-made tables' prompt box that
// says it is not read, and each lesson's first Steps under its seed. Screenshots at 1024×768 go to
// artifacts/teach-*.png (look at them).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, screenshot } from "./harness.mjs";
import { fitProblems } from "./fit.mjs";

const open = browserSuite();
const XGA = { width: 1024, height: 768 };
const L = {
  zh: { edit: "改提示词", label: "提示词", apply: "应用", cancel: "取消", useModel: "换成内置模型", menu: "课程", manual: /不读提示词/ },
  en: { edit: "Edit prompt", label: "Prompt", apply: "Apply", cancel: "Cancel", useModel: "Use the model", menu: "Lesson", manual: /ignores the prompt/ },
};
/** The prompt a page opens with (the first preset of its language). */
const PRESET = { zh: "TypeScript 是 JavaScript 的", en: "TypeScript is a" };

const chips = (page) => page.locator("#chips > li");
const lessonOpen = (page) => page.locator("#lessons").getAttribute("data-open").then((v) => v === "true");
const focused = (page) => page.evaluate(() => (document.activeElement === document.body ? "body" : (document.activeElement?.id || document.activeElement?.dataset.lesson || document.activeElement?.tagName)));
async function settled(page) {
  await page.waitForFunction(() => !document.getElementById("lessons")?.hasAttribute("aria-busy"));
}
async function pickLesson(page, lang, id) {
  await page.getByRole("combobox", { name: L[lang].menu }).selectOption(id);
  await settled(page);
  await page.locator("#lesson-title").waitFor();
}

/** Where the strip's prompt and newest chip are, against the strip's own box (in-page). */
function stripView() {
  const box = document.getElementById("generated").getBoundingClientRect();
  const inside = (r) => r.width > 0 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1 && r.left >= box.left - 1 && r.right <= box.right + 1;
  const echo = document.getElementById("prompt-echo");
  const last = [...document.querySelectorAll("#chips > li")].at(-1);
  const shown = [...document.querySelectorAll("#chips > li")].filter((li) => li.checkVisibility());
  return {
    echo: echo.textContent,
    echoInside: [...echo.getClientRects()].every(inside) && echo.getClientRects().length > 0,
    lastInside: last === undefined || [...last.getClientRects()].every(inside),
    shownInside: shown.every((li) => [...li.getClientRects()].every(inside)),
    fontPx: parseFloat(getComputedStyle(document.getElementById("generated")).fontSize),
  };
}

describe("teaching with the page", () => {
  for (const lang of ["zh", "en"]) {
    test(`${lang}: projector mode has a prompt box: large, labelled, Enter applies and steps, Esc cancels, it fits 1024×768`, async () => {
      const { page, context, problems } = await open(`?lang=${lang}&projector=1`, { viewport: XGA });
      const edit = page.getByRole("button", { name: L[lang].edit, exact: true });
      assert.equal(await edit.isVisible(), true);
      assert.equal(await edit.getAttribute("aria-expanded"), "false");
      await edit.click();
      const box = page.getByRole("textbox", { name: L[lang].label, exact: true });
      assert.equal(await box.evaluate((el) => el === document.activeElement), true, "focus in the box");
      assert.equal(await box.inputValue(), PRESET[lang]);
      assert.ok((await box.evaluate((el) => parseFloat(getComputedStyle(el).fontSize))) >= 28, "legible from the back");
      assert.deepEqual(await page.evaluate(fitProblems, { minPx: 24 }), [], "editor open: fits one screen");
      await screenshot(page, `teach-prompt-editor-${lang}-1024x768.png`);
      // Esc leaves the prompt as it was, focus back on the button (the transport is back)
      await page.keyboard.type("不要这个");
      await page.keyboard.press("Escape");
      assert.equal(await box.count(), 0);
      assert.equal(await focused(page), "pj-prompt-edit");
      assert.equal(await page.locator("#prompt-echo").textContent(), PRESET[lang]);
      // Apply: the text starts over from the new prompt, no step
      await edit.click();
      await page.keyboard.type("从前有一座山，");
      await page.getByRole("button", { name: L[lang].apply, exact: true }).click();
      assert.equal(await page.locator("#prompt").inputValue(), "从前有一座山，");
      assert.equal(await chips(page).count(), 0);
      // Enter: applied and one step, from the keyboard alone; focus on Step for the next one
      await edit.focus();
      await page.keyboard.press("Enter");
      await page.keyboard.type("The cat sat on the");
      await page.keyboard.press("Enter");
      await chips(page).first().waitFor();
      assert.equal(await chips(page).count(), 1);
      assert.equal(await page.locator("#prompt").inputValue(), "The cat sat on the");
      assert.match(page.url(), /prompt=The\+cat\+sat\+on\+the|prompt=The%20cat%20sat%20on%20the/);
      assert.equal(await focused(page), "step");
      await page.keyboard.press("ArrowRight");
      await page.waitForFunction(() => document.querySelectorAll("#chips > li").length === 2);
      assert.deepEqual(await page.evaluate(fitProblems, { minPx: 24 }), []);
      // leaving projector mode closes an open editor; the sidebar's box is the one there
      await edit.click();
      await page.locator("#projector-toggle").click();
      assert.equal(await page.locator("#pj-prompt").count(), 0);
      assert.equal(await edit.isVisible(), false);
      assert.deepEqual(problems.console, []);
      await context.close();
    });
  }

  test("Esc closes an open lesson (projector and normal mode), but not while typing, composing or in a dialog", async () => {
    const { page, context } = await open("?lang=zh&projector=1", { viewport: XGA });
    await pickLesson(page, "zh", "myth2");
    await page.keyboard.press("Escape");
    assert.equal(await lessonOpen(page), false, "projector: Esc from the lesson menu closes it");
    assert.doesNotMatch(page.url(), /lesson=/);
    // focus left the menu (its arrows would pick another lesson): the keys drive the text again
    assert.equal(await focused(page), "body");
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction(() => document.querySelectorAll("#chips > li").length === 1);
    // an input method composing keeps its Esc; so does a dialog, which closes first
    await pickLesson(page, "zh", "quiz");
    await page.evaluate(() => document.body.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", isComposing: true, bubbles: true, cancelable: true })));
    assert.equal(await lessonOpen(page), true, "composing");
    await page.keyboard.press("?");
    await page.getByRole("dialog").waitFor();
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "hidden" });
    assert.equal(await lessonOpen(page), true, "the dialog took the first Esc");
    // the learner's answer box keeps Esc (nothing written is thrown away)
    await page.getByLabel("你的答案").fill("总选最高的");
    await page.getByLabel("你的答案").press("Escape");
    assert.equal(await lessonOpen(page), true, "typing an answer");
    await page.locator("#lesson-title").click();
    await page.keyboard.press("Escape");
    assert.equal(await lessonOpen(page), false);
    await context.close();

    // normal mode: focus goes back to the lesson's button; a chart's tooltip takes the first Esc
    const normal = await open("?lang=zh");
    const nav = normal.page.getByRole("navigation", { name: "本章的课程" });
    await nav.getByRole("button", { name: /^误解二/ }).click();
    await settled(normal.page);
    const bar = normal.page.locator('#stages figure[data-stage="logits"] [data-rove][tabindex="0"]');
    await bar.focus();
    await normal.page.locator("#token-tip:not([hidden])").waitFor();
    await normal.page.keyboard.press("Escape");
    assert.equal(await normal.page.locator("#token-tip").isHidden(), true);
    assert.equal(await lessonOpen(normal.page), true, "the tooltip took the first Esc");
    await normal.page.keyboard.press("Escape");
    assert.equal(await lessonOpen(normal.page), false);
    assert.equal(await focused(normal.page), "myth2");
    await normal.context.close();
  });

  for (const lang of ["zh", "en"]) {
    test(`${lang}: beside an open lesson at 1024×768 the text strip shows the prompt and the newest tokens`, async () => {
      const { page, context } = await open(`?lang=${lang}&projector=1`, { viewport: XGA });
      await pickLesson(page, lang, "myth1");
      const view = await page.evaluate(stripView);
      assert.ok(view.echo.startsWith("TypeScript"), view.echo);
      assert.equal(view.echoInside, true, "the prompt is in the strip");
      assert.equal(view.lastInside, true, "the newest token is in the strip");
      assert.equal(view.shownInside, true, "no chip shown is cut");
      assert.ok(view.fontPx >= 24);
      assert.equal(await chips(page).last().isVisible(), true);
      assert.deepEqual(await page.evaluate(fitProblems, { minPx: 24 }), []);
      await screenshot(page, `teach-strip-myth1-${lang}-1024x768.png`);
      // 误解四's 32 tokens of 状态 overflow the one line: the oldest fold behind "…", the prompt and the newest stay
      await pickLesson(page, lang, "myth4");
      const loop = await page.evaluate(stripView);
      assert.equal(loop.echo, "状态");
      assert.equal(loop.echoInside && loop.lastInside && loop.shownInside, true, JSON.stringify(loop));
      const folded = await page.locator("#chips > li.pj-folded").count();
      assert.ok(folded > 0 && folded < 24, `folded ${folded}`);
      assert.equal(await page.locator("#chips > li.pj-after-fold").evaluate((li) => getComputedStyle(li, "::before").content), '"…"');
      await screenshot(page, `teach-strip-myth4-${lang}-1024x768.png`);
      // a prompt longer than the strip keeps its start, cut with "…", and the newest token
      const long = "从前有一座山，山里有一座庙，庙里有一个老和尚在给小和尚讲故事，讲的是什么呢？".repeat(2);
      const again = await open(`?lang=${lang}&projector=1&prompt=${encodeURIComponent(long)}&strategy=greedy&max_new_tokens=4`, { viewport: XGA });
      await again.page.keyboard.press("ArrowRight");
      await again.page.locator("#chips > li").first().waitFor();
      const longView = await again.page.evaluate(stripView);
      assert.ok(longView.echo.startsWith("从前有一座山") && longView.echo.endsWith("…") && longView.echo.length < long.length, longView.echo);
      assert.equal(longView.echoInside && longView.lastInside && longView.shownInside, true, JSON.stringify(longView));
      await screenshot(again.page, `teach-strip-long-${lang}-1024x768.png`);
      await again.page.keyboard.press("p");
      assert.equal(await again.page.locator("#chips > li.pj-folded").count(), 0);
      assert.equal(await again.page.locator("#prompt-echo").textContent(), long);
      await again.context.close();
      await page.locator("#projector-toggle").click();
      assert.equal(await page.locator("#chips > li.pj-folded").count(), 0, "nothing folded outside projector mode");
      await context.close();
    });
  }

  for (const lang of ["zh", "en"]) {
    test(`${lang}: over the hand-made tables the prompt box says it is not read, and offers the model`, async () => {
      const { page, context } = await open(`?lang=${lang}&source=manual`);
      const sidebarBox = page.locator("#prompt");
      assert.equal(await sidebarBox.isEditable(), false, "read-only over a table");
      assert.match(await page.locator("#prompt-manual").textContent(), L[lang].manual);
      assert.equal(await page.locator("#prompt-manual").isVisible(), true);
      assert.equal(await sidebarBox.getAttribute("aria-describedby"), "prompt-manual");
      // 误解二 runs on the chapter's table: the same
      await page.getByRole("navigation").getByRole("button", { name: lang === "zh" ? /^误解二/ : /^Myth 2/ }).click();
      await settled(page);
      assert.equal(await sidebarBox.isEditable(), false);
      assert.equal(await page.locator("#prompt-manual").isVisible(), true);
      // projector mode: the editor says why, and its button switches to the model, keeping the prompt
      await page.setViewportSize(XGA);
      await page.keyboard.press("p");
      await page.getByRole("button", { name: L[lang].edit, exact: true }).click();
      const box = page.getByRole("textbox", { name: L[lang].label, exact: true });
      assert.equal(await box.isEditable(), false);
      assert.match(await page.locator("#pj-prompt").textContent(), L[lang].manual);
      assert.equal(await page.getByRole("button", { name: L[lang].apply, exact: true }).count(), 0);
      assert.deepEqual(await page.evaluate(fitProblems, { minPx: 24 }), []);
      await screenshot(page, `teach-prompt-manual-${lang}-1024x768.png`);
      await page.getByRole("button", { name: L[lang].useModel, exact: true }).click();
      assert.equal(await page.locator("#source").inputValue(), "model");
      assert.equal(await box.isEditable(), true);
      await box.fill("中国的首都是");
      await box.press("Enter");
      await chips(page).first().waitFor();
      assert.equal(await page.locator("#prompt").inputValue(), "中国的首都是");
      assert.equal(await sidebarBox.isEditable(), true, "over the model the sidebar's box is editable again");
      await context.close();
    });
  }

  test("each lesson's first Steps: typical draws where a tail would undercut it, the tail where it is the point", async () => {
    const { page, context } = await open("?lang=zh");
    const first = async (id, steps = 1) => {
      await page.getByRole("navigation", { name: "本章的课程" }).getByRole("button", { name: new RegExp(`^${id}`) }).click();
      await settled(page);
      for (let i = 0; i < steps; i++) await page.locator("#step").click();
      return {
        seed: Number(await page.locator("#seed").inputValue()),
        chips: await chips(page).evaluateAll((ls) => ls.map((li) => ({ text: li.textContent.trim(), rank: Number(li.dataset.rank) }))),
      };
    };
    // 实验三: seed 42, and even its u = 0.955 lands on 北京 (top-p keeps few here)
    const exp3 = await first("实验三");
    assert.equal(exp3.seed, 42);
    assert.deepEqual(exp3.chips, [{ text: "北京", rank: 0 }]);
    // 自测题 opens on the first-visit seed: 「超集，它…」, not 「JavaScript 的 JavaScript 代码」
    const quiz = await first("自测题", 3);
    assert.equal(quiz.seed, 84);
    assert.ok(quiz.chips.every((c) => c.rank <= 1), JSON.stringify(quiz.chips));
    assert.equal(quiz.chips[0].text, "超集");
    // 误解三 keeps seed 42 on purpose: at T = 2 the first Step draws a rare token (北京 lost its mass)
    const myth3 = await first("误解三");
    assert.equal(myth3.seed, 42);
    assert.ok(myth3.chips[0].rank > 100, JSON.stringify(myth3.chips));
    // 误解五 keeps seed 42 on purpose: top-k 10's first draw is its 10th candidate, never past the cut
    const myth5 = await first("误解五");
    assert.equal(myth5.seed, 42);
    assert.equal(myth5.chips[0].rank, 9);
    // 误解四's sampling (seed 42, named on its button) leaves 状态 at once and does not loop
    await first("误解四", 0);
    await page.locator("#lesson-body").getByRole("button", { name: "sampling（温度 0.8，种子 42）" }).click();
    await settled(page);
    const sampled = await chips(page).allTextContents();
    assert.notEqual(sampled[0].trim(), "状态");
    assert.equal(await page.locator("#lesson-body .lesson-feedback").textContent(), "这段文本的末尾没有循环重复。");
    await context.close();
  });
});
