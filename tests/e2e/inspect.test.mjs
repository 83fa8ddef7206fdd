// Reading any token's numbers and taking them home (issue 11, point 6), in zh and en: the tooltip
// of a bar, a band and a chip, Find a token, Download CSV, Save as SVG and the printed handout.
// The expected numbers come from the core itself, run here in Node on the same model files (the
// wasm package and the weights the page loads), never from numbers written into the test.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, screenshot } from "./harness.mjs";
import { coreStep, downloadText, expectedRows, parseCsv, QUERY, readTip, SETTINGS, T, tipPercent, tokenLabel, visible } from "./inspect-kit.mjs";

const open = browserSuite();

for (const lang of ["zh", "en"]) {
  describe(`reading a token's numbers (${lang})`, () => {
    test("hover and keyboard focus on any bar, band or chip show the trace's numbers", async () => {
      const { page, context, problems } = await open(`?lang=${lang}&${QUERY}`);
      const core = coreStep();
      const n = core.vocab.length;
      const check = async (where) => {
        const tip = await readTip(page);
        const rank = core.rankOf(tip.id);
        assert.ok(rank >= 0, `${where}: id ${tip.id} is in the core's trace`);
        assert.deepEqual(tip.rows, expectedRows(lang, core.result.candidates[rank], rank, n), where);
        assert.ok(tip.title.includes(visible(tokenLabel(core.vocab[tip.id]))), `${where}: ${tip.title}`);
        return tip;
      };
      // every bar of every drawn chart (not every other one), and the strip's bands
      const charts = await page.locator(".inspector figure.stage:not([hidden]) svg").count();
      assert.ok(charts >= 4, `${charts} charts`);
      for (const stage of ["logits", "softmax", "temperature", "top_p"]) {
        const bars = page.locator(`figure[data-stage="${stage}"] .hit`);
        assert.ok((await bars.count()) >= 8, stage);
        for (const i of [0, 1, 5]) {
          await bars.nth(i).hover();
          await check(`${stage} bar ${i}`);
        }
      }
      // a bar top-p removed says so
      const removed = core.result.candidates.findIndex((c) => c.removed_by === "top_p");
      assert.ok(removed > 0 && removed < 16, `a removed candidate is drawn (rank ${removed})`);
      await page.locator(`figure[data-stage="top_p"] .hit`).nth(removed).hover();
      assert.equal((await check("a removed bar")).rows.removed_by, "top-p");
      await page.locator("#cdf g.bands rect").first().hover();
      await check("a band of the strip");

      // the keyboard: one tab stop per chart; the arrows move between bars, the page does not step
      await page.mouse.move(0, 0);
      const stop = page.locator(`figure[data-stage="top_p"] .hit[tabindex="0"]`);
      assert.equal(await stop.count(), 1, "one tab stop in the chart");
      await stop.focus();
      const first = await check("a focused bar");
      await page.keyboard.press("ArrowRight");
      const second = await check("the next bar after →");
      assert.notEqual(second.id, first.id);
      assert.equal(await page.locator("#chips li").count(), 0, "→ on a bar moves within the chart, it does not step");
      const focused = await page.evaluate(() => document.activeElement?.getAttribute("aria-describedby"));
      assert.equal(focused, "token-tip", "the focused bar is described by the tooltip");
      await page.keyboard.press("Escape");
      await page.locator("#token-tip").waitFor({ state: "hidden" });
      // Enter still forces the focused bar's token
      await page.keyboard.press("Enter");
      await page.locator("#chips li").first().waitFor();
      assert.equal(await page.locator("#chips li").first().getAttribute("data-forced"), "true");
      await page.getByRole("button", { name: lang === "zh" ? "重置" : "Reset", exact: true }).click();

      // a chip: the step the core chose, its numbers as they were then
      await page.getByRole("button", { name: T[lang].step, exact: true }).click();
      await page.locator("#chips li button").first().hover();
      const chip = await check("a chip");
      assert.equal(chip.id, core.result.token, "the chip is the core's choice");
      // the chip's own hint shows inside the tooltip (no second, native one) and is back afterwards
      const chipButton = page.locator("#chips li button").first();
      assert.equal(await chipButton.getAttribute("title"), null);
      assert.match(await page.locator("#token-tip .tip-note").textContent(), lang === "zh" ? /点击查看这一步/ : /Click to inspect this step/);
      await page.mouse.move(0, 0);
      await page.locator("#token-tip").waitFor({ state: "hidden" });
      assert.match(await chipButton.getAttribute("title"), lang === "zh" ? /点击查看这一步/ : /Click to inspect this step/);
      await page.locator("#chips li button").first().focus();
      assert.equal((await check("a focused chip")).id, core.result.token);
      await screenshot(page, `inspect-tooltip-${lang}.png`);
      assert.deepEqual(problems.console, []);
      await context.close();
    });

    test("the top-k and min-p charts' bars answer too", async () => {
      const settings = { ...SETTINGS, temperature: 1.5, top_p: 1, top_k: 12, min_p: 0.02 };
      const { page, context } = await open(`?lang=${lang}&${QUERY.replace("temperature=0.8", "temperature=1.5").replace("top_p=0.9", "top_p=1").replace("top_k=0", "top_k=12").replace("min_p=0", "min_p=0.02")}`);
      const core = coreStep([], settings);
      for (const stage of ["top_k", "min_p"]) {
        const bars = page.locator(`figure[data-stage="${stage}"] .hit`);
        assert.ok((await bars.count()) >= 12, `${stage}: ${await bars.count()} bars`);
        for (const i of [0, 3, 11, 12]) {
          await bars.nth(i).hover();
          const tip = await readTip(page);
          const rank = core.rankOf(tip.id);
          assert.deepEqual(tip.rows, expectedRows(lang, core.result.candidates[rank], rank, core.vocab.length), `${stage} bar ${i}`);
        }
      }
      // the 13th candidate is past k: top-k removed it
      await page.locator(`figure[data-stage="top_k"] .hit`).nth(12).hover();
      assert.equal((await readTip(page)).rows.removed_by, "top-k");
      await context.close();
    });

    test("Find a token: rank and p at the inspected step, as the core computes them", async () => {
      const { page, context } = await open(`?lang=${lang}&${QUERY}`);
      const core = coreStep();
      const n = core.vocab.length.toLocaleString("en-US");
      const find = async (text) => {
        await page.getByLabel(T[lang].find, { exact: true }).fill(text);
        await page.getByRole("button", { name: T[lang].findButton, exact: true }).click();
        const out = page.locator("#lookup-result");
        return { text: await out.textContent(), rank: await out.getAttribute("data-rank"), p: await out.getAttribute("data-p") };
      };
      // 「中国的首都是」 → 北京 is rank 1
      const beijing = core.vocab.indexOf("北京");
      assert.ok(beijing >= 0);
      assert.equal(core.rankOf(beijing), 0, "the core ranks 北京 first");
      const c = core.result.candidates[0];
      let got = await find("北京");
      assert.equal(got.rank, "1");
      assert.equal(Number(got.p), c.p);
      assert.ok(got.text.includes(lang === "zh" ? `排名 1 / ${n} · p ${tipPercent(c.p)}` : `rank 1 of ${n} · p ${tipPercent(c.p)}`), got.text);
      // far beyond the charts: the candidate at rank 500, with its p and who removed it
      const far = core.result.candidates.slice(400).find((x) => /^[\p{L}\p{N}]+$/u.test(core.vocab[x.id]) && core.vocab.indexOf(core.vocab[x.id]) === x.id);
      const farRank = core.rankOf(far.id);
      got = await find(core.vocab[far.id]);
      assert.equal(got.rank, String(farRank + 1));
      assert.equal(Number(got.p), far.p);
      assert.ok(got.text.includes(tipPercent(far.p_raw)), got.text);
      assert.ok(got.text.includes("top-p"), got.text);
      // a byte token, typed as <E4>
      const byte = core.vocab.findIndex((v) => /^<0x[0-9A-F]{2}>$/i.test(v));
      if (byte >= 0) {
        got = await find(tokenLabel(core.vocab[byte]));
        assert.equal(got.rank, String(core.rankOf(byte) + 1));
      }
      got = await find("不存在的词元xyz");
      assert.equal(got.rank, null);
      assert.match(got.text, lang === "zh" ? /词表里没有/ : /not in the vocabulary/);
      // the answer follows the inspector: to the next step, and back to a past one
      await find("北京");
      await page.getByRole("button", { name: T[lang].step, exact: true }).click();
      const next = coreStep([core.result.token]);
      got = await page.locator("#lookup-result").getAttribute("data-rank");
      assert.equal(got, String(next.rankOf(beijing) + 1));
      assert.notEqual(got, "1", "北京 is not first once it has been written");
      await page.locator("#chips li button").first().click();
      assert.equal(await page.locator("#lookup-result").getAttribute("data-rank"), "1", "step 1, inspected again");
      assert.equal(Number(await page.locator("#lookup-result").getAttribute("data-p")), c.p);
      await context.close();
    });

    test("Download CSV: the whole vocabulary, escaped, equal to the core's trace", async () => {
      const { page, context } = await open(`?lang=${lang}&${QUERY}`);
      const core = coreStep();
      const file = await downloadText(page, () => page.getByRole("button", { name: T[lang].csv, exact: true }).click());
      assert.equal(file.name, "nexttoken-step-1.csv");
      assert.ok(file.text.startsWith("\uFEFF"), "a byte-order mark for spreadsheets");
      const [header, ...rows] = parseCsv(file.text.slice(1));
      assert.deepEqual(header, ["rank", "id", "token", "logit", "logit_processed", "p_raw", "p_tempered", "p", "cum", "kept", "removed_by", "chosen"]);
      assert.equal(rows.length, core.vocab.length, "one row per vocabulary entry");
      const col = Object.fromEntries(header.map((h, i) => [h, i]));
      let sum = 0;
      rows.forEach((row, i) => {
        const c = core.result.candidates[i];
        assert.equal(row.length, header.length, `row ${i + 1} has every field`);
        assert.equal(Number(row[col.id]), c.id);
        assert.equal(Number(row[col.rank]), i + 1);
        for (const key of ["logit", "logit_processed", "p_raw", "p_tempered", "p", "cum"]) assert.equal(Number(row[col[key]]), c[key], `${key} of row ${i + 1}`);
        assert.equal(row[col.kept], String(c.kept));
        assert.equal(row[col.removed_by], c.removed_by ?? "");
        // the token text comes back exactly, except a leading = + - @ (defused with ')
        const text = tokenLabel(core.vocab[c.id]);
        assert.equal(row[col.token], /^[=+\-@\t\r]/.test(text) ? `'${text}` : text, `token of id ${c.id}`);
        sum += Number(row[col.p]);
      });
      assert.ok(Math.abs(sum - 1) < 1e-6, `p sums to ${sum}`);
      const chosen = rows.filter((row) => row[col.chosen] === "true");
      assert.equal(chosen.length, 1);
      assert.equal(Number(chosen[0][col.id]), core.result.token);
      // the vocabulary's awkward tokens survived: commas, quotes, line breaks, leading spaces
      const awkward = core.vocab.map(tokenLabel).filter((v) => /[",\n]|^ /.test(v));
      assert.ok(awkward.length > 0, "the vocabulary has tokens that need quoting");
      const tokens = new Set(rows.map((row) => row[col.token]));
      for (const v of awkward) assert.ok(tokens.has(/^[=+\-@]/.test(v) ? `'${v}` : v), JSON.stringify(v));
      assert.ok(["=", "+", "-", "@"].every((v) => tokens.has(`'${v}`)), "formula characters are defused");
      await context.close();
    });

    test("Download CSV from a hand-made table: a typed formula comes back as text", async () => {
      const { page, context } = await open(`?lang=${lang}&source=manual&preset=capital-zh`);
      const formula = '=HYPERLINK("http://x.test","a, b")';
      await page.locator("#new-token").fill(formula);
      await page.locator("#new-logit").fill("2.5");
      await page.locator("#add-row").click();
      const file = await downloadText(page, () => page.getByRole("button", { name: T[lang].csv, exact: true }).click());
      const [header, ...rows] = parseCsv(file.text.slice(1));
      const col = Object.fromEntries(header.map((h, i) => [h, i]));
      const row = rows.find((r) => r[col.token] === `'${formula}`);
      assert.ok(row, "the formula is one field, prefixed with '");
      assert.equal(Number(row[col.logit]), 2.5);
      assert.ok(file.text.includes(`"'=HYPERLINK(""http://x.test"",""a, b"")"`), "quoted, quotes doubled");
      const sum = rows.reduce((a, r) => a + Number(r[col.p]), 0);
      assert.ok(Math.abs(sum - 1) < 1e-6, `p sums to ${sum}`);
      assert.equal(rows.filter((r) => r[col.chosen] === "true").length, 1);
      await context.close();
    });
  });
}
