// Top-k: the input distribution with a dashed cut after the k-th token; the rest greyed and labelled.
import type { StageTrace } from "../core";
import { percent } from "../format";
import { createBarChart, duration, MARGIN, HEIGHT, stageItems } from "./frame";
import type { StepView } from "./frame";

export function createTopKChart(svg: SVGSVGElement, cutLabel: (k: number) => string): { update(view: StepView, stage: StageTrace): void } {
  const chart = createBarChart(svg, { signed: false, focusable: false, filter: true });
  const cut = chart.annotations.append("g").attr("class", "cut");
  cut.append("line").attr("y1", MARGIN.top - 6).attr("y2", HEIGHT - MARGIN.bottom);
  const text = cut.append("text").attr("y", MARGIN.top - 8).attr("text-anchor", "end");
  return {
    update(view, stage) {
      const items = stageItems(view, stage, percent);
      chart.update(items, view);
      // annotation: the cut sits between the last kept bar and the first bar top-k removed
      const first = items.find((d) => d.state === "removed-here");
      const xPos = first === undefined ? null : (chart.x(String(first.id)) ?? 0) - (chart.x.step() - chart.x.bandwidth()) / 2;
      cut.attr("display", xPos === null ? "none" : null);
      if (xPos !== null) {
        cut.transition().duration(duration()).attr("transform", `translate(${xPos},0)`);
        text.attr("x", -3).text(cutLabel(stage.value ?? 0));
      }
    },
  };
}
