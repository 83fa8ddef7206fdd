// A lesson's own button pressed while the lesson is still being set up (over a model server, on
// the teacher's laptop, setting up Exp. 3 asks the server for two prompts, a noticeable moment)
// waited for nothing: the press was dropped in silence (views/lessons.ts dropped any press while a
// task was pending) and the teacher pressed again, or thought the button broken. Now it runs once
// the set-up is done: "Inspect A" shows the inspector's Kept count the lesson states, lit.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { connect, serverSuite } from "./server-suite.mjs";

const { env, open } = serverSuite();
const settled = (page) =>
  page.waitForFunction(() => !document.getElementById("lessons")?.hasAttribute("aria-busy") && !/Asking the model server|…$/m.test(document.getElementById("lesson-body")?.textContent ?? ""));

describe("a lesson's button pressed while its lesson is being set up", () => {
  test("en, over llama.cpp's server: Exp. 3's Inspect A pressed during the set-up runs after it", async () => {
    const { page, context, seen } = await open("?lang=en", { width: 1366, height: 768 });
    await connect(page, env.llama.url);
    await page.waitForFunction(() => !document.getElementById("step")?.disabled);
    // press Inspect A the moment the lesson says it is busy (its body is drawn before the set-up)
    const pressed = page.evaluate(
      () =>
        new Promise((resolve) => {
          const lessons = document.getElementById("lessons");
          const watch = new MutationObserver(() => {
            const button = [...document.querySelectorAll("#lesson-body button")].find((b) => b.textContent.trim() === "Inspect A");
            if (!lessons.hasAttribute("aria-busy") || button === undefined) return;
            watch.disconnect();
            button.click();
            resolve(lessons.hasAttribute("aria-busy"));
          });
          watch.observe(lessons, { attributes: true, attributeFilter: ["aria-busy"], subtree: true, childList: true });
          // (never busy with the button drawn: said, not waited for forever)
          setTimeout(() => {
            watch.disconnect();
            resolve(false);
          }, 15_000);
        }),
    );
    await page.locator('#lesson-list button[data-lesson="exp3"]').click();
    assert.equal(await pressed, true, "the press was made while the lesson was busy");
    await settled(page);
    await page.waitForFunction(() => document.getElementById("stat-kept")?.classList.contains("lesson-highlight"), null, { timeout: 10_000 }).catch(() => {});
    const kept = await page.evaluate(() => {
      const node = document.getElementById("stat-kept");
      return { text: node.textContent.trim(), lit: node.classList.contains("lesson-highlight") };
    });
    assert.ok(kept.lit, `the press was not lost: the Kept count is lit (${JSON.stringify(kept)})`);
    assert.match(kept.text, /^1\b/, "Kept says the lesson's 1 for scenario A");
    assert.equal(await page.locator("#prompt").inputValue(), "中国的首都是", "the page is on scenario A's prompt");
    assert.deepEqual(seen.console, []);
    await context.close();
  });
});
