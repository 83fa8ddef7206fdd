// "Find a token": type a token (its text, or `<E4>` for a byte token, as the force field accepts)
// and read its rank and probability at the inspected step, straight from the core's trace. The
// answer follows the inspector: a new step or another inspected step re-asks the core.
import type { Candidate } from "../core";
import { removedText, tipPercent } from "../charts/tooltip";
import type { InspectedStep } from "../export/step";
import { traceWith } from "../export/step";
import { grouped, num } from "../format";
import { coreMessage, t } from "../i18n/index";
import { el } from "./controls";

export interface LookupSource {
  inspected(): InspectedStep | null;
  idOf(text: string): number | undefined;
  /** A token as the page shows it (␣ for a space). */
  label(id: number): string;
}

/** A looked-up token's record at one step (its `rank` is 0-based). */
export interface Found {
  candidate: Candidate;
  vocabSize: number;
}

/** The record of token `id` at `step` (the core lists it by `trace_ids`), or the core's message. */
export function lookUp(step: InspectedStep, id: number): Found | string {
  const out = traceWith(step, [id]);
  if (!out.ok) return out.message;
  const candidate = out.result.candidates.find((c) => c.id === id);
  if (candidate === undefined) return `token ${id} is not in the trace`;
  return { candidate, vocabSize: out.result.vocab_size };
}

export function createLookup(from: LookupSource): { render(): void } {
  const form = el<HTMLFormElement>("lookup-form");
  const input = el<HTMLInputElement>("lookup-token");
  const result = el<HTMLOutputElement>("lookup-result");
  /** The token asked about, kept so the answer follows the inspected step. */
  let asked = "";

  function answer(): void {
    delete result.dataset["rank"];
    delete result.dataset["p"];
    if (asked === "") {
      result.textContent = "";
      return;
    }
    const step = from.inspected();
    if (step === null) {
      result.textContent = "";
      return;
    }
    const id = from.idOf(asked);
    if (id === undefined) {
      result.textContent = t("lookup.unknown", { token: asked });
      return;
    }
    const found = lookUp(step, id);
    if (typeof found === "string") {
      result.textContent = coreMessage(found);
      return;
    }
    const c = found.candidate;
    const fate = c.removed_by === null ? t("lookup.kept") : c.removed_by === "logits" ? removedText(c) : t("lookup.removed", { stage: removedText(c) });
    result.textContent = `${t("lookup.result", {
      token: from.label(id),
      rank: c.rank + 1,
      n: grouped(found.vocabSize),
      p: tipPercent(c.p),
      raw: tipPercent(c.p_raw),
      logit: num(c.logit, 3),
    })} · ${fate}`;
    // the exact values, for tests and assistive tools that read data
    result.dataset["rank"] = String(c.rank + 1);
    result.dataset["p"] = String(c.p);
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    asked = input.value.trim() === "" ? "" : input.value;
    answer();
  });
  return { render: answer };
}
