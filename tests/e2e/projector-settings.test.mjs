// A teacher in projector mode changes temperature, top-k and top-p (and greedy on/off) without
// leaving it: the header's Settings button opens a row of large controls between the chart and the
// final strip. Each change, from the keyboard and with a pointer, moves the chart and the key numbers
// at once, and the sidebar's slider, the address bar and the Share link say the same value (one
// state, no second copy). Nothing overlaps, nothing scrolls, the type stays at the mode's minimum,
// at 1024×768 (zh) and 1280×720 (en); a finger's drag on a slider at 853×533 moves it and keeps the
// page. Screenshots go to /tmp/projector16/ (look at them).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { browserSuite, installWcag } from "./harness.mjs";
import { fitProblems } from "./fit.mjs";

const open = browserSuite();
const SHOTS = "/tmp/projector16";
mkdirSync(SHOTS, { recursive: true });

const NAMES = {
  zh: { settings: "设置", greedy: "贪心", temperature: "温度", topK: "Top-k", topP: "Top-p", greedyU: "无（贪心）" },
  en: { settings: "Settings", greedy: "Greedy", temperature: "Temperature", topK: "Top-k", topP: "Top-p", greedyU: "none (greedy)" },
};
/** The parameter each slider sets: its name in the page's link and its sidebar twin's id. */
const PARAMS = { temperature: ["temperature", "temperature"], topK: ["top_k", "top-k"], topP: ["top_p", "top-p"] };

/** What the class sees of the step: the enlarged chart's text, the strip's, the key numbers. */
const SHOWN = ["#stages .stage.pj-focus svg", "#final svg", "#projector-nums"];
const onScreen = (page) => page.evaluate((parts) => parts.map((s) => document.querySelector(s)?.textContent ?? "").join(" | "), SHOWN);

/** The chart and the key numbers change from `before` (drawn in the next frames, so waited for). */
async function changes(page, before, what) {
  const changed = await page
    .waitForFunction(([parts, before]) => parts.map((s) => document.querySelector(s)?.textContent ?? "").join(" | ") !== before, [SHOWN, before], { timeout: 5000 })
    .then(() => true, () => false);
  assert.ok(changed, `${what}: the chart and the key numbers stayed as they were`);
}

/** One parameter as the sidebar, the address bar and the Share dialog's link hold it. */
async function everywhere(page, param, sidebarId) {
  return page.evaluate(
    async ([param, sidebarId]) => {
      const fromLink = (href) => {
        const url = new URL(href, location.href);
        return new URLSearchParams(url.search || url.hash.slice(1)).get(param);
      };
      document.getElementById("share-open").click();
      const share = fromLink(document.getElementById("share-link").value);
      document.getElementById("share-close").click();
      return { sidebar: document.getElementById(sidebarId).value, address: fromLink(location.href), share };
    },
    [param, sidebarId],
  );
}

/** The row's slider, the sidebar's, the address bar and the Share link all say `value`. */
async function agrees(page, slider, key, value) {
  const [param, sidebarId] = PARAMS[key];
  assert.equal(Number(await slider.inputValue()), value, `${key}: the row's slider`);
  await page.waitForFunction(([p, v]) => Number(new URLSearchParams(location.search || location.hash.slice(1)).get(p)) === v, [param, value]);
  const seen = await everywhere(page, param, sidebarId);
  assert.deepEqual({ sidebar: Number(seen.sidebar), address: Number(seen.address), share: Number(seen.share) }, { sidebar: value, address: value, share: value }, key);
}

/** The focused control's id (or tag), or null when focus is on the page itself. */
function focusedControl() {
  const active = document.activeElement;
  return active === null || active === document.body ? null : active.id || active.tagName;
}

/** What a failed step is explained by: focus, open dialogs, the chips, the notices shown. */
function pageState() {
  return {
    focused: document.activeElement?.id || document.activeElement?.tagName,
    dialogs: [...document.querySelectorAll("dialog[open]")].map((d) => d.id),
    chips: document.querySelectorAll("#chips li").length,
    notices: [...document.querySelectorAll("[role='status'], [role='alert'], .notice")].filter((n) => n.checkVisibility() && n.textContent.trim() !== "").map((n) => n.textContent.trim().slice(0, 160)),
    body: { ...document.body.dataset },
    link: location.search.slice(0, 400),
  };
}

