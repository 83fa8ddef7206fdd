// Boot and wiring only: read the link, make the playground (playground/, the state and every
// action) and its view (views/page.ts), connect the page's buttons to actions, load the core and
// the embedded model, and apply the link. Data flows one way: source → step → trace → view.
// (first: start.ts begins loading the core and the model before the rest of the bundle runs)
import { coreLoading, modelLoading, modelProgress } from "./start";
import { messageOf } from "./core";
import { bytesSize } from "./format";
import { coreMessage, lang, setLang, t, translateDocument } from "./i18n/index";
import type { Lang } from "./i18n/index";
import { findPreset, PRESETS } from "./presets";
import type { ManualPreset } from "./presets";
import { modelSource } from "./sources/load";
import type { LoadProgress } from "./sources/load";
import { FIRST_VISIT, initialState } from "./state";
import type { SourceKind } from "./state";
import { browserLang, readUrl } from "./url";
import { holdAddress, openArrivedLink } from "./address";
import { arrivedQuery } from "./url-arrival";
import { linkHasState, namedOverLesson } from "./lesson-link";
import type { Actions } from "./actions";
import { isLessonId, LESSON_IDS, lessonByName } from "./lessons/catalog";
import type { LessonId } from "./lessons/catalog";
import { installShortcuts } from "./keyboard";
import { createLessons } from "./views/lessons";
import { createProjector } from "./views/projector";
import { createPromptEditor } from "./views/projector-prompt";
import { createProjectorSettings } from "./views/projector-settings";
import { ManualSource } from "./sources/manual";
import { createShare } from "./views/share";
import { el } from "./views/controls";
import { createSettingsDrawer } from "./views/settings-drawer";
import { installPhoneLayout, revealLinkedLesson } from "./views/phone-layout";
import { installDoubleTapGuard } from "./views/double-tap";
import { installTouchKeys, touchOnly } from "./views/touch-keys";
import { installTips } from "./charts/tooltip";
import { installModelAbout } from "./views/model-about";
import { fillLinkNotice, overrideText, problemText } from "./views/notice";
import { createPage, fillPresets } from "./views/page";
import { wireServer } from "./views/server-wiring";
import type { ScenarioRequest } from "./scenario";
import { glimpse, stepWhenReady } from "./playground/lesson-io";
import { undoReset } from "./playground/undo-reset";
import { Playground } from "./playground/playground";
import { apply, applyScenario, snapshot } from "./playground/scenarios";

const { request: initialUrl, problems: urlProblems } = readUrl(location.search, location.hash, {
  preset: (id) => findPreset(id) !== undefined,
  lessons: LESSON_IDS,
  lessonNamed: lessonByName,
});
// a link holding its state after `#`, opened in a tab already showing the page, changes only the
// fragment: the browser does not load the page again, so the page does, to read the new link
addEventListener("hashchange", (event) => openArrivedLink(event.newURL));
const initialLang: Lang = initialUrl.lang ?? browserLang();
// embed mode (?embed=1 or #embed): minimal chrome for an iframe, set before the first paint
if (initialUrl.embed) document.body.dataset["embed"] = "true";
setLang(initialLang);
const foundPreset = PRESETS.find((p) => p.lang === initialLang) ?? PRESETS[0];
if (foundPreset === undefined) throw new Error("no presets");
const firstPreset: ManualPreset = foundPreset;

const pg = new Playground(firstPreset, initialState(initialLang, firstPreset, initialUrl.params.seed ?? FIRST_VISIT.seed));
// Connect: the server becomes the source, and a `source=server` link is replayed over it
/** The settings a lesson link changed in its lesson, for the link notice (views/notice.ts). */
let lessonNotes: Array<() => string> = [];
/** A server link's lesson: open but not set up until Connect (then set up over the server). */
let heldLesson: LessonId | null = null;
const server = wireServer(
  pg,
  () => {
    el("url-notice").hidden = pg.linkProblems.length + lessonNotes.length === 0;
    showNotice();
    if (heldLesson !== null && lessons.current() === heldLesson) lessons.open(heldLesson, !linkHasState(initialUrl, true));
    heldLesson = null;
  },
  () => heldLesson !== null && lessons.current() === heldLesson,
);
const page = createPage(pg, initialUrl.embed, server.panel, (current) => server.heldQuery(current));

