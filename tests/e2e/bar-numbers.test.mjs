// The numbers over a chart's bars, in Chromium: in projector mode at 1024×768 and up no number sits
// on the p line or touches the top-p running total's curve, its dots or the line; a 100% bar's number
// is written above the bar, legible (≥ 4.5:1), in the normal page and in projector mode.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, installWcag, screenshot } from "./harness.mjs";

const open = browserSuite();

/** Value labels over the bars that cross a threshold / cut line of the same chart (boxes as drawn). */
function labelsOnLines() {
  const out = [];
  for (const svg of document.querySelectorAll("svg.chart")) {
    if (!svg.checkVisibility()) continue;
    const lines = [...svg.querySelectorAll(".threshold line, .cut line")].map((l) => l.getBoundingClientRect());
    for (const text of svg.querySelectorAll(".values text")) {
      const b = text.getBoundingClientRect();
      for (const l of lines) {
        if (b.left < l.right && l.left < b.right && b.top < l.bottom + 1 && l.top - 1 < b.bottom) out.push(`${text.textContent} at ${Math.round(b.top)}–${Math.round(b.bottom)}, line at ${Math.round(l.top)}`);
      }
    }
  }
  return out;
}

describe("projector at 1024×768: a bar's number never sits on the p line", () => {
  for (const lang of ["zh", "en"]) {
    test(`${lang}: the opening top-p chart (85.7 % just under p = 0.9), and at p = 0.95 and 0.99`, async () => {
      for (const topP of [null, 0.95, 0.99, 0.86]) {
        const query = `?lang=${lang}&projector=1${topP === null ? "" : `&top_p=${topP}`}`;
        const { page, context } = await open(query, { viewport: { width: 1024, height: 768 } });
        const shown = await page.evaluate(() => [...document.querySelectorAll("svg.chart")].some((s) => s.checkVisibility() && s.querySelector(".threshold line") !== null));
        assert.ok(shown, `${query}: the top-p chart is the one on screen`);
        if (topP === null) await screenshot(page, `qa-projector-topp-${lang}.png`);
        assert.deepEqual(await page.evaluate(labelsOnLines), [], `${query}: numbers on the p line`);
        // the number is still written (moved, not dropped) and stays inside the chart's box
        const inside = await page.evaluate(() => {
          const svg = [...document.querySelectorAll("svg.chart")].find((s) => s.checkVisibility() && s.querySelector(".threshold line"));
          const box = svg.closest("figure, .stage")?.getBoundingClientRect() ?? svg.getBoundingClientRect();
          return [...svg.querySelectorAll(".values text")].map((t) => {
            const b = t.getBoundingClientRect();
            return b.top >= box.top - 1 && b.bottom <= box.bottom + 1 ? "" : t.textContent;
          });
        });
        assert.ok(inside.length > 0, `${query}: numbers are written`);
        assert.deepEqual(inside.filter((s) => s !== ""), [], `${query}: numbers outside the chart`);
        await context.close();
      }
    });
  }
});

describe("projector mode: the numbers over the top-p bars keep clear of the running total's curve", () => {
  for (const lang of ["en", "zh"]) {
    for (const [width, height] of [[1024, 768], [1280, 800]]) {
      test(`${lang} ${width}×${height}: no number touches the curve, its dots or the p line`, async () => {
        const prompts = lang === "en" ? ["", `&prompt=${encodeURIComponent("The capital of China is")}`] : ["", `&prompt=${encodeURIComponent("中国的首都是")}`];
        for (const prompt of prompts) {
          const { page, context } = await open(`?lang=${lang}&projector=1${prompt}`, { viewport: { width, height } });
          await page.waitForTimeout(200);
          const touching = await page.evaluate(() => {
            const svg = document.querySelector('[data-stage="top_p"] svg');
            const path = svg.querySelector(".cum-curve");
            const ctm = path.getScreenCTM();
            const points = [];
            for (let l = 0; l <= path.getTotalLength(); l += 0.5) {
              const p = path.getPointAtLength(l);
              points.push(new DOMPoint(p.x, p.y).matrixTransform(ctm));
            }
            const dots = [...svg.querySelectorAll(".cum-dots circle")].map((c) => c.getBoundingClientRect());
            const rule = svg.querySelector(".threshold line").getBoundingClientRect();
            const out = [];
            for (const text of svg.querySelectorAll("text.value")) {
              const r = text.getBoundingClientRect();
              const near = (x, y) => x >= r.left - 1 && x <= r.right + 1 && y >= r.top - 1 && y <= r.bottom + 1;
              if (points.some((p) => near(p.x, p.y))) out.push(`${text.textContent} on the curve`);
              if (dots.some((d) => !(d.right < r.left || d.left > r.right || d.bottom < r.top || d.top > r.bottom))) out.push(`${text.textContent} on a dot`);
              if (rule.top >= r.top - 1 && rule.top <= r.bottom + 1 && rule.left <= r.right && rule.right >= r.left) out.push(`${text.textContent} on the p line`);
            }
            return out;
          });
          await screenshot(page, `qa3-projector-top-p-${lang}-${width}${prompt === "" ? "" : "-prompt"}.png`);
          assert.deepEqual(touching, [], `${lang} ${width}×${height} ${prompt}`);
          await context.close();
        }
      });
    }
  }
});

