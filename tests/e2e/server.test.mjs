// The page over llama.cpp's real server (the project's model as GGUF, tests/tools/llama_server.py):
// Connect, then greedy generation gives the same tokens as the embedded model, token for token;
// rewind and a path from a forced token work over the server; a link names the server but never
// connects before a click; a closed port says what to run. Every request stays on loopback.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { DIST, screenshot } from "./harness.mjs";
import { serverSuite } from "./server-suite.mjs";

const { env, open } = serverSuite();

const chips = (page) => page.locator("#generated").getByRole("listitem");
const texts = async (page) => (await chips(page).allTextContents()).map((s) => s.trim());

async function setPrompt(page, text) {
  const prompt = page.getByLabel("Prompt", { exact: true });
  await prompt.fill(text);
  await prompt.press("Tab");
}

/**
 * Click Step `n` times, each time waiting for its one new chip (a server step lands asynchronously).
 * Step is disabled while the server's answer for the context is on its way: wait for it, unless the
 * path has stopped.
 */
async function step(page, n) {
  for (let i = 0; i < n; i++) {
    const button = page.locator("#step");
    const ready = Date.now() + 15_000;
    while ((await button.isDisabled()) && (await page.locator("#stop-reason").textContent()) === "" && Date.now() < ready) await page.waitForTimeout(20);
    if (await button.isDisabled()) break;
    const before = await chips(page).count();
    await button.click();
    const deadline = Date.now() + 15_000;
    while ((await chips(page).count()) <= before && Date.now() < deadline) await page.waitForTimeout(20);
    assert.equal(await chips(page).count(), before + 1, `step ${i + 1} adds one token`);
  }
}

async function connect(page, url = env.llama.url) {
  await page.getByLabel("Logits source").selectOption("server");
  await page.getByLabel("Server address").fill(url);
  await page.getByRole("button", { name: "Connect", exact: true }).click();
}

