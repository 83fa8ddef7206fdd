// The playground's view: every DOM piece of the page around the charts, drawn from the playground
// (its state, preview and source) after each change it notifies. Views send actions back to the
// playground and never change its state or call wasm themselves.
import { coreMessage, t } from "../i18n/index";
import type { Playground } from "../playground/playground";
import { findPreset, PRESETS } from "../presets";
import type { PageModes } from "../scenario";
import { ManualSource } from "../sources/manual";
import type { InspectedStep } from "../export/step";
import type { StepInput, StopReason } from "../state";
import { scenarioQuery } from "../url";
import { writeUrl } from "../address";
import { snapshot } from "../playground/scenarios";
import { chartLabel, chipDisplay, entryText } from "./chip-display";
import { tipChips } from "./chip-tips";
import { createCompare } from "./compare";
import { createControls, el } from "./controls";
import { createExport } from "./export";
import { renderHandout } from "./handout";
import { buildView, createInspector } from "./inspector";
import type { InspectorInput } from "./inspector";
import { createLookup } from "./lookup";
import type { ServerPanel } from "./server-panel";
import { createSample } from "./sample";
import { createTable } from "./table";
import { createTokens } from "./tokens";
import { createStepAnnouncer } from "./step-announcer";
import { createTree } from "./tree";
import { markPrompt, promptErrorText } from "./prompt-error";
import { undoOffered } from "../playground/undo-reset";
import { say } from "../lessons/kit";

/** While Play runs, the longest the address bar lags the token on screen. */
const ADDRESS_EVERY_MS = 1000;

export interface PageView {
  /** Draw everything from the playground (also called for changes outside it: modes, language). */
  render(): void;
  /** The lesson open and the page modes, as the URL records them (the language is the state's). */
  readonly modes: Omit<PageModes, "lang">;
  /** The query for the page's state; `forAddressBar` keeps the page's own modes (embed, projector). */
  pageQuery(forAddressBar: boolean): URLSearchParams;
  /** A token as the charts name it, in the current source. */
  label(id: number): string;
  /** The sidebar's controls (drawn before the page is ready too). */
  renderControls(): void;
  /** Called after every render (lessons, projector mode). */
  onRender(listener: () => void): void;
}

/**
 * Builds the page's views over `pg` (with the model server's panel) and subscribes their drawing to
 * it. `heldLink`: the page's query as the opening server link waiting for Connect shows it (the
 * address bar and Share: its server fields over the current settings), or null.
 */
