// A setting the chosen engine has no stage for (www/src/engines.ts: HF has no frequency or presence
// penalty, vLLM no typical-p). The core refuses a step that sets one; the page used to send it, so
// on the default engine a learner who moved "Frequency penalty" in Advanced, or anyone opening a
// link made under another engine, got every Step refused until they found the slider. Now the
// slider is dimmed and says why, the step leaves it out, and the value is kept for an engine that
// has it. Failed on the old build (the Step was refused).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite } from "./harness.mjs";

const open = browserSuite();

async function stepOnce(page, name) {
  const before = await page.locator("#chips li").count();
  await page.getByRole("button", { name, exact: true }).click();
  await page.waitForFunction((n) => document.querySelectorAll("#chips li").length > n, before);
}

for (const [lang, step, lacks, frequency] of [
  ["en", "Step", /^Hugging Face transformers has no such step/, "Frequency penalty"],
  ["zh", "单步", /^Hugging Face transformers 没有这一步/, "频率惩罚"],
]) {
  describe(`${lang}: settings an engine lacks`, () => {
    test("on the default engine (HF) the frequency and presence sliders say why they are off", async () => {
      const { page, context, problems } = await open(`?lang=${lang}`);
      for (const id of ["frequency", "presence"]) {
        assert.equal(await page.locator(`#${id}`).isDisabled(), true, id);
        assert.match(await page.locator(`#${id}-lacks`).textContent(), lacks);
        assert.equal(await page.locator(`#${id}`).getAttribute("aria-describedby"), `${id}-lacks`);
      }
      assert.equal(await page.locator("#typical-p").isDisabled(), false);
      assert.equal(await page.locator("#typical-p-lacks").isHidden(), true);
      await page.locator("#engine").selectOption("llama.cpp");
      assert.equal(await page.getByLabel(frequency, { exact: true }).isDisabled(), false);
      assert.deepEqual(problems, { console: [], foreign: [] });
      await context.close();
    });

    test("a link made under another engine steps, and its values come back with that engine", async () => {
      const { page, context, problems } = await open(`?lang=${lang}&engine=hf&frequency_penalty=1.5&presence_penalty=0.5&typical_p=0.5`);
      await stepOnce(page, step);
      await stepOnce(page, step);
      assert.equal(await page.locator("[role=alert]:not(:empty)").count(), 0, "no refusal");
      // the trace's penalties stage ran without frequency/presence (HF has neither)
      await page.locator("#engine").selectOption("llama.cpp");
      assert.equal(await page.locator("#frequency").inputValue(), "1.5");
      assert.equal(await page.locator("#presence").inputValue(), "0.5");
      await page.locator("#engine").selectOption("vllm");
      assert.equal(await page.locator("#typical-p").isDisabled(), true);
      await stepOnce(page, step);
      assert.equal(await page.locator("[role=alert]:not(:empty)").count(), 0, "no refusal under vLLM");
      assert.equal(await page.locator("#typical-p").inputValue(), "0.5");
      assert.deepEqual(problems, { console: [], foreign: [] });
      await context.close();
    });
  });
}
