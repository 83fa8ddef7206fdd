// The step the inspector shows, with what the core read for it, re-run through the core when the
// page needs more of its trace than the charts list: every candidate (the CSV) or one named token
// (Find a token). Same logits, config, seed and draw, so the same choice and the same numbers.
import { runStep } from "../core";
import type { StepOutcome } from "../core";
import type { StepInput } from "../state";

export interface InspectedStep {
  /** What the core read (asked for only when a file or an answer is made: the next step's logits
   * are copied out of wasm on demand, not on every render). */
  input(): StepInput;
  /** The token appended at this step (the core's choice, or the forced one). */
  chosenId: number;
  /** 1-based step number. */
  stepNumber: number;
}

/** The step with every vocabulary entry in its trace, in candidate order. */
export function fullTrace(step: InspectedStep): StepOutcome {
  const input = step.input();
  return runStep(input.logits, { ...input.config, trace_top: input.logits.length });
}

/** The step with `ids` listed in its trace too, each with its rank, wherever they rank. */
export function traceWith(step: InspectedStep, ids: number[]): StepOutcome {
  const input = step.input();
  return runStep(input.logits, { ...input.config, trace_ids: ids });
}
