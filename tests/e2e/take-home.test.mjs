// Taking a step home (issue 11, point 6): each chart as a self-contained SVG, the one-page printed
// handout (from projector mode too), projector mode's tooltip, and the single file's downloads
// offline under its CSP; a handout printed inside an embed links to the full page. Split from inspect.test.mjs (a token's numbers); both read inspect-kit.mjs.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { browserSuite, DIST, launch, screenshot } from "./harness.mjs";
import { coreStep, downloadText, parseCsv, QUERY, readTip, T } from "./inspect-kit.mjs";

const open = browserSuite();

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

describe("a handout printed inside an embed", () => {
  test("links to the full page, not the embed layout", async () => {
    const { page, context, problems } = await open("?lang=en&embed=1&seed=7");
    assert.equal(await page.evaluate(() => document.body.dataset.embed), "true");
    assert.match(await page.evaluate(() => location.search + location.hash), /embed=1/);
    const printed = await page.locator("#handout-link").textContent();
    const url = new URL(printed);
    assert.equal(url.searchParams.get("embed"), null, printed);
    assert.equal(url.searchParams.get("seed"), "7");
    const full = await context.newPage();
    await full.goto(printed);
    await full.waitForSelector("body[data-ready='true']");
    assert.equal(await full.evaluate(() => document.body.dataset.embed), undefined);
    assert.deepEqual(problems.console, []);
    await context.close();
  });
});
