// Boot and the one-way loop: an input event changes `state`, the core's `step` runs on the source's
// logits, and every view redraws from the state and the trace. Views never call each other or wasm.
import { initCore, messageOf, runStep } from "./core";
import type { Candidate, Generator, StepOutcome, StepResult } from "./core";
import { bytesLabel, bytesSize, visible } from "./format";
import { coreMessage, lang, setLang, t, translateDocument } from "./i18n/index";
import type { Lang } from "./i18n/index";
import { MODEL_FILES } from "./payload";
import { findPreset, PRESETS } from "./presets";
import type { ManualPreset } from "./presets";
import { loadModel } from "./sources/load";
import type { LoadProgress } from "./sources/load";
import { ManualSource } from "./sources/manual";
import type { TableRow } from "./sources/manual";
import { generatedStop, ModelSource } from "./sources/model";
import { syncLogits } from "./sources/logits-source";
import { ServerSource } from "./sources/server";
import { describeServerError } from "./server/messages";
import { createServerPanel } from "./views/server-panel";
import type { Appended, SourceStop } from "./sources/logits-source";
import { DEFAULT_PARAMS, FIRST_VISIT, stepConfig } from "./state";
import type { AppState, Params, PathEntry, SourceKind, StepInput, StopReason } from "./state";
import { browserLang, readUrl, scenarioQuery, writeUrl } from "./url";
import type { Actions, Glimpse } from "./actions";
import { isLessonId, LESSON_IDS } from "./lessons/catalog";
import { installShortcuts } from "./keyboard";
import { createLessons } from "./views/lessons";
import { createProjector } from "./views/projector";
import { createShare } from "./views/share";
import type { PageModes, Scenario, ScenarioRequest, ScenarioToken } from "./scenario";
import { COMPARE_SETTINGS, createCompare } from "./views/compare";
import type { CompareColumn, CompareRun, CompareToken } from "./views/compare";
import { createControls, el } from "./views/controls";
import { buildView, createInspector } from "./views/inspector";
import type { InspectorInput } from "./views/inspector";
import { createSample } from "./views/sample";
import type { SampleRun } from "./views/sample";
import { createSettingsDrawer } from "./views/settings-drawer";
import { createTable } from "./views/table";
import { createTokens } from "./views/tokens";
import type { ChipDisplay } from "./views/tokens";
import { createTree } from "./views/tree";
import { installTips } from "./charts/tooltip";
import type { InspectedStep } from "./export/step";
import { tipChips } from "./views/chip-tips";
import { createExport } from "./views/export";
import { renderHandout } from "./views/handout";
import { createLookup } from "./views/lookup";
import { Backfill, PathFiller, stepRecording } from "./replay";
import type { RecordedStep } from "./replay";
import { problemText } from "./views/notice";

const { request: initialUrl, problems: urlProblems } = readUrl(location.search, location.hash, {
  preset: (id) => findPreset(id) !== undefined,
  lesson: isLessonId,
});
const initialLang: Lang = initialUrl.lang ?? browserLang();
// embed mode (?embed=1 or #embed): minimal chrome for an iframe, set before the first paint
if (initialUrl.embed) document.body.dataset["embed"] = "true";
setLang(initialLang);
const foundPreset = PRESETS.find((p) => p.lang === initialLang) ?? PRESETS[0];
if (foundPreset === undefined) throw new Error("no presets");
const firstPreset: ManualPreset = foundPreset;

const state: AppState = {
  lang: initialLang,
  source: "manual",
  presetId: firstPreset.id,
  prompt: firstPreset.prompt,
  params: { ...DEFAULT_PARAMS, seed: initialUrl.params.seed ?? FIRST_VISIT.seed },
  path: [],
  branches: [{ ids: [], entries: [], parent: null, forkAt: 0 }],
  currentBranch: 0,
  viewing: null,
  stopReason: null,
  playing: false,
  tokensPerSecond: 3,
};
let source: ManualSource | ModelSource | ServerSource = new ManualSource(firstPreset);
/** "Model server" is chosen in the source list (it becomes the source once connected). */
let serverChosen = false;
/** A server's answer for the current context is on its way (one request at a time). */
let awaitingLogits = false;
let stepQueued = false;
/** A `source=server` link, replayed over the server once Connect succeeds (never before). */
let serverLink: ScenarioRequest | null = null;
const serverPanel = createServerPanel((connected) => {
  serverChosen = true;
  if (serverLink !== null) {
    const wanted: ScenarioRequest = { ...serverLink, source: "server" };
    serverLink = null;
    linkProblems = [];
    void applyScenario(wanted, linkProblems).then(() => {
      el("url-notice").hidden = linkProblems.length === 0;
      showNotice();
    });
    return;
  }
  state.source = "server";
  source = connected;
  reset();
});
/** The embedded model once loaded (null while loading or if it failed). */
let model: ModelSource | null = null;
/** The trace of the next step under the current settings (what Step would do now). */
let preview: StepOutcome | null = null;
let sampleRun: SampleRun | null = null;
let playTimer: number | undefined;
/** Stop reason of each branch, so switching paths restores it. */
const branchStops = new Map<number, StopReason | null>();

/** A change of settings from any control (the sidebar, a lesson's own slider). */
function changeParams(change: Partial<Params>): void {
  const maxChanged = change.max_new_tokens !== undefined;
  state.params = { ...state.params, ...change };
  syncLimits();
  if (maxChanged && state.stopReason?.kind === "max_tokens" && state.path.length < state.params.max_new_tokens) {
    state.stopReason = null;
    branchStops.set(state.currentBranch, null);
    if (source instanceof ModelSource) source.resume();
  }
  refresh();
}

