// Embedding: embed mode (?embed=1 / #embed) fits an iframe down to 480 px with no outer scroll, the
// Share / Embed dialog's link and snippets reproduce the state, and <nexttoken-playground> works
// from a course page on another origin that includes only the built script.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { browserSuite, launch, screenshot, serveDist } from "./harness.mjs";

const open = browserSuite();
const chips = (page) => page.locator("#chips li");
async function tokens(page) {
  return chips(page).evaluateAll((items) => items.map((li) => li.textContent));
}

describe("embedding", () => {
  for (const [how, query] of [["?embed=1", "?lang=zh&embed=1&preset=capital-zh&strategy=greedy"], ["#embed", "?lang=zh&preset=capital-zh&strategy=greedy#embed"]]) {
    test(`${how}: minimal chrome, no outer scroll at 480×640, the link's state honoured`, async () => {
      const { page, context, problems } = await open(query, { viewport: { width: 480, height: 640 } });
      assert.equal(await page.evaluate(() => document.body.dataset.embed), "true");
      for (let i = 0; i < 3; i++) await page.getByRole("button", { name: "单步", exact: true }).click();
      const size = await page.evaluate(() => ({ scroll: document.scrollingElement.scrollHeight, height: innerHeight, width: document.scrollingElement.scrollWidth }));
      assert.ok(size.scroll <= size.height, `no outer vertical scroll (${size.scroll} > ${size.height})`);
      assert.ok(size.width <= 480, `no outer horizontal scroll (${size.width})`);
      assert.ok(await page.locator(".foot").isHidden());
      assert.equal(await page.getByLabel("策略").inputValue(), "greedy");
      assert.equal(await page.getByLabel("提示词").inputValue(), "中国的首都是");
      // the way out keeps the state and leaves embed mode
      const full = await page.getByRole("link", { name: "打开完整页面 ↗" }).getAttribute("href");
      assert.match(full, /strategy=greedy/);
      assert.doesNotMatch(full, /embed/);
      assert.match(full, /path=\d+\.\d+\.\d+/);
      if (how === "?embed=1") await screenshot(page, "embed-zh-480x640.png");
      assert.deepEqual(problems.console, []);
      await context.close();
    });
  }

  test("Share / Embed: the link and the iframe snippet reproduce the tokens; without tokens on request", async () => {
    const { page, context } = await open("?lang=en&preset=react-zh&seed=9&temperature=1.2");
    for (let i = 0; i < 4; i++) await page.getByRole("button", { name: "Step", exact: true }).click();
    const before = await tokens(page);
    await page.getByRole("button", { name: "Share / Embed" }).click();
    const dialog = page.getByRole("dialog", { name: "Share or embed this exact state" });
    await dialog.waitFor();
    const link = await dialog.getByLabel("Link", { exact: true }).inputValue();
    const iframe = await dialog.getByLabel("Embed in a course page (iframe)").inputValue();
    const element = await dialog.getByLabel("Or as an element (with the page's script)").inputValue();
    assert.match(iframe, /^<iframe src="[^"]*embed=1[^"]*" title="nexttoken: React 是一个用于构建"/);
    assert.match(element, /<nexttoken-playground [^>]*seed="9"/);
    assert.match(element, /<nexttoken-playground [^>]*temperature="1.2"/);
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await dialog.getByRole("button", { name: "Copy the link" }).click();
    await dialog.getByText("Copied.").waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
    await dialog.getByLabel("Include the generated tokens and paths").uncheck();
    assert.doesNotMatch(await dialog.getByLabel("Link", { exact: true }).inputValue(), /path=/);
    await page.keyboard.press("Escape");
    assert.ok(await dialog.isHidden());

    const again = await open(new URL(link).search);
    assert.deepEqual(await tokens(again.page), before);
    await again.context.close();
    const src = /src="([^"]*)"/.exec(iframe)[1].replaceAll("&amp;", "&");
    const embedded = await open(new URL(src).search, { viewport: { width: 600, height: 640 } });
    assert.deepEqual(await tokens(embedded.page), before);
    assert.equal(await embedded.page.evaluate(() => document.body.dataset.embed), "true");
    await embedded.context.close();
    await context.close();
  });

  test("<nexttoken-playground> on a page of another origin, from the built script alone", async () => {
    const server = await serveDist();
    // the course page: another origin (another port) that includes only the built script
    const course = createServer((req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(`<!doctype html><meta charset="utf-8"><title>Lesson</title><h1>第三章</h1>
        <script src="${server.url}nexttoken-element.js"></script>
        <nexttoken-playground lang="zh" preset="react-zh" strategy="greedy" top-p="0.5" seed="3" height="700"></nexttoken-playground>`);
    });
    await new Promise((resolve) => course.listen(0, "127.0.0.1", resolve));
    const courseUrl = `http://127.0.0.1:${course.address().port}/lesson.html`;
    const browser = await launch();
    try {
      const context = await browser.newContext({ viewport: { width: 900, height: 900 } });
      const foreign = [];
      await context.route("**/*", (route) => {
        const url = route.request().url();
        if (url.startsWith(server.url) || url === courseUrl) return route.continue();
        foreign.push(url);
        return route.abort();
      });
      const page = await context.newPage();
      const errors = [];
      page.on("pageerror", (err) => errors.push(String(err)));
      await page.goto(courseUrl);
      const frame = page.frameLocator("nexttoken-playground iframe");
      await frame.locator("body[data-ready='true']").waitFor({ timeout: 30_000 });
      assert.equal(await frame.getByLabel("策略").inputValue(), "greedy");
      assert.equal(await frame.getByLabel("Top-p").inputValue(), "0.5");
      await frame.getByRole("button", { name: "单步", exact: true }).click();
      assert.equal(await frame.locator("#chips li").first().textContent(), "用户");
      const box = await page.locator("nexttoken-playground").boundingBox();
      assert.ok(Math.abs(box.height - 700) < 2, `height attribute honoured (${box.height})`);
      assert.deepEqual(foreign, []);
      assert.deepEqual(errors, []);
      await context.close();
    } finally {
      await browser.close();
      await server.close();
      await new Promise((resolve) => course.close(resolve));
    }
  });
});
