// What a chart draws, from the step: which listed candidates get a bar, and each bar's state and
// value in a stage's chart. Data only; frame.ts draws.
import type { Candidate, StageTrace } from "../core";
import { barsAllowed, MAX_BARS } from "./bar-room";
import type { BarItem, BarState, StepView } from "./frame";
import { REST_ID } from "./rest";

/** Whether a candidate was removed by a stage that runs before `stage` in this engine's order. */
export function removedBefore(c: Candidate, stage: string, view: StepView): boolean {
  if (c.removed_by === null) return false;
  if (c.removed_by === "logits") return true;
  const at = view.stageIndex.get(stage) ?? Number.POSITIVE_INFINITY;
  return (view.stageIndex.get(c.removed_by) ?? -1) < at;
}

/** Bar state of a candidate in the chart of `stage` (null = a chart before every stage). */
export function barState(c: Candidate, stage: string | null, view: StepView): BarState {
  if (stage !== null && c.removed_by === stage) return "removed-here";
  if (stage !== null && removedBefore(c, stage, view)) return "removed-before";
  if (c.id === view.chosenId) return "chosen";
  return "kept";
}

/**
 * Candidates worth drawing: listed ones with a finite input logit, the most likely first. Fewer than
 * that where fewer fit (`limitBars`): the chosen token keeps its bar, in place of the last one shown.
 */
export function drawable(view: StepView): Array<{ c: Candidate; i: number }> {
  const listed = view.order.filter(({ c }) => c.removed_by !== "logits").slice(0, MAX_BARS);
  const most = barsAllowed();
  if (listed.length <= most) return listed;
  const first = listed.slice(0, most);
  const chosen = listed.find(({ c }) => c.id === view.chosenId);
  return chosen === undefined || first.includes(chosen) ? first : [...first.slice(0, -1), chosen];
}

/** Bars for a stage: each candidate's probability in the stage's input, coloured by what happened. */
export function stageItems(view: StepView, stage: StageTrace, format: (p: number) => string): BarItem[] {
  const items = drawable(view).map(({ c, i }): BarItem => {
    const state = barState(c, stage.name, view);
    const removed = state === "removed-here" || state === "removed-before";
    return {
      id: c.id,
      value: stage.p_in[i] ?? 0,
      ghost: null,
      state,
      note: removed && c.removed_by !== null ? view.removedText(c.removed_by) : null,
      valueText: format(stage.p_in[i] ?? 0),
    };
  });
  // the stage that removed the rest of the vocabulary says so on a bar of its own (its input
  // probability is not known: the stage's input covers the listed tokens only)
  const rest = view.result.rest;
  if (rest?.removed_by === stage.name && view.rest !== null) {
    items.push({ id: REST_ID, value: 0, ghost: null, state: "removed-here", note: view.rest.removedNote(stage.name), valueText: "", name: view.rest.removedName(stage.name) });
  }
  return items;
}