/** What lessons, projector mode, the keyboard and the share dialog may ask of the page. */
const actions: Actions = {
  apply: async (wanted) => {
    // a server link's lesson is set up on the embedded model while the link waits: "Model server"
    // stays chosen (its panel and notice stay), and Connect sets the lesson up over the server
    const waiting = heldLesson !== null && pg.serverChosen && server.waiting();
    const problems = await apply(pg, wanted);
    if (waiting && pg.server === null && server.waiting()) pg.selectSource("server");
    return problems;
  },
  snapshot: () => snapshot(pg),
  step: () => pg.step(),
  stepReady: () => stepWhenReady(pg),
  back: () => pg.dispatch({ type: "back" }),
  reset: () => pg.dispatch({ type: "reset" }),
  togglePlay: () => pg.dispatch({ type: "togglePlay" }),
  state: () => pg.state,
  preview: () => pg.preview,
  modelReady: () => pg.model !== null,
  onRender: (listener) => page.onRender(listener),
  glimpse: (prompt, params) => glimpse(pg, prompt, params),
  server: () => (pg.server === null ? null : { model: pg.server.info.model, url: pg.server.info.url }),
  useServer: () => pg.dispatch({ type: "selectSource", kind: "server" }),
  tokenText: (id) => page.label(id),
  setParams: (change) => pg.dispatch({ type: "setParams", change }),
  setLogit: (id, logit) => {
    const source = pg.source;
    if (!(source instanceof ManualSource)) return;
    const token = source.tokenText(id);
    pg.dispatch({ type: "setRows", rows: source.currentRows().map((row) => (row.token === token ? { ...row, logit } : row)) });
  },
  sample: (n) => {
    pg.dispatch({ type: "sample", n });
    return pg.sampleRun?.n === n ? pg.sampleRun.counts : null;
  },
};

const settingsDrawer = createSettingsDrawer();
const lessons = createLessons(actions, {
  reveal: (node) => settingsDrawer.reveal(node),
  // (`?lesson=exp2&temperature=0.5`: 实验二 at T 0.5, and the notice says its text is for T 1)
  overridden(id, all) {
    lessonNotes = all.map((over) => () => overrideText(id, over));
    el("url-notice").hidden = false;
    showNotice();
  },
  onLesson(id) {
    page.modes.lesson = id;
    page.render();
  },
});
const share = createShare(() => ({ query: page.pageQuery(false), title: pg.state.prompt }));
const projector = createProjector(actions, {
  onChange(on) {
    page.modes.projector = on;
    page.render();
  },
  redraw: () => page.render(),
});
// projector mode's own strategy / temperature / top-k / top-p row (the sidebar is hidden there)
const projectorSettings = createProjectorSettings(actions);
installPhoneLayout();
installDoubleTapGuard();
installTouchKeys();
// projector mode's own prompt box (the sidebar's is hidden there): Enter applies and steps, as there (a touch board's Return only applies)
const promptEditor = createPromptEditor({
  prompt: () => pg.state.prompt,
  manual: () => pg.source instanceof ManualSource,
  endTokenAsText: () => pg.state.source === "model",
  modelReady: () => pg.model !== null,
  apply(prompt, step) {
    if (prompt !== pg.state.prompt) pg.dispatch({ type: "setPrompt", prompt });
    if (step) pg.dispatch({ type: "step" });
  },
  useModel: () => pg.dispatch({ type: "selectSource", kind: "model" }),
  pause: () => pg.dispatch({ type: "pause" }),
});

/** E: projector mode's prompt box; elsewhere the sidebar's prompt box (embed mode: its drawer opens). */
function editPrompt(): void {
  if (page.modes.projector) return promptEditor.open();
  pg.dispatch({ type: "pause" });
  const prompt = el<HTMLTextAreaElement>("prompt");
  if (!prompt.checkVisibility() && page.modes.embed) el<HTMLButtonElement>("settings-toggle").click();
  prompt.focus();
  prompt.select();
}
page.onRender(() => promptEditor.render());
page.onRender(() => server.renderNotice());

function switchLang(next: Lang): void {
  setLang(next);
  translateDocument();
  settingsDrawer.render();
  showNotice();
  pg.dispatch({ type: "setLang", lang: next });
}

