// `make bench`, the page on a slow classroom PC: how long a Step takes to reach the screen, how a
// temperature drag keeps up, and what Play at its top speed actually shows, on the built page
// (dist/) in Debian's Chromium, in Chinese (zh-CN), with the CPU slowed by CDP's
// Emulation.setCPUThrottlingRate (4× and 6× stand for a 2015 dual-core or a cheap laptop on battery).
//   Step → paint: the Step button clicked in the page (its own clock), then the next frame's
//     requestAnimationFrame, then a task after it: the frame that shows the chosen token has been
//     drawn (style, layout and paint included). 12 Steps from the preset's prompt, the median; and
//     the renderer main thread's CPU time a Step (its schedstat, which the machine's load leaves alone).
//   slider drag: the temperature slider moved one notch at a time (an `input` event each, as a drag
//     sends), each to the frame after it, 16 notches, the median.
//   Play: Play at the top speed (the slider's 10 tokens a second) for 3 s after a Reset: tokens shown per second,
//     and frames over 50 ms (a frame the eye sees as a stall) per second.
// Projector mode at 1024×768 (`projector=1`) and the normal page at 1366×768. Needs `make dist`.
// BENCH_QUICK=1: 3 rounds instead of 5 (BENCH_ROUNDS=n: n); BENCH_FULL=1 adds 6× and the normal
// page (and Play); BENCH_AGAINST=<another build's dist/> measures that build too, interleaved in every
// round (the two in alternating order), with the per-round ratios (this build ÷ that one).
import { loadavg } from "node:os";
import { DIST, launch, openPage, serveDist } from "../e2e/harness.mjs";
import { mainThreadCpu, renderers } from "./renderer-cpu.mjs";

const quick = !!process.env.BENCH_QUICK;
const full = !!process.env.BENCH_FULL;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (quick ? 3 : 5));
const against = process.env.BENCH_AGAINST ?? null;
const STEPS = 12;
const NOTCHES = 16;
const PLAY_MS = 3000;

const PROJECTOR = { name: "projector 1024×768", viewport: { width: 1024, height: 768 }, query: "?lang=zh&projector=1" };
const NORMAL = { name: "page 1366×768", viewport: { width: 1366, height: 768 }, query: "?lang=zh" };

/** The cases measured: a layout, a CPU slowdown, and whether Play is measured too. */
const CASES = [
  { layout: PROJECTOR, rate: 1, play: false },
  { layout: PROJECTOR, rate: 4, play: true },
  ...(full ? [{ layout: PROJECTOR, rate: 6, play: true }, { layout: NORMAL, rate: 1, play: false }, { layout: NORMAL, rate: 4, play: true }] : []),
];

/** In the page: resolves after the frame following now has been drawn (rAF, then a task after it). */
function afterPaintSource() {
  window.afterPaint = () =>
    new Promise((resolve) =>
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve(performance.now());
        channel.port2.postMessage(null);
      }),
    );
}

/** Step → paint (ms) for `STEPS` Steps, each from a settled page. */
async function stepTimes(page) {
  return page.evaluate(async (steps) => {
    const button = document.getElementById("step");
    const chips = () => document.querySelectorAll("#chips li").length;
    const times = [];
    for (let i = 0; i < steps; i++) {
      await window.afterPaint();
      await new Promise((resolve) => setTimeout(resolve, 30));
      const before = chips();
      const start = performance.now();
      button.click();
      const painted = await window.afterPaint();
      if (chips() !== before + 1) throw new Error(`Step ${i + 1}: ${before} chips before, ${chips()} after`);
      times.push(painted - start);
    }
    return times;
  }, STEPS);
}

/** Temperature slider, one notch an `input` event, each to the frame after it (ms). */
async function dragTimes(page) {
  return page.evaluate(async (notches) => {
    const slider = document.getElementById("temperature");
    const out = document.getElementById("temperature-out");
    const times = [];
    let value = Number(slider.value);
    for (let i = 0; i < notches; i++) {
      await window.afterPaint();
      value = Math.round((value + (i < notches / 2 ? 0.05 : -0.05)) * 100) / 100;
      const start = performance.now();
      slider.value = String(value);
      slider.dispatchEvent(new Event("input", { bubbles: true }));
      const painted = await window.afterPaint();
      if (!out.textContent.includes(String(value).replace(/^0\./, "0."))) throw new Error(`temperature shows ${out.textContent}, not ${value}`);
      times.push(painted - start);
    }
    return times;
  }, NOTCHES);
}