/**
 * Main view boxes: inside the screen, and the settings row overlaps none of them. Under 641 px high
 * the row takes the strip's place (projector-small.css: under it the chart was a sliver).
 */
function layout() {
  const box = (s) => document.querySelector(s)?.getBoundingClientRect() ?? null;
  const row = box("#projector-controls");
  const short = innerHeight <= 640;
  const parts = { chart: "#stages .stage.pj-focus", numbers: "#projector-nums", ...(short ? {} : { strip: "#final" }), step: "#step", text: ".text-card", nav: ".projector-nav" };
  const problems = [];
  if (row === null || row.height < 2) return ["the settings row is not shown"];
  for (const [name, s] of Object.entries({ row: "#projector-controls", ...parts })) {
    const r = box(s);
    if (r === null || r.height < 2) problems.push(`${name} not shown`);
    else if (r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5) problems.push(`${name} off screen`);
  }
  for (const [name, s] of Object.entries(parts)) {
    const r = box(s);
    if (r === null) continue;
    const dx = Math.min(r.right, row.right) - Math.max(r.left, row.left);
    const dy = Math.min(r.bottom, row.bottom) - Math.max(r.top, row.top);
    if (dx > 0.5 && dy > 0.5) problems.push(`the settings row covers ${name}`);
  }
  // chart text on screen: at least 18.5 px and 0.72 of the page's type (views/projector.ts)
  const least = Math.max(18.5, 0.72 * parseFloat(getComputedStyle(document.documentElement).fontSize)) - 0.1;
  for (const text of document.querySelectorAll("svg.chart text")) {
    if (!text.checkVisibility() || text.textContent.trim() === "") continue;
    const px = parseFloat(getComputedStyle(text).fontSize) * Math.hypot(text.getScreenCTM().a, text.getScreenCTM().b);
    if (px < least) problems.push(`chart text ${text.textContent.trim().slice(0, 12)} ${px.toFixed(1)}px`);
  }
  // the row's words at AA contrast against what is behind them (a control greedy dims too)
  const { parse, ratio, backdrop } = window.wcag;
  for (const el of document.querySelectorAll("#projector-controls :is(label, output, button)")) {
    const fg = parse(getComputedStyle(el).color);
    const r = ratio(fg, backdrop(el));
    if (r < 4.5) problems.push(`“${el.textContent.trim()}” at ${r.toFixed(2)}:1`);
  }
  // every control of the row a finger's target
  for (const control of document.querySelectorAll("#projector-controls :is(button, input)")) {
    const r = control.getBoundingClientRect();
    if (r.width < 24 || r.height < 24) problems.push(`${control.id} is ${r.width.toFixed(0)}×${r.height.toFixed(0)}`);
  }
  return problems;
}