describe("a 100% bar's number is written above the bar, legible", () => {
  for (const [mode, query, viewport] of [
    ["normal", "", { width: 1280, height: 900 }],
    ["projector", "&projector=1", { width: 1024, height: 768 }],
  ]) {
    for (const lang of ["zh", "en"]) {
      test(`${mode} mode (${lang}): top-k 1 leaves top-p one token at 100%; its number sits over the bar and the curve, inside the chart, at AA contrast`, async () => {
        const { page, context } = await open(`?lang=${lang}&top_k=1&top_p=0.9${query}`, { viewport });
        await page.getByRole("button", { name: lang === "zh" ? "单步" : "Step", exact: true }).click();
        const figure = page.locator('figure[data-stage="top_p"]');
        await figure.scrollIntoViewIfNeeded();
        await installWcag(page);
        const m = await figure.evaluate((fig) => {
          const value = [...fig.querySelectorAll("text.value")].find((t) => /^100(\.0)?%$/.test(t.textContent.trim()));
          const bar = fig.querySelector("rect.bar.chosen");
          const svg = fig.querySelector("svg.chart");
          const curve = fig.querySelector(".cum-curve");
          const box = (el) => el.getBoundingClientRect();
          const style = getComputedStyle(value);
          return {
            text: value?.textContent ?? null,
            value: value && box(value).toJSON(),
            bar: box(bar).toJSON(),
            svg: box(svg).toJSON(),
            curveTop: curve ? box(curve).top : null,
            px: value ? parseFloat(style.fontSize) * (svg.getScreenCTM()?.a ?? 1) : 0,
            contrast: value ? window.wcag.ratio(window.wcag.parse(style.fill), window.wcag.backdrop(svg)) : 0,
          };
        });
        assert.ok(m.text !== null, "the 100% bar's number is drawn");
        assert.ok(m.value.bottom <= m.bar.top + 0.5, `above the bar (text ${m.value.top}–${m.value.bottom}, bar top ${m.bar.top})`);
        assert.ok(m.curveTop === null || m.value.bottom <= m.curveTop + 0.5, `above the running total's curve at 100% (curve top ${m.curveTop})`);
        assert.ok(m.value.top >= m.svg.top - 0.5, `inside the chart, not cut (text top ${m.value.top}, chart top ${m.svg.top})`);
        assert.ok(m.contrast >= 4.5, `contrast ${m.contrast.toFixed(2)} ≥ 4.5`);
        if (mode === "projector") assert.ok(m.px >= 18, `${m.px.toFixed(1)} px on screen`);
        await screenshot(page, `qa4-full-bar-${mode}-${lang}.png`);
        await context.close();
      });
    }
  }
});

/** Charts on screen whose tallest bar has no number over it (each chart's name, for the message). */
function tallestUnnumbered() {
  const out = [];
  for (const svg of document.querySelectorAll("svg.chart")) {
    if (!svg.checkVisibility()) continue;
    const bars = [...svg.querySelectorAll("rect.bar")].filter((r) => !r.classList.contains("removed-before") && !r.classList.contains("vocab-rest"));
    if (bars.length === 0) continue;
    const tallest = bars.reduce((a, r) => (r.getBoundingClientRect().height > a.getBoundingClientRect().height ? r : a));
    const b = tallest.getBoundingClientRect();
    const over = [...svg.querySelectorAll(".values text")].some((t) => {
      const tb = t.getBoundingClientRect();
      return tb.left < b.right && b.left < tb.right && tb.bottom <= b.top + 1;
    });
    if (!over) out.push(svg.getAttribute("aria-label") ?? svg.closest("figure")?.querySelector("h3, figcaption")?.textContent ?? "a chart");
  }
  return out;
}

describe("the most likely token's number is always written", () => {
  // The logits chart at 1280×720 (en) drew every number but the top bar's: the chosen second
  // bar's number, written first, took the one row of room over it.
  for (const [lang, width, height, projector] of [["en", 1280, 720, false], ["zh", 1024, 768, false], ["en", 1366, 768, false], ["en", 1024, 768, true]]) {
    test(`${lang} ${width}×${height}${projector ? " projector" : ""}: every chart's tallest bar has its number`, async () => {
      const { page, context } = await open(`?lang=${lang}${projector ? "&projector=1" : ""}`, { viewport: { width, height } });
      await page.waitForTimeout(700);
      assert.deepEqual(await page.evaluate(tallestUnnumbered), []);
      await context.close();
    });
  }
});

