// A low-vision learner and a learner on a small phone, in Chromium: every word and number in the
// charts is at least 11 px on a 360 px phone (the token names under the bars were 8 px and the
// "✕ top-p" notes 8 px: only the numbers over the bars grew with a narrow chart), and the charts
// stay readable in forced colours (Windows high contrast) and at 400 % zoom (320 CSS px, WCAG 1.4.10).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, chartsAfterStep, installWcag, screenshot } from "./harness.mjs";

const open = browserSuite();

/** Every visible text in the page's charts drawn under 11 px on screen, as "chart class: px". */
function smallChartText() {
  const small = [];
  let measured = 0;
  for (const text of document.querySelectorAll("#stages svg.chart text, #final svg.chart text")) {
    if (text.getClientRects().length === 0 || text.textContent.trim() === "") continue;
    measured++;
    const m = text.getScreenCTM();
    // (a rotated label's scale is the length of its CTM's first column)
    const px = parseFloat(getComputedStyle(text).fontSize) * Math.hypot(m.a, m.b);
    const chart = text.closest("figure")?.dataset.stage ?? "final";
    if (px < 11 - 0.05) small.push(`${chart} ${text.getAttribute("class") ?? text.parentElement.getAttribute("class")} “${text.textContent}”: ${px.toFixed(1)} px`);
  }
  return { small, measured };
}

describe("a 360 × 740 phone: chart text ≥ 11 px", () => {
  const cases = ["?lang=en&top_k=5", "?lang=zh&preset=capital-zh&min_p=0.1", "?lang=en&preset=react-zh&top_p=0.5&temperature=1.4"];
  for (const query of cases) {
    test(query, async () => {
      const { page, context, problems } = await open(query, { viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });
      try {
        await page.locator("#step").tap();
        await chartsAfterStep(page, 1);
        const { small, measured } = await page.evaluate(smallChartText);
        assert.ok(measured > 40, `measured ${measured} texts`);
        assert.deepEqual(small.slice(0, 12), [], `${small.length} texts under 11 px`);
        // nothing wider than the phone
        assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 360), "no sideways scroll");
        assert.deepEqual(problems.console, []);
      } finally {
        await context.close();
      }
    });
  }
});

/**
 * In forced colours, against the chart's own background: every chart text under 4.5:1, every bar
 * (or its outline when it is filled with the background), the removed bars' dashed outline, the u
 * line and its marker under 3:1 (WCAG 1.4.11), the chosen bar's fill against a kept bar's, and the
 * u line against the chosen band it crosses; as problems in words.
 */
function forcedProblems() {
  const { parse, ratio, backdrop } = window.wcag;
  const problems = [];
  const colour = (c) => parse(c)?.slice(0, 3) ?? null;
  const check = (what, fg, bg, min) => {
    const f = colour(fg);
    if (f === null || parse(fg)[3] === 0) return problems.push(`${what}: no colour (${fg})`);
    const r = ratio(f, bg);
    if (r < min) problems.push(`${what}: ${r.toFixed(2)}:1 (${fg})`);
  };
  for (const svg of document.querySelectorAll("#stages figure:not([hidden]) svg.chart, #final svg.chart")) {
    const bg = backdrop(svg);
    const chart = svg.closest("figure")?.dataset.stage ?? "final";
    for (const text of svg.querySelectorAll("text")) {
      if (text.getClientRects().length === 0 || text.textContent.trim() === "") continue;
      check(`${chart} text “${text.textContent}”`, getComputedStyle(text).fill, bg, 4.5);
    }
    for (const bar of svg.querySelectorAll(".bars rect")) {
      const s = getComputedStyle(bar);
      const cls = bar.getAttribute("class");
      // (a bar filled with the background is drawn by its outline)
      const filled = colour(s.fill) !== null && ratio(colour(s.fill), bg) >= 1.5;
      if (cls.includes("removed-here") || !filled) check(`${chart} ${cls} outline`, s.stroke, bg, 3);
      else check(`${chart} ${cls}`, s.fill, bg, 3);
    }
    // the chosen bar stands out from a kept one (not by hue alone: 3:1 between their fills)
    const chosen = svg.querySelector(".bars rect.chosen");
    const kept = svg.querySelector(".bars rect.kept");
    if (chosen !== null && kept !== null) check(`${chart} chosen bar against a kept bar`, getComputedStyle(chosen).fill, colour(getComputedStyle(kept).fill), 3);
    for (const line of svg.querySelectorAll(".u-marker line, .u-marker path")) {
      const s = getComputedStyle(line);
      const paint = line.tagName === "line" ? s.stroke : s.fill;
      check(`u marker ${line.tagName}`, paint, bg, 3);
      const band = svg.querySelector(".band.chosen");
      if (band !== null && line.tagName === "line") check("u line over the chosen band", paint, colour(getComputedStyle(band).fill), 3);
    }
  }
  return problems;
}

