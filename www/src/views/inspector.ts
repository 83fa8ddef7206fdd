// The step inspector: one panel per stage in the order the engine applies them, then the final
// 0–1 strip with the draw. It owns the panels' DOM; each chart draws only its own <svg>.
import { langText, markHanRuns } from "../token-lang";
import { createCdfChart } from "../charts/cdf";
import { drawnAtOnce, measureCharts } from "../charts/frame";
import type { StepView } from "../charts/frame";
import { createLogitsChart } from "../charts/logits";
import { createThresholdChart } from "../charts/min-p";
import { createPenaltiesChart } from "../charts/penalties";
import { createSoftmaxChart } from "../charts/softmax";
import { createTemperatureChart } from "../charts/temperature";
import { createTopKChart } from "../charts/top-k";
import { createTopPChart } from "../charts/top-p";
import type { Candidate, StageName, StageTrace, StepResult } from "../core";
import { grouped, num, percent, STAGE_NAMES } from "../format";
import { t } from "../i18n/index";
import type { MessageKey } from "../i18n/index";
import { el } from "./controls";
import { chartSummary } from "./chart-summary";
import { entropyText, keptText, restTexts, stageRestNote, stripRest } from "./rest-text";

type PanelKind = "logits" | "softmax" | StageName;

interface Panel {
  figure: HTMLElement;
  status: HTMLElement;
  explain: HTMLElement;
  /** The chart's text alternative (chart-summary.ts), its description. */
  summary: HTMLElement;
  svg: SVGSVGElement;
  update(view: StepView, stage: StageTrace | null): void;
  /** What the chart has yet to draw: it was hidden by projector mode when its step came. */
  pending: { view: StepView; stage: StageTrace | null } | null;
}

const SVG_NS = "http://www.w3.org/2000/svg";

const ENGINE_NAMES = { hf: "Hugging Face", "llama.cpp": "llama.cpp", vllm: "vLLM" } as const;

export interface InspectorHandlers {
  onForce(id: number): void;
  onBackToNext(): void;
}

export interface InspectorInput {
  result: StepResult;
  /** The token appended at this step (differs from `result.token` when forced). */
  chosenId: number;
  forced: boolean;
  stepNumber: number;
  past: boolean;
  /** Whether "back to the next step" applies (a past step was opened while generation can go on). */
  returnable: boolean;
  label: (id: number) => string;
}

