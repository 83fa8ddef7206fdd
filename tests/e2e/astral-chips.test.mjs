// A teacher's own prompt with an emoji and 𠮷 in it: the model answers with byte tokens that
// complete an emoji (🤗, U+1F917) which the fonts here lack: the chip drew a tofu box. Now a chip
// whose character lies outside the BMP and came from bytes also says its code point, legible (≥ 24 px
// in projector mode) whatever the fonts; the plain text and the link stay the character itself.
// Failed on the old build.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, screenshot } from "./harness.mjs";

const open = browserSuite();

describe("a character the fonts may lack says its code point", () => {
  test("zh projector 1024×768: 我喜欢😀和𠮷野家 + Steps → <F0><9F><A4> then 🤗 U+1F917", async () => {
    const { page, context, problems } = await open("?lang=zh&projector=1", { viewport: { width: 1024, height: 768 }, locale: "zh-CN" });
    await page.getByRole("button", { name: "改提示词" }).click();
    const box = page.getByRole("textbox", { name: /提示词/ }).filter({ visible: true });
    await box.fill("我喜欢😀和𠮷野家 ");
    await box.press("Enter");
    for (let i = 0; i < 3; i++) await page.getByRole("button", { name: "单步", exact: true }).click();
    await page.waitForFunction(() => document.querySelectorAll("#chips li").length >= 4);
    const chips = await page.locator("#chips li").allTextContents();
    assert.deepEqual(chips.slice(0, 3), ["<F0>", "<9F>", "<A4>"], "the bytes, pending");
    const emoji = page.locator("#chips li").nth(3);
    assert.equal(await emoji.textContent(), "🤗U+1F917");
    const label = emoji.locator(".codepoint");
    assert.ok(await label.isVisible());
    const px = await label.evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    assert.ok(px >= 24, `legible from the back of the room (${px} px)`);
    // the text itself stays the character (plain text, copy)
    assert.match(await page.locator("#plain-text").textContent(), /🤗$/);
    assert.doesNotMatch(await page.locator("#plain-text").textContent(), /U\+/);
    await screenshot(page, "astral-chips-zh-1024x768.png");
    assert.deepEqual(problems, { console: [], foreign: [] });
    await context.close();
  });
});