describe("forced colours (Windows high contrast): the charts keep their contrast", () => {
  for (const scheme of ["dark", "light"]) {
    test(`${scheme} system colours: text 4.5:1, bars, u line and focus ring 3:1`, async () => {
      const { page, context } = await open("?lang=en&top_k=5&top_p=0.95");
      try {
        await page.emulateMedia({ forcedColors: "active", colorScheme: scheme });
        await page.locator("#step").click();
        await chartsAfterStep(page, 1);
        await installWcag(page);
        const problems = await page.evaluate(forcedProblems);
        assert.deepEqual(problems.slice(0, 12), [], `${problems.length} problems`);
        // the keyboard's focus on a bar: a ring of 3:1 at least 2 px wide
        const bar = page.locator('#stages figure[data-stage="top_k"] rect.hit').first();
        await page.keyboard.press("Tab"); // (the keyboard's focus, so :focus-visible)
        await bar.focus();
        const ring = await bar.evaluate((el) => {
          const s = getComputedStyle(el);
          return { ratio: window.wcag.ratio(window.wcag.parse(s.stroke).slice(0, 3), window.wcag.backdrop(el.ownerSVGElement)), width: parseFloat(s.strokeWidth) };
        });
        assert.ok(ring.ratio >= 3 && ring.width >= 2, `focus ring ${JSON.stringify(ring)}`);
        // the Sample N legend's swatches are still there (a background would be painted over)
        const swatch = await page.evaluate(() => {
          const s = getComputedStyle(document.querySelector(".swatch.observed"));
          return window.wcag.ratio(window.wcag.parse(s.backgroundColor).slice(0, 3), window.wcag.backdrop(document.querySelector(".legend")));
        });
        assert.ok(swatch >= 3, `observed swatch ${swatch.toFixed(2)}:1`);
        await screenshot(page, `forced-colours-${scheme}.png`);
      } finally {
        await context.close();
      }
    });
  }
});

/**
 * On the normal page's own colours: every bar drawn (taller than half a unit) whose fill is under
 * 3:1 against its chart, without an outline of 3:1 either, as "chart class: ratio".
 */
function faintBars() {
  const { parse, ratio, backdrop } = window.wcag;
  const faint = [];
  for (const svg of document.querySelectorAll("#stages figure:not([hidden]) svg.chart")) {
    const bg = backdrop(svg);
    for (const bar of svg.querySelectorAll(".bars rect")) {
      if (bar.getBBox().height <= 0.5) continue;
      const s = getComputedStyle(bar);
      const fill = parse(s.fill);
      const stroke = parse(s.stroke);
      const fillRatio = fill === null || fill[3] === 0 ? 1 : ratio(fill.slice(0, 3), bg);
      const strokeRatio = stroke === null || stroke[3] === 0 || parseFloat(s.strokeWidth) < 1 ? 1 : ratio(stroke.slice(0, 3), bg);
      if (Math.max(fillRatio, strokeRatio) < 3) faint.push(`${svg.closest("figure").dataset.stage} ${bar.getAttribute("class")}: ${fillRatio.toFixed(2)}:1`);
    }
  }
  return faint;
}

// A bar removed by an earlier stage is drawn at its height when the engine's order puts a chart
// after that stage (llama.cpp's: temperature after top-k, so the chart shows what T does to every
// token): that height is information, so its outline is 3:1 (WCAG 1.4.11; its #eceef1 fill alone
// was 1.16:1 on white, 1.3:1 in projector mode).
describe("bars removed by an earlier stage are outlined at 3:1 where they are drawn", () => {
  for (const [lang, projector] of [["en", false], ["zh", true]]) {
    test(`${lang}${projector ? ", projector" : ""}: llama.cpp's order, top-k 5, T 1.5`, async () => {
      const { page, context } = await open(`?lang=${lang}&engine=llama.cpp&top_k=5&temperature=1.5${projector ? "&projector=1" : ""}`, { viewport: { width: 1280, height: 800 } });
      try {
        await page.locator("#step").click();
        await chartsAfterStep(page, 1);
        await installWcag(page);
        const drawn = await page.evaluate(() => [...document.querySelectorAll('#stages figure[data-stage="temperature"] rect.removed-before')].filter((r) => r.getBBox().height > 0.5).length);
        assert.ok(drawn >= 5, `${drawn} removed-before bars drawn in the temperature chart`);
        const faint = await page.evaluate(faintBars);
        assert.deepEqual(faint.slice(0, 8), [], `${faint.length} faint bars`);
      } finally {
        await context.close();
      }
    });
  }
});
