// "Compare settings" over llama.cpp's real server, serving the project's own model as GGUF: greedy
// over it equals the embedded model token for token, so the embedded model's comparison (its own
// wasm Generator) is the oracle: the server's columns, made one request per token through the core's
// `step`, must be the same tokens with the same stops. Also: the run shows its progress, a Stop, a
// new setting or prompt ends it, and a server that stops answering is worded in its column with no
// request after it.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { screenshot } from "./harness.mjs";
import { connect, serverSuite, setNumber, setPrompt } from "./server-suite.mjs";

const { env, open } = serverSuite();

/** Every column as { setting, tokens (their text), stop }. */
async function columns(page) {
  return page.locator(".compare-col").evaluateAll((cols) =>
    cols.map((col) => ({
      setting: col.getAttribute("data-setting"),
      tokens: [...col.querySelectorAll("li .chip-text")].map((chip) => chip.textContent ?? ""),
      stop: col.querySelector(".compare-stop")?.textContent ?? "",
    })),
  );
}

const status = (page) => page.locator("#compare").getAttribute("data-status");
const completions = (seen) => seen.toServer.filter((r) => r === "POST /completion").length;
const chips = (page) => page.locator("#generated li");

/** A slider's value, as the user drags it. */
async function setRange(page, id, value) {
  await page.locator(`#${id}`).evaluate((input, v) => {
    input.value = String(v);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }, value);
}

/** The main text's chips, as the comparison shows them (the end token as "end"). */
async function mainTexts(page) {
  return (await page.locator("#generated li").allTextContents()).map((s) => s.replace(/^␣ /, " "));
}

/** Step until the path stops (at most `n` steps), each time waiting for the server's answer. */
async function stepAll(page, n) {
  for (let i = 0; i < n; i++) {
    await page.waitForFunction(() => !document.getElementById("step")?.disabled || document.getElementById("stop-reason")?.textContent !== "");
    if (await page.locator("#step").isDisabled()) break;
    const count = await chips(page).count();
    await page.locator("#step").click();
    await page.waitForFunction((c) => document.querySelectorAll("#generated li").length > c, count);
  }
}

/** Each /completion request waits `ms` first (a large model on a CPU), so a run can be watched. */
async function slowServer(page, ms) {
  await page.route(`${env.llama.url}/completion`, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue().catch(() => {});
  });
}

