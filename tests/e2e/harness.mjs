import { after, before } from "node:test";
// Shared harness for the browser tests: a tiny static server over dist/ on a free port, and
// Debian's Chromium driven by playwright-core. Every request outside the page's origin is recorded
// (and aborted) so a test can assert there were none.
import { createServer } from "node:http";
import { mkdirSync, readFileSync, statSync } from "node:fs";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "../../www/node_modules/playwright-core/index.mjs";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const DIST = join(ROOT, "dist");
export const ARTIFACTS = fileURLToPath(new URL("./artifacts/", import.meta.url));

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".bin": "application/octet-stream",
  ".safetensors": "application/octet-stream",
};

/** The Content-Security-Policy the page must work under (also sent as a header). */
export const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; connect-src 'self'";

/** Serve dist/ on 127.0.0.1 at a free port; resolves to { url, close }. */
export function serveDist() {
  statSync(join(DIST, "index.html")); // fail early and clearly if the page was not built
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    const file = normalize(join(DIST, path.endsWith("/") ? `${path}index.html` : path));
    if (!file.startsWith(DIST)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = readFileSync(file);
      res.writeHead(200, {
        "content-type": TYPES[extname(file)] ?? "application/octet-stream",
        "content-length": String(body.length),
        "content-security-policy": CSP,
        "cache-control": "no-store",
      });
      res.end(body);
    } catch {
      res.writeHead(404).end("not found");
    }
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}/`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

export async function launch() {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-quic",
      "--no-first-run",
    ],
  });
}

/**
 * Open the page in a fresh context; collects console errors, page errors and foreign requests.
 * Resolves once the core and the model are loaded (body[data-ready]) unless `waitReady` is false;
 * `beforeGoto(page)` runs before navigation (e.g. to throttle the network).
 */
export async function openPage(
  browser,
  baseUrl,
  { query = "", viewport = { width: 1280, height: 800 }, reducedMotion = "reduce", beforeGoto = null, waitReady = true, locale = "en-US" } = {},
) {
  const context = await browser.newContext({ viewport, reducedMotion, locale });
  const page = await context.newPage();
  const problems = { console: [], foreign: [] };
  const origin = new URL(baseUrl).origin;
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.console.push(msg.text());
  });
  page.on("pageerror", (err) => problems.console.push(String(err)));
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith(origin) || url.startsWith("data:") || url.startsWith("blob:")) return route.continue();
    problems.foreign.push(url);
    return route.abort();
  });
  if (beforeGoto) await beforeGoto(page);
  await page.goto(`${baseUrl}${query}`);
  if (waitReady) await page.waitForSelector("body[data-ready='true']");
  return { page, context, problems };
}

export async function screenshot(page, name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, name), fullPage: false });
}

/**
 * Registers the suite's shared static server and browser (started once, closed at the end) and
 * returns `open(query, options)`, which opens a fresh page on the built dist/.
 */
export function browserSuite() {
  let server;
  let browser;
  before(async () => {
    server = await serveDist();
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
  return (query = "?lang=en", options = {}) => openPage(browser, server.url, { query, ...options });
}
