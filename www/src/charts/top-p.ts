// Top-p (核采样): the input distribution, its running total as a curve and the threshold p as a line;
// the tokens past the crossing are greyed and labelled. The kept set comes from the trace.
import * as d3 from "d3";
import type { StageTrace } from "../core";
import { percent } from "../format";
import { createBarChart, drawable, duration, MARGIN, stageItems } from "./frame";
import { valueScale } from "./value-scale";
import type { BarItem, StepView } from "./frame";
import { noteBoxes } from "./notes";
import { lineLabelBox, overlaps } from "./value-labels";
import type { Box } from "./value-labels";

export function createTopPChart(svg: SVGSVGElement, lineLabel: (p: number) => string): { update(view: StepView, stage: StageTrace): void } {
  const chart = createBarChart(svg, { signed: false, focusable: false, filter: true });
  const curve = chart.annotations.append("path").attr("class", "cum-curve");
  const dots = chart.annotations.append("g").attr("class", "cum-dots");
  const threshold = chart.annotations.append("g").attr("class", "threshold");
  const rule = threshold.append("line").attr("x1", MARGIN.left);
  const text = threshold.append("text").attr("text-anchor", "end");
  return {
    update(view, stage) {
      const items = stageItems(view, stage, percent);
      const p = stage.value ?? 1;
      // the running total of the stage's input distribution, as the core computed it
      const totals = drawable(view).map(({ i }) => stage.cum_in[i] ?? 0);
      const centre = (d: BarItem): number => (chart.x(String(d.id)) ?? 0) + chart.x.bandwidth() / 2;
      // the label sits past the end of the line when there is room, else at its right end (where the
      // bars are small) on the side the curve is not: below when the curve ends above the line,
      // unless the notes on the removed bars reach up to it there (a low p: “✕ top-k” ran through
      // “p = 0.5”): then the nearest place, on either side, clear of the curve and the notes
      const label = lineLabel(p);
      const curveAbove = (totals.at(-1) ?? 1) >= p;
      const labelBox = (x: number, dy: number, outside: boolean): Box =>
        lineLabelBox(label, x, chart.y(p) + dy, valueScale(svg), outside ? "start" : "end");
      const free = (box: Box): boolean => {
        const notes = noteBoxes(items, centre, chart.y, valueScale(svg));
        const heights = curveBetween(items.map(centre), totals, box.left - 3, box.right + 3).map(chart.y);
        const curveClear = heights.length === 0 || Math.max(...heights) + 2.5 <= box.top || Math.min(...heights) - 2.5 >= box.bottom;
        return curveClear && !notes.some((n) => overlaps(n, box));
      };
      const place = (): { x: number; dy: number; outside: boolean } => {
        const right = chart.x.range()[1];
        if (right < 340) return { x: right + 4, dy: 4, outside: true };
        const [preferred, other] = curveAbove ? [12, -4] : [-4, 12];
        // each side, then a little further from the line (the notes reach up to it when the plot is low)
        const away = (dy: number, k: number): number => dy + Math.sign(dy) * 2 * k;
        const tries = [0, 1, 2, 3, 4, 5, 6].flatMap((k) => [away(preferred, k), away(other, k)]);
        const dy = tries.find((d) => free(labelBox(right - 4, d, false))) ?? preferred;
        return { x: right - 4, dy, outside: false };
      };
      chart.update(items, view, {
        yMax: 1,
        lines: [p],
        curve: (from, to) => curveBetween(items.map(centre), totals, from, to),
        avoid: () => {
          const { x, dy, outside } = place();
          return [labelBox(x, dy, outside)];
        },
      });
      const points = items.map((d, i): [number, number] => [centre(d), chart.y(totals[i] ?? 0)]);
      const ms = duration();
      curve.transition().duration(ms).attr("d", d3.line()(points) ?? "");
      dots
        .selectAll<SVGCircleElement, [number, number]>("circle")
        .data(points)
        .join("circle")
        .attr("r", 2.5)
        .transition()
        .duration(ms)
        .attr("cx", (d) => d[0])
        .attr("cy", (d) => d[1]);
      threshold.transition().duration(ms).attr("transform", `translate(0,${chart.y(p)})`);
      rule.attr("x1", chart.left()).attr("x2", chart.x.range()[1]);
      const { x, dy, outside } = place();
      text
        .attr("x", x)
        .attr("y", dy)
        .attr("text-anchor", outside ? "start" : "end")
        .text(label);
    },
  };
}

/**
 * The values a polyline through (xs[i], values[i]) takes over [from, to]: at both ends (where it
 * reaches them) and at every corner between — its highest and lowest points there are among them.
 */
function curveBetween(xs: readonly number[], values: readonly number[], from: number, to: number): number[] {
  const out: number[] = [];
  const at = (x: number): number | null => {
    for (let i = 0; i + 1 < xs.length; i++) {
      const [x0, x1] = [xs[i] ?? 0, xs[i + 1] ?? 0];
      if (x < x0 || x > x1 || x1 === x0) continue;
      const [v0, v1] = [values[i] ?? 0, values[i + 1] ?? 0];
      return v0 + ((x - x0) / (x1 - x0)) * (v1 - v0);
    }
    return null;
  };
  for (const x of [from, to]) {
    const v = at(x);
    if (v !== null) out.push(v);
  }
  xs.forEach((x, i) => {
    if (x >= from && x <= to) out.push(values[i] ?? 0);
  });
  return out;
}
