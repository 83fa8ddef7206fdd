// QA pass 7, in Chromium. The top-p chart's numbers: each kept bar's number is written, none over a
// bar (the chosen bar's number straddled its bar, legible only through its halo), a word or another
// number (an every-other-bar rule hid numbers that had room higher up), and the p line's label over
// no note. Status lines are rewritten only when their words change (a screen reader read the
// comparison's note again at every step). In projector mode a prompt the model cannot read says how
// to reach the projector's prompt box, not the hidden sidebar's.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite } from "./harness.mjs";

const open = browserSuite();

/**
 * The top-p chart's numbers as drawn: how many kept bars have one, and every number whose box meets
 * a bar, another number, a note on a removed bar or the p line's label, as "71.5% × bar 1", and the
 * p line's label over a note. Null when the chart is not on screen.
 */
function topPNumbers() {
  const fig = document.querySelector('#stages figure[data-stage="top_p"]');
  if (fig === null || fig.getClientRects().length === 0) return null;
  const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const bars = [...fig.querySelectorAll(".bars rect")].map((r) => ({ state: r.getAttribute("class"), box: r.getBoundingClientRect() }));
  const texts = [...fig.querySelectorAll(".values text")].map((t) => ({ text: t.textContent, state: t.getAttribute("class"), box: t.getBoundingClientRect() }));
  // the other words drawn in the plot: the notes on removed bars and the p line's label
  const words = [...fig.querySelectorAll(".notes text, .threshold text")].map((t) => ({ text: t.textContent, box: t.getBoundingClientRect() }));
  const overlaps = [];
  texts.forEach(({ text, box }, i) => {
    bars.forEach((b, j) => b.box.height > 0 && meets(box, b.box) && overlaps.push(`${text} × bar ${j + 1}`));
    words.forEach((w) => meets(box, w.box) && overlaps.push(`${text} × “${w.text}”`));
    texts.slice(i + 1).forEach((o) => meets(box, o.box) && overlaps.push(`${text} × ${o.text}`));
  });
  // the p line's label: clear of the notes (at a low p “✕ top-k” ran through “p = 0.5”)
  const line = fig.querySelector(".threshold text");
  const lineBox = line.getBoundingClientRect();
  for (const n of fig.querySelectorAll(".notes text")) if (meets(lineBox, n.getBoundingClientRect())) overlaps.push(`“${line.textContent}” × “${n.textContent}”`);
  const kept = bars.filter((b) => /\b(kept|chosen)\b/.test(b.state)).length;
  const written = texts.filter((t) => /\b(kept|chosen)\b/.test(t.state)).length;
  const chosen = texts.filter((t) => /\bchosen\b/.test(t.state)).length;
  return { overlaps, kept, written, chosen };
}

describe("the top-p chart: every kept bar's number is written, over no bar, word or other number; the p line's label over no note", () => {
  const pj = { width: 1024, height: 768 };
  // (the last two: a number on the line's label “p = 0.5”, one on a removed bar's note “✕ top-p”, in
  // an earlier version of this fix, found by a scan of 162 charts)
  const cases = [
    ["preset=react-zh&top_p=0.9", "zh", true, pj],
    ["preset=react-zh&top_p=0.9", "en", true, pj],
    ["preset=capital-zh&top_p=0.9", "en", true, pj],
    ["preset=capital-zh&top_p=0.9", "zh", false, { width: 1280, height: 800 }],
    ["preset=plugin-zh&top_p=0.9", "en", false, pj],
    [`prompt=${encodeURIComponent("什么是大语言模型？")}&top_p=0.5&temperature=1`, "en", true, pj],
    [`prompt=${encodeURIComponent("Hello world</s>")}&top_p=0.5&temperature=1`, "en", true, pj],
    ["preset=ts-zh&temperature=1.6&top_k=5&top_p=0.5&seed=84", "zh", true, pj],
    ["preset=ts-zh&temperature=1.6&top_k=5&top_p=0.5&seed=84", "en", false, pj],
  ];
  for (const [query, lang, projector, viewport] of cases) {
    test(`${decodeURIComponent(query)}, ${lang}, ${viewport.width}×${viewport.height}${projector ? ", projector" : ""}`, async () => {
      const { page, context } = await open(`?lang=${lang}&${query}${projector ? "&projector=1" : ""}`, { viewport });
      const found = [];
      let measured = 0;
      for (let i = 0; i < 3; i++) {
        await page.locator("#step").click();
        const seen = await page.evaluate(topPNumbers);
        if (seen === null) continue;
        measured++;
        found.push(...seen.overlaps.map((o) => `step ${i + 1}: ${o}`));
        if (seen.written < seen.kept) found.push(`step ${i + 1}: ${seen.written} of ${seen.kept} kept bars' numbers written`);
        if (seen.chosen !== 1) found.push(`step ${i + 1}: the chosen bar's number is not written`);
      }
      assert.equal(measured, 3, "the top-p chart was measured at each step");
      assert.deepEqual(found, []);
      await context.close();
    });
  }
});

