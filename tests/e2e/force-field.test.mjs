// The inspector's "Force a token" field refuses a token the vocabulary lacks: the refusal is tied to
// the field (aria-invalid, aria-describedby naming the message), so a screen reader on the field hears
// why; an edit or a token that exists takes it back. Failed on the old build (the message stood alone).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite } from "./harness.mjs";

const open = browserSuite();

for (const [lang, label, button, unknown] of [["en", "Force a token", "Force", /is not a token in the vocabulary/], ["zh", "强制选择 Token", "强制", /词表里没有/]]) {
  describe(`${lang}: the force field's refusal`, () => {
    test("is the field's own error, and goes with the next edit or a forced token", async () => {
      const { page, context, problems } = await open(`?lang=${lang}&preset=capital-zh`);
      const field = page.getByLabel(label, { exact: true });
      await field.fill("qqqzzzxx");
      await page.getByRole("button", { name: button, exact: true }).click();
      assert.equal(await field.getAttribute("aria-invalid"), "true");
      const describedBy = await field.getAttribute("aria-describedby");
      assert.ok(describedBy, "the field names its message");
      const message = await page.evaluate((ids) => ids.split(" ").map((id) => document.getElementById(id)?.textContent ?? "").join(" "), describedBy);
      assert.match(message, unknown);
      assert.match(message, /qqqzzzxx/, "the message names what was typed");
      assert.equal(await field.inputValue(), "qqqzzzxx", "what was typed is kept");
      // an edit takes the refusal back
      await field.press("End");
      await field.press("Backspace");
      assert.equal(await field.getAttribute("aria-invalid"), null);
      assert.equal(await field.getAttribute("aria-describedby"), null);
      // refused again, then a token that exists forces and clears it
      await page.getByRole("button", { name: button, exact: true }).click();
      assert.equal(await field.getAttribute("aria-invalid"), "true");
      await field.fill("北京");
      await page.getByRole("button", { name: button, exact: true }).click();
      await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
      assert.equal(await page.locator("#chips li").first().textContent(), "北京");
      assert.equal(await field.getAttribute("aria-invalid"), null);
      assert.equal(await page.locator("#force-msg").textContent(), "");
      assert.deepEqual(problems, { console: [], foreign: [] });
      await context.close();
    });
  });
}
