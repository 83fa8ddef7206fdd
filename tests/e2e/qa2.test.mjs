// A second QA pass, as users try the page in their first minutes: a phone (390×844 and 320×568), a
// keyboard and screen-reader user, a course author's embed frame, an English-speaking learner, a
// teacher's own sentence. Each test failed on the build before its fix.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, screenshot } from "./harness.mjs";

const open = browserSuite();

describe("a phone: Step follows the prompt, the settings come after the text", () => {
  for (const [width, height] of [[390, 844], [320, 568]]) {
    for (const lang of ["zh", "en"]) {
      test(`${lang} ${width}×${height}: Step before the settings, on or next to the first screen; no sideways scroll`, async () => {
        const { page, context, problems } = await open(`?lang=${lang}`, { viewport: { width, height } });
        const m = await page.evaluate(() => {
          const top = (s) => document.querySelector(s).getBoundingClientRect().top + scrollY;
          return { step: top("#step"), prompt: top("#prompt"), settings: top("#params-h"), temperature: top("#temperature"), scrollWidth: document.scrollingElement.scrollWidth };
        });
        assert.ok(m.step < m.settings && m.step < m.temperature, `Step (${m.step}) comes before the settings (${m.settings})`);
        assert.ok(m.step - m.prompt < 1.1 * height, `Step is ${m.step - m.prompt} px below the prompt box (a screen is ${height})`);
        assert.ok(m.scrollWidth <= width, `no sideways scroll at ${width} px (${m.scrollWidth})`);
        // the tab order is the order on screen: prompt → … → Step → … → temperature
        const order = await page.evaluate(() => {
          const all = [...document.querySelectorAll("textarea, button, input, select")].filter((e) => e.checkVisibility());
          return ["prompt", "step", "temperature"].map((id) => all.indexOf(document.getElementById(id)));
        });
        assert.ok(order[0] < order[1] && order[1] < order[2], `DOM (tab) order prompt < Step < temperature: ${order}`);
        // Step works from there
        await page.locator("#step").click();
        await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
        await page.locator("#step").scrollIntoViewIfNeeded();
        await screenshot(page, `qa2-phone-${width}-${lang}.png`);
        assert.deepEqual(problems, { console: [], foreign: [] });
        await context.close();
      });
    }
  }

  test("the settings card goes back to the sidebar on a wide screen, and stays there in embed mode", async () => {
    const { page, context } = await open("?lang=en", { viewport: { width: 390, height: 844 } });
    const inSidebar = () => page.evaluate(() => document.getElementById("params-h").closest("aside") !== null);
    assert.equal(await inSidebar(), false);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.waitForFunction(() => document.getElementById("params-h").closest("aside") !== null);
    assert.ok((await page.evaluate(() => document.querySelector("#temperature").getBoundingClientRect().left)) < 400, "temperature in the left column");
    await context.close();
    const embed = await open("?lang=en&embed=1", { viewport: { width: 390, height: 600 } });
    assert.equal(await embed.page.evaluate(() => document.getElementById("params-h").closest("aside") !== null), true, "embed: the drawer keeps every setting");
    await embed.context.close();
  });
});

describe("an English-speaking learner", () => {
  test("误解六: the gloss of greedy's wrong answer covers the answer, not only the prompt", async () => {
    const { page, context } = await open("?lang=en&lesson=myth6", { viewport: { width: 1280, height: 900 } });
    const said = page.locator(".lesson-body q", { hasText: "英国的首都是" }).first();
    await page.waitForFunction(() => /英国的首都是.+/.test(document.querySelector(".lesson-body q mark")?.textContent ? document.querySelector(".lesson-body q").textContent : ""));
    const line = await said.evaluate((q) => q.parentElement.textContent);
    assert.match(line, /英国的首都是巴黎 \(“The capital of the UK is Paris”\)/, line);
    await context.close();
  });

  test("实验一: the live context's gloss follows the words the learner adds", async () => {
    const { page, context } = await open("?lang=en&lesson=exp1", { viewport: { width: 1280, height: 900 } });
    const body = page.locator(".lesson-body");
    await body.getByRole("button", { name: /用户/ }).first().click();
    await body.getByRole("button", { name: /^Step/ }).click();
    await page.waitForFunction(() => /React 是一个用于构建用户 \(“React is a … for building user”\)/.test(document.querySelector(".lesson-body").textContent));
    await context.close();
  });

  test("the language button is marked as Chinese in English (and English in Chinese), so it is read in its own voice", async () => {
    const { page, context } = await open("?lang=en");
    assert.equal(await page.locator("#lang-toggle").getAttribute("lang"), "zh-CN");
    await page.locator("#lang-toggle").click();
    await page.waitForFunction(() => document.documentElement.lang === "zh-CN");
    assert.equal(await page.locator("#lang-toggle").getAttribute("lang"), "en");
    await context.close();
  });
});

