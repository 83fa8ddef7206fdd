// Shared by the browser suites that run the page against llama.cpp's real server: open a page
// that may reach its own origin and the server (every request recorded), connect, set a control,
// and step while the server's answers land asynchronously. Controls are found by id, so the
// helpers work in both languages.
import assert from "node:assert/strict";

/** @returns {Promise<{page, context, seen: {requests: string[], toServer: string[], bodies: Array<{path: string, body: any}>, console: string[]}}>} */
export async function openServerPage(browser, site, llama, query = "?lang=en", viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ viewport, reducedMotion: "reduce", locale: "en-US" });
  const page = await context.newPage();
  const seen = { requests: [], toServer: [], bodies: [], console: [] };
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
    }
    if (allowed.some((o) => url.startsWith(o)) || url.startsWith("data:") || url.startsWith("blob:")) return route.fallback();
    return route.abort();
  });
  await page.goto(`${site.url}${query}`);
  await page.waitForSelector("body[data-ready='true']");
  return { page, context, seen };
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

export async function connectServer(page, url) {
  await page.locator("#source").selectOption("server");
  await page.locator("#server-address").fill(url);
  await page.locator("#server-connect").click();
  await page.waitForFunction(() => document.getElementById("server-status")?.dataset["state"] === "connected");
}

/** Set an input control by id as a user does (type, then leave it). */
export async function setControl(page, id, value) {
  const input = page.locator(`#${id}`);
  await input.fill(String(value));
  await input.press("Tab");
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
