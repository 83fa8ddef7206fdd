// Links as they arrive in real life, in Chromium: a `)` or `。` pasted after them, `&amp;` from an
// HTML editor, percent-encoded twice, the state after `#` (alone or after a query), upper-case keys,
// a key given twice, a link cut off at 2,000–8,000 characters, and an old link (no `v`, no `at`)
// with branches: each opens whole, or keeps what came before the damage and names it, and leaves a
// clean address.
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, screenshot, ownState } from "./harness.mjs";

const open = browserSuite();
const chips = (page) => page.locator("#chips li").allInnerTexts();
const chipItems = (page) => page.locator("#chips li");
const notice = (page) => page.locator("#url-notice");
const address = (page) => page.evaluate(() => location.search + location.hash);
const step = (page) => page.getByRole("button", { name: "Step", exact: true }).click();

describe("a model link as chat apps, LMSs and editors pass it on", () => {
  let link = "";
  let seen = [];
  before(async () => {
    const { page, context } = await open("?lang=en");
    await page.getByLabel("Preset").selectOption("plugin-zh");
    for (let i = 0; i < 4; i++) await page.getByRole("button", { name: "Step", exact: true }).click();
    link = await ownState(page);
    seen = await chips(page);
    await context.close();
  });

  const arrivals = {
    "with “)” after it": (q) => `${q})`,
    "with “。” after it": (q) => `${q}%E3%80%82`,
    "with a space after it": (q) => `${q}%20`,
    "with & written &amp;": (q) => q.replace(/&/g, "&amp;"),
    "percent-encoded twice": (q) => q.replace(/%/g, "%25"),
    "percent-encoded whole": (q) => `?${encodeURIComponent(q.slice(1))}`,
    "after # instead of ?": (q) => `#${q.slice(1)}`,
    "with upper-case and hyphenated keys": (q) => q.replace("lang=", "LANG=").replace("top_p=", "Top-P="),
    "with lang=en-US (a language tag)": (q) => q.replace("lang=en", "lang=en-US"),
    "shared on WeChat and through a campaign (from=, isappinstalled=, utm_source=)": (q) => `${q}&from=singlemessage&isappinstalled=0&utm_source=course`,
  };
  for (const [how, mangle] of Object.entries(arrivals)) {
    test(`${how}: every token, no notice, and the address bar holds the clean link`, async () => {
      assert.match(link, /&path=\d+(\.\d+){3}&end=1$/);
      const { page, context, problems } = await open(mangle(link));
      assert.deepEqual(await chips(page), seen);
      assert.equal(await page.getByLabel("Prompt").inputValue(), "给一个代码编辑器插件起名：");
      assert.ok(await notice(page).isHidden(), `no notice: ${await notice(page).textContent()}`);
      // copy link → a new tab: the same view
      assert.equal(await page.evaluate(() => location.search + location.hash), link);
      assert.deepEqual(problems.console, []);
      await context.close();
    });
  }

  test("a key given twice (`&lang=zh` appended): the last value is used, and the notice says which (zh and en)", async () => {
    const { page, context, problems } = await open(`${link}&lang=zh&temperature=1.5`);
    assert.equal(await page.evaluate(() => document.documentElement.lang), "zh-CN");
    assert.equal(await page.getByLabel("温度", { exact: true }).inputValue(), "1.5");
    const zh = await notice(page).textContent();
    assert.match(zh, /lang =「en」：出现了不止一次；只读取最后一个值「zh」/);
    assert.match(zh, /temperature =「0\.8」：出现了不止一次；只读取最后一个值「1\.5」/);
    await page.getByRole("button", { name: "Switch to English" }).click();
    assert.match(await notice(page).textContent(), /temperature = “0\.8”: given more than once; only the last value, “1\.5”, is read/);
    assert.equal(await page.evaluate(() => new URLSearchParams(location.search).getAll("temperature").length), 1);
    assert.deepEqual(problems.console, []);
    await context.close();
  });

  test("a path with a typo (“…”) keeps the tokens before it, and says how many", async () => {
    const cut = link.replace(/(&path=\d+\.\d+\.)\d+\.\d+&/, "$1…&");
    assert.notEqual(cut, link);
    const { page, context, problems } = await open(cut);
    assert.deepEqual(await chips(page), seen.slice(0, 2));
    assert.match(await notice(page).textContent(), /path = “\d+\.\d+\.…”: must be token ids like 12\.34f\.56 \(f = forced\); the first 2 were used/);
    assert.deepEqual(problems.console, []);
    await context.close();
  });
});