const controls = createControls({
  onParams: changeParams,
  onNewSeed() {
    const buf = new Uint32Array(1);
    crypto.getRandomValues(buf);
    state.params = { ...state.params, seed: buf[0] ?? 0 };
    refresh();
  },
});
const tokens = createTokens({
  onInspect(index) {
    state.viewing = state.viewing === index ? null : index;
    render();
  },
});
const table = createTable({
  onRows(rows: TableRow[]) {
    if (source instanceof ManualSource) source.setCurrentRows(rows);
    refresh();
  },
});
const inspector = createInspector({
  onForce: force,
  onBackToNext() {
    state.viewing = null;
    render();
  },
});
const sample = createSample({ onSample: (n) => void sampleN(n) });
const tree = createTree({ onSwitch: switchBranch });
const compare = createCompare({ onRun: runCompare });
/** The comparison's own Generator (same weights, separate KV cache), created on first use. */
let compareGen: Generator | null = null;
let compareRun: CompareRun | null = null;

/** A token as charts name it: whitespace made visible, the end token as 「结束符」 / "end". */
const label = (id: number): string => (source.isEos(id) ? t("end.chip") : visible(source.tokenText(id)));

/** The step the inspector shows, with what the core read for it (Find a token, the CSV re-run it). */
function inspectedStep(): InspectedStep | null {
  const pastIndex = state.viewing ?? (finished() ? state.path.length - 1 : null);
  if (pastIndex !== null) {
    const entry = state.path[pastIndex];
    const input = entry?.input;
    return entry === undefined || input === undefined ? null : { input: () => input, chosenId: entry.id, stepNumber: pastIndex + 1 };
  }
  if (preview?.ok !== true) return null;
  return { input: nextInput, chosenId: preview.result.token, stepNumber: state.path.length + 1 };
}
const lookup = createLookup({ inspected: inspectedStep, idOf: (text) => source.idOf(text), label });
const exporter = createExport({ inspected: inspectedStep, tokenText: (id) => source.tokenText(id) });

/**
 * Generate from the current prompt and seed under each comparison setting, on a separate Generator
 * so the main path is untouched. Every token is chosen in wasm (`next`); only the trace is kept.
 */
function runCompare(): void {
  if (!(source instanceof ModelSource) || source.promptError !== null) return;
  compareGen ??= source.spawnGenerator();
  const gen = compareGen;
  if (gen === null) return;
  const columns: CompareColumn[] = COMPARE_SETTINGS.map((setting) => {
    const params = { ...state.params, ...setting.params };
    const tokens: CompareToken[] = [];
    let stop: StopReason | null = null;
    try {
      gen.setPrompt(state.prompt);
      gen.setMaxNewTokens(params.max_new_tokens);
      gen.setStopSequences([...params.stop]);
      for (let i = 0; i < params.max_new_tokens && stop === null; i++) {
        const out = gen.next(stepConfig(params, Array.from(gen.tokens()), gen.promptLength, i, gen.eosId));
        const trace = out.trace;
        if (trace === null) break;
        const entry: PathEntry = { id: out.token, result: trace, chosen: trace.chosen, rank: trace.chosen_rank, forced: false, piece: out.piece, pending: out.pending };
        tokens.push({ display: chipDisplay(entry), p: trace.chosen.p, pRaw: trace.chosen.p_raw });
        stop = stopOf(generatedStop(out));
      }
    } catch (err) {
      return { id: setting.id, tokens, stop, error: messageOf(err) };
    }
    return { id: setting.id, tokens, stop, error: null };
  });
  compareRun = { prompt: state.prompt, seed: state.params.seed, maxNewTokens: state.params.max_new_tokens, columns };
  render();
}

/** How a generated token reads on its chip (model: the text it completed, or its pending byte). */
function chipDisplay(entry: PathEntry): ChipDisplay {
  const token = source.tokenText(entry.id);
  if (source.isEos(entry.id)) return { text: t("end.chip"), token, kind: "eos" };
  if (entry.piece === undefined) return { text: token, token, kind: "text" };
  // bytes that cannot form a character come back spelled `<0xE4>`; shown like byte tokens, `<E4>`
  if (entry.piece !== "") return { text: entry.piece.replace(/<0x([0-9A-F]{2})>/g, "<$1>"), token, kind: "text" };
  if (entry.pending !== undefined && entry.pending.length > 0) {
    return { text: token, token, kind: "pending", pending: bytesLabel(entry.pending) };
  }
  return { text: token, token, kind: "text" };
}

/** A path entry's text for the path tree. */
function entryText(entry: PathEntry): string {
  const shown = chipDisplay(entry);
  return shown.kind === "eos" ? "" : shown.text;
}

// ---- actions -------------------------------------------------------------------------------

function finished(): boolean {
  return state.stopReason !== null;
}

/** The next step's trace under the current settings, or the core's message. */
function config() {
  return stepConfig(state.params, source.history(), source.promptLength(), state.path.length, source.eosId);
}

/** What the core reads for the next step: the source's logits and the config. */
function nextInput(): StepInput {
  const next = syncLogits(source);
  // a server's top N: the rest of the vocabulary's mass goes to the core, never renormalised away
  const rest = next.known.kind === "top" ? { rest_mass: next.known.restMass } : {};
  return { logits: next.logits, config: { ...config(), ...rest } };
}

/** An async source (a model server) has no logits for this context yet: fetch them, then redraw. */
function logitsPending(): boolean {
  // a synchronous source always has them (and its nextLogits() copies them: not asked twice)
  if (!source.capabilities.async || source.nextLogits() !== null) return false;
  if (!awaitingLogits) {
    awaitingLogits = true;
    source.loadNextLogits().then(
      () => {
        awaitingLogits = false;
        refresh();
      },
      (err: unknown) => {
        awaitingLogits = false;
        fail(describeServerError(err));
      },
    );
  }
  return true;
}

function computeNext(input?: StepInput): StepOutcome {
  if (source.promptError !== null) return { ok: false, message: source.promptError };
  const next = input ?? nextInput();
  return runStep(next.logits, next.config);
}

/** The model's generator applies max new tokens and stop sequences itself. */
function syncLimits(): void {
  source.setLimits(state.params.max_new_tokens, state.params.stop);
}

/** A source's stop as the page's stop reason. */
function stopOf(stop: SourceStop | null): StopReason | null {
  return stop === null ? null : stop.kind === "max_tokens" ? { kind: "max_tokens", n: state.params.max_new_tokens } : stop;
}

