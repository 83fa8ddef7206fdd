// One tooltip for every bar, band and chip: hover, a tap or keyboard focus shows the token's numbers from
// the trace (rank, logit, p_raw, p and the stage that removed it). Charts only register what each
// element stands for (`setTip`); this module owns the tooltip element, its events and the arrow-key
// focus that moves between a chart's bars. It computes nothing: every number is a trace field.
import { langText } from "../token-lang";
import type { Candidate } from "../core";
import type { StepView } from "./frame";
import { grouped, num, STAGE_NAMES } from "../format";
import { t } from "../i18n/index";

/** What one element stands for: a candidate of one step's trace. */
export interface TipData {
  candidate: Candidate;
  /** The token as the page shows it (␣ for a space, <E4> for a byte). */
  label: string;
  vocabSize: number;
  /** The token appended at this step. */
  chosen: boolean;
  forced: boolean;
}

type TipSource = () => TipData | null;

const sources = new WeakMap<Element, TipSource>();
let tip: HTMLDivElement | null = null;
let shownFor: Element | null = null;
let hideTimer: number | undefined;
/**
 * A finger has no hover: a tap on a chart's bar or band first shows its numbers (the tap that
 * opened them forces nothing), and a tap on it while they show forces it, as a click does. Without
 * this a teacher's tap to inspect a bar appended a forced token the class took for the model's.
 */
const TAP_FIRST = "svg.chart [data-tip]";
let tapOpened: Element | null = null;

/**
 * A probability for reading one token: three significant digits, so small ones stay readable
 * (0.0132%), and an exponent below 0.0001% (a token a model practically never picks).
 */
export function tipPercent(p: number): string {
  if (p === 0) return "0%";
  const v = p * 100;
  if (v >= 1e-4) return `${Number(v.toPrecision(3)).toString()}%`;
  return `${v.toExponential(2).replace("e-", "e−")}%`;
}

/** Who removed a candidate, in words. */
export function removedText(c: Candidate): string {
  if (c.removed_by === null) return t("tip.kept");
  if (c.removed_by === "logits") return t("tip.impossible");
  return STAGE_NAMES[c.removed_by];
}

/** Rows of the tooltip: [field, label, value]; `field` names the trace field (tests read it). */
export function tipRows(d: TipData): Array<[string, string, string]> {
  const c = d.candidate;
  return [
    ["rank", t("tip.rank"), t("tip.rankValue", { rank: c.rank + 1, n: grouped(d.vocabSize) })],
    ["logit", t("tip.logit"), num(c.logit, 3)],
    ["p_raw", t("tip.pRaw"), tipPercent(c.p_raw)],
    ["p", t("tip.p"), tipPercent(c.p)],
    ["removed_by", t("tip.removedBy"), removedText(c)],
  ];
}

/** A short accessible name for a bar: token, rank and final p. */
export function tipName(d: TipData): string {
  return t("tip.barName", { token: d.label, rank: d.candidate.rank + 1, p: tipPercent(d.candidate.p) });
}

/** Register what `el` stands for; the tooltip asks when it is shown, so it is never stale. */
export function setTip(el: Element, source: TipSource): void {
  sources.set(el, source);
  el.setAttribute("data-tip", "");
  if (shownFor === el) show(el);
}

function element(): HTMLDivElement {
  if (tip !== null) return tip;
  tip = document.createElement("div");
  tip.id = "token-tip";
  tip.className = "token-tip";
  tip.setAttribute("role", "tooltip");
  tip.hidden = true;
  // the pointer may move onto the tooltip without it closing (WCAG 1.4.13: hoverable)
  tip.addEventListener("pointerenter", () => window.clearTimeout(hideTimer));
  tip.addEventListener("pointerleave", () => hide());
  document.body.append(tip);
  return tip;
}

