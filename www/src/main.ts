// Boot and the one-way loop: an input event changes `state`, the core's `step` runs on the source's
// logits, and every view redraws from the state and the trace. Views never call each other or wasm.
import { initCore, runStep } from "./core";
import type { StepOutcome, StepResult } from "./core";
import { visible } from "./format";
import { lang, setLang, t, translateDocument } from "./i18n/index";
import type { Lang } from "./i18n/index";
import { findPreset, PRESETS } from "./presets";
import type { ManualPreset } from "./presets";
import { ManualSource } from "./source";
import type { TableRow } from "./source";
import { DEFAULT_PARAMS, stepConfig } from "./state";
import type { AppState, PathEntry, StopReason } from "./state";
import { browserLang, readUrl, writeUrl } from "./url";
import { createControls, el } from "./views/controls";
import { buildView, createInspector } from "./views/inspector";
import type { InspectorInput } from "./views/inspector";
import { createSample } from "./views/sample";
import type { SampleRun } from "./views/sample";
import { createTable } from "./views/table";
import { createTokens } from "./views/tokens";
import { createTree } from "./views/tree";

const initialLang: Lang = readUrl().lang ?? browserLang();
setLang(initialLang);
const firstPreset = PRESETS.find((p) => p.lang === initialLang) ?? PRESETS[0];
if (firstPreset === undefined) throw new Error("no presets");

const state: AppState = {
  lang: initialLang,
  presetId: firstPreset.id,
  prompt: firstPreset.prompt,
  params: { ...DEFAULT_PARAMS },
  path: [],
  branches: [{ ids: [], entries: [], parent: null, forkAt: 0 }],
  currentBranch: 0,
  viewing: null,
  stopReason: null,
  playing: false,
  tokensPerSecond: 3,
};
let source = new ManualSource(firstPreset);
/** The trace of the next step under the current settings (what Step would do now). */
let preview: StepOutcome | null = null;
let sampleRun: SampleRun | null = null;
let playTimer: number | undefined;
/** Stop reason of each branch, so switching paths restores it. */
const branchStops = new Map<number, StopReason | null>();

