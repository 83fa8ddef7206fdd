// Softmax at T = 1: the raw logits as probabilities. Its bars are also the keyboard's way to force
// a token (each is a focusable button). A server's top N adds the rest of the vocabulary as one
// hatched bar of its own probability (p_raw is over the whole vocabulary, never renormalised).
import { percent } from "../format";
import { barState, createBarChart, drawable } from "./frame";
import { restItem } from "./rest";
import type { BarItem, StepView } from "./frame";

export function createSoftmaxChart(svg: SVGSVGElement): { update(view: StepView): void } {
  const chart = createBarChart(svg, { signed: false, focusable: true });
  return {
    update(view) {
      const tokens = drawable(view).map(({ c }): BarItem => ({
        id: c.id,
        value: c.p_raw,
        ghost: null,
        state: barState(c, null, view),
        note: null,
        valueText: percent(c.p_raw),
      }));
      chart.update(tokens.concat(restItem(view, percent)), view);
    },
  };
}
