// Every decoding control: reads input events into `Params` changes and writes state back to the
// inputs and their visible values. It never calls the core; the Playground does.
import type { Engine } from "../core";
import { ENGINE_LACKS, engineLacks } from "../engines";
import { num } from "../format";
import { t } from "../i18n/index";
import { FIRST_VISIT, PARAM_LIMITS } from "../state";
import type { Params } from "../state";
import { numberField } from "./number-field";

type NumericKey = "temperature" | "top_k" | "top_p" | "min_p" | "typical_p" | "repetition_penalty" | "frequency_penalty" | "presence_penalty";

const RANGES: ReadonlyArray<readonly [id: string, key: NumericKey, digits: number]> = [
  ["temperature", "temperature", 2],
  ["top-k", "top_k", 0],
  ["top-p", "top_p", 2],
  ["min-p", "min_p", 2],
  ["typical-p", "typical_p", 2],
  ["repetition", "repetition_penalty", 2],
  ["frequency", "frequency_penalty", 1],
  ["presence", "presence_penalty", 1],
];

/** The sliders of the stages greedy makes irrelevant (it takes the top token; order is unchanged by them). */
const WARPERS = ["temperature", "top-k", "top-p", "min-p", "typical-p"];

function el<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`missing element #${id}`);
  return found as T;
}

export interface ControlsHandlers {
  onParams(change: Partial<Params>): void;
  onNewSeed(): void;
}

/**
 * The note under a slider whose setting the engine lacks (engines.ts), made once; the slider points
 * to it (aria-describedby) while it applies.
 */
function lacksNote(id: string): HTMLParagraphElement {
  const note = document.createElement("p");
  note.id = `${id}-lacks`;
  note.className = "note engine-lacks";
  note.hidden = true;
  el(id).closest(".field")?.append(note);
  return note;
}

export function createControls(handlers: ControlsHandlers): { render(params: Params): void } {
  // only the settings some engine lacks get a note (the others keep their own descriptions)
  const lackable: ReadonlySet<string> = new Set(Object.values(ENGINE_LACKS).flat());
  const notes = new Map(RANGES.filter(([, key]) => lackable.has(key)).map(([id]) => [id, lacksNote(id)] as const));
  for (const [id, key] of RANGES) {
    el<HTMLInputElement>(id).addEventListener("input", (event) => {
      const value = Number((event.target as HTMLInputElement).value);
      handlers.onParams({ [key]: value } as Partial<Params>);
    });
  }
  el<HTMLSelectElement>("strategy").addEventListener("change", (event) => {
    handlers.onParams({ strategy: (event.target as HTMLSelectElement).value === "greedy" ? "greedy" : "sample" });
  });
  el<HTMLSelectElement>("engine").addEventListener("change", (event) => {
    handlers.onParams({ engine: (event.target as HTMLSelectElement).value as Engine });
  });
  const seed = numberField(el<HTMLInputElement>("seed"), PARAM_LIMITS.seed, (value) => handlers.onParams({ seed: value }));
  el<HTMLButtonElement>("new-seed").addEventListener("click", handlers.onNewSeed);
  const maxNew = numberField(el<HTMLInputElement>("max-new"), PARAM_LIMITS.max_new_tokens, (value) => handlers.onParams({ max_new_tokens: value }));
  const minNew = numberField(el<HTMLInputElement>("min-new"), PARAM_LIMITS.min_new_tokens, (value) => handlers.onParams({ min_new_tokens: value }));
  el<HTMLTextAreaElement>("stop-seqs").addEventListener("change", (event) => {
    const lines = (event.target as HTMLTextAreaElement).value.split("\n").filter((line) => line !== "");
    handlers.onParams({ stop: lines });
  });

  return {
    render(params) {
      for (const [id, key, digits] of RANGES) {
        const input = el<HTMLInputElement>(id);
        const text = String(params[key]);
        if (input.value !== text && document.activeElement !== input) input.value = text;
        // an <output> is a live region: written only when its value changed, not on every step
        const out = el<HTMLOutputElement>(`${id}-out`);
        const shown = num(params[key], digits);
        if (out.textContent !== shown) out.textContent = shown;
        // a setting this engine has no stage for: dimmed, not sent, and the note says why
        const note = notes.get(id);
        if (note !== undefined) {
          const lacks = engineLacks(params.engine, key);
          input.disabled = lacks;
          input.closest(".field")?.toggleAttribute("data-lacks", lacks);
          note.hidden = !lacks;
          const text = lacks ? t("engine.lacks", { engine: t(`engine.${params.engine}`) }) : "";
          if (note.textContent !== text) note.textContent = text;
          if (lacks) input.setAttribute("aria-describedby", note.id);
          else input.removeAttribute("aria-describedby");
        }
      }
      el<HTMLSelectElement>("strategy").value = params.strategy;
      // greedy decides before the warpers (HF skips them): their sliders are dimmed, still settable
      const greedy = params.strategy === "greedy";
      el("greedy-note").hidden = !greedy;
      for (const id of WARPERS) el(id).closest(".field")?.toggleAttribute("data-skipped", greedy);
      el<HTMLSelectElement>("engine").value = params.engine;
      seed.render(params.seed);
      // why this seed: shown while the first-visit seed is in use
      const seedNote = el<HTMLParagraphElement>("seed-note");
      seedNote.hidden = params.seed !== FIRST_VISIT.seed;
      seedNote.textContent = t("seed.firstVisit", { seed: FIRST_VISIT.seed, n: FIRST_VISIT.draws, below: FIRST_VISIT.below });
      maxNew.render(params.max_new_tokens);
      minNew.render(params.min_new_tokens);
      const stops = el<HTMLTextAreaElement>("stop-seqs");
      if (document.activeElement !== stops) stops.value = params.stop.join("\n");
    },
  };
}

export { el };
