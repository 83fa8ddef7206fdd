// A fourth QA pass, as a teacher uses the page in front of a class: in projector mode a notice (a
// link made with a model server, a link with problems) leaves the generated text its lines and
// crowds nothing into the final strip; a 100% bar's number is written above the bar, legible, in
// the normal page and in projector mode. Each test failed on the build before its fix.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, installWcag, screenshot } from "./harness.mjs";
import { fitProblems } from "./fit.mjs";

const open = browserSuite();
const SIZES = [
  [1024, 768],
  [1280, 800],
];
const NOTICES = {
  server: { query: "&source=server&server=http://127.0.0.1:9/", box: "#server-link-notice" },
  link: { query: "&temperature=abc&top_p=7", box: "#url-notice" },
};

/** The text strip's height and type, after two Steps. */
async function textStrip(page, lang) {
  const step = page.getByRole("button", { name: lang === "zh" ? "单步" : "Step", exact: true });
  await step.click();
  await step.click();
  await page.waitForFunction(() => document.querySelectorAll("#chips > li").length === 2);
  return page.locator("#generated").evaluate((el) => ({ height: el.getBoundingClientRect().height, px: parseFloat(getComputedStyle(el).fontSize) }));
}

describe("projector mode with a notice: the text strip keeps its lines", () => {
  for (const lang of ["zh", "en"]) {
    for (const [width, height] of SIZES) {
      test(`${lang} ${width}×${height}: a server link's notice and a link's problems leave the text its height, and everything fits`, async () => {
        const base = `?lang=${lang}&projector=1`;
        const viewport = { width, height };
        const plain = await open(base, { viewport });
        const without = await textStrip(plain.page, lang);
        await plain.context.close();
        for (const [kind, notice] of Object.entries(NOTICES)) {
          const { page, context, problems } = await open(`${base}${notice.query}`, { viewport });
          assert.equal(await page.locator(notice.box).isVisible(), true, `${kind}: the notice is shown`);
          const strip = await textStrip(page, lang);
          assert.ok(strip.height >= without.height - 1, `${kind}: the text strip keeps its height (${strip.height} px, ${without.height} px without the notice)`);
          assert.equal(strip.px, without.px, `${kind}: and its type`);
          assert.deepEqual(await page.evaluate(fitProblems, { minPx: 24 }), [], `${kind}: fits one screen, nothing overlaps`);
          await screenshot(page, `qa4-notice-${kind}-${lang}-${width}x${height}.png`);
          assert.deepEqual(problems, { console: [], foreign: [] });
          await context.close();
        }
      });
    }
  }
});

describe("a 100% bar's number is written above the bar, legible", () => {
  for (const [mode, query, viewport] of [
    ["normal", "", { width: 1280, height: 900 }],
    ["projector", "&projector=1", { width: 1024, height: 768 }],
  ]) {
    for (const lang of ["zh", "en"]) {
      test(`${mode} mode (${lang}): top-k 1 leaves top-p one token at 100%; its number sits over the bar and the curve, inside the chart, at AA contrast`, async () => {
        const { page, context } = await open(`?lang=${lang}&top_k=1&top_p=0.9${query}`, { viewport });
        await page.getByRole("button", { name: lang === "zh" ? "单步" : "Step", exact: true }).click();
        const figure = page.locator('figure[data-stage="top_p"]');
        await figure.scrollIntoViewIfNeeded();
        await installWcag(page);
        const m = await figure.evaluate((fig) => {
          const value = [...fig.querySelectorAll("text.value")].find((t) => /^100(\.0)?%$/.test(t.textContent.trim()));
          const bar = fig.querySelector("rect.bar.chosen");
          const svg = fig.querySelector("svg.chart");
          const curve = fig.querySelector(".cum-curve");
          const box = (el) => el.getBoundingClientRect();
          const style = getComputedStyle(value);
          return {
            text: value?.textContent ?? null,
            value: value && box(value).toJSON(),
            bar: box(bar).toJSON(),
            svg: box(svg).toJSON(),
            curveTop: curve ? box(curve).top : null,
            px: value ? parseFloat(style.fontSize) * (svg.getScreenCTM()?.a ?? 1) : 0,
            contrast: value ? window.wcag.ratio(window.wcag.parse(style.fill), window.wcag.backdrop(svg)) : 0,
          };
        });
        assert.ok(m.text !== null, "the 100% bar's number is drawn");
        assert.ok(m.value.bottom <= m.bar.top + 0.5, `above the bar (text ${m.value.top}–${m.value.bottom}, bar top ${m.bar.top})`);
        assert.ok(m.curveTop === null || m.value.bottom <= m.curveTop + 0.5, `above the running total's curve at 100% (curve top ${m.curveTop})`);
        assert.ok(m.value.top >= m.svg.top - 0.5, `inside the chart, not cut (text top ${m.value.top}, chart top ${m.svg.top})`);
        assert.ok(m.contrast >= 4.5, `contrast ${m.contrast.toFixed(2)} ≥ 4.5`);
        if (mode === "projector") assert.ok(m.px >= 18, `${m.px.toFixed(1)} px on screen`);
        await screenshot(page, `qa4-full-bar-${mode}-${lang}.png`);
        await context.close();
      });
    }
  }
});

