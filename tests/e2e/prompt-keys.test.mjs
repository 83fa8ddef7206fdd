// The prompt box from the keyboard, in Chromium: Enter applies a typed prompt and asks for the next
// token (Shift+Enter and an input method's Enter do not); a phone's Return writes a new line; E opens
// the prompt box from anywhere (projector mode's too), pausing Play while the teacher types.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite } from "./harness.mjs";

const open = browserSuite();
const chipTexts = (page) => page.locator("#chips li").allTextContents();
const chipCount = (page) => page.evaluate(() => document.querySelectorAll("#chips > li").length);

describe("the prompt box: Enter asks for the next token", () => {
  test("Enter applies a typed prompt and steps once; leaving the box keeps that step; Shift+Enter is a new line", async () => {
    const { page, context, problems } = await open("?lang=zh&seed=7");
    const box = page.locator("#prompt");
    await box.fill("今天我们学习");
    await box.press("Enter");
    await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
    assert.equal(await box.inputValue(), "今天我们学习", "Enter wrote no new line");
    assert.match(page.url(), /prompt=%E4%BB%8A%E5%A4%A9/, "the typed prompt is the page's prompt");
    // a second Enter: one more step from the same prompt
    await box.press("Enter");
    await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 2);
    // leaving the box (its change event) must not start the text over
    await page.locator("#step").focus();
    await page.waitForTimeout(100);
    assert.equal((await chipTexts(page)).length, 2, "blurring the prompt box kept the two tokens");
    // Shift+Enter writes a new line and does not step
    await box.press("End");
    await box.press("Shift+Enter");
    assert.equal(await box.inputValue(), "今天我们学习\n");
    assert.equal((await chipTexts(page)).length, 2, "Shift+Enter took no step");
    // the keys are said under the box, and read with it
    const keys = await page.locator("#prompt-keys").textContent();
    assert.match(keys ?? "", /回车/);
    assert.match((await box.getAttribute("aria-describedby")) ?? "", /prompt-keys/);
    assert.deepEqual(problems, { console: [], foreign: [] });
    await context.close();
  });

  test("Enter that confirms an input method's candidate (拼音) only confirms it", async () => {
    const { page, context } = await open("?lang=zh");
    const box = page.locator("#prompt");
    await box.fill("今天");
    await box.focus();
    const stepped = await page.evaluate(() => {
      const box = document.querySelector("#prompt");
      const event = new KeyboardEvent("keydown", { key: "Enter", isComposing: true, bubbles: true, cancelable: true });
      box.dispatchEvent(event);
      return event.defaultPrevented;
    });
    assert.equal(stepped, false, "a composing Enter is left to the input method");
    await page.waitForTimeout(100);
    assert.equal((await chipTexts(page)).length, 0);
    await context.close();
  });

  test("English: the hint names the keys", async () => {
    const { page, context } = await open("?lang=en");
    assert.match((await page.locator("#prompt-keys").textContent()) ?? "", /Enter: one step .* Shift\+Enter: new line/);
    await context.close();
  });
});

