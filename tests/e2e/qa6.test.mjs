// QA pass 6, in Chromium: an old share link (no `v`, no `at`) with branches opens on the path its
// author saw (the first: every writer before v=2 wrote `at` only for another path); in 实验三 stacked
// at 640 px both prompts' bars start at the same x (zh and en).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite } from "./harness.mjs";

const open = browserSuite();
const chips = (page) => page.locator("#chips li");
const step = (page) => page.getByRole("button", { name: "Step", exact: true }).click();

describe("an old link with branches and no `at`", () => {
  test("opens on the first path, as the page that wrote it showed", async () => {
    const { page, context } = await open("?lang=en");
    await page.getByLabel("Preset").selectOption("plugin-zh");
    for (let i = 0; i < 4; i++) await step(page);
    // a branch: force the third candidate at step 2, one step more, then back to the first path
    await chips(page).nth(1).getByRole("button").click();
    await page.locator('#stages [data-stage="softmax"] [role="button"]').nth(2).click();
    await step(page);
    await page.locator("#tree button").first().click();
    const firstText = await chips(page).allInnerTexts();
    const link = await page.evaluate(() => location.search);
    assert.match(link, /&branch=0_1_/);
    assert.match(link, /&at=0(&|$)/);
    await context.close();

    // the same link as every page before v=2 wrote it: no `v`, and `at` only for another path
    const old = link.replace(/[?&]v=\d+/, (m) => (m[0] === "?" ? "?" : "")).replace(/&end=1$/, "").replace(/&at=0(?=&|$)/, "").replace("?&", "?");
    assert.doesNotMatch(old, /[?&](v|at)=/);
    const again = await open(old);
    assert.ok(await again.page.locator("#url-notice").isHidden(), "an old link has no problems");
    assert.equal(await again.page.locator("#tree button").first().getAttribute("aria-current"), "true", "the first path is on screen");
    assert.deepEqual(await chips(again.page).allInnerTexts(), firstText);
    await again.context.close();
  });
});

describe("实验三 (lesson 3) stacked: both prompts' bars start at the same x", () => {
  const tracks = () =>
    [...document.querySelectorAll(".lesson-side .lesson-bars")].filter((ol) => ol.getClientRects().length > 0).map((ol) =>
      [...ol.querySelectorAll("li")].map((li) => {
        const track = li.querySelector(".track").getBoundingClientRect();
        return { left: Math.round(track.left), right: Math.round(track.right) };
      }),
    );
  for (const width of [640, 360]) {
    for (const lang of ["zh", "en"]) {
      test(`embedded ${width} px wide, ${lang}`, async () => {
        const { page, context } = await open(`?lang=${lang}&lesson=exp3&embed=1`, { viewport: { width, height: 800 } });
        await page.waitForSelector(".lesson-side .lesson-bars li");
        const lists = await page.evaluate(tracks);
        assert.ok(lists.length >= 2, "both prompts' bars are shown");
        const stacked = await page.evaluate(() => {
          const [a, b] = [...document.querySelectorAll(".lesson-side")].filter((s) => s.getClientRects().length > 0).map((s) => s.getBoundingClientRect());
          return b.top >= a.bottom - 1;
        });
        assert.ok(stacked, "the two lists are stacked");
        const lefts = lists.flat().map((r) => r.left);
        const rights = lists.flat().map((r) => r.right);
        assert.deepEqual(new Set(lefts).size, 1, `every track starts at one x (${lists.map((l) => l.map((r) => r.left).join(",")).join(" | ")})`);
        assert.deepEqual(new Set(rights).size, 1, `every track ends at one x (${lists.map((l) => l.map((r) => r.right).join(",")).join(" | ")})`);
        await context.close();
      });
    }
  }
});

/**
 * In the top-p chart: every number over a bar whose box meets a dot of the running-total curve,
 * a stretch of its line (sampled every 0.5 px along the path, the stroke's half width around it) or
 * the p line, as "37.6% × dot 1". Null when the chart is not on screen.
 */
function curveCollisions() {
  const fig = document.querySelector('#stages figure[data-stage="top_p"]');
  if (fig === null || fig.getClientRects().length === 0) return null;
  const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const out = [];
  const texts = [...fig.querySelectorAll(".values text")].map((t) => ({ text: t.textContent, box: t.getBoundingClientRect() }));
  const dots = [...fig.querySelectorAll(".cum-dots circle")].map((c) => c.getBoundingClientRect());
  const path = fig.querySelector(".cum-curve");
  const ctm = path.getScreenCTM();
  const half = (parseFloat(getComputedStyle(path).strokeWidth) * ctm.a) / 2;
  const length = path.getTotalLength();
  const samples = [];
  for (let s = 0; s <= length; s += 0.5 / ctm.a) {
    const p = path.getPointAtLength(s).matrixTransform(ctm);
    samples.push({ left: p.x - half, right: p.x + half, top: p.y - half, bottom: p.y + half });
  }
  const rule = fig.querySelector(".threshold line").getBoundingClientRect();
  const line = { left: rule.left, right: rule.right, top: rule.top - 0.5, bottom: rule.bottom + 0.5 };
  for (const { text, box } of texts) {
    dots.forEach((d, i) => meets(box, d) && out.push(`${text} × dot ${i + 1}`));
    if (samples.some((s) => meets(box, s))) out.push(`${text} × curve`);
    if (meets(box, line)) out.push(`${text} × p line`);
  }
  return out;
}

describe("the top-p chart: no number over a bar meets the running-total curve or the p line", () => {
  const views = [
    { width: 1024, height: 768 },
    { width: 1280, height: 800 },
  ];
  // the last three each put a number on the curve before the fix (found by a scan of 252 pages)
  const prompts = [
    ["preset=capital-zh&top_p=0.9", "中国的首都是"],
    [`prompt=${encodeURIComponent("什么是大语言模型？")}&temperature=2&top_p=0.9`, "flat (T 2)"],
    ["preset=react-zh&top_p=0.9", "react-zh"],
    [`prompt=${encodeURIComponent("我们今天学习了温度，")}&top_p=0.9`, "我们今天学习了温度，"],
    [`prompt=${encodeURIComponent("The capital of France is")}&top_p=0.5`, "France, p 0.5"],
  ];
  for (const viewport of views) {
    for (const lang of ["zh", "en"]) {
      for (const projector of [true, false]) {
        test(`${viewport.width}×${viewport.height}, ${lang}${projector ? ", projector" : ""}`, async () => {
          let measured = 0;
          const found = [];
          for (const [query, name] of prompts) {
            const { page, context } = await open(`?lang=${lang}&${query}${projector ? "&projector=1" : ""}`, { viewport });
            for (let i = 0; i < 4 && !(await page.locator("#step").isDisabled()); i++) {
              await page.locator("#step").click();
              await page.waitForTimeout(50);
              const hits = await page.evaluate(curveCollisions);
              if (hits !== null) {
                measured++;
                for (const hit of hits) found.push(`${name}, step ${i + 1}: ${hit}`);
              }
            }
            await context.close();
          }
          assert.ok(measured >= 8, `the top-p chart was measured (${measured} times)`);
          assert.deepEqual(found, []);
        });
      }
    }
  }
});
