// Projector mode on the small screens a classroom really produces: a 1024×768 projector zoomed in
// (Ctrl/⌘ +: 125 % is 820×614 CSS px, 150 % is 683×512), an old SVGA projector (800×600), a 1280×720
// or 1280×800 laptop mirrored at 150 % (853×480, 853×533), a 640×480 window; 1024×768 as the
// reference. After three steps, at T 2 with top-p 0.9 (a flat distribution, long labels), and with
// the Settings row open (the chart gives up its height there: at 1024×768 too its sixteen labels ran
// together, "Temperature" over "0.8"), in both languages: one screen, nothing cut, no text over other text — the chart's rotated labels, its
// numbers and the strip's "u = …" included (text-shapes.mjs) — every HTML text at least the mode's
// minimum for that height (24px; 18px under 601 px, projector-short.css), the chart's text inside
// the chart's box, the header one row with its settings line on one line (cut, it is still read
// whole) and the prompt button whole in the text box.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { browserSuite, ARTIFACTS } from "./harness.mjs";
import { fitProblems } from "./fit.mjs";
import { textOverlaps } from "./text-shapes.mjs";

const open = browserSuite();
const SHOTS = `${ARTIFACTS}projector-small-screens`;

const SIZES = [
  [683, 512],
  [800, 600],
  [820, 614],
  [853, 480],
  [853, 533],
  [640, 480],
  [1024, 768],
];
const STATES = [
  ["three steps", "", "T 0.8 · top-p 0.9 · seed 84"],
  ["T 2, top-p 0.9", "&temperature=2&top_p=0.9", "T 2 · top-p 0.9 · seed 84"],
  ["Settings open", "", "T 0.8 · top-p 0.9 · seed 84", true],
];
const SEED = { en: "seed", zh: "种子" };
const SETTINGS = { en: "Settings", zh: "设置" };

/** Runs in the page: what, besides fit.mjs's and text-shapes.mjs's checks, a teacher would see wrong. */
function smallScreenProblems() {
  const problems = [];
  const box = (el) => el.getBoundingClientRect();
  const shown = (el) => el.checkVisibility({ checkVisibilityCSS: true }) && box(el).width >= 2 && box(el).height >= 2;
  // the header is one row: every control beside the settings line, the line itself one line high
  const line = document.querySelector(".projector-settings");
  const l = box(line);
  const lineHeight = parseFloat(getComputedStyle(line).lineHeight);
  if (l.height > lineHeight * 1.5) problems.push(`the header's settings line is ${Math.round(l.height / lineHeight)} lines`);
  for (const el of document.querySelectorAll(".top > button, .top > label, .top select")) {
    if (!shown(el)) continue;
    const r = box(el);
    if (r.bottom <= l.top || r.top >= l.bottom) problems.push(`header on two rows: “${(el.textContent ?? "").trim().slice(0, 20)}” is not beside the settings`);
  }
  // the prompt button, whole inside the text's box (the box shows its newest line: a line cut in
  // half at its top showed half the button)
  const text = box(document.getElementById("generated"));
  const button = document.querySelector("#generated button");
  if (button !== null && shown(button)) {
    const b = box(button);
    if (b.top < text.top - 1 || b.bottom > text.bottom + 1) problems.push(`the prompt button is cut: ${Math.round(b.top)}–${Math.round(b.bottom)} in a box ${Math.round(text.top)}–${Math.round(text.bottom)}`);
  }
  // the chart's words stay inside the chart's frame (rotated labels hung into the strip below)
  const stage = document.querySelector("#stages .stage.pj-focus");
  const frame = box(stage);
  for (const t of stage.querySelectorAll("svg text")) {
    if (!shown(t) || (t.textContent ?? "").trim() === "") continue;
    const r = box(t);
    if (r.left < frame.left - 1 || r.right > frame.right + 1 || r.top < frame.top - 1 || r.bottom > frame.bottom + 1) {
      problems.push(`chart text outside the chart: “${t.textContent.trim()}” ${Math.round(r.left)},${Math.round(r.top)}–${Math.round(r.right)},${Math.round(r.bottom)} in ${Math.round(frame.left)},${Math.round(frame.top)}–${Math.round(frame.right)},${Math.round(frame.bottom)}`);
    }
  }
  return problems;
}

/** The header's settings line as a screen reader reads it (a cut line keeps its whole text, hidden from the eye). */
function settingsRead() {
  const line = document.querySelector(".projector-settings");
  const parts = [];
  const walk = (node) => {
    if (node.nodeType === Node.TEXT_NODE) parts.push(node.textContent);
    else if (node.getAttribute?.("aria-hidden") !== "true") node.childNodes.forEach(walk);
  };
  walk(line);
  return parts.join("").replace(/\s+/g, " ").trim();
}

describe("projector mode on small screens", () => {
  mkdirSync(SHOTS, { recursive: true });
  for (const [width, height] of SIZES) {
    test(`${width}×${height}: three steps and T 2 top-p 0.9, zh and en — one screen, no text over text, header one row, type ≥ the mode's minimum`, async () => {
      const failures = [];
      for (const lang of ["zh", "en"]) {
        for (const [name, query, settings, openRow] of STATES) {
          const { page, context, problems } = await open(`?projector=1&lang=${lang}${query}`, { viewport: { width, height } });
          try {
            for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
            await page.waitForFunction(() => document.querySelectorAll("#chips > li").length === 3);
            // the row a teacher opens to change T, top-k or top-p in front of the class
            if (openRow) await page.getByRole("button", { name: SETTINGS[lang], exact: true }).click();
            // (the chart is drawn again once its bars are fitted to the screen: a frame or two)
            await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
            await page.screenshot({ path: `${SHOTS}/${lang}-${width}x${height}-${name.replace(/[^a-z0-9]+/gi, "-")}.png` });
            const found = [
              ...(await page.evaluate(fitProblems, { minPx: height > 600 ? 24 : 18 })),
              ...(await page.evaluate(textOverlaps, {})).map((p) => `text over text: ${p}`),
              ...(await page.evaluate(smallScreenProblems)),
            ];
            const read = await page.evaluate(settingsRead);
            if (read !== settings.replace("seed", SEED[lang])) found.push(`the settings line reads “${read}”`);
            if (problems.console.length > 0) found.push(...problems.console);
            if (found.length > 0) failures.push(`${lang} ${name}: ${found.join("; ")}`);
          } finally {
            await context.close();
          }
        }
      }
      assert.deepEqual(failures, []);
    });
  }
});
