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
export const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; connect-src 'self' http://127.0.0.1:* http://localhost:*";

/**
 * Serve dist/ (or another build, `dir`) on 127.0.0.1 at a free port; resolves to { url, close }.
 * `maxHeaderSize` lifts Node's 16 KB limit on the request line (a long link served as it is);
 * `handle(path, res)` may answer a request itself (returning true) before a file is looked up.
 */
export function serveDist(dir = DIST, { maxHeaderSize, handle } = {}) {
  statSync(join(dir, "index.html")); // fail early and clearly if the page was not built
  const server = createServer(maxHeaderSize === undefined ? {} : { maxHeaderSize }, (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    if (handle?.(path, res) === true) return;
    const file = normalize(join(dir, path.endsWith("/") ? `${path}index.html` : path));
    if (!file.startsWith(dir)) {
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

/**
 * A course page on another origin (its own port) whose every request gets `html` (or `html(path)`,
 * for several pages on one server): where an author puts <nexttoken-playground>. Resolves to
 * { url (of /lesson.html), close }.
 */
export function serveCoursePage(html) {
  const server = createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(typeof html === "function" ? html(new URL(req.url ?? "/", "http://x").pathname) : html);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}/lesson.html`, close: () => new Promise((r) => server.close(r)) });
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
  { query = "", viewport = { width: 1280, height: 800 }, reducedMotion = "reduce", beforeGoto = null, waitReady = true, locale = "en-US", watchRequests = true, hasTouch = false, isMobile = false, deviceScaleFactor = 1 } = {},
) {
  // (`hasTouch`/`isMobile`: a phone or tablet that taps, with touch events and a mobile viewport;
  // `deviceScaleFactor`: a 4K touch board draws its 1920×1080 CSS px at 2)
  const context = await browser.newContext({ viewport, reducedMotion, locale, hasTouch, isMobile, deviceScaleFactor });
  const page = await context.newPage();
  const problems = { console: [], foreign: [] };
  const origin = new URL(baseUrl).origin;
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.console.push(msg.text());
  });
  page.on("pageerror", (err) => problems.console.push(String(err)));
  // (`watchRequests: false`, for benchmarks: every request routed through Playwright costs the page
  // a round trip to this process, hundreds of milliseconds on a loaded machine)
  if (watchRequests) {
    await context.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith(origin) || url.startsWith("data:") || url.startsWith("blob:")) return route.continue();
      problems.foreign.push(url);
      return route.abort();
    });
  }
  if (beforeGoto) await beforeGoto(page);
  await page.goto(`${baseUrl}${query}`);
  if (waitReady) await page.waitForSelector("body[data-ready='true']");
  return { page, context, problems };
}

/**
 * The page's own link as `?a=b…`, wherever the page wrote it: after `?`, or after `#` when it is
 * long (url.ts, linkWithState).
 */
export function ownState(page) {
  return page.evaluate(() => location.search || (location.hash.includes("=") ? `?${location.hash.slice(1)}` : ""));
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

/**
 * Defines `window.wcag` in the page for in-page measurements: `parse(cssColour)` → [r, g, b, a] in
 * 0–1, `ratio(fg, bg)` (WCAG contrast), `backdrop(el)` (the ancestors' backgrounds composited).
 * Call it after each navigation, before a `page.evaluate` that uses it.
 */
export function installWcag(page) {
  return page.evaluate(() => {
    const parse = (c) => {
      const rgb = /rgba?\(([\d.]+)[ ,]+([\d.]+)[ ,]+([\d.]+)(?:[ ,/]+([\d.]+%?))?\)/.exec(c);
      if (rgb) {
        const a = rgb[4] === undefined ? 1 : rgb[4].endsWith("%") ? parseFloat(rgb[4]) / 100 : parseFloat(rgb[4]);
        return [Number(rgb[1]) / 255, Number(rgb[2]) / 255, Number(rgb[3]) / 255, a];
      }
      const srgb = /color\(srgb ([\d.e-]+) ([\d.e-]+) ([\d.e-]+)(?: \/ ([\d.]+))?\)/.exec(c);
      if (srgb) return [Number(srgb[1]), Number(srgb[2]), Number(srgb[3]), srgb[4] === undefined ? 1 : Number(srgb[4])];
      return null;
    };
    const lum = ([r, g, b]) => {
      const f = (v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const ratio = (a, b) => {
      const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
      return (x + 0.05) / (y + 0.05);
    };
    const backdrop = (el) => {
      const layers = [];
      for (let n = el; n !== null; n = n.parentElement) {
        const c = parse(getComputedStyle(n).backgroundColor);
        if (c !== null && c[3] > 0) layers.push(c);
        if (c !== null && c[3] >= 1) break;
      }
      let out = [1, 1, 1];
      for (const [r, g, b, a] of layers.reverse()) out = [r * a + out[0] * (1 - a), g * a + out[1] * (1 - a), b * a + out[2] * (1 - a)];
      return out;
    };
    window.wcag = { parse, ratio, backdrop };
  });
}

/** A small seeded PRNG (mulberry32): random links that are the same on every run, so a failure names a reproducible case. */
export function seededRandom(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * After the n-th Step: wait until n tokens are on the page and every shown stage chart has grown
 * its bars (a chart starts them at height 0, and draws in a later frame than the token's chip),
 * then two frames. What a test that reads the charts waits for, instead of a fixed pause that a
 * loaded machine can outlast.
 */
export async function chartsAfterStep(page, n) {
  await page.waitForFunction((n) => document.querySelectorAll("#chips li").length >= n
    && [...document.querySelectorAll("#stages figure.stage")]
      .filter((f) => f.checkVisibility())
      .every((f) => [...f.querySelectorAll("svg rect.bar")].some((r) => Number(r.getAttribute("height")) > 0)), n);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}
