// Raw logits (原始分数): a signed bar chart, because scores can be negative and are not probabilities.
import { num } from "../format";
import { barState, createBarChart, drawable } from "./frame";
import type { StepView } from "./frame";

export function createLogitsChart(svg: SVGSVGElement): { update(view: StepView): void } {
  const chart = createBarChart(svg, { signed: true, focusable: false });
  return {
    update(view) {
      chart.update(
        drawable(view).map(({ c }) => ({
          id: c.id,
          value: c.logit,
          ghost: null,
          state: barState(c, null, view),
          note: null,
          valueText: num(c.logit, 2),
        })),
        view,
      );
    },
  };
}
