// Projector mode with a notice, in Chromium (1024×768 and 1280×800, zh and en): a server link's
// notice or a link's problems leave the text strip its lines and crowd nothing (one compact bar);
// a lesson link made with a model server fits one screen beside its one-line notice.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, screenshot } from "./harness.mjs";
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
        // (and the lesson set up: under load it can take longer than the pause)
        await page.waitForFunction(() => !document.getElementById("lessons")?.hasAttribute("aria-busy"));
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        assert.deepEqual(await page.evaluate(fitProblems, { minPx: 24 }), [], `${lang}: lesson key ${key} with the notice`);
      }
      await screenshot(page, `qa4-lesson-notice-${lang}.png`);
      await context.close();
    });
  }
});
