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
