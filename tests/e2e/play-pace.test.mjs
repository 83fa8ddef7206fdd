// Play's pace, on the page's own clock made virtual (no assertion on this machine's speed): Play at
// N tokens a second starts each Step 1/N s after the previous Step started (a Step's own time is
// not added to the wait), a Step slower than 1/N is followed by a frame (its token drawn) and then
// at once by the next, never two at a time, and Pause stops it within one Step. A Step's cost is
// simulated: adding its chip to the text advances the virtual clock by `cost` ms.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite } from "./harness.mjs";

const open = browserSuite();

/**
 * In the page: replace its clock (performance.now, setTimeout, requestAnimationFrame, a frame every
 * 16 ms) by a virtual one that runs only when `window.virtualClock.run(ms)` is called, and make every
 * chip added to #chips cost `cost` ms. Records each chip's start time and each frame.
 */
function installVirtualClock(cost) {
  const clock = { now: 0, queue: [], nextId: 1, starts: [], frames: [] };
  performance.now = () => clock.now;
  const add = (kind, at, fn) => {
    const id = clock.nextId++;
    clock.queue.push({ id, kind, at, fn });
    return id;
  };
  const remove = (id) => (clock.queue = clock.queue.filter((entry) => entry.id !== id));
  window.setTimeout = (fn, ms = 0) => add("timer", clock.now + Math.max(0, Number(ms) || 0), fn);
  window.clearTimeout = remove;
  window.requestAnimationFrame = (fn) => add("frame", (Math.floor(clock.now / 16) + 1) * 16, fn);
  window.cancelAnimationFrame = remove;
  const chips = document.getElementById("chips");
  const insertBefore = Node.prototype.insertBefore;
  Node.prototype.insertBefore = function (node, child) {
    if (this === chips) {
      clock.starts.push(clock.now);
      clock.now += cost;
    }
    return insertBefore.call(this, node, child);
  };
  /** Run every timer and frame due within `ms`, in order (a frame: the page drawn). */
  clock.run = (ms) => {
    const end = clock.now + ms;
    for (;;) {
      const due = clock.queue.filter((entry) => entry.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (due === undefined) break;
      remove(due.id);
      clock.now = Math.max(clock.now, due.at);
      if (due.kind === "frame") clock.frames.push(clock.now);
      due.fn(clock.now);
    }
    clock.now = Math.max(clock.now, end);
  };
  window.virtualClock = clock;
}

/** Play at `speed` for `ms` of virtual time with each Step costing `cost` ms: its Steps' start times and frames. */
async function play(page, speed, cost, ms) {
  await page.locator("#speed").fill(String(speed));
  return page.evaluate(
    ({ cost, ms, install }) => {
      new Function(`return (${install})`)()(cost);
      document.getElementById("play").click();
      window.virtualClock.run(ms);
      const { starts, frames } = window.virtualClock;
      return { starts, frames, playing: document.getElementById("play").textContent };
    },
    { cost, ms, install: installVirtualClock.toString() },
  );
}

const gaps = (starts) => starts.slice(1).map((start, i) => start - starts[i]);

describe("Play's pace", () => {
  for (const lang of ["en", "zh"]) {
    test(`${lang}: at 10/s a Step that takes 30 ms starts 100 ms after the previous one started`, async () => {
      const { page, context, problems } = await open(`?lang=${lang}`);
      const { starts } = await play(page, 10, 30, 450);
      assert.ok(starts.length >= 4, `Steps played: ${starts}`);
      assert.deepEqual(gaps(starts), gaps(starts).map(() => 100), `gaps between Step starts (ms): ${gaps(starts)}`);
      assert.deepEqual(problems.console, []);
      await context.close();
    });
  }

  test("a Step slower than 1/N: a frame shows its token, then the next Step at once; Pause stops within one Step", async () => {
    const { page, context, problems } = await open("?lang=en");
    const { starts, frames } = await play(page, 10, 250, 800);
    assert.ok(starts.length >= 3, `Steps played: ${starts}`);
    for (let i = 1; i < starts.length; i++) {
      const end = starts[i - 1] + 250;
      assert.ok(frames.some((frame) => frame >= end && frame <= starts[i]), `a frame between Step ${i} (ended ${end}) and Step ${i + 1} (${starts[i]}): ${frames}`);
      // the next Step follows that frame, not 1/N s after it
      assert.ok(starts[i] - end < 100, `Step ${i + 1} started ${starts[i] - end} ms after Step ${i} ended`);
    }
    const stopped = await page.evaluate(() => {
      const clock = window.virtualClock;
      clock.run(120);
      document.getElementById("play").click();
      const count = clock.starts.length;
      clock.run(2000);
      return { before: count, after: clock.starts.length, label: document.getElementById("play").textContent };
    });
    assert.equal(stopped.label, "Play");
    assert.equal(stopped.after, stopped.before, "no Step after Pause");
    assert.deepEqual(problems.console, []);
    await context.close();
  });
});