/**
 * Append a token (chosen by the core or forced) to the source and record it with its step. A source
 * that checks the stop conditions itself (the model, in wasm) says whether generation stopped;
 * for the others they are checked here. False (and the message shown) if the source refuses it.
 */
function commit(id: number, result: StepResult, chosen: Candidate, rank: number, forced: boolean, input: StepInput): boolean {
  let out: Appended;
  try {
    out = source.append(id);
  } catch (err) {
    fail(messageOf(err));
    return false;
  }
  const entry: PathEntry = { id, result, chosen, rank, forced, input };
  if (out.piece !== undefined) entry.piece = out.piece;
  if (out.pending !== undefined) entry.pending = out.pending;
  state.path = [...state.path, entry];
  const branch = state.branches[state.currentBranch];
  if (branch) {
    branch.entries = [...state.path];
    branch.ids = state.path.map((e) => e.id);
  }
  if (out.stop !== undefined) {
    state.stopReason = stopOf(out.stop);
  } else {
    // the text only when there is a stop sequence to look for (it grows with the path)
    const text = state.params.stop.length > 0 ? source.text() : "";
    const matched = state.params.stop.find((s) => s !== "" && text.includes(s));
    if (source.isEos(id)) state.stopReason = { kind: "eos" };
    else if (matched !== undefined) state.stopReason = { kind: "stop_sequence", sequence: matched };
    else if (state.path.length >= state.params.max_new_tokens) state.stopReason = { kind: "max_tokens", n: state.params.max_new_tokens };
  }
  branchStops.set(state.currentBranch, state.stopReason);
  state.viewing = null;
  return true;
}

function fail(message: string): void {
  preview = { ok: false, message };
  render();
}

function stepOnce(): boolean {
  if (finished()) return false;
  if (source.promptError !== null) {
    fail(source.promptError);
    return false;
  }
  if (source.capabilities.async && source.nextLogits() === null) {
    // a server's answer is on its way: step once it lands (a second click meanwhile adds nothing)
    if (!stepQueued) {
      stepQueued = true;
      source.loadNextLogits().then(
        () => {
          stepQueued = false;
          stepOnce();
        },
        (err: unknown) => {
          stepQueued = false;
          fail(describeServerError(err));
        },
      );
    }
    return true;
  }
  // logits → the core's step → append: the same input the preview read
  const input = nextInput();
  const next = computeNext(input);
  if (!next.ok) {
    fail(next.message);
    return false;
  }
  if (!commit(next.result.token, next.result, next.result.chosen, next.result.chosen_rank, false, input)) return false;
  refresh();
  return true;
}

/** Drop generated tokens until `n` remain. */
function rewindTo(n: number): void {
  source.rewind(source.length - n);
}

/** The next step (under the current settings) with `id`'s candidate record in its trace. */
function stepWith(id: number): RecordedStep | string {
  if (source.promptError !== null) return source.promptError;
  if (source.capabilities.async && source.nextLogits() === null) return t("server.noAnswer");
  const input = nextInput();
  return stepRecording(input.logits, input.config, id);
}

/** Append `id` with its step's trace; false (and the message shown) if refused. */
function appendStep(id: number, next: RecordedStep, forced: boolean): boolean {
  return commit(id, next.result, next.chosen, next.rank, forced, next.input);
}

/** Put the source's context at `ids` (the model keeps the tokens it already shares with them). */
function loadPath(ids: readonly number[]): boolean {
  try {
    source.load(ids);
  } catch (err) {
    fail(messageOf(err));
    return false;
  }
  return true;
}

/** A new path on screen that leaves path `parentIndex` after its first `at` tokens. */
function fork(parentIndex: number, at: number): boolean {
  const parent = state.branches[parentIndex];
  if (parent === undefined) return false;
  const kept = parent.entries.slice(0, at);
  if (!loadPath(kept.map((e) => e.id))) return false;
  branchStops.set(state.currentBranch, state.stopReason);
  state.branches.push({ ids: kept.map((e) => e.id), entries: kept, parent: parentIndex, forkAt: at });
  state.currentBranch = state.branches.length - 1;
  state.path = kept;
  state.stopReason = null;
  state.viewing = null;
  return true;
}

/** Force `id` at the inspected step: earlier steps are kept, later ones move to a new branch. */
function force(id: number): void {
  const lastIndex = state.path.length - 1;
  const at = state.viewing ?? (finished() ? lastIndex : state.path.length);
  if (at < 0) return;
  if (at < state.path.length && !fork(state.currentBranch, at)) return;
  const next = stepWith(id);
  if (typeof next === "string") return fail(next);
  if (appendStep(id, next, true)) refresh();
}

/** Force a token the user typed (its text, or `<E4>` for a byte token) at the inspected step. */
function forceTyped(text: string): void {
  const message = el("force-msg");
  const id = source.idOf(text);
  if (id === undefined) {
    message.textContent = t("force.unknown", { token: text });
    return;
  }
  message.textContent = "";
  el<HTMLInputElement>("force-token").value = "";
  force(id);
}

function switchBranch(index: number): void {
  const branch = state.branches[index];
  if (branch === undefined) return;
  pause();
  backfill?.finish(index);
  if (backfill?.waiting.has(index) === true || !loadPath(branch.ids)) return;
  state.path = [...branch.entries];
  state.currentBranch = index;
  state.stopReason = branchStops.get(index) ?? null;
  // the generator refuses to continue a path that had stopped, as the page does
  if (source instanceof ModelSource && state.stopReason !== null) source.stop();
  state.viewing = null;
  refresh();
}

/** Forget every generated token and path (the source is rewound by the caller). */
function clearPaths(): void {
  state.path = [];
  state.branches = [{ ids: [], entries: [], parent: null, forkAt: 0 }];
  state.currentBranch = 0;
  branchStops.clear();
  state.stopReason = null;
  state.viewing = null;
  backfill?.stop();
  backfill = null;
}

