// Projector mode's text strip on a wide projector (1280×720, 1920×1080): there the strip is a narrow
// column beside the chart. Opened fresh, the prompt and the hint "Press Step to generate the first
// token." ran past the strip's box — "token." cut in half at 1920×1080, not shown at all at 1280×720
// — and after Reset, "Undo reset" wrapped the buttons onto a second line and the strip scrolled the
// prompt out of sight: the class saw "Step to generate the first token." and no prompt. Now the hint
// gives way to the prompt, and the strip is fitted again whenever its box changes size.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite } from "./harness.mjs";

const open = browserSuite();

const PROMPT = { en: "TypeScript is a", zh: "TypeScript 是 JavaScript 的" };
const RESET = { en: "Reset", zh: "重置" };
const UNDO = { en: "Undo reset", zh: "撤销重置" };
const OTHER = { en: "切换到中文", zh: "Switch to English" };

/** Runs in the page: what the class sees of the strip, in words, plus the prompt as shown. */
function stripSeen() {
  const box = document.getElementById("generated");
  const b = box.getBoundingClientRect();
  const line = parseFloat(getComputedStyle(box).lineHeight);
  const problems = [];
  // nothing cut off: the content is the box's height (a box squeezed under one line shows that line)
  const over = box.scrollHeight - Math.max(box.clientHeight, line);
  if (over > line / 4) problems.push(`the strip's text runs ${Math.round(over)} px past its box (${box.clientHeight} px)`);
  // the prompt button and every line of the prompt inside the box
  const button = document.getElementById("pj-prompt-edit").getBoundingClientRect();
  if (button.top < b.top - 1 || button.bottom > b.bottom + 1) problems.push(`the prompt button is cut: ${Math.round(button.top)}–${Math.round(button.bottom)} in ${Math.round(b.top)}–${Math.round(b.bottom)}`);
  const range = document.createRange();
  range.selectNodeContents(document.getElementById("prompt-echo"));
  for (const r of range.getClientRects()) {
    const middle = (r.top + r.bottom) / 2;
    if (middle < b.top || middle > b.bottom) problems.push(`a line of the prompt is out of the box: ${Math.round(r.top)}–${Math.round(r.bottom)} in ${Math.round(b.top)}–${Math.round(b.bottom)}`);
  }
  return { problems, prompt: document.getElementById("prompt-echo").textContent };
}

describe("projector mode's text strip on a wide projector", () => {
  for (const [width, height] of [[1280, 720], [1920, 1080]]) {
    test(`${width}×${height}, en and zh: the whole prompt shows on a fresh page and after a language switch, and after Reset the prompt stays in the strip`, async () => {
      const failures = [];
      for (const lang of ["en", "zh"]) {
        const { page, context, problems } = await open(`?projector=1&lang=${lang}`, { viewport: { width, height } });
        try {
          const frames = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
          await frames();
          let seen = await page.evaluate(stripSeen);
          if (seen.prompt !== PROMPT[lang]) seen.problems.push(`fresh: the prompt shows as “${seen.prompt}”`);
          failures.push(...seen.problems.map((p) => `${lang} fresh: ${p}`));

          // a teacher steps once, resets (Undo reset appears beside Reset), and the prompt is still read
          await page.keyboard.press("ArrowRight");
          await page.waitForFunction(() => document.querySelectorAll("#chips > li").length === 1);
          await page.getByRole("button", { name: RESET[lang], exact: true }).click();
          await page.getByRole("button", { name: UNDO[lang] }).waitFor();
          await frames();
          seen = await page.evaluate(stripSeen);
          const start = Array.from(PROMPT[lang]).slice(0, 8).join("");
          if (!seen.prompt.startsWith(start)) seen.problems.push(`the prompt shows as “${seen.prompt}”`);
          failures.push(...seen.problems.map((p) => `${lang} after Reset: ${p}`));

          // the other language, from a fresh page: its hint is another length
          await page.reload();
          await page.waitForSelector("body[data-ready='true']");
          await page.getByRole("button", { name: OTHER[lang] }).click();
          await frames();
          seen = await page.evaluate(stripSeen);
          if (seen.prompt !== PROMPT[lang]) seen.problems.push(`the prompt shows as “${seen.prompt}”`);
          failures.push(...seen.problems.map((p) => `${lang} → other language: ${p}`));
          failures.push(...problems.console);
        } finally {
          await context.close();
        }
      }
      assert.deepEqual(failures, []);
    });
  }
});