for (const [lang, viewport] of [
  ["zh", { width: 1024, height: 768 }],
  ["en", { width: 1280, height: 720 }],
]) {
  const n = NAMES[lang];
  const size = `${viewport.width}x${viewport.height}`;
  describe(`projector mode ${lang} ${viewport.width}×${viewport.height}: temperature, top-k and top-p on screen`, () => {
    test("from the keyboard: Settings opens the row, Tab reaches each slider, the arrows change it (never a Step), the chart follows, Esc closes it", async () => {
      const { page, context, problems } = await open(`?projector=1&lang=${lang}`, { viewport });
      await installWcag(page);
      await page.locator("#step").click();
      await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
      const toggle = page.getByRole("button", { name: n.settings, exact: true });
      assert.equal(await toggle.getAttribute("aria-expanded"), "false");
      assert.equal(await page.getByRole("slider", { name: n.temperature }).count(), 0, "the row is closed at first");
      await page.screenshot({ path: `${SHOTS}/${size}-${lang}-closed.png` });
      await toggle.focus();
      await page.keyboard.press("Enter");
      assert.equal(await toggle.getAttribute("aria-expanded"), "true");
      const greedy = page.getByRole("button", { name: n.greedy, exact: true });
      assert.ok(await greedy.evaluate((el) => el === document.activeElement), "focus goes into the row");
      assert.deepEqual(await page.evaluate(fitProblems, { minPx: 24 }), [], "opened: one screen, nothing cut or overlapping, type ≥ 24px");
      assert.deepEqual(await page.evaluate(layout), []);
      // the values beside the sliders are not live regions (the slider says its new value once)
      assert.equal(await page.locator("#projector-controls output:not([aria-live='off'])").count(), 0);

      // the chapter's demonstration: the temperature up, and the distribution on screen changes
      const moves = [
        ["temperature", "ArrowRight", 4, 0.8 + 4 * 0.05],
        ["topK", "ArrowRight", 3, 3],
        ["topP", "ArrowLeft", 5, 0.85],
      ];
      for (const [key, arrow, times, value] of moves) {
        await page.keyboard.press("Tab");
        const slider = page.getByRole("slider", { name: n[key], exact: true });
        assert.ok(await slider.evaluate((el) => el === document.activeElement), `Tab reaches ${key}`);
        const before = await onScreen(page);
        for (let i = 0; i < times; i++) await page.keyboard.press(arrow);
        await agrees(page, slider, key, Number(value.toFixed(2)));
        await changes(page, before, key);
        assert.equal(await page.locator("#chips li").count(), 1, `${key}: the arrows changed the slider, they took no Step nor Back`);
      }
      assert.equal(await page.locator("#projector-controls output").first().textContent(), "1", "the row shows T 1");
      await page.screenshot({ path: `${SHOTS}/${size}-${lang}-keyboard.png` });
      assert.deepEqual(await page.evaluate(fitProblems, { minPx: 24 }), []);
      assert.deepEqual(await page.evaluate(layout), []);

      // Esc closes the row and gives focus back to its button
      await page.keyboard.press("Escape");
      assert.equal(await toggle.getAttribute("aria-expanded"), "false");
      assert.ok(await toggle.evaluate((el) => el === document.activeElement), "focus back on Settings");
      assert.equal(await page.getByRole("slider", { name: n.temperature }).count(), 0);
      assert.deepEqual(problems, { console: [], foreign: [] });
      await context.close();
    });

    test("with a pointer: a click and a drag on each slider, Greedy on and off; each the sidebar's value, the link's, the chart's", async () => {
      const { page, context, problems } = await open(`?projector=1&lang=${lang}`, { viewport });
      await installWcag(page);
      await page.locator("#step").click();
      await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
      await page.getByRole("button", { name: n.settings, exact: true }).click();
      for (const [key, from, to] of [
        // (clicked away from the thumb: T 0.8 of 2, top-k 0, top-p 0.9)
        ["temperature", 0.9, 0.55],
        ["topK", 0.3, 0.6],
        ["topP", 0.3, 0.7],
      ]) {
        const slider = page.getByRole("slider", { name: n[key], exact: true });
        const box = await slider.boundingBox();
        const at = (f) => box.x + 10 + (box.width - 20) * f;
        const y = box.y + box.height / 2;
        // a click, then a drag from there
        let before = await onScreen(page);
        await page.mouse.click(at(from), y);
        const clicked = Number(await slider.inputValue());
        await agrees(page, slider, key, clicked);
        await changes(page, before, `${key}, a click`);
        before = await onScreen(page);
        await page.mouse.move(at(from), y);
        await page.mouse.down();
        for (let i = 1; i <= 5; i++) await page.mouse.move(at(from + ((to - from) * i) / 5), y);
        await page.mouse.up();
        const dragged = Number(await slider.inputValue());
        assert.notEqual(dragged, clicked, `${key}: the drag moved the slider`);
        await agrees(page, slider, key, dragged);
        await changes(page, before, `${key}, a drag`);
      }
      assert.equal(await page.locator("#chips li").count(), 1, "no Step was taken");
      // the mouse let go of the slider: the teacher's → now steps, under the settings just set
      const set = Number(await page.getByRole("slider", { name: n.topP, exact: true }).inputValue());
      assert.equal(await page.evaluate(focusedControl), null, "after the drag no control keeps focus (the slider lets go on pointerup)");
      await page.keyboard.press("ArrowRight");
      const stepped = await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 2, null, { timeout: 10_000 }).then(() => true, () => false);
      assert.ok(stepped, `→ took no step; the page: ${JSON.stringify(await page.evaluate(pageState))}`);
      assert.equal(Number(await page.getByRole("slider", { name: n.topP, exact: true }).inputValue()), set, "→ moved the slider");

      // Greedy on: u is "none (greedy)", the sliders are dimmed and say why; off again: a draw
      const greedy = page.getByRole("button", { name: n.greedy, exact: true });
      await greedy.click();
      assert.equal(await greedy.getAttribute("aria-pressed"), "true");
      await page.waitForFunction(() => new URLSearchParams(location.search || location.hash.slice(1)).get("strategy") === "greedy");
      assert.equal(await page.locator("#strategy").inputValue(), "greedy", "the sidebar's strategy");
      assert.equal((await page.locator("#projector-nums .pj-u dd").textContent()).trim(), n.greedyU);
      const slider = page.getByRole("slider", { name: n.temperature, exact: true });
      assert.equal(await slider.evaluate((el) => el.closest(".pj-control").hasAttribute("data-skipped")), true, "greedy dims the sliders");
      assert.equal(await slider.getAttribute("aria-describedby"), "greedy-note");
      await page.screenshot({ path: `${SHOTS}/${size}-${lang}-greedy.png` });
      assert.deepEqual(await page.evaluate(fitProblems, { minPx: 24 }), []);
      assert.deepEqual(await page.evaluate(layout), []);
      await greedy.click();
      assert.equal(await greedy.getAttribute("aria-pressed"), "false");
      assert.equal(await page.locator("#strategy").inputValue(), "sample");
      assert.match((await page.locator("#projector-nums .pj-u dd").textContent()).trim(), /^0\.\d+$/);
      await page.screenshot({ path: `${SHOTS}/${size}-${lang}-pointer.png` });
      assert.deepEqual(problems, { console: [], foreign: [] });
      await context.close();
    });
  });
}

