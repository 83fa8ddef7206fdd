// Where the numbers over the bars go. Each number is written over its own bar, in the lowest place
// that touches no bar, no note on a removed bar, no line (top-p's p line), no stretch of a curve
// (its running total) and no number already placed: over a bar a number was legible only through
// its halo, and an every-k-th rule hid numbers that had room higher up. The chosen token's number is
// placed first and always written. A number rises at most two rows above its bar (higher, 0.15 % sat
// at 60 % of the chart's height and a reader could not tell whose it was): one with no free place
// that near is left out, unless it is the chosen token's, one of the five tallest bars', or a kept
// token's in a chart that removes some (those are written higher with a leader line down to their bar).
import type { BarItem } from "./frame";
import { notePlace } from "./notes";
import { textUnits } from "./text-units";

/** A stretch of the chart's height a number must not touch, [top, bottom] (viewBox units, top ≤ bottom): a horizontal line is [y, y]. */
export type Band = readonly [number, number];

/** A rectangle in viewBox units. */
export interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** The chart as the numbers see it, in viewBox units (frame.ts fills it in once it has placed the bars). */
export interface ValueLayout {
  /** The bar's left edge (every bar is `bandwidth` wide). */
  barLeft: (d: BarItem) => number;
  bandwidth: number;
  /** The y of a value on the chart's scale. */
  y: (v: number) => number;
  /** The top of the plot (the value axis's highest value): a removed bar's note stays under it (notes.ts). */
  ceiling: number;
  /** The baseline (value 0): numbers stay above it. */
  y0: number;
  /** Numbers start right of this x (the value axis's labels end left of it) and end left of `right`. */
  left: number;
  right: number;
  /** Horizontal lines at these values (top-p's p line). */
  lines: readonly number[];
  /** The values a curve takes over the x span [from, to] (its running total), if the chart has one. */
  curve?: (from: number, to: number) => readonly number[];
  /** Other words drawn in the plot (a line's label). */
  avoid: readonly Box[];
  /** How much larger than designed the numbers are drawn (projector mode's --pj-k, a narrow chart's --value-k). */
  scale: number;
  /** A filter's chart (top-k, top-p, min-p): its kept bars' numbers are always written. */
  filter: boolean;
}

export interface PlacedValue {
  d: BarItem;
  /** The text's centre and baseline. */
  x: number;
  y: number;
  /** A number written far above its bar: the leader line from under the text down to the bar's top. */
  leader: { x1: number; y1: number; x2: number; y2: number } | null;
}

/** The most likely tokens whose numbers are written whatever it takes (higher, with a leader line). */
const ALWAYS_WRITTEN = 5;
/** Monospace 11 px as drawn: about 6.8 viewBox units per character, its box 0.82 em above the
 * baseline and 0.35 em below (measured in Chromium with the page's monospace font). */
const CHAR = 6.8;
const ASCENT = 0.82;
const DESCENT = 0.35;
/** Air between a number and a line (the curve's dots, r 2.5, stand out of its line: more there). */
const LINE_GAP = 2.5;
const CURVE_GAP = 5;
/** Air between two numbers, and between a number and a bar or note. */
const GAP = 1;
/**
 * Air between two numbers, in ems of their type: one unit (GAP) left a row of numbers touching,
 * "2.5%2.2%2.1%", and a row above another, at T 2 on a projector (853×533, 1024×768).
 */
const NUMBER_AIR = 0.2;

/** The height over the tallest bar (or the curve's top) a number needs, in viewBox units. */
export function valueRoom(scale: number, curve: boolean): number {
  return (curve ? CURVE_GAP : GAP) + (ASCENT + DESCENT) * 11 * scale + 1;
}

/** How far (viewBox units) a number may rise above its place over its bar with no leader line: two rows. */
export function maxRise(scale: number): number {
  return 2 * ((ASCENT + DESCENT) * 11 * scale + GAP);
}

/** The width of a number in viewBox units. */
export function valueWidth(text: string, scale: number): number {
  return text.length * CHAR * scale;
}