const controls = createControls({
  onParams(change) {
    const maxChanged = change.max_new_tokens !== undefined;
    state.params = { ...state.params, ...change };
    if (maxChanged && state.stopReason?.kind === "max_tokens" && state.path.length < state.params.max_new_tokens) {
      state.stopReason = null;
    }
    refresh();
  },
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
    source.setCurrentRows(rows);
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

const label = (id: number): string => visible(source.tokenText(id));

// ---- actions -------------------------------------------------------------------------------

function finished(): boolean {
  return state.stopReason !== null;
}

/** The next step's trace under the current settings, or the core's message. */
function computeNext(): StepOutcome {
  const config = stepConfig(state.params, source.history(), source.promptLength(), state.path.length);
  return runStep(source.logits(), config);
}

/** Append a token (chosen by the core or forced) and check the stop conditions. */
function commit(id: number, result: StepResult, forced: boolean): void {
  const rank = result.candidates.findIndex((c) => c.id === id);
  const chosen = forced ? result.candidates[rank] : result.chosen;
  if (chosen === undefined) return;
  source.append(id);
  const entry: PathEntry = { id, result, chosen, rank: forced ? rank : result.chosen_rank, forced };
  state.path = [...state.path, entry];
  const branch = state.branches[state.currentBranch];
  if (branch) {
    branch.entries = [...state.path];
    branch.ids = state.path.map((e) => e.id);
  }
  const text = source.text();
  const matched = state.params.stop.find((s) => s !== "" && text.includes(s));
  if (source.isEos(id)) state.stopReason = { kind: "eos" };
  else if (matched !== undefined) state.stopReason = { kind: "stop_sequence", sequence: matched };
  else if (state.path.length >= state.params.max_new_tokens) state.stopReason = { kind: "max_tokens", n: state.params.max_new_tokens };
  branchStops.set(state.currentBranch, state.stopReason);
  state.viewing = null;
}

function stepOnce(): boolean {
  if (finished()) return false;
  const next = computeNext();
  if (!next.ok) {
    preview = next;
    render();
    return false;
  }
  commit(next.result.token, next.result, false);
  refresh();
  return true;
}

/** Force `id` at the inspected step: earlier steps are kept, later ones move to a new branch. */
function force(id: number): void {
  const lastIndex = state.path.length - 1;
  const at = state.viewing ?? (finished() ? lastIndex : state.path.length);
  if (at < 0) return;
  if (at < state.path.length) {
    const parent = state.currentBranch;
    branchStops.set(parent, state.stopReason);
    const kept = state.path.slice(0, at);
    state.branches.push({ ids: kept.map((e) => e.id), entries: kept, parent, forkAt: at });
    state.currentBranch = state.branches.length - 1;
    while (source.length > at) source.rewind();
    state.path = kept;
    state.stopReason = null;
  }
  const next = computeNext();
  if (!next.ok) {
    preview = next;
    render();
    return;
  }
  commit(id, next.result, true);
  refresh();
}

function switchBranch(index: number): void {
  const branch = state.branches[index];
  if (branch === undefined) return;
  pause();
  while (source.length > 0) source.rewind();
  for (const e of branch.entries) source.append(e.id);
  state.path = [...branch.entries];
  state.currentBranch = index;
  state.stopReason = branchStops.get(index) ?? null;
  state.viewing = null;
  refresh();
}

function reset(): void {
  pause();
  state.path = [];
  state.branches = [{ ids: [], entries: [], parent: null, forkAt: 0 }];
  state.currentBranch = 0;
  branchStops.clear();
  state.stopReason = null;
  state.viewing = null;
  preview = null;
  render();
  // a model source may need time to read the prompt; the next step is computed once it is ready
  void source.reset(state.prompt).then(refresh);
}

function selectPreset(preset: ManualPreset): void {
  state.presetId = preset.id;
  state.prompt = preset.prompt;
  source = new ManualSource(preset);
  reset();
}

function userStop(): void {
  pause();
  if (!finished()) {
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

/** N draws of the next token (draw = 0 … N−1 of the seed), in chunks so the page stays responsive. */
async function sampleN(n: number): Promise<void> {
  if (finished() || preview === null || !preview.ok) return;
  const logits = source.logits();
  const base = stepConfig(state.params, source.history(), source.promptLength(), 0);
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
  controls.render(state.params);
  const prompt = el<HTMLTextAreaElement>("prompt");
  if (document.activeElement !== prompt) prompt.value = state.prompt;
  el<HTMLSelectElement>("preset").value = state.presetId;
  tokens.render(state, (id) => source.tokenText(id), (id) => source.isEos(id));
  table.render(source.currentRows(), source.preset.eos, !finished());
  tree.render(state, (id) => source.tokenText(id));

  const error = el("error");
  error.hidden = preview === null || preview.ok;
  if (preview !== null && !preview.ok) error.textContent = `${t("error.prefix")} ${preview.message}`;

  const input = inspected();
  inspector.render(input);
  const view = preview?.ok && state.viewing === null ? buildView({ result: preview.result, chosenId: preview.result.token, forced: false, stepNumber: 0, past: false, returnable: false, label }, force) : null;
  sample.render(view, sampleRun, view !== null);

  el<HTMLButtonElement>("step").disabled = finished() || state.playing;
  const playButton = el<HTMLButtonElement>("play");
  playButton.textContent = state.playing ? t("transport.pause") : t("transport.play");
  playButton.disabled = finished() && !state.playing;
  el<HTMLButtonElement>("stop").disabled = finished();
  el("stop-reason").textContent = state.stopReason === null ? "" : stopText(state.stopReason);
  el("generated").dataset["finished"] = String(finished());
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
  select.value = state.presetId;
}

function switchLang(next: Lang): void {
  state.lang = next;
  setLang(next);
  translateDocument();
  writeUrl({ lang: next });
  render();
}

// ---- wiring --------------------------------------------------------------------------------

function wire(): void {
  el<HTMLButtonElement>("step").addEventListener("click", () => void stepOnce());
  el<HTMLButtonElement>("play").addEventListener("click", () => (state.playing ? pause() : play()));
  el<HTMLButtonElement>("stop").addEventListener("click", userStop);
  el<HTMLButtonElement>("reset").addEventListener("click", reset);
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
  const prompt = el<HTMLTextAreaElement>("prompt");
  prompt.value = state.prompt;
  prompt.addEventListener("change", () => {
    state.prompt = prompt.value;
    reset();
  });
}

async function boot(): Promise<void> {
  translateDocument();
  fillPresets();
  wire();
  try {
    await initCore();
  } catch (err) {
    const error = el("error");
    error.hidden = false;
    error.textContent = err instanceof Error ? err.message : String(err);
    return;
  } finally {
    el("loading").hidden = true;
  }
  writeUrl({ lang: state.lang });
  refresh();
  document.body.dataset["ready"] = "true";
}

void boot();
