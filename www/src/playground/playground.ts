// The playground's one controller: it owns the state (AppState), the logits source, the paths and
// branches, the preview of the next step and the play timer, and changes them only through its
// actions (`dispatch`, or the methods behind it). After a change it notifies its subscribers (the
// page's view), which draw from it. Only playground/ writes to the state (paths.ts, scenarios.ts,
// undo-reset.ts and extras.ts are this controller's actions in their own files); views read it.
//
// One direction: source → step → trace → view. The source gives logits, the core's `step`
// chooses, the trace is kept in a PathEntry, the view draws it.
import { messageOf, runStep } from "../core";
import type { StepOutcome } from "../core";
import type { ManualPreset } from "../presets";
import { findPreset } from "../presets";
import type { Backfill } from "../replay";
import type { RecordedStep } from "../recorded-step";
import { pathEntry, recordedStep, stepRecording } from "../recorded-step";
import type { Scenario } from "../scenario";
import { ManualSource } from "../sources/manual";
import type { ModelSource } from "../sources/model";
import type { ServerSource } from "../sources/server";
import { t } from "../i18n/index";
import type { Appended, LogitsSource, SourceStop } from "../sources/logits-source";
import { SourceError } from "../sources/source-error";
import { stepConfig } from "../state";
import type { AppState, Params, SourceKind, StepInput, StopReason } from "../state";
import type { CompareRun } from "../views/compare";
import type { SampleRun } from "../views/sample";
import { enact } from "./actions";
import type { PlaygroundAction } from "./actions";
import { PlayPace } from "./pace";
import { clearPaths } from "./paths";
import { stopAfterAppend } from "./stops";
import type { Problem } from "./scenarios";

export class Playground {
  readonly state: AppState;
  /** Where the next logits come from (the model, the hand-made tables, …). */
  source: LogitsSource;
  /** The embedded model once loaded (null while loading or if it failed). */
  model: ModelSource | null = null;
  /** The model server once Connect has succeeded (null before). */
  server: ServerSource | null = null;
  /** "Model server" is chosen in the source list (it becomes the source once connected). */
  serverChosen = false;
  /** The trace of the next step under the current settings (what Step would do now). */
  preview: StepOutcome | null = null;
  /** An async source's logits are on their way (nothing to step yet). */
  waiting = false;
  /** The failure shown is the source's (worded by it), not the core's rejection. */
  sourceFailed = false;
  /** That failure is a request the source could not make (a server that stopped answering). */
  sourceLost = false;
  sampleRun: SampleRun | null = null;
  compareRun: CompareRun | null = null;
  /** Stop reason of each branch, so switching paths restores it. */
  readonly branchStops = new Map<number, StopReason | null>();
  /** The opening link's paths still being rebuilt in the background (null when there are none). */
  backfill: Backfill | null = null;
  /** While a scenario replays, notify nothing (one notification at the end). */
  replaying = false;
  /** While the page opens its link: nothing is drawn until it is ready, then once. */
  holding = false;
  /**
   * Bumped by every reset and every scenario replayed: a replay that finds it changed after
   * waiting (a server's answer, the prompt read) stops there, and the later action wins.
   */
  epoch = 0;
  /** The epoch of the scenario replay that set `replaying` (only it clears the flag). */
  replayingEpoch = -1;
  /** The state a Reset (button or R) cleared, until the page moves on: Undo reset brings it back (undo-reset.ts). */
  beforeReset: Scenario | null = null;
  readonly firstPreset: ManualPreset;
  /** What the opening link asked for and the page could not do (worded when shown, so it follows the language). */
  linkProblems: Problem[] = [];
  /** Called when a problem joins `linkProblems` after the link was opened (a path rebuilt in the background). */
  onLinkProblem: () => void = () => {};
  /** Play's timer: when its next Step runs. */
  private readonly pace = new PlayPace();
  /** A step or force waiting for an async source's logits (see `whenLogits`). */
  private deferred: Promise<void> | null = null;
  /** The latest `source.reset` (see `reset`). */
  private resetting: Promise<void> | null = null;
  private readonly listeners: Array<() => void> = [];

  constructor(firstPreset: ManualPreset, state: AppState) {
    this.firstPreset = firstPreset;
    this.state = state;
    this.source = new ManualSource(firstPreset);
  }

  /** Call `listener` after every change (not while a scenario replays). */
  subscribe(listener: () => void): void {
    this.listeners.push(listener);
  }

  notify(): void {
    if (this.replaying || this.holding) return;
    for (const listener of this.listeners) listener();
  }