function wire(): void {
  el<HTMLButtonElement>("step").addEventListener("click", () => pg.dispatch({ type: "step" }));
  el<HTMLButtonElement>("play").addEventListener("click", () => pg.dispatch({ type: "togglePlay" }));
  el<HTMLButtonElement>("stop").addEventListener("click", () => pg.dispatch({ type: "stop" }));
  el<HTMLButtonElement>("reset").addEventListener("click", () => pg.dispatch({ type: "reset" }));
  el<HTMLButtonElement>("reset-undo").addEventListener("click", () => {
    void undoReset(pg).then((undone) => {
      if (undone) el<HTMLButtonElement>("step").focus();
    });
  });
  el<HTMLButtonElement>("share-open").addEventListener("click", () => share.open());
  el<HTMLButtonElement>("url-notice-close").addEventListener("click", () => {
    el("url-notice").hidden = true;
  });
  el<HTMLButtonElement>("lang-toggle").addEventListener("click", () => switchLang(lang() === "zh" ? "en" : "zh"));
  const speed = el<HTMLInputElement>("speed");
  speed.value = String(pg.state.tokensPerSecond);
  speed.addEventListener("input", () => pg.dispatch({ type: "setSpeed", tokensPerSecond: Number(speed.value) }));
  el<HTMLSelectElement>("preset").addEventListener("change", (event) => {
    pg.dispatch({ type: "selectPreset", presetId: (event.target as HTMLSelectElement).value });
  });
  el<HTMLSelectElement>("source").addEventListener("change", (event) => {
    const value = (event.target as HTMLSelectElement).value;
    const kind: SourceKind = value === "model" || value === "server" ? value : "manual";
    pg.dispatch({ type: "selectSource", kind });
  });
  el<HTMLFormElement>("force-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = el<HTMLInputElement>("force-token");
    if (input.value !== "") forceTyped(input.value);
  });
  // an edit takes back the last refusal: the field is no longer the one that was refused
  el<HTMLInputElement>("force-token").addEventListener("input", () => markForceError(null));
  const prompt = el<HTMLTextAreaElement>("prompt");
  prompt.value = pg.state.prompt;
  // (not again on leaving the box when Enter has applied this text: that would undo the step)
  prompt.addEventListener("change", () => {
    if (prompt.value !== pg.state.prompt) pg.dispatch({ type: "setPrompt", prompt: prompt.value });
  });
  // Enter asks for the next token, as a chat box sends: a changed prompt is applied first (the text
  // starts over from it), then one step. Shift+Enter writes a new line; Enter that confirms an input
  // method's candidate (拼音) only confirms it; a phone's Return writes a new line (touch-keys.ts).
  prompt.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || event.shiftKey || event.isComposing || event.keyCode === 229 || touchOnly()) return;
    event.preventDefault();
    if (prompt.value !== pg.state.prompt) pg.dispatch({ type: "setPrompt", prompt: prompt.value });
    pg.dispatch({ type: "step" });
  });
}

/** Force a token the user typed (its text, or `<E4>` for a byte token) at the inspected step. */
function forceTyped(text: string): void {
  const id = pg.source.idOf(text);
  if (id === undefined) {
    markForceError(t("force.unknown", { token: text }));
    return;
  }
  markForceError(null);
  el<HTMLInputElement>("force-token").value = "";
  pg.dispatch({ type: "force", id });
}

/** The force field's refusal (null: none), said next to it and tied to it for a screen reader. */
function markForceError(message: string | null): void {
  const input = el<HTMLInputElement>("force-token");
  const said = el("force-msg");
  if (message === null && !input.hasAttribute("aria-invalid")) return;
  said.textContent = message ?? "";
  if (message === null) {
    input.removeAttribute("aria-invalid");
    input.removeAttribute("aria-describedby");
  } else {
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-describedby", said.id);
  }
}

