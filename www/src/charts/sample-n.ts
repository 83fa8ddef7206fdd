// Sample N times: observed frequency of each token (bars) over its probability (outlines).
import { percent } from "../format";
import { createBarChart, drawable } from "./frame";
import type { StepView } from "./frame";

export function createSampleNChart(svg: SVGSVGElement): { update(view: StepView, counts: ReadonlyMap<number, number>, n: number): void } {
  const chart = createBarChart(svg, { signed: false, focusable: false });
  return {
    update(view, counts, n) {
      const items = drawable(view)
        .filter(({ c }) => c.kept)
        .map(({ c }) => {
          const f = n === 0 ? 0 : (counts.get(c.id) ?? 0) / n;
          return { id: c.id, value: f, ghost: c.p, state: "kept" as const, note: null, valueText: percent(f) };
        });
      chart.update(items, view);
    },
  };
}
