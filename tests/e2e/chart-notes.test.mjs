// The notes on removed bars ("✕ greedy", "✕ top-k": the stage that removed the token) over a flat
// distribution. 误解四's prompt 「状态」 under greedy gives a chosen token of 9.5 % and removed ones of
// 8 %, 7 %, 6 %: each note, written upwards from its bar's top, rose out of the plot — across the
// chosen token's number ("9.5%" read "9.5" under "✕ greedy") and the chart's title ("removed 7999"
// struck through). Now a note that does not fit above its bar is written inside it, and one that
// fits neither way is left out: every note stays in the chart, over no other text.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, chartsAfterStep } from "./harness.mjs";
import { textOverlaps } from "./text-shapes.mjs";

const open = browserSuite();

/** Runs in the page: each note outside its chart's box, in words (the chart's title is above the box). */
function notesOutside(stage) {
  const figure = document.querySelector(`#stages figure.stage[data-stage="${stage}"]`);
  const svg = figure.querySelector("svg.chart").getBoundingClientRect();
  const problems = [];
  for (const note of figure.querySelectorAll("svg text.note")) {
    const b = note.getBoundingClientRect();
    if (b.top < svg.top - 1 || b.bottom > svg.bottom + 1) problems.push(`“${note.textContent}” reaches ${Math.round(svg.top - b.top)} px above the chart`);
  }
  return { problems, notes: figure.querySelectorAll("svg text.note").length };
}

const STATE = encodeURIComponent("状态");
const CASES = [
  ["greedy", `&strategy=greedy&prompt=${STATE}`],
  ["top_k", `&top_k=1&prompt=${STATE}`],
];

describe("notes on removed bars over a flat distribution", () => {
  for (const [width, height] of [[1024, 768], [1920, 1080]]) {
    test(`${width}×${height}, en and zh: greedy and top-k 1 on 「状态」 — every “✕ …” note inside its chart, over no number, label or title`, async () => {
      const failures = [];
      for (const lang of ["en", "zh"]) {
        for (const [stage, query] of CASES) {
          const { page, context, problems } = await open(`?lang=${lang}${query}`, { viewport: { width, height } });
          try {
            await chartsAfterStep(page, 0);
            const within = `#stages figure.stage[data-stage="${stage}"]`;
            const { problems: outside, notes } = await page.evaluate(notesOutside, stage);
            // (the removed bars still say so: most keep their note)
            if (notes < 8) failures.push(`${lang} ${stage}: only ${notes} notes`);
            failures.push(...outside.map((p) => `${lang} ${stage}: ${p}`));
            failures.push(...(await page.evaluate(textOverlaps, { within })).map((p) => `${lang} ${stage}: text over text: ${p}`));
            failures.push(...problems.console);
          } finally {
            await context.close();
          }
        }
      }
      assert.deepEqual(failures, []);
    });
  }
});
