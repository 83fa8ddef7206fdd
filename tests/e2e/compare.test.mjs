// "Compare settings": the same prompt and seed under several settings, side by side, from a
// separate Generator. Asserts properties (determinism, greedy = what Step in greedy mode gives,
// the main text untouched), never exact generated text, since the model may be retrained.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, screenshot } from "./harness.mjs";

const open = browserSuite();

/** Every column as { setting, tokens: [{ text, p }], stop }. */
async function columns(page) {
  return page.locator(".compare-col").evaluateAll((cols) =>
    cols.map((col) => ({
      setting: col.getAttribute("data-setting"),
      label: col.querySelector("h3")?.textContent ?? "",
      tokens: [...col.querySelectorAll("li")].map((li) => ({
        text: li.querySelector(".chip-text")?.textContent ?? "",
        p: Number(li.getAttribute("data-p")),
      })),
      stop: col.querySelector(".compare-stop")?.textContent ?? "",
    })),
  );
}

async function mainTokens(page) {
  return (await page.getByRole("region", { name: "Generated text" }).getByRole("listitem").allTextContents()).map((s) =>
    s.replace(/^␣ /, " "),
  );
}

async function setNumber(page, label, value) {
  const input = page.getByLabel(label, { exact: true });
  await input.fill(String(value));
  await input.press("Tab");
}

describe("compare settings", () => {
  test("runs twice identically, greedy matches Step in greedy mode, main text untouched", async () => {
    const { page, problems, context } = await open("?lang=en");
    await setNumber(page, "Max new tokens", 12);
    // one main step first: the comparison must not change the main text
    await page.getByRole("button", { name: "Step", exact: true }).click();
    const mainBefore = await mainTokens(page);
    assert.equal(mainBefore.length, 1);

    const run = page.getByRole("button", { name: "Run comparison" });
    await run.focus();
    await page.keyboard.press("Enter"); // keyboard operable
    await page.locator(".compare-col").first().waitFor();
    const first = await columns(page);
    assert.ok(first.length >= 2 && first.length <= 4, `2–4 columns, got ${first.length}`);
    assert.deepEqual(first.map((c) => c.label).slice(0, 3), ["Greedy", "T 0.7 · top-p 0.9", "T 1.5 · top-p 1.0"]);
    for (const column of first) {
      assert.ok(column.tokens.length >= 1 && column.tokens.length <= 12, `${column.setting}: ${column.tokens.length} tokens`);
      assert.ok(column.tokens.every((tok) => tok.p > 0 && tok.p <= 1), `${column.setting}: probabilities in (0, 1]`);
      assert.match(column.stop, /^Stopped/);
    }
    assert.match(await page.locator("#compare-note").textContent(), /seed 84/); // the first-visit seed
    await run.click();
    const second = await columns(page);
    assert.deepEqual(second, first, "same prompt, seed and settings give the same columns");
    assert.deepEqual(await mainTokens(page), mainBefore, "the main text is unchanged");

    // greedy column = Step with strategy greedy from the same prompt
    await page.getByLabel("Strategy").selectOption("greedy");
    await page.getByRole("button", { name: "Reset", exact: true }).click();
    await page.getByRole("button", { name: "Step", exact: true }).waitFor();
    const greedy = first.find((c) => c.setting === "greedy");
    assert.ok(greedy);
    for (let i = 0; i < greedy.tokens.length; i++) {
      const step = page.getByRole("button", { name: "Step", exact: true });
      if (await step.isDisabled()) break;
      await step.click();
    }
    const stepped = await mainTokens(page);
    assert.deepEqual(stepped, greedy.tokens.map((tok) => tok.text), "greedy column equals greedy stepping");
    assert.deepEqual(problems.console, []);
    assert.deepEqual(problems.foreign, []);

    // the panel in view for the artifact
    await page.getByLabel("Strategy").selectOption("sample");
    await run.click();
    await page.locator("#compare").evaluate((el) => el.scrollIntoView({ block: "start" }));
    await screenshot(page, "compare-1280x800.png");
    await context.close();
  });

  test("every chip's probability is legible: at least 11 px on a laptop and a phone (en, zh)", async () => {
    for (const [query, viewport, name] of [
      ["?lang=en", { width: 1280, height: 800 }, "Run comparison"],
      ["?lang=zh", { width: 390, height: 844 }, "运行对比"],
    ]) {
      const { page, context } = await open(query, { viewport });
      // T 2 at the end of a long run often chooses the end token: its chip is smaller type
      await page.getByRole("button", { name }).click();
      await page.locator(".compare-col").first().waitFor();
      const sizes = await page.locator(".compare-chips .chip-p").evaluateAll((els) =>
        els.map((el) => [el.textContent, parseFloat(getComputedStyle(el).fontSize)]),
      );
      assert.ok(sizes.length > 10, `${query}: chips with a probability`);
      const small = sizes.filter(([, px]) => px < 11);
      assert.deepEqual(small, [], `${query} ${viewport.width} px: probabilities under 11 px`);
      await context.close();
    }
  });

  test("works in Chinese and is disabled, with a reason, for manual logits", async () => {
    const { page, problems, context } = await open("?lang=zh");
    await page.getByRole("button", { name: "运行对比" }).click();
    await page.locator(".compare-col").first().waitFor();
    assert.equal(await page.getByRole("heading", { name: "对比设置" }).count(), 1);
    await page.getByLabel("logits 来源").selectOption("manual");
    assert.equal(await page.getByRole("button", { name: "运行对比" }).isDisabled(), true);
    assert.match(await page.locator("#compare-note").textContent(), /内置模型/);
    assert.equal(await page.locator(".compare-col").count(), 0, "no model columns beside manual logits");
    // back to the model: the last comparison is shown again
    await page.getByLabel("logits 来源").selectOption("model");
    assert.equal(await page.locator(".compare-col").count(), 4);
    await page.getByLabel("logits 来源").selectOption("manual");
    await page.locator("#compare").evaluate((el) => el.scrollIntoView({ block: "start" }));
    await screenshot(page, "compare-zh-manual-1280x800.png");
    assert.deepEqual(problems.console, []);
    await context.close();
  });
});
