// A teacher at a classroom touch board (希沃-style: 1920×1080 CSS px at devicePixelRatio 2, touch
// only, a Chinese browser), teaching from projector mode with a finger: a tap on a chart's bar shows
// that token's numbers (a finger has no hover) and never forces a token the class did not see
// chosen, nor covers the strip's u marker; the board's on-screen Return in projector mode's prompt box applies the prompt without
// taking a step, and the hint under the box says so in zh and en.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, screenshot } from "./harness.mjs";
import { fitProblems } from "./fit.mjs";

const open = browserSuite();
/** A 4K board: 1920×1080 CSS px at devicePixelRatio 2, touch only, a Chinese browser. */
const BOARD = { viewport: { width: 1920, height: 1080 }, deviceScaleFactor: 2, hasTouch: true, isMobile: false, locale: "zh-CN" };

const path = (page) => page.evaluate(() => new URLSearchParams(location.search).get("path") ?? "");
const tipShown = (page) => page.evaluate(() => document.getElementById("token-tip")?.hidden === false);

describe("a tap on a chart's bar inspects it", () => {
  for (const chart of ["bars", "strip"]) {
    test(`projector mode, ${chart}: the first tap shows the token's numbers and keeps the text; a second tap on it forces it`, async () => {
      const { page, context, problems } = await open("?projector=1", BOARD);
      await page.locator("#step").tap();
      await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
      const before = await path(page);
      // a bar the core did not choose (the strip: a band other than the chosen one)
      const target = chart === "bars" ? page.locator(".stage.pj-focus svg.chart rect.hit[role='button']").nth(2) : page.locator("#final svg.chart rect.band:not(.chosen)").first();
      await target.tap();
      await page.waitForTimeout(400); // (past the tooltip's hide delay and the double-tap time)
      assert.equal(await path(page), before, "a tap to inspect forced a token");
      assert.equal(await page.locator("#chips li").count(), 1);
      assert.ok(await tipShown(page), "the tap shows no numbers");
      const tip = page.locator("#token-tip");
      assert.match(await tip.textContent(), /排名第 \d+/);
      assert.ok(parseFloat(await tip.evaluate((el) => getComputedStyle(el).fontSize)) >= 24, "the numbers are legible from the back");
      await screenshot(page, `touch-board-tap-${chart}.png`);
      // a tap elsewhere closes it; then the first tap only shows it again
      await page.locator(".projector-nums dt").first().tap();
      await page.waitForTimeout(200);
      assert.equal(await tipShown(page), false, "a tap elsewhere leaves the numbers up");
      // a second tap on the bar whose numbers are up forces that token, as a click does
      await target.tap();
      await page.waitForTimeout(400);
      assert.equal(await path(page), before);
      await target.tap();
      await page.waitForFunction((p) => (new URLSearchParams(location.search).get("path") ?? "") !== p, before);
      assert.match(await path(page), /f$/);
      assert.deepEqual(problems, { console: [], foreign: [] });
      await context.close();
    });
  }

  // a lifted finger leaves the numbers up until a tap elsewhere: over a band of the strip they hid
  // the u marker and its value, the number the class reads to see which band the draw lands in
  for (const [mode, query, viewport] of [
    ["projector 1024×768", "&projector=1", { width: 1024, height: 768 }],
    ["projector 853×533", "&projector=1", { width: 853, height: 533 }],
    ["normal 1280×800", "", { width: 1280, height: 800 }],
  ]) {
    test(`${mode}: a tap on the strip's band shows its numbers beside the u marker, never over it`, async () => {
      const { page, context } = await open(`?lang=zh${query}`, { viewport, hasTouch: true });
      // the band the u marker stands in (the chosen token): the tap most likely to be covered
      await page.locator("#final svg.chart rect.band.chosen").tap();
      await page.locator("#token-tip:not([hidden])").waitFor();
      const m = await page.evaluate(() => {
        const a = document.getElementById("token-tip").getBoundingClientRect();
        const b = document.querySelector("#final .u-marker").getBoundingClientRect();
        const overlap = Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0;
        return { overlap, inside: a.left >= 0 && a.top >= 0 && a.right <= innerWidth && a.bottom <= innerHeight, marker: b.width > 0 };
      });
      assert.deepEqual(m, { overlap: false, inside: true, marker: true });
      assert.match(await page.locator("#final .u-marker text").textContent(), /u = 0\.\d+/);
      await screenshot(page, `touch-board-strip-tip-${mode.replace(/[^a-z0-9]+/gi, "-")}.png`);
      await context.close();
    });
  }

  test("a mouse click on a bar still forces it at once (desks keep their one click)", async () => {
    const { page, context } = await open("?lang=en&projector=1", { viewport: { width: 1280, height: 800 } });
    await page.locator("#step").click();
    await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
    const before = await path(page);
    await page.locator(".stage.pj-focus svg.chart rect.hit[role='button']").nth(2).click();
    await page.waitForFunction((p) => (new URLSearchParams(location.search).get("path") ?? "") !== p, before);
    assert.match(await path(page), /f$/);
    await context.close();
  });

  test("the inspector's hint says what a tap does on a touch screen (zh, en)", async () => {
    const { page, context } = await open("", { ...BOARD, viewport: { width: 1366, height: 768 } });
    const hint = page.locator(".inspector > p.note");
    assert.equal(await hint.textContent(), "点一下柱子看它的数字；再点一下，在这一步强制选择该 Token。");
    await page.getByRole("button", { name: "English" }).tap();
    assert.equal(await hint.textContent(), "Tap a bar for its numbers; tap it again to force that token at this step.");
    await context.close();
  });
});

