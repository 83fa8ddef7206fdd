// The number boxes (seed, max/min new tokens, a logit), in Chromium: full-width digits, a comma
// decimal, an IME's 。 and 1e3 are the number they look like; what is out of range is refused under the
// box in words naming the field and the range, keeping the text and the last valid value; a lesson's
// value replaces a refused entry; arrow keys still step a whole-number box.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite } from "./harness.mjs";

const open = browserSuite();
const param = (page, key) => page.evaluate((k) => new URLSearchParams(location.search).get(k), key);

/** Type `text` into the box as a keyboard or an IME does (no `fill` shortcut), then leave it. */
async function typeInto(page, id, text) {
  const box = page.locator(`#${id}`);
  await box.click();
  await page.keyboard.press("Control+a");
  await page.keyboard.press("Backspace");
  if (text !== "") await page.keyboard.insertText(text);
  await page.keyboard.press("Tab");
}

describe("the number boxes (seed, max new tokens, min new tokens, a logit)", () => {
  test("take a comma decimal, full-width digits, an IME's 。 and 1e3 as the number they look like", async () => {
    const { page, context, problems } = await open("?lang=en&seed=5");
    await typeInto(page, "max-new", "１２"); // a Chinese IME's full-width digits
    await page.waitForFunction(() => new URLSearchParams(location.search).get("max_new_tokens") === "12");
    assert.equal(await page.locator("#max-new").inputValue(), "12");
    await typeInto(page, "seed", "1e3");
    await page.waitForFunction(() => new URLSearchParams(location.search).get("seed") === "1000");
    await typeInto(page, "seed", "1,000"); // a thousands group in a whole-number box
    assert.equal(await param(page, "seed"), "1000");
    assert.equal(await page.locator("#seed-error").isVisible(), false);
    // the hand-made table's logits: 0,7 and ０。７ are 0.7, never 7
    await page.locator("#source").selectOption("manual");
    const logit = page.locator("#logit-table tbody input").first();
    for (const typed of ["0,7", "０。７", "-2,5"]) {
      await logit.click();
      await page.keyboard.press("Control+a");
      await page.keyboard.insertText(typed);
      await page.keyboard.press("Tab");
      const want = typed.startsWith("-") ? "-2.5" : "0.7";
      assert.equal(await logit.inputValue(), want, typed);
    }
    assert.deepEqual(problems.console, []);
    await context.close();
  });

  test("refuse what is out of range in words naming the field and the range, keep the text and the last valid value", async () => {
    const { page, context, problems } = await open("?lang=en&seed=5&max_new_tokens=16");
    const cases = [
      ["max-new", "999", /^Max new tokens: enter a whole number from 1 to 512 \(you typed “999”\)\. Still using 16\.$/],
      ["max-new", "", /^Max new tokens: the box is empty; enter a whole number from 1 to 512\. Still using 16\.$/],
      ["max-new", "0,7", /^Max new tokens: enter a whole number from 1 to 512 \(you typed “0,7”\)/],
      ["seed", "-3", /^Seed: enter a whole number from 0 to 4294967295 \(you typed “-3”\)\. Still using 5\.$/],
      ["seed", "", /^Seed: the box is empty; enter a whole number from 0 to 4294967295\. Still using 5\.$/],
      ["seed", ".7", /^Seed: enter a whole number/],
      ["min-new", "7.5", /^Min new tokens: enter a whole number from 0 to 512 \(you typed “7\.5”\)\. Still using 0\.$/],
    ];
    for (const [id, typed, message] of cases) {
      await typeInto(page, id, typed);
      const error = page.locator(`#${id}-error`);
      assert.ok(await error.isVisible(), `${id} ${JSON.stringify(typed)}: no message`);
      assert.match(await error.textContent(), message);
      // "true": an empty aria-invalid is read as false (the old build set "")
      assert.equal(await page.locator(`#${id}`).getAttribute("aria-invalid"), "true");
      assert.match(await page.locator(`#${id}`).getAttribute("aria-describedby"), new RegExp(`${id}-error`));
      // the typed text stays, also after a step re-renders the page; nothing else moved
      await page.getByRole("button", { name: "Step", exact: true }).click();
      assert.equal(await page.locator(`#${id}`).inputValue(), typed, `${id} ${JSON.stringify(typed)}`);
      assert.equal(await param(page, "seed"), "5");
      assert.equal(await param(page, "max_new_tokens"), "16");
      assert.equal(await param(page, "min_new_tokens") ?? "0", "0");
      // in the other language too
      await page.getByRole("button", { name: "切换到中文" }).click();
      assert.match(await error.textContent(), /：(请输入|输入框是空的).*(整数).*仍在使用/);
      await page.getByRole("button", { name: "Switch to English" }).click();
      // a valid number clears it
      await typeInto(page, id, id === "seed" ? "5" : id === "max-new" ? "16" : "0");
      assert.equal(await error.isVisible(), false);
      assert.equal(await page.locator(`#${id}`).getAttribute("aria-invalid"), null);
    }
    assert.deepEqual(problems.console, []);
    await context.close();
  });

  test("a lesson that sets the field replaces a refused entry (the new value is what is in use)", async () => {
    const { page, context } = await open("?lang=zh");
    await typeInto(page, "max-new", "999");
    assert.match(await page.locator("#max-new-error").textContent(), /^最大生成长度：请输入 1 到 512 之间的整数（你输入的是「999」）。仍在使用 \d+。$/);
    await page.locator("#lesson-list button").first().click();
    await page.waitForFunction(() => document.querySelector("#max-new").value !== "999");
    assert.equal(await page.locator("#max-new-error").isVisible(), false);
    assert.equal(await page.locator("#max-new").inputValue(), await param(page, "max_new_tokens") ?? "16");
    await context.close();
  });

  test("arrow keys still step a whole-number box by one, within its range", async () => {
    const { page, context } = await open("?lang=en&max_new_tokens=511");
    await page.locator("#max-new").focus();
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowUp");
    assert.equal(await page.locator("#max-new").inputValue(), "512");
    await page.waitForFunction(() => new URLSearchParams(location.search).get("max_new_tokens") === "512");
    await page.keyboard.press("ArrowDown");
    await page.waitForFunction(() => new URLSearchParams(location.search).get("max_new_tokens") === "511");
    await context.close();
  });
});
