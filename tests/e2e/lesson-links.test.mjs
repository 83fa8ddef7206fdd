// A lesson named alone in a link (or an element's lesson attribute), in Chromium: the link sets the
// lesson's page up (greedy and the first-token choices for 误解一, the chapter's hand-made table for
// 误解二); a shared lesson link made with its own page keeps that page.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite } from "./harness.mjs";

const open = browserSuite();

describe("a lesson named alone in a link (or an element's lesson attribute) sets its page up", () => {
  test("zh ?lesson=myth1 (on the default prompt): greedy, the first-token choices and the path are shown", async () => {
    const { page, context } = await open("?lang=zh&projector=1&lesson=myth1", { viewport: { width: 1024, height: 768 } });
    const choices = page.locator(".lesson-body .lesson-choices button");
    await choices.first().waitFor();
    assert.ok((await choices.count()) >= 2, "tokens to force at the first step");
    await page.waitForFunction(() => new URL(location.href).searchParams.get("strategy") === "greedy");
    assert.ok((await page.locator("#chips li").count()) > 3, "greedy wrote its sentence");
    await context.close();
  });

  test("zh ?lesson=myth2 (on the default prompt): the chapter's hand-made table (logit 3 for 超集), not the model's logits", async () => {
    const { page, context } = await open("?lang=zh&lesson=myth2", { viewport: { width: 1024, height: 768 } });
    // (the lesson's table is editable: each logit is a box in its row)
    const firstRow = page.locator(".lesson-body tbody tr").first();
    await page.waitForFunction(() => document.querySelector(".lesson-body tbody tr input.lesson-logit")?.value === "3");
    assert.match(await firstRow.locator("th").textContent(), /超集/);
    assert.equal(await firstRow.locator("input.lesson-logit").inputValue(), "3");
    await context.close();
  });

  test("a shared lesson link with its own page keeps that page", async () => {
    const prompt = encodeURIComponent("TypeScript 是 JavaScript 的");
    const { page, context } = await open(`?lang=zh&lesson=myth1&prompt=${prompt}&strategy=sample&seed=5`);
    await page.locator(".lesson-body").first().waitFor();
    // the lesson has done all it does on arrival (then a moment more: nothing overwrites the link's page)
    await page.waitForFunction(() => document.body.dataset.ready === "true" && !document.getElementById("lessons").hasAttribute("aria-busy"));
    await page.waitForTimeout(300);
    const params = new URL(page.url()).searchParams;
    assert.equal(params.get("strategy"), "sample");
    assert.equal(params.get("seed"), "5");
    await context.close();
  });
});
