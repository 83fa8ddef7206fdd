// The page over a learner's own model server that misbehaves (tests/node/misbehaving-server.mjs, a
// fake llama.cpp in Node): it goes away in the middle of an answer during Play, hangs, is still
// loading its model, is a web page, or restarts with another model between two steps. Each ends in
// a message that says what went wrong and what to do, Play stops, the text and the link stay, and
// the page stays usable (Step again, Connect again, the embedded model). No page error; the
// browser's own "Failed to load resource" lines for an HTTP error status are the only console errors.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, serveDist, screenshot } from "./harness.mjs";
import { completion, llamaRoutes, startMisbehavingServer } from "../node/misbehaving-server.mjs";

let site;
let browser;
let srv;
before(async () => {
  [site, browser, srv] = await Promise.all([serveDist(), launch(), startMisbehavingServer()]);
});
after(async () => {
  await browser?.close();
  await site?.close();
  await srv?.close();
});

/** The page (greedy, prompt "abc": the fake's letters), connected to the fake server. */
async function connected(lang = "en") {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce", locale: "en-US" });
  const page = await context.newPage();
  const errors = [];
  page.on("console", (msg) => {
    if (msg.type() === "error" && !/^Failed to load resource/.test(msg.text())) errors.push(msg.text());
  });
  page.on("pageerror", (err) => errors.push(String(err)));
  await page.goto(`${site.url}?lang=${lang}&strategy=greedy&prompt=abc`);
  await page.waitForSelector("body[data-ready='true']");
  await page.locator("#source").selectOption("server");
  await page.locator("#server-address").fill(srv.url);
  await connect(page);
  return { page, context, errors };
}

async function connect(page) {
  await page.locator("#server-connect").click();
  await page.waitForFunction(() => /Connected|已连接/.test(document.getElementById("server-status")?.textContent ?? "") && !document.getElementById("server-connect").disabled);
}

const chips = (page) => page.locator("#generated li");
const status = (page) => page.locator("#server-status").textContent();
const playing = (page) => page.locator("#play").evaluate((b) => b.getAttribute("aria-pressed") === "true" || /Pause|暂停/.test(b.textContent ?? ""));

async function stepOnce(page) {
  const before = await chips(page).count();
  await page.waitForFunction(() => !document.getElementById("step").disabled, null, { timeout: 10_000 });
  await page.locator("#step").click();
  await page.waitForFunction((n) => document.querySelectorAll("#generated li").length === n, before + 1, { timeout: 10_000 });
}

