// Embedding: embed mode (?embed=1 / #embed) fits an iframe down to 480 px with no outer scroll, the
// Share / Embed dialog's link and snippets reproduce the state, and <nexttoken-playground> works
// from a course page on another origin that includes only the built script.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, launch, openPage, screenshot, serveCoursePage, serveDist } from "./harness.mjs";

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

  test("a bare ?embed and an HTML author's ?embed=true open embed mode as #embed does; false, and a bare ?projector, as written; no notice", async () => {
    // (?embed opened the full page with a notice: embed = "" must be one of 0, 1)
    for (const [query, embed, projector] of [["?lang=en&embed", "true", undefined], ["?lang=en&embed=true", "true", undefined], ["?lang=en&embed=TRUE&projector", "true", "true"], ["?lang=en&embed=false", undefined, undefined]]) {
      const { page, context, problems } = await open(query, { viewport: { width: 480, height: 640 } });
      assert.equal(await page.evaluate(() => document.body.dataset.embed), embed, query);
      if (projector !== undefined) assert.equal(await page.evaluate(() => document.body.dataset.projector), projector, query);
      assert.ok(await page.locator("#url-notice").isHidden(), `${query}: no notice`);
      assert.deepEqual(problems.console, []);
      await context.close();
    }
  });

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
    const course = await serveCoursePage(`<!doctype html><meta charset="utf-8"><title>Lesson</title><h1>第三章</h1>
        <script src="${server.url}nexttoken-element.js"></script>
        <nexttoken-playground lang="zh" preset="react-zh" strategy="greedy" top-p="0.5" seed="3" height="700"></nexttoken-playground>`);
    const courseUrl = course.url;
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
      await course.close();
    }
  });

  test("<nexttoken-playground> from every Share snippet shows the same page as the link", async () => {
    const server = await serveDist();
    // a course page on another origin: /<n> serves the n-th element snippet
    const snippets = [];
    const course = await serveCoursePage((path) => `<!doctype html><meta charset="utf-8"><title>Lesson</title>${snippets[Number(path.slice(1))] ?? ""}`);
    const courseUrl = new URL("/", course.url).href;
    const browser = await launch();
    /** What a page shows, as the page itself writes it: its own link (modes aside), chips, paths. */
    const stateOf = async (frame) => ({
      query: await frame.evaluate(() => [...new URLSearchParams(location.search)].filter(([key]) => key !== "embed" && key !== "projector")),
      chips: await frame.locator("#chips li").evaluateAll((items) => items.map((li) => `${li.textContent}|${li.dataset.forced}`)),
      paths: await frame.locator("#tree button").allTextContents(),
      notice: await frame.locator("#url-notice").isVisible(),
    });
    const scenarios = [
      {
        // the model, sampled, min new tokens, with stop sequences (one starts with "[", one has both quotes), a
        // forced branch and a past step inspected
        query: `?lang=en&preset=plugin-zh&temperature=1.3&seed=2024&min_new_tokens=2&stop=zzz&stop=${encodeURIComponent("[q]")}&stop=${encodeURIComponent(`a"b'c`)}`,
        async act(page) {
          for (let i = 0; i < 5; i++) await page.getByRole("button", { name: "Step", exact: true }).click();
          await page.locator("#chips li").nth(2).getByRole("button").click();
          await page.locator('#stages [data-stage="softmax"] [role="button"]').nth(2).click();
          // the settings change between steps: the snippets carry each step's (`set`)
          await page.getByLabel("Temperature", { exact: true }).fill("0.9");
          await page.getByLabel("Temperature", { exact: true }).press("Tab");
          for (let i = 0; i < 2; i++) await page.getByRole("button", { name: "Step", exact: true }).click();
          await page.locator("#chips li").nth(1).getByRole("button").click();
        },
      },
      {
        // hand-made logits with an edited table, greedy, Chinese, a stop sequence, stopped by the user
        query: `?lang=zh&source=manual&preset=react-zh&strategy=greedy&stop=${encodeURIComponent("。\n")}`,
        async act(page) {
          await page.getByLabel("新 Token", { exact: true }).fill("网页");
          await page.getByLabel("新 Token 的 logit", { exact: true }).fill("9");
          await page.getByRole("button", { name: "添加", exact: true }).click();
          for (let i = 0; i < 2; i++) await page.getByRole("button", { name: "单步", exact: true }).click();
          await page.getByRole("button", { name: "停止", exact: true }).click();
        },
      },
    ];
    try {
      for (const [n, scenario] of scenarios.entries()) {
        const made = await openPage(browser, server.url, { query: scenario.query });
        await scenario.act(made.page);
        const original = await stateOf(made.page);
        const share = made.page.locator("#share-dialog");
        await made.page.locator("#share-open").click();
        for (const withTokens of [true, false]) {
          await share.locator("#share-tokens").setChecked(withTokens);
          const link = await share.locator("#share-link").inputValue();
          const element = await share.locator("#share-element").inputValue();
          assert.match(element, /<nexttoken-playground [^>]*\bstop=/, "the snippet carries the stop sequences");
          if (n === 1) assert.match(element, /<nexttoken-playground [^>]*\btable=/, "and the edited table");
          if (n === 0 && withTokens) assert.match(element, /<nexttoken-playground [^>]*\bset=/, "and each step's settings");
          const linked = await openPage(browser, server.url, { query: new URL(link).search });
          const expected = await stateOf(linked.page);
          await linked.context.close();
          if (withTokens) assert.deepEqual(expected, original, "the link reproduces the page");
          snippets.push(element);
          const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
          const errors = [];
          const page = await context.newPage();
          page.on("pageerror", (err) => errors.push(String(err)));
          await page.goto(`${courseUrl}${snippets.length - 1}`);
          const frame = await (await page.locator("nexttoken-playground iframe").elementHandle()).contentFrame();
          await frame.waitForSelector("body[data-ready='true']", { timeout: 30_000 });
          assert.deepEqual(await stateOf(frame), expected, `scenario ${n}, tokens ${withTokens}: element ≡ page`);
          assert.deepEqual(errors, []);
          await context.close();
        }
        await made.context.close();
      }
    } finally {
      await browser.close();
      await server.close();
      await course.close();
    }
  });

  test("the element's iframe is sandboxed and the page inside still works: clipboard, full page link", async () => {
    const server = await serveDist();
    const course = await serveCoursePage(`<!doctype html><meta charset="utf-8"><title>Lesson</title>
        <script src="${server.url}nexttoken-element.js"></script>
        <nexttoken-playground lang="en" preset="capital-zh" strategy="greedy"></nexttoken-playground>`);
    const courseUrl = new URL("/", course.url).href;
    const browser = await launch();
    try {
      const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
      await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      const page = await context.newPage();
      const errors = [];
      page.on("pageerror", (err) => errors.push(String(err)));
      await page.goto(courseUrl);
      const iframe = page.locator("nexttoken-playground iframe");
      assert.equal(await iframe.getAttribute("sandbox"), "allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox");
      const frame = await (await iframe.elementHandle()).contentFrame();
      await frame.waitForSelector("body[data-ready='true']", { timeout: 30_000 });
      await frame.getByRole("button", { name: "Step", exact: true }).click();
      assert.equal(await frame.locator("#chips li").count(), 1);
      // the page cannot navigate the course page
      await frame.evaluate(() => {
        try {
          window.top.location.href = "about:blank";
        } catch {
          // refused by the sandbox
        }
      });
      assert.equal(page.url(), courseUrl);
      // "Open full page ↗" opens the same state in a new tab, outside the sandbox
      const [popup] = await Promise.all([context.waitForEvent("page"), frame.getByRole("link", { name: "Open full page ↗" }).click()]);
      await popup.waitForSelector("body[data-ready='true']");
      assert.equal(await popup.locator("#chips li").count(), 1);
      assert.equal(await popup.evaluate(() => document.body.dataset.embed ?? null), null);
      // copying works from inside the frame (the Share dialog's Copy), and fullscreen is allowed
      assert.equal(await frame.evaluate(() => document.fullscreenEnabled), true);
      await frame.getByRole("button", { name: "Share / Embed" }).click();
      await frame.getByRole("button", { name: "Copy the link" }).click();
      await frame.getByText("Copied.").waitFor();
      // read back on the course page (the frame may write the clipboard, not read it)
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      assert.match(copied, /preset=capital-zh/);
      assert.deepEqual(errors, []);
      await context.close();
    } finally {
      await browser.close();
      await server.close();
      await course.close();
    }
  });
});