function reset(): void {
  pause();
  clearPaths();
  preview = null;
  render();
  syncLimits();
  // a model source reads the whole prompt first; the next step is computed once it is ready
  source.reset(state.prompt).then(refresh, (err: unknown) => fail(messageOf(err)));
}

/** The state a Reset (button or R) cleared, until the page moves on: Undo reset brings it back. */
let beforeReset: Scenario | null = null;

/** Reset from the user: the tokens and paths go, but one Undo brings them back. */
function userReset(): void {
  const before = snapshot();
  reset();
  beforeReset = before.path.length > 0 || before.branches.length > 0 ? before : null;
  render();
}

function undoReset(): void {
  const before = beforeReset;
  beforeReset = null;
  if (before !== null) void apply(before).then(() => el<HTMLButtonElement>("step").focus());
}

/** Undo stays offered only while nothing new happened: no token, the same prompt and source. */
function showUndoReset(): void {
  if (beforeReset !== null && (state.path.length > 0 || state.prompt !== beforeReset.prompt || state.source !== beforeReset.source)) beforeReset = null;
  const button = el<HTMLButtonElement>("reset-undo");
  button.hidden = beforeReset === null;
  button.textContent = t("reset.undo");
  button.title = t("reset.undoName");
}

function selectPreset(preset: ManualPreset): void {
  state.presetId = preset.id;
  state.prompt = preset.prompt;
  if (state.source === "manual") source = new ManualSource(preset);
  reset();
}

function selectSource(kind: SourceKind): void {
  serverChosen = kind === "server";
  if (kind === "server") {
    // the server becomes the source only once Connect has succeeded
    if (serverPanel.source === null) {
      render();
      return;
    }
    state.source = "server";
    source = serverPanel.source;
    reset();
    return;
  }
  state.source = kind === "model" && model !== null ? "model" : "manual";
  if (state.source === "model" && model !== null) source = model;
  else source = new ManualSource(findPreset(state.presetId) ?? firstPreset);
  reset();
}

function userStop(): void {
  pause();
  if (!finished()) {
    if (source instanceof ModelSource) source.stop();
    state.stopReason = { kind: "user" };
    branchStops.set(state.currentBranch, state.stopReason);
  }
  render();
}

function play(): void {
  if (finished()) return;
  state.playing = true;
  const tick = (): void => {
    if (!state.playing) return;
    if (!stepOnce() || finished()) {
      pause();
      return;
    }
    playTimer = window.setTimeout(tick, 1000 / state.tokensPerSecond);
  };
  tick();
  render();
}

function pause(): void {
  state.playing = false;
  window.clearTimeout(playTimer);
  render();
}

/** Drop the last generated token of the path on screen (the model rewinds its KV cache exactly). */
function back(): void {
  if (state.path.length === 0) return;
  pause();
  rewindTo(state.path.length - 1);
  state.path = state.path.slice(0, -1);
  const branch = state.branches[state.currentBranch];
  if (branch) {
    branch.entries = [...state.path];
    branch.ids = state.path.map((e) => e.id);
  }
  // rewinding clears a stop, in the generator and here
  state.stopReason = null;
  branchStops.set(state.currentBranch, null);
  state.viewing = null;
  refresh();
}

/** A token of a scenario as an id of the current source, if it is one. */
function resolveToken(token: number | string): number | undefined {
  if (typeof token === "string") return source.idOf(token);
  return Number.isInteger(token) && token >= 0 && token < source.vocabSize ? token : undefined;
}

/**
 * Append `tokens` to the path on screen, each with one step of the core under the page's settings
 * (same seed and draw, so the same trace as when it was made): a token the core chooses there is
 * recorded as chosen; a forced one, or one the core would not choose, as forced. Stops at the first
 * token that cannot be appended and says why. Nothing is drawn and no preview is computed meanwhile.
 */
function replay(tokens: readonly ScenarioToken[], problems: Problem[], where: () => string): boolean {
  for (const [i, token] of tokens.entries()) {
    const id = resolveToken(token.token);
    const at = (): string => `${where()} ${t("url.token", { n: i + 1 })}`;
    if (id === undefined) {
      problems.push(() => t("url.badToken", { at: at(), token: String(token.token) }));
      return false;
    }
    if (finished()) {
      problems.push(() => t("url.pastStop", { at: at() }));
      return false;
    }
    const next = stepWith(id);
    if (typeof next === "string" || !appendStep(id, next, token.forced || next.result.token !== id)) {
      if (typeof next === "string") fail(next);
      problems.push(() => t("url.badToken", { at: at(), token: String(token.token) }));
      return false;
    }
  }
  return true;
}

/** While a scenario replays, draw nothing (one render at the end). */
let replaying = false;
/** The lesson open in the lessons panel, and the page modes, as the URL records them (the language is `state.lang`). */
const modes: Omit<PageModes, "lang"> = { lesson: null, projector: false, embed: initialUrl.embed };

/** Something the page could not do, worded when shown (so it follows the language toggle). */
type Problem = () => string;

/** `applyScenario` for views: its problems in the current language. */
async function apply(wanted: ScenarioRequest): Promise<string[]> {
  const problems: Problem[] = [];
  await applyScenario(wanted, problems);
  return problems.map((say) => say());
}

/** Links with more tokens than this replay the path on screen first and the others in the background. */
const EAGER_TOKENS = 256;

/** Every path of a scenario as its whole token list (ids of the source), or null if one does not fit. */
function pathTokens(wanted: ScenarioRequest): ScenarioToken[][] | null {
  const paths: ScenarioToken[][] = [wanted.path ?? []];
  for (const branch of wanted.branches ?? []) {
    const parent = paths[branch.parent];
    const first = branch.tokens[0];
    if (parent === undefined || first === undefined || branch.forkAt >= parent.length) return null;
    paths.push([...parent.slice(0, branch.forkAt), { ...first, forced: true }, ...branch.tokens.slice(1)]);
  }
  const resolved: ScenarioToken[][] = [];
  for (const path of paths) {
    const ids: ScenarioToken[] = [];
    for (const token of path) {
      const id = resolveToken(token.token);
      if (id === undefined) return null;
      ids.push({ token: id, forced: token.forced });
    }
    resolved.push(ids);
  }
  return resolved;
}

