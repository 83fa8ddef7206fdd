// Writing with the model (issue 11, point 5): a teacher's own prompt. Min new tokens holds the end
// token back (a stage in the charts like any other); the end token reads 「结束符」 / "end"; the text
// is also shown plain, and copying gives plain text; the prompt box says this model only continues.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, screenshot } from "./harness.mjs";

const open = browserSuite();
const chips = (page, name) => page.getByRole("region", { name }).getByRole("listitem");

async function setNumber(page, label, value) {
  const input = page.getByLabel(label, { exact: true });
  await input.fill(String(value));
  await input.press("Tab");
}

async function setPrompt(page, text) {
  const box = page.locator("#prompt");
  await box.fill(text);
  await box.press("Tab");
  await page.waitForFunction(() => !document.getElementById("step")?.hasAttribute("disabled"));
}

describe("writing with the model", () => {
  for (const [lang, L] of [
    ["zh", { minNew: "最少生成 Token 数", step: "单步", region: "生成文本", end: "结束符", hint: "这个模型只会续写：请写一句话的开头。", stage: "最少生成 Token 数" }],
    ["en", { minNew: "Min new tokens", step: "Step", region: "Generated text", end: "end", hint: "This model continues text: write the beginning of a sentence.", stage: "Min new tokens" }],
  ]) {
    test(`${lang}: a finished sentence (「中国的首都是北京。」) ends at once; min_new_tokens 5 gives five tokens with no end token`, async () => {
      const { page, context, problems } = await open(`?lang=${lang}`);
      // the hint is the prompt box's description
      // (with the line that names its keys, Enter and Shift+Enter)
      assert.deepEqual((await page.locator("#prompt").getAttribute("aria-describedby")).split(" "), ["prompt-hint", "prompt-keys"]);
      assert.equal(await page.locator("#prompt-hint").textContent(), L.hint);
      await setPrompt(page, "中国的首都是北京。");
      await page.getByLabel(lang === "zh" ? "解码策略" : "Strategy").selectOption("greedy");
      await page.getByRole("button", { name: L.step, exact: true }).click();
      // without a minimum the model ends the text at once: an "end" chip, not a raw </s>
      const first = chips(page, L.region).first();
      assert.equal((await first.textContent()).trim(), L.end);
      assert.match(await first.getByRole("button").getAttribute("title"), /<\/s>/);
      assert.equal(await page.locator("#plain-text").textContent(), "中国的首都是北京。");
      // projector mode's key numbers name it the same way
      await page.keyboard.press("p");
      await page.locator(".pj-chosen dd").waitFor({ state: "visible" });
      assert.equal((await page.locator(".pj-chosen dd").textContent()).trim(), L.end);
      await page.keyboard.press("p");

      await page.getByRole("button", { name: lang === "zh" ? "重置" : "Reset", exact: true }).click();
      await setNumber(page, L.minNew, 5);
      assert.equal(new URL(page.url()).searchParams.get("min_new_tokens"), "5");
      // the stage is in the inspector's order and has its own panel, removing the end token
      const panel = page.locator('figure.stage[data-stage="min_new_tokens"]');
      await panel.waitFor({ state: "visible" });
      assert.equal(await panel.locator("h3").textContent(), L.stage);
      assert.match(await panel.locator(".stage-status").textContent(), /^0 \/ 5/);
      for (let i = 0; i < 5; i++) await page.getByRole("button", { name: L.step, exact: true }).click();
      const texts = await chips(page, L.region).allTextContents();
      assert.equal(texts.length, 5, texts.join("|"));
      assert.ok(texts.every((t) => t.trim() !== L.end && !t.includes("</s>")), texts.join("|"));
      // step 5's trace: 4 new tokens < 5, so min_new_tokens removed the end token
      await chips(page, L.region).nth(4).getByRole("button").click();
      assert.match(await panel.locator(".stage-status").textContent(), /^4 \/ 5/);
      await screenshot(page, `writing-min-new-${lang}.png`);
      assert.deepEqual(problems.console, []);
      await context.close();
    });
  }

  test("the text is shown plain and copies as plain text; ␣ stays in chips with a legend", async () => {
    const { page, context } = await open("?lang=en&source=manual&preset=ts-en&strategy=greedy");
    for (let i = 0; i < 3; i++) await page.getByRole("button", { name: "Step", exact: true }).click();
    const chipText = (await chips(page, "Generated text").allTextContents()).join("");
    assert.match(chipText, /␣/);
    assert.match(await page.locator("#text-legend").textContent(), /␣/);
    const plain = await page.locator("#plain-text").textContent();
    assert.equal(plain, "TypeScript is a superset of JavaScript");
    // selecting the chips and copying yields the plain text, without ␣
    const copied = await page.evaluate(() => {
      const region = document.getElementById("generated");
      const range = document.createRange();
      range.selectNodeContents(region);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      let data = null;
      document.addEventListener("copy", (e) => (data = e.clipboardData.getData("text/plain")), { once: true });
      document.execCommand("copy");
      return data;
    });
    assert.equal(copied, plain);
    await context.close();
  });
});
