// QA pass 8, in Chromium: links as they arrive in real life (a `)` or `。` pasted after them, `&amp;`
// from an HTML editor, percent-encoded twice, the state after `#`, upper-case keys) open whole and
// leave a clean address; a key given twice uses the last value and says so; a path cut short keeps
// the tokens before the cut; <nexttoken-playground> names an attribute it does not know and takes
// `height="400px"`.
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, launch, screenshot, serveCoursePage, serveDist, ownState } from "./harness.mjs";

const open = browserSuite();
const chips = (page) => page.locator("#chips li").allInnerTexts();
const notice = (page) => page.locator("#url-notice");

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
    assert.match(zh, /lang =「en」：出现了不止一次；使用的是最后一个值「zh」/);
    assert.match(zh, /temperature =「0\.8」：出现了不止一次；使用的是最后一个值「1\.5」/);
    await page.getByRole("button", { name: "Switch to English" }).click();
    assert.match(await notice(page).textContent(), /temperature = “0\.8”: given more than once; the last value, “1\.5”, was used/);
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
      if (where.includes("4000")) await screenshot(page, "qa8-cut-4000-zh.png");
      assert.deepEqual(problems.console, []);
      await context.close();
    });
  }
});

describe("<nexttoken-playground> with a long prompt, then another one", () => {
  test("a 1,995-character Chinese prompt (18 KB encoded, over Node's 16 KB request line) opens; a changed attribute opens its own page", async () => {
    const server = await serveDist();
    const prompt = "今天天气很好，".repeat(285);
    const course = await serveCoursePage(`<!doctype html><meta charset="utf-8"><title>Lesson</title>
        <script src="${server.url}nexttoken-element.js"></script>
        <nexttoken-playground lang="en" preset="react-zh" prompt="${prompt}"></nexttoken-playground>`);
    const browser = await launch();
    try {
      const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
      const errors = [];
      page.on("pageerror", (err) => errors.push(String(err)));
      await page.goto(course.url);
      const frame = page.frameLocator("nexttoken-playground iframe");
      await frame.locator("body[data-ready='true']").waitFor({ timeout: 30_000 });
      assert.equal(await frame.getByLabel("Prompt").inputValue(), prompt);
      // a course page's script changes the prompt and the strategy: the frame shows the new ones
      await page.evaluate(() => {
        const element = document.querySelector("nexttoken-playground");
        element.setAttribute("prompt", "中国的首都是");
        element.setAttribute("strategy", "greedy");
      });
      // (the new frame: one iframe, ready, with the new prompt; the old frame would keep the old one)
      await page.waitForFunction(() => document.querySelector("nexttoken-playground").shadowRoot.querySelectorAll("iframe").length === 1);
      await frame.locator("body[data-ready='true']").waitFor({ timeout: 30_000 });
      for (let i = 0; i < 50 && (await frame.getByLabel("Prompt").inputValue()) !== "中国的首都是"; i++) await page.waitForTimeout(100);
      assert.equal(await frame.getByLabel("Prompt").inputValue(), "中国的首都是");
      assert.equal(await frame.getByLabel("Strategy").inputValue(), "greedy");
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
      await server.close();
      await course.close();
    }
  });
});

describe("<nexttoken-playground> from a module script tag", () => {
  test("a course page in a folder of the same site with <script type=\"module\">: the frame opens the page next to the script", async () => {
    const server = await serveDist(undefined, {
      handle: (path, res) => {
        if (path !== "/course/lesson.html") return false;
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end(`<!doctype html><meta charset="utf-8"><title>Lesson</title><script type="module" src="/nexttoken-element.js"></script>
          <nexttoken-playground lang="en" preset="capital-zh" strategy="greedy"></nexttoken-playground>`);
        return true;
      },
    });
    const browser = await launch();
    try {
      const page = await browser.newPage();
      await page.goto(`${server.url}course/lesson.html`);
      const frame = page.frameLocator("nexttoken-playground iframe");
      await frame.locator("body[data-ready='true']").waitFor({ timeout: 30_000 });
      await frame.getByRole("button", { name: "Step", exact: true }).click();
      assert.equal(await frame.locator("#chips li").first().textContent(), "北京");
    } finally {
      await browser.close();
      await server.close();
    }
  });
});

describe("<nexttoken-playground> attributes a course author gets wrong", () => {
  test("an unknown attribute and an unusable height are named in the frame; height=\"400px\" is 400 px", async () => {
    const server = await serveDist();
    const course = await serveCoursePage(`<!doctype html><meta charset="utf-8"><title>Lesson</title>
        <script src="${server.url}nexttoken-element.js"></script>
        <nexttoken-playground id="a" class="demo" data-step="1" aria-label="demo" lang="en" preset="react-zh" temprature="0.5" height="400px"></nexttoken-playground>
        <nexttoken-playground id="b" lang="zh-CN" preset="react-zh" height="tall"></nexttoken-playground>`);
    const browser = await launch();
    try {
      const page = await browser.newPage({ viewport: { width: 900, height: 1400 } });
      const errors = [];
      page.on("pageerror", (err) => errors.push(String(err)));
      await page.goto(course.url);
      const a = page.frameLocator("#a iframe");
      const b = page.frameLocator("#b iframe");
      await a.locator("body[data-ready='true']").waitFor({ timeout: 30_000 });
      await b.locator("body[data-ready='true']").waitFor({ timeout: 30_000 });
      const first = await a.locator("#url-notice").textContent();
      assert.match(first, /temprature = “0\.5”: not known to this page/);
      assert.doesNotMatch(first, /class|data-step|aria-label|height/, "HTML's own attributes and a usable height are not the page's problems");
      assert.match(await b.locator("#url-notice").textContent(), /height =「tall」：应为 240 到 4000 之间的数/);
      assert.ok(Math.abs((await page.locator("#a").boundingBox()).height - 400) < 2, "height=\"400px\" is 400 px");
      assert.ok(Math.abs((await page.locator("#b").boundingBox()).height - 640) < 2, "an unusable height keeps the default");
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
      await server.close();
      await course.close();
    }
  });
});
