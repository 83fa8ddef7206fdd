// The embedded model's card on the page: what the weights are and the attribution their training
// text's licences ask for (CC BY 4.0 twice, MIT, Apache-2.0 with its full text), in both languages,
// reachable by keyboard, shown only with the embedded model, and carried by the single file too.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { browserSuite, DIST } from "./harness.mjs";

const open = browserSuite();

describe("about the embedded model", () => {
  for (const [lang, L] of [
    ["zh", { summary: "关于这个模型：规模、训练文本、许可", licence: "Apache License 2.0（全文）", source: "logits 来源" }],
    ["en", { summary: "About this model: size, training text, licences", licence: "Apache License 2.0 (full text)", source: "Logits source" }],
  ]) {
    test(`${lang}: the card opens by keyboard, names every source with its licence, and shows the Apache-2.0 text`, async () => {
      const { page, context, problems } = await open(`?lang=${lang}`);
      const card = page.locator("#model-about");
      const summary = card.locator(":scope > summary");
      assert.equal((await summary.textContent()).trim(), L.summary);
      assert.equal(await card.evaluate((d) => d.open), false);
      await summary.focus();
      await page.keyboard.press("Enter");
      assert.equal(await card.evaluate((d) => d.open), true);
      const items = await card.locator("li").allTextContents();
      assert.equal(items.length, 5, items.join("|"));
      assert.equal(items.filter((s) => s.includes("CC BY 4.0")).length, 2, items.join("|"));
      assert.ok(items.some((s) => s.includes("MIT") && s.includes("Shengping Zhong")), items.join("|"));
      assert.ok(items.some((s) => s.includes("Apache-2.0") && s.includes("Hugging Face")), items.join("|"));
      const licence = card.locator(".model-licence > summary");
      assert.equal((await licence.textContent()).trim(), L.licence);
      await licence.focus();
      await page.keyboard.press("Enter");
      const text = page.locator("#model-licence-text");
      await text.waitFor({ state: "visible" });
      assert.match(await text.textContent(), /Apache License\s+Version 2\.0, January 2004/);
      // only with the embedded model: the hand-made logits are not a model
      await page.getByLabel(L.source, { exact: true }).selectOption("manual");
      await card.waitFor({ state: "hidden" });
      assert.deepEqual(problems, { console: [], foreign: [] });
      await context.close();
    });
  }

  test("the single file carries the licence text", () => {
    const single = readFileSync(join(DIST, "nexttoken.html"), "utf8");
    assert.match(single, /Apache License/);
    assert.match(single, /TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION/);
  });
});
