// QA pass 9, in Chromium: a shared link never loses what it carried. A link whose prompt is longer
// than the model reads keeps its paths in the address bar (and says why it could not replay them,
// zh and en) until the user changes something; a handout printed inside an embed links to the full
// page; a state field after `#` on a link that also has a query is read or named.
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite } from "./harness.mjs";

const open = browserSuite();
const chips = (page) => page.locator("#chips li").allInnerTexts();
const notice = (page) => page.locator("#url-notice");
const address = (page) => page.evaluate(() => location.search + location.hash);

describe("a link with paths whose prompt is longer than the model reads", () => {
  let link = "";
  before(async () => {
    const { page, context } = await open("?lang=en");
    await page.getByRole("button", { name: "Step", exact: true }).click();
    await page.getByRole("button", { name: "Step", exact: true }).click();
    const query = new URLSearchParams(await page.evaluate(() => location.search));
    // ~300 words: within the link's 2,000 characters, far over the model's tokens
    query.set("prompt", "the cat sat on the mat and ".repeat(40).trim());
    link = `?${query.toString()}`;
    await context.close();
  });

  test("keeps the whole link in the address bar, and says why and what to do (en, zh)", async () => {
    assert.match(link, /&path=\d+\.\d+&/);
    const { page, context, problems } = await open(link);
    assert.deepEqual(await chips(page), []);
    const en = await notice(page).textContent();
    assert.ok(await notice(page).isVisible());
    assert.match(en, /1 path\(s\) \(2 tokens\) could not be replayed: the prompt is too long for the model \(.*at most 127 tokens, got \d+\)/);
    assert.match(en, /The address bar keeps the whole link until you change something/);
    assert.equal(await address(page), link);
    await page.getByRole("button", { name: "切换到中文" }).click();
    const zh = await notice(page).textContent();
    assert.match(zh, /链接里的 1 条路径（共 2 个 Token）无法重放：提示词对模型来说太长了（提示词最多 127 个 Token/);
    // switching the language is no change of what the link shows: the paths stay in the address bar
    assert.match(await address(page), /&path=\d+\.\d+&/);
    // the user's own change (a shorter prompt) is what the address bar follows
    await page.locator("#prompt").fill("the cat sat");
    await page.locator("#prompt").press("Enter");
    await page.waitForFunction(() => new URLSearchParams(location.search).get("prompt") === "the cat sat");
    // (Enter also steps: whatever path there is now is the new prompt's, not the link's)
    assert.notEqual(new URLSearchParams(await address(page)).get("path"), new URLSearchParams(link).get("path"));
    assert.deepEqual(problems.console, []);
    await context.close();
  });
  test("over the link's 2,000 characters: the prompt box holds its start, and the messages name the model's limit in tokens", async () => {
    const query = new URLSearchParams(link);
    query.set("prompt", "the cat sat on the mat and ".repeat(100).trim());
    const longer = `?${query.toString()}`;
    const { page, context, problems } = await open(longer);
    assert.deepEqual(await chips(page), []);
    assert.equal(await page.locator("#prompt").inputValue(), query.get("prompt").slice(0, 2000));
    const text = await notice(page).textContent();
    assert.match(text, /longer than 2000 characters, far more than the model reads/);
    assert.match(text, /could not be replayed: the prompt is too long for the model \(.*at most 127 tokens/);
    assert.match(await page.locator("#error").textContent(), /at most 127 tokens/);
    assert.equal(await address(page), longer);
    assert.deepEqual(problems.console, []);
    await context.close();
  });
});

describe("a handout printed inside an embed", () => {
  test("links to the full page, not the embed layout", async () => {
    const { page, context, problems } = await open("?lang=en&embed=1&seed=7");
    assert.equal(await page.evaluate(() => document.body.dataset.embed), "true");
    assert.match(await address(page), /embed=1/);
    const printed = await page.locator("#handout-link").textContent();
    const url = new URL(printed);
    assert.equal(url.searchParams.get("embed"), null, printed);
    assert.equal(url.searchParams.get("seed"), "7");
    const full = await context.newPage();
    await full.goto(printed);
    await full.waitForSelector("body[data-ready='true']");
    assert.equal(await full.evaluate(() => document.body.dataset.embed), undefined);
    assert.deepEqual(problems.console, []);
    await context.close();
  });
});

describe("a state field after # on a link that also has a query", () => {
  test("`#step=1` is read (the page opens on step 1), and the address bar holds it in the query", async () => {
    const { page, context } = await open("?lang=en&seed=3");
    for (let i = 0; i < 3; i++) await page.getByRole("button", { name: "Step", exact: true }).click();
    const link = await address(page);
    await context.close();
    assert.doesNotMatch(link, /step=/);
    const opened = await open(`${link}#step=1`);
    assert.match(await opened.page.locator("#inspector-step").textContent(), /Step 1\b/);
    assert.ok(await notice(opened.page).isHidden(), await notice(opened.page).textContent());
    assert.match(await address(opened.page), /&step=1&/);
    assert.deepEqual(opened.problems.console, []);
    await opened.context.close();
  });

  test("a field in both: the one after # is used, and the notice says so (zh)", async () => {
    const { page, context, problems } = await open("?lang=zh&seed=3&temperature=0.8#temperature=1.5");
    assert.equal(await page.getByLabel("温度", { exact: true }).inputValue(), "1.5");
    assert.match(await notice(page).textContent(), /temperature =「0\.8」：出现了不止一次；使用的是最后一个值「1\.5」/);
    assert.deepEqual(problems.console, []);
    await context.close();
  });
});