export function createPage(
  pg: Playground,
  embed: boolean,
  serverPanel: ServerPanel,
  heldLink: (current: URLSearchParams) => URLSearchParams | null = () => null,
): PageView {
  const { state } = pg;
  const controls = createControls({
    onParams: (change) => pg.dispatch({ type: "setParams", change }),
    onNewSeed() {
      const buf = new Uint32Array(1);
      crypto.getRandomValues(buf);
      pg.dispatch({ type: "setParams", change: { seed: buf[0] ?? 0 } });
    },
  });
  const tokens = createTokens({ onInspect: (index) => pg.dispatch({ type: "inspect", index }) });
  const announcer = createStepAnnouncer(el("stop-reason").parentElement ?? document.body);
  const table = createTable({ onRows: (rows) => pg.dispatch({ type: "setRows", rows }) });
  const force = (id: number): void => pg.dispatch({ type: "force", id });
  const inspector = createInspector({ onForce: force, onBackToNext: () => pg.dispatch({ type: "inspectNext" }) });
  const sample = createSample({ onSample: (n) => pg.dispatch({ type: "sample", n }) });
  const tree = createTree({ onSwitch: (index) => pg.dispatch({ type: "switchBranch", index }) });
  const compare = createCompare({ onRun: () => pg.dispatch({ type: "compare" }), onStop: () => pg.dispatch({ type: "stopCompare" }) });
  const label = (id: number): string => chartLabel(pg.source, id);
  const lookup = createLookup({ inspected: () => inspectedStep(pg), idOf: (text) => pg.source.idOf(text), label });
  const exporter = createExport({ inspected: () => inspectedStep(pg), tokenText: (id) => pg.source.tokenText(id) });
  const modes: Omit<PageModes, "lang"> = { lesson: null, projector: false, embed };
  const listeners: Array<() => void> = [];

  function pageQuery(forAddressBar: boolean): URLSearchParams {
    const server = serverPanel.source === null ? undefined : { url: serverPanel.source.info.url, api: serverPanel.api() };
    const current = scenarioQuery(snapshot(pg), { ...modes, lang: state.lang, embed: forAddressBar && modes.embed, projector: forAddressBar && modes.projector, server });
    // a server link waiting for Connect: the current settings with the link's server (and tokens)
    return (pg.serverChosen ? heldLink(current) : null) ?? current;
  }

  function inspected(): InspectorInput | null {
    const finished = pg.finished();
    const pastIndex = state.viewing ?? (finished ? state.path.length - 1 : null);
    if (pastIndex !== null) {
      const entry = state.path[pastIndex];
      const returnable = state.viewing !== null && !finished;
      return entry
        ? { result: entry.result, chosenId: entry.id, forced: entry.forced, stepNumber: pastIndex + 1, past: true, returnable, label }
        : null;
    }
    if (pg.preview?.ok) {
      const r = pg.preview.result;
      return { result: r, chosenId: r.token, forced: false, stepNumber: state.path.length + 1, past: false, returnable: false, label };
    }
    return null;
  }

  function render(): void {
    if (pg.replaying || pg.holding) return;
    const { source, preview } = pg;
    const finished = pg.finished();
    const input = inspected();
    controls.render(state.params);
    const prompt = el<HTMLTextAreaElement>("prompt");
    if (document.activeElement !== prompt) prompt.value = state.prompt;
    // a hand-made table never reads the prompt (it is the table's title): not editable, and it says why
    const manual = source instanceof ManualSource;
    prompt.readOnly = manual;
    // the embedded tokenizer reads "</s>" typed in a prompt as text, never as the end token: say so
    // where it was typed. llama.cpp's parses special tokens, so there the same text became the end
    // token and the model continues as after a finished text: say that instead, once it is read.
    const eosText = !manual && state.source === "model" && state.prompt.includes("</s>");
    const eosParsed = !manual && state.source === "server" && source.promptHoldsEnd === true;
    el("prompt-eos").hidden = !eosText;
    el("prompt-eos-parsed").hidden = !eosParsed;
    const eosNote = eosText ? " prompt-eos" : eosParsed ? " prompt-eos-parsed" : "";
    prompt.setAttribute("aria-describedby", manual ? "prompt-manual" : `prompt-hint prompt-keys${eosNote}`);
    showPreset();
    // "Model server" stays chosen in the list while it waits for Connect
    const chosen = pg.serverChosen ? "server" : state.source;
    el<HTMLSelectElement>("source").value = chosen;
    document.body.dataset["source"] = chosen;
    serverPanel.render(state.source === "server" && preview?.ok && state.viewing === null ? preview.result.rest : null, state.source === "server" && pg.sourceLost);
    tokens.render(state, (entry) => chipDisplay(source, entry), pg.blocked());
    announcer.render(state, label);
    tipChips(state.path, label);
    if (source instanceof ManualSource) table.render(source.currentRows(), source.preset.eos, !finished);
    tree.render(state, (entry) => entryText(source, entry));

    const error = el("error");
    error.hidden = preview === null || preview.ok;
    if (preview !== null && !preview.ok) {
      // a source's failure (a server that stopped answering, a token it never listed) is worded already: not the core's rejection
      if (pg.blocked()) error.textContent = promptErrorText(preview.message);
      else error.textContent = pg.sourceFailed ? preview.message : `${t("error.prefix")} ${coreMessage(preview.message)}`;
    }
    markPrompt(preview !== null && !preview.ok && pg.blocked());
    el<HTMLFormElement>("force-form").hidden = input === null;

    if (input === null && preview !== null && !preview.ok) inspector.clear();
    else inspector.render(input);
    lookup.render();
    exporter.render();
    const view = preview?.ok && state.viewing === null ? buildView({ result: preview.result, chosenId: preview.result.token, forced: false, stepNumber: 0, past: false, returnable: false, label }, force) : null;
    sample.render(view, pg.sampleRun, view !== null);

    // a prompt the source cannot read leaves nothing to step; nor do logits still on their way
    const blocked = pg.blocked() || pg.waiting;
    const focused = document.activeElement;
    el<HTMLButtonElement>("step").disabled = finished || state.playing || blocked;
    const playButton = el<HTMLButtonElement>("play");
    playButton.textContent = state.playing ? t("transport.pause") : t("transport.play");
    playButton.disabled = (finished || blocked) && !state.playing;
    el<HTMLButtonElement>("stop").disabled = finished;
    // the focused Step, Play or Stop, disabled by the end of the text, dropped the keyboard's focus
    // to the page (Enter did nothing, a screen reader said nothing): it goes to Play (still playing)
    // or Reset — in projector mode to the page, whose keys (Space, →) a teacher goes on pressing:
    // on Reset the next Space or Enter wiped the class's text
    if (focused instanceof HTMLButtonElement && focused.disabled && ["step", "play", "stop"].includes(focused.id)) {
      if (!playButton.disabled) playButton.focus({ preventScroll: true });
      else if (document.body.dataset["projector"] === "true") focused.blur();
      else el<HTMLButtonElement>("reset").focus({ preventScroll: true });
    }
    showUndoReset();
    say(el("stop-reason"), state.stopReason === null ? "" : stopText(state.stopReason, { prompt: state.prompt, made: state.path.length }));
    el("generated").dataset["finished"] = String(finished);
    // the embedded model or a connected server compares; the hand-made tables do not
    const compareMode = pg.model !== null && source === pg.model ? "model" : pg.server !== null && source === pg.server ? "server" : "manual";
    compare.render(pg.compareRun, !pg.blocked() && !state.playing, compareMode, stopText);
    // while Play runs, the address bar follows at most once per ADDRESS_EVERY_MS (writing it every
    // token cost a slow PC's Step a tenth of its time); Pause, the end and every other change write it at once
    const ready = document.body.dataset["ready"] === "true";
    if (ready && !state.playing) showAddress();
    else {
      if (ready && addressLater === 0) addressLater = window.setTimeout(showAddress, ADDRESS_EVERY_MS);
      renderHandout(state.params, el("inspector-step").textContent ?? "");
    }
    for (const listener of listeners) listener();
  }

  /** The address bar, embed mode's way out and the handout's link, from the page's state now. */
  function showAddress(): void {
    window.clearTimeout(addressLater);
    addressLater = 0;
    const query = pageQuery(true);
    writeUrl(query);
    // embed mode's way out: the same state in a full page
    const full = new URLSearchParams(query);
    full.delete("embed");
    el<HTMLAnchorElement>("open-full").href = `?${full.toString()}`;
    // after the address bar has the new state: the handout prints its link
    renderHandout(state.params, el("inspector-step").textContent ?? "");
  }
  let addressLater = 0;
  // leaving, printing or going to the address bar (the window loses focus) mid-Play: the address bar
  // and the handout hold the token on screen
  const showAddressNow = (): void => {
    if (addressLater !== 0) showAddress();
  };
  addEventListener("pagehide", showAddressNow);
  addEventListener("beforeprint", showAddressNow);
  addEventListener("blur", showAddressNow);

  function showUndoReset(): void {
    const button = el<HTMLButtonElement>("reset-undo");
    button.hidden = !undoOffered(pg);
    button.textContent = t("reset.undo");
    button.title = t("reset.undoName");
  }

  /** The Preset menu names the preset only while the prompt is still its prompt; otherwise "custom". */
  function showPreset(): void {
    const select = el<HTMLSelectElement>("preset");
    const custom = el<HTMLOptionElement>("preset-custom");
    custom.textContent = t("preset.custom");
    select.value = findPreset(state.presetId)?.prompt === state.prompt ? state.presetId : custom.value;
  }

  pg.subscribe(render);
  return { render, modes, pageQuery, label, renderControls: () => controls.render(state.params), onRender: (listener) => listeners.push(listener) };
}

