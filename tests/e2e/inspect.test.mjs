// Reading any token's numbers and taking them home (issue 11, point 6), in zh and en: the tooltip
// of a bar, a band and a chip, Find a token, Download CSV, Save as SVG and the printed handout.
// The expected numbers come from the core itself, run here in Node on the same model files (the
// wasm package and the weights the page loads), never from numbers written into the test.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { browserSuite, DIST, launch, ROOT, screenshot } from "./harness.mjs";
import { Generator, step } from "../node/load.mjs";

const open = browserSuite();

const weights = readFileSync(join(ROOT, "www/model/model.safetensors"));
const tokenizer = readFileSync(join(ROOT, "www/model/tokenizer.json"), "utf8");

/** The page's settings for these tests, pinned by the link (so a new default cannot move them). */
const SETTINGS = { strategy: "sample", temperature: 0.8, top_p: 0.9, engine: "hf", seed: 42 };
const QUERY = "preset=capital-zh&source=model&strategy=sample&temperature=0.8&top_p=0.9&top_k=0&min_p=0&engine=hf&seed=42";
const PROMPT = "中国的首都是";

/** The core's full trace of step `draw` after `prompt` + `appended`, as the page would ask for it. */
function coreStep(appended = [], settings = SETTINGS) {
  const gen = new Generator(weights, tokenizer);
  gen.setPrompt(PROMPT);
  for (const id of appended) gen.force(id);
  const logits = gen.logits();
  const result = step(logits, { ...settings, draw: appended.length, trace_top: logits.length });
  return { result, vocab: gen.vocab(), rankOf: (id) => result.candidates.findIndex((c) => c.id === id) };
}

// the page's display rules (format.ts, charts/tooltip.ts), to compare text with the core's values
const tokenLabel = (entry) => {
  const byte = /^<0x([0-9A-Fa-f]{2})>$/.exec(entry);
  return byte ? `<${byte[1].toUpperCase()}>` : entry;
};
const visible = (s) => (s === "" ? "∅" : s.replace(/\n/g, "↵").replace(/\t/g, "⇥").replace(/ /g, "␣"));
function num(x, digits) {
  if (!Number.isFinite(x)) return x > 0 ? "∞" : "−∞";
  const fixed = x.toFixed(digits);
  const s = fixed.includes(".") ? fixed.replace(/\.?0+$/, "") : fixed;
  return (s === "-0" ? "0" : s).replace(/^-/, "−");
}
function tipPercent(p) {
  if (p === 0) return "0%";
  const v = p * 100;
  return v >= 1e-4 ? `${Number(v.toPrecision(3))}%` : `${v.toExponential(2).replace("e-", "e−")}%`;
}

/** RFC 4180 CSV → rows of fields (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") row.push(field), (field = "");
    else if (ch === "\r" && text[i + 1] === "\n") {
      row.push(field), rows.push(row), (row = []), (field = ""), i++;
    } else field += ch;
  }
  if (field !== "" || row.length > 0) row.push(field), rows.push(row);
  return rows;
}

async function downloadText(page, click) {
  const [file] = await Promise.all([page.waitForEvent("download"), click()]);
  return { name: file.suggestedFilename(), text: readFileSync(await file.path(), "utf8") };
}

/** The tooltip's rows as { field: text }, and the id it describes. */
async function readTip(page) {
  const tip = page.locator("#token-tip");
  await tip.waitFor({ state: "visible" });
  return tip.evaluate((el) => {
    const rows = {};
    for (const row of el.querySelectorAll("[data-field]")) rows[row.dataset.field] = row.querySelector("dd").textContent;
    return { id: Number(el.dataset.id), title: el.querySelector(".tip-title").textContent, rows };
  });
}

const T = {
  en: { find: "Find a token", findButton: "Find", csv: "Download CSV", step: "Step", kept: "— (kept)", rank: (r, n) => `${r} of ${n}` },
  zh: { find: "查找 Token", findButton: "查找", csv: "下载 CSV", step: "单步", kept: "无（保留）", rank: (r, n) => `第 ${r} / ${n}` },
};

/** What the tooltip must say about candidate `c` at rank `rank` (0-based) of `n`. */
function expectedRows(lang, c, rank, n) {
  const stages = { top_p: "top-p", top_k: "top-k", temperature: "temperature", min_p: "min-p" };
  return {
    rank: T[lang].rank(rank + 1, n.toLocaleString("en-US")),
    logit: num(c.logit, 3),
    p_raw: tipPercent(c.p_raw),
    p: tipPercent(c.p),
    removed_by: c.removed_by === null ? T[lang].kept : stages[c.removed_by],
  };
}

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
      await page.locator("#cdf .band").first().hover();
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

