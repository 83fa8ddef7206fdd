// Min-p: the input distribution with a horizontal line at min_p × p(top); tokens below it are removed.
import type { StageTrace } from "../core";
import { percent } from "../format";
import { createBarChart, duration, MARGIN, stageItems } from "./frame";
import type { StepView } from "./frame";

/** Also draws epsilon and eta cutoff, whose thresholds are probabilities too. */
export function createThresholdChart(svg: SVGSVGElement, lineLabel: (cut: number) => string): { update(view: StepView, stage: StageTrace): void } {
  const chart = createBarChart(svg, { signed: false, focusable: false });
  const threshold = chart.annotations.append("g").attr("class", "threshold");
  const rule = threshold.append("line").attr("x1", MARGIN.left);
  const text = threshold.append("text").attr("text-anchor", "end").attr("y", -4);
  return {
    update(view, stage) {
      chart.update(stageItems(view, stage, percent), view);
      const cut = stage.name === "min_p" || stage.name === "epsilon_cutoff" || stage.name === "eta_cutoff" ? stage.threshold : null;
      threshold.attr("display", cut === null ? "none" : null);
      if (cut !== null) {
        threshold.transition().duration(duration()).attr("transform", `translate(0,${chart.y(cut)})`);
        const right = chart.x.range()[1];
        rule.attr("x2", right);
        const outside = right < 340;
        text
          .attr("x", outside ? right + 4 : right)
          .attr("y", outside ? 4 : -4)
          .attr("text-anchor", outside ? "start" : "end")
          .text(lineLabel(cut));
      }
    },
  };
}