/** The step the inspector shows, with what the core read for it (Find a token, the CSV re-run it). */
export function inspectedStep(pg: Playground): InspectedStep | null {
  const { state } = pg;
  const pastIndex = state.viewing ?? (pg.finished() ? state.path.length - 1 : null);
  if (pastIndex !== null) {
    const entry = state.path[pastIndex];
    const input = entry?.input;
    return entry === undefined || input === undefined ? null : { input: () => input, chosenId: entry.id, stepNumber: pastIndex + 1 };
  }
  if (pg.preview?.ok !== true) return null;
  // read when asked (Find a token, the CSV): the preview was computed from these logits (and rest mass)
  const input = (): StepInput => {
    const next = pg.nextInput();
    if (next === null) throw new Error(`the ${pg.source.kind} source has no logits yet`);
    return next;
  };
  return { input, chosenId: pg.preview.result.token, stepNumber: state.path.length + 1 };
}

/** A prompt that ends a sentence: its last mark (closing quotes and brackets, spaces after it allowed). */
const SENTENCE_END = /([。！？!?.…])["'”’」』）)\]]*\s*$/u;

/**
 * Why the text stopped, in words. The end token drawn as the very first token after a prompt that
 * ends a sentence (「今天天气很好。」) says so: the model saw a finished text, and a teacher who typed
 * a whole sentence otherwise saw a bare "end token chosen" with no text made.
 */
export function stopText(reason: StopReason, text?: { prompt: string; made: number }): string {
  switch (reason.kind) {
    case "eos": {
      const mark = text?.made === 1 ? SENTENCE_END.exec(text.prompt)?.[1] : undefined;
      return mark === undefined ? t("stop.eos") : t("stop.eosSentence", { mark });
    }
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

/** The Preset menu: every preset by language, and a hidden "custom" entry. */
export function fillPresets(presetId: string): void {
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
  select.value = presetId;
}
