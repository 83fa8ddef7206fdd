// A learner on a phone (390×844, touch), English: the first minute — a prompt of her own, five Steps —
// leaves every control she can tap at least 24 × 24 px (WCAG 2.5.8), the text's chips included (a
// one-letter token's chip was 13 px wide), and the page never scrolls sideways. Failed on the old build.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, screenshot } from "./harness.mjs";

const open = browserSuite();
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };

/** Every HTML control on screen (not a chart's SVG marks, reached by arrows) smaller than 24 px either way. */
const smallTargets = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll("button, select, input, textarea, summary, a[href], [role='button']:not(svg *)")]
      .filter((el) => el.checkVisibility({ checkVisibilityCSS: true }) && el.getClientRects().length > 0)
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.width < 24 || box.height < 24)
      .map(({ el, box }) => `${el.id || el.textContent.trim().slice(0, 20)} ${box.width.toFixed(0)}×${box.height.toFixed(0)}`),
  );

describe("a phone's first minute: every tap target is a finger's size", () => {
  test("en 390×844: after a prompt and five Steps, no control under 24 px and no sideways scroll", async () => {
    const { page, context, problems } = await open("?lang=en", PHONE);
    const prompt = page.getByLabel("Prompt", { exact: true });
    await prompt.tap();
    await prompt.fill("The weather today is");
    // (one tap at a time: two taps within the double-tap time are one press, views/double-tap.ts)
    for (let i = 1; i <= 5; i++) {
      await page.getByRole("button", { name: "Step", exact: true }).tap();
      await page.waitForFunction((n) => document.querySelectorAll("#chips li").length >= n, i - 1);
      await page.waitForTimeout(400);
    }
    const chips = await page.locator("#chips li").allTextContents();
    assert.ok(chips.some((c) => c.trim().length === 1), `a one-letter token among ${JSON.stringify(chips)}`);
    assert.deepEqual(await smallTargets(page), []);
    const width = await page.evaluate(() => document.scrollingElement.scrollWidth);
    assert.ok(width <= 390, `no sideways scroll (${width})`);
    await page.locator("#chips").scrollIntoViewIfNeeded();
    await screenshot(page, "phone-tap-targets-en-390x844.png");
    assert.deepEqual(problems, { console: [], foreign: [] });
    await context.close();
  });
});
