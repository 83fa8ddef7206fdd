// `make bench`, page half: issue 10's page target, "a link with 32 branches of 127 forced tokens
// ready in ≤ 1 s", on the built page (dist/) in Debian's Chromium. The link is one the page itself
// writes: the model source, prompt "a", 32 paths (the first path and 31 branches forking at its
// start) of 127 forced tokens each, drawn from the whole vocabulary (ids 300–7999: words, nearly
// all outside the listed candidates) — 4,064 tokens, just under the link's 4,096, and every path
// fills the model's 128-token context exactly. Measured by the page's own clock from navigation
// start (the page, the wasm and the model loading included): when body[data-ready] is set, and
// when every path is in (the paths not on screen are rebuilt after ready, replay.ts's Backfill).
// The same page without paths is measured alongside, in alternating runs; medians.
// Needs `make dist` first. BENCH_QUICK=1 runs 3 rounds instead of 7 (BENCH_ROUNDS=n: n).
// BENCH_AGAINST=<another build's dist/> measures that build too, interleaved in every round (the
// two builds in alternating order), and prints each build's medians and the per-round ratios
// (this build ÷ that one): a change measured against main under the same load. BENCH_READY_ONLY=1
// does not wait for every path (the chips and tree on screen are still checked); BENCH_DIST=<dir>
// measures that build as "this build" instead of dist/. Otherwise the JS
// heap and the renderer's resident memory are read once every path is in (after a collection).
// No request goes through Playwright's routing (it delays each by a round trip to Node, hundreds
// of ms under load, which is not the page's time); BENCH_ROUTED=1 routes them as the browser tests do.
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { DIST, launch, openPage, seededRandom, serveDist } from "../e2e/harness.mjs";
import { mainThreadCpu, renderers } from "./renderer-cpu.mjs";

const quick = !!process.env.BENCH_QUICK;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (quick ? 3 : 7));
const against = process.env.BENCH_AGAINST ?? null;
const readyOnly = !!process.env.BENCH_READY_ONLY;
const routed = !!process.env.BENCH_ROUTED;
const PATHS = 32;
const TOKENS = 127;

function link() {
  const next = seededRandom(10);
  const forced = () => Array.from({ length: TOKENS }, () => `${300 + Math.floor(next() * 7700)}f`).join(".");
  const query = new URLSearchParams({ lang: "en", source: "model", prompt: "a", max_new_tokens: "512", path: forced() });
  for (let b = 1; b < PATHS; b++) query.append("branch", `0_0_${forced()}`);
  return `?${query}`;
}

/** What the bench server does when the page asks for /bench-ready (the measurement under way). */
let onBenchReady = async () => undefined;

/**
 * Records, by the page's clock, when it became ready, and then the renderer's CPU time while the
 * page waits on a synchronous request to the bench's own server (/bench-ready): nothing of the
 * page runs meanwhile (the paths not on screen start being rebuilt right after ready). No request
 * is routed through Playwright (that costs every request a round trip to this process): the
 * server itself takes the long link (`maxHeaderSize`) and answers /bench-ready.
 */
async function markReady(page) {
  await page.addInitScript(() => {
    new MutationObserver(() => {
      if (document.body?.dataset.ready !== "true" || window.readyAt !== undefined) return;
      window.readyAt = performance.now();
      const request = new XMLHttpRequest();
      request.open("GET", "bench-ready", false);
      request.send();
    }).observe(document, { attributes: true, subtree: true });
  });
}

/** The bench's server over `dist`: long links served as they are, /bench-ready answered once measured. */
function serveBench(dist) {
  return serveDist(dist, {
    maxHeaderSize: 1 << 22,
    handle(path, res) {
      if (path !== "/bench-ready") return false;
      void onBenchReady().then(() => res.writeHead(200, { "content-type": "text/plain", "cache-control": "no-store" }).end(""));
      return true;
    },
  });
}

/** Resident memory (MB) of the renderer processes `pids` (Linux: VmRSS), NaN elsewhere. */
function residentMb(pids) {
  try {
    return pids.reduce((sum, pid) => sum + Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN) / 1024, 0);
  } catch {
    return NaN;
  }
}

