// Double taps and double clicks, in Chromium: a double tap on Step adds one token (a real pair far
// apart adds two, a mouse's double click steps twice); Reset pressed twice still offers Undo reset.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite } from "./harness.mjs";

const open = browserSuite();

describe("double taps and double clicks", () => {
  const chips = (page) => page.locator("#chips li").count();
  /** The two clicks Chromium sends for a double tap on `selector` (checked by hand: detail 1, then 2, pointerType "touch"). */
  const doubleTap = (page, selector, details = [1, 2]) =>
    page.locator(selector).evaluate((target, details) => {
      for (const detail of details) target.dispatchEvent(new PointerEvent("click", { bubbles: true, cancelable: true, composed: true, detail, pointerType: "touch" }));
    }, details);

  test("a double tap on Step adds one token; a real tap pair far apart adds two; a mouse's double click still steps twice", async () => {
    const { page, context, problems } = await open("?lang=en", { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    await doubleTap(page, "#step");
    await page.waitForFunction(() => document.querySelectorAll("#chips li").length >= 1);
    await page.waitForTimeout(300);
    assert.equal(await chips(page), 1);
    // Play double-tapped: it plays (not started and stopped at once)
    await doubleTap(page, "#play");
    await page.waitForFunction(() => document.querySelectorAll("#chips li").length >= 3);
    await page.locator("#stop").tap();
    await page.locator("#reset").tap();
    // four fast taps (Chromium counts detail 1 … 4) are two double taps: two tokens
    await doubleTap(page, "#step", [1, 2, 3, 4]);
    await page.waitForFunction(() => document.querySelectorAll("#chips li").length >= 2);
    await page.waitForTimeout(300);
    assert.equal(await chips(page), 2);
    const before = await chips(page);
    await page.locator("#step").tap();
    await page.waitForTimeout(400); // (past the double-tap time: a separate press)
    await page.locator("#step").tap();
    await page.waitForFunction((n) => document.querySelectorAll("#chips li").length === n + 2, before);
    assert.deepEqual(problems.console, []);
    await context.close();
    const desk = await open("?lang=en");
    await desk.page.locator("#step").dblclick();
    await desk.page.waitForFunction(() => document.querySelectorAll("#chips li").length === 2);
    await desk.context.close();
  });

  test("Reset pressed twice (a double click, R twice) still offers Undo reset, and Undo brings the tokens back", async () => {
    const { page, context, problems } = await open("?lang=en");
    for (let i = 0; i < 3; i++) await page.getByRole("button", { name: "Step", exact: true }).click();
    const path = new URLSearchParams(await page.evaluate(() => location.search)).get("path");
    await page.locator("#reset").dblclick();
    assert.equal(await chips(page), 0);
    assert.ok(await page.locator("#reset-undo").isVisible(), "Undo reset is gone after a double click on Reset");
    await page.locator("#generated").click();
    await page.keyboard.press("r");
    assert.ok(await page.locator("#reset-undo").isVisible(), "Undo reset is gone after R");
    await page.locator("#reset-undo").click();
    await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 3);
    assert.equal(new URLSearchParams(await page.evaluate(() => location.search)).get("path"), path);
    assert.deepEqual(problems.console, []);
    await context.close();
  });
});
