// The embedded model in a real browser: the page's default source. Its weights may be retrained,
// so these tests assert properties (determinism, one token per step, greedy = rank 0, stop reasons,
// no U+FFFD), never exact generated text. The chapter's own guarantees (issue 3: 用户 then 界面 first
// after 「React 是一个用于构建」) are the only outputs relied on.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, screenshot } from "./harness.mjs";

const open = browserSuite();

const region = (page, name = "Generated text") => page.getByRole("region", { name });
const chips = (page, name) => region(page, name).getByRole("listitem");
async function generated(page, name) {
  return (await chips(page, name).allTextContents()).map((s) => s.replace(/^␣ /, " ")).join("");
}
const stepButton = (page, name = "Step") => page.getByRole("button", { name, exact: true });
async function setNumber(page, label, value) {
  const input = page.getByLabel(label, { exact: true });
  await input.fill(String(value));
  await input.press("Tab");
}
const status = (page) => page.locator("#stop-reason");

/** Step until generation stops or `max` steps, checking that each click adds exactly one chip. */
async function stepAll(page, max, name = "Step", regionName) {
  for (let i = 0; i < max; i++) {
    if (await stepButton(page, name).isDisabled()) break;
    const before = await chips(page, regionName).count();
    await stepButton(page, name).click();
    assert.equal(await chips(page, regionName).count(), before + 1, `step ${i + 1} adds one token`);
  }
}

