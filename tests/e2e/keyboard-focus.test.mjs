// A sighted keyboard-only learner (no mouse), in Chromium: an action taken from the keyboard leaves
// focus where the next key press makes sense, never on the page itself (<body>, where Enter does
// nothing and a screen reader says nothing). Forcing a token with Enter on a chart's bar or on a
// band of the final strip redraws the charts for the next step, and the focused bar went with its
// step; Stop during Play disabled the focused Stop. A band of the strip shows the keyboard's focus
// (it looked the same focused or not). Enter on a path of the path tree switched to it and dropped
// focus to the page (the tree is drawn afresh), as did × on a row of the hand-made logits table, and
// Close on an open lesson (the panel is drawn afresh).
import { test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, installWcag } from "./harness.mjs";

const open = browserSuite();

/** The focused element as "tag#id.class: name", or "<body>". */
function focused(page) {
  return page.evaluate(() => {
    const a = document.activeElement;
    if (a === null || a === document.body) return "<body>";
    return `${a.tagName.toLowerCase()}#${a.id}.${a.getAttribute("class") ?? ""}: ${a.getAttribute("aria-label") ?? a.textContent.trim()}`;
  });
}

const chips = (page) => page.locator("#chips li").count();

for (const lang of ["en", "zh"]) {
  test(`${lang}: Enter on a chart's bar or a strip's band forces its token, and focus stays in that chart`, async () => {
    const { page, context, problems } = await open(`?lang=${lang}`);
    try {
      await page.locator("#step").focus();
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
      // the softmax chart: Tab's stop is the chosen bar; → to the next one, Enter forces it
      await page.locator('#stages figure[data-stage="softmax"] rect.hit[tabindex="0"]').focus();
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 2);
      // (drawn, then still there a moment later: the redraw does not take focus away)
      await page.waitForFunction(() => document.activeElement?.matches("rect.hit") && document.activeElement.closest("figure")?.dataset.stage === "softmax", null, { timeout: 5000 }).catch(() => {});
      await page.waitForTimeout(300);
      assert.match(await focused(page), /^rect#\.hit: /, "on a softmax bar");
      assert.equal(await page.evaluate(() => document.activeElement.closest("figure")?.dataset.stage), "softmax");
      // and Enter again forces again, from where focus is
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 3);
      // the final strip's bands
      await page.locator("#final rect.band[tabindex='0']").focus();
      await page.keyboard.press("Home");
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 4);
      await page.waitForFunction(() => document.activeElement?.matches("rect.band") && document.activeElement.closest("figure")?.id === "final", null, { timeout: 5000 }).catch(() => {});
      await page.waitForTimeout(300);
      assert.match(await focused(page), /^rect#\.band[ a-z]*: /, "on a band of the strip");
      assert.equal(await page.evaluate(() => document.activeElement.closest("figure")?.id), "final");
      assert.equal(await chips(page), 4);
      assert.deepEqual(problems.console, []);
    } finally {
      await context.close();
    }
  });

  test(`${lang}: Stop during Play, from the keyboard: focus goes to Reset, which works`, async () => {
    const { page, context } = await open(`?lang=${lang}&max_new_tokens=40`);
    try {
      await page.locator("#play").focus();
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => document.querySelectorAll("#chips li").length >= 1);
      await page.keyboard.press("Tab");
      assert.equal(await page.evaluate(() => document.activeElement?.id), "stop");
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => document.getElementById("stop").disabled);
      // (it stayed on the disabled Stop: the page's body)
      assert.match(await focused(page), /^button#reset/);
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 0);
    } finally {
      await context.close();
    }
  });
}

/** The focused element's stroke, against its own fill and the chart's background; and unfocused. */
async function bandRing(page, selector) {
  await page.locator(selector).focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowLeft"); // (the keyboard's focus, so :focus-visible)
  return page.evaluate((sel) => {
    const { parse, ratio, backdrop } = window.wcag;
    const band = document.activeElement;
    const look = () => {
      const s = getComputedStyle(band);
      return { stroke: s.stroke, width: parseFloat(s.strokeWidth), fill: s.fill };
    };
    const focused = look();
    band.blur();
    const unfocused = look();
    const rgb = (c) => parse(c).slice(0, 3);
    return {
      matches: band.matches(sel.replace("[tabindex='0']", "")),
      focused,
      unfocused,
      againstFill: ratio(rgb(focused.stroke), rgb(focused.fill)),
      againstCard: ratio(rgb(focused.stroke), backdrop(band.ownerSVGElement)),
    };
  }, selector);
}

