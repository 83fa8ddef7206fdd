// A third QA pass, as a teacher uses the page in front of a class: the prompt box from the keyboard
// (E, listed with the other shortcuts) pauses Play; the model's Chinese tokens are marked as Chinese
// in the English page; the embed's top row at 800 and 640 px; projector labels clear of the curve.
// Each test failed on the build before its fix.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, screenshot } from "./harness.mjs";

const open = browserSuite();
const chipCount = (page) => page.evaluate(() => document.querySelectorAll("#chips > li").length);

describe("E edits the prompt, and Play pauses while it is edited", () => {
  for (const how of ["the E key", "the ✎ Prompt button"]) {
    test(`projector mode: ${how} opens the prompt box while Play runs; Play pauses, the text stays still under the typing`, async () => {
      const { page, context, problems } = await open("?lang=en&projector=1&max_new_tokens=64", { viewport: { width: 1280, height: 800 } });
      await page.evaluate(() => (document.activeElement instanceof HTMLElement ? document.activeElement.blur() : undefined));
      await page.keyboard.press(" ");
      await page.waitForFunction(() => document.querySelectorAll("#chips > li").length >= 1);
      assert.equal(await page.locator("#play").textContent(), "Pause", "Play runs");
      if (how === "the E key") await page.keyboard.press("e");
      else await page.locator("#pj-prompt-edit").click();
      await page.waitForFunction(() => document.activeElement?.id === "pj-prompt-text");
      assert.equal(await page.locator("#play").textContent(), "Play", "Play paused");
      const count = await chipCount(page);
      await page.keyboard.type("The sky is");
      await page.waitForTimeout(1200);
      assert.equal(await chipCount(page), count, "no token added while the box is open");
      assert.equal(await page.locator("#pj-prompt-text").inputValue(), "The sky is", "the letters went into the box, not to shortcuts");
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => document.querySelectorAll("#chips > li").length === 1 && /The sky is/.test(document.getElementById("prompt-echo")?.textContent ?? ""));
      assert.deepEqual(problems, { console: [], foreign: [] });
      await context.close();
    });
  }

  test("outside projector mode E goes to the sidebar's prompt box (embed: its drawer opens), pausing Play", async () => {
    const { page, context } = await open("?lang=en&max_new_tokens=64");
    await page.locator("#speed").fill("3");
    await page.locator("#play").click();
    await page.locator("#play").blur();
    await page.waitForFunction(() => document.querySelectorAll("#chips > li").length >= 1);
    await page.keyboard.press("e");
    await page.waitForFunction(() => document.activeElement?.id === "prompt");
    assert.equal(await page.locator("#play").textContent(), "Play");
    await context.close();
    const embed = await open("?lang=en&embed=1", { viewport: { width: 800, height: 600 } });
    await embed.page.keyboard.press("e");
    await embed.page.waitForFunction(() => document.activeElement?.id === "prompt");
    assert.equal(await embed.page.locator("#prompt").isVisible(), true, "the drawer opened on it");
    await embed.context.close();
  });

  for (const [lang, said] of [["en", /Edit the prompt/], ["zh", /修改提示词/]]) {
    test(`${lang}: the shortcuts list names E with the others; the prompt controls announce it`, async () => {
      const { page, context } = await open(`?lang=${lang}`);
      await page.keyboard.press("?");
      const dialog = page.locator("#help-dialog");
      await dialog.waitFor({ state: "visible" });
      const rows = await dialog.locator("dl.keys > div").evaluateAll((divs) => divs.map((d) => [d.querySelector("dt").textContent.trim(), d.querySelector("dd").textContent.trim()]));
      const row = rows.find(([key]) => key === "E");
      assert.ok(row !== undefined, JSON.stringify(rows));
      assert.match(row[1], said);
      await page.keyboard.press("Escape");
      assert.equal(await page.locator("#prompt").getAttribute("aria-keyshortcuts"), "E");
      assert.equal(await page.locator("#pj-prompt-edit").getAttribute("aria-keyshortcuts"), "E");
      await context.close();
    });
  }
});

