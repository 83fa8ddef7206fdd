// Opening the multi-file page (dist/index.html): its early script (www/scripts/start-up.mjs) makes
// the wasm's and the model's requests before the bundle runs, and the bundle takes them
// (www/src/early.ts) instead of asking again; without the early script the page loads all the same.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { launch, openPage, serveDist } from "./harness.mjs";

/** A server over dist/ that counts requests by path and can refuse some (404). */
async function countingServer(refuse = () => false) {
  const counts = new Map();
  const server = await serveDist(undefined, {
    handle(path, res) {
      counts.set(path, (counts.get(path) ?? 0) + 1);
      if (!refuse(path)) return false;
      res.writeHead(404).end("not found");
      return true;
    },
  });
  return { server, counts };
}

const payload = (counts) => [...counts].filter(([path]) => /\/assets\/(nexttoken_bg-|model-|tokenizer-)/.test(path));

describe("start-up: the early script", () => {
  let browser;
  before(async () => {
    browser = await launch();
  });
  after(async () => {
    await browser?.close();
  });

  test("its requests are the ones the page uses: each payload file requested once", async () => {
    const { server, counts } = await countingServer();
    try {
      const { page, context, problems } = await openPage(browser, server.url, { query: "?lang=en", watchRequests: false });
      const early = await page.evaluate(() => {
        const found = window.nexttokenEarly;
        return found === null || found === undefined ? null : { wasm: found.wasm instanceof Promise, left: Object.values(found.files).filter((r) => r !== undefined).length, files: Object.keys(found.files).length };
      });
      assert.deepEqual(early, { wasm: true, left: 0, files: 2 }, "the early script ran and the page took the model's two responses");
      const files = payload(counts);
      assert.equal(files.length, 3, `the wasm, the weights and tokenizer.json: ${JSON.stringify(files)}`);
      for (const [path, n] of files) assert.equal(n, 1, `${path} requested ${n} times`);
      await page.click("#step");
      await page.locator("#chips li").first().waitFor({ timeout: 10_000 }); // the core steps the model's logits
      assert.deepEqual(problems.console, []);
      await context.close();
    } finally {
      await server.close();
    }
  });

  test("without it (refused) the page loads the core and the model itself", async () => {
    const { server, counts } = await countingServer((path) => /\/assets\/early-/.test(path));
    try {
      const { page, context } = await openPage(browser, server.url, { query: "?lang=en", watchRequests: false });
      assert.equal(await page.evaluate(() => window.nexttokenEarly), null);
      assert.equal(await page.locator("#source-model").isDisabled(), false, "the model loaded");
      await page.click("#step");
      await page.locator("#chips li").first().waitFor({ timeout: 10_000 });
      assert.equal(payload(counts).length, 3);
      await context.close();
    } finally {
      await server.close();
    }
  });
});
