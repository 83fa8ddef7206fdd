// "Compare settings": the same prompt and seed generated under a few decoding settings, side by
// side, each token a chip tinted by the probability it had when chosen. The tokens come from a
// separate wasm Generator (playground/extras.ts) or, over a model server, from a server source of
// their own stepped by the core (playground/compare-server.ts), so the main text never changes;
// this view only draws them (and, over a server, the run's progress and its Stop).
import { markLang } from "../token-lang";
import { chipParts, percent } from "../format";
import { coreMessage, t } from "../i18n/index";
import { compareStatusText } from "./compare-status";
import type { MessageKey } from "../i18n/index";
import type { Params, StopReason } from "../state";
import { el } from "./controls";
import { say } from "../lessons/kit";
import type { ChipDisplay } from "./tokens";

export type CompareId = "greedy" | "focused" | "wild" | "current";

/** The columns: fixed presets (their sampling knobs replace the controls') and the current controls. */
export const COMPARE_SETTINGS: ReadonlyArray<{ id: CompareId; params: Partial<Params> }> = [
  { id: "greedy", params: { strategy: "greedy" } },
  { id: "focused", params: { strategy: "sample", temperature: 0.7, top_k: 0, top_p: 0.9, min_p: 0, typical_p: 1 } },
  { id: "wild", params: { strategy: "sample", temperature: 1.5, top_k: 0, top_p: 1, min_p: 0, typical_p: 1 } },
  { id: "current", params: {} },
];

export interface CompareToken {
  display: ChipDisplay;
  /** The probability the token had when chosen (the trace's `chosen.p`). */
  p: number;
  /** Its probability under the model alone (softmax at T = 1, `chosen.p_raw`). */
  pRaw: number;
}

export interface CompareColumn {
  id: CompareId;
  tokens: CompareToken[];
  stop: StopReason | null;
  error: string | null;
  /** The error is the source's (a server that stopped answering, already worded), not the core's. */
  sourceFailed?: boolean;
}

/** Where a run stands: a server's columns arrive token by token (the model's at once). */
export type CompareStatus =
  | { kind: "done" }
  | { kind: "running"; done: number; total: number }
  /** Stopped before the end: by the user's Stop, or because the prompt, settings or source changed. */
  | { kind: "cancelled"; why: "user" | "changed" }
  /** The server failed: the failing column says how; no further request is made. */
  | { kind: "failed" };

export interface CompareRun {
  prompt: string;
  seed: number;
  maxNewTokens: number;
  columns: CompareColumn[];
  /** Which source generated the columns (a run is shown only while the page is on it). */
  source: "model" | "server";
  status: CompareStatus;
}

/** What the page's source offers: the model or a server compares; the hand-made tables do not. */
export type CompareMode = "model" | "server" | "manual";

const LABELS: Record<CompareId, MessageKey> = {
  greedy: "compare.greedy",
  focused: "compare.focused",
  wild: "compare.wild",
  current: "compare.current",
};

export function createCompare(handlers: { onRun(): void; onStop(): void }): {
  render(run: CompareRun | null, enabled: boolean, mode: CompareMode, stopText: (reason: StopReason) => string): void;
} {
  const section = el("compare");
  const button = el<HTMLButtonElement>("compare-run");
  const note = el("compare-note");
  const grid = el("compare-grid");
  let running = false;
  button.addEventListener("click", () => (running ? handlers.onStop() : handlers.onRun()));
  return {
    render(run, enabled, mode, stopText) {
      // manual logits: a lookup table does not write, so there is nothing to compare (and no columns);
      // a run is shown only beside the source that made it
      if (mode === "manual" || run?.source !== mode) run = null;
      running = run?.status.kind === "running";
      // while a server run goes on, the button stops it
      button.textContent = running ? t("srv.compare.stop") : t("compare.run");
      button.disabled = !running && (!enabled || mode === "manual");
      section.dataset["status"] = run === null ? "" : run.status.kind;
      section.setAttribute("aria-busy", String(running));
      const ran = run === null ? "" : t("compare.ran", { prompt: run.prompt, seed: run.seed, n: run.maxNewTokens });
      say(note, mode === "manual" ? t("srv.compare.manual") : run === null ? t("compare.empty") : [ran, compareStatusText(run)].filter((s) => s !== "").join(" "));
      grid.hidden = run === null;
      if (run === null) {
        grid.replaceChildren();
        return;
      }
      grid.replaceChildren(
        ...run.columns.map((column) => {
          const section = document.createElement("section");
          section.className = "compare-col";
          section.dataset["setting"] = column.id;
          const headingId = `compare-h-${column.id}`;
          section.setAttribute("role", "region");
          section.setAttribute("aria-labelledby", headingId);
          const heading = document.createElement("h3");
          heading.id = headingId;
          heading.textContent = t(LABELS[column.id]);
          const list = document.createElement("ol");
          list.className = "chips compare-chips";
          for (const token of column.tokens) {
            const li = document.createElement("li");
            li.style.setProperty("--p", String(token.p));
            li.dataset["kind"] = token.display.kind;
            li.dataset["p"] = String(token.p);
            const chip = document.createElement("span");
            chip.className = "chip";
            if (token.display.kind !== "text") chip.classList.add(token.display.kind);
            const text = document.createElement("span");
            text.className = "chip-text";
            if (token.display.kind === "text") {
              const parts = chipParts(token.display.text);
              if (parts.space) {
                const space = document.createElement("span");
                space.className = "space";
                space.setAttribute("aria-hidden", "true");
                space.textContent = "␣";
                chip.append(space);
                text.textContent = ` ${parts.text}`;
                markLang(text, parts.text);
              } else {
                text.textContent = parts.text;
                markLang(text, parts.text);
              }
            } else {
              text.textContent = token.display.text;
              markLang(text, token.display.text);
            }
            const prob = document.createElement("span");
            prob.className = "chip-p";
            prob.textContent = percent(token.p);
            chip.append(text, prob);
            chip.title = t("compare.chipTitle", { token: token.display.text, p: percent(token.p), raw: percent(token.pRaw) });
            li.append(chip);
            list.append(li);
          }
          const stop = document.createElement("p");
          stop.className = "stop-reason compare-stop";
          // a server's failure is worded already (as the main view shows it); the core's gets its prefix
          stop.textContent =
            column.error !== null
              ? column.sourceFailed === true
                ? column.error
                : `${t("error.prefix")} ${coreMessage(column.error)}`
              : column.stop === null
                ? ""
                : stopText(column.stop);
          section.append(heading, list, stop);
          return section;
        }),
      );
    },
  };
}