/**
 * Watches every status line on the page (role status / alert / log, aria-live): `window.qa7Same`
 * collects each one rewritten on screen with the words it already had, which a screen reader says
 * again (at every step, the comparison's "Press Run comparison…" was read out anew).
 */
function watchStatusLines() {
  window.qa7Same = [];
  const watched = new Set();
  const watch = () => {
    // (aria-live="off" silences a region, an <output>'s implicit status too: the plain text is one)
    for (const r of document.querySelectorAll("[aria-live]:not([aria-live=off]), [role=status], [role=alert], [role=log]")) {
      if (watched.has(r)) continue;
      watched.add(r);
      let before = r.textContent;
      new MutationObserver(() => {
        const now = r.textContent;
        if (now === before && now.trim() !== "" && r.checkVisibility()) window.qa7Same.push(`${r.id || r.className}: “${now.trim().slice(0, 50)}”`);
        before = now;
      }).observe(r, { childList: true, subtree: true, characterData: true });
    }
  };
  watch();
  // a lesson's own status lines are built when it opens
  new MutationObserver(watch).observe(document.body, { childList: true, subtree: true });
}

describe("a screen reader hears a status line again only when its words change", () => {
  const cases = [
    ["?lang=en", "the page (the comparison's note)"],
    ["?lang=zh&embed=1", "embedded, zh"],
    ["?lang=en&lesson=exp1", "实验一"],
    ["?lang=zh&lesson=exp2", "实验二"],
    ["?lang=en&lesson=exp3", "实验三"],
    ["?lang=zh&lesson=myth2", "误解二"],
    ["?lang=en&lesson=myth4", "误解四"],
  ];
  for (const [query, name] of cases) {
    test(`${name}: three steps and a temperature change`, async () => {
      const { page, context } = await open(query, { viewport: { width: 1280, height: 800 } });
      await page.evaluate(watchStatusLines);
      for (let i = 0; i < 3 && !(await page.locator("#step").isDisabled()); i++) {
        await page.locator("#step").click();
        await page.waitForTimeout(50);
      }
      const slider = page.locator("#temperature:visible, .lesson-own input[type=range]:visible").first();
      if ((await slider.count()) > 0) {
        await slider.focus();
        await page.keyboard.press("ArrowRight");
      }
      await page.waitForTimeout(100);
      const same = await page.evaluate(() => window.qa7Same);
      assert.deepEqual([...new Set(same)], []);
      await context.close();
    });
  }
});

describe("projector mode: a prompt the model cannot read says how to reach the projector's prompt box", () => {
  const texts = {
    en: { pj: /[Pp]ress “✎ Prompt” \(or E\)/, box: /in the prompt box|Shorten the prompt, then press Enter/ },
    zh: { pj: /按「✎ 提示词」（或 E 键）/, box: /请在提示词框里|请缩短提示词，再按回车/ },
  };
  for (const lang of ["en", "zh"]) {
    for (const [name, prompt] of [["empty", ""], ["too long", "这是一个很长的句子。".repeat(60)]]) {
      test(`${lang}, ${name}: the message names “✎ Prompt”; out of projector mode, the sidebar's box`, async () => {
        const { page, context } = await open(`?lang=${lang}&projector=1`, { viewport: { width: 1024, height: 768 } });
        await page.locator("#pj-prompt-edit").click();
        await page.locator("#pj-prompt-text").fill(prompt);
        await page.locator("#pj-prompt-text").press("Enter");
        const error = page.locator("#error");
        await error.waitFor();
        assert.match(await error.innerText(), texts[lang].pj);
        // the sidebar (and its box) is back: the message says so
        await page.keyboard.press("p");
        await page.locator("#prompt").waitFor();
        assert.match(await error.innerText(), texts[lang].box);
        assert.doesNotMatch(await error.innerText(), texts[lang].pj);
        await context.close();
      });
    }
  }
});

describe("the min-p chart: its line's label over no note and no number", () => {
  for (const lang of ["en", "zh"]) {
    test(`${lang}, 1024×768: min-p 0.05 after top-k 8 (“✕ top-k” ran through “1.2%”)`, async () => {
      const { page, context } = await open(`?lang=${lang}&preset=capital-zh&temperature=0.7&top_k=8&top_p=0.9&min_p=0.05`, { viewport: { width: 1024, height: 768 } });
      const found = [];
      for (let i = 0; i < 3; i++) {
        await page.locator("#step").click();
        const hits = await page.evaluate(() => {
          const fig = document.querySelector('#stages figure[data-stage="min_p"]');
          const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
          const label = fig.querySelector(".threshold text");
          const box = label.getBoundingClientRect();
          const svg = fig.querySelector("svg").getBoundingClientRect();
          const out = [...fig.querySelectorAll(".notes text, .values text")].filter((t) => meets(box, t.getBoundingClientRect())).map((t) => `“${label.textContent}” × “${t.textContent}”`);
          if (box.top < svg.top || box.bottom > svg.bottom) out.push(`“${label.textContent}” outside the chart`);
          return out;
        });
        found.push(...hits.map((h) => `step ${i + 1}: ${h}`));
      }
      assert.deepEqual(found, []);
      await context.close();
    });
  }
});
