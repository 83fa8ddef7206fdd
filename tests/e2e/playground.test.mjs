// The playground in a real browser: Debian's Chromium, driven by playwright-core, against the built
// dist/ served by a throwaway static server with the page's strict CSP. Controls are found by their
// accessible names, in both languages, never by CSS class.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, screenshot } from "./harness.mjs";

const openFresh = browserSuite();

/**
 * Open the page; every test starts from a fresh context. These tests read the hand-made tables, so
 * they ask for "manual logits" (the embedded model is the default; model.test.mjs covers it).
 */
async function open(query = "?lang=en", options = {}) {
  const withSource = query.includes("source=") ? query : `${query}${query.includes("?") ? "&" : "?"}source=manual`;
  const opened = await openFresh(withSource, options);
  return opened;
}

const region = (page, name = "Generated text") => page.getByRole("region", { name });
const chips = (page, name) => region(page, name).getByRole("listitem");
/** The generated text as the user reads it (the visible-space marker removed). */
async function generated(page, name) {
  return (await chips(page, name).allTextContents()).map((s) => s.replace(/^␣ /, " ")).join("");
}
async function clickStep(page, times = 1, name = "Step") {
  for (let i = 0; i < times; i++) await page.getByRole("button", { name, exact: true }).click();
}
async function setNumber(page, label, value) {
  const input = page.getByLabel(label, { exact: true });
  await input.fill(String(value));
  await input.press("Tab");
}
const status = (page) => page.locator("#stop-reason");
const kept = (page) => page.locator("#stat-kept");