export function createInspector(handlers: InspectorHandlers): { render(input: InspectorInput | null): void; clear(): void } {
  const container = el<HTMLDivElement>("stages");
  const panels = new Map<PanelKind, Panel>();
  const cdf = createCdfChart(el("cdf") as unknown as SVGSVGElement, {
    u: (u) => `u = ${num(u, 3)}`,
    argmax: "argmax",
    rest: (n, mass) => t("strip.rest", { n: grouped(n), p: percent(mass) }),
    restTitle: (n, mass) => t("strip.restTitle", { n: grouped(n), p: percent(mass) }),
    vocabRest: stripRest,
    get sentenceEnd() {
      return t("server.headEnd");
    },
    name: (token, band, u) =>
      u === null || band === null
        ? t("strip.nameGreedy", { token })
        : t("strip.name", { u: u.toFixed(3), token, from: band.from.toFixed(3), to: band.to.toFixed(3) }),
  });
  el<HTMLButtonElement>("back-to-next").addEventListener("click", handlers.onBackToNext);
  // a chart hidden by projector mode is drawn when it is shown: when projector mode picks it or
  // ends (its class or body's data-projector changes; observed, so drawn before the next paint),
  // and before printing (the handout shows every chart)
  const drawShown = (all: boolean): void => {
    for (const p of panels.values()) if (p.pending !== null && (all || !hiddenByProjector(p.figure))) drawnAtOnce(() => drawPending(p));
  };
  new MutationObserver(() => drawShown(false)).observe(document.body, { attributes: true, attributeFilter: ["data-projector"] });
  const shownLater = new MutationObserver(() => drawShown(false));
  addEventListener("beforeprint", () => drawShown(true));
  // the strip's bands are buttons, so it is a group (an img's children are presentational: its
  // buttons were gone for a screen reader); its numbers and axis are read from its name and the bands
  for (const layer of el("cdf").children) if (!layer.matches(".bands, .rest, .vocab-rest-box")) layer.setAttribute("aria-hidden", "true");
  el("cdf").querySelector(".rest-label")?.setAttribute("aria-hidden", "true");

  function panel(kind: PanelKind): Panel {
    const existing = panels.get(kind);
    if (existing) return existing;
    const figure = document.createElement("figure");
    figure.className = "stage";
    figure.dataset["stage"] = kind;
    const caption = document.createElement("figcaption");
    const title = document.createElement("h3");
    const status = document.createElement("span");
    status.className = "stage-status";
    caption.append(title, status);
    const svg = document.createElementNS(SVG_NS, "svg");
    // every chart's bars are focusable buttons (force, and read the numbers), so a chart is a group
    svg.setAttribute("role", "group");
    const explain = document.createElement("p");
    explain.className = "explain";
    explain.id = `explain-${kind}`;
    svg.setAttribute("aria-labelledby", explain.id);
    // described by its summary, the numbers that matter (not named by the title: a name holding
    // "Temperature" would also answer to the Temperature slider's label)
    const summary = document.createElement("p");
    summary.className = "visually-hidden";
    summary.id = `summary-${kind}`;
    svg.setAttribute("aria-describedby", summary.id);
    figure.append(caption, summary, svg, explain);
    const made: Panel = { figure, status, explain, summary, svg, update: chartFor(kind, svg), pending: null };
    shownLater.observe(figure, { attributes: true, attributeFilter: ["class"] });
    // the axes, labels and numbers are read from the summary and the bars, not as a run of words
    for (const layer of svg.children) if (!layer.classList.contains("hits")) layer.setAttribute("aria-hidden", "true");
    panels.set(kind, made);
    return made;
  }

  return {
    /** No step to show (the next one failed): nothing stale is left to read as the next step. */
    clear() {
      el("inspector-step").textContent = "";
      el("inspector-step").hidden = true;
      for (const id of ["stat-chosen", "stat-kept", "stat-entropy"]) el(id).textContent = "—";
      container.hidden = true;
      el("final").hidden = true;
    },
    render(input) {
      if (input === null) return;
      el("inspector-step").hidden = false;
      container.hidden = false;
      el("final").hidden = false;
      const r = input.result;
      const view = buildView(input, handlers.onForce);

      // header: which step, what was chosen, entropy and the kept count
      el("inspector-step").textContent = input.past
        ? t("inspector.past", { n: input.stepNumber })
        : t("inspector.next", { n: input.stepNumber });
      // "Back to the next step" pressed hides itself: the keyboard's focus goes on to Step
      const back = el<HTMLButtonElement>("back-to-next");
      const leaving = document.activeElement === back && !input.returnable;
      back.hidden = !input.returnable;
      if (leaving) el<HTMLButtonElement>("step").focus();
      const chosen = r.candidates.find((c) => c.id === input.chosenId) ?? r.chosen;
      // the final p (100 % under greedy, renormalised after top-p …) beside softmax's, so the two read together
      const raw = Math.abs(chosen.p - chosen.p_raw) >= 5e-4 ? ` (${t("inspector.pRaw", { p: percent(chosen.p_raw) })})` : "";
      el("stat-chosen").replaceChildren(langText(input.label(chosen.id)), ` · ${percent(chosen.p)}${raw}${input.forced ? t("chip.forced") : ""}`);
      // a server's top N: counted over the listed tokens unless a cut removed the rest (rest-text.ts)
      el("stat-kept").textContent = keptText(r, visibleCount(r));
      el("stat-entropy").textContent = entropyText(r);
      el("order-label").textContent = t("inspector.order", { engine: ENGINE_NAMES[r.engine] });
      const order = el("order-list");
      order.replaceChildren(
        ...r.stages.flatMap((s, i) => {
          const span = document.createElement("span");
          span.className = s.active ? "on" : "off";
          span.textContent = STAGE_NAMES[s.name];
          return i === 0 ? [span] : [document.createTextNode(" → "), span];
        }),
      );

      // panels: logits and softmax first, then every stage in engine order (moved, not rebuilt)
      const kinds: Array<[PanelKind, StageTrace | null]> = [
        ["logits", null],
        ["softmax", null],
        ...r.stages.map((s): [PanelKind, StageTrace] => [s.name, s]),
      ];
      // a panel whose stage this engine does not have is hidden
      const present = new Set(kinds.map(([kind]) => kind));
      for (const [kind, p] of panels) if (!present.has(kind)) p.figure.hidden = true;
      kinds.forEach(([kind, stage], i) => {
        const p = panel(kind);
        if (container.children[i] !== p.figure) container.insertBefore(p.figure, container.children[i] ?? null);
        fillPanel(p, kind, stage, view);
      });

      // the final strip and the draw
      cdf.update(view);
      // every chart drawn: their labels measured in one layout
      measureCharts();
      // why u fell where it did: which draw of which seed, and how often draws land on the pick
      const picked = r.candidates.find((c) => c.id === r.token) ?? r.chosen;
      const why =
        r.u === null
          ? t("stage.final.explainGreedy")
          : t("strip.why", { u: num(r.u, 3), draw: r.draw, seed: r.seed, token: input.label(r.token), share: percent(picked.p) });
      // a server's top N: the rest of the vocabulary is never drawn, and the strip says why
      const rest = stripRest(r);
      el("final-explain").textContent = rest === null ? why : `${why} ${rest.why}`;
      markHanRuns(el("final-explain"));
    },
  };
}

