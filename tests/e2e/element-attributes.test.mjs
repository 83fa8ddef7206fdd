// <nexttoken-playground> as course authors use it, in Chromium: a long Chinese prompt (over a
// server's 16 KB request line) opens and a changed attribute opens a fresh frame; the element loaded
// from a module script in a course folder opens the page next to the script; an attribute it does
// not know, or a height it cannot use, is named in the frame; `height="400px"` and `lang="zh-CN"`
// are read; a lesson with settings beside it is set up with them on top.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { launch, serveCoursePage, serveDist } from "./harness.mjs";

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

describe("<nexttoken-playground> naming a lesson and settings", () => {
  test("lesson=\"exp2\" temperature=\"0.5\": 实验二 at T 0.5, the notice saying so; lesson=\"myth1\" with a prompt and a seed: 误解一 on them", async () => {
    const server = await serveDist();
    const course = await serveCoursePage(`<!doctype html><meta charset="utf-8"><title>Lesson</title>
        <script src="${server.url}nexttoken-element.js"></script>
        <nexttoken-playground id="a" lang="zh-CN" lesson="exp2" temperature="0.5"></nexttoken-playground>
        <nexttoken-playground id="b" lang="en" lesson="myth1" prompt="中国的首都是" seed="3"></nexttoken-playground>`);
    const browser = await launch();
    try {
      const page = await browser.newPage({ viewport: { width: 900, height: 1400 } });
      await page.goto(course.url);
      const idle = "body[data-ready='true'] #lessons[data-open='true']:not([aria-busy])";
      const a = page.frameLocator("#a iframe");
      const b = page.frameLocator("#b iframe");
      await a.locator(idle).waitFor({ timeout: 30_000 });
      await b.locator(idle).waitFor({ timeout: 30_000 });
      await page.waitForTimeout(300);
      assert.match(await a.locator("#lesson-title").textContent(), /实验二/);
      assert.equal(await a.locator("#prompt").inputValue(), "React 是一个用于构建", "the lesson's prompt");
      assert.equal(await a.locator("#temperature").inputValue(), "0.5", "the element's temperature (lost to the set-up before)");
      assert.match(await a.locator("#url-notice").textContent(), /temperature =「0\.5」：已代替实验二自己的 1/);
      assert.match(await b.locator("#lesson-title").textContent(), /Myth 1/);
      assert.equal(await b.locator("#prompt").inputValue(), "中国的首都是", "the element's prompt (lost to the set-up before)");
      assert.equal(await b.locator("#seed").inputValue(), "3");
      assert.equal(await b.locator("#strategy").inputValue(), "greedy", "the lesson's own strategy");
      assert.equal(await b.locator("#url-notice").isHidden(), true);
    } finally {
      await browser.close();
      await server.close();
      await course.close();
    }
  });
});