/**
 * Charts on screen where one of the five tallest bars has no number of its own: none spans the bar
 * from edge to edge over it (a number may slide sideways but always covers its whole bar), and no
 * leader line comes down to it. Each as "chart: bar n".
 */
function tallBarsUnnumbered() {
  const out = [];
  for (const svg of document.querySelectorAll("svg.chart")) {
    if (!svg.checkVisibility()) continue;
    const bars = [...svg.querySelectorAll("rect.bar")].filter((r) => !r.classList.contains("removed-before") && !r.classList.contains("removed-here") && !r.classList.contains("vocab-rest") && r.getBoundingClientRect().height > 0);
    const tall = [...bars].sort((a, b) => b.getBoundingClientRect().height - a.getBoundingClientRect().height).slice(0, 5);
    const numbers = [...svg.querySelectorAll(".values text")].map((t) => t.getBoundingClientRect());
    const leaders = [...svg.querySelectorAll(".leaders line")].map((l) => l.getBoundingClientRect());
    for (const bar of tall) {
      const b = bar.getBoundingClientRect();
      const own = numbers.some((t) => t.left <= b.left + 0.5 && t.right >= b.right - 0.5 && t.bottom <= b.top + 1);
      const led = leaders.some((l) => l.left >= b.left - 0.5 && l.right <= b.right + 0.5 && Math.abs(l.bottom - b.top) < 3);
      if (!own && !led) out.push(`${svg.closest("figure")?.querySelector("h3, figcaption")?.textContent?.trim().slice(0, 30) ?? "a chart"}: bar ${bars.indexOf(bar) + 1}`);
    }
  }
  return out;
}

describe("the five most likely tokens' numbers are always written", () => {
  // The softmax chart (en, 1280×800, TypeScript 是 JavaScript 的 after two steps) left the third
  // bar's 7.3 % out: its place was a hair above two rows, under the chosen second bar's number
  for (const [lang, width, height, projector] of [["en", 1280, 800, false], ["zh", 1024, 768, false], ["en", 1024, 768, true]]) {
    test(`${lang} ${width}×${height}${projector ? " projector" : ""}: the five tallest bars of every chart have their numbers, over four steps`, async () => {
      const { page, context } = await open(`?lang=${lang}&preset=ts-zh${projector ? "&projector=1" : ""}`, { viewport: { width, height } });
      const missing = [];
      for (let step = 0; step < 4; step++) {
        await page.waitForTimeout(400);
        missing.push(...(await page.evaluate(tallBarsUnnumbered)).map((m) => `step ${step}: ${m}`));
        await page.locator("#step").click();
      }
      assert.deepEqual(missing, []);
      await context.close();
    });
  }
});

/** Numbers of bars under a much taller ghost (the T = 1 outline) written over that ghost instead of just over their bar. */
function numbersOverGhosts() {
  const out = [];
  for (const svg of document.querySelectorAll("svg.chart")) {
    if (!svg.checkVisibility()) continue;
    const ghosts = [...svg.querySelectorAll("rect.ghost")].map((g) => g.getBoundingClientRect());
    const numbers = [...svg.querySelectorAll(".values text")].map((t) => ({ text: t.textContent, box: t.getBoundingClientRect() }));
    for (const bar of svg.querySelectorAll("rect.bar")) {
      const b = bar.getBoundingClientRect();
      const ghost = ghosts.find((g) => Math.abs(g.left - b.left) < 0.5 && Math.abs(g.width - b.width) < 0.5);
      const own = numbers.find((n) => n.box.left <= b.left + 0.5 && n.box.right >= b.right - 0.5 && n.box.bottom <= b.top + 1);
      if (ghost === undefined || own === undefined) continue;
      // room inside the outline for the number and some air: it belongs there, just over its bar
      if (b.top - ghost.top < 2.5 * own.box.height) continue;
      if (own.box.top < ghost.top) out.push(`${own.text} over the outline (${Math.round(ghost.top)}) of a bar whose top is ${Math.round(b.top)}`);
    }
  }
  return out;
}

describe("a number sits on its own bar, not on the taller T = 1 outline", () => {
  // at T 1.5 the top bar's 10.3 % was written over its dashed T = 1 outline, at the 32 % the
  // outline reached, and read as the outline's value (found by a learner's trial)
  for (const [lang, query] of [["zh", "temperature=1.5&top_k=5&top_p=1"], ["en", "temperature=2&top_p=1"]]) {
    test(`${lang} ${query}: the temperature chart's numbers, over three steps`, async () => {
      const { page, context } = await open(`?lang=${lang}&preset=ts-zh&${query}`, { viewport: { width: 1366, height: 768 } });
      const found = [];
      for (let step = 0; step < 3; step++) {
        await page.locator("#step").click();
        await page.waitForTimeout(400);
        found.push(...(await page.evaluate(numbersOverGhosts)).map((m) => `step ${step + 1}: ${m}`));
      }
      assert.deepEqual(found, []);
      await context.close();
    });
  }
});