/** The data every chart of one step reads. */
export function buildView(input: InspectorInput, onForce: (id: number) => void): StepView {
  const r = input.result;
  return {
    result: r,
    chosenId: input.chosenId,
    order: displayOrder(r.candidates),
    label: input.label,
    stageIndex: new Map(r.stages.map((s, i) => [s.name as string, i])),
    removedText: (stage) => `✕ ${STAGE_NAMES[stage]}`,
    onForce,
    forceName: (id) => t("inspector.force", { token: input.label(id) }),
    rest: restTexts(r),
  };
}

/** Candidates by processed logit, highest first (ties by lower id): the same column in every chart. */
function displayOrder(candidates: Candidate[]): Array<{ c: Candidate; i: number }> {
  return candidates
    .map((c, i) => ({ c, i }))
    .sort((a, b) => (b.c.logit_processed ?? -Infinity) - (a.c.logit_processed ?? -Infinity) || a.c.id - b.c.id);
}

/**
 * Tokens with a finite logit. The hand-made tables give the rest −∞, and the trace then reaches
 * them, so counting the listed ones is exact; a model scores its whole vocabulary.
 */
function visibleCount(r: StepResult): number {
  const listedInfinite = r.candidates.some((c) => c.removed_by === "logits");
  return listedInfinite ? r.candidates.filter((c) => c.removed_by !== "logits").length : r.vocab_size;
}

function fillPanel(p: Panel, kind: PanelKind, stage: StageTrace | null, view: StepView): void {
  const title = p.figure.querySelector("h3");
  if (title) title.textContent = t(`stage.${kind === "logits" || kind === "softmax" ? kind : kind}.title` as MessageKey);
  const active = stage === null || stage.active;
  p.figure.classList.toggle("off", !active);
  // an off stage shows only in the order line (struck through), so the grid holds working stages
  p.figure.hidden = !active;
  p.svg.style.display = active ? "" : "none";
  p.status.textContent = stage === null ? "" : status(stage);
  p.explain.textContent = active ? explain(kind, stage) : t("stage.offExplain");
  // a server's top N: the unlisted tokens' share, beside the bars that do not add up to 1 (rest.rs);
  // a stage that sees only the listed tokens says so
  const rest = view.result.rest;
  if (kind === "softmax" && rest) {
    p.explain.textContent += ` ${t("server.rest", { p: percent(rest.mass) })} ${rest.exact ? t("server.rest.exact") : t("server.rest.inexact")}`;
  }
  const listed = stage !== null && active ? stageRestNote(view.result, stage.name) : "";
  if (listed !== "") p.explain.textContent += ` ${listed}`;
  // projector mode shows one stage chart at a time (projector.css): the others are drawn when shown
  p.pending = active ? { view, stage } : null;
  if (active && !hiddenByProjector(p.figure)) drawPending(p);
  p.summary.textContent = active ? chartSummary(kind, stage, view) : "";
  markHanRuns(p.summary);
}

