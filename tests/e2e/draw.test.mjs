// The draw in front of a class (issue 11, points 1 and 2): a first visit opens on typical draws
// (the first Step on each default preset lands within the first 80 % of the final mass); the 0–1
// strip covers all of [0, 1] with a "rest" band, always draws the chosen token's band, and its
// accessible name states u, the chosen token and its band; links that carry a seed keep it.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, screenshot } from "./harness.mjs";

const open = browserSuite();
const L = {
  zh: { step: "单步", region: "生成文本", name: /^u = ([\d.]+) 落在「(.+)」的区间 ([\d.]+) – ([\d.]+)$/, rest: /^其余 [\d,]+ 个 · [\d.]+%$/ },
  en: { step: "Step", region: "Generated text", name: /^u = ([\d.]+) falls in the band of “(.+)”, ([\d.]+) to ([\d.]+)$/, rest: /^rest: [\d,]+ · [\d.]+%$/ },
};

/** The strip's accessible name, parsed: u, the token, its band. */
async function stripName(page, lang) {
  // (a group: its band buttons stay in the accessibility tree, which an img's children do not)
  const name = await page.getByRole("group", { name: lang === "zh" ? /^u = .* 落在/ : /^u = .* falls in/ }).getAttribute("aria-label");
  const m = L[lang].name.exec(name);
  assert.ok(m, name);
  return { name, u: Number(m[1]), token: m[2], from: Number(m[3]), to: Number(m[4]) };
}

/** A chip's text as charts label it (␣ joined to the word). */
const chipLabel = (text) => text.replace(/^␣ /, "␣").trim();

describe("the draw", () => {
  for (const lang of ["zh", "en"]) {
    test(`${lang}: the first Step of a first visit is a typical draw, and the strip names where u fell`, async () => {
      const { page, context, problems } = await open(`?lang=${lang}`);
      const before = await stripName(page, lang);
      // u inside the stated band (3 decimals each), and the band starts within the first 80 %
      assert.ok(before.from - 0.0005 <= before.u && before.u <= before.to + 0.0005, before.name);
      assert.ok(before.from < 0.8, `first pick starts at ${before.from}: ${before.name}`);
      if (lang === "zh") assert.equal(before.token, "超集");
      // why: which seed and draw, and what share of draws picks that band
      const why = await page.locator("#final-explain").textContent();
      assert.match(why, lang === "zh" ? /^u = [\d.]+ 是种子 84 的第 0 次抽样/ : /^u = [\d.]+ is draw 0 of seed 84 /);
      assert.equal(await page.locator("#seed-note").isVisible(), true);
      await page.getByRole("button", { name: L[lang].step, exact: true }).click();
      const chip = page.getByRole("region", { name: L[lang].region }).getByRole("listitem").first();
      assert.equal(chipLabel(await chip.textContent()), before.token);
      // the chip's own step says the same
      await chip.getByRole("button").click();
      assert.equal((await stripName(page, lang)).name, before.name);
      await screenshot(page, `draw-first-visit-${lang}.png`);
      assert.deepEqual(problems.console, []);
      await context.close();
    });
  }

  test("a link's seed is kept exactly; a chosen token beyond the listed ones has its own band inside the rest", async () => {
    // seed 42's first u is 0.955; at T 2 with top-p off it lands far down the vocabulary
    const { page, context } = await open("?lang=en&seed=42&temperature=2&top_p=1");
    assert.equal(await page.getByLabel("Seed", { exact: true }).inputValue(), "42");
    assert.equal(await page.locator("#seed-note").isVisible(), false);
    const s = await stripName(page, "en");
    assert.ok(s.u > 0.95 && s.from - 0.0005 <= s.u && s.u <= s.to + 0.0005, s.name);
    // the rest band runs to the end of the strip and says how many tokens and how much mass
    const geometry = await page.evaluate(() => {
      const svg = document.getElementById("cdf");
      const box = (el) => el.getBBox();
      const rest = svg.querySelector("rect.rest-band");
      const chosen = svg.querySelector(".bands rect.chosen");
      const label = svg.querySelector(".rest-label");
      return {
        restEnd: box(rest).x + box(rest).width,
        axisEnd: svg.viewBox.baseVal.width - 14,
        chosenInside: chosen !== null && box(chosen).x >= box(rest).x,
        label: label?.getAttribute("display") === "none" ? null : label?.textContent,
        restTitle: rest.querySelector("title")?.textContent,
      };
    });
    assert.ok(Math.abs(geometry.restEnd - geometry.axisEnd) < 0.5, JSON.stringify(geometry));
    assert.ok(geometry.chosenInside, "the chosen band is drawn inside the rest band");
    assert.match(geometry.label ?? "", L.en.rest);
    assert.match(geometry.restTitle, /other kept tokens/);
    await page.getByRole("button", { name: "Step", exact: true }).click();
    const chip = page.getByRole("region", { name: "Generated text" }).getByRole("listitem").first();
    assert.equal(chipLabel(await chip.textContent()), s.token);
    assert.ok(Number(await chip.getAttribute("data-rank")) >= 24, "the pick ranks beyond the listed 24");
    await context.close();
  });

  test("zh projector at 1024×768: the strip with its rest band", async () => {
    const { page, context } = await open("?lang=zh&projector=1&seed=42&temperature=2&top_p=1", { viewport: { width: 1024, height: 768 } });
    const s = await stripName(page, "zh");
    assert.ok(s.from - 0.0005 <= s.u && s.u <= s.to + 0.0005, s.name);
    await screenshot(page, "draw-projector-1024-zh.png");
    await context.close();
  });
});
