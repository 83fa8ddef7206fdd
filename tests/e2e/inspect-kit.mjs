// What the inspect suites share (inspect.test.mjs: a token's numbers; take-home.test.mjs: CSV,
// SVG, the handout, the single file): the pinned link, the core's own trace of the step run in Node
// on the same model files, the page's display rules, and readers for the tooltip, a CSV and a download.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./harness.mjs";
import { Generator, step } from "../node/load.mjs";

const weights = readFileSync(join(ROOT, "www/model/model.safetensors"));
const tokenizer = readFileSync(join(ROOT, "www/model/tokenizer.json"), "utf8");

/** The page's settings for these tests, pinned by the link (so a new default cannot move them). */
export const SETTINGS = { strategy: "sample", temperature: 0.8, top_p: 0.9, engine: "hf", seed: 42 };
export const QUERY = "preset=capital-zh&source=model&strategy=sample&temperature=0.8&top_p=0.9&top_k=0&min_p=0&engine=hf&seed=42";
export const PROMPT = "中国的首都是";

/** The core's full trace of step `draw` after `prompt` + `appended`, as the page would ask for it. */
export function coreStep(appended = [], settings = SETTINGS) {
  const gen = new Generator(weights, tokenizer);
  gen.setPrompt(PROMPT);
  for (const id of appended) gen.force(id);
  const logits = gen.logits();
  const result = step(logits, { ...settings, draw: appended.length, trace_top: logits.length });
  return { result, vocab: gen.vocab(), rankOf: (id) => result.candidates.findIndex((c) => c.id === id) };
}

// the page's display rules (format.ts, charts/tooltip.ts), to compare text with the core's values
export const tokenLabel = (entry) => {
  const byte = /^<0x([0-9A-Fa-f]{2})>$/.exec(entry);
  if (byte === null) return entry;
  const hex = byte[1].toUpperCase();
  return hex === "0A" ? "\n" : hex === "09" ? "\t" : `<${hex}>`;
};
export const visible = (s) => (s === "" ? "∅" : s.replace(/\n/g, "↵").replace(/\t/g, "⇥").replace(/ /g, "␣"));
export function num(x, digits) {
  if (!Number.isFinite(x)) return x > 0 ? "∞" : "−∞";
  const fixed = x.toFixed(digits);
  const s = fixed.includes(".") ? fixed.replace(/\.?0+$/, "") : fixed;
  return (s === "-0" ? "0" : s).replace(/^-/, "−");
}
export function tipPercent(p) {
  if (p === 0) return "0%";
  const v = p * 100;
  return v >= 1e-4 ? `${Number(v.toPrecision(3))}%` : `${v.toExponential(2).replace("e-", "e−")}%`;
}

/** RFC 4180 CSV → rows of fields (quoted fields may hold commas, quotes and line breaks). */
export function parseCsv(text) {
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

export async function downloadText(page, click) {
  const [file] = await Promise.all([page.waitForEvent("download"), click()]);
  return { name: file.suggestedFilename(), text: readFileSync(await file.path(), "utf8") };
}

/** The tooltip's rows as { field: text }, and the id it describes. */
export async function readTip(page) {
  const tip = page.locator("#token-tip");
  await tip.waitFor({ state: "visible" });
  return tip.evaluate((el) => {
    const rows = {};
    for (const row of el.querySelectorAll("[data-field]")) rows[row.dataset.field] = row.querySelector("dd").textContent;
    return { id: Number(el.dataset.id), title: el.querySelector(".tip-title").textContent, rows };
  });
}

export const T = {
  en: { find: "Find a token", findButton: "Find", csv: "Download CSV", step: "Step", kept: "— (kept)", rank: (r, n) => `${r} of ${n}` },
  zh: { find: "查找 Token", findButton: "查找", csv: "下载 CSV", step: "单步", kept: "无（保留）", rank: (r, n) => `第 ${r} / ${n}` },
};

/** What the tooltip must say about candidate `c` at rank `rank` (0-based) of `n`. */
export function expectedRows(lang, c, rank, n) {
  const stages = { top_p: "top-p", top_k: "top-k", temperature: "temperature", min_p: "min-p" };
  return {
    rank: T[lang].rank(rank + 1, n.toLocaleString("en-US")),
    logit: num(c.logit, 3),
    p_raw: tipPercent(c.p_raw),
    p: tipPercent(c.p),
    removed_by: c.removed_by === null ? T[lang].kept : stages[c.removed_by],
  };
}