for (const [lang, scheme] of [["en", null], ["zh", "dark"]]) {
  test(`${lang}${scheme ? ", forced colours" : ""}: a focused band of the strip has a ring of its own (3:1, ≥ 2 px), the chosen one too`, async () => {
    const { page, context } = await open(`?lang=${lang}`);
    try {
      if (scheme !== null) await page.emulateMedia({ forcedColors: "active", colorScheme: scheme });
      await page.locator("#step").click();
      await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
      await installWcag(page);
      // the chosen band is the strip's tab stop; ← from it reaches a kept one (its first band is
      // the chosen one here only when ranked first: then → does)
      for (const which of ["chosen", "kept"]) {
        if (which === "kept") {
          await page.locator("#final rect.band.chosen").focus();
          const first = await page.evaluate(() => document.querySelector("#final rect.band").classList.contains("chosen"));
          await page.keyboard.press(first ? "ArrowRight" : "ArrowLeft");
        }
        const sel = which === "chosen" ? "#final rect.band.chosen" : "#final rect.band:not(.chosen)[tabindex='0']";
        const ring = await bandRing(page, sel);
        const what = `${which}: ${JSON.stringify(ring)}`;
        assert.ok(ring.focused.stroke !== ring.unfocused.stroke || ring.focused.width >= ring.unfocused.width + 1, `focused looks as unfocused, ${what}`);
        assert.ok(ring.focused.width >= 2, what);
        assert.ok(ring.againstCard >= 3, what);
        if (scheme === null) assert.ok(ring.againstFill >= 3, what);
      }
    } finally {
      await context.close();
    }
  });
}

for (const lang of ["en", "zh"]) {
  test(`${lang}: Enter on a path in the path tree switches to it, and focus stays on that path`, async () => {
    const { page, context } = await open(`?lang=${lang}&lesson=myth1`);
    try {
      const settled = () => page.waitForFunction(() => !document.getElementById("lessons").hasAttribute("aria-busy"));
      await settled();
      // 误解一 forces other first tokens: each a path of its own in the tree
      for (const k of [0, 1]) {
        await page.locator("#lesson-body").getByRole("button", { name: lang === "en" ? /^Force/ : /^第一步强制选择/ }).nth(k).click();
        await settled();
      }
      await page.waitForFunction(() => document.querySelectorAll("#tree button.path").length === 3);
      const other = page.locator('#tree button.path[aria-current="false"]').first();
      const text = await other.textContent();
      await other.focus();
      await page.keyboard.press("Enter");
      await page.waitForFunction((want) => document.querySelector('#tree button.path[aria-current="true"]')?.textContent === want, text);
      // (it fell to the page)
      assert.equal(await page.evaluate(() => document.activeElement?.matches('#tree button.path[aria-current="true"]') ?? false), true, await focused(page));
      // and the arrow-free way on: Tab leaves the tree as from any button
      await page.keyboard.press("Tab");
      assert.notEqual(await focused(page), "<body>");
    } finally {
      await context.close();
    }
  });
}

for (const lang of ["en", "zh"]) {
  test(`${lang}: × on a row of the hand-made table removes it, and focus goes to the next row's ×, then the last's`, async () => {
    const { page, context } = await open(`?lang=${lang}&source=manual`);
    try {
      const rows = page.locator("#logit-table tbody tr");
      const before = await rows.count();
      assert.ok(before >= 3, `${before} rows`);
      const tokens = await rows.evaluateAll((trs) => trs.map((tr) => tr.dataset.token));
      await rows.nth(0).locator("button").focus();
      await page.keyboard.press("Enter");
      await page.waitForFunction((n) => document.querySelectorAll("#logit-table tbody tr").length === n, before - 1);
      // (it fell to the page)
      const on = () => page.evaluate(() => document.activeElement?.closest("tr")?.dataset.token ?? document.activeElement?.id ?? "<body>");
      assert.equal(await on(), tokens[1], "on the × of the row that took its place");
      assert.equal(await page.evaluate(() => document.activeElement.tagName), "BUTTON");
      // the last row: focus moves up to the new last row's ×
      await rows.last().locator("button").focus();
      await page.keyboard.press("Enter");
      await page.waitForFunction((n) => document.querySelectorAll("#logit-table tbody tr").length === n, before - 2);
      assert.equal(await on(), tokens.at(-2));
    } finally {
      await context.close();
    }
  });
}

const LESSON = {
  en: { list: "Exp. 2", close: "Close the lesson", title: "Experiment 2 · Sampling by hand" },
  zh: { list: "实验二", close: "关闭这一课", title: "实验二：手动做一次 sampling" },
};

for (const lang of ["en", "zh"]) {
  test(`${lang}: Close on an open lesson, from the keyboard: focus goes to that lesson's button in the list, and Enter opens it again`, async () => {
    const { page, context, problems } = await open(`?lang=${lang}`);
    try {
      const words = LESSON[lang];
      await page.getByRole("button", { name: words.list, exact: true }).focus();
      await page.keyboard.press("Enter");
      await page.getByRole("heading", { name: words.title }).waitFor();
      await page.getByRole("button", { name: words.close }).focus();
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => document.querySelector("#lesson-title") === null);
      assert.match(await focused(page), new RegExp(`^button#\\.[^:]*: ${words.list}$`));
      // the next key does what it says: the lesson opens again, its heading focused
      await page.keyboard.press("Enter");
      await page.getByRole("heading", { name: words.title }).waitFor();
      await page.waitForFunction(() => document.activeElement?.id === "lesson-title");
      assert.deepEqual(problems.console, []);
    } finally {
      await context.close();
    }
  });
}
