// What the server suites share: the built page and llama.cpp's real server (the project's own model
// as GGUF, so greedy over it equals the embedded model token for token), started once per suite; a
// page that may reach only those two and records every request to the server; Connect, setting a
// control, and stepping while the server's answers land asynchronously. Controls are found by id, so
// the helpers work in both languages.
import { before, after } from "node:test";
import assert from "node:assert/strict";
import { launch, serveDist } from "./harness.mjs";
import { startLlamaServer } from "../node/llama-server.mjs";

/**
 * Starts the site, the browser and the server for the calling suite (`env.site`, `env.browser`,
 * `env.llama` once `before` has run); `open(query, viewport)` makes a page on the built dist/.
 * `seen`: `requests` every URL asked for, `toServer` "METHOD /path" of each request to the server,
 * `bodies` their JSON bodies, `tokenized` the texts it was asked to tokenize (prompts: the page's,
 * a glimpse's), `console` errors, `offLoopback` requests refused for leaving the two origins.
 */
export function serverSuite() {
  const env = { site: null, browser: null, llama: null };
  before(async () => {
    [env.site, env.browser, env.llama] = await Promise.all([serveDist(), launch(), startLlamaServer({ exact: true })]);
  });
  after(async () => {
    env.llama?.stop();
    await env.browser?.close();
    await env.site?.close();
  });
  async function open(query = "?lang=en", viewport = { width: 1280, height: 900 }) {
    const { site, browser, llama } = env;
    const context = await browser.newContext({ viewport, reducedMotion: "reduce", locale: "en-US" });
    const page = await context.newPage();
    const seen = { requests: [], toServer: [], bodies: [], tokenized: [], console: [], offLoopback: [] };
    page.on("console", (msg) => {
      if (msg.type() === "error") seen.console.push(msg.text());
    });
    page.on("pageerror", (err) => seen.console.push(String(err)));
    const allowed = [new URL(site.url).origin, new URL(llama.url).origin];
    await context.route("**/*", (route) => {
      const request = route.request();
      const url = request.url();
      seen.requests.push(url);
      if (url.startsWith(llama.url)) {
        const path = new URL(url).pathname;
        seen.toServer.push(`${request.method()} ${path}`);
        let body = null;
        try {
          body = request.postDataJSON();
        } catch {
          // not JSON
        }
        seen.bodies.push({ path, body });
        if (path === "/tokenize") seen.tokenized.push(body?.content);
      }
      // fallback, not continue: a page's own route (asLargeVocabulary) may still answer
      if (allowed.some((o) => url.startsWith(o)) || url.startsWith("data:") || url.startsWith("blob:")) return route.fallback();
      seen.offLoopback.push(url);
      return route.abort();
    });
    await page.goto(`${site.url}${query}`);
    await page.waitForSelector("body[data-ready='true']");
    return { page, context, seen };
  }
  return { env, open };
}

/** Choose "Model server", type its address, click Connect and wait until connected. */
export async function connect(page, url) {
  await page.locator("#source").selectOption("server");
  await page.locator("#server-address").fill(url);
  await page.locator("#server-connect").click();
  await page.waitForFunction(() => document.getElementById("server-status")?.dataset["state"] !== "error" && /Connected|已连接/.test(document.getElementById("server-status")?.textContent ?? ""));
}

export async function setPrompt(page, text) {
  await page.locator("#prompt").fill(text);
  await page.locator("#prompt").press("Tab");
}

/** Set an input control by id as a user does (type, then leave it). */
export async function setNumber(page, id, value) {
  await page.locator(`#${id}`).fill(String(value));
  await page.locator(`#${id}`).press("Tab");
}

/** The same server, reported as if its vocabulary were Qwen's 151,936 tokens: the page asks for the top N. */
export async function asLargeVocabulary(page, llama) {
  await page.route(`${llama.url}/v1/models`, async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    body.data[0].meta.n_vocab = 151_936;
    await route.fulfill({ response, json: body });
  });
}

export const chipTexts = async (page) => (await page.locator("#generated").getByRole("listitem").allTextContents()).map((s) => s.trim());

/** Wait until Step is enabled (the server's answer is in), or fail. */
export async function stepReady(page) {
  await page.waitForFunction(() => !(document.getElementById("step")?.disabled ?? true), null, { timeout: 15_000 });
}

/** Click Step `n` times, each time waiting for its one new chip. */
export async function stepServer(page, n) {
  const chips = page.locator("#generated").getByRole("listitem");
  for (let i = 0; i < n; i++) {
    await stepReady(page);
    const before = await chips.count();
    await page.locator("#step").click();
    await page.waitForFunction((want) => document.querySelectorAll("#generated li").length === want, before + 1, { timeout: 15_000 });
    assert.equal(await chips.count(), before + 1);
  }
}