/** Play at the top speed for `PLAY_MS`: tokens shown per second and frames over 50 ms per second. */
async function playRates(page) {
  return page.evaluate(async (ms) => {
    // from the prompt again, so the text has room for every token Play can show
    document.getElementById("reset").click();
    await window.afterPaint();
    const speed = document.getElementById("speed");
    speed.value = speed.max;
    speed.dispatchEvent(new Event("input", { bubbles: true }));
    const chips = () => document.querySelectorAll("#chips li").length;
    const before = chips();
    let long = 0;
    let last = performance.now();
    let frames = true;
    const frame = (now) => {
      if (now - last > 50) long++;
      last = now;
      if (frames) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
    const start = performance.now();
    document.getElementById("play").click();
    await new Promise((resolve) => setTimeout(resolve, ms));
    const shown = chips() - before;
    const elapsed = performance.now() - start;
    frames = false;
    document.getElementById("play").click();
    return { tokensPerSecond: (shown * 1000) / elapsed, longFramesPerSecond: (long * 1000) / elapsed, speed: Number(speed.value) };
  }, PLAY_MS);
}

async function measure(browser, url, { layout, rate, play }) {
  const browserCdp = await browser.newBrowserCDPSession();
  const before = new Set(await renderers(browserCdp));
  const { page, context, problems } = await openPage(browser, url, { query: layout.query, viewport: layout.viewport, locale: "zh-CN", reducedMotion: "no-preference", watchRequests: false });
  await page.evaluate(afterPaintSource);
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate });
  const pids = (await renderers(browserCdp)).filter((pid) => !before.has(pid));
  await browserCdp.detach();
  const cpuBefore = mainThreadCpu(pids);
  const step = await stepTimes(page);
  const cpu = (mainThreadCpu(pids) - cpuBefore) / STEPS;
  const drag = await dragTimes(page);
  const played = play ? await playRates(page) : null;
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  if (problems.console.length > 0) throw new Error(`console errors: ${problems.console.join(" | ")}`);
  await context.close();
  return { step: median(step), drag: median(drag), played, cpu };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => `${Math.round(x)} ms`;
const label = ({ layout, rate }) => `${layout.name}, ${rate}× CPU`;

const builds = [{ name: "this build", dist: process.env.BENCH_DIST ?? DIST }];
if (against !== null) builds.push({ name: `against ${against}`, dist: against });
const servers = await Promise.all(builds.map((b) => serveDist(b.dist)));
const browser = await launch();
try {
  // runs[build][case] = one result a round
  const runs = builds.map(() => CASES.map(() => []));
  const loads = [];
  for (let round = 0; round < ROUNDS; round++) {
    loads.push(loadavg()[0].toFixed(1));
    const order = round % 2 === 0 ? builds.map((_, i) => i) : builds.map((_, i) => i).reverse();
    for (const [c, kase] of CASES.entries()) for (const i of order) runs[i][c].push(await measure(browser, servers[i].url, kase));
  }
  console.log(`\npage step (zh-CN, Chromium, CDP CPU throttling; medians of ${ROUNDS} rounds${quick ? ", BENCH_QUICK" : ""}; each round's number the median of ${STEPS} Steps / ${NOTCHES} slider notches)`);
  for (const [b, build] of builds.entries()) {
    console.log(`${build.name}:`);
    for (const [c, kase] of CASES.entries()) {
      const rs = runs[b][c];
      const play = kase.play
        ? `; Play at ${rs[0].played.speed}/s shows ${median(rs.map((r) => r.played.tokensPerSecond)).toFixed(1)} tokens/s, ${median(rs.map((r) => r.played.longFramesPerSecond)).toFixed(1)} frames > 50 ms per s`
        : "";
      console.log(`  ${label(kase)}: Step → paint ${ms(median(rs.map((r) => r.step)))} (renderer main-thread CPU ${ms(median(rs.map((r) => r.cpu)))} a Step); slider drag (input → paint) ${ms(median(rs.map((r) => r.drag)))}${play}`);
    }
  }
  if (against !== null) {
    console.log("this ÷ against, paired by round (median, then each round):");
    const show = (xs) => `${median(xs).toFixed(2)} (${xs.map((x) => x.toFixed(2)).join(", ")})`;
    for (const [c, kase] of CASES.entries()) {
      const ratio = (key) => runs[0][c].map((r, k) => r[key] / runs[1][c][k][key]);
      console.log(`  ${label(kase)}: Step → paint ${show(ratio("step"))}; CPU a Step ${show(ratio("cpu"))}; slider drag ${show(ratio("drag"))}`);
    }
  }
  console.log(`load average (1 min) at each round: ${loads.join(", ")}`);
} finally {
  await browser.close();
  await Promise.all(servers.map((s) => s.close()));
}
