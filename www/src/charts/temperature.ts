// Temperature (温度): bars after temperature, outlines at T = 1, so sharpening or flattening shows.
import type { StageTrace } from "../core";
import { percent } from "../format";
import { barState, createBarChart, drawable } from "./frame";
import type { StepView } from "./frame";

export function createTemperatureChart(svg: SVGSVGElement): { update(view: StepView, stage: StageTrace): void } {
  const chart = createBarChart(svg, { signed: false, focusable: false });
  return {
    update(view, stage) {
      chart.update(
        drawable(view).map(({ c }) => ({
          id: c.id,
          value: c.p_tempered,
          ghost: c.p_raw,
          state: barState(c, stage.name, view) === "removed-before" ? "removed-before" : barState(c, null, view),
          note: null,
          valueText: percent(c.p_tempered),
        })),
        view,
      );
    },
  };
}
