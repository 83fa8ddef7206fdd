// The playground's action set: everything the page's controls can ask of it, as values. Views and
// the DOM wiring (main.ts) dispatch them (`Playground.dispatch`); `enact` is where each one is done.
import type { Lang } from "../i18n/index";
import { findPreset } from "../presets";
import { ManualSource } from "../sources/manual";
import type { TableRow } from "../sources/manual";
import type { Params, SourceKind } from "../state";
import { runCompare, sampleN } from "./extras";
import { stopServerCompare } from "./compare-server";
import { back, force, switchBranch } from "./paths";
import type { Playground } from "./playground";
import { undoReset, userReset } from "./undo-reset";

export type PlaygroundAction =
  /** One decoding step on the path on screen. */
  | { type: "step" }
  /** Drop the last generated token. */
  | { type: "back" }
  /** The user's Reset (one Undo brings the paths back). */
  | { type: "reset" }
  | { type: "undoReset" }
  | { type: "togglePlay" }
  | { type: "pause" }
  /** The user's Stop. */
  | { type: "stop" }
  /** Force `id` at the inspected step (later steps move to a new path). */
  | { type: "force"; id: number }
  /** Inspect past step `index` (again: back to the next step). */
  | { type: "inspect"; index: number }
  /** Back from a past step to the next one. */
  | { type: "inspectNext" }
  | { type: "switchBranch"; index: number }
  | { type: "setParams"; change: Partial<Params> }
  | { type: "setPrompt"; prompt: string }
  | { type: "selectPreset"; presetId: string }
  | { type: "selectSource"; kind: SourceKind }
  /** Replace the rows of the hand-made table the next step reads. */
  | { type: "setRows"; rows: TableRow[] }
  | { type: "setSpeed"; tokensPerSecond: number }
  | { type: "setLang"; lang: Lang }
  /** N draws of the next token (Sample N). */
  | { type: "sample"; n: number }
  /** Generate under each comparison setting (the model's own Generator, or a server source of its own). */
  | { type: "compare" }
  /** Stop a comparison running over a model server (its columns so far stay). */
  | { type: "stopCompare" };

/** Do `action` on the playground (it notifies its view itself). */
export function enact(pg: Playground, action: PlaygroundAction): void {
  switch (action.type) {
    case "step":
      return void pg.step();
    case "back":
      return back(pg);
    case "reset":
      return userReset(pg);
    case "undoReset":
      return void undoReset(pg);
    case "togglePlay":
      return pg.state.playing ? pg.pause() : pg.play();
    case "pause":
      return pg.pause();
    case "stop":
      return pg.userStop();
    case "force":
      return force(pg, action.id);
    case "inspect":
      pg.state.viewing = pg.state.viewing === action.index ? null : action.index;
      return pg.notify();
    case "inspectNext":
      pg.state.viewing = null;
      return pg.notify();
    case "switchBranch":
      return switchBranch(pg, action.index);
    case "setParams":
      return pg.setParams(action.change);
    case "setPrompt":
      pg.state.prompt = action.prompt;
      return pg.reset();
    case "selectPreset": {
      const preset = findPreset(action.presetId);
      if (preset === undefined) return;
      pg.state.presetId = preset.id;
      pg.state.prompt = preset.prompt;
      if (pg.state.source === "manual") pg.source = new ManualSource(preset);
      return pg.reset();
    }
    case "selectSource":
      return pg.selectSource(action.kind);
    case "setRows":
      if (pg.source instanceof ManualSource) pg.source.setCurrentRows(action.rows);
      return pg.refresh();
    case "setSpeed":
      pg.state.tokensPerSecond = action.tokensPerSecond;
      return;
    case "setLang":
      pg.state.lang = action.lang;
      return pg.notify();
    case "sample":
      return void sampleN(pg, action.n);
    case "compare":
      return runCompare(pg);
    case "stopCompare":
      return stopServerCompare(pg);
  }
}