describe("taking a step home", () => {
  test("each chart saves as a valid, self-contained SVG", async () => {
    const { page, context } = await open(`?lang=en&${QUERY}`);
    for (const stage of ["softmax", "top_p"]) {
      const button = page.locator(`figure[data-stage="${stage}"]`).getByRole("button", { name: "Save as SVG", exact: true });
      assert.equal(await button.getAttribute("aria-describedby"), `chart-title-${stage}`);
      const file = await downloadText(page, () => button.click());
      assert.match(file.name, new RegExp(`^nexttoken-${stage}-step-1\\.svg$`));
      const parsed = await page.evaluate((text) => {
        const doc = new DOMParser().parseFromString(text, "image/svg+xml");
        const root = doc.documentElement;
        return {
          error: doc.querySelector("parsererror")?.textContent ?? null,
          root: root.localName,
          ns: root.namespaceURI,
          viewBox: root.getAttribute("viewBox"),
          rects: root.querySelectorAll("rect").length,
          texts: [...root.querySelectorAll("text")].map((t) => t.textContent),
          unstyled: [...root.querySelectorAll("rect, text, path, line")].filter((el) => !el.getAttribute("style")?.includes("fill")).length,
        };
      }, file.text);
      assert.equal(parsed.error, null);
      assert.equal(parsed.root, "svg");
      assert.equal(parsed.ns, "http://www.w3.org/2000/svg");
      assert.ok(parsed.viewBox);
      assert.ok(parsed.rects >= 8, `${parsed.rects} rects`);
      assert.ok(parsed.texts.includes("北京"), "the token labels are in the file");
      assert.equal(parsed.unstyled, 0, "every drawn element carries its own style");
      // nothing points outside the file
      assert.doesNotMatch(file.text, /href|url\(|var\(|@import|class=|<script/);
    }
    await context.close();
  });

  test("the print stylesheet makes a one-page handout: step, settings, link, text and charts", async () => {
    // also from projector mode, whose one-screen layout must not reach the paper
    for (const [lang, projector] of [["zh", false], ["en", false], ["zh", true]]) {
      const { page, context } = await open(`?lang=${lang}&${QUERY}${projector ? "&projector=1" : ""}`, { viewport: { width: 1280, height: 900 } });
      await page.getByRole("button", { name: T[lang].step, exact: true }).click();
      await page.getByRole("button", { name: T[lang].step, exact: true }).click();
      await page.emulateMedia({ media: "print" });
      const shown = await page.evaluate(() => {
        const seen = (sel) => [...document.querySelectorAll(sel)].some((el) => el.checkVisibility());
        return {
          handout: seen("#handout"),
          settings: document.getElementById("handout-settings").textContent,
          link: document.getElementById("handout-link").textContent,
          href: location.href,
          chips: document.querySelectorAll("#chips li").length && seen("#chips li"),
          prompt: seen("#prompt-echo"),
          charts: [...document.querySelectorAll(".inspector figure.stage svg")].filter((el) => el.checkVisibility()).length,
          strip: seen("#cdf"),
          stats: seen("#stat-chosen"),
          hidden: ["aside.sidebar", ".lower", "#compare", ".transport", ".lookup-form", ".export-row"].filter(seen),
        };
      });
      assert.ok(shown.handout && shown.chips && shown.prompt && shown.strip && shown.stats, JSON.stringify(shown));
      assert.ok(shown.charts >= 4, `${shown.charts} charts`);
      assert.match(shown.settings, /T 0\.8 · top-p 0\.9 · .*seed 42/);
      assert.equal(shown.link, shown.href, "the link reopens this state");
      assert.match(shown.link, /seed=42/);
      assert.match(shown.link, /path=/, "with its tokens");
      assert.deepEqual(shown.hidden, []);
      await screenshot(page, `inspect-print-${lang}${projector ? "-projector" : ""}.png`);
      const pdf = (await page.pdf({ format: "A4", printBackground: true })).toString("latin1");
      const pages = pdf.match(/\/Type\s*\/Page(?!s)/g) ?? [];
      assert.equal(pages.length, 1, "one page");
      await context.close();
    }
  });

  test("projector mode: the tooltip is legible from the back of the room", async () => {
    const { page, context } = await open(`?lang=zh&${QUERY}&projector=1`, { viewport: { width: 1024, height: 768 } });
    const bar = page.locator(".stages .stage.pj-focus .hit").first();
    await bar.hover();
    const tip = await readTip(page);
    assert.ok(tip.rows.p);
    const sizes = await page.locator("#token-tip").evaluate((el) => [...el.querySelectorAll("dt, dd")].map((n) => parseFloat(getComputedStyle(n).fontSize)));
    assert.ok(Math.min(...sizes) >= 18, `font sizes ${sizes}`);
    const box = await page.locator("#token-tip").boundingBox();
    assert.ok(box.x >= 0 && box.y >= 0 && box.x + box.width <= 1024 && box.y + box.height <= 768, JSON.stringify(box));
    await screenshot(page, "inspect-projector-tooltip.png");
    await context.close();
  });

  test("the single file, offline, under its strict CSP: CSV and SVG downloads work", async () => {
    const browser = await launch();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: "reduce", acceptDownloads: true });
    await context.setOffline(true);
    const page = await context.newPage();
    const problems = [];
    page.on("console", (msg) => msg.type() === "error" && problems.push(msg.text()));
    page.on("pageerror", (err) => problems.push(String(err)));
    const violations = [];
    await page.exposeFunction("reportViolation", (v) => violations.push(v));
    await page.addInitScript(() => document.addEventListener("securitypolicyviolation", (e) => window.reportViolation(`${e.effectiveDirective} ${e.blockedURI}`)));
    await page.goto(`${pathToFileURL(join(DIST, "nexttoken.html")).href}?lang=en&${QUERY}`);
    await page.waitForSelector("body[data-ready='true']", { timeout: 60_000 });
    const csv = await downloadText(page, () => page.getByRole("button", { name: "Download CSV", exact: true }).click());
    const rows = parseCsv(csv.text.slice(1));
    assert.equal(rows.length - 1, coreStep().vocab.length);
    const svg = await downloadText(page, () => page.locator('figure[data-stage="softmax"] button.export-svg').click());
    assert.match(svg.text, /^<\?xml[^>]*>\n<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.deepEqual(violations, []);
    assert.deepEqual(problems, []);
    await browser.close();
  });
});
