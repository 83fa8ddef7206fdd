// Shareable state: the URL carries the whole state (input, every parameter, seed, every path and
// branch, the step inspected, lesson, language, modes), so opening a link reproduces exactly the
// same tokens. Hostile or malformed fields fall back one by one, with a visible plain-text notice.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, seededRandom as rng } from "./harness.mjs";

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
    // up to three more steps: the model may end the branch sooner (the second edition does here)
    for (let i = 0; i < 3 && !(await page.locator("#step").isDisabled()); i++) await stepN(page, 1);
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

  test("edited hand-made tables travel with the link, new tokens included", async () => {
    const { page, context } = await open("?lang=en&source=manual&preset=react-zh&strategy=greedy");
    // the learner lowers 用户 and adds a token that beats everything
    await page.getByLabel("Logit of 用户", { exact: true }).fill("0.5");
    await page.getByLabel("Logit of 用户", { exact: true }).press("Tab");
    await page.getByLabel("New token", { exact: true }).fill("网页");
    await page.getByLabel("New token's logit", { exact: true }).fill("9");
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await page.getByRole("button", { name: "Step", exact: true }).click();
    await page.getByRole("button", { name: "Step", exact: true }).click();
    const before = await tokens(page);
    assert.equal(before[0], "网页|false");
    const link = await query(page);
    assert.match(link, /table=0%3A/);
    await context.close();
    const again = await open(link);
    assert.deepEqual(await tokens(again.page), before);
    assert.ok(await again.page.locator("#url-notice").isHidden());
    await again.page.getByRole("button", { name: "Reset", exact: true }).click();
    assert.equal(await again.page.getByLabel("Logit of 用户", { exact: true }).inputValue(), "0.5");
    await again.context.close();
  });

  test("hostile and malformed fields fall back one by one, named in a plain-text notice", async () => {
    const hostile = encodeURIComponent('<img src=x onerror="document.body.dataset.pwned=1">');
    const { page, context, problems } = await open(
      `?lang=en&source=manual&preset=capital-zh&temperature=abc&top_p=7&top_k=3&seed=12&engine=${hostile}&path=1.2.x&prompt=${hostile}&evil=${hostile}&table=${encodeURIComponent('0:[["x",1e999]]')}`,
    );
    const notice = page.locator("#url-notice");
    await notice.waitFor();
    const text = await notice.textContent();
    for (const field of ["temperature", "top_p", "engine", "path", "evil", "table"]) assert.match(text, new RegExp(`${field} =`));
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
    // the notice follows the language toggle
    await page.getByRole("button", { name: "切换到中文" }).click();
    assert.match(await notice.textContent(), /temperature =「abc」：应为 0 到 2 之间的数/);
    await page.getByRole("button", { name: "Switch to English" }).click();
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

describe("URL state under random input", () => {
  const KEYS = ["lang", "source", "preset", "prompt", "strategy", "engine", "temperature", "top_k", "top_p", "min_p", "typical_p", "repetition_penalty", "frequency_penalty", "presence_penalty", "seed", "max_new_tokens", "stop", "path", "branch", "at", "stopped", "step", "table", "lesson", "projector", "embed", "x"];
  const VALUES = ["", "0", "1", "-1", "0.5", "1e309", "NaN", "Infinity", "-0", "4294967296", "zh", "en", "model", "manual", "greedy", "hf", "vllm", "react-zh", "exp3",
    "<script>alert(1)</script>", "\u0000", "💥".repeat(300), "a".repeat(5000), "1.2.3f.4", "0_0_1f.2", "0_9_1f", "99999999", "3.x", "1f.1f.1f", "%E4%B8", '0:[["网页",9]]', '99:[["a",1]]', '1:[["",1]]'];
  function randomQuery(next) {
    const parts = [];
    const n = 1 + Math.floor(next() * 8);
    for (let i = 0; i < n; i++) {
      const key = KEYS[Math.floor(next() * KEYS.length)];
      let value = VALUES[Math.floor(next() * VALUES.length)];
      if (key === "path" || key === "branch") {
        const ids = Array.from({ length: Math.floor(next() * 6) }, () => `${Math.floor(next() * 9000)}${next() < 0.3 ? "f" : ""}`).join(".");
        value = key === "branch" ? `${Math.floor(next() * 3)}_${Math.floor(next() * 4)}_${ids}` : ids;
      }
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(value)}`);
    }
    return `?${parts.join("&")}`;
  }

  test("random links never break the page, and the link the page then writes reads back cleanly", async () => {
    const next = rng(20261130);
    const { page, context, problems } = await open("?lang=en");
    for (let i = 0; i < 12; i++) {
      const q = randomQuery(next);
      await page.goto(`${new URL(page.url()).origin}/${q}`);
      await page.waitForSelector("body[data-ready='true']");
      assert.deepEqual(problems.console, [], `case ${i}: ${q}`);
      // whatever was asked, the page's own address is always a clean link
      const own = page.url();
      await page.goto(own);
      await page.waitForSelector("body[data-ready='true']");
      assert.ok(await page.locator("#url-notice").isHidden(), `case ${i}: the page wrote a link it cannot read: ${own}`);
    }
    await context.close();
  });
});