/**
 * A long model link whose paths fit its settings (no end-of-sequence inside a path, none longer than
 * max new tokens): replay only the path on screen now, and the other paths on a Generator of their
 * own after the page is ready. False, with nothing changed, for any other link (replayed whole).
 * Only a hand-made link can still stop inside a path that waits (a stop sequence): it is cut there
 * and said so in the notice, as a link replayed whole would.
 */
function replayShownPath(wanted: ScenarioRequest, problems: Problem[]): boolean {
  if (!(source instanceof ModelSource) || model === null) return false;
  const paths = pathTokens(wanted);
  const shown = wanted.current ?? (wanted.branches?.length ?? 0);
  const count = (wanted.path?.length ?? 0) + (wanted.branches ?? []).reduce((sum, b) => sum + b.tokens.length, 0);
  const tokens = paths?.[shown];
  if (paths === null || tokens === undefined || count <= EAGER_TOKENS) return false;
  const eos = (token: ScenarioToken): boolean => source.isEos(token.token as number);
  if (paths.some((path) => path.length > state.params.max_new_tokens || path.slice(0, -1).some(eos))) return false;
  const here: Problem[] = [];
  if (!replay(tokens, here, () => t("url.path", { n: shown + 1 }))) {
    // something this check did not foresee: start again and replay the link whole
    clearPaths();
    rewindTo(0);
    return false;
  }
  problems.push(...here);
  const entries = state.path;
  state.branches = paths.map((path, i) => {
    const branch = i === 0 ? null : (wanted.branches ?? [])[i - 1];
    return { ids: path.map((token) => token.token as number), entries: i === shown ? [...entries] : [], parent: branch?.parent ?? null, forkAt: branch?.forkAt ?? 0 };
  });
  state.currentBranch = shown;
  branchStops.clear();
  branchStops.set(shown, state.stopReason);
  const rest = new Map(paths.map((path, i): [number, ScenarioToken[]] => [i, path]).filter(([i]) => i !== shown));
  backfill = startBackfill(rest, state.prompt, { ...state.params, stop: [...state.params.stop] });
  return true;
}

/** The opening link's paths still being rebuilt in the background (null when there are none). */
let backfill: Backfill | null = null;
let backfillGen: Generator | null = null;

/** Rebuild `waiting` paths in the background; each one joins the page when it is in. */
function startBackfill(waiting: Map<number, ScenarioToken[]>, prompt: string, params: Params): Backfill | null {
  const spawn = model;
  if (spawn === null) return null;
  const makeFiller = (): PathFiller => {
    backfillGen ??= spawn.spawnGenerator();
    if (backfillGen === null) throw new Error("the model cannot be loaded twice");
    return new PathFiller(backfillGen, prompt, params);
  };
  const run = new Backfill(makeFiller, waiting, {
    onFilled(index, filled, given) {
      const branch = state.branches[index];
      if (branch === undefined) return;
      branch.entries = filled.entries;
      branch.ids = filled.entries.map((e) => e.id);
      branchStops.set(index, filled.last === null ? null : stopOf(generatedStop(filled.last)));
      if (filled.error !== null) {
        // a link the page did not write (a stop, or a token refused, inside a path): said as `replay` says it
        const token = String(given[filled.entries.length]?.token ?? "");
        const at = (): string => `${t("url.path", { n: index + 1 })} ${t("url.token", { n: filled.entries.length + 1 })}`;
        linkProblems.push(filled.last?.stop != null ? () => t("url.pastStop", { at: at() }) : () => t("url.badToken", { at: at(), token }));
        el("url-notice").hidden = false;
        showNotice();
      }
      if (waiting.size === 0) backfill = null;
      render();
    },
    onError: fail,
  });
  run.start();
  return run;
}

/**
 * Put the page in a scenario's exact state: input, every parameter, then the tokens of every path
 * replayed through the core. Fields left out take their defaults (a lesson is reproducible).
 */
async function applyScenario(wanted: ScenarioRequest, problems: Problem[], defer = false): Promise<void> {
  pause();
  const preset = findPreset(wanted.presetId ?? "") ?? (wanted.presetId === undefined ? findPreset(state.presetId) : undefined) ?? firstPreset;
  state.presetId = preset.id;
  state.prompt = wanted.prompt ?? preset.prompt;
  state.params = { ...DEFAULT_PARAMS, ...wanted.params };
  const kind = wanted.source ?? state.source;
  if (kind === "model" && model === null) problems.push(() => t("url.noModel"));
  const server = kind === "server" ? serverPanel.source : null;
  serverChosen = server !== null;
  state.source = server !== null ? "server" : kind === "model" && model !== null ? "model" : "manual";
  if (server !== null) {
    source = server;
    server.preload = scenarioPaths(wanted);
  } else if (state.source === "model" && model !== null) source = model;
  else {
    const manual = new ManualSource(preset);
    // edits in table order, so the vocabulary (and the ids a link carries) come out the same
    for (const table of [...(wanted.tables ?? [])].sort((a, b) => a.index - b.index)) {
      if (!manual.setRows(table.index, table.rows)) problems.push(() => t("url.badTable", { n: table.index }));
    }
    source = manual;
  }
  compareRun = null;
  clearPaths();
  syncLimits();
  replaying = true;
  try {
    try {
      await source.reset(state.prompt);
    } catch {
      refresh(); // the prompt error is shown; nothing can be replayed
      return;
    }
    refresh();
    if (!(defer && replayShownPath(wanted, problems))) {
      if (!replay(wanted.path ?? [], problems, () => t("url.path", { n: 1 }))) return;
      for (const [i, branch] of (wanted.branches ?? []).entries()) {
        const parent = state.branches[branch.parent];
        const first = branch.tokens[0];
        const where = (): string => t("url.path", { n: i + 2 });
        const fits = parent !== undefined && first !== undefined && branch.forkAt < parent.entries.length && resolveToken(first.token) !== undefined;
        if (!fits || !fork(branch.parent, branch.forkAt)) {
          problems.push(() => t("url.badBranch", { at: where() }));
          break;
        }
        // a path starts with the token forced where it left its parent (as `force` made it)
        const replayed = replay([{ ...first, forced: true }, ...branch.tokens.slice(1)], problems, where);
        if (state.path.length === branch.forkAt) {
          // not even its first token: no empty path is kept (the page's link could not say it)
          state.branches.pop();
          branchStops.delete(state.branches.length);
          switchBranch(branch.parent);
        }
        if (!replayed) break;
      }
      const current = wanted.current ?? state.branches.length - 1;
      if (wanted.branches !== undefined && current < state.branches.length && current !== state.currentBranch) switchBranch(current);
    }
    if (wanted.stopped === true) userStop();
    if (wanted.viewing !== undefined && wanted.viewing !== null && wanted.viewing < state.path.length) state.viewing = wanted.viewing;
  } finally {
    replaying = false;
    refresh();
  }
}

