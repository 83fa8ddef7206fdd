// Taking the numbers home: "Download CSV" (the inspected step's whole candidate table, from one
// core step listing the vocabulary), an SVG button on every chart, and "Print handout".
import type { InspectedStep } from "../export/step";
import { fullTrace } from "../export/step";
import { candidatesCsv } from "../export/csv";
import { download } from "../export/download";
import { svgFile } from "../export/svg";
import { coreMessage, t } from "../i18n/index";
import { el } from "./controls";

export interface ExportSource {
  inspected(): InspectedStep | null;
  /** A token's text as the vocabulary has it (real spaces, `<E4>` for a byte). */
  tokenText(id: number): string;
}

export function createExport(from: ExportSource): { render(): void } {
  const csvButton = el<HTMLButtonElement>("download-csv");
  const status = el("export-status");
  csvButton.addEventListener("click", () => {
    const step = from.inspected();
    if (step === null) return;
    const out = fullTrace(step);
    if (!out.ok) {
      status.textContent = t("export.failed", { message: coreMessage(out.message) });
      return;
    }
    status.textContent = "";
    download(`nexttoken-step-${step.stepNumber}.csv`, "text/csv;charset=utf-8", candidatesCsv(out.result, from.tokenText, step.chosenId));
  });
  el<HTMLButtonElement>("print-handout").addEventListener("click", () => window.print());

  /**
   * Every chart figure of the inspector gets a Save-as-SVG button beside its caption (once): not in
   * it, where its words were part of the figure's name ("Temperature … Save as SVG"); drawn in the
   * caption's row (styles/inspect.css).
   */
  function svgButtons(): void {
    for (const figure of document.querySelectorAll<HTMLElement>(".inspector figure.stage")) {
      const caption = figure.querySelector("figcaption");
      const svg = figure.querySelector("svg");
      if (caption === null || svg === null) continue;
      let button = figure.querySelector<HTMLButtonElement>(":scope > button.export-svg");
      if (button === null) {
        button = document.createElement("button");
        button.type = "button";
        button.className = "small quiet export-svg";
        button.addEventListener("click", () => {
          const title = caption.querySelector("h3")?.textContent ?? "chart";
          const step = from.inspected();
          const name = `nexttoken-${figure.dataset["stage"] ?? figure.id}-step-${step?.stepNumber ?? 0}.svg`;
          download(name, "image/svg+xml", svgFile(svg, title));
        });
        caption.after(button);
      }
      // named "Save as SVG" and described by the chart's title (a name holding the title would
      // also answer to the title's control, e.g. the Typical-p slider)
      const heading = caption.querySelector("h3");
      if (heading !== null) {
        heading.id ||= `chart-title-${figure.dataset["stage"] ?? figure.id}`;
        button.setAttribute("aria-describedby", heading.id);
      }
      button.textContent = t("export.svg");
      button.setAttribute("aria-label", t("export.svgName"));
    }
  }

  return {
    render() {
      csvButton.disabled = from.inspected() === null;
      svgButtons();
    },
  };
}
