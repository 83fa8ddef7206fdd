// What the server suites beyond server.test.mjs share: the built page and llama.cpp's real server
// (the project's own model as GGUF, so greedy over it equals the embedded model token for token),
// a page that may reach only those two and records every request to the server, and Connect.
import { before, after } from "node:test";
import { launch, serveDist } from "./harness.mjs";
import { startLlamaServer } from "../node/llama-server.mjs";

/** Starts the site, the browser and the server for the calling suite; `open` makes a page. */
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
  /** A page on `query`; `seen.toServer` lists "METHOD /path" of every request to the server, `seen.tokenized` the texts it tokenized. */
  async function open(query = "?lang=en", viewport = { width: 1280, height: 900 }) {
    const context = await env.browser.newContext({ viewport, reducedMotion: "reduce", locale: "en-US" });
    const page = await context.newPage();
    const seen = { toServer: [], tokenized: [], console: [], offLoopback: [] };
    page.on("console", (msg) => {
      if (msg.type() === "error") seen.console.push(msg.text());
    });
    page.on("pageerror", (err) => seen.console.push(String(err)));
    const allowed = [new URL(env.site.url).origin, new URL(env.llama.url).origin];
    await context.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith(env.llama.url)) seen.toServer.push(`${route.request().method()} ${new URL(url).pathname}`);
      // the texts the server was asked to tokenize (prompts: the page's, a glimpse's)
      if (url.startsWith(`${env.llama.url}/tokenize`)) seen.tokenized.push(JSON.parse(route.request().postData() ?? "{}").content);
      if (allowed.some((o) => url.startsWith(o)) || url.startsWith("data:") || url.startsWith("blob:")) return route.continue();
      seen.offLoopback.push(url);
      return route.abort();
    });
    await page.goto(`${env.site.url}${query}`);
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

export async function setNumber(page, id, value) {
  await page.locator(`#${id}`).fill(String(value));
  await page.locator(`#${id}`).press("Tab");
}
