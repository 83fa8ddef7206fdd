// A course author's embed frame, in Chromium: an open lesson in a 640×480 frame leaves the frame
// unscrollable; tabbing out of the Settings drawer closes it; the top row is one row at 800 and 640 px
// in zh and en with every button named; in projector mode one Settings button, and one header row
// at 1024×768.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite, screenshot } from "./harness.mjs";

const open = browserSuite();

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

describe("a course author's embed frame, by keyboard", () => {
  for (const [width, height] of [[640, 480], [800, 600]]) {
    test(`${width}×${height}: tabbing out of the Settings drawer closes it, so no focused control is hidden under it`, async () => {
      const { page, context } = await open("?lang=en&embed=1", { viewport: { width, height } });
      await page.locator("#settings-toggle").focus();
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => document.body.dataset.settings === "open");
      const hidden = [];
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press("Tab");
        const r = await page.evaluate(() => {
          const e = document.activeElement;
          if (e === null || e === document.body) return null;
          const b = e.getBoundingClientRect();
          const points = [[b.left + 2, b.top + 2], [b.right - 2, b.top + 2], [b.left + 2, b.bottom - 2], [b.right - 2, b.bottom - 2], [b.left + b.width / 2, b.top + b.height / 2]];
          const seen = points.some(([x, y]) => {
            const hit = document.elementFromPoint(x, y);
            return hit !== null && (e.contains(hit) || hit.contains(e) || [...(e.labels ?? [])].some((l) => l.contains(hit)));
          });
          return { name: `${e.tagName}#${e.id}`, seen, inDrawer: e.closest("aside") !== null, open: document.body.dataset.settings === "open" };
        });
        if (r === null) break;
        if (!r.seen) hidden.push(r.name);
        if (!r.inDrawer) assert.equal(r.open, false, `${r.name}: the drawer closed when focus left it`);
      }
      assert.deepEqual(hidden, [], "focused controls hidden under the drawer");
      // a click beside the open drawer (Step, to try a setting) keeps it open
      await page.locator("#settings-toggle").click();
      await page.locator("#step").click();
      assert.equal(await page.evaluate(() => document.body.dataset.settings), "open");
      await context.close();
    });
  }
});

describe("an embed's top row", () => {
  for (const lang of ["en", "zh"]) {
    for (const width of [800, 640]) {
      test(`${lang} ${width} px: one row, nothing cut, every button named as before`, async () => {
        const { page, context } = await open(`?lang=${lang}&embed=1`, { viewport: { width, height: 600 } });
        const row = await page.evaluate(() => {
          const top = document.querySelector(".top");
          const items = [...top.children].filter((e) => e.checkVisibility() && e.getBoundingClientRect().width > 2);
          const boxes = items.map((e) => ({ id: e.id || e.className, top: e.getBoundingClientRect().top, bottom: e.getBoundingClientRect().bottom, right: e.getBoundingClientRect().right, lines: Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight || "20")) }));
          return { boxes, height: top.getBoundingClientRect().height, scroll: top.scrollWidth - top.clientWidth };
        });
        const first = row.boxes[0];
        const off = row.boxes.filter((b) => b.top >= first.bottom);
        assert.deepEqual(off.map((b) => b.id), [], `on a second row: ${JSON.stringify(off)}`);
        assert.ok(row.boxes.every((b) => b.right <= width), "nothing past the frame's edge");
        assert.ok(row.height < 50, `one slim row (${row.height} px)`);
        assert.equal(row.scroll, 0);
        assert.equal(await page.locator("#lang-toggle").isVisible(), true);
        assert.equal(await page.getByRole("button", { name: lang === "en" ? "Shortcuts (?)" : /快捷键/ }).count(), 1);
        await screenshot(page, `qa3-embed-top-${lang}-${width}.png`);
        await context.close();
      });
    }
  }
});

describe("an embed frame in projector mode", () => {
  for (const lang of ["zh", "en"]) {
    test(`${lang}: one Settings button, and it opens the projector's settings row (the drawer's second one did nothing)`, async () => {
      const { page, context } = await open(`?lang=${lang}&embed=1&projector=1`, { viewport: { width: 1024, height: 768 } });
      const name = lang === "zh" ? "设置" : "Settings";
      const buttons = page.locator("header button").filter({ hasText: new RegExp(`^${name}$`) });
      await page.locator("#projector-controls-toggle").waitFor();
      const visible = [];
      for (const button of await buttons.all()) if (await button.isVisible()) visible.push(await button.getAttribute("id"));
      assert.deepEqual(visible, ["projector-controls-toggle"]);
      // one header row at 1024×768 ("Open full page ↗" wrapped the language button onto a second),
      // the settings line showing what fits and the rest on hover
      const row = await page.evaluate(() => {
        const top = document.querySelector(".top");
        const shown = [...top.children].filter((node) => node.checkVisibility()).map((node) => node.getBoundingClientRect());
        const line = document.querySelector(".projector-settings");
        // (one row: every item starts above the end of every other)
        const rows = shown.some((box) => shown.some((other) => box.top >= other.bottom)) ? 2 : 1;
        return { rows, bottom: Math.max(...shown.map((box) => box.bottom)), right: Math.max(...shown.map((box) => box.right)), line: line.title || line.textContent, cut: line.title !== "" };
      });
      assert.equal(row.rows, 1, `one row (the lowest item ends at ${row.bottom} px)`);
      assert.ok(row.bottom < 50 && row.right <= 1024, JSON.stringify(row));
      assert.match(row.line, lang === "zh" ? /种子 84/ : /seed 84/);
      // (in Chinese all of it: T, top-p and the seed)
      if (lang === "zh") assert.equal(row.cut, false, "the whole settings line");
      await screenshot(page, `embed-projector-top-${lang}.png`);
      await page.locator("#projector-controls-toggle").click();
      await page.locator("#projector-controls").waitFor({ state: "visible" });
      await context.close();
    });
  }
});
