// What a lesson tells the class to do can be done where the class sees it, and what it then says
// happens is what the page shows. 误解二 says "edit a logit in the table on the left": in projector
// mode (the sidebar, with its logit table, is hidden) that table is the lesson's own, so its logits
// are editable there; the sums, the softmax column and the page's own next-token numbers follow.
// 实验二's u and token are the strip's. 误解三's "sample 1,000 times and count" has its own button
// (projector mode hides the page's), and its count agrees with the bar. Each failed on the old build.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, screenshot } from "./harness.mjs";

const open = browserSuite();
const XGA = { width: 1024, height: 768 };
const settled = (page) => page.waitForFunction(() => !document.getElementById("lessons")?.hasAttribute("aria-busy"));

/** The lesson table's rows: token, logit (as shown), softmax percent. */
const rows = (page) =>
  page.locator("#lesson-body .lesson-table tbody tr").evaluateAll((trs) =>
    trs.map((tr) => ({ token: tr.querySelector("th").textContent, logit: tr.querySelector("input")?.value ?? tr.cells[1]?.textContent, p: parseFloat(tr.lastElementChild.textContent) })),
  );

describe("a lesson's instructions can be followed where it is shown", () => {
  for (const lang of ["zh", "en"]) {
    test(`${lang}: 误解二 in projector mode: a logit edited in the lesson's table moves the logit sum, the probabilities still add up to 1, the page's p follows`, async () => {
      const { page, context, problems } = await open(`?lang=${lang}&projector=1`, { viewport: XGA });
      await page.getByRole("combobox", { name: lang === "zh" ? "课程" : "Lesson" }).selectOption("myth2");
      await settled(page);
      // the instruction the class reads
      assert.match(await page.locator("#lesson-body").innerText(), lang === "zh" ? /在左侧的表里改一个 logit/ : /Edit a logit in the table on the left/);
      const before = await rows(page);
      assert.deepEqual(before.map((r) => r.logit), ["3", "2.2", "1.3", "0.6", "0.2", "-0.1", "-1.5", "-3"], "the chapter's logits, as written");
      assert.equal(await page.locator("#lesson-body .sum-logits").textContent(), "2.7");
      // the top token's logit, edited as a teacher types it: its label names the token
      const box = page.getByRole("textbox", { name: lang === "zh" ? "超集 的 logit" : "Logit of 超集 (superset)", exact: true });
      assert.equal(await box.isVisible(), true, "the logit is editable in the lesson");
      await box.fill("1");
      await box.press("Enter");
      await page.waitForFunction(() => document.querySelector("#lesson-body .sum-logits")?.textContent === "0.7");
      const after = await rows(page);
      assert.equal(after[0].logit, "1");
      const sum = after.reduce((s, r) => s + r.p, 0);
      assert.ok(Math.abs(sum - 100) < 0.5, `the probabilities still add up to 100% (${sum})`);
      assert.equal(await page.locator("#lesson-body .sum-p").textContent(), "1");
      assert.ok(after[0].p < before[0].p, `超集's probability fell (${before[0].p}% → ${after[0].p}%)`);
      // softmax by hand over the new logits agrees with the table
      const logits = after.map((r) => Number(r.logit));
      const z = logits.reduce((s, l) => s + Math.exp(l), 0);
      after.forEach((r, i) => assert.ok(Math.abs((100 * Math.exp(logits[i])) / z - r.p) < 0.06, `${r.token}: ${r.p}%`));
      assert.match(await page.locator("#lesson-body .lesson-sums").textContent(), /0\.7/);
      // the page itself reads the edited table: the next token is now 一个, at the lesson's p
      const top = after.reduce((a, b) => (b.p > a.p ? b : a));
      assert.equal(top.token.startsWith("一个"), true);
      await screenshot(page, `lesson-claims-myth2-edited-${lang}-1024x768.png`);
      // a value out of range is refused in words and changes nothing
      await box.fill("abc");
      await box.press("Enter");
      const error = await box.getAttribute("aria-describedby");
      assert.ok(error !== null, "the box points at its error");
      assert.match(await page.locator(`[id="${error}"]`).textContent(), /超集/, "the error names the field");
      assert.equal(await page.locator(`[id="${error}"]`).isVisible(), true);
      assert.equal(await page.locator("#lesson-body .sum-logits").textContent(), "0.7");
      // Start over gives the chapter's table back
      await page.getByRole("button", { name: lang === "zh" ? "重新开始" : "Start over", exact: true }).click();
      await settled(page);
      assert.equal(await page.locator("#lesson-body .sum-logits").textContent(), "2.7");
      assert.deepEqual(problems, { console: [], foreign: [] });
      await context.close();
    });
  }

  // 实验二 opens on seed 1's draw: "u = … lands in the band of 界面": the strip on screen agrees, and
  // its tally of one draw reads as English ("1 draws: 界面 ×1" before)
  for (const lang of ["zh", "en"]) {
    test(`${lang}: 实验二: the u it quotes is the strip's, and falls in the band of the token it names; the tally reads right for one draw`, async () => {
      const { page, context } = await open(`?lang=${lang}`);
      await page.getByRole("navigation").getByRole("button", { name: lang === "zh" ? /^实验二/ : /^Exp\. 2/ }).click();
      await settled(page);
      const line = await page.locator("#lesson-body .lesson-question").textContent();
      const [, u, token] = /u = ([\d.]+)\D+?[「“]([^」”]+)[」”]/.exec(line) ?? [];
      assert.ok(u !== undefined, line);
      const strip = await page.evaluate(() => {
        const marker = document.querySelector("#final .u-marker line").getBoundingClientRect();
        const x = marker.left + marker.width / 2;
        const band = [...document.querySelectorAll("#final svg .bands rect")].find((r) => {
          const b = r.getBoundingClientRect();
          return b.left <= x && x <= b.right;
        });
        return { u: document.querySelector("#final .u-marker text").textContent, band: band?.getAttribute("aria-label") ?? "" };
      });
      assert.equal(Number(/[\d.]+/.exec(strip.u)?.[0]), Number(u), `the strip's ${strip.u} and the lesson's u = ${u}`);
      assert.ok(strip.band.includes(`「${token}」`) || strip.band.includes(`“${token}”`), `u falls in the band of ${strip.band}, the lesson names ${token}`);
      const counts = await page.locator("#lesson-body .lesson-cols > div:last-child > p.lesson-text").textContent();
      assert.equal(counts, lang === "zh" ? `共 1 次：${token} ×1` : `Total 1: ${token} ×1`);
      await context.close();
    });
  }

  // 误解三 ends "the page is set to T = 2: sample 1,000 times and count", and projector mode hides the
  // page's Sample buttons: the lesson has its own, and its count agrees with the T = 2 bar and the page
  for (const lang of ["zh", "en"]) {
    test(`${lang}: 误解三 in projector mode: "sample 1,000 times and count" can be done, and the count agrees with the T = 2 bar`, async () => {
      const { page, context, problems } = await open(`?lang=${lang}&projector=1`, { viewport: XGA });
      await page.getByRole("combobox", { name: lang === "zh" ? "课程" : "Lesson" }).selectOption("myth3");
      await settled(page);
      assert.match(await page.locator("#lesson-body .lesson-wrap").textContent(), lang === "zh" ? /抽样 1,000 次数一数/ : /sample 1,000 times and count/);
      const bar = parseFloat(await page.locator('#lesson-body .lesson-side[data-t="2"] li.chosen .bar-value').textContent());
      await page.locator("#lesson-body").getByRole("button", { name: lang === "zh" ? "抽样 1,000 次" : "Sample 1,000 times", exact: true }).click();
      await settled(page);
      const line = await page.locator("#lesson-body .lesson-counted").textContent();
      const [, k, pct] = (lang === "zh" ? /「北京」：1,000 次里 (\d+) 次（([\d.]+)%）/ : /北京 \(Beijing\): (\d+) of 1,000 \(([\d.]+)%\)/).exec(line) ?? [];
      assert.ok(k !== undefined, line);
      // 1,000 draws at p ≈ 0.41: within 5 standard deviations (±78) of the bar
      assert.ok(Math.abs(Number(k) - bar * 10) < 78, `${k} of 1,000 against the bar's ${bar}%`);
      assert.equal(Number(pct), Number(k) / 10);
      // the page's own Sample record (its card is hidden here) counted the same draws
      assert.match(await page.locator("#sample-result").textContent(), new RegExp(`北京[^\\d]*${pct}%`));
      await screenshot(page, `lesson-claims-myth3-sampled-${lang}-1024x768.png`);
      assert.deepEqual(problems, { console: [], foreign: [] });
      await context.close();
    });
  }
});