describe("a long link cut off at 2,000, 4,000 and 8,000 characters", () => {
  // a 110-token path and 14 branches of 100 (forced, as the page writes them; the model reads 128
  // tokens, so a long link is many paths): ~9,300 characters
  const forced = (n, id) => Array.from({ length: n }, (_, i) => `${id + (i % 7)}f`).join(".");
  const branches = Array.from({ length: 14 }, (_, k) => `&branch=0_${k + 1}_${forced(100, 1200 + k)}`).join("");
  const made = `?v=3&lang=en&source=model&preset=plugin-zh&max_new_tokens=512&path=${forced(110, 1100)}${branches}&at=0&end=1`;
  let whole = "";
  before(async () => {
    const { page, context } = await open(made);
    assert.ok(await notice(page).isHidden(), "the whole link reads cleanly");
    assert.equal(await page.locator("#tree button").count(), 15);
    whole = await ownState(page);
    await context.close();
  });
  const origin = "http://127.0.0.1:12345/";
  const cuts = [["in its path", () => whole.indexOf("&path=") + 300], ...[2000, 4000, 8000].map((n) => [`at ${n} characters`, () => n - origin.length])];
  for (const [where, at] of cuts) {
    test(`cut ${where}: the page opens with every whole path and names where the link was cut (en, zh)`, async () => {
      assert.ok(origin.length + whole.length > 9000, `a long link (${whole.length})`);
      const cut = whole.slice(0, at());
      const query = new URLSearchParams(cut);
      const field = [...query.keys()].at(-1);
      const { page, context, problems } = await open(cut);
      // every whole token: the last one may be partial, so it is not used
      const last = query.getAll(field).at(-1);
      const kept = last.replace(/^\d+_\d+_/, "").split(".").length - 1;
      assert.equal(await page.locator("#chips li").count(), field === "path" ? kept : 110);
      const paths = field === "path" ? 1 : query.getAll("branch").length + (kept > 0 ? 1 : 0);
      assert.equal(await page.locator("#tree button").count(), paths === 1 ? 0 : paths, "the paths that arrived, the cut one with its whole tokens");
      const text = await notice(page).textContent();
      assert.match(text, new RegExp(`${field} = “[^”]*”: the link was cut off here on its way .*: the first ${kept} tokens were used`));
      await page.getByRole("button", { name: "切换到中文" }).click();
      assert.match(await notice(page).textContent(), new RegExp(`${field} =「[^」]*」：链接在转发途中从这里被截断了（比页面写出时短）：已使用前 ${kept} 个 Token`));
      if (where.includes("4000")) await screenshot(page, "passed-on-link-cut-4000-zh.png");
      assert.deepEqual(problems.console, []);
      await context.close();
    });
  }
});

describe("an old link with branches and no `at`", () => {
  test("opens on the first path, as the page that wrote it showed", async () => {
    const { page, context } = await open("?lang=en");
    await page.getByLabel("Preset").selectOption("plugin-zh");
    for (let i = 0; i < 4; i++) await step(page);
    // a branch: force the third candidate at step 2, one step more, then back to the first path
    await chipItems(page).nth(1).getByRole("button").click();
    await page.locator('#stages [data-stage="softmax"] [role="button"]').nth(2).click();
    await step(page);
    await page.locator("#tree button").first().click();
    const firstText = await chipItems(page).allInnerTexts();
    const link = await page.evaluate(() => location.search);
    assert.match(link, /&branch=0_1_/);
    assert.match(link, /&at=0(&|$)/);
    await context.close();

    // the same link as every page before v=2 wrote it: no `v`, and `at` only for another path
    const old = link.replace(/[?&]v=\d+/, (m) => (m[0] === "?" ? "?" : "")).replace(/&end=1$/, "").replace(/&at=0(?=&|$)/, "").replace("?&", "?");
    assert.doesNotMatch(old, /[?&](v|at)=/);
    const again = await open(old);
    assert.ok(await again.page.locator("#url-notice").isHidden(), "an old link has no problems");
    assert.equal(await again.page.locator("#tree button").first().getAttribute("aria-current"), "true", "the first path is on screen");
    assert.deepEqual(await chipItems(again.page).allInnerTexts(), firstText);
    await again.context.close();
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
    assert.match(await notice(page).textContent(), /temperature =「0\.8」：出现了不止一次；只读取最后一个值「1\.5」/);
    assert.deepEqual(problems.console, []);
    await context.close();
  });
});