/** Every path of a scenario as token ids from the start (a branch: its parent's first tokens, then its own). */
function scenarioPaths(wanted: ScenarioRequest): number[][] {
  const ids = (tokens: readonly ScenarioToken[]): number[] => tokens.map((x) => x.token).filter((x): x is number => typeof x === "number");
  const paths = [ids(wanted.path ?? [])];
  for (const b of wanted.branches ?? []) paths.push([...(paths[b.parent] ?? []).slice(0, b.forkAt), ...ids(b.tokens)]);
  return paths;
}

/**
 * The page's state as a scenario (what a link records). With edited hand-made tables, token ids
 * are given as the vocabulary `apply` will rebuild (preset, then edits in table order) numbers them.
 */
function snapshot(): Scenario {
  let idOf = (id: number): number => id;
  const tables = source instanceof ManualSource ? source.edits() : [];
  if (source instanceof ManualSource && tables.length > 0) {
    const rebuilt = new ManualSource(source.preset);
    for (const table of tables) rebuilt.setRows(table.index, table.rows);
    const current = source;
    idOf = (id) => rebuilt.idOf(current.tokenText(id)) ?? id;
  }
  const tokensOf = (entries: readonly PathEntry[]): ScenarioToken[] => entries.map((e) => ({ token: idOf(e.id), forced: e.forced }));
  // a path of the opening link still being rebuilt is written as the link gave it
  const pathOf = (index: number): ScenarioToken[] => backfill?.waiting.get(index) ?? tokensOf(state.branches[index]?.entries ?? []);
  return {
    source: state.source,
    presetId: state.presetId,
    prompt: state.prompt,
    params: { ...state.params, stop: [...state.params.stop] },
    path: pathOf(0),
    branches: state.branches.slice(1).map((b, i) => ({ parent: b.parent ?? 0, forkAt: b.forkAt, tokens: pathOf(i + 1).slice(b.forkAt) })),
    current: state.currentBranch,
    stopped: state.stopReason?.kind === "user",
    viewing: state.viewing,
    tables,
  };
}

/** The model's next-token distribution after another prompt, on its own generator. */
let glimpseGen: Generator | null = null;
function glimpse(prompt: string, params: Params): Glimpse | string {
  if (model === null) return t("url.noModel");
  glimpseGen ??= model.spawnGenerator();
  if (glimpseGen === null) return t("url.noModel");
  try {
    glimpseGen.setPrompt(prompt);
    const out = runStep(glimpseGen.logits(), { ...stepConfig(params, [], 0, 0), trace_top: 64 });
    if (!out.ok) return out.message;
    const text = (id: number): string => visible(model?.tokenText(id) ?? "");
    const byRaw = [...out.result.candidates].sort((a, b) => b.p_raw - a.p_raw);
    return {
      kept: out.result.candidates.filter((c) => c.kept).map((c) => ({ text: text(c.id), p: c.p })),
      top: byRaw.slice(0, 10).map((c) => ({ text: text(c.id), p: c.p_raw, pTempered: c.p_tempered, kept: c.kept })),
      keptCount: out.result.kept_count,
      vocabSize: out.result.vocab_size,
    };
  } catch (err) {
    return messageOf(err);
  }
}

const renderListeners: Array<() => void> = [];

const actions: Actions = {
  apply,
  snapshot,
  step: stepOnce,
  back,
  reset: userReset,
  togglePlay: () => (state.playing ? pause() : play()),
  state: () => state,
  preview: () => preview,
  modelReady: () => model !== null,
  onRender: (listener) => renderListeners.push(listener),
  glimpse,
  tokenText: label,
  setParams: changeParams,
};

const lessons = createLessons(actions, {
  onLesson(id) {
    modes.lesson = id;
    render();
  },
});
const share = createShare(() => ({ query: pageQuery(false), title: state.prompt }));

/** The query for the page's state; `forAddressBar` keeps the page's own modes (embed, projector). */
function pageQuery(forAddressBar: boolean): URLSearchParams {
  const server = serverPanel.source === null ? undefined : { url: serverPanel.source.info.url, api: serverPanel.api() };
  return scenarioQuery(snapshot(), { ...modes, lang: state.lang, embed: forAddressBar && modes.embed, projector: forAddressBar && modes.projector, server });
}

const projector = createProjector(actions, {
  onChange(on) {
    modes.projector = on;
    render();
  },
});

/** N draws of the next token (draw = 0 … N−1 of the seed), in chunks so the page stays responsive. */
async function sampleN(n: number): Promise<void> {
  if (finished() || preview === null || !preview.ok) return;
  const logits = syncLogits(source).logits;
  const base = stepConfig(state.params, source.history(), source.promptLength(), 0, source.eosId);
  const counts = new Map<number, number>();
  for (let start = 0; start < n; start += 2000) {
    for (let draw = start; draw < Math.min(n, start + 2000); draw++) {
      const out = runStep(logits, { ...base, draw, trace_top: 1 });
      if (!out.ok) return;
      counts.set(out.result.token, (counts.get(out.result.token) ?? 0) + 1);
    }
    await new Promise((resolve) => window.setTimeout(resolve, 0));
  }
  sampleRun = { n, counts };
  render();
}