describe("a model server that misbehaves", () => {
  test("it goes away in the middle of an answer during Play: Play stops, says so, text and link stay, Connect again goes on", async () => {
    const { page, context, errors } = await connected();
    await page.locator("#play").click();
    await page.waitForFunction(() => document.querySelectorAll("#generated li").length >= 3, null, { timeout: 15_000 });
    srv.on("POST /completion", (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"completion_probabilities": [{"id": 0, "token": "a"');
      setTimeout(() => res.destroy(), 30);
    });
    const error = page.locator("#error");
    await error.waitFor({ state: "visible", timeout: 15_000 });
    assert.match(await error.textContent(), /closed the connection before its answer was complete.*Start it again, then click Step/);
    assert.equal(await playing(page), false, "Play stopped");
    const kept = await chips(page).allTextContents();
    assert.ok(kept.length >= 3);
    assert.match(await status(page), /stopped answering/);
    const link = new URL(page.url()).searchParams;
    assert.equal(link.get("server"), srv.url);
    assert.ok((link.get("path") ?? "").split(".").length >= 3, "the link keeps the tokens");
    await screenshot(page, "server-misbehaving-cut-off.png");
    // it is back: Connect again keeps the text and goes on
    srv.off("POST /completion");
    await connect(page);
    await page.waitForFunction((n) => document.querySelectorAll("#generated li").length === n, kept.length);
    await stepOnce(page);
    assert.deepEqual((await chips(page).allTextContents()).slice(0, kept.length), kept);
    assert.equal(await error.isVisible(), false);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("an answer that never comes (zh): the wait is counted, Cancel gives it up, Play stops, Step asks again", async () => {
    const { page, context, errors } = await connected("zh");
    await stepOnce(page);
    srv.on("POST /completion", () => {});
    await page.locator("#play").click();
    const cancel = page.getByRole("button", { name: "取消对服务的请求" });
    await cancel.waitFor({ state: "visible", timeout: 10_000 });
    assert.match(await status(page), /正在等待服务… \d+\.\d 秒/);
    await screenshot(page, "server-misbehaving-waiting-zh.png");
    const count = await chips(page).count();
    await cancel.click();
    const error = page.locator("#error");
    await error.waitFor({ state: "visible" });
    assert.match(await error.textContent(), /^已取消：http:\/\/127\.0\.0\.1:\d+ 上的服务 \d+ 秒后还没有应答。点击「单步」重新请求/);
    assert.equal(await playing(page), false, "Play stopped");
    assert.equal(await cancel.isHidden(), true);
    assert.equal(await chips(page).count(), count, "the text stays");
    await page.waitForFunction(() => !document.getElementById("step").disabled);
    await page.waitForTimeout(200);
    assert.equal(srv.open, 0, "the request was given up, not left open");
    srv.off("POST /completion");
    await stepOnce(page);
    assert.equal(await chips(page).count(), count + 1);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("Connect while the model loads (503), to a web page, and to an address typed as 127.0.0.1:port/v1", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (err) => errors.push(String(err)));
    await page.goto(`${site.url}?lang=en&prompt=abc`);
    await page.waitForSelector("body[data-ready='true']");
    await page.locator("#source").selectOption("server");
    await page.locator("#server-address").fill(srv.url);
    const failed = async () => {
      await page.locator("#server-connect").click();
      await page.waitForFunction(() => document.getElementById("server-status")?.dataset["state"] === "error" && !document.getElementById("server-connect").disabled);
      return status(page);
    };
    srv.reply("GET /v1/models", 503, JSON.stringify({ error: { code: 503, message: "Loading model", type: "unavailable_error" } }));
    assert.match(await failed(), /is still loading its model, or is busy \(HTTP 503: Loading model\)\. Wait until it is ready.*then click Connect again/);
    srv.reply("GET /v1/models", 200, "<!doctype html><title>JupyterLab</title><p>Jupyter</p>", "text/html");
    assert.match(await failed(), /answers, but not as a llama\.cpp or OpenAI-compatible server/);
    srv.off("GET /v1/models");
    await page.locator("#server-address").fill(`${srv.url.replace("http://", "")}/v1`);
    await connect(page);
    assert.match(await status(page), new RegExp(`at ${srv.url.replace(/[.:/]/g, "\\$&")} · model fake\\.gguf`));
    await stepOnce(page);
    assert.deepEqual(errors, []);
    await context.close();
  });

  test("it restarts with another model between two steps: says so (not “stopped answering”), text stays; Connect again starts over on the new model", async () => {
    const { page, context, errors } = await connected();
    await stepOnce(page);
    await stepOnce(page);
    const prompt = await page.locator("#prompt").inputValue();
    // the other model: another name and vocabulary, whose id 0 is another token
    const other = ["x", "b", "c", "d", "e", "f"];
    srv.on("GET /v1/models", (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data: [{ id: "other.gguf", object: "model", owned_by: "llamacpp", meta: { n_vocab: other.length } }] }));
    });
    srv.on("POST /completion", (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ ...completion(other.map((_, i) => i), other), model: "other.gguf" }));
    });
    try {
      // (the next answer may already be in, asked for before the restart: one more Step uses it)
      const error = page.locator("#error");
      for (let i = 0; i < 3 && !(await error.isVisible()); i++) {
        if (!(await page.locator("#step").isDisabled())) await page.locator("#step").click();
        await page.waitForTimeout(300);
      }
      await error.waitFor({ state: "visible" });
      const count = await chips(page).count();
      assert.match(await error.textContent(), /now serves another model than the one you connected to \(other\.gguf\).*Click Connect again/);
      assert.match(await status(page), /its last answer could not be used/);
      assert.doesNotMatch(await status(page), /stopped answering/);
      assert.ok(count >= 2);
      await page.waitForTimeout(300);
      assert.equal(await chips(page).count(), count, "the text stays");
      await connect(page);
      assert.match(await status(page), /model other\.gguf · vocabulary 6/);
      await page.waitForFunction(() => document.querySelectorAll("#generated li").length === 0);
      assert.equal(await page.locator("#prompt").inputValue(), prompt, "the prompt stays");
      await stepOnce(page);
      assert.deepEqual(await chips(page).allTextContents(), ["x"], "the new model's token");
    } finally {
      srv.off("GET /v1/models");
      srv.off("POST /completion");
    }
    assert.deepEqual(errors, []);
    assert.ok(llamaRoutes["POST /completion"]);
    await context.close();
  });

  test("fewer alternatives than asked (3 of a vocabulary of 8): the status line no longer says every token is listed", async () => {
    const { page, context, errors } = await connected();
    assert.match(await status(page), /Each step lists every token: the probabilities are exact/);
    srv.on("POST /completion", (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(completion([0, 1, 2])));
    });
    try {
      await page.locator("#prompt").fill("abcd");
      await page.locator("#prompt").press("Tab");
      await page.locator("#server-rest").waitFor({ state: "visible" });
      assert.match(await page.locator("#server-rest").textContent(), /Rest of the vocabulary \(not listed by the server\): \d/);
      assert.match(await status(page), /This step lists the 3 most likely tokens/);
      assert.doesNotMatch(await status(page), /every token/);
      await stepOnce(page);
    } finally {
      srv.off("POST /completion");
    }
    assert.deepEqual(errors, []);
    await context.close();
  });
});