describe("projector mode's prompt box, as a teacher types their own sentence", () => {
  const long = "The history of the printing press begins in the fifteenth century, when movable metal type, oil-based ink and a wooden press made books faster than scribes could copy them. ".repeat(4);
  for (const lang of ["zh", "en"]) {
    test(`${lang}: a prompt too long for the model leaves no chart of the previous prompt on screen; a shorter one brings them back`, async () => {
      const { page, context, problems } = await open(`?lang=${lang}&projector=1`, { viewport: { width: 1024, height: 768 } });
      assert.equal(await page.locator(".stages").isVisible(), true);
      await page.keyboard.press("e");
      await page.locator("#pj-prompt-text").fill(long);
      await page.keyboard.press("Enter");
      await page.locator("#error").waitFor({ state: "visible" });
      assert.match(await page.locator("#error").textContent(), lang === "zh" ? /提示词最多 127 个 Token/ : /at most 127 tokens/);
      assert.equal(await page.locator(".stages").isVisible(), false, "the previous prompt's chart is not shown beside the new prompt");
      assert.equal(await page.locator("#final").isVisible(), false);
      assert.deepEqual(await page.evaluate(fitProblems, { minPx: 24 }), [], "the message and the numbers fit");
      await screenshot(page, `qa4-long-prompt-${lang}.png`);
      await page.keyboard.press("e");
      await page.locator("#pj-prompt-text").fill(lang === "zh" ? "今天天气" : "The weather today");
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => document.querySelectorAll("#chips > li").length === 1);
      assert.equal(await page.locator(".stages").isVisible(), true, "the charts are back with a prompt the model reads");
      assert.equal(await page.locator("#error").isVisible(), false);
      assert.deepEqual(problems, { console: [], foreign: [] });
      await context.close();
    });

    test(`${lang}: "</s>" typed in the box is said to be text, not the end token, while it is typed`, async () => {
      const { page, context } = await open(`?lang=${lang}&projector=1`, { viewport: { width: 1024, height: 768 } });
      await page.keyboard.press("e");
      const note = page.locator("#pj-prompt-keys");
      const keys = await note.textContent();
      await page.keyboard.type(lang === "zh" ? "今天天气很好</s>" : "It is sunny</s>");
      assert.match(await note.textContent(), lang === "zh" ? /“<\/s>” 只是 4 个普通字符，不是结束符/ : /“<\/s>” typed here is four ordinary characters, not the end token/);
      assert.equal(await page.locator("#pj-prompt-text").getAttribute("aria-describedby"), "pj-prompt-keys");
      assert.deepEqual(await page.evaluate(fitProblems, { minPx: 24 }), [], "the note fits in the strip's place");
      await screenshot(page, `qa4-eos-note-${lang}.png`);
      for (let i = 0; i < 4; i++) await page.keyboard.press("Backspace");
      assert.equal(await note.textContent(), keys, "without it, the keys again");
      await context.close();
    });
  }
});

describe("projector mode: a lesson link made with a model server", () => {
  for (const lang of ["zh", "en"]) {
    test(`${lang} 1024×768: the notice is one line, and every lesson with it fits one screen (its row of key numbers gives way)`, async () => {
      const { page, context } = await open(`?lang=${lang}&projector=1&lesson=exp3&source=server&server=http://127.0.0.1:9/`, { viewport: { width: 1024, height: 768 } });
      const notice = page.locator("#server-link-notice");
      await notice.waitFor({ state: "visible" });
      const lines = await notice.locator("p").evaluate((p) => Math.round(p.getBoundingClientRect().height / parseFloat(getComputedStyle(p).lineHeight)));
      assert.equal(lines, 1, "one line");
      assert.match(await notice.locator(".notice-short").innerText(), lang === "zh" ? /^这节课用的是 http:\/\/127\.0\.0\.1:9 上的模型服务。$/ : /^A lesson made with the model server at http:\/\/127\.0\.0\.1:9\.$/);
      for (const key of ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"]) {
        await page.keyboard.press(key);
        await page.waitForTimeout(400);
        assert.deepEqual(await page.evaluate(fitProblems, { minPx: 24 }), [], `${lang}: lesson key ${key} with the notice`);
      }
      await screenshot(page, `qa4-lesson-notice-${lang}.png`);
      await context.close();
    });
  }
});
