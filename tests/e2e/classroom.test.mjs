// Issue 11, points 4 and 7, in a real browser: 实验三's numbers follow the settings and it brings
// its own sliders where the sidebar is hidden; the Preset menu says "custom" off a preset; English
// lessons gloss their Chinese prompts; greedy dims the sliders it skips and the inspector shows the
// softmax p beside the final p; embed mode has a Settings drawer; Reset can be undone; the chosen
// token's label, the header and the English subtitle are never overlapped or cut.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, screenshot } from "./harness.mjs";
import { fitProblems } from "./fit.mjs";

const open = browserSuite();

async function settled(page) {
  await page.waitForFunction(() => !document.getElementById("lessons")?.hasAttribute("aria-busy"));
}
const chips = (page) => page.locator("#chips > li");
/** The percentages of the first column's bars in 实验三 (A · 中国的首都是), by label. */
function columnA(page) {
  return page.locator("#lesson-body .lesson-side").first().evaluate((side) => ({
    count: Number(side.querySelector(".count").textContent),
    bars: [...side.querySelectorAll(".lesson-bars li")].map((li) => [li.querySelector(".bar-label").textContent, parseFloat(li.querySelector(".bar-value").textContent), li.className]),
  }));
}

describe("classroom", () => {
  test("实验三 follows the current temperature and top-p, and the inspector agrees", async () => {
    const { page, context, problems } = await open("?lang=zh&lesson=exp3");
    await settled(page);
    const at1 = await columnA(page);
    assert.equal(at1.bars[0][0], "北京");
    assert.ok(at1.bars[0][1] > 90, `北京 at T 1: ${at1.bars[0][1]}`);
    // T = 2 and top-p 0.5 on the sidebar's sliders
    await page.getByLabel("温度", { exact: true }).fill("2");
    await page.getByLabel("Top-p", { exact: true }).fill("0.5");
    await page.locator("#lesson-body .lesson-caption", { hasText: "温度 2，top-p = 0.5 时" }).waitFor();
    const at2 = await columnA(page);
    assert.ok(at2.bars[0][1] < at1.bars[0][1] - 20, `北京 follows T: ${at1.bars[0][1]} → ${at2.bars[0][1]}`);
    // what the lesson says is kept is what the inspector shows for the same prompt and settings
    const kept = Number((await page.locator("#stat-kept").textContent()).match(/[\d,]+/)[0].replace(/,/g, ""));
    assert.equal(at2.count, kept, "kept count = the inspector's");
    // the bars marked kept are exactly the first `count` candidates (top-p keeps a prefix)
    const keptBars = at2.bars.filter((b) => !b[2].includes("removed")).length;
    assert.equal(keptBars, Math.min(at2.count, at2.bars.length));
    // in the normal page the sidebar is there, so the lesson's own sliders are not
    assert.equal(await page.getByLabel("本课温度").isVisible(), false);
    assert.deepEqual(problems.console, []);
    await context.close();
  });

  test("projector and embed: 实验三 carries its own sliders, and they drive the page", async () => {
    for (const query of ["?lang=en&projector=1", "?lang=en&embed=1"]) {
      const { page, context } = await open(`${query}&lesson=exp3`, { viewport: { width: 1024, height: 768 } });
      await settled(page);
      assert.equal(await page.getByLabel("Temperature", { exact: true }).isVisible(), false, `${query}: the sidebar is hidden`);
      const own = page.getByLabel("Lesson temperature");
      assert.equal(await own.isVisible(), true, `${query}: the lesson's own slider`);
      await own.fill("1.5");
      await page.getByLabel("Lesson top-p").fill("0.5");
      assert.deepEqual(await page.locator("#lesson-body .lesson-own output").allTextContents(), ["1.5", "0.5"]);
      assert.equal(await page.locator("#temperature").inputValue(), "1.5");
      assert.equal(await page.locator("#top-p").inputValue(), "0.5");
      if (query.includes("projector")) assert.match(await page.locator(".projector-settings").textContent(), /T 1\.5 · top-p 0\.5/);
      await context.close();
    }
  });

  test("the Preset menu says custom / 自定义 whenever the prompt is not a preset's", async () => {
    const { page, context } = await open("?lang=zh");
    const preset = page.locator("#preset");
    const shown = () => preset.evaluate((s) => s.selectedOptions[0]?.textContent);
    assert.equal(await shown(), "TypeScript 是 JavaScript 的");
    // 误解六 puts 英国的首都是 on the page
    await page.getByRole("navigation", { name: "本章的课程" }).getByRole("button", { name: /^误解六/ }).click();
    await settled(page);
    assert.equal(await page.getByLabel("提示词").inputValue(), "英国的首都是");
    assert.equal(await shown(), "自定义");
    await page.getByRole("button", { name: "English" }).click();
    assert.equal(await shown(), "custom");
    // a preset picked again is named again; a prompt typed by hand is custom
    await preset.selectOption("capital-zh");
    assert.equal(await shown(), "中国的首都是");
    await page.getByLabel("Prompt", { exact: true }).fill("北京是");
    await page.getByLabel("Prompt", { exact: true }).press("Tab");
    assert.equal(await shown(), "custom");
    await context.close();
  });

  test("English lessons gloss the Chinese prompts and tokens; Chinese lessons do not", async () => {
    const en = await open("?lang=en&lesson=myth6");
    await settled(en.page);
    const text = await en.page.locator("#lesson-body").innerText();
    assert.match(text, /英国的首都是.{0,4}The capital of the UK is/);
    assert.match(text, /p\(巴\)\s*\(Paris\)/);
    assert.match(text, /p\(伦\)\s*\(London\)/);
    await en.page.getByRole("navigation", { name: "Lessons from the chapter" }).getByRole("button", { name: /^Exp\. 3/ }).click();
    await settled(en.page);
    const exp3 = await en.page.locator("#lesson-body").innerText();
    assert.match(exp3, /中国的首都是.{0,4}The capital of China is/);
    assert.match(exp3, /北京 \(Beijing\)/);
    await en.context.close();
    const zh = await open("?lang=zh&lesson=myth6");
    await settled(zh.page);
    assert.doesNotMatch(await zh.page.locator("#lesson-body").innerText(), /Paris|London|capital/);
    await zh.context.close();
  });

  test("greedy dims the sliders it skips, with a note; the inspector shows softmax's p beside the final p", async () => {
    const { page, context } = await open("?lang=en&preset=react-zh");
    const note = page.getByText(/Greedy takes the top token: temperature, top-k, top-p and min-p are skipped/);
    assert.equal(await note.isVisible(), false);
    const skipped = () => page.locator(".sidebar .field[data-skipped]").evaluateAll((fs) => fs.map((f) => f.querySelector("input").id));
    assert.deepEqual(await skipped(), []);
    await page.getByLabel("Strategy").selectOption("greedy");
    assert.equal(await note.isVisible(), true);
    assert.deepEqual((await skipped()).sort(), ["min-p", "temperature", "top-k", "top-p", "typical-p"]);
    // the sliders stay usable (set now, used when sampling again)
    assert.equal(await page.getByLabel("Temperature", { exact: true }).isEnabled(), true);
    // greedy's final p is 100 %; softmax's is shown beside it
    assert.match(await page.locator("#stat-chosen").textContent(), /^用户 · 100\.0 ?% \(softmax \d+\.\d ?%\)$/);
    await page.getByLabel("Strategy").selectOption("sample");
    assert.equal(await note.isVisible(), false);
    assert.deepEqual(await skipped(), []);
    await page.getByRole("button", { name: "中文" }).click();
    await page.getByLabel("解码策略").selectOption("greedy");
    assert.equal(await page.getByText(/greedy 直接取概率最高的 Token/).isVisible(), true);
    await context.close();
  });

  test("embed mode: a Settings drawer, keyboard operable; the title never overlaps the header buttons at 480 px", async () => {
    for (const lang of ["zh", "en"]) {
      const { page, context } = await open(`?lang=${lang}&embed=1&preset=capital-zh`, { viewport: { width: 480, height: 640 } });
      const name = lang === "zh" ? "设置" : "Settings";
      const toggle = page.getByRole("button", { name, exact: true });
      const strategy = page.getByLabel(lang === "zh" ? "解码策略" : "Strategy");
      assert.equal(await toggle.getAttribute("aria-expanded"), "false");
      assert.equal(await strategy.isVisible(), false);
      await toggle.focus();
      await page.keyboard.press("Enter");
      assert.equal(await toggle.getAttribute("aria-expanded"), "true");
      assert.equal(await strategy.isVisible(), true);
      assert.equal(await page.evaluate(() => document.activeElement?.closest("#sidebar") !== null), true, "focus moves into the drawer");
      await strategy.selectOption("greedy");
      await strategy.press("Escape");
      assert.equal(await toggle.getAttribute("aria-expanded"), "false");
      assert.equal(await strategy.isVisible(), false);
      assert.equal(await page.evaluate(() => document.activeElement?.id), "settings-toggle");
      // the drawer's change took effect
      await page.getByRole("button", { name: lang === "zh" ? "单步" : "Step", exact: true }).click();
      assert.equal(await chips(page).first().textContent(), "北京");
      // the header's boxes do not overlap each other
      const overlaps = await page.evaluate(() => {
        const boxes = [...document.querySelectorAll(".top h1, .top > button, .top > a, .top > label")]
          .filter((el) => el.checkVisibility())
          .map((el) => [el.id || el.tagName, el.getBoundingClientRect()]);
        const out = [];
        for (let i = 0; i < boxes.length; i++)
          for (let j = i + 1; j < boxes.length; j++) {
            const [na, a] = boxes[i];
            const [nb, b] = boxes[j];
            if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) out.push(`${na} × ${nb}`);
          }
        return out;
      });
      assert.deepEqual(overlaps, [], `${lang}: header overlaps`);
      await screenshot(page, `embed-drawer-${lang}-480x640.png`);
      await context.close();
    }
  });

  test("Reset can be undone: the tokens and paths come back; undo is gone once the page moves on", async () => {
    const { page, context } = await open("?lang=en&preset=react-zh&seed=7");
    for (let i = 0; i < 3; i++) await page.getByRole("button", { name: "Step", exact: true }).click();
    const before = await chips(page).allTextContents();
    const undo = page.getByRole("button", { name: "Undo reset" });
    assert.equal(await undo.isVisible(), false);
    await page.getByRole("button", { name: "Reset", exact: true }).click();
    assert.equal(await chips(page).count(), 0);
    await undo.click();
    await page.waitForFunction((n) => document.querySelectorAll("#chips > li").length === n, before.length);
    assert.deepEqual(await chips(page).allTextContents(), before);
    assert.equal(await undo.isVisible(), false);
    // R resets too, and a step afterwards starts afresh (no undo left)
    await page.locator("h1").click();
    await page.keyboard.press("r");
    assert.equal(await undo.isVisible(), true);
    await page.getByRole("button", { name: "Step", exact: true }).click();
    assert.equal(await undo.isVisible(), false);
    await context.close();
    // on a projector the extra button still fits the one screen, in large type
    const projected = await open("?lang=en&projector=1", { viewport: { width: 1024, height: 768 } });
    for (let i = 0; i < 3; i++) await projected.page.keyboard.press("ArrowRight");
    await projected.page.keyboard.press("r");
    assert.equal(await projected.page.getByRole("button", { name: "Undo reset" }).isVisible(), true);
    assert.deepEqual(await projected.page.evaluate(fitProblems, { minPx: 24 }), []);
    await projected.context.close();
  });

  test("rotated token labels clear the captions under the charts; the English subtitle is not cut", async () => {
    /** Chart text (SVG) whose box runs into a caption, an explanation or a heading outside the SVG. */
    const collisions = () => {
      const out = [];
      const captions = [...document.querySelectorAll("figcaption, figcaption *, .stage .explain, .projector-nav *")].filter((el) => el.checkVisibility());
      for (const label of document.querySelectorAll("svg.chart text")) {
        if (!label.checkVisibility() || label.textContent.trim() === "") continue;
        const a = label.getBoundingClientRect();
        for (const c of captions) {
          const b = c.getBoundingClientRect();
          if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) out.push(`${label.textContent} × ${c.textContent.trim().slice(0, 20)}`);
        }
      }
      return [...new Set(out)];
    };
    for (const viewport of [{ width: 1280, height: 800 }, { width: 1920, height: 1080 }]) {
      for (const query of ["?lang=en", "?lang=zh", "?lang=en&projector=1&preset=react-zh", "?lang=zh&projector=1"]) {
        const { page, context } = await open(query, { viewport });
        assert.deepEqual(await page.evaluate(collisions), [], `${query} ${viewport.width}: chart text over a caption`);
        if (!query.includes("projector")) {
          const cut = await page.locator(".subtitle").evaluate((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
          assert.equal(cut, false, `${query} ${viewport.width}: subtitle cut`);
        }
        await context.close();
      }
    }
  });
});
