// Shared chart frame: one keyed bar chart (bars keyed by token id, so they move when ranks change)
// that every stage chart configures. Sizes come from the viewBox; colours from CSS classes.
import { tokenLang } from "../token-lang";
import * as d3 from "d3";
// Adds selection.transition(); imported for its side effect, which tree-shaking would otherwise drop.
import "d3-transition";
import type { Candidate, StageName, StepResult } from "../core";
import { drawRestMarks, REST_ID } from "./rest";
import type { RestTexts } from "./rest";
import { rove, setTip, tipName, viewTips } from "./tooltip";
import { placeValues, tallestNumbered, valueRoom } from "./value-labels";
import type { Box, PlacedValue } from "./value-labels";
import { valueScale, watchValueScale } from "./value-scale";
import { notePlace, plotTop } from "./notes";
import type { NotePlace } from "./notes";
import { axisReach, axisTicks, barsAcross, barsAllowed, LABEL_STEP, labelReach, labelWidth, MAX_BARS, shortLabel } from "./bar-room";

export const WIDTH = 400;
export const HEIGHT = 172;
export const MARGIN = { top: 16, right: 10, bottom: 36, left: 42 };

export { drawnAtOnce, duration } from "./motion";
export { limitBars, MAX_BARS } from "./bar-room";
export { barState, drawable, removedBefore, stageItems } from "./items";
import { duration } from "./motion";

/** What every chart receives: the trace, candidates in display order, and how to label a token. */
export interface StepView {
  result: StepResult;
  /** The token appended at this step: the core's choice, or the one the user forced. */
  chosenId: number;
  /** Candidates by processed logit (ties by lower id), each with its index in `result.candidates`. */
  order: Array<{ c: Candidate; i: number }>;
  label: (id: number) => string;
  /** Position of each stage in the engine's order. */
  stageIndex: ReadonlyMap<string, number>;
  /** Localised "removed by {stage}" text. */
  removedText: (stage: StageName | "logits") => string;
  onForce: (id: number) => void;
  /** Accessible name of a bar's force action. */
  forceName: (id: number) => string;
  /** A model server's top N: how the rest of the vocabulary is drawn and named (charts/rest.ts). */
  rest: RestTexts | null;
}

export type BarState = "kept" | "chosen" | "removed-here" | "removed-before" | "rest";

export interface BarItem {
  id: number;
  value: number;
  ghost: number | null;
  state: BarState;
  /** Text written over removed bars (the stage that removed them). */
  note: string | null;
  valueText: string;
  /** Accessible name of a bar that is not a token (the rest of the vocabulary). */
  name?: string;
}

export interface BarChartOptions {
  /** Scores that may be negative (logits) instead of probabilities. */
  signed: boolean;
  /** Bars are named for their action, “Force …” (the softmax chart, the keyboard's way to force);
   * every chart's bars can be clicked, focused and arrowed through, and name their numbers otherwise. */
  focusable: boolean;
  /** A filter's chart (top-k, top-p, min-p): every kept bar's number is written, if need be far up with a leader line. */
  filter?: boolean;
}

export interface BarChart {
  x: d3.ScaleBand<string>;
  y: d3.ScaleLinear<number, number>;
  annotations: d3.Selection<SVGGElement, unknown, null, undefined>;
  /** Draw `items` (with `extras`, what else is drawn in the plot that the numbers must keep clear of). */
  update(items: BarItem[], view: StepView, extras?: PlotExtras): void;
  /** Where the value axis stands as last drawn (a line across the plot starts there). */
  left(): number;
}

/** What a chart draws in its plot besides the bars (top-p: its p line, its running total and the line's label). */
export interface PlotExtras {
  /** The top of the value axis (1 for a cumulative curve); else from the data. */
  yMax?: number;
  /** Horizontal lines at these values (top-p's p line): the numbers over the bars keep off them. */
  lines?: readonly number[];
  /** The values a curve takes over an x span (the running total's: its values at both ends and at
   * every corner between): the numbers keep off it. */
  curve?: CurveSpan;
  /** Other words in the plot (a line's label), in viewBox units: asked for once the bars are placed. */
  avoid?: () => readonly Box[];
}