/** The link's problems and the lesson settings it changed (plain text), in the current language. */
function showNotice(): void {
  fillLinkNotice(pg.linkProblems, lessonNotes);
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
  fillPresets(pg.state.presetId);
  wire();
  installTips();
  installModelAbout();
  // the ? overlay, P and F work while the model loads; the rest waits for body[data-ready]
  installShortcuts(actions, {
    toggleProjector: () => projector.toggle(),
    toggleFullscreen: () => projector.toggleFullscreen(),
    openLesson: (index) => {
      const id = LESSON_IDS[index];
      if (id !== undefined) lessons.open(id);
    },
    closeLesson: () => lessons.dismiss(),
    editPrompt,
    toggleSettings: () => projectorSettings.toggle(),
    closeSettings: () => projectorSettings.close(),
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
  page.renderControls();
  try {
    await coreLoading;
    performance.mark("nexttoken:core");
  } catch (err) {
    el("loading").hidden = true;
    delete document.body.dataset["loading"];
    const error = el("error");
    error.hidden = false;
    error.textContent = messageOf(err);
    return;
  }
  loadingText.textContent = t("loading.model");
  showProgress(modelProgress(showProgress) ?? { loaded: 0, total: null });
  try {
    const bytes = await modelLoading;
    performance.mark("nexttoken:model-bytes");
    pg.model = modelSource(bytes);
    performance.mark("nexttoken:model");
  } catch (err) {
    const alert = el("model-error");
    alert.hidden = false;
    alert.textContent = t("model.failed", { message: coreMessage(messageOf(err)) });
  }
  el("loading").hidden = true;
  layout?.removeAttribute("inert");
  layout?.removeAttribute("aria-busy");
  delete document.body.dataset["loading"];
  el<HTMLOptionElement>("source-model").disabled = pg.model === null;
  // the link's state, replayed exactly (its problems, field by field, in one visible notice)
  pg.linkProblems = urlProblems.map((problem) => () => problemText(problem));
  pg.onLinkProblem = () => {
    el("url-notice").hidden = false;
    showNotice();
  };
  // a link made with a model server: `source=server`, or a hand-written one that names only `server=`
  const serverLink = initialUrl.source === "server" || (initialUrl.source === undefined && initialUrl.server !== undefined);
  const fromLink: ScenarioRequest = {
    source: serverLink ? "server" : (initialUrl.source ?? "model"),
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
    settings: initialUrl.settings,
  };
  // a server link's tokens are the server's ids: kept for Connect, not replayed on the embedded model
  // drawn once, when ready (the preset's page, then the link's, were each a full render before)
  pg.holding = true;
  const shown: ScenarioRequest = serverLink ? { source: "model", presetId: fromLink.presetId, prompt: fromLink.prompt, params: fromLink.params } : fromLink;
  await applyScenario(pg, shown, pg.linkProblems, true);
  performance.mark("nexttoken:link");
  // a server link fills in the Server address and waits for Connect: the embedded model meanwhile
  if (serverLink) server.holdLink(fromLink, initialUrl.server, initialUrl.api ?? null, new URLSearchParams(arrivedQuery(location.search, location.hash)));
  el("url-notice").hidden = pg.linkProblems.length === 0;
  showNotice();
  if (initialUrl.projector) projector.set(true);
  // a shared lesson link carries the lesson's page (kept as it is); a bare `?lesson=myth1` or an
  // element's lesson attribute alone does not: the lesson sets its page up, under whatever settings
  // or prompt the link names besides (误解一 needs greedy, 误解二
  // the chapter's hand-made table; on the default page they showed nothing, or the model's logits)
  // a server link's lesson waits for Connect to be set up over the server (meanwhile a bare lesson
  // link's page is set up on the embedded model with "Model server" still chosen, and its notice
  // says so; a link with its own page keeps it until Connect replays it)
  if (initialUrl.lesson !== undefined && isLessonId(initialUrl.lesson)) {
    const own = linkHasState(initialUrl, serverLink);
    if (serverLink) heldLesson = initialUrl.lesson;
    // (`?lesson=exp2&temperature=0.5`: 实验二 set up, at T 0.5)
    const named = serverLink ? undefined : namedOverLesson(initialUrl);
    lessons.open(initialUrl.lesson, serverLink && own ? "never" : !own || named !== undefined, named);
  }
  server.renderNotice();
  pg.holding = false;
  // a link whose paths the model could not replay (its prompt is too long) stays in the address bar
  // until the user changes something: rewritten now, it would lose them for good
  const carried = (fromLink.path?.length ?? 0) > 0 || (fromLink.branches?.length ?? 0) > 0;
  if (!serverLink && carried && pg.blocked() && pg.state.path.length === 0) holdAddress(page.pageQuery(true));
  document.body.dataset["ready"] = "true";
  page.render();
  if (lessons.current() !== null) revealLinkedLesson();
  // the phases of opening the page, for benchmarks (tests/bench/page-link.mjs) and the browser's profiler
  performance.mark("nexttoken:ready");
}

void boot();