describe("embedded model", () => {
  test("loads with a visible progress bar, no console error and no request outside its origin", async () => {
    const progress = [];
    const { page, problems, context } = await open("?lang=en", {
      waitReady: false,
      // a slow link (≈ 1 MB/s) so the download takes long enough to watch
      async beforeGoto(p) {
        const cdp = await p.context().newCDPSession(p);
        await cdp.send("Network.enable");
        await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 20, downloadThroughput: 1_000_000, uploadThroughput: 1_000_000 });
      },
    });
    const bar = page.getByRole("progressbar", { name: "Model download" });
    await bar.waitFor({ state: "visible" });
    // sample the bar while bytes arrive: it must show real, growing progress
    await page.waitForFunction(() => {
      const el = document.getElementById("load-progress");
      return el instanceof HTMLProgressElement && el.hasAttribute("value") && el.value > 0 && el.value < el.max;
    });
    // samples taken only while the page is still loading (on a busy machine the bar may be caught
    // at 97 % and be gone before a locator finds it again)
    for (let i = 0; i < 5; i++) {
      const sample = await page.evaluate(() => {
        const el = document.getElementById("load-progress");
        return document.body.dataset.ready === "true" ? null : { value: el.value, max: el.max, visible: el.checkVisibility() };
      });
      if (sample === null) break;
      progress.push(sample);
      await page.waitForTimeout(150);
    }
    assert.ok(progress.every((p) => p.visible), JSON.stringify(progress));
    assert.ok(progress.some((p) => p.value > 0 && p.value < p.max), JSON.stringify(progress));
    assert.match(await page.locator("#load-bytes").textContent(), /MB|kB/);
    await page.waitForSelector("body[data-ready='true']", { timeout: 60_000 });
    assert.equal(await bar.isHidden(), true);
    assert.equal(await page.getByLabel("Logits source").inputValue(), "model");
    await stepButton(page).click();
    await page.getByRole("button", { name: "Sample 1,000 times" }).click();
    await page.getByText("1,000 draws").waitFor();
    assert.deepEqual(problems.console, []);
    assert.deepEqual(problems.foreign, []);
    await context.close();
  });

  test("greedy from 「中国的首都是」 is the argmax at every step, one token per Step, the same twice", async () => {
    const { page, context } = await open("?lang=zh");
    await page.getByLabel("预设").selectOption("capital-zh");
    await page.getByLabel("解码策略").selectOption("greedy");
    await setNumber(page, "最大生成长度", 12);
    // the first chip is the inspector's argmax before the step
    const argmax = (await page.locator("#stat-chosen").textContent()).split(" · ")[0];
    await stepAll(page, 12, "单步", "生成文本");
    const first = await generated(page, "生成文本");
    assert.ok(first.length > 0);
    assert.equal((await chips(page, "生成文本").first().textContent()).replace(/^␣ /, "␣"), argmax);
    const ranks = await chips(page, "生成文本").evaluateAll((items) => items.map((li) => li.dataset.rank));
    assert.ok(ranks.every((r) => r === "0"), `ranks ${ranks}`);
    assert.notEqual(await status(page).textContent(), "");
    await page.getByRole("button", { name: "重置", exact: true }).click();
    assert.equal(await chips(page, "生成文本").count(), 0);
    await stepAll(page, 12, "单步", "生成文本");
    assert.equal(await generated(page, "生成文本"), first);
    // a fresh page agrees too
    const again = await open("?lang=zh");
    await again.page.getByLabel("预设").selectOption("capital-zh");
    await again.page.getByLabel("解码策略").selectOption("greedy");
    await setNumber(again.page, "最大生成长度", 12);
    await stepAll(again.page, 12, "单步", "生成文本");
    assert.equal(await generated(again.page, "生成文本"), first);
    await again.context.close();
    await context.close();
  });

  test("a seeded sampled run is identical twice", async () => {
    const run = async (seed) => {
      const { page, context } = await open("?lang=en");
      await page.getByLabel("Preset").selectOption("plugin-zh");
      await page.getByLabel("Temperature", { exact: true }).fill("1.2");
      await setNumber(page, "Seed", seed);
      await setNumber(page, "Max new tokens", 10);
      await stepAll(page, 10);
      const text = await generated(page);
      const us = await page.locator("#final-explain").textContent();
      await context.close();
      return { text, us };
    };
    const a = await run(1234);
    const b = await run(1234);
    assert.ok(a.text.length > 0);
    assert.deepEqual(b, a);
  });

  test("changing a control re-renders the current step without appending", async () => {
    const { page, context } = await open("?lang=en");
    await page.getByLabel("Preset").selectOption("plugin-zh");
    await stepButton(page).click();
    const before = { kept: await page.locator("#stat-kept").textContent(), cdf: await page.locator("#cdf").textContent() };
    await page.getByLabel("Top-p", { exact: true }).focus();
    await page.keyboard.press("End"); // p = 1: every token kept
    assert.match(await page.locator("#stat-kept").textContent(), /^(\d+) of \1$/);
    assert.notEqual(await page.locator("#stat-kept").textContent(), before.kept);
    await page.getByLabel("Temperature", { exact: true }).focus();
    for (let i = 0; i < 6; i++) await page.keyboard.press("ArrowLeft");
    assert.notEqual(await page.locator("#cdf").textContent(), before.cdf);
    assert.equal(await chips(page).count(), 1);
    await context.close();
  });

  test("pending bytes show as byte chips, never as U+FFFD", async () => {
    const { page, context } = await open("?lang=en");
    await page.getByLabel("Preset").selectOption("capital-zh");
    const force = async (token) => {
      await page.getByLabel("Force a token").fill(token);
      await page.getByRole("button", { name: "Force", exact: true }).click();
    };
    await force("no such token ✗✗");
    assert.match(await page.locator("#force-msg").textContent(), /not a token/);
    // 中 is E4 B8 AD: two pending bytes, then the character
    await force("<E4>");
    await force("<B8>");
    const pending = await chips(page).evaluateAll((items) => items.map((li) => [li.dataset.kind, li.textContent]));
    assert.deepEqual(pending, [["pending", "<E4>"], ["pending", "<B8>"]]);
    await force("<AD>");
    assert.equal(await chips(page).last().textContent(), "中");
    assert.equal(await chips(page).last().getAttribute("data-kind"), "text");
    assert.equal(await generated(page), "<E4><B8>中");
    // a byte that cannot finish a character is shown as its byte too, and generation goes on
    await force("<E4>");
    await force("<41>");
    await stepButton(page).click();
    // sampling hot for a while: whatever comes, nothing on the page is a replacement character
    await page.getByLabel("Temperature", { exact: true }).fill("2");
    await page.getByLabel("Top-p", { exact: true }).fill("1");
    await setNumber(page, "Max new tokens", 40);
    await stepAll(page, 30);
    const texts = [
      await region(page).textContent(),
      await page.locator(".inspector").textContent(),
      await page.locator("#tree").textContent(),
    ];
    for (const text of texts) assert.doesNotMatch(text, /\uFFFD/);
    await context.close();
  });

  test("stop reasons: max tokens (and raising it resumes), stop sequence, user", async () => {
    const { page, context } = await open("?lang=en");
    await page.getByLabel("Preset").selectOption("react-zh");
    await page.getByLabel("Strategy").selectOption("greedy");
    await setNumber(page, "Max new tokens", 2);
    await stepAll(page, 5);
    assert.equal(await chips(page).count(), 2);
    assert.match(await status(page).textContent(), /maximum of 2 new tokens/);
    assert.equal(await stepButton(page).isDisabled(), true);
    // the chapter's 用户 → 界面 under greedy
    assert.equal(await generated(page), "用户界面");
    await setNumber(page, "Max new tokens", 3);
    assert.equal(await status(page).textContent(), "");
    await stepButton(page).click();
    assert.equal(await chips(page).count(), 3);
    assert.match(await status(page).textContent(), /maximum of 3 new tokens/);

    // a stop sequence matched on the generated text
    await setNumber(page, "Max new tokens", 16);
    await page.getByRole("button", { name: "Reset", exact: true }).click();
    await page.getByText("Advanced").click();
    await page.getByLabel("Stop sequences (one per line)").fill("界面");
    await page.getByLabel("Stop sequences (one per line)").press("Tab");
    await stepAll(page, 5);
    assert.equal(await chips(page).count(), 2);
    assert.match(await status(page).textContent(), /stop sequence “界面”/);

    // the user's stop
    await page.getByLabel("Stop sequences (one per line)").fill("");
    await page.getByLabel("Stop sequences (one per line)").press("Tab");
    await page.getByRole("button", { name: "Reset", exact: true }).click();
    assert.equal(await status(page).textContent(), "");
    await stepButton(page).click();
    await page.getByRole("button", { name: "Stop", exact: true }).click();
    assert.match(await status(page).textContent(), /Stopped by the user/);
    assert.equal(await stepButton(page).isDisabled(), true);
    assert.equal(await chips(page).count(), 1);
    // Play runs until a stop condition and shows it
    await page.getByRole("button", { name: "Reset", exact: true }).click();
    await setNumber(page, "Max new tokens", 4);
    await page.getByRole("button", { name: "Play", exact: true }).click();
    await status(page).filter({ hasText: /Stopped/ }).waitFor();
    assert.ok((await chips(page).count()) <= 4);
    await context.close();
  });

  test("a prompt longer than the context is refused clearly; a full context stops generation", async () => {
    const { page, problems, context } = await open("?lang=en");
    const prompt = page.getByLabel("Prompt", { exact: true });
    await prompt.fill("用户界面，".repeat(80));
    await prompt.press("Tab");
    await page.getByRole("alert").filter({ hasText: "could not read the prompt" }).waitFor();
    assert.equal(await stepButton(page).isDisabled(), true);
    // the longest repetition the model accepts, then greedy continues the pattern until the window is full
    await page.getByLabel("Strategy").selectOption("greedy");
    await setNumber(page, "Max new tokens", 512);
    for (let reps = 60; reps > 10; reps--) {
      await prompt.fill("用户界面，".repeat(reps));
      await prompt.press("Tab");
      if (await page.locator("#error").isHidden()) break;
    }
    assert.equal(await stepButton(page).isDisabled(), false);
    await stepAll(page, 40);
    assert.match(await status(page).textContent(), /context window is full|end-of-sequence/);
    assert.deepEqual(problems.console, []);
    await context.close();
  });

  test("forcing a candidate branches; the old path and a past step's trace come back exactly", async () => {
    const { page, context } = await open("?lang=en");
    await page.getByLabel("Preset").selectOption("react-zh");
    await page.getByLabel("Strategy").selectOption("greedy");
    await stepAll(page, 4);
    const original = await generated(page);
    // travel back: step 2's stored trace
    await chips(page).nth(1).getByRole("button").click();
    assert.match(await page.locator("#inspector-step").textContent(), /Step 2/);
    const stepTwo = await page.locator("#stat-chosen").textContent();
    // force the second candidate of step 2
    const bars = page.locator('#stages [data-stage="softmax"] [role="button"]');
    const name = await bars.nth(1).getAttribute("aria-label");
    await bars.nth(1).click();
    assert.equal(await chips(page).count(), 2);
    assert.equal(await chips(page).nth(1).getAttribute("data-forced"), "true");
    assert.equal(`Force “${(await page.locator("#chips li").nth(1).textContent()).replace(/^␣ /, "␣")}”`, name);
    await stepAll(page, 2);
    const paths = page.getByRole("region", { name: "Paths" }).getByRole("button");
    assert.equal(await paths.count(), 2);
    await paths.first().click();
    assert.equal(await generated(page), original);
    await chips(page).nth(1).getByRole("button").click();
    assert.equal(await page.locator("#stat-chosen").textContent(), stepTwo);
    // continuing the restored path gives what greedy gave before (the KV cache was rewound exactly)
    await page.getByRole("button", { name: "Back to the next step" }).click();
    const next = (await page.locator("#stat-chosen").textContent()).split(" · ")[0];
    await stepButton(page).click();
    assert.equal((await chips(page).last().textContent()).replace(/^␣ /, "␣"), next);
    await context.close();
  });

  test("screenshots of the model at 1280×800 and 1024×768, zh and en", async () => {
    for (const [lang, preset, step] of [["zh", "plugin-zh", "单步"], ["en", "ts-en", "Step"]]) {
      for (const viewport of [{ width: 1280, height: 800 }, { width: 1024, height: 768 }]) {
        const { page, context } = await open(`?lang=${lang}`, { viewport });
        await page.getByLabel(lang === "en" ? "Preset" : "预设").selectOption(preset);
        await stepAll(page, 2, step, lang === "en" ? "Generated text" : "生成文本");
        await screenshot(page, `model-${lang}-${viewport.width}x${viewport.height}.png`);
        await page.locator("#final").scrollIntoViewIfNeeded();
        await screenshot(page, `model-inspector-${lang}-${viewport.width}x${viewport.height}.png`);
        await context.close();
      }
    }
    // the loading bar, mid-download on a slow link
    const { page, context } = await open("?lang=zh", {
      waitReady: false,
      async beforeGoto(p) {
        const cdp = await p.context().newCDPSession(p);
        await cdp.send("Network.enable");
        await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 20, downloadThroughput: 600_000, uploadThroughput: 600_000 });
      },
    });
    await page.waitForFunction(() => {
      const el = document.getElementById("load-progress");
      return el instanceof HTMLProgressElement && el.hasAttribute("value") && el.value > el.max * 0.3;
    });
    await screenshot(page, "model-loading-zh-1280x800.png");
    await page.waitForSelector("body[data-ready='true']", { timeout: 60_000 });
    await context.close();
  });
});