/** The values a curve takes over the x span [from, to] (viewBox units). */
export type CurveSpan = (from: number, to: number) => readonly number[];

/**
 * Charts whose rotated labels wait to be measured, by chart: measuring one right after drawing it
 * forced a layout per chart (a dozen per step shown), where measuring them all after every chart
 * is drawn costs one. Read in `measureCharts`: by the inspector once it has drawn a step, and in a
 * microtask after any other drawing, so every viewBox is set before the page is painted.
 */
const unmeasured = new Map<SVGSVGElement, () => DOMRect | undefined>();

/** Each chart's tallest viewBox outside projector mode: held, so Step does not move the page under it. */
const tallest = new WeakMap<SVGSVGElement, number>();

/** A chart's viewBox at least `height` high, and never lower than it has been (labels vary in length). */
function holdHeight(svgNode: SVGSVGElement, height: number): void {
  const held = Math.max(height, tallest.get(svgNode) ?? HEIGHT);
  tallest.set(svgNode, held);
  svgNode.setAttribute("viewBox", `0 0 ${WIDTH} ${held}`);
}

/** Size each chart drawn since the last call to its labels: every read first (one layout), then every write. */
export function measureCharts(): void {
  const pending = [...unmeasured];
  unmeasured.clear();
  const hangs = pending.map(([, measure]) => measure());
  pending.forEach(([svgNode], i) => {
    const hang = hangs[i];
    holdHeight(svgNode, hang === undefined || hang.height === 0 ? HEIGHT : Math.ceil(hang.y + hang.height + 2));
  });
}

