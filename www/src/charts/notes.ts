// Where a removed bar's note ("✕ top-k", "✕ greedy": the stage that removed it) is written. Upwards
// from just above its bar; but over a flat distribution a removed bar is nearly as tall as the
// chosen one, and its note rose out of the plot, through the chosen token's number and the chart's
// title ("Greedy removed 7999" struck through by "✕ greedy"). Such a note is written inside its bar,
// from the bar's foot up; one that fits neither way is left out (the bar's dashed style and its name
// say it). frame.ts draws the notes here; value-labels.ts and the line labels keep clear of them.
import type { BarItem } from "./frame";
import type { Box } from "./value-labels";
import { textUnits } from "./text-units";

/** Air between a note and the bar's top or foot, in viewBox units. */
const AIR = 3;

/** A chart's value scale as the notes read it: a value's y, and its range (foot, plot's top). */
export interface NoteScale {
  (v: number): number;
  range(): number[];
}

/** Where a note is written: its start (the baseline's lower end, turned −90° at `x`) and its box. */
export interface NotePlace {
  x: number;
  start: number;
  box: Box;
}

/**
 * The place of `note` on a removed bar centred at `centre` whose top is at `top`, on a chart whose
 * baseline is `foot` and whose plot reaches up to `ceiling` (viewBox units; up is smaller); null when
 * it fits neither above the bar nor inside it. `scale`: how much larger than its 11 units it is drawn.
 */
export function notePlace(note: string, centre: number, top: number, foot: number, ceiling: number, scale: number): NotePlace | null {
  const size = 11 * scale;
  const length = textUnits(note, size, 6.2 * scale);
  const x = centre + 3.5;
  const start = top - AIR - length >= ceiling ? top - AIR : foot - top >= length + 2 * AIR ? foot - AIR : null;
  if (start === null) return null;
  // (turned −90°, the glyphs' ascent, 0.9 em as drawn, lies left of the line the note is written on)
  return { x, start, box: { left: x - 0.92 * size, right: x + 0.25 * size, top: start - length, bottom: start } };
}

/** The boxes of the notes on the removed bars among `items`, each over its bar's `centre`, on the scale `y`. */
export function noteBoxes(items: readonly BarItem[], centre: (d: BarItem) => number, y: NoteScale, scale: number): Box[] {
  const boxes: Box[] = [];
  const [foot, ceiling] = [y(0), plotTop(y)];
  for (const d of items) {
    const place = d.note === null ? null : notePlace(d.note, centre(d), Math.min(y(d.value), foot), foot, ceiling, scale);
    if (place !== null) boxes.push(place.box);
  }
  return boxes;
}

/** The top of the plot on the scale `y` (the value axis's highest value). */
export function plotTop(y: NoteScale): number {
  return Math.min(...y.range());
}
