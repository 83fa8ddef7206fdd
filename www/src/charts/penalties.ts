// Penalties and logit bias: bars are the processed logits, outlines the raw ones (signed scale).
import type { StageTrace } from "../core";
import { num } from "../format";
import { barState, createBarChart, drawable } from "./frame";
import type { StepView } from "./frame";

export function createPenaltiesChart(svg: SVGSVGElement): { update(view: StepView, stage: StageTrace): void } {
  const chart = createBarChart(svg, { signed: true, focusable: false });
  return {
    update(view, stage) {
      chart.update(
        drawable(view).map(({ c }) => ({
          id: c.id,
          value: c.logit_processed,
          ghost: c.logit,
          state: barState(c, stage.name, view) === "removed-before" ? "removed-before" : barState(c, null, view),
          note: null,
          valueText: num(c.logit_processed, 1),
        })),
        view,
      );
    },
  };
}
