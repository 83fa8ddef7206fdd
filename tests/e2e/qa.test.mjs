// The page's first minutes, as its demanding users try it (QA pass before class): the prompt box's
// Enter, a chart's numbers against its lines on the projector, the English glosses of experiment 1.
// Each test failed on the build before its fix.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, screenshot } from "./harness.mjs";

const open = browserSuite();
const chipTexts = (page) => page.locator("#chips li").allTextContents();

describe("the prompt box: Enter asks for the next token", () => {
  test("Enter applies a typed prompt and steps once; leaving the box keeps that step; Shift+Enter is a new line", async () => {
    const { page, context, problems } = await open("?lang=zh&seed=7");
    const box = page.locator("#prompt");
    await box.fill("今天我们学习");
    await box.press("Enter");
    await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
    assert.equal(await box.inputValue(), "今天我们学习", "Enter wrote no new line");
    assert.match(page.url(), /prompt=%E4%BB%8A%E5%A4%A9/, "the typed prompt is the page's prompt");
    // a second Enter: one more step from the same prompt
    await box.press("Enter");
    await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 2);
    // leaving the box (its change event) must not start the text over
    await page.locator("#step").focus();
    await page.waitForTimeout(100);
    assert.equal((await chipTexts(page)).length, 2, "blurring the prompt box kept the two tokens");
    // Shift+Enter writes a new line and does not step
    await box.press("End");
    await box.press("Shift+Enter");
    assert.equal(await box.inputValue(), "今天我们学习\n");
    assert.equal((await chipTexts(page)).length, 2, "Shift+Enter took no step");
    // the keys are said under the box, and read with it
    const keys = await page.locator("#prompt-keys").textContent();
    assert.match(keys ?? "", /回车/);
    assert.match((await box.getAttribute("aria-describedby")) ?? "", /prompt-keys/);
    assert.deepEqual(problems, { console: [], foreign: [] });
    await context.close();
  });

  test("Enter that confirms an input method's candidate (拼音) only confirms it", async () => {
    const { page, context } = await open("?lang=zh");
    const box = page.locator("#prompt");
    await box.fill("今天");
    await box.focus();
    const stepped = await page.evaluate(() => {
      const box = document.querySelector("#prompt");
      const event = new KeyboardEvent("keydown", { key: "Enter", isComposing: true, bubbles: true, cancelable: true });
      box.dispatchEvent(event);
      return event.defaultPrevented;
    });
    assert.equal(stepped, false, "a composing Enter is left to the input method");
    await page.waitForTimeout(100);
    assert.equal((await chipTexts(page)).length, 0);
    await context.close();
  });

  test("English: the hint names the keys", async () => {
    const { page, context } = await open("?lang=en");
    assert.match((await page.locator("#prompt-keys").textContent()) ?? "", /Enter: one step .* Shift\+Enter: new line/);
    await context.close();
  });
});

/** Value labels over the bars that cross a threshold / cut line of the same chart (boxes as drawn). */
function labelsOnLines() {
  const out = [];
  for (const svg of document.querySelectorAll("svg.chart")) {
    if (!svg.checkVisibility()) continue;
    const lines = [...svg.querySelectorAll(".threshold line, .cut line")].map((l) => l.getBoundingClientRect());
    for (const text of svg.querySelectorAll(".values text")) {
      const b = text.getBoundingClientRect();
      for (const l of lines) {
        if (b.left < l.right && l.left < b.right && b.top < l.bottom + 1 && l.top - 1 < b.bottom) out.push(`${text.textContent} at ${Math.round(b.top)}–${Math.round(b.bottom)}, line at ${Math.round(l.top)}`);
      }
    }
  }
  return out;
}