// ---- rendering -----------------------------------------------------------------------------

/** Settings or context changed: recompute the next step, then redraw. */
function refresh(): void {
  if (!finished() && source.promptError === null && logitsPending()) {
    preview = null;
    sampleRun = null;
    render();
    return;
  }
  preview = finished() ? null : computeNext();
  sampleRun = null;
  render();
}

function inspected(): InspectorInput | null {
  const pastIndex = state.viewing ?? (finished() ? state.path.length - 1 : null);
  if (pastIndex !== null) {
    const entry = state.path[pastIndex];
    const returnable = state.viewing !== null && !finished();
    return entry
      ? { result: entry.result, chosenId: entry.id, forced: entry.forced, stepNumber: pastIndex + 1, past: true, returnable, label }
      : null;
  }
  if (preview?.ok) {
    const r = preview.result;
    return { result: r, chosenId: r.token, forced: false, stepNumber: state.path.length + 1, past: false, returnable: false, label };
  }
  return null;
}

function render(): void {
  if (replaying) return;
  const input = inspected();
  controls.render(state.params);
  const prompt = el<HTMLTextAreaElement>("prompt");
  if (document.activeElement !== prompt) prompt.value = state.prompt;
  showPreset();
  el<HTMLSelectElement>("source").value = serverChosen ? "server" : state.source;
  document.body.dataset["source"] = serverChosen ? "server" : state.source;
  serverPanel.render(state.source === "server" && preview?.ok && state.viewing === null ? preview.result.rest : null);
  tokens.render(state, chipDisplay);
  tipChips(state.path, label);
  if (source instanceof ManualSource) table.render(source.currentRows(), source.preset.eos, !finished());
  tree.render(state, entryText);

  const error = el("error");
  error.hidden = preview === null || preview.ok;
  if (preview !== null && !preview.ok) {
    const prefix = source instanceof ModelSource && source.promptError !== null ? t("error.prompt") : t("error.prefix");
    error.textContent = `${prefix} ${coreMessage(preview.message)}`;
  }
  el<HTMLFormElement>("force-form").hidden = input === null;

  inspector.render(input);
  lookup.render();
  exporter.render();
  const view = preview?.ok && state.viewing === null ? buildView({ result: preview.result, chosenId: preview.result.token, forced: false, stepNumber: 0, past: false, returnable: false, label }, force) : null;
  sample.render(view, sampleRun, view !== null);

  // a prompt the model cannot read leaves nothing to step
  const blocked = !(source instanceof ManualSource) && source.promptError !== null;
  el<HTMLButtonElement>("step").disabled = finished() || state.playing || blocked;
  const playButton = el<HTMLButtonElement>("play");
  playButton.textContent = state.playing ? t("transport.pause") : t("transport.play");
  playButton.disabled = (finished() || blocked) && !state.playing;
  el<HTMLButtonElement>("stop").disabled = finished();
  showUndoReset();
  el("stop-reason").textContent = state.stopReason === null ? "" : stopText(state.stopReason);
  el("generated").dataset["finished"] = String(finished());
  compare.render(compareRun, source instanceof ModelSource && source.promptError === null && !state.playing, !(source instanceof ModelSource), stopText);
  if (document.body.dataset["ready"] === "true") {
    const query = pageQuery(true);
    writeUrl(query);
    // embed mode's way out: the same state in a full page
    const full = new URLSearchParams(query);
    full.delete("embed");
    el<HTMLAnchorElement>("open-full").href = `?${full.toString()}`;
  }
  // after the address bar has the new state: the handout prints its link
  renderHandout(state.params, el("inspector-step").textContent ?? "");
  for (const listener of renderListeners) listener();
}

function stopText(reason: StopReason): string {
  switch (reason.kind) {
    case "eos":
      return t("stop.eos");
    case "max_tokens":
      return t("stop.max_tokens", { n: reason.n });
    case "stop_sequence":
      return t("stop.stop_sequence", { s: reason.sequence });
    case "user":
      return t("stop.user");
    case "context_full":
      return t("stop.context_full");
  }
}

function fillPresets(): void {
  const select = el<HTMLSelectElement>("preset");
  select.replaceChildren(
    ...(["zh", "en"] as const).map((group) => {
      const optgroup = document.createElement("optgroup");
      optgroup.label = group === "zh" ? "中文" : "English";
      for (const p of PRESETS.filter((x) => x.lang === group)) {
        const option = document.createElement("option");
        option.value = p.id;
        option.textContent = p.prompt;
        optgroup.append(option);
      }
      return optgroup;
    }),
  );
  // shown (not offered) when a lesson or the user changed the prompt away from every preset
  const custom = new Option(t("preset.custom"), "custom");
  custom.id = "preset-custom";
  custom.disabled = true;
  custom.hidden = true;
  select.prepend(custom);
  select.value = state.presetId;
}

/** The Preset menu names the preset only while the prompt is still its prompt; otherwise "custom". */
function showPreset(): void {
  const select = el<HTMLSelectElement>("preset");
  const custom = el<HTMLOptionElement>("preset-custom");
  custom.textContent = t("preset.custom");
  select.value = findPreset(state.presetId)?.prompt === state.prompt ? state.presetId : custom.value;
}

const settingsDrawer = createSettingsDrawer();

function switchLang(next: Lang): void {
  state.lang = next;
  setLang(next);
  translateDocument();
  settingsDrawer.render();
  showNotice();
  render();
}

// ---- wiring --------------------------------------------------------------------------------