/** Where each number goes (those with no free place are left out, except the chosen token's). */
export function placeValues(items: readonly BarItem[], layout: ValueLayout): PlacedValue[] {
  const size = 11 * layout.scale;
  const [ascent, descent] = [ASCENT * size, DESCENT * size];
  const { y, y0, bandwidth } = layout;
  // a number sits on its own bar, inside a taller ghost (the dashed T = 1 outline, the count's
  // expected p): over the ghost, "10.3%" stood at the 32 % its outline reached at T 1.5 and read as
  // the outline's value. Only the ghost's top edge keeps numbers off; its sides are dashes
  const hollow = (d: BarItem): boolean => d.ghost !== null && d.value >= 0 && d.ghost > d.value;
  const barTop = (d: BarItem): number => Math.min(y(hollow(d) ? d.value : Math.max(d.value, d.ghost ?? 0)), y0);
  // what a number must not touch: every bar (and its ghost) and every note on a removed bar
  const obstacles: Box[] = [];
  for (const d of items) {
    const left = layout.barLeft(d);
    for (const v of [d.value, d.ghost]) {
      if (v === null) continue;
      const edge = v === d.ghost && hollow(d);
      obstacles.push({ left, right: left + bandwidth, top: Math.min(y(v), y0), bottom: edge ? y(v) : Math.max(y(v), y0) });
    }
    const note = d.note === null ? null : notePlace(d.note, left + bandwidth / 2, Math.min(y(d.value), y0), y0, layout.ceiling, layout.scale);
    if (note !== null) obstacles.push(note.box);
  }
  obstacles.push(...layout.avoid);
  const lineBands: Band[] = layout.lines.map((v) => [y(v) - LINE_GAP, y(v) + LINE_GAP]);

  const shown = items.filter((d) => d.state !== "removed-before" && d.note === null && d.valueText !== "");
  const chosen = shown.filter((d) => d.state === "chosen");
  // the numbers a reader must find even far from their bar: the chosen token's, and the kept ones
  // where a filter runs or has run (what survives it)
  const filters = layout.filter || items.some((d) => d.state === "removed-here" || d.state === "removed-before");
  // and the tallest bars' everywhere: the softmax chart left the third most likely token's 7.3 %
  // out (its place sat a hair above two rows, under the chosen second's number), a gap where a
  // learner reads the most
  const tallest = tallestNumbered(items);
  const essential = (d: BarItem): boolean => d.state === "chosen" || (filters && d.state === "kept") || tallest.has(d);
  const near = maxRise(layout.scale);
  const air = Math.max(GAP, NUMBER_AIR * size);
  const placed: PlacedValue[] = [];
  const boxes: Box[] = [];
  for (const d of [...chosen, ...shown.filter((d) => d.state !== "chosen")]) {
    const width = valueWidth(d.valueText, layout.scale);
    const natural = d.value >= 0 ? barTop(d) - 3 : y0 - 3;
    const centre = layout.barLeft(d) + bandwidth / 2;
    // the text may slide sideways as long as it still spans its whole bar, and stays in the plot
    const reach = Math.max(0, (width - bandwidth) / 2);
    const [lo, hi] = [Math.max(centre - reach, layout.left + width / 2), Math.min(centre + reach, layout.right - width / 2)];
    const home = Math.min(Math.max(centre, lo), Math.max(lo, hi));
    let best: { x: number; y: number; cost: number } | null = null;
    for (const x of offsets(home, lo, hi)) {
      const [from, to] = [x - width / 2, x + width / 2];
      const bands: Band[] = [...lineBands];
      const curve = (layout.curve?.(from - CURVE_GAP, to + CURVE_GAP) ?? []).map(y);
      if (curve.length > 0) bands.push([Math.min(...curve) - CURVE_GAP, Math.max(...curve) + CURVE_GAP]);
      for (const b of obstacles) {
        if (b.left < to + GAP && from - GAP < b.right) bands.push([b.top - GAP, b.bottom + GAP]);
      }
      for (const b of boxes) {
        if (b.left < to + air && from - air < b.right) bands.push([b.top - air, b.bottom + air]);
      }
      const baseline = lowestFree(Math.min(natural, y0 - descent), bands, ascent, descent);
      if (baseline === null || (natural - baseline > near && !essential(d))) continue;
      const cost = natural - baseline + Math.abs(x - home);
      if (best === null || cost < best.cost) best = { x, y: baseline, cost };
    }
    if (best === null && d.state === "chosen") {
      // nowhere free (a chart too small for its text): over its bar, clear of the lines, as before
      const bands: Band[] = [...layout.lines.map((v): Band => [y(v), y(v)])];
      best = { x: home, y: clearOfLines(natural, bands, size, LINE_GAP, y0), cost: 0 };
    }
    if (best === null) continue;
    const top = barTop(d);
    const far = d.value >= 0 && natural - best.y > near;
    const leader = far ? { x1: best.x, y1: best.y + descent + 1, x2: centre, y2: top - 1 } : null;
    placed.push({ d, x: best.x, y: best.y, leader });
    boxes.push({ left: best.x - width / 2, right: best.x + width / 2, top: best.y - ascent, bottom: best.y + descent });
  }
  return placed;
}

