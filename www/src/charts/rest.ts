// The rest of the vocabulary (a model server's top N, issue 12): one bar of its own, hatched and
// grey, labelled, named for screen readers and never forced, since it is not a token. Its
// probability is the trace's `rest.mass`; the stage that removed it is `rest.removed_by`.
import type * as d3 from "d3";
import type { StageName } from "../core";
import type { BarItem, StepView } from "./frame";

/** The words for the rest-of-the-vocabulary bar, in the page's language. */
export interface RestTexts {
  /** Under the bar (short). */
  tick: string;
  /** Over the bar. */
  label: string;
  /** Accessible name of the bar with its probability. */
  barName: string;
  /** Over the bar of the stage that removed it, and that bar's accessible name. */
  removedNote: (stage: StageName) => string;
  removedName: (stage: StageName) => string;
}

/** The bar id of the rest of the vocabulary: never a token id, never forced. */
export const REST_ID = -1;

/**
 * The rest bar's hatching (diagonal lines computed inside its rectangle: an exported SVG may refer
 * to no pattern) and its label: over it, or beside it on the left (over the tail's short bars)
 * when the bar reaches the top of the chart.
 */
export function drawRestMarks(
  layer: d3.Selection<SVGGElement, unknown, null, undefined>,
  item: BarItem | undefined,
  label: string,
  at: { x: number; width: number; y: (v: number) => number; y0: number },
): void {
  const top = item === undefined ? at.y0 : at.y(item.value);
  drawHatch(layer, item === undefined ? [] : hatch(at.x, top, at.width, at.y0 - top, 5));
  // over the bar; beside it (to the left, over the shortest bars) when the bar reaches the top
  const beside = top < 32;
  layer
    .selectAll<SVGTextElement, string>("text")
    .data(item === undefined ? [] : [label])
    .join("text")
    .attr("class", "rest-label")
    .attr("text-anchor", "end")
    .attr("x", beside ? at.x - 4 : at.x + at.width)
    .attr("y", beside ? top + 10 : top - 16)
    .text((d) => d);
}

interface Segment {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** `lines` as the rest's hatch in `layer` (its bar's, or its box's in the final strip). */
export function drawHatch(layer: d3.Selection<SVGGElement, unknown, null, undefined>, lines: Segment[]): void {
  layer
    .selectAll<SVGLineElement, Segment>("line")
    .data(lines)
    .join("line")
    .attr("class", "rest-hatch")
    .attr("x1", (d) => d.x1)
    .attr("y1", (d) => d.y1)
    .attr("x2", (d) => d.x2)
    .attr("y2", (d) => d.y2);
}

/** 45° lines every `gap` units across the rectangle (x, y, w, h), clipped to it. */
export function hatch(x: number, y: number, w: number, h: number, gap: number): Segment[] {
  const out: Segment[] = [];
  if (w <= 0 || h <= 0) return out;
  // each line x − (y + h − py) = c, from the bottom edge up and to the right
  for (let c = x - h + gap / 2; c < x + w; c += gap) {
    const fromX = Math.max(x, c);
    const toX = Math.min(x + w, c + h);
    if (toX <= fromX) continue;
    out.push({ x1: fromX, y1: y + h - (fromX - c), x2: toX, y2: y + h - (toX - c) });
  }
  return out;
}

/** The rest of the vocabulary as a bar of its own probability (softmax: p_raw over the whole vocabulary). */
export function restItem(view: StepView, format: (p: number) => string): BarItem[] {
  const rest = view.result.rest;
  if (rest === undefined || rest.mass <= 0 || view.rest === null) return [];
  return [{ id: REST_ID, value: rest.mass, ghost: null, state: "rest", note: null, valueText: format(rest.mass), name: view.rest.barName }];
}
