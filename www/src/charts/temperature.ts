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
        drawable(view).map(({ c, i }) => ({
          id: c.id,
          value: c.p_tempered,
          // a server's top N: the bars are over the listed tokens, so are the T = 1 outlines (the
          // stage's input), not p_raw over the whole vocabulary
          ghost: view.result.rest === undefined ? c.p_raw : (stage.p_in[i] ?? 0),
          state: barState(c, stage.name, view) === "removed-before" ? "removed-before" : barState(c, null, view),
          note: null,
          valueText: percent(c.p_tempered),
        })),
        view,
      );
    },
  };
}
