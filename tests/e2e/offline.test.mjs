// The single-file build (dist/nexttoken.html): opened from disk (file://) with every network
// request blocked, as from a teacher's USB stick. It must load the embedded model, generate real
// tokens, log no error and ask for nothing; the file must name no external URL to load and stay
// within the 3 MB (gzipped) payload budget.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { DIST, launch, screenshot } from "./harness.mjs";

const FILE = join(DIST, "nexttoken.html");
const BUDGET = 3_000_000;

describe("single file offline", () => {
  let browser;
  before(async () => {
    // fail early and clearly if the single file was not built (a bare `vite build` empties dist/)
    assert.ok(existsSync(FILE), `${FILE} is missing: build it with \`make dist\` (npm run build)`);
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
  });

  /** Open the file from disk with the network cut off; every non-file request is recorded. */
  async function openOffline(query) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: "reduce", locale: "en-US" });
    await context.setOffline(true);
    const page = await context.newPage();
    const problems = { console: [], requests: [] };
    page.on("console", (msg) => {
      if (msg.type() === "error") problems.console.push(msg.text());
    });
    page.on("pageerror", (err) => problems.console.push(String(err)));
    page.on("request", (req) => {
      if (!req.url().startsWith("file:")) problems.requests.push(req.url());
    });
    await context.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith("file:")) return route.continue();
      problems.requests.push(url);
      return route.abort();
    });
    await page.goto(`${pathToFileURL(FILE).href}${query}`);
    await page.waitForSelector("body[data-ready='true']", { timeout: 60_000 });
    return { page, context, problems };
  }

  test("works from file:// with no network: the embedded model generates, nothing is requested", async () => {
    const { page, context, problems } = await openOffline("?lang=en");
    assert.equal(await page.locator("#source").inputValue(), "model", "the embedded model is the source");
    assert.equal(await page.locator("#model-error").isHidden(), true, "the model loaded");
    assert.equal(await page.locator("#loading").isHidden(), true);
    const chips = page.getByRole("region", { name: "Generated text" }).getByRole("listitem");
    const step = page.getByRole("button", { name: "Step", exact: true });
    for (let i = 0; i < 6; i++) {
      const before = await chips.count();
      await step.click();
      assert.equal(await chips.count(), before + 1, `step ${i + 1} adds one token`);
    }
    const tokens = await chips.allTextContents();
    assert.equal(tokens.length, 6);
    assert.ok(tokens.every((text) => text.trim().length > 0), JSON.stringify(tokens));
    assert.ok(!tokens.join("").includes("\uFFFD"), JSON.stringify(tokens));
    // the inspector shows this step's trace over the model's vocabulary
    assert.notEqual((await page.locator("#stat-chosen").textContent()).trim(), "");
    await screenshot(page, "offline-single-file.png");
    assert.deepEqual(problems.console, []);
    assert.deepEqual(problems.requests, []);
    // the file's CSP is in force: even a fetch from inside the page is refused before it leaves
    const refused = await page.evaluate(async () => {
      const violation = new Promise((resolve) =>
        document.addEventListener("securitypolicyviolation", (e) => resolve(e.effectiveDirective), { once: true }),
      );
      const error = await fetch("https://example.com/").then(() => null, (err) => String(err));
      return { directive: await violation, error };
    });
    assert.equal(refused.directive, "connect-src");
    assert.notEqual(refused.error, null);
    assert.deepEqual(problems.requests, [], "the refused fetch never reached the network");
    await context.close();
  });

  test("a lesson page on disk with <nexttoken-playground> (the Share dialog's snippet from file://) gets a working embed, nothing requested", async () => {
    // (the element loaded index.html, whose module script, styles, wasm and model a file:// page
    // may not load: an unstyled, dead form)
    const dir = mkdtempSync(join(tmpdir(), "nexttoken-lesson-"));
    const host = join(dir, "lesson.html");
    const script = pathToFileURL(join(DIST, "nexttoken-element.js")).href;
    writeFileSync(host, `<!doctype html><meta charset="utf-8"><title>Lesson</title><h1>Lesson</h1>
<script src="${script}"></script>
<nexttoken-playground lang="en" prompt="TypeScript 是 JavaScript 的" strategy="greedy" height="700"></nexttoken-playground>`);
    const context = await browser.newContext({ viewport: { width: 1000, height: 900 }, reducedMotion: "reduce", locale: "en-US" });
    await context.setOffline(true);
    const requests = [];
    await context.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith("file:")) return route.continue();
      requests.push(url);
      return route.abort();
    });
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (err) => errors.push(String(err)));
    await page.goto(pathToFileURL(host).href);
    const frame = page.frameLocator("nexttoken-playground iframe");
    await frame.locator("body[data-ready='true']").waitFor({ timeout: 60_000 });
    assert.equal(await frame.locator("body").getAttribute("data-embed"), "true");
    assert.equal(await frame.getByLabel("Prompt", { exact: true }).inputValue(), "TypeScript 是 JavaScript 的");
    const chips = frame.getByRole("region", { name: "Generated text" }).getByRole("listitem");
    await frame.getByRole("button", { name: "Step", exact: true }).click();
    await chips.first().waitFor();
    assert.equal(await chips.count(), 1, "a Step in the embed adds a token");
    await screenshot(page, "offline-element-lesson.png");
    assert.deepEqual(errors, []);
    assert.deepEqual(requests, []);
    await context.close();
  });

  test("the file carries its own strict CSP and names nothing to fetch", () => {
    const html = readFileSync(FILE, "utf8");
    const csp = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]+)"/)?.[1] ?? "";
    for (const rule of ["default-src 'none'", "connect-src 'none'", "'wasm-unsafe-eval'"]) assert.ok(csp.includes(rule), `${rule} in ${csp}`);
    assert.match(csp, /script-src 'sha256-[A-Za-z0-9+/=]+' 'wasm-unsafe-eval'/);
    assert.doesNotMatch(csp, /unsafe-inline|\*|https?:/);
    // nothing that loads (messages stay short: the file is megabytes). The markup, without the
    // inline script and style bodies: no <script src>, no <link> to a file, no src/srcset/poster/
    // data/action but data: URLs. The whole file: no literal http(s) URL as a src or href.
    const scripts = [...html.matchAll(/<script type="module">([^]*?)<\/script>/g)].map((m) => m[1]);
    const styles = [...html.matchAll(/<style>([^]*?)<\/style>/g)].map((m) => m[1]);
    assert.equal(scripts.length, 1, "one inline module script");
    assert.equal(styles.length, 1, "one inline stylesheet");
    const markup = html.replace(/(<script type="module">)[^]*?(<\/script>)/g, "$1$2").replace(/(<style>)[^]*?(<\/style>)/g, "$1$2");
    assert.ok(markup.length < 100_000, `markup ${markup.length} bytes once script and style are taken out`);
    assert.deepEqual(markup.match(/<script\b[^>]*>/gi), ['<script type="module">']);
    assert.deepEqual(markup.match(/<link\b[^>]*>/gi) ?? [], ['<link rel="icon" href="data:," />']);
    assert.equal(markup.match(/\s(?:src|srcset|poster|data|action|formaction|href)\s*=\s*(?!["']?(?:data:|#))[^\s>]+/i)?.[0] ?? null, null);
    assert.equal(html.match(/\b(?:src|href)\s*=\s*\\?["']?\s*https?:/i)?.[0] ?? null, null);
    assert.equal(styles[0].match(/url\(\s*(?!["']?data:)[^)]*\)|@import/i)?.[0] ?? null, null, "no url() or @import in the style");
    // the script fetches nothing either: no fetch, no reference to the multi-file build's files
    assert.equal(scripts[0].match(/\bfetch\(|XMLHttpRequest|assets\/|\.wasm["']|\.safetensors/)?.[0] ?? null, null);
  });

  test(`gzipped it stays within the budget (≤ ${BUDGET / 1e6} MB)`, () => {
    const size = gzipSync(readFileSync(FILE), { level: 9 }).length;
    assert.ok(size <= BUDGET, `nexttoken.html gzipped is ${size} bytes`);
  });
});
