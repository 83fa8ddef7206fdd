// A blind learner with a screen reader, in Chromium: what the live regions say. Each Step (and a
// keyboard Force) is one polite sentence naming the chosen token, its probability and the draw u
// that chose it, and what the stages removed; nothing else on the page announces itself on a step
// (the plain text and the sliders' values were live regions rewritten every step: nine regions
// spoke per Step, none of them the draw). A Chinese token keeps lang="zh-CN" on the English page.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite } from "./harness.mjs";

const open = browserSuite();

/** Records, from now on, every live region whose content changes (what a screen reader would speak). */
function watchLive(page) {
  return page.evaluate(() => {
    window.spoken = [];
    // a live region: an explicit aria-live other than "off", or a role that is live by default
    // (status, alert, log; an <output> is a status) without aria-live="off"
    const liveOf = (node) => {
      for (let n = node; n !== null; n = n.parentElement) {
        const live = n.getAttribute("aria-live");
        if (live === "off") return null;
        if (live === "polite" || live === "assertive") return n;
        if (["status", "alert", "log"].includes(n.getAttribute("role") ?? "") || n.tagName === "OUTPUT") return n;
      }
      return null;
    };
    new MutationObserver((records) => {
      const changed = new Set();
      for (const r of records) {
        const region = liveOf(r.target.nodeType === 1 ? r.target : r.target.parentElement);
        if (region !== null) changed.add(region);
      }
      // (an emptied or hidden region says nothing)
      for (const region of changed) if (region.textContent.trim() !== "" && region.closest("[hidden]") === null) window.spoken.push({ id: region.id || region.className, text: region.textContent.trim(), html: region.innerHTML, at: performance.now() });
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

/** What the live regions said since `watchLive` (or the last call), each region once per batch of changes. */
async function spoken(page) {
  await page.waitForTimeout(300);
  return page.evaluate(() => window.spoken.splice(0));
}

/** The newest chip's title, naming its token and p ("JavaScript: p = 18.1%. Click …" / "超集：p = …"). */
function lastChip(page) {
  return page.locator("#chips li:last-child button").getAttribute("title");
}

describe("a step is one polite announcement: token, p and u", () => {
  for (const lang of ["en", "zh"]) {
    test(`${lang}: three Steps by keyboard, three sentences, nothing else speaks`, async () => {
      const { page, context, problems } = await open(`?lang=${lang}`);
      try {
        await watchLive(page);
        await page.locator("#step").focus();
        for (let n = 1; n <= 3; n++) {
          await page.keyboard.press("Enter");
          await page.waitForFunction((k) => document.querySelectorAll("#chips li").length === k, n);
          // (a Step soon after the last sentence waits its turn: at most one sentence per 0.7 s)
          // (this step's own sentence: the last one's can hold the digit too, in p, u or a count)
          await page.waitForFunction((k) => new RegExp(`^(Step ${k}:|第 ${k} 步)`).test(document.querySelector("#step-announcement")?.textContent ?? ""), n);
          const said = await spoken(page);
          assert.equal(said.length, 1, `step ${n}: one region speaks, not ${said.length}: ${JSON.stringify(said.map((s) => `${s.id}: ${s.text.slice(0, 80)}`))}`);
          const [{ text }] = said;
          const title = await lastChip(page);
          const p = /p = ([\d.<]+%)/.exec(title)?.[1];
          assert.ok(p !== undefined, title);
          assert.ok(text.includes(`p ${p}`), `step ${n}: the chosen token's p ${p} in “${text}”`);
          assert.match(text, /u = 0\.\d{3}/, `step ${n}: the draw u in “${text}”`);
          assert.ok(text.includes(lang === "en" ? `Step ${n}:` : `第 ${n} 步`), text);
          // the token, as the chip's title names it (its leading space is ␣ in the charts' labels)
          const token = /^(.*?)[:：] ?p = /.exec(title)?.[1]?.trim();
          assert.ok(token && text.includes(token), `step ${n}: token ${token} in “${text}”`);
          // what the stages removed (top-p 0.9 is on by default), and what was kept
          assert.match(text, lang === "en" ? /Removed: top-p [\d,]+\. Kept \d+ of 8000\./ : /移除：top-p [\d,]+ 个。保留 \d+ \/ 8000。/, text);
        }
        // the region is polite (never interrupts) and in the page's language
        const region = page.locator("#step-announcement");
        assert.equal(await region.getAttribute("aria-live"), "polite");
        assert.equal(await page.evaluate(() => document.documentElement.lang), lang === "zh" ? "zh-CN" : "en");
        assert.deepEqual(problems.console, []);
      } finally {
        await context.close();
      }
    });
  }

  test("en: a Chinese token is read in Chinese inside the English sentence", async () => {
    const { page, context } = await open("?lang=en&preset=capital-zh");
    try {
      await watchLive(page);
      await page.locator("#step").focus();
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
      const said = await spoken(page);
      assert.equal(said.length, 1, JSON.stringify(said));
      assert.match(said[0].html, /“<span lang="zh-CN">[^<]*\p{Script=Han}[^<]*<\/span>”/u, said[0].html);
      assert.match(said[0].text, /^Step 1: /);
    } finally {
      await context.close();
    }
  });

  test("en: greedy says so (no draw); a Force from the keyboard says forced", async () => {
    const { page, context } = await open("?lang=en&strategy=greedy");
    try {
      await watchLive(page);
      await page.locator("#step").focus();
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
      let said = await spoken(page);
      assert.equal(said.length, 1, JSON.stringify(said));
      assert.match(said[0].text, /^Step 1: “.+”, p [\d.]+%.*greedy: the most likely token, no draw\./, said[0].text);
      assert.doesNotMatch(said[0].text, /u = /);
      // the softmax chart's bars force their token: Tab to the chart, arrow to the second bar, Enter
      const bars = page.locator('#stages figure[data-stage="softmax"] rect.hit');
      await bars.first().focus();
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 2);
      await page.waitForFunction(() => document.querySelector("#step-announcement")?.textContent.startsWith("Step 2:"));
      said = await spoken(page);
      assert.equal(said.length, 1, JSON.stringify(said));
      assert.match(said[0].text, /^Step 2: “.+” forced, p /, said[0].text);
    } finally {
      await context.close();
    }
  });
});

test("en: Play at full speed is not a flood: a few sentences, the last one the last token's", async () => {
  const { page, context } = await open("?lang=en&max_new_tokens=16&min_new_tokens=16");
  try {
    await watchLive(page);
    await page.locator("#speed").focus();
    await page.keyboard.press("End");
    await page.locator("#play").focus();
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 16, null, { timeout: 20000 });
    await page.waitForFunction(() => document.querySelector("#step-announcement")?.textContent.startsWith("Step 16:"));
    const said = (await spoken(page)).filter((s) => s.id === "step-announcement");
    // never two sentences within 0.7 s (as seen here, up to a frame or two late: ≥ 0.5 s; a machine
    // slower than that between tokens hears each one)
    const gaps = said.slice(1).map((s, i) => s.at - said[i].at);
    assert.ok(gaps.every((g) => g >= 500), `gaps ${gaps.map((g) => g.toFixed(0)).join(", ")} ms: ${said.map((s) => s.text.slice(0, 8)).join(" | ")}`);
    assert.ok(said.length < 16, `${said.length} sentences for 16 tokens`);
    assert.match(said.at(-1).text, /^Step 16: /);
  } finally {
    await context.close();
  }
});

describe("each chart has a text alternative with the numbers that matter", () => {
  for (const lang of ["en", "zh"]) {
    test(`${lang}: top few, what each filter kept and removed; no run of axis words`, async () => {
      const { page, context } = await open(`?lang=${lang}&top_k=5`);
      try {
        await page.locator("#step").click();
        await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
        const charts = await page.evaluate(() =>
          [...document.querySelectorAll("#stages figure[data-stage]:not([hidden])")].map((fig) => {
            const svg = fig.querySelector("svg");
            const described = (svg.getAttribute("aria-describedby") ?? "").split(" ").map((id) => document.getElementById(id)?.textContent ?? "").join(" ");
            // the tokens under the bars, as the chart labels them, in bar order
            const labels = [...fig.querySelectorAll(".axis-x text")].map((t) => t.textContent);
            const removed = /(?:removed|移除) ([\d,]+)/.exec(fig.querySelector(".stage-status").textContent)?.[1];
            return { stage: fig.dataset.stage, described, labels, removed };
          }),
        );
        assert.deepEqual(charts.map((c) => c.stage), ["logits", "softmax", "temperature", "top_k", "top_p"]);
        for (const c of charts) {
          assert.ok(c.described.length > 20 && c.described.length < 260, `${c.stage}: a short description, “${c.described}”`);
          // the top token with its number, and the two after it
          assert.match(c.described, new RegExp(`${c.labels[0].replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} -?[\\d.]+%?`), `${c.stage}: “${c.described}”`);
          assert.equal(c.described.split(/, |，/).length >= 3, true, `${c.stage}: three named: “${c.described}”`);
        }
        const topK = charts.find((c) => c.stage === "top_k");
        assert.match(topK.described, lang === "en" ? /^Kept 5: .*\. Removed 7,995, the most likely of them: / : /^保留 5 个：.*。 ?移除 7,995 个，其中最可能的：/, topK.described);
        // a screen reader meets the bars (named buttons), not the axis, labels and numbers as words
        const tree = await page.locator('#stages figure[data-stage="top_p"]').ariaSnapshot();
        assert.doesNotMatch(tree, /- text: .*(%|✕)/, tree);
        assert.match(tree, /button "[“「].+[”」][:：] ?(rank|排名)/, tree);
      } finally {
        await context.close();
      }
    });
  }
});

/** Visible text holding Chinese with no lang="zh…" around it (read in an English voice), on the page. */
function unmarkedChinese() {
  const out = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!/\p{Script=Han}/u.test(n.textContent)) continue;
    const el = n.parentElement;
    if (el.closest("[hidden], script, style, option, textarea, [aria-hidden=true]")) continue;
    if (!(el.closest("[lang]")?.getAttribute("lang") ?? "").startsWith("zh")) out.add(`${el.tagName}#${el.id}.${el.className}: ${n.textContent.trim().slice(0, 40)}`);
  }
  return [...out];
}

test("en: Chinese in the English page (lessons' tokens, chart summaries, the strip's why, the model card) is marked zh-CN", async () => {
  const { page, context } = await open("?lang=en&preset=capital-zh");
  try {
    await page.locator("#step").click();
    await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
    assert.deepEqual(await page.evaluate(unmarkedChinese), [], "the page after a Step");
    for (const lesson of ["Exp. 1", "Myth 1", "Quiz"]) {
      await page.getByRole("button", { name: lesson, exact: true }).click();
      await page.waitForFunction(() => document.querySelector("#lesson-title") !== null);
      await page.waitForTimeout(800);
      assert.deepEqual(await page.evaluate(unmarkedChinese), [], lesson);
    }
    // (the page itself stays English)
    assert.equal(await page.evaluate(() => document.documentElement.lang), "en");
  } finally {
    await context.close();
  }
});

test("en: the keyboard's focus stays on a chip it opened, and Back to the next step hands it to Step", async () => {
  const { page, context } = await open("?lang=en");
  try {
    await page.locator("#step").focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 2);
    const first = page.locator("#chips li:first-child button");
    await first.focus();
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector("#chips li:first-child button")?.getAttribute("aria-pressed") === "true");
    // (it was lost to the page: the chips were taken out of the list and put back on every render)
    assert.equal(await page.evaluate(() => document.activeElement === document.querySelector("#chips li:first-child button")), true, "focus on the chip");
    await page.locator("#back-to-next").focus();
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector("#back-to-next").hidden);
    assert.equal(await page.evaluate(() => document.activeElement?.id), "step", "focus on Step, not the page");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 3);
  } finally {
    await context.close();
  }
});