describe("a phone's on-screen keyboard in the prompt box", () => {
  test("Return writes a new line (there is no Shift+Enter on it), the hint says so (zh, en), and Step reads the two lines", async () => {
    const { page, context, problems } = await open("?lang=zh", { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    assert.equal(await page.locator("#prompt-keys").textContent(), "换行键：换行 · 点「单步」：用这个提示词生成一步");
    const box = page.locator("#prompt");
    await box.tap();
    await page.keyboard.press("Control+a");
    await page.keyboard.insertText("第一行");
    await page.keyboard.press("Enter");
    await page.keyboard.insertText("第二行");
    assert.equal(await box.inputValue(), "第一行\n第二行");
    assert.equal(await page.locator("#chips li").count(), 0);
    await page.locator("#step").tap();
    await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
    assert.equal(await page.locator("#prompt-echo").textContent(), "第一行\n第二行");
    await page.getByRole("button", { name: "English" }).tap();
    assert.equal(await page.locator("#prompt-keys").textContent(), "Return: new line · Step: the next token from this prompt");
    assert.deepEqual(problems.console, []);
    await context.close();
  });
});

describe("E edits the prompt, and Play pauses while it is edited", () => {
  for (const how of ["the E key", "the ✎ Prompt button"]) {
    test(`projector mode: ${how} opens the prompt box while Play runs; Play pauses, the text stays still under the typing`, async () => {
      const { page, context, problems } = await open("?lang=en&projector=1&max_new_tokens=64", { viewport: { width: 1280, height: 800 } });
      await page.evaluate(() => (document.activeElement instanceof HTMLElement ? document.activeElement.blur() : undefined));
      await page.keyboard.press(" ");
      await page.waitForFunction(() => document.querySelectorAll("#chips > li").length >= 1);
      assert.equal(await page.locator("#play").textContent(), "Pause", "Play runs");
      if (how === "the E key") await page.keyboard.press("e");
      else await page.locator("#pj-prompt-edit").click();
      await page.waitForFunction(() => document.activeElement?.id === "pj-prompt-text");
      assert.equal(await page.locator("#play").textContent(), "Play", "Play paused");
      const count = await chipCount(page);
      await page.keyboard.type("The sky is");
      await page.waitForTimeout(1200);
      assert.equal(await chipCount(page), count, "no token added while the box is open");
      assert.equal(await page.locator("#pj-prompt-text").inputValue(), "The sky is", "the letters went into the box, not to shortcuts");
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => document.querySelectorAll("#chips > li").length === 1 && /The sky is/.test(document.getElementById("prompt-echo")?.textContent ?? ""));
      assert.deepEqual(problems, { console: [], foreign: [] });
      await context.close();
    });
  }

  test("outside projector mode E goes to the sidebar's prompt box (embed: its drawer opens), pausing Play; Esc leaves it", async () => {
    const { page, context } = await open("?lang=en&max_new_tokens=64");
    await page.locator("#speed").fill("3");
    await page.locator("#play").click();
    await page.locator("#play").blur();
    await page.waitForFunction(() => document.querySelectorAll("#chips > li").length >= 1);
    await page.keyboard.press("e");
    await page.waitForFunction(() => document.activeElement?.id === "prompt");
    assert.equal(await page.locator("#play").textContent(), "Play");
    // Esc gives the keyboard back to the page, the typed text kept: Space then plays, → steps
    // (they were typed into the box: a space, the caret moved)
    await page.keyboard.type(" and");
    const typed = await page.locator("#prompt").inputValue();
    await page.keyboard.press("Escape");
    assert.equal(await page.evaluate(() => document.activeElement === document.body), true, "focus back on the page");
    assert.equal(await page.locator("#prompt").inputValue(), typed);
    assert.match(typed, / and$/);
    const before = await page.locator("#chips > li").count();
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction((n) => document.querySelectorAll("#chips > li").length === n + 1, before);
    assert.equal(await page.locator("#prompt").inputValue(), typed, "nothing more typed into the box");
    await context.close();
    const embed = await open("?lang=en&embed=1", { viewport: { width: 800, height: 600 } });
    await embed.page.keyboard.press("e");
    await embed.page.waitForFunction(() => document.activeElement?.id === "prompt");
    assert.equal(await embed.page.locator("#prompt").isVisible(), true, "the drawer opened on it");
    await embed.context.close();
  });

  for (const [lang, said] of [["en", /Edit the prompt/], ["zh", /修改提示词/]]) {
    test(`${lang}: the shortcuts list names E with the others; the prompt controls announce it`, async () => {
      const { page, context } = await open(`?lang=${lang}`);
      await page.keyboard.press("?");
      const dialog = page.locator("#help-dialog");
      await dialog.waitFor({ state: "visible" });
      const rows = await dialog.locator("dl.keys > div").evaluateAll((divs) => divs.map((d) => [d.querySelector("dt").textContent.trim(), d.querySelector("dd").textContent.trim()]));
      const row = rows.find(([key]) => key === "E");
      assert.ok(row !== undefined, JSON.stringify(rows));
      assert.match(row[1], said);
      await page.keyboard.press("Escape");
      assert.equal(await page.locator("#prompt").getAttribute("aria-keyshortcuts"), "E");
      assert.equal(await page.locator("#pj-prompt-edit").getAttribute("aria-keyshortcuts"), "E");
      await context.close();
    });
  }
});