describe("a lesson's notes say which step or draw they are about", () => {
  // found by a learner's trial: 实验二's "界面 came up" sat under "seed 2 … 用户 is chosen" and read
  // as that draw's outcome; 实验一 ended at its 8 tokens mid-sentence with only "Generation has
  // stopped" (failed on the old build: no draw named, no stop condition named)
  const SAID = {
    zh: { found: /#1 抽到了「界面」/, now2: /随机种子 2：.*选中「用户」/, end: /达到了最多 8 个新 Token（max_new_tokens）/ },
    en: { found: /Draw #1 gave 界面/, now2: /Seed 2: .*“用户” is chosen/, end: /reached the most new tokens allowed, 8 \(max_new_tokens\)/ },
  };
  for (const lang of ["zh", "en"]) {
    test(`${lang}: 实验二's note names the draw that gave 界面; 实验一's end names its stop condition`, async () => {
      const { page, context, problems } = await open(`?lang=${lang}&lesson=exp2`);
      await settled(page);
      await page.locator("#lesson-body button.primary").first().click();
      await settled(page);
      const exp2 = await page.locator("#lesson-body").innerText();
      assert.match(exp2, SAID[lang].now2);
      assert.match(exp2, SAID[lang].found);
      await page.goto(page.url().replace(/\?.*$/, `?lang=${lang}&lesson=exp1`));
      await page.waitForSelector("body[data-ready='true']");
      await settled(page);
      for (let i = 0; i < 8; i++) {
        await page.locator("#step").click();
        await page.waitForFunction((n) => document.querySelectorAll("#chips > li").length === n, i + 1);
      }
      assert.match(await page.locator("#lesson-body").innerText(), SAID[lang].end);
      assert.deepEqual(problems, { console: [], foreign: [] });
      await context.close();
    });
  }
});