describe("Compare over a model server (llama.cpp)", () => {
  test("the server's columns equal the embedded model's, token for token and stop for stop", async () => {
    const { page, context, seen } = await open("?lang=en");
    await setPrompt(page, "中国的首都是");
    await setNumber(page, "max-new", 12);
    await page.locator("#compare-run").click();
    await page.locator(".compare-col").first().waitFor();
    const embedded = await columns(page);
    assert.deepEqual(embedded.map((c) => c.setting), ["greedy", "focused", "wild", "current"]);
    assert.equal(embedded[0].tokens[0], "北京");
    for (const column of embedded) assert.match(column.stop, /^Stopped/, column.setting);

    await connect(page, env.llama.url);
    // the embedded model's run is not shown beside the server
    assert.equal(await page.locator(".compare-col").count(), 0);
    const before = completions(seen);
    await page.getByRole("button", { name: "Run comparison" }).click();
    await page.waitForFunction(() => document.getElementById("compare")?.dataset["status"] === "done", null, { timeout: 60_000 });
    const server = await columns(page);
    // T 1.5 flattens the distribution so far that the server's float logprobs (equal to ours within
    // 1e-2, server.test.mjs) can move a band across u: that column's oracle is Step over the server
    const oracle = (cols) => cols.filter((c) => c.setting !== "wild");
    assert.deepEqual(oracle(server), oracle(embedded), "same prompt, seed and settings: the same columns over the server");
    assert.equal(server[2].setting, "wild");
    assert.match(await page.locator("#compare-note").textContent(), /seed 84.*Generated over the model server/);
    // one request per token at most (the columns share the prompt's answer), nothing in a loop
    const tokens = server.reduce((n, c) => n + c.tokens.length, 0);
    const asked = completions(seen) - before;
    assert.ok(asked >= 1 && asked <= tokens + 4, `${asked} requests for ${tokens} tokens`);
    assert.equal(await chips(page).count(), 0, "the main text is untouched");

    // each column is what Step over the server gives under its settings: the wild one (T 1.5, top-p 1)
    await setRange(page, "temperature", 1.5);
    await setRange(page, "top-p", 1);
    await stepAll(page, 12);
    assert.deepEqual(await mainTexts(page), server[2].tokens, "the wild column equals Step over the server at T 1.5");
    assert.equal(await page.locator("#stop-reason").textContent(), server[2].stop);

    // another seed changes the sampled columns only, the same way on both
    await page.getByRole("button", { name: "Reset", exact: true }).click();
    await setRange(page, "temperature", 0.8);
    await setRange(page, "top-p", 0.9);
    await setNumber(page, "seed", 7);
    await page.getByRole("button", { name: "Run comparison" }).click();
    await page.waitForFunction(() => document.getElementById("compare")?.dataset["status"] === "done", null, { timeout: 60_000 });
    const other = await columns(page);
    assert.deepEqual(other[0], server[0], "greedy does not depend on the seed");
    await page.locator("#source").selectOption("model");
    await page.locator("#compare-run").click();
    await page.locator(".compare-col").first().waitFor();
    assert.deepEqual(oracle(await columns(page)), oracle(other), "seed 7 too: the embedded model's columns");
    assert.deepEqual(seen.console, []);
    assert.deepEqual(seen.offLoopback, []);
    await context.close();
  });

  test("stop sequences end the server's columns where they end the embedded model's (across tokens too)", async () => {
    const { page, context } = await open("?lang=en");
    await setPrompt(page, "中国的首都是");
    await setNumber(page, "max-new", 12);
    // greedy writes 北京|，|也是|一|座|有|三|千|多年|历史|…: 历史 is one token, 三千 spans two (三, 千)
    await page.getByText("Advanced").click();
    await page.locator("#stop-seqs").fill("历史\n三千");
    await page.locator("#stop-seqs").press("Tab");
    await page.locator("#compare-run").click();
    await page.locator(".compare-col").first().waitFor();
    const embedded = (await columns(page)).filter((c) => c.setting !== "wild");
    assert.ok(embedded.some((c) => /stop sequence/i.test(c.stop)), embedded.map((c) => c.stop).join(" | "));
    await connect(page, env.llama.url);
    await page.getByRole("button", { name: "Run comparison" }).click();
    await page.waitForFunction(() => document.getElementById("compare")?.dataset["status"] === "done", null, { timeout: 60_000 });
    assert.deepEqual((await columns(page)).filter((c) => c.setting !== "wild"), embedded);
    await context.close();
  });

  test("a large vocabulary (the top 200 per answer, the rest's mass to the core): the greedy column is still the embedded model's", async () => {
    const { page, context } = await open("?lang=en");
    // the same real server, reported as if its vocabulary were Qwen's 151,936 tokens
    await page.route(`${env.llama.url}/v1/models`, async (route) => {
      const response = await route.fetch();
      const json = await response.json();
      json.data[0].meta.n_vocab = 151_936;
      await route.fulfill({ response, json });
    });
    await setPrompt(page, "中国的首都是");
    await setNumber(page, "max-new", 10);
    await page.locator("#compare-run").click();
    await page.locator(".compare-col").first().waitFor();
    const embedded = (await columns(page))[0];
    await connect(page, env.llama.url);
    assert.match(await page.locator("#server-status").textContent(), /Each step lists the 200 most likely tokens/);
    await page.getByRole("button", { name: "Run comparison" }).click();
    await page.waitForFunction(() => /^(done|failed)$/.test(document.getElementById("compare")?.dataset["status"] ?? ""), null, { timeout: 60_000 });
    const server = await columns(page);
    assert.equal(await status(page), "done", JSON.stringify(server));
    assert.deepEqual(server[0], embedded);
    assert.equal(server.length, 4);
    await context.close();
  });

  test("a run shows its progress and can be stopped; a new setting or prompt ends it; no request after", async () => {
    const { page, context, seen } = await open("?lang=en");
    await setPrompt(page, "中国的首都是");
    await setNumber(page, "max-new", 16);
    await connect(page, env.llama.url);
    await slowServer(page, 150);
    await page.getByRole("button", { name: "Run comparison" }).click();
    const note = page.locator("#compare-note");
    await page.waitForFunction(() => /Generating over the server: [1-9]\d* of up to 64 tokens/.test(document.getElementById("compare-note")?.textContent ?? ""));
    assert.equal(await page.locator("#compare").getAttribute("aria-busy"), "true");
    await page.waitForFunction(() => document.querySelectorAll(".compare-col li").length >= 3);
    await page.locator("#compare").evaluate((el) => el.scrollIntoView({ block: "start" }));
    await screenshot(page, "server-compare-running.png");
    // Stop: the button says so while the run goes on
    await page.getByRole("button", { name: "Stop comparison" }).click();
    assert.equal(await status(page), "cancelled");
    assert.match(await note.textContent(), /Stopped before the end \(Stop comparison\)/);
    const kept = await columns(page);
    await page.waitForTimeout(400); // an answer already on its way may land
    const after = completions(seen);
    await page.waitForTimeout(1200);
    assert.equal(completions(seen), after, "no request after Stop");
    assert.deepEqual(await columns(page), kept, "the columns made so far stay");
    assert.equal(await page.getByRole("button", { name: "Run comparison" }).isEnabled(), true);

    // a setting changed during the run ends it
    await page.getByRole("button", { name: "Run comparison" }).click();
    await page.waitForFunction(() => document.querySelectorAll(".compare-col li").length >= 2);
    await setNumber(page, "seed", 5);
    await page.waitForFunction(() => document.getElementById("compare")?.dataset["status"] === "cancelled");
    assert.match(await note.textContent(), /the prompt, the settings or the source changed/);
    await page.waitForTimeout(400);
    const afterSetting = completions(seen);
    await page.waitForTimeout(1000);
    assert.equal(completions(seen) - afterSetting, 0, "no request after the setting changed");

    // so does a new prompt
    await page.getByRole("button", { name: "Run comparison" }).click();
    await page.waitForFunction(() => document.querySelectorAll(".compare-col li").length >= 2);
    await setPrompt(page, "德国的首都是");
    await page.waitForFunction(() => document.getElementById("compare")?.dataset["status"] === "cancelled");
    assert.deepEqual(seen.console, []);
    await context.close();
  });

  test("the server stops mid-Compare: its column says so as the main view does, and no request follows", async () => {
    const { page, context } = await open("?lang=en");
    await setPrompt(page, "中国的首都是");
    await setNumber(page, "max-new", 16);
    await connect(page, env.llama.url);
    await slowServer(page, 100);
    await page.getByRole("button", { name: "Run comparison" }).click();
    await page.waitForFunction(() => document.querySelectorAll(".compare-col li").length >= 3);
    // the server goes away: every request to it is refused, and counted
    let refused = 0;
    await page.route(`${env.llama.url}/**`, (route) => {
      refused++;
      return route.abort("connectionrefused");
    });
    await page.waitForFunction(() => document.getElementById("compare")?.dataset["status"] === "failed", null, { timeout: 15_000 });
    const failed = page.locator(".compare-col .compare-stop").last();
    const text = await failed.textContent();
    assert.match(text, /^Nothing answers at http:\/\/127\.0\.0\.1:\d+\. Start the server first/, text);
    assert.doesNotMatch(text, /decoding core/);
    assert.match(await page.locator("#compare-note").textContent(), /the server did not answer/);
    const afterFail = refused;
    await page.waitForTimeout(1500);
    assert.equal(refused, afterFail, "no request loop after the failure");
    assert.ok(refused <= 3, `a request or two, not a loop (${refused})`);
    await page.locator("#compare").evaluate((el) => el.scrollIntoView({ block: "start" }));
    await screenshot(page, "server-compare-failed.png");
    await context.close();
  });

  test("in Chinese: the Stop button and the progress are worded; manual logits say what compares", async () => {
    const { page, context } = await open("?lang=zh");
    await setPrompt(page, "中国的首都是");
    await connect(page, env.llama.url);
    await slowServer(page, 150);
    await page.getByRole("button", { name: "运行对比" }).click();
    await page.getByRole("button", { name: "停止对比" }).waitFor();
    await page.waitForFunction(() => /正在通过模型服务生成：已生成 [1-9]/.test(document.getElementById("compare-note")?.textContent ?? ""));
    await page.getByRole("button", { name: "停止对比" }).click();
    await page.locator("#source").selectOption("manual");
    assert.match(await page.locator("#compare-note").textContent(), /内置模型或已连接的模型服务/);
    assert.equal(await page.getByRole("button", { name: "运行对比" }).isDisabled(), true);
    await context.close();
  });
});
