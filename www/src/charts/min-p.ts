// Min-p: the input distribution with a horizontal line at min_p × p(top); tokens below it are removed.
import type { StageTrace } from "../core";
import { percent } from "../format";
import { createBarChart, duration, MARGIN, stageItems } from "./frame";
import { valueScale } from "./value-scale";
import type { BarItem, StepView } from "./frame";
import { noteBoxes } from "./notes";
import { lineLabelBox, overlaps } from "./value-labels";
import type { Box } from "./value-labels";

/** Also draws epsilon and eta cutoff, whose thresholds are probabilities too. */
export function createThresholdChart(svg: SVGSVGElement, lineLabel: (cut: number) => string): { update(view: StepView, stage: StageTrace): void } {
  const chart = createBarChart(svg, { signed: false, focusable: false, filter: true });
  const threshold = chart.annotations.append("g").attr("class", "threshold");
  const rule = threshold.append("line").attr("x1", MARGIN.left);
  const text = threshold.append("text").attr("text-anchor", "end").attr("y", -4);
  const centre = (d: BarItem): number => (chart.x(String(d.id)) ?? 0) + chart.x.bandwidth() / 2;
  /** The line label's box at `dy` from the line, ending at `right` (viewBox units). */
  function labelBox(label: string, cut: number, right: number, dy: number): Box {
    return lineLabelBox(label, right, chart.y(cut) + dy, valueScale(svg), "end");
  }
  /**
   * The label's baseline from the line when it ends inside the plot: just above it, unless the notes
   * on the removed bars reach it there (“✕ top-k” ran through “1.2%”): then the nearest place above
   * or below the line clear of them, inside the plot.
   */
  function insideOffset(items: BarItem[], label: string, cut: number, right: number): number {
    const notes = noteBoxes(items, centre, chart.y, valueScale(svg));
    const y0 = chart.y(0);
    const free = (dy: number): boolean => {
      const box = labelBox(label, cut, right, dy);
      const inside = box.top >= 0 && box.bottom <= y0;
      return inside && !notes.some((n) => overlaps(n, box));
    };
    const tries = Array.from({ length: 60 }, (_, i) => [-4 - 2 * i, 12 + 2 * i]).flat();
    return tries.find(free) ?? -4;
  }
  return {
    update(view, stage) {
      const items = stageItems(view, stage, percent);
      const cut = stage.name === "min_p" || stage.name === "epsilon_cutoff" || stage.name === "eta_cutoff" ? stage.threshold : null;
      const label = cut === null ? "" : lineLabel(cut);
      // the numbers over the bars keep off the line's label where it ends inside the plot
      chart.update(items, view, {
        avoid: () => {
          const right = chart.x.range()[1];
          return cut === null || right < 340 ? [] : [labelBox(label, cut, right, insideOffset(items, label, cut, right))];
        },
      });
      threshold.attr("display", cut === null ? "none" : null);
      if (cut !== null) {
        threshold.transition().duration(duration()).attr("transform", `translate(0,${chart.y(cut)})`);
        const right = chart.x.range()[1];
        rule.attr("x1", chart.left()).attr("x2", right);
        const outside = right < 340;
        text
          .attr("x", outside ? right + 4 : right)
          .attr("y", outside ? 4 : insideOffset(items, label, cut, right))
          .attr("text-anchor", outside ? "start" : "end")
          .text(label);
      }
    },
  };
}