function show(target: Element): void {
  const data = sources.get(target)?.() ?? null;
  if (data === null) return hide();
  window.clearTimeout(hideTimer);
  const box = element();
  const title = document.createElement("p");
  title.className = "tip-title";
  // the token inside the sentence keeps its own language (a Chinese token on the English page)
  const [before = "", after = ""] = t("tip.token", { token: "\u0000" }).split("\u0000");
  title.replaceChildren(before, langText(data.label), after);
  if (data.chosen || data.forced) {
    const badge = document.createElement("span");
    badge.className = "tip-badge";
    badge.textContent = data.forced ? t("tip.forced") : t("tip.chosen");
    title.append(" ", badge);
  }
  const list = document.createElement("dl");
  for (const [field, label, value] of tipRows(data)) {
    const row = document.createElement("div");
    row.dataset["field"] = field;
    const dt = document.createElement("dt");
    dt.textContent = label;
    const dd = document.createElement("dd");
    dd.textContent = value;
    row.append(dt, dd);
    list.append(row);
  }
  box.replaceChildren(title, list);
  // the element's own title (a chip's hint) moves into this tooltip while it shows, so the browser
  // does not draw a second one; it is put back on hide
  if (target.hasAttribute("title")) {
    target.setAttribute("data-tip-title", target.getAttribute("title") ?? "");
    target.removeAttribute("title");
  }
  const hint = target.getAttribute("data-tip-title");
  if (hint !== null && hint !== "") {
    const note = document.createElement("p");
    note.className = "tip-note";
    note.textContent = hint;
    box.append(note);
  }
  box.dataset["id"] = String(data.candidate.id);
  box.hidden = false;
  if (shownFor !== null && shownFor !== target) release(shownFor);
  shownFor = target;
  target.setAttribute("aria-describedby", box.id);
  place(box, target);
}

/**
 * Above the element, centred, kept inside the window (below it when there is no room above), and
 * never over the strip's u marker: a finger's tap leaves the numbers up, and over a band they hid
 * the random number the class is reading (then below the element if that clears it, else beside it).
 */
function place(box: HTMLDivElement, target: Element): void {
  const r = target.getBoundingClientRect();
  const w = box.offsetWidth;
  const h = box.offsetHeight;
  let left = Math.min(Math.max(4, r.left + r.width / 2 - w / 2), window.innerWidth - w - 4);
  const above = r.top - h - 8;
  const below = Math.min(r.bottom + 8, window.innerHeight - h - 4);
  let top = above >= 4 ? above : below;
  const covers = (x: number, y: number, m: DOMRect): boolean => x < m.right && x + w > m.left && y < m.bottom && y + h > m.top;
  const marker = [...document.querySelectorAll(".u-marker")].map((m) => m.getBoundingClientRect()).find((m) => m.width > 0 && covers(left, top, m));
  if (marker !== undefined) {
    if (!covers(left, below, marker)) top = below;
    else if (window.innerWidth - marker.right >= marker.left) left = Math.min(marker.right + 8, window.innerWidth - w - 4);
    else left = Math.max(4, marker.left - 8 - w);
  }
  box.style.setProperty("left", `${Math.round(left + window.scrollX)}px`);
  box.style.setProperty("top", `${Math.round(top + window.scrollY)}px`);
}

function hide(): void {
  window.clearTimeout(hideTimer);
  if (tip !== null) tip.hidden = true;
  if (shownFor !== null) release(shownFor);
  shownFor = null;
}

/** The element no longer shows the tooltip: its own title and description come back. */
function release(target: Element): void {
  target.removeAttribute("aria-describedby");
  const title = target.getAttribute("data-tip-title");
  if (title !== null) {
    // a re-render may have written a fresh title meanwhile; that one wins
    if (!target.hasAttribute("title")) target.setAttribute("title", title);
    target.removeAttribute("data-tip-title");
  }
}

/**
 * The chart (its bars' parent) where Enter or Space just forced a bar: the step it appends redraws
 * the charts, and the focused bar can go with its step (focus fell to the page). Cleared when focus
 * moves elsewhere.
 */
let forcedIn: Element | null = null;

/** Give one of `nodes` the chart's tab stop (the focused one, else `preferred`); the rest -1. */
export function rove(nodes: Element[], preferred: number): void {
  const focused = nodes.findIndex((n) => n === document.activeElement);
  const stop = focused >= 0 ? focused : Math.min(Math.max(0, preferred), nodes.length - 1);
  nodes.forEach((n, i) => n.setAttribute("tabindex", i === stop ? "0" : "-1"));
  for (const n of nodes) n.setAttribute("data-rove", "");
  // a bar forced from the keyboard left with its step: focus stays in its chart, on the tab stop
  const lost = document.activeElement === null || document.activeElement === document.body;
  const next = nodes[stop];
  if (lost && forcedIn !== null && next?.parentElement === forcedIn && (next instanceof SVGElement || next instanceof HTMLElement)) next.focus();
}