describe("the engines: a slider is offered as the sidebar offers it", () => {
  test("en 1280×720: under each engine the row's sliders are enabled or dimmed exactly as the sidebar's", async () => {
    const { page, context } = await open("?projector=1&lang=en", { viewport: { width: 1280, height: 720 } });
    await page.getByRole("button", { name: "Settings", exact: true }).click();
    for (const engine of ["hf", "llama.cpp", "vllm"]) {
      await page.evaluate((engine) => {
        const select = document.getElementById("engine");
        select.value = engine;
        select.dispatchEvent(new Event("change"));
      }, engine);
      const states = await page.evaluate(() =>
        ["temperature", "top-k", "top-p"].map((id) => [id, document.getElementById(id).disabled, document.getElementById(`pj-${id}`).disabled]),
      );
      for (const [id, sidebar, own] of states) assert.equal(own, sidebar, `${engine} ${id}`);
    }
    await context.close();
  });
});

describe("a finger on a touch board", () => {
  for (const lang of ["zh", "en"]) {
    test(`${lang} 853×533 (1280×800 at 150 %): a sideways drag on the temperature slider moves it, stays on the page, takes no Step; nothing overlaps`, async () => {
      const { page, context, problems } = await open(`?projector=1&lang=${lang}`, { viewport: { width: 853, height: 533 }, deviceScaleFactor: 1.5, hasTouch: true });
      await installWcag(page);
      await page.locator("#step").tap();
      await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
      await page.getByRole("button", { name: NAMES[lang].settings, exact: true }).tap();
      assert.deepEqual(await page.evaluate(fitProblems, { minPx: 18 }), []);
      assert.deepEqual(await page.evaluate(layout), []);
      await page.evaluate(() => (window.stillHere = true));
      const slider = page.getByRole("slider", { name: NAMES[lang].temperature, exact: true });
      const box = await slider.boundingBox();
      const y = box.y + box.height / 2;
      const cdp = await context.newCDPSession(page);
      await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x: box.x + box.width * 0.3, y }] });
      for (let i = 1; i <= 10; i++) {
        await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x: box.x + box.width * (0.3 + 0.06 * i), y }] });
        await page.waitForTimeout(16);
      }
      await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
      await page.waitForTimeout(300);
      assert.equal(await page.evaluate(() => window.stillHere === true), true, "the page was left");
      const value = Number(await slider.inputValue());
      assert.ok(value > 1.2, `the drag moved the temperature to ${value}`);
      await agrees(page, slider, "temperature", value);
      assert.equal(await page.locator("#chips li").count(), 1);
      await page.screenshot({ path: `${SHOTS}/853x533-${lang}-touch.png` });
      assert.deepEqual(problems, { console: [], foreign: [] });
      await context.close();
    });
  }
});