describe("the board's on-screen keyboard in projector mode's prompt box", () => {
  test("Return applies the prompt and takes no step (the class predicts first; Step makes each token), as the hint says in zh and en", async () => {
    const { page, context, problems } = await open("?projector=1", BOARD);
    await page.locator("#step").tap();
    await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
    await page.locator("#pj-prompt-edit").tap();
    const box = page.locator("#pj-prompt-text");
    const hint = await page.locator("#pj-prompt-keys").textContent();
    await screenshot(page, "touch-board-prompt.png");
    assert.deepEqual(await page.evaluate(fitProblems, { minPx: 24 }), []);
    await page.keyboard.press("Control+a");
    await page.keyboard.insertText("中国的首都是");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.getElementById("pj-prompt-text") === null);
    await page.waitForFunction(() => document.getElementById("prompt-echo")?.textContent === "中国的首都是");
    await page.waitForTimeout(300);
    assert.equal(await page.locator("#chips li").count(), 0, "Return took a step the class did not see coming");
    assert.equal(hint, "换行键：应用提示词（不生成）· 点「单步」：生成下一个 Token");
    // Step then makes the first token from it
    await page.locator("#step").tap();
    await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
    // in English
    await page.getByRole("button", { name: "English" }).tap();
    await page.locator("#pj-prompt-edit").tap();
    assert.equal(await box.isVisible(), true);
    assert.equal(await page.locator("#pj-prompt-keys").textContent(), "Return: apply the prompt (no step) · Step: the next token");
    assert.deepEqual(await page.evaluate(fitProblems, { minPx: 24 }), []);
    assert.deepEqual(problems, { console: [], foreign: [] });
    await context.close();
  });

  for (const [width, height] of [[1920, 1080], [1366, 768], [1280, 720]]) {
    test(`${width}×${height}: the open box is wide enough to show the prompt being typed (12 characters and more), and fits (zh, en)`, async () => {
      for (const lang of ["zh", "en"]) {
        const { page, context, problems } = await open(`?projector=1&lang=${lang}`, { ...BOARD, viewport: { width, height } });
        await page.locator("#pj-prompt-edit").tap();
        await page.keyboard.insertText("给一个代码编辑器插件起名");
        const box = await page.locator("#pj-prompt-text").evaluate((el) => ({ width: el.clientWidth, px: parseFloat(getComputedStyle(el).fontSize) }));
        // (the 16:9 text column put the box beside its label and buttons: 76 px, two characters, at 1366×768 in English)
        assert.ok(box.width >= 12 * box.px, `${lang}: the box shows ${(box.width / box.px).toFixed(1)} characters`);
        assert.deepEqual(await page.evaluate(fitProblems, { minPx: 24 }), [], lang);
        await screenshot(page, `touch-board-prompt-${lang}-${width}x${height}.png`);
        assert.deepEqual(problems, { console: [], foreign: [] });
        await context.close();
      }
    });
  }

  test("with a keyboard, Enter still applies and takes one step; Shift+Enter is a new line", async () => {
    const { page, context } = await open("?lang=en&projector=1", { viewport: { width: 1024, height: 768 } });
    await page.locator("#pj-prompt-edit").click();
    assert.equal(await page.locator("#pj-prompt-keys").textContent(), "Enter: apply and take one step · Shift+Enter: new line · Esc: cancel");
    await page.keyboard.press("Control+a");
    await page.keyboard.insertText("中国的首都是");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
    await context.close();
  });
});