/** The bars whose numbers are always written: the ALWAYS_WRITTEN tallest of those that carry a number. */
export function tallestNumbered(items: readonly BarItem[]): Set<BarItem> {
  const numbered = items.filter((d) => d.state !== "removed-before" && d.note === null && d.valueText !== "");
  return new Set(numbered.sort((a, b) => b.value - a.value).slice(0, ALWAYS_WRITTEN));
}

/** The x positions to try, nearest `home` first, one unit apart within [lo, hi]. */
function offsets(home: number, lo: number, hi: number): number[] {
  const out = [home];
  for (let s = 1; home - s >= lo || home + s <= hi; s++) {
    if (home - s >= lo) out.push(home - s);
    if (home + s <= hi) out.push(home + s);
  }
  return out;
}

/**
 * The lowest baseline at or above `start` whose text box ([baseline − ascent, baseline + descent])
 * meets none of `bands` and stays inside the chart (its top at or below 0); null if there is none.
 */
function lowestFree(start: number, bands: readonly Band[], ascent: number, descent: number): number | null {
  let baseline = start;
  for (let moved = true; moved; ) {
    moved = false;
    for (const [top, bottom] of bands) {
      if (bottom > baseline - ascent && top < baseline + descent) {
        baseline = top - descent - 1e-6;
        moved = true;
      }
    }
    if (baseline - ascent < 0) return null;
  }
  return baseline;
}

/** Whether two boxes share any area (touching edges do not). */
export function overlaps(a: Box, b: Box): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/**
 * The box of a threshold line's bold label (11.5 px before `scale`) on `baseline`, starting at `x`
 * (`start`) or ending there (`end`): about 0.6 em a character, a Chinese one 1 em.
 */
export function lineLabelBox(label: string, x: number, baseline: number, scale: number, anchor: "start" | "end"): Box {
  const size = 11.5 * scale;
  const width = textUnits(label, 1, 0.6) * size;
  return { left: anchor === "start" ? x : x - width, right: anchor === "start" ? x + width : x, top: baseline - 0.95 * size, bottom: baseline + 0.3 * size };
}

/**
 * The baseline of a number written at `baseline` in type `size` (viewBox units), moved off every
 * band (a horizontal line, or the heights a curve takes across the text), `gap` apart: the nearest
 * place that clears them all and stays inside the chart (above its top, and not under `floor`, the
 * chart's baseline), above if one is as near, else below. The text's box spans about
 * [baseline − 0.8·size, baseline + 0.25·size] (its em box: digits and % sit on the baseline, the
 * font's descent below it).
 */
function clearOfLines(baseline: number, bands: readonly Band[], size: number, gap = 2.5, floor = Infinity): number {
  const [ascent, descent] = [0.8 * size, 0.25 * size];
  // (a place computed from a band is exactly `gap` from it: a hair of tolerance keeps it free)
  const clear = (y: number): boolean => bands.every(([top, bottom]) => bottom <= y - ascent - gap + 1e-9 || top >= y + descent + gap - 1e-9);
  const inside = (y: number): boolean => y - ascent >= -1e-9 && y + descent <= floor + 1e-9;
  if (clear(baseline) && inside(baseline)) return baseline;
  const free = (y: number): boolean => clear(y) && inside(y);
  const above = bands.map(([top]) => top - gap - descent).filter((y) => y <= baseline && free(y));
  const below = bands.map(([, bottom]) => bottom + gap + ascent).filter((y) => y >= baseline && free(y));
  const up = above.length > 0 ? Math.max(...above) : null;
  const down = below.length > 0 ? Math.min(...below) : null;
  if (up !== null && (down === null || baseline - up <= down - baseline)) return up;
  if (down !== null) return down;
  // nowhere clear of them all: above the first band it meets, as before
  const first = bands.find(([top, bottom]) => !(bottom < baseline - ascent - gap || top > baseline + descent + gap));
  return first === undefined ? baseline : first[0] - gap - descent - ascent >= 0 ? first[0] - gap - descent : first[1] + gap + ascent;
}