function wire(): void {
  el<HTMLButtonElement>("step").addEventListener("click", () => void stepOnce());
  el<HTMLButtonElement>("play").addEventListener("click", () => (state.playing ? pause() : play()));
  el<HTMLButtonElement>("stop").addEventListener("click", userStop);
  el<HTMLButtonElement>("reset").addEventListener("click", userReset);
  el<HTMLButtonElement>("reset-undo").addEventListener("click", undoReset);
  el<HTMLButtonElement>("share-open").addEventListener("click", () => share.open());
  el<HTMLButtonElement>("url-notice-close").addEventListener("click", () => {
    el("url-notice").hidden = true;
  });
  el<HTMLButtonElement>("lang-toggle").addEventListener("click", () => switchLang(lang() === "zh" ? "en" : "zh"));
  const speed = el<HTMLInputElement>("speed");
  speed.value = String(state.tokensPerSecond);
  speed.addEventListener("input", () => {
    state.tokensPerSecond = Number(speed.value);
  });
  el<HTMLSelectElement>("preset").addEventListener("change", (event) => {
    const preset = findPreset((event.target as HTMLSelectElement).value);
    if (preset) selectPreset(preset);
  });
  el<HTMLSelectElement>("source").addEventListener("change", (event) => {
    const value = (event.target as HTMLSelectElement).value;
    selectSource(value === "model" || value === "server" ? value : "manual");
  });
  const forceForm = el<HTMLFormElement>("force-form");
  forceForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const input = el<HTMLInputElement>("force-token");
    if (input.value !== "") forceTyped(input.value);
  });
  const prompt = el<HTMLTextAreaElement>("prompt");
  prompt.value = state.prompt;
  prompt.addEventListener("change", () => {
    state.prompt = prompt.value;
    reset();
  });
}

/** What the opening link asked for and the page could not do (kept to re-word on a language switch). */
let linkProblems: Problem[] = [];

/** The link's problems (plain text; nothing from a URL is markup), in the current language. */
function showNotice(): void {
  const notice = el("url-notice");
  if (linkProblems.length === 0) notice.hidden = true;
  el("url-notice-list").replaceChildren(
    ...linkProblems.map((say) => {
      const li = document.createElement("li");
      li.textContent = say();
      return li;
    }),
  );
}

/** The loading line: what is loading and, for the model, a progress bar over the bytes received. */
function showProgress(progress: LoadProgress | null): void {
  const bar = el<HTMLProgressElement>("load-progress");
  const bytes = el("load-bytes");
  if (progress === null) {
    bar.removeAttribute("value");
    bytes.textContent = "";
    return;
  }
  if (progress.total === null) {
    bar.removeAttribute("value");
    bytes.textContent = bytesSize(progress.loaded);
  } else {
    bar.max = progress.total;
    bar.value = progress.loaded;
    bytes.textContent = t("loading.bytes", { loaded: bytesSize(progress.loaded), total: bytesSize(progress.total) });
  }
}

async function boot(): Promise<void> {
  translateDocument();
  fillPresets();
  wire();
  installTips();
  // the ? overlay, P and F work while the model loads; the rest waits for body[data-ready]
  installShortcuts(actions, {
    toggleProjector: () => projector.toggle(),
    toggleFullscreen: () => projector.toggleFullscreen(),
    openLesson: (index) => {
      const id = LESSON_IDS[index];
      if (id !== undefined) lessons.open(id);
    },
  });
  const loadingText = el("loading-text");
  loadingText.textContent = t("loading");
  showProgress(null);
  // while loading, the page shows its settings but cannot be used (and says it is busy)
  const layout = document.querySelector<HTMLElement>("main.layout");
  layout?.setAttribute("inert", "");
  layout?.setAttribute("aria-busy", "true");
  document.body.dataset["loading"] = "true";
  document.body.dataset["source"] = initialUrl.source ?? "model";
  controls.render(state.params);
  try {
    await initCore();
  } catch (err) {
    el("loading").hidden = true;
    delete document.body.dataset["loading"];
    const error = el("error");
    error.hidden = false;
    error.textContent = messageOf(err);
    return;
  }
  loadingText.textContent = t("loading.model");
  showProgress({ loaded: 0, total: null });
  try {
    model = await loadModel(MODEL_FILES, showProgress);
  } catch (err) {
    const alert = el("model-error");
    alert.hidden = false;
    alert.textContent = t("model.failed", { message: coreMessage(messageOf(err)) });
  }
  el("loading").hidden = true;
  layout?.removeAttribute("inert");
  layout?.removeAttribute("aria-busy");
  delete document.body.dataset["loading"];
  el<HTMLOptionElement>("source-model").disabled = model === null;
  // the link's state, replayed exactly (its problems, field by field, in one visible notice)
  linkProblems = urlProblems.map((problem) => () => problemText(problem));
  const fromLink: ScenarioRequest = {
    source: initialUrl.source ?? "model",
    presetId: initialUrl.presetId ?? firstPreset.id,
    prompt: initialUrl.prompt,
    // a first visit (no seed in the link) starts from typical draws; a link's seed is kept exactly
    params: { seed: FIRST_VISIT.seed, ...initialUrl.params },
    path: initialUrl.path,
    branches: initialUrl.branches,
    current: initialUrl.current,
    stopped: initialUrl.stopped,
    viewing: initialUrl.viewing,
    tables: initialUrl.tables,
  };
  // a server link's tokens are the server's ids: kept for Connect, not replayed on the embedded model
  if (initialUrl.source === "server") serverLink = fromLink;
  const shown: ScenarioRequest =
    initialUrl.source === "server" ? { source: "model", presetId: fromLink.presetId, prompt: fromLink.prompt, params: fromLink.params } : fromLink;
  await applyScenario(shown, linkProblems, true);
  // a server link fills in the Server address and waits for Connect: the embedded model meanwhile
  if (initialUrl.source === "server") {
    serverChosen = true;
    serverPanel.prefill(initialUrl.server ?? serverPanel.address(), initialUrl.api ?? null);
  }
  el("url-notice").hidden = linkProblems.length === 0;
  showNotice();
  if (initialUrl.projector) projector.set(true);
  if (initialUrl.lesson !== undefined && isLessonId(initialUrl.lesson)) lessons.open(initialUrl.lesson, false);
  document.body.dataset["ready"] = "true";
  render();
}

void boot();