/** Arrow keys move between a chart's bars (one tab stop per chart); Escape closes the tooltip. */
function onKey(event: KeyboardEvent): void {
  const target = event.target instanceof Element ? event.target : null;
  if (event.key === "Escape" && shownFor !== null && tip?.hidden === false) {
    // the tooltip takes this Esc (a second one closes an open lesson: keyboard.ts)
    event.preventDefault();
    hide();
    return;
  }
  if (target === null || !target.hasAttribute("data-rove") || event.ctrlKey || event.altKey || event.metaKey) return;
  const siblings = [...(target.parentElement?.children ?? [])].filter((n) => n.hasAttribute("data-rove"));
  const at = siblings.indexOf(target);
  const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: siblings.length - 1 }[event.key];
  if (to === undefined) return;
  // the key is the chart's, not a page shortcut (← / → step the text elsewhere)
  event.preventDefault();
  const next = siblings[Math.min(Math.max(0, to), siblings.length - 1)];
  if (next instanceof SVGElement || next instanceof HTMLElement) {
    for (const n of siblings) n.setAttribute("tabindex", n === next ? "0" : "-1");
    next.focus();
  }
}

/** Listen once, on the document, for every registered element. */
export function installTips(): void {
  const tipTarget = (e: Event): Element | null => (e.target instanceof Element ? e.target.closest("[data-tip]") : null);
  document.addEventListener("pointerover", (e) => {
    const target = tipTarget(e);
    if (e.pointerType === "touch") tapOpened = target !== null && target !== shownFor && target.matches(TAP_FIRST) ? target : null;
    if (target !== null && target !== shownFor) show(target);
  });
  document.addEventListener("pointerout", (e) => {
    const target = tipTarget(e);
    const to = e.relatedTarget;
    // a lifted finger leaves the numbers up (a tap elsewhere closes them)
    if (target === null || target !== shownFor || e.pointerType === "touch") return;
    if (to instanceof Node && (target.contains(to) || tip?.contains(to))) return;
    window.clearTimeout(hideTimer);
    hideTimer = window.setTimeout(hide, 120);
  });
  document.addEventListener(
    "keydown",
    (e) => {
      // (in capture, before the bar's own handler forces it and the charts are redrawn)
      const target = e.target instanceof Element ? e.target : null;
      if ((e.key === "Enter" || e.key === " ") && target?.hasAttribute("data-rove") === true) forcedIn = target.parentElement;
    },
    true,
  );
  document.addEventListener("focusin", (e) => {
    if (forcedIn !== null && !(e.target instanceof Node && forcedIn.contains(e.target))) forcedIn = null;
    const target = tipTarget(e);
    if (target !== null) show(target);
    else hide();
  });
  document.addEventListener("focusout", (e) => {
    if (tipTarget(e) === shownFor) hide();
  });
  document.addEventListener("pointerdown", (e) => {
    if (e.pointerType !== "touch" || shownFor === null || tipTarget(e) !== null) return;
    if (!(e.target instanceof Node && tip?.contains(e.target) === true)) hide();
  });
  // before the bar's own click handler (capture): the tap that showed the numbers forces nothing
  document.addEventListener(
    "click",
    (e) => {
      const target = tipTarget(e);
      if (!(e instanceof PointerEvent) || e.pointerType !== "touch" || target === null || target !== tapOpened) return;
      tapOpened = null;
      e.preventDefault();
      e.stopImmediatePropagation();
    },
    true,
  );
  // placed in page coordinates, so it scrolls with the element it describes
  document.addEventListener("keydown", onKey);
}

/** What each token of a step's trace shows on hover or focus, by id (null if not listed). */
export function viewTips(view: StepView): (id: number) => TipData | null {
  const byId = new Map(view.result.candidates.map((c) => [c.id, c]));
  return (id) => {
    const candidate = byId.get(id);
    if (candidate === undefined) return null;
    const chosen = id === view.chosenId;
    return {
      candidate,
      label: view.label(id),
      vocabSize: view.result.vocab_size,
      chosen,
      forced: chosen && id !== view.result.token,
    };
  };
}
