// The step inspector's line of stages in the engine's order ("logit bias → penalties → … → top-k →
// top-p …"), the first thing under the chosen token. At 1024×768 in Chinese the line broke inside
// a stage's name, at its hyphen: "→ top-" at the end of one line, "k → top-p" on the next. Each
// stage's name is now kept whole; the line breaks between names only.
import { test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite } from "./harness.mjs";

const open = browserSuite();

/** Runs in the page: each stage name drawn over more than one line. */
function brokenNames() {
  return [...document.querySelectorAll("#order-list > span")].filter((s) => s.getClientRects().length > 1).map((s) => s.textContent);
}

test("every stage's name in the inspector's order line is on one line: 1024×768, 1280×800 and a 390 px phone, zh and en, three engines", async () => {
  const failures = [];
  for (const [width, height] of [[1024, 768], [1280, 800], [390, 844]]) {
    for (const lang of ["zh", "en"]) {
      for (const engine of ["hf", "llamacpp", "vllm"]) {
        const { page, context, problems } = await open(`?lang=${lang}&engine=${engine}`, { viewport: { width, height } });
        try {
          await page.waitForFunction(() => document.querySelectorAll("#order-list > span").length > 4);
          const broken = await page.evaluate(brokenNames);
          if (broken.length > 0) failures.push(`${width}×${height} ${lang} ${engine}: ${broken.join(", ")} broken over two lines`);
          failures.push(...problems.console);
        } finally {
          await context.close();
        }
      }
    }
  }
  assert.deepEqual(failures, []);
});
