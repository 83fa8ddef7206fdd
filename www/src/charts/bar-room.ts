// How many bars a stage chart has room for, and how its labels and value axis make room. The charts
// scale with their box (a 400-unit viewBox); projector mode draws their text `k` times its size
// (--pj-k) so that it stays legible, and on a small screen (a 1024×768 projector zoomed in, 800×600,
// 853×480) that made sixteen rotated token labels run over each other, the value axis's labels over
// each other and out of the chart. There projector mode draws fewer bars (views/projector.ts sets
// the number from the chart's k), each as wide as its label needs, the labels cut short.

import { textUnits } from "./text-units";

/** The most bars a chart draws. */
export const MAX_BARS = 16;
/**
 * The step between bars (viewBox units) that a token label, rotated −40° and drawn at `k` times its
 * 12 units, needs per k so that its neighbour's letters do not touch it: a line of letters (12k)
 * apart, across the rotated labels (step × sin 40°).
 */
export const LABEL_STEP = 19;
/** The widest token label (viewBox units at 11) under a bar when fewer bars are drawn than the most (then cut, "…"). */
const SHORT_LABEL = 50;

/** Bars drawn now: MAX_BARS, fewer in projector mode on a small screen. */
let barLimit = MAX_BARS;

/** The most bars a chart draws now. */
export function barsAllowed(): number {
  return barLimit;
}

/** Draw at most `n` bars from now on; whether that changed anything (the charts then need drawing again). */
export function limitBars(n: number): boolean {
  const next = Math.max(1, Math.min(MAX_BARS, Math.floor(n)));
  if (next === barLimit) return false;
  barLimit = next;
  return true;
}

/** How far left of its bar a label `width` wide (at 11), rotated −40° at `k` times its 12 units, reaches (from the plot's start). */
export function labelReach(width: number, k: number): number {
  return 0.84 * width * k - 14;
}

/** Where the value axis stands so that its labels ("100%", 28 units at 11), drawn `k` times their size, stay inside the chart. */
export function axisReach(k: number): number {
  return 11 + 28 * k;
}

/** How many bars' rotated labels fit between `left` and `right` drawn `k` times their size (at least 4). */
export function barsAcross(left: number, right: number, k: number): number {
  const plot = right - Math.max(left, axisReach(k), labelReach(SHORT_LABEL, k));
  return Math.max(4, Math.min(MAX_BARS, Math.floor(plot / (LABEL_STEP * k))));
}

/** `text` cut to SHORT_LABEL wide with "…" when `short` (whole code points: 「中文」, emoji stay whole). */
export function shortLabel(text: string, short: boolean): string {
  if (!short || labelWidth(text) <= SHORT_LABEL) return text;
  let cut = "";
  for (const ch of text) {
    if (labelWidth(`${cut}${ch}…`) > SHORT_LABEL) break;
    cut += ch;
  }
  return `${cut}…`;
}

/** How many values the value axis (its range in viewBox units) names: 4, fewer where its labels, drawn `k` times their 11 units, would touch. */
export function axisTicks(range: readonly number[], k: number): number {
  const [bottom = 0, top = 0] = range;
  return Math.max(1, Math.min(4, Math.floor(Math.abs(bottom - top) / (14 * k))));
}

/** Rough rendered width of a label in viewBox units (CJK characters are about twice as wide). */
export function labelWidth(text: string): number {
  return textUnits(text, 12.5, 7);
}
