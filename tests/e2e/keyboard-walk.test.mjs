// Keyboard only, in Chromium: a tab walk where every stop is named and ringed, and a chart's stops
// (the strip's band too) are buttons.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { browserSuite } from "./harness.mjs";

const open = browserSuite();

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