describe("a lesson, a chart and the final strip, as a screen reader meets them", () => {
  for (const lang of ["en", "zh"]) {
    test(`${lang}: opening a lesson from its button moves focus to its heading, says nothing twice; Esc goes back`, async () => {
      const { page, context } = await open(`?lang=${lang}`);
      try {
        await watchLive(page);
        const button = page.locator('#lesson-list button[data-lesson="exp1"]');
        await button.focus();
        await page.keyboard.press("Enter");
        await page.waitForFunction(() => document.querySelector("#lesson-title") !== null && !document.getElementById("lessons").hasAttribute("aria-busy"));
        // (it stayed on the button, whose name "Exp. 1" says nothing of the lesson)
        await page.waitForFunction(() => document.activeElement?.id === "lesson-title", null, { timeout: 3000 }).catch(() => {});
        const heading = await page.evaluate(() => ({ tag: document.activeElement.tagName, text: document.activeElement.textContent.trim() }));
        assert.deepEqual(heading, { tag: "H3", text: lang === "en" ? "Experiment 1 · Greedy by hand" : "实验一：手动做一次 greedy" });
        // the lesson's first words are read with it, not announced (the hint was said twice)
        const said = (await spoken(page)).map((s) => s.text);
        assert.deepEqual(said.filter((s, i) => said.indexOf(s) !== i), [], `said twice: ${JSON.stringify(said)}`);
        assert.ok(!said.some((s) => s.includes(lang === "en" ? "Choose one of the tokens above." : "在上面的 Token 里选一个。")), JSON.stringify(said));
        // a choice is still announced, once
        await page.keyboard.press("Tab");
        await page.locator("#lesson-body .lesson-choices button").first().focus();
        await page.keyboard.press("Enter");
        const verdict = (await spoken(page)).filter((s) => s.id.includes("lesson-feedback"));
        assert.equal(verdict.length, 1, JSON.stringify(verdict));
        await page.keyboard.press("Escape");
        assert.equal(await page.evaluate(() => document.activeElement?.dataset.lesson), "exp1", "Esc: back on the lesson's button");
      } finally {
        await context.close();
      }
    });

    test(`${lang}: a chart is named by its title and status, not its Save-as-SVG button; the strip's bands are buttons a screen reader keeps`, async () => {
      const { page, context } = await open(`?lang=${lang}&top_k=5`);
      try {
        await page.locator("#step").click();
        await page.waitForFunction(() => document.querySelectorAll("#chips li").length === 1);
        const figures = (await page.locator("section.inspector").ariaSnapshot()).split("\n").filter((l) => /^\s*- figure /.test(l));
        assert.ok(figures.length >= 6, figures.join("\n"));
        for (const line of figures) assert.doesNotMatch(line, /SVG/, line);
        assert.ok(figures.some((l) => l.includes(lang === "en" ? 'figure "1 · Logits (raw scores)"' : 'figure "1 · logits（原始分数）"')), figures.join("\n"));
        assert.ok(figures.some((l) => /figure "(Top-k|top-k).*(removed|移除) 7,?995/.test(l)), figures.join("\n"));
        // nothing focusable inside an img (its children are presentational)
        const inImg = await page.evaluate(() => [...document.querySelectorAll('[role="img"] :is(button, a[href], [tabindex], [role="button"])')].map((n) => n.getAttribute("aria-label") ?? n.tagName));
        assert.deepEqual(inImg, []);
        // in Chromium's own tree: the strip's band buttons under no image
        const cdp = await context.newCDPSession(page);
        const { nodes } = await cdp.send("Accessibility.getFullAXTree");
        const byId = new Map(nodes.map((n) => [n.nodeId, n]));
        const strip = nodes.filter((n) => n.role?.value === "button" && /[:：] ?(rank|排名) \d+/.test(n.name?.value ?? "") && n.backendDOMNodeId !== undefined);
        const underImage = strip.filter((n) => {
          for (let p = byId.get(n.parentId); p !== undefined; p = byId.get(p.parentId)) if (p.role?.value === "image") return true;
          return false;
        });
        assert.ok(strip.length > 20, `${strip.length} bar and band buttons`);
        assert.deepEqual(underImage.map((n) => n.name.value), []);
        // the strip is read as its name and bands, not its axis and numbers as words
        const tree = await page.locator("#final").ariaSnapshot();
        assert.match(tree, /- group "u = [\d.]+ /, tree);
        assert.doesNotMatch(tree, /- text: .*%/, tree);
      } finally {
        await context.close();
      }
    });
  }
});