describe("playground", () => {
  test("loads with no console error and no request outside its origin", async () => {
    const { page, problems, context } = await open("?lang=en");
    await clickStep(page, 3);
    await page.getByRole("button", { name: "Sample 1,000 times" }).click();
    await page.getByText("1,000 draws").waitFor();
    assert.deepEqual(problems.console, []);
    assert.deepEqual(problems.foreign, []);
    await context.close();
  });

  test("English accessible names are all present", async () => {
    const { page, context } = await open("?lang=en");
    for (const label of ["Prompt", "Temperature", "Top-k", "Top-p", "Min-p", "Seed", "Max new tokens", "Engine"]) {
      assert.equal(await page.getByLabel(label, { exact: true }).count(), 1, label);
    }
    for (const name of ["Step", "Play", "Reset", "Stop"]) {
      assert.equal(await page.getByRole("button", { name, exact: true }).count(), 1, name);
    }
    assert.equal(await region(page).count(), 1);
    await page.getByRole("button", { name: "Play", exact: true }).click();
    await page.getByRole("button", { name: "Pause", exact: true }).click();
    assert.equal(await page.getByRole("button", { name: "Play", exact: true }).count(), 1);
    assert.equal(await page.evaluate(() => document.documentElement.lang), "en");
    await context.close();
  });

  test("Chinese accessible names are all present, and the toggle switches language", async () => {
    const { page, context } = await open("?lang=zh");
    for (const label of ["提示词", "温度", "Top-k", "Top-p", "Min-p", "随机种子", "最大生成长度", "引擎"]) {
      assert.equal(await page.getByLabel(label, { exact: true }).count(), 1, label);
    }
    for (const name of ["单步", "播放", "重置", "停止"]) {
      assert.equal(await page.getByRole("button", { name, exact: true }).count(), 1, name);
    }
    assert.equal(await region(page, "生成文本").count(), 1);
    await clickStep(page, 2, "单步");
    assert.equal(await chips(page, "生成文本").count(), 2);
    await page.getByRole("button", { name: "播放", exact: true }).click();
    assert.equal(await page.getByRole("button", { name: "暂停", exact: true }).count(), 1);
    await page.getByRole("button", { name: "暂停", exact: true }).click();
    assert.equal(await page.evaluate(() => document.documentElement.lang), "zh-CN");
    await page.getByRole("button", { name: "Switch to English" }).click();
    assert.equal(await page.getByLabel("Temperature", { exact: true }).count(), 1);
    assert.match(page.url(), /lang=en/);
    await context.close();
  });

  test("Step adds exactly one token per click", async () => {
    const { page, context } = await open();
    assert.equal(await chips(page).count(), 0);
    await setNumber(page, "Max new tokens", 40);
    await page.getByLabel("Preset").selectOption("plugin-en");
    for (let i = 1; i <= 3; i++) {
      await clickStep(page);
      assert.equal(await chips(page).count(), i);
    }
    await context.close();
  });

  test("the same seed and settings give the same text twice", async () => {
    const { page, context } = await open();
    await page.getByLabel("Preset").selectOption("plugin-en");
    await setNumber(page, "Seed", 7);
    await clickStep(page, 3);
    const first = await generated(page);
    await page.getByRole("button", { name: "Reset", exact: true }).click();
    assert.equal(await chips(page).count(), 0);
    await clickStep(page, 3);
    assert.equal(await generated(page), first);
    // a fresh page with the same seed agrees too
    const again = await open();
    await again.page.getByLabel("Preset").selectOption("plugin-en");
    await setNumber(again.page, "Seed", 7);
    await clickStep(again.page, 3);
    assert.equal(await generated(again.page), first);
    await again.context.close();
    await context.close();
  });

  test("greedy gives the argmax every step and draws no random number", async () => {
    const { page, context } = await open();
    await page.getByLabel("Strategy").selectOption("greedy");
    while (!(await page.getByRole("button", { name: "Step", exact: true }).isDisabled())) await clickStep(page);
    const ranks = await chips(page).evaluateAll((items) => items.map((li) => li.dataset.rank));
    assert.ok(ranks.length > 0);
    assert.ok(ranks.every((r) => r === "0"), `ranks ${ranks}`);
    assert.equal(await generated(page), " superset of JavaScript that adds static types.end");
    assert.match(await status(page).textContent(), /end-of-sequence/);
    // temperature 0 is greedy too, and the final strip marks the argmax instead of u
    await page.getByRole("button", { name: "Reset", exact: true }).click();
    await page.getByLabel("Strategy").selectOption("sample");
    await page.getByLabel("Temperature", { exact: true }).focus();
    await page.keyboard.press("Home");
    await clickStep(page, 2);
    assert.equal(await generated(page), " superset of");
    assert.match(await page.locator("#final-explain").textContent(), /no random number/);
    await context.close();
  });

  test("moving temperature or top-p changes the distribution and the kept count", async () => {
    const { page, context } = await open();
    await page.getByLabel("Preset").selectOption("plugin-en");
    const before = { kept: await kept(page).textContent(), cdf: await page.locator("#cdf").textContent() };
    const topP = page.getByLabel("Top-p", { exact: true });
    await topP.focus();
    await page.keyboard.press("End"); // p = 1: off, everything kept
    const all = await kept(page).textContent();
    assert.notEqual(all, before.kept);
    for (let i = 0; i < 60; i++) await page.keyboard.press("ArrowLeft"); // p = 0.4
    const fewer = await kept(page).textContent();
    assert.ok(parseInt(fewer, 10) < parseInt(all, 10), `${fewer} < ${all}`);
    const cdfBefore = await page.locator("#cdf").textContent();
    const temperature = page.getByLabel("Temperature", { exact: true });
    await temperature.focus();
    for (let i = 0; i < 8; i++) await page.keyboard.press("ArrowLeft");
    assert.notEqual(await page.locator("#cdf").textContent(), cdfBefore);
    assert.notEqual(before.cdf, cdfBefore);
    await context.close();
  });

  test("switching engine reorders the stages", async () => {
    const { page, context } = await open();
    const headings = () => page.locator("#stages figure:not([hidden]) h3").allTextContents();
    const hf = await headings();
    assert.ok(hf.indexOf("Temperature") < hf.indexOf("Top-p (nucleus)"), hf.join(" | "));
    await page.getByLabel("Engine", { exact: true }).selectOption("llama.cpp");
    const llama = await headings();
    assert.ok(llama.indexOf("Temperature") > llama.indexOf("Top-p (nucleus)"), llama.join(" | "));
    await context.close();
  });

  test("a setting the engine lacks is dimmed with its reason, left out of the step and kept", async () => {
    const { page, context, problems } = await open();
    await page.getByText("Advanced").click();
    const typical = page.getByLabel("Typical-p");
    await typical.focus();
    await page.keyboard.press("Home");
    await page.getByLabel("Engine", { exact: true }).selectOption("vllm");
    // vLLM has no typical-p: the slider is off with a note it points to, and Step still works
    assert.equal(await typical.isDisabled(), true);
    const note = page.locator("#typical-p-lacks");
    assert.match(await note.textContent(), /^vLLM has no such step/);
    assert.equal(await typical.getAttribute("aria-describedby"), "typical-p-lacks");
    await clickStep(page, 1);
    assert.equal(await page.getByRole("alert").filter({ hasText: "typical_p" }).count(), 0);
    assert.ok((await page.locator("#stages svg rect.bar").count()) > 0);
    // back on an engine that has it: the value the learner set is still there
    await page.getByLabel("Engine", { exact: true }).selectOption("hf");
    assert.equal(await typical.isDisabled(), false);
    assert.equal(await typical.inputValue(), "0.01");
    assert.equal(await note.isHidden(), true);
    assert.deepEqual(problems, { console: [], foreign: [] });
    await context.close();
  });

  test("forcing a candidate continues from it and keeps the old branch", async () => {
    const { page, context } = await open();
    await page.getByLabel("Strategy").selectOption("greedy");
    await clickStep(page, 3);
    assert.equal(await generated(page), " superset of JavaScript");
    // inspect step 1 and force a different token there
    await chips(page).first().getByRole("button").click();
    await page.getByRole("button", { name: "Force “␣typed”" }).click();
    assert.equal(await generated(page), " typed");
    assert.equal(await chips(page).first().getAttribute("data-forced"), "true");
    await clickStep(page);
    assert.equal(await generated(page), " typed superset");
    const paths = page.getByRole("region", { name: "Paths" }).getByRole("button");
    assert.equal(await paths.count(), 2);
    // the old branch is still there and can be restored
    await paths.filter({ hasText: "superset of JavaScript" }).click();
    assert.equal(await generated(page), " superset of JavaScript");
    await context.close();
  });

  test("each stop condition ends generation with its reason", async () => {
    const { page, context } = await open();
    await setNumber(page, "Max new tokens", 2);
    await clickStep(page, 2);
    assert.match(await status(page).textContent(), /maximum of 2 new tokens/);
    assert.equal(await page.getByRole("button", { name: "Step", exact: true }).isDisabled(), true);

    await page.getByRole("button", { name: "Reset", exact: true }).click();
    assert.equal(await status(page).textContent(), "");
    await clickStep(page);
    await page.getByRole("button", { name: "Stop", exact: true }).click();
    assert.match(await status(page).textContent(), /Stopped by the user/);
    assert.equal(await chips(page).count(), 1);

    await setNumber(page, "Max new tokens", 16);
    await page.getByRole("button", { name: "Reset", exact: true }).click();
    await page.getByLabel("Preset").selectOption("capital-en");
    await page.getByLabel("Strategy").selectOption("greedy");
    await page.getByRole("button", { name: "Play", exact: true }).click();
    await page.getByText("the end-of-sequence token was chosen").waitFor();
    assert.equal(await generated(page), " Beijing.end");

    await page.getByRole("button", { name: "Reset", exact: true }).click();
    await page.getByText("Advanced").click();
    await page.getByLabel("Stop sequences (one per line)").fill(".");
    await page.getByLabel("Stop sequences (one per line)").press("Tab");
    await clickStep(page, 2);
    assert.match(await status(page).textContent(), /stop sequence “\.”/);
    await context.close();
  });

  test("the keyboard alone operates the controls", async () => {
    // seed 42: the two sampled steps below lead to a step that lists "."
    const { page, context } = await open("?lang=en&seed=42");
    // Tab from the top reaches Step; Enter and Space press it
    let focused = "";
    for (let i = 0; i < 60 && focused !== "Step"; i++) {
      await page.keyboard.press("Tab");
      focused = await page.evaluate(() => document.activeElement?.textContent ?? "");
    }
    assert.equal(focused, "Step");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Space");
    assert.equal(await chips(page).count(), 2);
    // a slider moves with arrow keys
    await page.getByLabel("Temperature", { exact: true }).focus();
    await page.keyboard.press("ArrowRight");
    assert.equal(await page.locator("#temperature-out").textContent(), "0.85");
    // a select changes with arrow keys
    await page.getByLabel("Strategy").focus();
    await page.keyboard.press("ArrowDown");
    assert.equal(await page.getByLabel("Strategy").inputValue(), "greedy");
    // a candidate bar is a button: focus it and press Enter to force it
    await page.getByRole("button", { name: "Force “.”" }).focus();
    await page.keyboard.press("Enter");
    assert.equal(await chips(page).count(), 3);
    assert.equal(await chips(page).last().getAttribute("data-forced"), "true");
    // a chip opens its step in the inspector
    await chips(page).first().getByRole("button").focus();
    await page.keyboard.press("Enter");
    assert.match(await page.locator("#inspector-step").textContent(), /Step 1/);
    await context.close();
  });

  test("screenshots at 1280×800 and 1024×768", async () => {
    for (const [lang, preset] of [["en", "plugin-en"], ["zh", "ts-zh"]]) {
      for (const viewport of [{ width: 1280, height: 800 }, { width: 1024, height: 768 }]) {
        const { page, context } = await open(`?lang=${lang}`, { viewport });
        await page.getByLabel(lang === "en" ? "Preset" : "预设").selectOption(preset);
        await clickStep(page, 1, lang === "en" ? "Step" : "单步");
        await screenshot(page, `playground-${lang}-${viewport.width}x${viewport.height}.png`);
        await page.locator("#final").scrollIntoViewIfNeeded();
        await screenshot(page, `inspector-${lang}-${viewport.width}x${viewport.height}.png`);
        await context.close();
      }
    }
    // a fuller tour: a flat distribution, top-k on, a forced branch and 1,000 samples
    const { page, context } = await open("?lang=zh", { viewport: { width: 1280, height: 800 } });
    await page.getByLabel("预设").selectOption("plugin-zh");
    await page.getByLabel("Top-k", { exact: true }).focus();
    for (let i = 0; i < 8; i++) await page.keyboard.press("ArrowRight");
    await clickStep(page, 2, "单步");
    await chips(page, "生成文本").first().getByRole("button").click();
    await page.getByRole("button", { name: "强制选择「Code」" }).click();
    await clickStep(page, 1, "单步");
    await page.getByRole("button", { name: "抽样 1,000 次" }).click();
    await page.getByText("1,000 次抽样").waitFor();
    await page.screenshot({ path: new URL("./artifacts/tour-zh-1280-full.png", import.meta.url).pathname, fullPage: true });
    await context.close();
  });
});
