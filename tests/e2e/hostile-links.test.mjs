// Hostile links in a real browser: every parameter out of range at once, fields given twice,
// percent-encoding broken (bytes that are not UTF-8, a lone surrogate's bytes, `%` alone), 100 KB
// of prompt, path or key. Each time the page loads, names in its notice every field it could not
// use as written, and works: Step adds a token, and the link it then writes opens without a notice.
// (url.test.mjs and links.test.mjs cover markup, bidi characters, cut links, 100,000 keys, 1 MB.)
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { browserSuite, CSP, DIST, ownState } from "./harness.mjs";

const open = browserSuite();

/**
 * Opens `query` (a request line longer than the test server takes is answered with the page's own
 * index.html, as a server without that limit would), then checks the promise: ready, no console
 * error, a notice naming each of `fields` (`field = “…”` in English), Step adds a token, and the
 * page's own link reads back cleanly. Returns the page and the notice's lines for more checks.
 */
async function opensAndWorks(query, fields) {
  const beforeGoto = (page) =>
    page.route(
      (url) => url.search.length > 8000,
      (route) => route.fulfill({ path: join(DIST, "index.html"), headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": CSP } }),
    );
  const opened = await open(query, { beforeGoto });
  const { page, problems } = opened;
  const lines = await page.locator("#url-notice-list li").allTextContents();
  for (const field of fields) {
    assert.ok(lines.some((line) => line.startsWith(`${field} = `)), `${field} named in the notice: ${JSON.stringify(lines)}`);
  }
  const chips = page.locator("#chips li");
  const before = await chips.count();
  await page.getByRole("button", { name: "Step", exact: true }).click();
  await page.waitForFunction((n) => document.querySelectorAll("#chips li").length === n + 1, before);
  assert.deepEqual(problems.console, []);
  // the link the page now writes opens as it is, without a notice
  await page.goto(`${new URL(page.url()).origin}/${await ownState(page)}`);
  await page.waitForSelector("body[data-ready='true']");
  assert.ok(await page.locator("#url-notice").isHidden(), `the page's own link has problems: ${page.url().slice(0, 300)}`);
  return { ...opened, lines };
}

describe("hostile links", () => {
  test("every parameter out of range at once: each named, defaults used, the page steps", async () => {
    const out = {
      temperature: "9", top_k: "51", top_p: "0", min_p: "2", typical_p: "0", repetition_penalty: "0.1", frequency_penalty: "3",
      presence_penalty: "-3", seed: "-1", max_new_tokens: "0", min_new_tokens: "513", strategy: "nope", engine: "x", step: "0",
      at: "9", stopped: "2", projector: "7", source: "nowhere", preset: "none", lesson: "none",
    };
    // (20 problems are listed one by one, the rest counted: `v` here would be the 21st)
    const { page, context } = await opensAndWorks(`?lang=en&${new URLSearchParams(out)}`, Object.keys(out));
    assert.equal(await page.getByLabel("Temperature", { exact: true }).inputValue(), "0.8");
    assert.equal(await page.getByLabel("Seed", { exact: true }).inputValue(), "84");
    await context.close();
  });

  test("a field given twice: the last is used and the earlier named; a list field keeps every value", async () => {
    const { page, context, lines } = await opensAndWorks("?lang=zh&lang=en&source=model&temperature=0.5&temperature=1.7&seed=1&seed=2&seed=3&stop=%E3%80%82&stop=!", ["temperature", "seed", "lang"]);
    assert.ok(lines.some((line) => /^seed = “1 2”: .*“3”/.test(line)), JSON.stringify(lines));
    assert.equal(await page.getByLabel("Temperature", { exact: true }).inputValue(), "1.7");
    assert.equal(await page.getByLabel("Seed", { exact: true }).inputValue(), "3");
    assert.ok(!lines.some((line) => line.startsWith("stop = ")), "stop may be given more than once");
    await context.close();
  });

  test("broken percent-encoding: bytes that are not UTF-8 in the prompt are named, a stray % is kept as text", async () => {
    // `%E4%B8` is two thirds of 中; `%` alone and `%zz` are no escapes at all
    const { page, context, lines } = await opensAndWorks("?lang=en&source=model&prompt=%E4%B8%&seed=%zz&top_k=%&x%=1&%=%", ["prompt", "seed", "top_k", "x%", "%"]);
    assert.equal(await page.getByLabel("Prompt").inputValue(), "\uFFFD%");
    assert.ok(lines.some((line) => /^prompt = “\uFFFD%”: holds percent-escapes that are not UTF-8 text/.test(line)), JSON.stringify(lines));
    await context.close();
  });

  test("a lone surrogate's bytes in the prompt (and in a stop) are named, shown as U+FFFD, and the model reads the rest", async () => {
    // UTF-8 cannot hold a lone surrogate: these are the bytes a careless encoder writes for \uD800 and \uDC00
    const { page, context } = await opensAndWorks("?lang=en&source=model&prompt=%ED%A0%80abc%ED%B0%80&stop=x%ED%A0%80", ["prompt", "stop"]);
    assert.equal(await page.getByLabel("Prompt").inputValue(), "\uFFFD\uFFFD\uFFFDabc\uFFFD\uFFFD\uFFFD");
    // a link that writes U+FFFD itself (as the page does) has nothing wrong with it
    await page.goto(`${new URL(page.url()).origin}/?lang=en&source=model&prompt=%EF%BF%BDabc`);
    await page.waitForSelector("body[data-ready='true']");
    assert.ok(await page.locator("#url-notice").isHidden());
    await context.close();
  });

  test("100 KB of prompt, of path or of key: cut or refused by name, and the page still steps", async () => {
    const long = "x".repeat(100 * 1024);
    const prompt = await opensAndWorks(`?lang=en&source=manual&preset=capital-zh&prompt=${long}`, ["prompt"]);
    assert.equal((await prompt.page.getByLabel("Prompt").inputValue()).length, 2000);
    await prompt.context.close();
    const path = Array.from({ length: 20_000 }, (_, i) => i % 5).join(".");
    (await opensAndWorks(`?lang=en&source=manual&preset=capital-zh&path=${path}`, ["path"])).context.close();
    const key = await opensAndWorks(`?lang=en&source=model&${long}=1`, [`${"x".repeat(40)}…`]);
    await key.context.close();
  });
});