/** Whether projector mode hides `figure` (projector.css: every stage chart but the one picked, `.pj-focus`). */
function hiddenByProjector(figure: HTMLElement): boolean {
  return document.body.dataset["projector"] === "true" && !figure.classList.contains("pj-focus");
}

function drawPending(p: Panel): void {
  if (p.pending === null) return;
  const { view, stage } = p.pending;
  p.pending = null;
  p.update(view, stage);
}

function status(stage: StageTrace): string {
  if (!stage.active) return t("stage.off");
  const removed = stage.removed_count > 0 ? ` · ${t("stage.removedN", { n: stage.removed_count })}` : "";
  const v = stage.value;
  switch (stage.name) {
    case "temperature":
      return `T = ${num(v, 2)}`;
    case "top_k":
      return `k = ${num(v, 0)}${removed}`;
    case "top_p":
      return `p = ${num(v, 2)}${removed}`;
    case "min_p":
      return `min-p = ${num(v, 2)}${removed}`;
    case "typical_p":
      return `p = ${num(v, 2)}${removed}`;
    case "epsilon_cutoff":
      return `ε = ${num(v, 4)}${removed}`;
    case "eta_cutoff":
      return `η = ${num(v, 4)}${removed}`;
    case "min_new_tokens":
      return `${num(stage.threshold, 0)} / ${num(v, 0)}${removed}`;
    case "penalties":
    case "logit_bias":
    case "greedy":
      return removed.replace(/^ · /, "");
  }
}

function explain(kind: PanelKind, stage: StageTrace | null): string {
  switch (kind) {
    case "temperature":
      return t("stage.temperature.explain", { t: num(stage?.value ?? 1, 2) });
    case "top_k":
      return t("stage.top_k.explain", { k: num(stage?.value ?? 0, 0) });
    case "top_p":
      return t("stage.top_p.explain", { p: num(stage?.value ?? 1, 2), n: stage?.kept_count ?? 0 });
    case "min_p":
      return t("stage.min_p.explain", { cut: percent(stage?.threshold ?? 0) });
    case "typical_p":
      return t("stage.typical_p.explain", { p: num(stage?.value ?? 1, 2) });
    case "epsilon_cutoff":
      return t("stage.epsilon_cutoff.explain", { e: num(stage?.value ?? 0, 4) });
    case "eta_cutoff":
      return t("stage.eta_cutoff.explain", { e: num(stage?.value ?? 0, 4), cut: percent(stage?.threshold ?? 0) });
    case "min_new_tokens": {
      const n = stage?.value ?? 0;
      const done = stage?.threshold ?? 0;
      return done < n ? t("stage.min_new_tokens.explainHeld", { n, done }) : t("stage.min_new_tokens.explainFree", { n, done });
    }
    default:
      return t(`stage.${kind}.explain` as MessageKey);
  }
}

function chartFor(kind: PanelKind, svg: SVGSVGElement): Panel["update"] {
  switch (kind) {
    case "logits": {
      const chart = createLogitsChart(svg);
      return (view) => chart.update(view);
    }
    case "softmax": {
      const chart = createSoftmaxChart(svg);
      return (view) => chart.update(view);
    }
    case "temperature": {
      const chart = createTemperatureChart(svg);
      return (view, stage) => stage && chart.update(view, stage);
    }
    case "top_k": {
      const chart = createTopKChart(svg, (k) => `k = ${k}`);
      return (view, stage) => stage && chart.update(view, stage);
    }
    case "top_p": {
      const chart = createTopPChart(svg, (p) => `p = ${num(p, 2)}`);
      return (view, stage) => stage && chart.update(view, stage);
    }
    case "min_p":
    case "typical_p":
    case "epsilon_cutoff":
    case "eta_cutoff":
    case "min_new_tokens":
    case "greedy": {
      const chart = createThresholdChart(svg, (cut) => percent(cut));
      return (view, stage) => stage && chart.update(view, stage);
    }
    case "penalties":
    case "logit_bias": {
      const chart = createPenaltiesChart(svg);
      return (view, stage) => stage && chart.update(view, stage);
    }
  }
}