describe("the model's Chinese tokens are marked as Chinese on the English page", () => {
  test("chips, the prompt, the plain text, the chart labels, the final strip, the chosen token and the tooltip carry lang=zh-CN; English tokens do not; the chips keep their size", async () => {
    const { page, context, problems } = await open(`?lang=en&strategy=greedy&prompt=${encodeURIComponent("中国的首都是")}`);
    const widthBefore = await page.evaluate(() => document.getElementById("chips").getBoundingClientRect().height);
    for (let i = 0; i < 3; i++) {
      await page.locator("#step").click();
      await page.waitForFunction((n) => document.querySelectorAll("#chips > li").length === n, i + 1);
    }
    const found = await page.evaluate(() => {
      const HAN = /\p{Script=Han}/u;
      const langOf = (node) => node.closest("[lang]")?.getAttribute("lang");
      /** Every element under `root` whose own text holds Chinese, with the language it is read in. */
      const texts = (root) =>
        [root, ...root.querySelectorAll("*")]
          .filter((e) => [...e.childNodes].some((n) => n.nodeType === 3 && HAN.test(n.textContent)))
          .map((e) => ({ text: e.textContent.trim(), lang: langOf(e) }));
      const english = (root) =>
        [...root.querySelectorAll(".chip, .tick-label")].filter((e) => !HAN.test(e.textContent) && /[a-z]/i.test(e.textContent)).map((e) => ({ text: e.textContent.trim(), lang: langOf(e) }));
      return {
        page: document.documentElement.lang,
        chips: texts(document.getElementById("chips")),
        echo: langOf(document.getElementById("prompt-echo")),
        plain: texts(document.getElementById("plain-text")),
        ticks: texts(document.getElementById("stages")),
        strip: texts(document.getElementById("final")),
        chosen: texts(document.getElementById("stat-chosen")),
        englishChips: english(document.body),
      };
    });
    assert.equal(found.page, "en");
    assert.ok(found.chips.length >= 1, JSON.stringify(found));
    assert.equal(found.echo, "zh-CN");
    for (const part of ["chips", "ticks", "strip", "chosen", "plain"]) {
      assert.ok(found[part].length > 0, `${part}: some Chinese text`);
      const unmarked = found[part].filter((x) => x.lang !== "zh-CN");
      assert.deepEqual(unmarked, [], `${part}: Chinese text read as ${unmarked[0]?.lang}`);
    }
    const englishMarked = found.englishChips.filter((x) => x.lang === "zh-CN");
    assert.deepEqual(englishMarked, [], "English tokens are not marked Chinese");
    // the tooltip over a chart bar names its token in Chinese
    await page.locator("#stages .hit").first().hover();
    await page.waitForFunction(() => document.querySelector(".tip-title [lang='zh-CN']") !== null);
    const widthAfter = await page.evaluate(() => document.getElementById("chips").getBoundingClientRect().height);
    assert.ok(widthAfter <= Math.max(widthBefore, 60), `the chips stay on one line (${widthAfter})`);
    await screenshot(page, "qa3-lang-zh-tokens-en.png");
    assert.deepEqual(problems, { console: [], foreign: [] });
    await context.close();
  });
});

describe("an embed's top row", () => {
  for (const lang of ["en", "zh"]) {
    for (const width of [800, 640]) {
      test(`${lang} ${width} px: one row, nothing cut, every button named as before`, async () => {
        const { page, context } = await open(`?lang=${lang}&embed=1`, { viewport: { width, height: 600 } });
        const row = await page.evaluate(() => {
          const top = document.querySelector(".top");
          const items = [...top.children].filter((e) => e.checkVisibility() && e.getBoundingClientRect().width > 2);
          const boxes = items.map((e) => ({ id: e.id || e.className, top: e.getBoundingClientRect().top, bottom: e.getBoundingClientRect().bottom, right: e.getBoundingClientRect().right, lines: Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight || "20")) }));
          return { boxes, height: top.getBoundingClientRect().height, scroll: top.scrollWidth - top.clientWidth };
        });
        const first = row.boxes[0];
        const off = row.boxes.filter((b) => b.top >= first.bottom);
        assert.deepEqual(off.map((b) => b.id), [], `on a second row: ${JSON.stringify(off)}`);
        assert.ok(row.boxes.every((b) => b.right <= width), "nothing past the frame's edge");
        assert.ok(row.height < 50, `one slim row (${row.height} px)`);
        assert.equal(row.scroll, 0);
        assert.equal(await page.locator("#lang-toggle").isVisible(), true);
        assert.equal(await page.getByRole("button", { name: lang === "en" ? "Shortcuts (?)" : /快捷键/ }).count(), 1);
        await screenshot(page, `qa3-embed-top-${lang}-${width}.png`);
        await context.close();
      });
    }
  }
});

describe("projector mode: the numbers over the top-p bars keep clear of the running total's curve", () => {
  for (const lang of ["en", "zh"]) {
    for (const [width, height] of [[1024, 768], [1280, 800]]) {
      test(`${lang} ${width}×${height}: no number touches the curve, its dots or the p line`, async () => {
        const prompts = lang === "en" ? ["", `&prompt=${encodeURIComponent("The capital of China is")}`] : ["", `&prompt=${encodeURIComponent("中国的首都是")}`];
        for (const prompt of prompts) {
          const { page, context } = await open(`?lang=${lang}&projector=1${prompt}`, { viewport: { width, height } });
          await page.waitForTimeout(200);
          const touching = await page.evaluate(() => {
            const svg = document.querySelector('[data-stage="top_p"] svg');
            const path = svg.querySelector(".cum-curve");
            const ctm = path.getScreenCTM();
            const points = [];
            for (let l = 0; l <= path.getTotalLength(); l += 0.5) {
              const p = path.getPointAtLength(l);
              points.push(new DOMPoint(p.x, p.y).matrixTransform(ctm));
            }
            const dots = [...svg.querySelectorAll(".cum-dots circle")].map((c) => c.getBoundingClientRect());
            const rule = svg.querySelector(".threshold line").getBoundingClientRect();
            const out = [];
            for (const text of svg.querySelectorAll("text.value")) {
              const r = text.getBoundingClientRect();
              const near = (x, y) => x >= r.left - 1 && x <= r.right + 1 && y >= r.top - 1 && y <= r.bottom + 1;
              if (points.some((p) => near(p.x, p.y))) out.push(`${text.textContent} on the curve`);
              if (dots.some((d) => !(d.right < r.left || d.left > r.right || d.bottom < r.top || d.top > r.bottom))) out.push(`${text.textContent} on a dot`);
              if (rule.top >= r.top - 1 && rule.top <= r.bottom + 1 && rule.left <= r.right && rule.right >= r.left) out.push(`${text.textContent} on the p line`);
            }
            return out;
          });
          await screenshot(page, `qa3-projector-top-p-${lang}-${width}${prompt === "" ? "" : "-prompt"}.png`);
          assert.deepEqual(touching, [], `${lang} ${width}×${height} ${prompt}`);
          await context.close();
        }
      });
    }
  }
});
