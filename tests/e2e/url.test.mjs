// Shareable state: the URL carries the whole state (input, every parameter, seed, every path and
// branch, the step inspected, lesson, language, modes), so opening a link reproduces exactly the
// same tokens. Hostile or malformed fields fall back one by one, with a visible plain-text notice.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite } from "./harness.mjs";

const open = browserSuite();

const chips = (page) => page.locator("#chips li");
async function tokens(page) {
  return chips(page).evaluateAll((items) => items.map((li) => `${li.textContent}|${li.dataset.forced ?? "false"}`));
}
async function stepN(page, n) {
  for (let i = 0; i < n; i++) await page.getByRole("button", { name: "Step", exact: true }).click();
}
/** The page's own address, as its Share dialog would copy it. */
const query = (page) => page.evaluate(() => location.search);

describe("URL state", () => {
  test("a sampled model path with a forced branch reopens token for token, on the same branch and step", async () => {
    const { page, context } = await open("?lang=en");
    await page.getByLabel("Preset").selectOption("plugin-zh");
    await page.getByLabel("Temperature", { exact: true }).fill("1.3");
    await page.getByLabel("Seed", { exact: true }).fill("2024");
    await page.getByLabel("Seed", { exact: true }).press("Tab");
    await stepN(page, 6);
    // branch: force the third candidate at step 3, then continue
    await chips(page).nth(2).getByRole("button").click();
    await page.locator('#stages [data-stage="softmax"] [role="button"]').nth(2).click();
    await stepN(page, 3);
    await chips(page).nth(1).getByRole("button").click(); // inspect step 2
    const before = { tokens: await tokens(page), chosen: await page.locator("#stat-chosen").textContent(), paths: await page.locator("#tree button").allTextContents() };
    const link = await query(page);
    assert.match(link, /temperature=1\.3/);
    assert.match(link, /seed=2024/);
    assert.match(link, /branch=0_2_\d+f/);
    await context.close();

    const again = await open(link);
    const after = { tokens: await tokens(again.page), chosen: await again.page.locator("#stat-chosen").textContent(), paths: await again.page.locator("#tree button").allTextContents() };
    assert.deepEqual(after, before);
    assert.equal(await again.page.getByLabel("Temperature", { exact: true }).inputValue(), "1.3");
    assert.ok(await again.page.locator("#url-notice").isHidden(), "a page-made link has no problems");
    assert.deepEqual(again.problems.console, []);
    // the other path of the link comes back too, as it was
    await again.page.locator("#tree button").first().click();
    assert.equal(await chips(again.page).count(), 6);
    await again.context.close();
  });

  test("manual logits, greedy and the language reopen exactly", async () => {
    const { page, context } = await open("?lang=zh&source=manual&preset=react-zh&strategy=greedy");
    await stepN(page, 0);
    for (let i = 0; i < 3; i++) await page.getByRole("button", { name: "单步", exact: true }).click();
    const before = await tokens(page);
    assert.equal(before[0], "用户|false");
    const link = await query(page);
    await context.close();
    const again = await open(link);
    assert.deepEqual(await tokens(again.page), before);
    assert.equal(await again.page.evaluate(() => document.documentElement.lang), "zh-CN");
    assert.equal(await again.page.getByLabel("策略").inputValue(), "greedy");
    await again.context.close();
  });

  test("hostile and malformed fields fall back one by one, named in a plain-text notice", async () => {
    const hostile = encodeURIComponent('<img src=x onerror="document.body.dataset.pwned=1">');
    const { page, context, problems } = await open(
      `?lang=en&source=manual&preset=capital-zh&temperature=abc&top_p=7&top_k=3&seed=12&engine=${hostile}&path=1.2.x&prompt=${hostile}&evil=${hostile}`,
    );
    const notice = page.locator("#url-notice");
    await notice.waitFor();
    const text = await notice.textContent();
    for (const field of ["temperature", "top_p", "engine", "path", "evil"]) assert.match(text, new RegExp(`${field} =`));
    assert.match(text, /must be a number from 0 to 2/);
    // valid fields were kept, invalid ones took defaults
    assert.equal(await page.getByLabel("Top-k", { exact: true }).inputValue(), "3");
    assert.equal(await page.getByLabel("Seed", { exact: true }).inputValue(), "12");
    assert.equal(await page.getByLabel("Temperature", { exact: true }).inputValue(), "0.8");
    assert.equal(await page.getByLabel("Engine").inputValue(), "hf");
    // nothing from the URL became markup
    assert.equal(await page.locator("img[src=x]").count(), 0);
    assert.equal(await page.evaluate(() => document.body.dataset.pwned ?? null), null);
    assert.equal(await page.getByLabel("Prompt").inputValue(), decodeURIComponent(hostile));
    await page.getByRole("button", { name: "Dismiss" }).click();
    assert.ok(await notice.isHidden());
    assert.deepEqual(problems.console, []);
    await context.close();
  });

  test("a path that no longer fits is cut where it breaks, and said so", async () => {
    const { page, context } = await open("?lang=en&source=manual&preset=react-zh&strategy=greedy&path=0.99999.1");
    const text = await page.locator("#url-notice").textContent();
    assert.match(text, /token 2/);
    assert.equal(await chips(page).count(), 1);
    await context.close();
  });
});
