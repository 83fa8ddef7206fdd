// What a Step costs the page, as deterministic properties (its speed is tests/bench/page-step.mjs's):
// on a classroom's old PC every layout and every redrawn chart is tens of milliseconds of the Step.
// Projector mode shows one stage chart at a time, so a Step redraws only that one (the others are
// drawn when picked, and show the current step); a Step lays the page out a bounded number of times;
// the address bar, which follows Play at most once a second, holds the current state once Play stops
// and whenever the window loses focus (the way to the address bar, to copy it).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, ownState } from "./harness.mjs";

const open = browserSuite();
const PROJECTOR = { viewport: { width: 1024, height: 768 }, locale: "zh-CN" };

/** The stage charts (data-stage) whose <svg> a click on Step changes, and whether each is shown. */
function chartsAStepChanges() {
  return new Promise((resolve) => {
    const changed = new Set();
    const observer = new MutationObserver((records) => {
      for (const r of records) {
        const figure = (r.target instanceof Element ? r.target : r.target.parentElement)?.closest("#stages figure.stage");
        if (figure && r.target.closest?.("svg") !== null) changed.add(figure.dataset.stage);
      }
    });
    observer.observe(document.getElementById("stages"), { subtree: true, childList: true, attributes: true, characterData: true });
    document.getElementById("step").click();
    queueMicrotask(() => {
      observer.disconnect();
      const figures = [...document.querySelectorAll("#stages figure.stage")];
      resolve({
        changed: [...changed].sort(),
        shown: figures.filter((f) => f.checkVisibility()).map((f) => f.dataset.stage),
        active: figures.filter((f) => !f.hidden).map((f) => f.dataset.stage),
      });
    });
  });
}

/**
 * Each shown stage chart's step, by stage: its token labels, each bar's state and its height as a
 * share of the tallest (projector mode draws the same bars at its own size).
 */
function drawnCharts() {
  const bars = (f) => {
    const rects = [...f.querySelectorAll("svg rect.bar")];
    const tallest = Math.max(...rects.map((r) => Number(r.getAttribute("height"))));
    return rects.map((r) => `${r.getAttribute("class")}:${(Number(r.getAttribute("height")) / tallest).toFixed(3)}`).join("|");
  };
  return Object.fromEntries(
    [...document.querySelectorAll("#stages figure.stage")]
      .filter((f) => f.checkVisibility())
      .map((f) => [f.dataset.stage, `${[...f.querySelectorAll("svg .tick-label")].map((t) => t.textContent).join("|")} ${bars(f)}`]),
  );
}

/** Every shown stage chart has grown its bars (a chart just picked starts them at height 0: read then, every share was 0 / 0). */
function chartsGrown() {
  return [...document.querySelectorAll("#stages figure.stage")]
    .filter((f) => f.checkVisibility())
    .every((f) => [...f.querySelectorAll("svg rect.bar")].some((r) => Number(r.getAttribute("height")) > 0));
}

