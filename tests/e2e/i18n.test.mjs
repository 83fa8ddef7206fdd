// 中文 / English: every piece of interface text exists in both languages and differs between them
// (so nothing was left untranslated), no raw message key ever shows, Chinese is the default for a
// Chinese browser, and the core's errors read in Chinese on the Chinese page.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite } from "./harness.mjs";

const open = browserSuite();

/** Every translatable string on the page, keyed by element and kind (text, aria-label, placeholder). */
function texts(page) {
  return page.evaluate(() => {
    const out = {};
    document.querySelectorAll("[data-i18n]").forEach((el, i) => (out[`text:${el.dataset.i18n}:${i}`] = el.textContent.trim()));
    document.querySelectorAll("[data-i18n-label]").forEach((el, i) => (out[`label:${el.dataset.i18nLabel}:${i}`] = el.getAttribute("aria-label") ?? ""));
    document.querySelectorAll("[data-i18n-placeholder]").forEach((el, i) => (out[`placeholder:${el.dataset.i18nPlaceholder}:${i}`] = el.getAttribute("placeholder") ?? ""));
    return out;
  });
}

/** Names that are the same in both languages on purpose: the product, parameter names as written. */
const SAME = new Set(["nexttoken", "Token", "Top-k", "Top-p", "Min-p", "Typical-p", "Hugging Face transformers", "llama.cpp", "vLLM"]);

describe("languages", () => {
  test("every interface string is present in both languages and translated; no raw keys", async () => {
    const en = await open("?lang=en");
    const zh = await open("?lang=zh");
    const a = await texts(en.page);
    const b = await texts(zh.page);
    assert.deepEqual(Object.keys(b), Object.keys(a));
    const empty = Object.keys(a).filter((key) => a[key] === "" || b[key] === "");
    assert.deepEqual(empty, [], "empty strings");
    const untranslated = Object.keys(a).filter((key) => a[key] === b[key] && !SAME.has(a[key])).map((key) => `${key} “${a[key]}”`);
    assert.deepEqual(untranslated, [], "the same text in both languages");
    // no element shows a message key (e.g. "share.copy") instead of text
    for (const page of [en.page, zh.page]) {
      const raw = await page.evaluate(() =>
        [...document.querySelectorAll("body *")]
          .filter((el) => el.children.length === 0 && /^[a-z]+(\.[a-zA-Z0-9]+)+$/.test(el.textContent.trim()) && !/^\d/.test(el.textContent.trim()))
          .map((el) => el.textContent.trim()),
      );
      raw.splice(0, raw.length, ...raw.filter((text) => !SAME.has(text)));
      assert.deepEqual(raw, []);
    }
    await en.context.close();
    await zh.context.close();
  });

  test("a Chinese browser gets Chinese by default, an English one English; the toggle keeps the state", async () => {
    const zh = await open("", { locale: "zh-CN" });
    assert.equal(await zh.page.evaluate(() => document.documentElement.lang), "zh-CN");
    await zh.page.getByRole("button", { name: "单步", exact: true }).click();
    const before = await zh.page.locator("#chips li").allTextContents();
    await zh.page.getByRole("button", { name: "Switch to English" }).click();
    assert.equal(await zh.page.evaluate(() => document.documentElement.lang), "en");
    assert.deepEqual(await zh.page.locator("#chips li").allTextContents(), before);
    assert.match(await zh.page.evaluate(() => location.search), /lang=en/);
    await zh.context.close();
    const en = await open("", { locale: "en-GB" });
    assert.equal(await en.page.evaluate(() => document.documentElement.lang), "en");
    await en.context.close();
  });

  test("the core's errors read in Chinese on the Chinese page", async () => {
    const { page, context } = await open("?lang=zh");
    await page.getByLabel("提示词").fill("");
    await page.getByLabel("提示词").press("Tab");
    await page.locator("#error").waitFor();
    assert.match(await page.locator("#error").textContent(), /提示词至少要有一个字符/);
    await context.close();
  });
});
