// A link made after the settings changed between steps (T 0.8 for three steps, then T 2): whoever
// opens it gets every step as its author saw it: the same tokens, none turned "forced", and each
// step's charts and numbers made under the settings of that step, not the link's last ones.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite } from "./harness.mjs";

const open = browserSuite();
const chips = (page) => page.locator("#chips li");
const step = (page) => page.getByRole("button", { name: "Step", exact: true }).click();

async function setField(page, label, value) {
  await page.getByLabel(label, { exact: true }).fill(value);
  await page.getByLabel(label, { exact: true }).press("Tab");
}

/** Every step as inspected: its chip (text, forced), the chosen token's line and every chart's text. */
async function seen(page) {
  const steps = [];
  const n = await chips(page).count();
  for (let i = 0; i < n; i++) {
    await chips(page).nth(i).getByRole("button").click();
    steps.push({
      chip: await chips(page).nth(i).evaluate((li) => `${li.textContent}|${li.dataset.forced ?? "false"}`),
      chosen: await page.locator("#stat-chosen").textContent(),
      charts: await page.locator("#stages").innerText(),
    });
  }
  return steps;
}

describe("a link after settings changed between steps", () => {
  test("T 0.8 for three steps, then T 2 for three: every step reopens as it was seen", async () => {
    const { page, context } = await open("?lang=en");
    await page.getByLabel("Preset").selectOption("plugin-zh");
    await setField(page, "Temperature", "0.8");
    await setField(page, "Seed", "7");
    for (let i = 0; i < 3; i++) await step(page);
    await setField(page, "Temperature", "2");
    await setField(page, "Top-p", "1");
    for (let i = 0; i < 3; i++) await step(page);
    assert.equal(await chips(page).count(), 6);
    const before = await seen(page);
    assert.ok(before.every((s) => s.chip.endsWith("|false")), "every token was the core's choice");
    assert.match(before[0].charts, /0\.8/, "step 1 made at T 0.8");
    const link = await page.evaluate(() => location.search);
    await context.close();

    const again = await open(link);
    assert.ok(await again.page.locator("#url-notice").isHidden(), "a page-made link has no problems");
    assert.equal(await again.page.getByLabel("Temperature", { exact: true }).inputValue(), "2", "the settings last used");
    const after = await seen(again.page);
    for (let i = 0; i < before.length; i++) assert.deepEqual(after[i], before[i], `step ${i + 1}`);
    assert.deepEqual(again.problems.console, []);
    await again.context.close();
  });

  test("a branch made under its own settings, and the path it left, reopen as seen; a bad `set` is named", async () => {
    const { page, context } = await open("?lang=en");
    await page.getByLabel("Preset").selectOption("plugin-zh");
    await setField(page, "Seed", "11");
    await setField(page, "Temperature", "0.7");
    for (let i = 0; i < 4; i++) await step(page);
    // force the third candidate at step 2, under other settings, then go on
    await setField(page, "Temperature", "1.4");
    await setField(page, "Top-k", "5");
    await chips(page).nth(1).getByRole("button").click();
    await page.locator('#stages [data-stage="softmax"] [role="button"]').nth(2).click();
    for (let i = 0; i < 2 && !(await page.locator("#step").isDisabled()); i++) await step(page);
    await setField(page, "Temperature", "1");
    const branch = await seen(page);
    await page.locator("#tree button").first().click();
    const first = await seen(page);
    const link = await page.evaluate(() => location.search);
    assert.match(link, /[?&]v=2&/);
    assert.match(link, /set=0_0_temperature%3A0\.7/);
    assert.match(link, /&at=0(&|$)/, "the first path was on screen");
    await context.close();

    const again = await open(link);
    assert.ok(await again.page.locator("#url-notice").isHidden(), "a page-made link has no problems");
    assert.equal(await again.page.locator("#tree button").first().getAttribute("aria-current"), "true", "the path on screen is the one shared");
    const same = (after, before, name) => {
      assert.equal(after.length, before.length, name);
      for (let i = 0; i < before.length; i++) assert.deepEqual(after[i], before[i], `${name}, step ${i + 1}`);
    };
    same(await seen(again.page), first, "the first path");
    await again.page.locator("#tree button").nth(1).click();
    same(await seen(again.page), branch, "the branch");
    await again.context.close();

    const bad = await open(`${link}&set=0_1_temperature:9&set=0_2_color:red`);
    const text = await bad.page.locator("#url-notice").innerText();
    assert.match(text, /set = “0_1_temperature:9”: must be a path, a token and settings/);
    assert.match(text, /set = “0_2_color:red”/);
    await bad.context.close();
  });

  test("a link written before settings travelled per step (no v) still opens under its one set of settings", async () => {
    const { page, context } = await open("?lang=en&source=manual&preset=react-zh&strategy=greedy&path=0.0");
    assert.ok(await page.locator("#url-notice").isHidden());
    assert.equal(await chips(page).count(), 2);
    await context.close();
  });
});