describe("a board's browser window that is not full screen", () => {
  for (const lang of ["zh", "en"]) {
    test(`${lang}: 1280×800 at 150 % scaling (853×533 CSS px): Step takes a finger's tap, nothing overlaps, one screen, type at least 18 CSS px (27 screen pixels)`, async () => {
      const { page, context, problems } = await open(`?projector=1&lang=${lang}`, { ...BOARD, viewport: { width: 853, height: 533 }, deviceScaleFactor: 1.5 });
      for (let n = 1; n <= 2; n++) {
        // a finger on Step's centre (the key numbers lay over it: the tap did nothing)
        const step = await page.locator("#step").boundingBox();
        await page.touchscreen.tap(step.x + step.width / 2, step.y + step.height / 2);
        await page.waitForTimeout(400);
        assert.equal(await page.locator("#chips li").count(), n, "a tap on Step made no token");
      }
      assert.deepEqual(await page.evaluate(fitProblems, { minPx: 18 }), []);
      await screenshot(page, `touch-board-853x533-${lang}.png`);
      assert.deepEqual(problems, { console: [], foreign: [] });
      await context.close();
    });
  }
});

describe("type a class reads from 10 m on the board", () => {
  test("1920×1080: every chart's text, the final strip's too, is at least 0.72 of the page's type (18.5 of 25.6 px at 1280×800)", async () => {
    const { page, context } = await open("?projector=1", BOARD);
    await page.locator("#step").tap();
    await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
    await page.waitForTimeout(300);
    const { root, small } = await page.evaluate(() => {
      const root = parseFloat(getComputedStyle(document.documentElement).fontSize);
      const small = [];
      for (const text of document.querySelectorAll("svg.chart text")) {
        if (!text.checkVisibility() || text.textContent.trim() === "") continue;
        const px = parseFloat(getComputedStyle(text).fontSize) * Math.hypot(text.getScreenCTM().a, text.getScreenCTM().b);
        if (px < 0.72 * root - 0.1) small.push(`${text.textContent.trim().slice(0, 12)} ${px.toFixed(1)}px`);
      }
      return { root, small };
    });
    assert.ok(root >= 34, `the page's type is ${root}px`);
    // (the strip's labels, ticks and u stayed at 20.6 px beside 34.6 px type)
    assert.deepEqual(small, []);
    await context.close();
  });
});

describe("a finger dragged across a chart", () => {
  /** A finger's sideways drag over `selector`, from its left edge to its right, as the board sends it. */
  async function swipe(page, context, selector) {
    const box = await page.locator(selector).boundingBox();
    const cdp = await context.newCDPSession(page);
    const y = box.y + box.height / 2;
    await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x: box.x + 20, y }] });
    for (let i = 1; i <= 10; i++) {
      await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x: box.x + 20 + ((box.width - 40) * i) / 10, y }] });
      await page.waitForTimeout(16);
    }
    await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    await page.waitForTimeout(600);
  }

  for (const [mode, query, targets] of [
    ["projector mode", "?projector=1", [".stage.pj-focus svg.chart", "#final svg.chart", "#projector-nums"]],
    ["the normal page", "?", ["#final svg.chart"]],
  ]) {
    test(`${mode}: a sideways drag across ${targets.join(", ")} stays on the page (the browser took it as "swipe back"), keeps the text and forces nothing`, async () => {
      const { page, context, problems } = await open(query, { ...BOARD, viewport: { width: 1366, height: 768 } });
      await page.locator("#step").tap();
      await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
      const before = await path(page);
      await page.evaluate(() => (window.stillHere = true));
      for (const target of targets) {
        await page.locator(target).scrollIntoViewIfNeeded();
        const scroll = await page.evaluate(() => scrollY);
        await swipe(page, context, target);
        assert.equal(await page.evaluate(() => window.stillHere === true), true, `${target}: the page was left`);
        assert.equal(await path(page), before, target);
        assert.equal(await page.evaluate(() => scrollY), scroll, `${target}: the page scrolled`);
      }
      assert.deepEqual(problems, { console: [], foreign: [] });
      await context.close();
    });
  }
});