export function createBarChart(svgNode: SVGSVGElement, options: BarChartOptions): BarChart {
  // dimensions and margins
  const svg = d3.select(svgNode).attr("viewBox", `0 0 ${WIDTH} ${HEIGHT}`).attr("class", "chart");
  const innerBottom = HEIGHT - MARGIN.bottom;

  // scales
  const x = d3.scaleBand<string>().range([MARGIN.left, WIDTH - MARGIN.right]).paddingInner(0.22).paddingOuter(0.1);
  const y = d3.scaleLinear().range([innerBottom, MARGIN.top]);

  // layers, back to front
  const yAxis = svg.append("g").attr("class", "axis axis-y").attr("transform", `translate(${MARGIN.left},0)`);
  const zero = svg.append("line").attr("class", "zero-line");
  const ghosts = svg.append("g").attr("class", "ghosts");
  const bars = svg.append("g").attr("class", "bars");
  const labels = svg.append("g").attr("class", "axis axis-x");
  // a number's leader line runs behind the curves and lines: where it crosses the running total,
  // the curve stays whole (it is the chart's message; the leader only points)
  const leaders = svg.append("g").attr("class", "leaders");
  const annotations = svg.append("g").attr("class", "annotations");
  // the numbers over the bars and the notes on removed bars are drawn above the curves and lines,
  // each with a halo (CSS): a line crossing them passes behind, and they stay legible
  const values = svg.append("g").attr("class", "values");
  const notes = svg.append("g").attr("class", "notes");
  const restMarks = svg.append("g").attr("class", "rest-marks");
  const hits = svg.append("g").attr("class", "hits");

  let drawn: Parameters<typeof update> | null = null;
  /** Where the value axis stands (further right on a small projector screen). */
  let axisX = MARGIN.left;
  watchValueScale(svgNode, () => drawn !== null && update(...drawn));

  function update(items: BarItem[], view: StepView, extras: PlotExtras = {}): void {
    drawn = [items, view, extras];
    const { yMax, lines = [], curve: clearCurve } = extras;
    const ms = duration();
    const key = (d: BarItem): string => String(d.id);

    // scales: domain from the data (logits may be negative; probabilities start at 0)
    // bars keep a readable width: a few candidates do not stretch across the whole chart. Fewer bars
    // than the most (a small projector screen, `limitBars`): each as wide as its rotated label needs,
    // the first where its label, hanging down to the left, stays inside the chart; the labels are cut
    // short (the bar's name and tooltip keep the whole token)
    const few = barsAllowed() < MAX_BARS;
    const k = valueScale(svgNode);
    const labelOf = (id: number): string => shortLabel(id === REST_ID ? (view.rest?.tick ?? "") : view.label(id), few);
    // (and the value axis where its labels, as large, stay inside the chart)
    axisX = few ? Math.max(MARGIN.left, axisReach(k)) : MARGIN.left;
    const start = few ? Math.max(axisX, labelReach(labelWidth(labelOf(items[0]?.id ?? REST_ID)), k)) : MARGIN.left;
    const perBar = few ? Math.max(52, LABEL_STEP * k) : 52;
    x.domain(items.map(key)).range([start, Math.min(WIDTH - MARGIN.right, start + 8 + items.length * perBar)]);
    const top = d3.max(items, (d) => Math.max(d.value, d.ghost ?? 0)) ?? 1;
    const bottom = options.signed ? Math.min(0, d3.min(items, (d) => Math.min(d.value, d.ghost ?? 0)) ?? 0) : 0;
    y.domain([bottom, yMax ?? Math.max(top, options.signed ? 0.5 : 0.05)]);
    if (yMax === undefined) y.nice();
    // headroom for the number over the tallest bar, clear of a curve at its top (top-p's running
    // total reaches 100% with it): a 100% bar's number is written above the bar, never inside it,
    // however large projector mode draws it (--pj-k)
    const room = valueRoom(valueScale(svgNode), clearCurve !== undefined);
    y.range([innerBottom, MARGIN.top]);
    // (with a curve, over the curve's top too: the first bar's number goes above the curve, which
    // starts on that bar's top and rises across the number)
    const headroom = Math.max(0, room - y(clearCurve === undefined ? top : Math.max(top, yMax ?? top)));
    y.range([innerBottom, MARGIN.top + headroom]);
    // the numbers over the bars: each in the lowest free place over its own bar (value-labels.ts);
    // over a curve, a second row of room when a kept bar's number found no place (the first bar's,
    // under the chosen one's, where the curve climbs steeply)
    const place = (): PlacedValue[] =>
      placeValues(items, {
        barLeft: (d) => x(key(d)) ?? 0,
        bandwidth: x.bandwidth(),
        y,
        y0: y(0),
        ceiling: plotTop(y),
        left: axisX,
        right: WIDTH,
        lines,
        curve: clearCurve,
        avoid: extras.avoid?.() ?? [],
        scale: valueScale(svgNode),
        filter: options.filter === true,
      });
    let placed = place();
    const unwritten = (): boolean => items.some((d) => (d.state === "kept" || d.state === "chosen") && d.note === null && !placed.some((p) => p.d === d));
    // the tallest bars' numbers (the most likely tokens') are never left out: the chosen one's,
    // written first over its neighbour, could leave them no place in one row of headroom (the
    // logits chart, its top bar unlabelled beside a chosen second, or its second beside a chosen first)
    const mostLikely = tallestNumbered(items);
    const tallestUnwritten = (): boolean => [...mostLikely].some((d) => !placed.some((p) => p.d === d));
    if ((clearCurve !== undefined && unwritten()) || tallestUnwritten()) {
      y.range([innerBottom, MARGIN.top + headroom + room]);
      placed = place();
    }
    const y0 = y(0);
    const barY = (v: number): number => Math.min(y(v), y0);
    const barH = (v: number): number => Math.abs(y(v) - y0);

    // joins: keyed by token id so a bar keeps its token when the order changes
    bars
      .selectAll<SVGRectElement, BarItem>("rect")
      .data(items, key)
      .join((enter) => enter.append("rect").attr("x", (d) => x(key(d)) ?? 0).attr("y", y0).attr("height", 0))
      .attr("class", (d) => `bar ${d.state}${d.id === REST_ID ? " vocab-rest" : ""}`)
      .attr("width", x.bandwidth())
      .transition()
      .duration(ms)
      .attr("x", (d) => x(key(d)) ?? 0)
      .attr("y", (d) => barY(d.value))
      .attr("height", (d) => barH(d.value));

    ghosts
      .selectAll<SVGRectElement, BarItem>("rect")
      .data(items.filter((d) => d.ghost !== null), key)
      .join((enter) => enter.append("rect").attr("x", (d) => x(key(d)) ?? 0).attr("y", y0).attr("height", 0))
      .attr("class", "ghost")
      .attr("width", x.bandwidth())
      .transition()
      .duration(ms)
      .attr("x", (d) => x(key(d)) ?? 0)
      .attr("y", (d) => barY(d.ghost ?? 0))
      .attr("height", (d) => barH(d.ghost ?? 0));

    // (placed above, before the bars: a second row of room changes the scale)
    // written in the bars' order (placed chosen first), so a reader meets them left to right
    const order = new Map(items.map((d, i) => [d, i]));
    values
      .selectAll<SVGTextElement, PlacedValue>("text")
      .data([...placed].sort((a, b) => (order.get(a.d) ?? 0) - (order.get(b.d) ?? 0)), (p) => key(p.d))
      .join("text")
      .order()
      .attr("class", (p) => `value ${p.d.state}`)
      .attr("text-anchor", "middle")
      .text((p) => p.d.valueText)
      .transition()
      .duration(ms)
      .attr("x", (p) => p.x)
      .attr("y", (p) => p.y);
    leaders
      .selectAll<SVGLineElement, PlacedValue>("line")
      .data(placed.filter((p) => p.leader !== null), (p) => key(p.d))
      .join("line")
      .attr("class", (p) => `leader ${p.d.state}`)
      .attr("x1", (p) => p.leader?.x1 ?? 0)
      .attr("y1", (p) => p.leader?.y1 ?? 0)
      .attr("x2", (p) => p.leader?.x2 ?? 0)
      .attr("y2", (p) => p.leader?.y2 ?? 0);

    // removed bars say which stage removed them, written upwards above the bar, or inside it where
    // that would leave the plot (notes.ts; not on a small projector screen: there the long notes
    // crossed the labels and the line's; the bar's style and its name say it)
    const ceiling = plotTop(y);
    const noted = few ? [] : items.flatMap((d) => {
      const place = d.note === null ? null : notePlace(d.note, (x(key(d)) ?? 0) + x.bandwidth() / 2, barY(d.value), y0, ceiling, k);
      return place === null ? [] : [{ d, place }];
    });
    notes
      .selectAll<SVGTextElement, { d: BarItem; place: NotePlace }>("text")
      .data(noted, (n) => key(n.d))
      .join("text")
      .attr("class", (n) => `note ${n.d.state}`)
      .attr("text-anchor", "start")
      .text((n) => n.d.note ?? "")
      .attr("transform", (n) => `translate(${n.place.x},${n.place.start}) rotate(-90)`);

    // axes: token labels under the bars (rotated when crowded), values on the left
    // (the labels grow with the numbers: projector mode's --pj-k, a narrow chart's --value-k)
    const widest = (d3.max(items, (d) => labelWidth(labelOf(d.id))) ?? 0) * k;
    const crowded = items.length > 1 && widest > x.step() - 3;
    labels
      .selectAll<SVGTextElement, BarItem>("text")
      .data(items, key)
      .join("text")
      .attr("class", (d) => `tick-label ${d.state}${d.id === REST_ID ? " vocab-rest" : ""}`)
      .attr("text-anchor", crowded ? "end" : "middle")
      .text((d) => labelOf(d.id))
      .attr("lang", (d) => tokenLang(labelOf(d.id)))
      .attr("transform", (d) => {
        const cx = (x(key(d)) ?? 0) + x.bandwidth() / 2;
        return crowded ? `translate(${cx + 4},${innerBottom + 10}) rotate(-40)` : `translate(${cx},${innerBottom + 14})`;
      });
    // rotated labels hang below the plot: the viewBox grows to hold them, so they never run into the
    // caption under the chart (projector mode sizes its chart box for them instead); measured
    // with every other chart's (`measureCharts`)
    const projector = document.body.matches('[data-projector="true"]');
    if (crowded && !projector) {
      if (unmeasured.size === 0) queueMicrotask(measureCharts);
      unmeasured.set(svgNode, () => labels.node()?.getBBox());
    } else {
      unmeasured.delete(svgNode);
      if (projector) tallest.delete(svgNode);
      holdHeight(svgNode, HEIGHT);
    }
    yAxis
      .transition()
      .duration(ms)
      .call(
        // (a small projector screen: no "0%" where the first label hangs; the bars stand on the zero line)
        d3.axisLeft(y).tickValues(y.ticks(axisTicks(y.range(), k)).filter((v) => !(few && !options.signed && v === 0))).tickSizeOuter(0).tickFormat((v) => (options.signed ? d3.format("~g")(v) : d3.format(".0%")(v))),
      );
    yAxis.attr("transform", `translate(${axisX},0)`);
    zero.attr("x1", axisX).attr("x2", x.range()[1]).attr("y1", y0).attr("y2", y0);

    // click (or Enter/Space on a focused bar) forces that token; hover or focus shows its numbers
    const hitSel = hits
      .selectAll<SVGRectElement, BarItem>("rect")
      .data(items, key)
      .join("rect")
      .attr("class", "hit")
      .attr("x", (d) => (x(key(d)) ?? 0) - (x.step() - x.bandwidth()) / 2)
      .attr("width", x.step())
      .attr("y", MARGIN.top)
      .attr("height", HEIGHT - MARGIN.top)
      // the rest of the vocabulary is read, never forced: it is not a token
      .attr("role", (d) => (d.id === REST_ID ? "img" : "button"))
      .classed("vocab-rest", (d) => d.id === REST_ID)
      .on("click", (_event, d) => d.id !== REST_ID && view.onForce(d.id))
      .on("keydown", (event: KeyboardEvent, d) => {
        if (d.id !== REST_ID && (event.key === "Enter" || event.key === " ")) {
          event.preventDefault();
          view.onForce(d.id);
        }
      });
    hitSel.selectAll("title").remove();
    hitSel.filter((d) => d.id === REST_ID).append("title").text((d) => d.name ?? "");
    const tips = viewTips(view);
    // the softmax bars are named for their action; the other charts' bars for their numbers
    hitSel.attr("aria-label", (d) => {
      if (d.name !== undefined) return d.name;
      const data = tips(d.id);
      return options.focusable || data === null ? view.forceName(d.id) : tipName(data);
    });
    hitSel.each(function (d) {
      setTip(this, () => tips(d.id));
    });
    // one tab stop per chart, on the chosen bar; the arrow keys move between bars
    rove(hitSel.nodes(), items.findIndex((d) => d.state === "chosen"));
    drawRestMarks(restMarks, items.find((d) => d.id === REST_ID && d.state === "rest"), view.rest?.label ?? "", {
      x: x(String(REST_ID)) ?? 0,
      width: x.bandwidth(),
      y: (v) => barY(v),
      y0,
    });
  }

  return { x, y, annotations, update, left: () => axisX };
}

/** How many bars' rotated labels fit across this frame's plot drawn `k` times their size (bar-room.ts). */
export function barsFitting(k: number): number {
  return barsAcross(MARGIN.left, WIDTH - MARGIN.right, k);
}