describe("projector at 1024×768: a bar's number never sits on the p line", () => {
  for (const lang of ["zh", "en"]) {
    test(`${lang}: the opening top-p chart (85.7 % just under p = 0.9), and at p = 0.95 and 0.99`, async () => {
      for (const topP of [null, 0.95, 0.99, 0.86]) {
        const query = `?lang=${lang}&projector=1${topP === null ? "" : `&top_p=${topP}`}`;
        const { page, context } = await open(query, { viewport: { width: 1024, height: 768 } });
        const shown = await page.evaluate(() => [...document.querySelectorAll("svg.chart")].some((s) => s.checkVisibility() && s.querySelector(".threshold line") !== null));
        assert.ok(shown, `${query}: the top-p chart is the one on screen`);
        if (topP === null) await screenshot(page, `qa-projector-topp-${lang}.png`);
        assert.deepEqual(await page.evaluate(labelsOnLines), [], `${query}: numbers on the p line`);
        // the number is still written (moved, not dropped) and stays inside the chart's box
        const inside = await page.evaluate(() => {
          const svg = [...document.querySelectorAll("svg.chart")].find((s) => s.checkVisibility() && s.querySelector(".threshold line"));
          const box = svg.closest("figure, .stage")?.getBoundingClientRect() ?? svg.getBoundingClientRect();
          return [...svg.querySelectorAll(".values text")].map((t) => {
            const b = t.getBoundingClientRect();
            return b.top >= box.top - 1 && b.bottom <= box.bottom + 1 ? "" : t.textContent;
          });
        });
        assert.ok(inside.length > 0, `${query}: numbers are written`);
        assert.deepEqual(inside.filter((s) => s !== ""), [], `${query}: numbers outside the chart`);
        await context.close();
      }
    });
  }
});

describe("English lessons gloss every Chinese token they offer", () => {
  test("experiment 1: each token to predict and each candidate bar carries its gloss", async () => {
    const { page, context } = await open("?lang=en&lesson=exp1", { viewport: { width: 1024, height: 768 } });
    const body = page.locator(".lesson-body");
    await body.getByRole("button", { name: /用户/ }).first().waitFor();
    const predict = (await body.locator("button").allTextContents()).filter((s) => /[\u4e00-\u9fff]/.test(s));
    assert.ok(predict.length >= 3, `tokens to predict: ${predict}`);
    for (const label of predict) assert.match(label, /^[\u4e00-\u9fff]+ \(.+\)$/, `“${label}” has a gloss`);
    await context.close();
  });
});

describe("embed mode in a 640×480 frame", () => {
  for (const query of ["?embed=1&lang=zh&lesson=exp3", "?embed=1&lang=en&lesson=exp1"]) {
    test(`${query}: an open lesson leaves the frame unscrollable from outside, even when a hidden heading is brought into view`, async () => {
      const { page, context, problems } = await open(query, { viewport: { width: 640, height: 480 } });
      await page.locator(".lesson-body").first().waitFor();
      const size = await page.evaluate(() => ({ scroll: document.scrollingElement.scrollHeight, height: innerHeight }));
      assert.ok(size.scroll <= size.height, `no outer vertical scroll (${size.scroll} > ${size.height})`);
      // a screen reader's jump to a heading (scrollIntoView) must not push the frame's top bar away
      // for good: the frame cannot be scrolled back (overflow: hidden)
      const top = await page.evaluate(() => {
        for (const h of document.querySelectorAll(".visually-hidden")) h.scrollIntoView();
        return document.scrollingElement.scrollTop;
      });
      assert.equal(top, 0, "the frame itself never scrolls");
      assert.deepEqual(problems.foreign, []);
      await context.close();
    });
  }
});

describe("a phone (390×844, touch)", () => {
  for (const lang of ["zh", "en"]) {
    test(`${lang}: the title and the header's buttons do not overlap, each button on one line, no sideways scroll`, async () => {
      const { page, context } = await open(`?lang=${lang}`, { viewport: { width: 390, height: 844 } });
      const m = await page.evaluate(() => {
        const boxes = [document.querySelector(".brand h1"), ...document.querySelectorAll(".top > button, .top > a, .top > label")]
          .filter((e) => e.checkVisibility())
          .map((e) => {
            // the text as drawn, not the flex item's box (a squeezed h1 overflows its box)
            const range = document.createRange();
            range.selectNodeContents(e);
            return { name: e.textContent.trim(), r: range.getBoundingClientRect(), lines: new Set([...range.getClientRects()].map((q) => Math.round(q.top))).size };
          });
        const overlaps = [];
        for (let i = 0; i < boxes.length; i++) {
          for (let j = i + 1; j < boxes.length; j++) {
            const [a, b] = [boxes[i].r, boxes[j].r];
            if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) overlaps.push(`${boxes[i].name} × ${boxes[j].name}`);
          }
        }
        return { overlaps, broken: boxes.filter((b) => b.lines > 1).map((b) => b.name), width: document.scrollingElement.scrollWidth };
      });
      await screenshot(page, `qa-phone-${lang}.png`);
      assert.deepEqual(m.overlaps, [], "header text overlaps");
      assert.deepEqual(m.broken, [], "header buttons broken over lines");
      assert.ok(m.width <= 390, `no sideways scroll (${m.width})`);
      await context.close();
    });
  }
});