describe("model server (llama.cpp)", () => {
  test("greedy over the server equals the embedded model token for token, with no request off loopback", async () => {
    const { page, context, seen } = await open();
    await page.getByLabel("Strategy").selectOption("greedy");
    await setPrompt(page, "中国的首都是");
    await step(page, 10);
    const embedded = await texts(page);
    assert.equal(embedded[0], "北京");
    assert.equal(seen.toServer.length, 0, "nothing is sent to a server before Connect");

    await connect(page);
    const status = page.locator("#server-status");
    await page.waitForFunction(() => /Connected/.test(document.getElementById("server-status")?.textContent ?? ""));
    assert.match(await status.textContent(), /llama\.cpp .*vocabulary 8,000\. Each step lists every token: the probabilities are exact\./);
    assert.equal(await chips(page).count(), 0, "a new source starts from the prompt");
    // Sample N over the server's distribution (sampling, not greedy)
    await page.getByLabel("Strategy").selectOption("sample");
    await page.getByRole("button", { name: /^Sample \d+ times$/ }).first().click();
    await page.getByText(/draws: most frequent 北京/).waitFor();
    await page.getByLabel("Strategy").selectOption("greedy");
    await step(page, 10);
    assert.deepEqual(await texts(page), embedded);
    assert.equal(await page.locator("#server-rest").isHidden(), true, "the whole vocabulary: no rest to show");
    await screenshot(page, "server-greedy.png");

    // rewind one token and step again: the same token, from the server's prompt cache
    await page.evaluate(() => (document.activeElement instanceof HTMLElement ? document.activeElement.blur() : undefined));
    await page.keyboard.press("ArrowLeft");
    assert.equal(await chips(page).count(), 9);
    await step(page, 1);
    assert.deepEqual(await texts(page), embedded);

    // a path from a forced candidate at step 2, over the server
    await chips(page).nth(1).getByRole("button").click();
    const force = page.getByRole("button", { name: /^Force “/ }).nth(1);
    const forcedName = await force.getAttribute("aria-label") ?? (await force.textContent());
    await force.click();
    await step(page, 1);
    assert.equal(await chips(page).count(), 3);
    assert.equal(await chips(page).nth(1).getAttribute("data-forced"), "true", forcedName);
    const branched = await texts(page);
    assert.equal(await page.getByRole("region", { name: "Paths" }).getByRole("button").count(), 2);

    // the page's own link, reopened: the same paths come back over the server after Connect
    const link = page.url();
    assert.match(link, /source=server&/);
    const again = await open(new URL(link).search);
    assert.equal(again.seen.toServer.length, 0);
    await again.page.getByRole("button", { name: "Connect", exact: true }).click();
    await again.page.waitForFunction((n) => document.querySelectorAll("#generated li").length === n, branched.length);
    assert.deepEqual(await texts(again.page), branched);
    assert.equal(await again.page.getByRole("region", { name: "Paths" }).getByRole("button").count(), 2);
    await again.page.getByRole("region", { name: "Paths" }).getByRole("button").first().click();
    await again.page.waitForFunction((n) => document.querySelectorAll("#generated li").length === n, embedded.length);
    assert.deepEqual(await texts(again.page), embedded);
    assert.deepEqual(again.seen.console, []);
    await again.context.close();

    assert.deepEqual(seen.console, []);
    const offLoopback = seen.requests.filter((u) => !/^(https?:\/\/(127\.0\.0\.1|localhost)[:/]|data:|blob:)/.test(u));
    assert.deepEqual(offLoopback, []);
    assert.ok(seen.toServer.includes("POST /completion") && seen.toServer.includes("POST /tokenize") && seen.toServer.includes("GET /v1/models"), seen.toServer.join(", "));
    await context.close();
  });

  test("a link names the server and waits for Connect; then it generates over it", async () => {
    const { page, context, seen } = await open(`?lang=en&source=server&server=${encodeURIComponent(env.llama.url)}&api=llama.cpp&strategy=greedy&prompt=${encodeURIComponent("中国的首都是")}`);
    assert.equal(await page.getByLabel("Logits source").inputValue(), "server");
    assert.equal(await page.getByLabel("Server address").inputValue(), env.llama.url);
    assert.match(await page.locator("#server-status").textContent(), /Click Connect/);
    await page.waitForTimeout(300);
    assert.deepEqual(seen.toServer, [], "a link never connects by itself");
    await page.getByRole("button", { name: "Connect", exact: true }).click();
    await page.waitForFunction(() => /Connected/.test(document.getElementById("server-status")?.textContent ?? ""));
    await step(page, 1);
    assert.deepEqual(await texts(page), ["北京"]);
    const address = new URL(page.url());
    assert.equal(address.searchParams.get("source"), "server");
    assert.equal(address.searchParams.get("server"), env.llama.url);
    await context.close();
  });

  test("the OpenAI-compatible API of the same server (/v1/completions) gives the same greedy tokens", async () => {
    const { page, context, seen } = await open();
    await page.getByLabel("Strategy").selectOption("greedy");
    await setPrompt(page, "TypeScript 是 JavaScript 的");
    await step(page, 4);
    const embedded = await texts(page);
    await page.getByLabel("Logits source").selectOption("server");
    await page.getByLabel("API", { exact: true }).selectOption("openai");
    await connect(page);
    await page.waitForFunction(() => /Connected/.test(document.getElementById("server-status")?.textContent ?? ""));
    await step(page, 4);
    assert.deepEqual(await texts(page), embedded);
    assert.ok(seen.toServer.includes("POST /v1/completions") && !seen.toServer.includes("POST /completion"), seen.toServer.join(", "));
    assert.equal(new URL(page.url()).searchParams.get("api"), "openai");
    await context.close();
  });

  test("a large vocabulary: the top 200 with the rest of the vocabulary shown, exact only under a cut", async () => {
    const { page, context } = await open();
    // the same real server, reported as if its vocabulary were Qwen's 151,936 tokens
    await page.route(`${env.llama.url}/v1/models`, async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      body.data[0].meta.n_vocab = 151_936;
      await route.fulfill({ response, json: body });
    });
    await page.getByLabel("Strategy").selectOption("greedy");
    await setPrompt(page, "给一个代码编辑器插件起名：");
    await connect(page);
    await page.waitForFunction(() => /Connected/.test(document.getElementById("server-status")?.textContent ?? ""));
    assert.match(await page.locator("#server-status").textContent(), /vocabulary 151,936\. Each step lists the 200 most likely tokens\./);
    const rest = page.locator("#server-rest");
    await rest.waitFor({ state: "visible" });
    assert.match(await rest.textContent(), /^Rest of the vocabulary \(not listed by the server\): \d+(\.\d+)?% Final probabilities are exact/);
    assert.match(await page.locator("#explain-softmax").textContent(), /Rest of the vocabulary/);
    await page.getByLabel("Strategy").selectOption("sample");
    await page.getByLabel("Top-k", { exact: true }).fill("0");
    await page.getByLabel("Top-k", { exact: true }).press("Tab");
    await page.getByLabel("Top-p", { exact: true }).fill("1");
    await page.getByLabel("Top-p", { exact: true }).press("Tab");
    await page.getByLabel("Min-p", { exact: true }).fill("0");
    await page.getByLabel("Min-p", { exact: true }).press("Tab");
    await page.waitForFunction(() => /over the listed tokens only/.test(document.getElementById("server-rest")?.textContent ?? ""));
    await screenshot(page, "server-top-n.png");
    await step(page, 2);
    await context.close();
  });

  test("from file://: nexttoken-server.html reaches llama.cpp (Origin: null); the offline file never connects and says which file to use", async () => {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce", locale: "en-US" });
    const page = await context.newPage();
    const toServer = [];
    const errors = [];
    page.on("pageerror", (err) => errors.push(String(err)));
    page.on("request", (request) => {
      if (request.url().startsWith(env.llama.url)) toServer.push(request.url());
    });
    await page.goto(pathToFileURL(join(DIST, "nexttoken-server.html")).href);
    await page.waitForSelector("body[data-ready='true']");
    await page.getByLabel("Strategy").selectOption("greedy");
    await setPrompt(page, "中国的首都是");
    await connect(page);
    await page.waitForFunction(() => /Connected/.test(document.getElementById("server-status")?.textContent ?? ""));
    await step(page, 1);
    assert.deepEqual(await texts(page), ["北京"]);

    toServer.length = 0;
    await page.goto(pathToFileURL(join(DIST, "nexttoken.html")).href);
    await page.waitForSelector("body[data-ready='true']");
    await connect(page);
    await page.waitForFunction(() => document.getElementById("server-status")?.dataset["state"] === "error");
    assert.match(await page.locator("#server-status").textContent(), /offline single file, nexttoken\.html\) never connects to anything.*nexttoken-server\.html/);
    assert.deepEqual(toServer, [], "the offline file sends nothing");
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("a slow answer shows its progress in the status line", async () => {
    const { page, context } = await open();
    await page.getByLabel("Strategy").selectOption("greedy");
    await setPrompt(page, "中国的首都是");
    await connect(page);
    await page.waitForFunction(() => /Connected/.test(document.getElementById("server-status")?.textContent ?? ""));
    // the next answers take 3 s, like a long prompt's first step on a large model
    await page.route(`${env.llama.url}/completion`, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      await route.continue();
    });
    await page.locator("#step").click();
    await page.waitForFunction(() => /Waiting for the server… [0-2]\.\d s/.test(document.getElementById("server-status")?.textContent ?? ""));
    await page.waitForFunction(() => document.querySelectorAll("#generated li").length === 1);
    assert.deepEqual(await texts(page), ["北京"]);
    await page.waitForFunction(() => !/Waiting/.test(document.getElementById("server-status")?.textContent ?? ""));
    await context.close();
  });

  test("a closed port says nothing answers and what to run; the embedded model stays usable", async () => {
    const { page, context } = await open("?lang=zh");
    await page.locator("#source").selectOption("server");
    await page.locator("#server-address").fill("http://127.0.0.1:9");
    await page.locator("#server-connect").click();
    await page.waitForFunction(() => document.getElementById("server-status")?.dataset["state"] === "error");
    const text = await page.locator("#server-status").textContent();
    assert.match(text, /无法连接：http:\/\/127\.0\.0\.1:9 上没有服务应答。请先启动服务，例如：llama-server -m model\.gguf --port 9/);
    await screenshot(page, "server-refused-zh.png");
    await page.locator("#source").selectOption("model");
    await step(page, 1);
    await context.close();
  });

  test("the server stops during Play: Play stops at the first failure, says the server stopped, no request loop; Step works once it is back", async () => {
    const { page, context } = await open();
    await page.getByLabel("Strategy").selectOption("greedy");
    await setPrompt(page, "中国的首都是");
    await connect(page);
    await page.waitForFunction(() => /Connected/.test(document.getElementById("server-status")?.textContent ?? ""));
    await step(page, 2);
    // the server goes away: every request to it is refused, and counted
    let refused = 0;
    const down = (route) => {
      refused++;
      return route.abort("connectionrefused");
    };
    await page.route(`${env.llama.url}/**`, down);
    await page.getByRole("button", { name: "Play", exact: true }).click();
    const error = page.locator("#error");
    await error.waitFor({ state: "visible" });
    await page.getByRole("button", { name: "Play", exact: true }).waitFor();
    const text = await error.textContent();
    assert.match(text, /^Nothing answers at http:\/\/127\.0\.0\.1:\d+\. Start the server first/, text);
    assert.doesNotMatch(text, /decoding core/);
    const status = page.locator("#server-status");
    assert.match(await status.textContent(), /stopped answering/);
    assert.doesNotMatch(await status.textContent(), /Connected/);
    assert.equal(await status.getAttribute("data-state"), "error");
    const count = await chips(page).count();
    // the inspector shows no stale step as the next one
    assert.doesNotMatch(await page.locator("#inspector-step").textContent(), /Next token/);
    assert.equal(await page.locator("#stages").isVisible(), false);
    assert.equal(await page.locator("#final").isVisible(), false, "nor the last draw as the next one");
    const afterStop = refused;
    await page.waitForTimeout(1500);
    assert.equal(refused, afterStop, "no request loop after Play stopped");
    assert.ok(refused <= 6, `a handful of requests, not a loop (${refused})`);
    await screenshot(page, "server-stopped-en.png");
    // the server answers again: Step continues the same text
    await page.unroute(`${env.llama.url}/**`, down);
    await step(page, 1);
    assert.equal(await chips(page).count(), count + 1);
    assert.equal(await error.isVisible(), false);
    assert.match(await status.textContent(), /Connected/);
    await page.waitForFunction(() => /Next token \(step \d+\)/.test(document.getElementById("inspector-step")?.textContent ?? ""));
    await context.close();
  });

  test("a server link keeps its address (and Share its link) until Connect", async () => {
    const query = `?lang=en&source=server&server=${encodeURIComponent(env.llama.url)}&api=llama.cpp&path=5605.5114&temperature=0.5`;
    const { page, context, seen } = await open(query);
    await page.waitForTimeout(300);
    const address = new URL(page.url()).searchParams;
    assert.equal(address.get("source"), "server");
    assert.equal(address.get("server"), env.llama.url);
    assert.equal(address.get("api"), "llama.cpp");
    assert.equal(address.get("path"), "5605.5114");
    assert.equal(address.get("temperature"), "0.5");
    await page.getByRole("button", { name: "Share / Embed" }).click();
    const dialog = page.getByRole("dialog", { name: "Share or embed this exact state" });
    const shared = new URL(await dialog.getByLabel("Link", { exact: true }).inputValue()).searchParams;
    assert.equal(shared.get("source"), "server");
    assert.equal(shared.get("server"), env.llama.url);
    assert.equal(shared.get("path"), "5605.5114");
    await page.keyboard.press("Escape");
    assert.deepEqual(seen.toServer, [], "a link never connects by itself");
    await page.getByRole("button", { name: "Connect", exact: true }).click();
    await page.waitForFunction(() => document.querySelectorAll("#generated li").length === 2);
    const after = new URL(page.url()).searchParams;
    assert.equal(after.get("source"), "server");
    // the page writes the link's tokens its own way (`f`: not what the seed would draw)
    assert.match(after.get("path") ?? "", /^5605f?\.5114f?$/);
    await context.close();
  });

  test("Connect again to the same server keeps the text; the zh status line uses Chinese punctuation", async () => {
    const { page, context } = await open("?lang=zh");
    await page.locator("#strategy").selectOption("greedy");
    await page.locator("#prompt").fill("中国的首都是");
    await page.locator("#prompt").press("Tab");
    await page.locator("#source").selectOption("server");
    await page.locator("#server-address").fill(env.llama.url);
    await page.locator("#server-connect").click();
    await page.waitForFunction(() => /已连接/.test(document.getElementById("server-status")?.textContent ?? ""));
    assert.match(await page.locator("#server-status").textContent(), /词表 8,000。每一步/);
    await page.locator("#step").click();
    await page.waitForFunction(() => document.querySelectorAll("#generated li").length === 1);
    await page.waitForFunction(() => !document.getElementById("step")?.disabled);
    await page.locator("#step").click();
    await page.waitForFunction(() => document.querySelectorAll("#generated li").length === 2);
    const before = await texts(page);
    const path = new URL(page.url()).searchParams.get("path");
    assert.ok(path !== null);
    await page.locator("#server-connect").click();
    await page.waitForFunction(() => /已连接/.test(document.getElementById("server-status")?.textContent ?? "") && !document.getElementById("server-connect")?.disabled);
    // the text is replayed over the new connection: the same chips, the same link
    const chipTexts = () => [...document.querySelectorAll("#generated li")].map((li) => (li.textContent ?? "").trim());
    await page.waitForFunction((want) => JSON.stringify([...document.querySelectorAll("#generated li")].map((li) => (li.textContent ?? "").trim())) === want, JSON.stringify(before)).catch(() => {});
    assert.deepEqual(await page.evaluate(chipTexts), before);
    assert.equal(new URL(page.url()).searchParams.get("path"), path);
    // and it goes on over the new connection (a click while the replay still runs is dropped, as any
    // action whose path changed meanwhile: click again once it is done)
    const deadline = Date.now() + 15_000;
    while ((await chips(page).count()) < 3 && Date.now() < deadline) {
      if (!(await page.locator("#step").isDisabled())) await page.locator("#step").click();
      await page.waitForTimeout(500);
    }
    assert.equal(await chips(page).count(), 3);
    await context.close();
  });

  test("<nexttoken-playground server=… api=…> passes the server to its page, which waits for Connect", async () => {
    const context = await env.browser.newContext({ viewport: { width: 1000, height: 900 } });
    const toServer = [];
    // a course page on another origin (another port) that includes only the built script and one element
    const course = createServer((req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(`<!doctype html><meta charset="utf-8"><title>Lesson</title><script src="${env.site.url}nexttoken-element.js"></script>
        <nexttoken-playground lang="en" source="server" server="${env.llama.url}" api="llama.cpp" height="700"></nexttoken-playground>`);
    });
    await new Promise((resolve) => course.listen(0, "127.0.0.1", resolve));
    const courseUrl = `http://127.0.0.1:${course.address().port}/lesson.html`;
    try {
      await context.route("**/*", (route) => {
        const url = route.request().url();
        if (url.startsWith(env.llama.url)) toServer.push(url);
        return url.startsWith(env.site.url) || url === courseUrl ? route.continue() : route.abort();
      });
      const page = await context.newPage();
      await page.goto(courseUrl);
      // the element's fields travel after `#` (never sent to a server: a long prompt is over request-line limits)
      const src = new URLSearchParams(new URL(await page.locator("nexttoken-playground iframe").getAttribute("src")).hash.slice(1));
      assert.equal(src.get("server"), env.llama.url);
      assert.equal(src.get("api"), "llama.cpp");
      const frame = page.frameLocator("nexttoken-playground iframe");
      await frame.locator("body[data-ready='true']").waitFor({ timeout: 30_000 });
      assert.equal(await frame.locator("#server-address").inputValue(), env.llama.url);
      assert.match(await frame.locator("#server-status").textContent(), /Click Connect/);
      assert.deepEqual(toServer, []);
    } finally {
      await context.close();
      await new Promise((resolve) => course.close(resolve));
    }
  });
});