describe("what a Step costs the page", () => {
  test("projector mode: a Step redraws only the stage chart on screen; each other chart shows the current step when picked, and all do after projector mode", async () => {
    // top-k and top-p on: four stage charts, one shown at a time
    const { page, context, problems } = await open("?lang=zh&projector=1&top_k=5&top_p=0.9", PROJECTOR);
    for (let i = 0; i < 2; i++) await page.evaluate(() => document.getElementById("step").click());
    const step = await page.evaluate(chartsAStepChanges);
    assert.ok(step.active.length >= 4, `stage charts at work: ${step.active}`);
    assert.equal(step.shown.length, 1, `projector mode shows one stage chart: ${step.shown}`);
    assert.deepEqual(step.changed, step.shown, "a Step changes the chart on screen, and no chart projector mode hides");
    // every chart, picked in turn (↑), shows the step on screen, as the normal page draws it
    const picked = {};
    for (let i = 0; i < step.active.length; i++) {
      await page.waitForFunction(chartsGrown);
      Object.assign(picked, await page.evaluate(drawnCharts));
      await page.keyboard.press("ArrowUp");
    }
    await page.keyboard.press("p");
    await page.waitForFunction(() => document.body.dataset.projector === "false");
    await page.waitForFunction(chartsGrown);
    const normal = await page.evaluate(drawnCharts);
    assert.deepEqual(Object.keys(picked).sort(), [...step.active].sort());
    for (const stage of step.active) assert.equal(picked[stage], normal[stage], `${stage}: the chart as picked in projector mode, then on the page`);
    // and one more Step on the normal page redraws every chart
    const after = await page.evaluate(chartsAStepChanges);
    assert.deepEqual(after.changed, [...after.active].sort());
    assert.deepEqual(problems.console, []);
    await context.close();
  });

  test("projector mode: a Step lays the page out at most three times (no layout per chart)", async () => {
    const { page, context } = await open("?lang=zh&projector=1&top_k=5&top_p=0.9", PROJECTOR);
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    const layouts = async () => (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === "LayoutCount").value;
    const counts = [];
    for (let i = 0; i < 4; i++) {
      // settled: the last Step's frame drawn
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
      const before = await layouts();
      // the Step's own task: its layouts are those its code forces (reading a size after a change)
      await page.evaluate(() => document.getElementById("step").click());
      counts.push((await layouts()) - before);
    }
    // two in the Step's task: the text strip's fit (projector-text.ts: a strip that still fits is
    // measured once) and its scroll to the newest token; the charts' text scale is not read again
    // while what is shown stays (projector.ts), and no read falls between two writes. The frame
    // that shows the Step may be drawn before the count is read: one more
    assert.ok(Math.max(...counts) <= 3, `layouts a Step: ${counts}`);
    await context.close();
  });

  test("projector mode's text strip: a Step late in a long text measures it a bounded number of times, and folds the fewest chips that let it fit", async () => {
    // 40 forced word tokens already in the strip (folded), then Steps (no end token before 60)
    const path = Array.from({ length: 40 }, (_, i) => `${400 + i * 37}f`).join(".");
    const { page, context } = await open(`?lang=zh&projector=1&max_new_tokens=512&min_new_tokens=60&seed=7&path=${path}`, PROJECTOR);
    // each measurement of the strip (scrollHeight) lays the page out
    const reads = await page.evaluate(async () => {
      const box = document.getElementById("generated");
      const scrollHeight = Object.getOwnPropertyDescriptor(Element.prototype, "scrollHeight").get;
      let n = 0;
      Object.defineProperty(box, "scrollHeight", { get() { n++; return scrollHeight.call(this); } });
      const counts = [];
      for (let i = 0; i < 8 && !document.getElementById("step").disabled; i++) {
        n = 0;
        document.getElementById("step").click();
        counts.push(n);
      }
      return counts;
    });
    // the fewest oldest chips folded that let the strip fit, found by trying every count from none
    const [folded, fewest] = await page.evaluate(() => {
      const box = document.getElementById("generated");
      const chips = [...document.querySelectorAll("#chips > li")];
      const fold = (n) => chips.forEach((li, i) => {
        li.classList.toggle("pj-folded", i < n);
        li.classList.toggle("pj-after-fold", n > 0 && i === n);
      });
      const shown = chips.filter((li) => li.classList.contains("pj-folded")).length;
      let n = 0;
      for (; n < chips.length - 1; n++) {
        fold(n);
        if (box.scrollHeight <= box.clientHeight + 1) break;
      }
      fold(shown);
      return [shown, n];
    });
    assert.ok(folded > 0, "the text outgrew the strip");
    assert.equal(folded, fewest, "chips folded: the fewest that fit");
    // the fit searches up from the last Step's count (+1, +2, +4, then the one between: at most 5
    // for a Step that folds up to 4 more chips), and projector mode reads it twice more to scroll
    // to its end; a search from none folded read it 9–10 times a Step here (once per halving, twice)
    assert.equal(reads.length, 8);
    assert.ok(Math.max(...reads) <= 7, `measurements of the strip a Step: ${reads}`);
    await context.close();
  });

  test("the address bar holds the current state after Play stops, and when the window loses focus mid-Play", async () => {
    const { page, context } = await open("?lang=en", { viewport: { width: 1366, height: 768 } });
    const path = async () => new URLSearchParams(await ownState(page)).get("path")?.split(".").length ?? 0;
    const chips = () => page.locator("#chips li").count();
    await page.locator("#speed").fill("10");
    await page.getByRole("button", { name: "Play", exact: true }).click();
    await page.waitForFunction(() => document.querySelectorAll("#chips li").length >= 3);
    // mid-Play: the window loses focus (the user goes to the address bar): the address bar is current
    const [shown, written] = await page.evaluate(() => {
      window.dispatchEvent(new Event("blur"));
      return [document.querySelectorAll("#chips li").length, new URLSearchParams(location.search).get("path")?.split(".").length ?? 0];
    });
    assert.equal(written, shown, "the address bar after blur mid-Play");
    // Pause (unless the text has ended meanwhile: Play stopped by itself)
    await page.evaluate(async () => {
      while (document.querySelectorAll("#chips li").length < 6 && document.getElementById("play").textContent === "Pause") await new Promise((resolve) => setTimeout(resolve, 20));
      if (document.getElementById("play").textContent === "Pause") document.getElementById("play").click();
    });
    assert.equal(await page.locator("#play").textContent(), "Play");
    assert.equal(await path(), await chips(), "the address bar after Pause");
    // a reload gives the same text
    const text = await page.locator("#chips").textContent();
    await page.reload();
    await page.waitForSelector("body[data-ready='true']");
    assert.equal(await page.locator("#chips").textContent(), text);
    await context.close();
  });
});
