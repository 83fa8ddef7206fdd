// The printed handout's own lines (styles/print.css shows them only on paper): which step, the
// settings as the controls hold them, and the link that reopens this exact state.
import { stageOn } from "../state";
import type { Params, StageKey } from "../state";
import { num } from "../format";
import { el } from "./controls";

/**
 * The settings in one line, by their HF names: only the ones away from their off value that the
 * engine has (engines.ts; a step leaves the others out).
 */
export function settingsLine(params: Params): string {
  const on = (key: StageKey): boolean => stageOn(params, key);
  const parts = [
    params.strategy === "greedy" ? "greedy" : `T ${num(params.temperature, 2)}`,
    on("top_k") ? `top-k ${params.top_k}` : null,
    on("top_p") ? `top-p ${num(params.top_p, 2)}` : null,
    on("min_p") ? `min-p ${num(params.min_p, 2)}` : null,
    on("typical_p") ? `typical-p ${num(params.typical_p, 2)}` : null,
    on("repetition_penalty") ? `repetition_penalty ${num(params.repetition_penalty, 2)}` : null,
    on("frequency_penalty") ? `frequency_penalty ${num(params.frequency_penalty, 1)}` : null,
    on("presence_penalty") ? `presence_penalty ${num(params.presence_penalty, 1)}` : null,
    `max_new_tokens ${params.max_new_tokens}`,
    `engine ${params.engine}`,
    `seed ${params.seed}`,
  ];
  return parts.filter((p) => p !== null).join(" · ");
}

/** Fill the handout's values (its labels are translated with the rest of the page). */
export function renderHandout(params: Params, stepText: string): void {
  el("handout-settings").textContent = settingsLine(params);
  el("handout-step").textContent = stepText;
  el("handout-link").textContent = fullPageLink(location.href);
  // more than four charts do not fit one page two abreast
  const charts = document.querySelectorAll("#stages > figure.stage:not([hidden])").length;
  el("stages").dataset["printColumns"] = charts > 4 ? "3" : "2";
}

/**
 * The address as a link to the full page: a learner following a handout printed inside an embed
 * (`embed=1`, `#embed`, or `embed` in a fragment holding the state) gets the page, not a lesson's frame.
 */
export function fullPageLink(href: string): string {
  const url = new URL(href);
  // the address as it is otherwise (only an embed flag is taken out)
  if (url.searchParams.has("embed")) url.searchParams.delete("embed");
  const fragment = url.hash.replace(/^#/, "").split("&");
  const kept = fragment.filter((part) => !/^embed(=|$)/i.test(part));
  if (kept.length !== fragment.length) url.hash = kept.join("&");
  return url.href;
}
