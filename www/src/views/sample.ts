// "Sample N times": N seeded draws of the next token through the core (draw = 0 … N−1), counted and
// drawn over the probabilities, to show that 60 % is chosen more often, not always.
import { createSampleNChart } from "../charts/sample-n";
import type { StepView } from "../charts/frame";
import { grouped, percent } from "../format";
import { t } from "../i18n/index";
import { el } from "./controls";

export interface SampleRun {
  n: number;
  counts: Map<number, number>;
}

export function createSample(handlers: { onSample(n: number): void }): {
  render(view: StepView | null, run: SampleRun | null, enabled: boolean): void;
} {
  const svg = el("sample-chart") as unknown as SVGSVGElement;
  const chart = createSampleNChart(svg);
  const buttons = [...el("sample-buttons").querySelectorAll<HTMLButtonElement>("button[data-n]")];
  for (const button of buttons) {
    button.addEventListener("click", () => handlers.onSample(Number(button.dataset["n"])));
  }
  const result = el("sample-result");
  return {
    render(view, run, enabled) {
      for (const button of buttons) {
        button.textContent = t("sample.run", { n: grouped(Number(button.dataset["n"])) });
        button.disabled = !enabled;
      }
      // the chart appears once there are draws to show
      svg.style.display = view === null || run === null ? "none" : "";
      if (view === null || run === null) {
        result.textContent = "";
        return;
      }
      chart.update(view, run.counts, run.n);
      let best = -1;
      let bestCount = -1;
      for (const [id, count] of run.counts) {
        if (count > bestCount) [best, bestCount] = [id, count];
      }
      result.textContent = t("sample.result", {
        n: grouped(run.n),
        token: view.label(best),
        f: percent(bestCount / run.n),
      });
    },
  };
}