  /** Enact one action of the page's controls (playground/actions.ts). */
  dispatch(action: PlaygroundAction): void {
    enact(this, action);
  }

  finished(): boolean {
    return this.state.stopReason !== null;
  }

  /** The source cannot read the prompt: nothing to step. */
  blocked(): boolean {
    return this.source.promptError !== null;
  }

  /** The core config for the next step under the current settings. */
  config() {
    return stepConfig(this.state.params, this.source.history(), this.source.promptLength(), this.state.path.length, this.source.eosId);
  }

  /** What the core reads for the next step (its logits and config), or null while they are on their way. */
  nextInput(): StepInput | null {
    const next = this.source.nextLogits();
    if (next === null) return null;
    // a server's top N: the rest of the vocabulary's mass goes to the core, never renormalised away
    const rest = next.known.kind === "top" ? { rest_mass: next.known.restMass } : {};
    return { logits: next.logits, config: { ...this.config(), ...rest } };
  }

  /** Settings or context changed: recompute the next step (unless `preview` is false: none yet), then notify. */
  refresh(preview = true): void {
    this.sourceFailed = false;
    this.sourceLost = false;
    this.preview = this.finished() || !preview ? null : this.computeNext();
    this.sampleRun = null;
    this.notify();
  }

  private computeNext(): StepOutcome | null {
    if (this.source.promptError !== null) return { ok: false, message: this.source.promptError };
    const input = this.nextInput();
    this.waiting = input === null;
    if (input === null) {
      // an async source: ask for the logits, recompute when they are in (for whatever context is current then)
      this.source.loadNextLogits().then(
        () => this.refresh(),
        (err: unknown) => this.failSource(messageOf(err)),
      );
      return null;
    }
    return runStep(input.logits, input.config);
  }

  /** Show `message` as the core's rejection or (`fromSource`) the source's; `lost`: a request it could not make. Ends Play. */
  fail(message: string, fromSource = false, lost = false): void {
    this.waiting = false;
    this.sourceFailed = fromSource;
    this.sourceLost = lost;
    this.preview = { ok: false, message };
    if (this.state.playing) this.pause();
    this.notify();
  }

  /** Show the source's failure (already worded for the page: a server that stopped answering …). */
  failSource(message: string): void {
    this.fail(message, true, true);
  }

  /** A refusal from the source (SourceError, worded by it) or else the core's. */
  failFrom(err: unknown): void {
    this.fail(messageOf(err), err instanceof SourceError);
  }

  /** The model's generator applies max new tokens and stop sequences itself. */
  syncLimits(): void {
    this.source.setLimits(this.state.params.max_new_tokens, this.state.params.stop);
  }

  /** A source's stop as the page's stop reason. */
  stopOf(stop: SourceStop | null): StopReason | null {
    if (stop === null) return null;
    return stop.kind === "max_tokens" ? { kind: "max_tokens", n: this.state.params.max_new_tokens } : stop;
  }

  /** A change of settings from any control (the sidebar, a lesson's own slider). */
  setParams(change: Partial<Params>): void {
    const { state } = this;
    const maxChanged = change.max_new_tokens !== undefined;
    state.params = { ...state.params, ...change };
    this.syncLimits();
    if (maxChanged && state.stopReason?.kind === "max_tokens" && state.path.length < state.params.max_new_tokens) {
      state.stopReason = null;
      this.branchStops.set(state.currentBranch, null);
      this.source.resume();
    }
    this.refresh();
  }

  /**
   * Append a token (chosen by the core or forced) to the source and record it with its step. A source
   * that checks the stop conditions itself (the model, in wasm) says whether generation stopped;
   * for the others they are checked here. False (and the message shown) if the source refuses it.
   */
  private commit(id: number, step: RecordedStep, forced: boolean): boolean {
    const { state, source } = this;
    let out: Appended;
    try {
      out = source.append(id);
    } catch (err) {
      this.failFrom(err);
      return false;
    }
    state.path = [...state.path, pathEntry(id, step, forced, out, state.params)];
    this.syncBranch();
    const stop = stopAfterAppend(source, out, id, state.params, state.path.length);
    if (stop !== null || out.stop !== undefined) state.stopReason = stop;
    this.branchStops.set(state.currentBranch, state.stopReason);
    state.viewing = null;
    return true;
  }

  /** The branch on screen follows the path. */
  syncBranch(): void {
    const branch = this.state.branches[this.state.currentBranch];
    if (branch) {
      branch.entries = [...this.state.path];
      branch.ids = this.state.path.map((e) => e.id);
    }
  }

