// The step the inspector shows, with what the core read for it, re-run through the core when the
// page needs more of its trace than the charts list: every candidate (the CSV) or one named token
// (Find a token). Same logits, config, seed and draw, so the same choice and the same numbers.
import { runStep } from "../core";
import type { StepOutcome } from "../core";
import type { StepInput } from "../state";

export interface InspectedStep {
  input: StepInput;
  /** The token appended at this step (the core's choice, or the forced one). */
  chosenId: number;
  /** 1-based step number. */
  stepNumber: number;
}

/** The step with every vocabulary entry in its trace, in candidate order. */
export function fullTrace(step: InspectedStep): StepOutcome {
  return runStep(step.input.logits, { ...step.input.config, trace_top: step.input.logits.length });
}

/** The step with `ids` listed in its trace too, each with its rank, wherever they rank. */
export function traceWith(step: InspectedStep, ids: number[]): StepOutcome {
  return runStep(step.input.logits, { ...step.input.config, trace_ids: ids });
}