describe("a teacher's own sentence", () => {
  for (const lang of ["zh", "en"]) {
    test(`${lang}: 2,200 characters say what to do, mark the box, and a shorter prompt steps again`, async () => {
      const { page, context, problems } = await open(`?lang=${lang}`);
      const box = page.locator("#prompt");
      await box.fill("我们今天学习语言模型。".repeat(200));
      await box.press("Enter");
      const alert = page.locator("#error");
      await alert.waitFor();
      const text = await alert.textContent();
      if (lang === "zh") assert.equal(text, "模型无法读取这个提示词：提示词最多 127 个 Token，现在有 1200 个。请缩短提示词，再按回车。");
      else assert.equal(text, "The model could not read the prompt: prompt must be at most 127 tokens, got 1200. Shorten the prompt, then press Enter.");
      assert.equal(await box.getAttribute("aria-invalid"), "true");
      assert.match((await box.getAttribute("aria-describedby")) ?? "", /\berror\b/);
      assert.equal(await page.locator("#step").isDisabled(), true);
      await box.fill("中国的首都是");
      await box.press("Enter");
      await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
      assert.equal(await alert.isHidden(), true);
      assert.equal(await box.getAttribute("aria-invalid"), null);
      assert.doesNotMatch((await box.getAttribute("aria-describedby")) ?? "", /\berror\b/);
      assert.deepEqual(problems, { console: [], foreign: [] });
      await context.close();
    });
  }

  test("emoji, </s>, spaces only and CRLF: each steps, and the text keeps what was typed", async () => {
    const { page, context, problems } = await open("?lang=en");
    const box = page.locator("#prompt");
    for (const [typed, shown] of [["今天天气😀真好🎉", "今天天气😀真好🎉"], ["中国的首都是</s>", "中国的首都是</s>"], ["     ", "     "], ["第一行\r\n第二行", "第一行\n第二行"]]) {
      await box.fill(typed);
      await box.press("Enter");
      await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
      assert.equal(await page.locator("#prompt-echo").textContent(), shown);
      assert.equal(await page.locator("#error").isHidden(), true, `${JSON.stringify(typed)}: no error`);
    }
    assert.deepEqual(problems, { console: [], foreign: [] });
    await context.close();
  });
});

describe("a teacher's prompt with “</s>” in it", () => {
  for (const [lang, words] of [["zh", /只是 4 个普通字符，不是结束符/], ["en", /four ordinary characters, not the end token/]]) {
    test(`${lang}: the page says the typed “</s>” is text, not the end token, and the box is described by it`, async () => {
      const { page, context, problems } = await open(`?lang=${lang}`);
      const box = page.locator("#prompt");
      const note = page.locator("#prompt-eos");
      assert.equal(await note.isHidden(), true, "no note for the preset prompt");
      await box.fill("中国的首都是</s>");
      await box.press("Enter");
      await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
      assert.equal(await note.isVisible(), true);
      assert.match(await note.textContent(), words);
      assert.match(await box.getAttribute("aria-describedby"), /\bprompt-eos\b/);
      await box.fill("中国的首都是");
      await box.press("Enter");
      await page.waitForFunction(() => document.getElementById("prompt-eos").hidden);
      assert.doesNotMatch(await box.getAttribute("aria-describedby"), /prompt-eos/);
      assert.deepEqual(problems, { console: [], foreign: [] });
      await context.close();
    });
  }
});

describe("a course author's embed frame, by keyboard", () => {
  for (const [width, height] of [[640, 480], [800, 600]]) {
    test(`${width}×${height}: tabbing out of the Settings drawer closes it, so no focused control is hidden under it`, async () => {
      const { page, context } = await open("?lang=en&embed=1", { viewport: { width, height } });
      await page.locator("#settings-toggle").focus();
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => document.body.dataset.settings === "open");
      const hidden = [];
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press("Tab");
        const r = await page.evaluate(() => {
          const e = document.activeElement;
          if (e === null || e === document.body) return null;
          const b = e.getBoundingClientRect();
          const points = [[b.left + 2, b.top + 2], [b.right - 2, b.top + 2], [b.left + 2, b.bottom - 2], [b.right - 2, b.bottom - 2], [b.left + b.width / 2, b.top + b.height / 2]];
          const seen = points.some(([x, y]) => {
            const hit = document.elementFromPoint(x, y);
            return hit !== null && (e.contains(hit) || hit.contains(e) || [...(e.labels ?? [])].some((l) => l.contains(hit)));
          });
          return { name: `${e.tagName}#${e.id}`, seen, inDrawer: e.closest("aside") !== null, open: document.body.dataset.settings === "open" };
        });
        if (r === null) break;
        if (!r.seen) hidden.push(r.name);
        if (!r.inDrawer) assert.equal(r.open, false, `${r.name}: the drawer closed when focus left it`);
      }
      assert.deepEqual(hidden, [], "focused controls hidden under the drawer");
      // a click beside the open drawer (Step, to try a setting) keeps it open
      await page.locator("#settings-toggle").click();
      await page.locator("#step").click();
      assert.equal(await page.evaluate(() => document.body.dataset.settings), "open");
      await context.close();
    });
  }
});