  /**
   * One step: logits → the core's step → append. False if it could not step (finished, blocked,
   * error); true also when it waits for an async source's logits and steps when they arrive.
   */
  step(): boolean {
    if (this.finished()) return false;
    if (this.source.promptError !== null) {
      this.fail(this.source.promptError);
      return false;
    }
    if (this.deferred !== null) return true;
    let stepped = false;
    this.whenLogits(() => {
      stepped = this.stepNow();
    });
    return stepped || this.deferred !== null;
  }

  /**
   * Run `then` at once if the next logits are at hand (always, for a synchronous source), else once
   * an async source has them: the page shows the wait, and one action waits at a time. An action
   * whose path changed meanwhile (reset, back, another path, another source) is dropped.
   */
  whenLogits(then: () => void): void {
    const { source } = this;
    if (!source.capabilities.async || source.nextLogits() !== null) return then();
    if (this.deferred !== null) return;
    this.waiting = true;
    this.notify();
    const path = this.state.path;
    this.deferred = source.loadNextLogits().then(
      () => {
        this.deferred = null;
        this.waiting = false;
        if (this.state.path === path && this.source === source) then();
        else this.refresh();
      },
      (err: unknown) => {
        this.deferred = null;
        this.failSource(messageOf(err));
      },
    );
  }

  private stepNow(): boolean {
    // the same input the preview read
    const input = this.nextInput();
    if (input === null) return false;
    const next = runStep(input.logits, input.config);
    if (!next.ok) {
      this.fail(next.message);
      return false;
    }
    const { result } = next;
    if (!this.commit(result.token, { result, token: result.token, chosen: result.chosen, rank: result.chosen_rank, input, vocabSize: result.vocab_size }, false)) return false;
    this.refresh();
    return true;
  }

  /** The next step (under the current settings) with `id`'s candidate record in its trace. */
  stepWith(id: number): RecordedStep | string {
    if (this.source.promptError !== null) return this.source.promptError;
    const input = this.nextInput();
    if (input === null) return t("server.noAnswer");
    // a replayed token the source already ran through the core under this config (a prefill)
    const record = this.source.recorded?.(id, input.config) ?? null;
    return record === null ? stepRecording(input.logits, input.config, id) : recordedStep(input, id, record);
  }

  /** Append `id` with its step's trace; false (and the message shown) if refused. */
  appendStep(id: number, next: RecordedStep, forced: boolean): boolean {
    return this.commit(id, next, forced);
  }

  reset(): void {
    this.epoch += 1;
    this.pause();
    clearPaths(this);
    this.preview = null;
    this.sourceFailed = false;
    this.sourceLost = false;
    // an async source reads the prompt over the network: nothing to step until it has
    this.waiting = this.source.capabilities.async;
    this.notify();
    this.syncLimits();
    // the source reads the whole prompt first; only the latest reset speaks (a server's may overlap)
    const resetting = this.source.reset(this.state.prompt);
    this.resetting = resetting;
    resetting.then(
      () => this.resetting === resetting && this.refresh(),
      (err: unknown) => this.resetting === resetting && this.failSource(messageOf(err)),
    );
  }

  /**
   * The source for `kind`: the model when it is loaded, else the preset's tables; the server once
   * connected (before that it is only marked as chosen: Connect makes it the source).
   */
  selectSource(kind: SourceKind): void {
    const { state } = this;
    this.serverChosen = kind === "server";
    if (kind === "server") {
      if (this.server === null) return this.notify();
      state.source = "server";
      this.source = this.server;
      return this.reset();
    }
    state.source = kind === "model" && this.model !== null ? "model" : "manual";
    if (state.source === "model" && this.model !== null) this.source = this.model;
    else this.source = new ManualSource(findPreset(state.presetId) ?? this.firstPreset);
    this.reset();
  }

  userStop(): void {
    const { state } = this;
    this.pause();
    if (!this.finished()) {
      this.source.stop();
      state.stopReason = { kind: "user" };
      this.branchStops.set(state.currentBranch, state.stopReason);
    }
    this.notify();
  }

  play(): void {
    const { state } = this;
    if (this.finished()) return;
    state.playing = true;
    const tick = (): void => {
      if (!state.playing) return;
      // an async source's logits still on their way: look again shortly
      if (this.deferred !== null) return this.pace.poll(50, tick);
      const started = performance.now();
      if (!this.step() || this.finished()) return this.pause();
      this.pace.after(started, state.tokensPerSecond, tick);
    };
    tick();
    this.notify();
  }

  pause(): void {
    this.state.playing = false;
    this.pace.cancel();
    this.notify();
  }
}