describe("keyboard only", () => {
  for (const lang of ["zh", "en"]) {
    test(`${lang}: every tab stop has a name and a visible focus ring; the strip's band is a named button`, async () => {
      const { page, context } = await open(`?lang=${lang}`, { viewport: { width: 1024, height: 768 } });
      const stops = [];
      for (let i = 0; i < 150; i++) {
        await page.keyboard.press("Tab");
        const info = await page.evaluate(() => {
          const e = document.activeElement;
          if (e === null || e === document.body) return null;
          const s = getComputedStyle(e);
          const labelled = e.getAttribute("aria-labelledby");
          const name = (e.getAttribute("aria-label") ?? (labelled ? document.getElementById(labelled)?.textContent : null) ?? e.labels?.[0]?.textContent ?? e.textContent ?? "").trim();
          const ring = (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 2) || s.boxShadow !== "none" || (e instanceof SVGElement && s.stroke !== "none" && parseFloat(s.strokeWidth) >= 2);
          const role = e.getAttribute("role") ?? e.tagName.toLowerCase();
          return { key: `${e.tagName}#${e.id}|${name}|${e.closest("svg")?.id ?? ""}`, name, ring, role, svg: e instanceof SVGElement };
        });
        if (info === null || stops.some((s) => s.key === info.key)) break;
        stops.push(info);
      }
      assert.ok(stops.length > 40, `${stops.length} tab stops`);
      assert.deepEqual(stops.filter((s) => s.name === "").map((s) => s.key), [], "tab stops without a name");
      assert.deepEqual(stops.filter((s) => !s.ring).map((s) => s.key), [], "tab stops without a visible focus ring");
      assert.deepEqual(stops.filter((s) => s.svg && s.role !== "button").map((s) => s.key), [], "chart tab stops that are not buttons");
      const band = await page.evaluate(() => {
        const r = document.querySelector("rect.band[tabindex='0']");
        return r === null ? null : [r.getAttribute("role"), r.getAttribute("aria-label")];
      });
      assert.ok(band !== null && band[0] === "button" && /\d/.test(band[1] ?? ""), `the strip's band: ${band}`);
      await context.close();
    });
  }
});

describe("a lesson named alone in a link (or an element's lesson attribute) sets its page up", () => {
  test("zh ?lesson=myth1 (on the default prompt): greedy, the first-token choices and the path are shown", async () => {
    const { page, context } = await open("?lang=zh&projector=1&lesson=myth1", { viewport: { width: 1024, height: 768 } });
    const choices = page.locator(".lesson-body .lesson-choices button");
    await choices.first().waitFor();
    assert.ok((await choices.count()) >= 2, "tokens to force at the first step");
    await page.waitForFunction(() => new URL(location.href).searchParams.get("strategy") === "greedy");
    assert.ok((await page.locator("#chips li").count()) > 3, "greedy wrote its sentence");
    await context.close();
  });

  test("zh ?lesson=myth2 (on the default prompt): the chapter's hand-made table (logit 3 for 超集), not the model's logits", async () => {
    const { page, context } = await open("?lang=zh&lesson=myth2", { viewport: { width: 1024, height: 768 } });
    // (the lesson's table is editable: each logit is a box in its row)
    const firstRow = page.locator(".lesson-body tbody tr").first();
    await page.waitForFunction(() => document.querySelector(".lesson-body tbody tr input.lesson-logit")?.value === "3");
    assert.match(await firstRow.locator("th").textContent(), /超集/);
    assert.equal(await firstRow.locator("input.lesson-logit").inputValue(), "3");
    await context.close();
  });

  test("a shared lesson link with its own page keeps that page", async () => {
    const prompt = encodeURIComponent("TypeScript 是 JavaScript 的");
    const { page, context } = await open(`?lang=zh&lesson=myth1&prompt=${prompt}&strategy=sample&seed=5`);
    await page.locator(".lesson-body").first().waitFor();
    await page.waitForTimeout(300);
    const params = new URL(page.url()).searchParams;
    assert.equal(params.get("strategy"), "sample");
    assert.equal(params.get("seed"), "5");
    await context.close();
  });
});