async function measure(browser, { url }, query, paths) {
  const cdp = await browser.newBrowserCDPSession();
  const before = new Set(await renderers(cdp));
  let cpu = NaN;
  let pids = [];
  onBenchReady = async () => {
    pids = (await renderers(cdp)).filter((pid) => !before.has(pid));
    cpu = mainThreadCpu(pids);
  };
  const { page, context, problems } = await openPage(browser, url, { query, beforeGoto: markReady, watchRequests: routed });
  await cdp.detach();
  const readyAt = await page.evaluate(() => window.readyAt);
  // the page's own marks (main.ts): the core compiled, the model's bytes in, the model made, the link replayed, drawn
  const marks = await page.evaluate(() => Object.fromEntries(performance.getEntriesByType("mark").filter((m) => m.name.startsWith("nexttoken:")).map((m) => [m.name.slice(10), m.startTime])));
  let allAt = readyAt;
  let tree = 0;
  let chips = 0;
  if (paths) {
    // every path rebuilt: no tree entry still waits ("…")
    if (!readyOnly) await page.waitForFunction(() => ![...document.querySelectorAll("#tree .logp")].some((e) => e.textContent === "…"), null, { polling: 20, timeout: 120_000 });
    allAt = await page.evaluate(() => performance.now());
    tree = await page.locator("#tree button").count();
    chips = await page.locator("#chips li").count();
  }
  // memory once everything is in and collected: the JS heap (typed arrays' stores included where
  // Chromium reports them) and the renderer's resident set
  let heapMb = NaN;
  let rssMb = NaN;
  if (!readyOnly || !paths) {
    const session = await context.newCDPSession(page);
    await session.send("HeapProfiler.collectGarbage");
    const usage = await session.send("Runtime.getHeapUsage");
    heapMb = (usage.usedSize + (usage.backingStorageSize ?? 0)) / 2 ** 20;
    rssMb = residentMb(pids);
    await session.detach();
  }
  if (problems.console.length > 0) throw new Error(`console errors: ${problems.console.join(" | ")}`);
  await context.close();
  return { readyAt, allAt, tree, chips, marks, cpu, heapMb, rssMb };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${Math.round(x)} ms`;

/** One build's runs: the link and the page alone, a list each. */
function summary(name, linked, plain) {
  const ready = median(linked.map((r) => r.readyAt));
  const alone = median(plain.map((r) => r.readyAt));
  const all = readyOnly ? "" : `; every path in ${ms(median(linked.map((r) => r.allAt)))}`;
  console.log(`${name}: ready ${ms(ready)} (target ≤ 1,000 ms: ${ready <= 1000 ? "met" : "not met"}); the page alone ${ms(alone)}; link − alone ${ms(ready - alone)}${all}`);
  const phases = (runs) => ["core", "model-bytes", "model", "link", "ready"].map((mark) => `${mark} ${ms(median(runs.map((r) => r.marks[mark] ?? NaN)))}`).join(", ");
  console.log(`  marks (medians, from navigation start): link ${phases(linked)}; alone ${phases(plain)}`);
  console.log(`  runs: ready ${linked.map((r) => Math.round(r.readyAt)).join(", ")} ms; alone ${plain.map((r) => Math.round(r.readyAt)).join(", ")} ms`);
  const cpuLink = median(linked.map((r) => r.cpu));
  const cpuAlone = median(plain.map((r) => r.cpu));
  console.log(`  renderer main-thread CPU until ready (medians): link ${ms(cpuLink)}, alone ${ms(cpuAlone)}, link − alone ${ms(cpuLink - cpuAlone)}`);
  if (!readyOnly) {
    const mb = (runs, key) => `${median(runs.map((r) => r[key])).toFixed(1)} MB`;
    console.log(`  memory after every path is in, collected (medians): JS heap ${mb(linked, "heapMb")} (alone ${mb(plain, "heapMb")}), renderer resident ${mb(linked, "rssMb")} (alone ${mb(plain, "rssMb")})`);
  }
}

const builds = [{ name: "this build", dist: process.env.BENCH_DIST ?? DIST }];
if (against !== null) builds.push({ name: `against ${against}`, dist: against });
const servers = await Promise.all(builds.map((b) => serveBench(b.dist)));
const browser = await launch();
try {
  const query = link();
  const runs = builds.map(() => ({ plain: [], linked: [] }));
  const loads = [];
  for (let round = 0; round < ROUNDS; round++) {
    loads.push(loadavg()[0].toFixed(1));
    // alternate which build goes first, so neither always meets the same moment of the load
    const order = round % 2 === 0 ? builds.map((_, i) => i) : builds.map((_, i) => i).reverse();
    for (const i of order) {
      const at = { url: servers[i].url, dist: builds[i].dist };
      runs[i].plain.push(await measure(browser, at, "?lang=en&source=model&prompt=a", false));
      runs[i].linked.push(await measure(browser, at, query, true));
    }
  }
  for (const { linked } of runs) {
    const last = linked.at(-1);
    if (last.tree !== PATHS || last.chips !== TOKENS) throw new Error(`expected ${PATHS} paths and ${TOKENS} chips on screen, got ${last.tree} and ${last.chips}`);
  }
  console.log(`\npage link (${PATHS} paths × ${TOKENS} forced tokens, model source, ${query.length.toLocaleString("en")}-character link; Chromium, medians of ${ROUNDS}${quick ? ", BENCH_QUICK" : ""})`);
  builds.forEach((b, i) => summary(b.name, runs[i].linked, runs[i].plain));
  if (against !== null) {
    const ratios = (key, pick) => runs[0][key].map((r, k) => pick(r) / pick(runs[1][key][k]));
    const show = (xs) => `median ${median(xs).toFixed(2)} (${xs.map((x) => x.toFixed(2)).join(", ")})`;
    console.log(`this ÷ against, paired by round: ready with the link ${show(ratios("linked", (r) => r.readyAt))}; the page alone ${show(ratios("plain", (r) => r.readyAt))}`);
    console.log(`  main-thread CPU until ready: with the link ${show(ratios("linked", (r) => r.cpu))}; alone ${show(ratios("plain", (r) => r.cpu))}`);
    const linkCost = (r) => (r.marks.link ?? NaN) - (r.marks.model ?? NaN);
    const drawCost = (r) => (r.marks.ready ?? NaN) - (r.marks.link ?? NaN);
    if (!readyOnly) console.log(`  memory after every path is in (JS heap, renderer resident): ${show(ratios("linked", (r) => r.heapMb))}; ${show(ratios("linked", (r) => r.rssMb))}`);
    console.log(`  the link's replay (mark link − model) ${show(ratios("linked", linkCost))}; drawing (ready − link) ${show(ratios("linked", drawCost))}; making the model (model − model-bytes) ${show(ratios("linked", (r) => r.marks.model - r.marks["model-bytes"]))}`);
  }
  console.log(`load average (1 min) at each round: ${loads.join(", ")}`);
} finally {
  await browser.close();
  await Promise.all(servers.map((s) => s.close()));
}
