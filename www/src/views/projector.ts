// Projector mode: the same page in large type and high contrast for the back of a classroom. It is a
// CSS mode (html/body[data-projector], styles/projector.css) plus three small pieces owned here: the
// current step's key numbers in large type, one enlarged stage chart at a time (↑/↓ or ‹ › switch
// it), and a mouse cursor that hides after a few idle seconds. Nothing here computes a number: every
// value is read from the trace the inspector draws.
import { markLang } from "../token-lang";
import type { Actions } from "../actions";
import type { StepResult } from "../core";
import { num, percent } from "../format";
import { t } from "../i18n/index";
import { shortcutTarget } from "../keyboard";
import type { Params } from "../state";
import { barsFitting, limitBars, MAX_BARS } from "../charts/frame";
import { settingsLine } from "./projector-header";
import { fitProjectorText } from "./projector-text";
import { keptShort } from "./rest-text";

export interface Projector {
  set(on: boolean): void;
  /** Switch the mode from a user gesture (button, P): entering also asks for full screen. */
  toggle(): void;
  isOn(): boolean;
  toggleFullscreen(): void;
}

/** The smallest chart text on screen in projector mode, in CSS px (legible from the back row). */
const MIN_CHART_PX = 18.5;
/**
 * ... and at least this share of the page's type, which grows with the screen (3.2vmin): 18.5 px is
 * 0.72 of it at 1280×800. A 1920×1080 touch board's type is 34.6 px; its strip's text stayed at
 * 20.6 (0.6). (More than 0.72 lifts the strip's "u = …" into its caption at 1280×800.)
 */
const MIN_CHART_SHARE = 0.72;

/** After this long without mouse movement the cursor is hidden (projector mode only). */
const CURSOR_IDLE_MS = 3000;

/** The step the inspector shows: a past step being looked at, the last one when finished, or the next. */
interface Shown {
  result: StepResult;
  chosenId: number;
  p: number;
  stepNumber: number;
  past: boolean;
  forced: boolean;
  /** The settings this step was made under (an earlier step may predate a change). */
  params: Readonly<Params>;
}

export function createProjector(actions: Actions, handlers: { onChange(on: boolean): void; redraw(): void }): Projector {
  const root = document.documentElement;
  const body = document.body;
  const button = document.getElementById("projector-toggle");
  const inspector = document.querySelector<HTMLElement>("section.inspector");
  const stages = document.getElementById("stages");
  let on = false;
  /** Whether the full screen in force was asked for by entering projector mode (so leaving ends it). */
  let ownFullscreen = false;
  /** The stage chart the teacher picked (by panel name); null = the last active stage. */
  let picked: string | null = null;
  let idleTimer: number | undefined;

  // the key numbers: a description list the CSS places next to the chart
  const nums = document.createElement("dl");
  nums.id = "projector-nums";
  nums.className = "projector-nums";
  nums.setAttribute("role", "group");
  const cell = (cls: string): { dt: HTMLElement; dd: HTMLElement } => {
    const div = document.createElement("div");
    div.className = cls;
    const dt = document.createElement("dt");
    const dd = document.createElement("dd");
    div.append(dt, dd);
    nums.append(div);
    return { dt, dd };
  };
  const chosenCell = cell("pj-chosen");
  const pCell = cell("pj-p");
  const keptCell = cell("pj-kept");
  const uCell = cell("pj-u");

  // the chart switcher, over the chart's top-right corner
  const nav = document.createElement("div");
  nav.className = "projector-nav";
  nav.setAttribute("role", "group");
  const prev = navButton("‹", () => cycle(-1));
  const position = document.createElement("span");
  position.className = "pj-position";
  const next = navButton("›", () => cycle(1));
  nav.append(prev, position, next);

  // the settings in force, in the header (the sidebar is hidden in projector mode)
  const settings = document.createElement("p");
  settings.className = "projector-settings";
  document.querySelector(".top .brand")?.append(settings);
  const writeSettings = settingsLine(settings);

  // mode changes are announced (P changes the page without moving focus)
  const announce = document.createElement("p");
  announce.className = "visually-hidden";
  announce.setAttribute("role", "status");
  document.querySelector(".top")?.append(announce);

  if (inspector !== null && stages !== null) {
    inspector.insertBefore(nums, stages);
    inspector.insertBefore(nav, stages);
  }

  function navButton(text: string, onClick: () => void): HTMLButtonElement {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "small";
    b.textContent = text;
    b.addEventListener("click", (event) => {
      onClick();
      letGoAfterClick(event);
    });
    return b;
  }

  /** The active stage panels in engine order (the inspector hides the others). */
  function panels(): HTMLElement[] {
    if (stages === null) return [];
    return Array.from(stages.children).filter((f): f is HTMLElement => f instanceof HTMLElement && !f.hidden);
  }

  function cycle(delta: number): void {
    const list = panels();
    if (list.length === 0) return;
    const at = list.findIndex((f) => f.classList.contains("pj-focus"));
    const target = list[(((at < 0 ? list.length - 1 : at) + delta) % list.length + list.length) % list.length];
    picked = target?.dataset["stage"] ?? null;
    render();
  }

  function shown(): Shown | null {
    const s = actions.state();
    const pastIndex = s.viewing ?? (s.stopReason !== null ? s.path.length - 1 : null);
    if (pastIndex !== null) {
      const entry = s.path[pastIndex];
      return entry === undefined
        ? null
        : { result: entry.result, chosenId: entry.id, p: entry.chosen.p, stepNumber: pastIndex + 1, past: true, forced: entry.forced, params: entry.params ?? s.params };
    }
    const preview = actions.preview();
    if (preview === null || !preview.ok) return null;
    const r = preview.result;
    return { result: r, chosenId: r.token, p: r.chosen.p, stepNumber: s.path.length + 1, past: false, forced: false, params: s.params };
  }

  function render(): void {
    const step = shown();
    chosenCell.dt.textContent =
      step === null
        ? t("inspector.chosen")
        : t(step.past ? "projector.stepPast" : "projector.stepNext", { n: step.stepNumber }) + (step.forced ? t("chip.forced") : "");
    chosenCell.dd.textContent = step === null ? "—" : actions.tokenText(step.chosenId);
    markLang(chosenCell.dd, chosenCell.dd.textContent);
    pCell.dt.textContent = t("projector.p");
    pCell.dd.textContent = step === null ? "—" : percent(step.p);
    keptCell.dt.textContent = t("projector.kept");
    keptCell.dd.textContent = step === null ? "—" : keptShort(step.result, scored(step.result));
    uCell.dt.textContent = t("projector.u");
    const u = step?.result.u ?? null;
    uCell.dd.textContent = step === null ? "—" : u === null ? t("projector.greedy") : num(u, 3);
    uCell.dd.title = step !== null && u === null ? t("projector.greedyNote") : "";
    nums.setAttribute("aria-label", t("projector.nums"));
    // the settings of the step on screen (an earlier step keeps those it was made under); each
    // setting unbroken, a long list wraps between settings rather than being cut off
    // (on a small screen, those that fit on one line: projector-header.ts)
    writeSettings(settingsParts(step?.params ?? actions.state().params), on);

    // one stage chart at a time: the one picked, else the last stage that ran
    const list = panels();
    const kinds = list.map((f) => f.dataset["stage"] ?? "");
    const focus = picked !== null && kinds.includes(picked) ? picked : (kinds[kinds.length - 1] ?? null);
    for (const f of stages?.children ?? []) f.classList.toggle("pj-focus", f instanceof HTMLElement && f.dataset["stage"] === focus);
    const index = focus === null ? -1 : kinds.indexOf(focus);
    position.textContent = `${index + 1} / ${list.length}`;
    nav.setAttribute("aria-label", t("projector.chartOf", { i: index + 1, n: list.length }));
    prev.setAttribute("aria-label", t("projector.prevChart"));
    prev.title = `${t("projector.prevChart")} (↑)`;
    next.setAttribute("aria-label", t("projector.nextChart"));
    next.title = `${t("projector.nextChart")} (↓)`;
    prev.disabled = next.disabled = list.length < 2;

    // refitted here when what is shown changed; a chart box resized otherwise (the text grew, a
    // lesson opened) is refitted by `boxes` below, after the frame's own layout: a Step then
    // forces no layout of its own (a tenth of a slow PC's Step)
    const showing = `${on} ${focus} ${innerWidth}×${innerHeight} ${[...(stages?.children ?? [])].map((f) => (f instanceof HTMLElement && f.hidden ? 0 : 1)).join("")}`;
    if (showing !== fitFor) fitChartText();
    fitFor = showing;
    fitText();
  }

  /** The prompt and the newest tokens stay in view when the text outgrows its box (projector-text.ts). */
  function fitText(): void {
    fitProjectorText(on, actions.state().prompt);
    if (on) {
      const text = document.getElementById("generated");
      if (text !== null) {
        text.scrollTop = text.scrollHeight;
        text.dataset["overflow"] = String(text.scrollHeight > text.clientHeight + 4);
      }
    }
  }

  /**
   * Chart text at least MIN_CHART_PX on screen (and MIN_CHART_SHARE of the page's type): the charts scale with their box (viewBox), so each
   * visible chart gets `--pj-k`, the factor its 11-unit text must grow by at the scale it is drawn
   * (projector.css sizes the text with it; charts/frame.ts spaces its labels with it).
   */
  /** What was shown when the chart text was last fitted (projector mode, the chart picked, the viewport, the stages at work). */
  let fitFor = "";

  function fitChartText(): void {
    const svgs = [...document.querySelectorAll<SVGSVGElement>("svg.chart")];
    // every size read before any is written (a write between two reads made each read lay the page
    // out again: a layout per chart per Step), and only a change written
    const least = on ? Math.max(MIN_CHART_PX, MIN_CHART_SHARE * parseFloat(getComputedStyle(document.documentElement).fontSize)) : 0;
    const scales = svgs.map((svg) => (on ? (svg.getScreenCTM()?.a ?? 0) : 0));
    let stageK = 1;
    svgs.forEach((svg, i) => {
      const scale = scales[i] ?? 0;
      const k = scale <= 0 ? "" : Math.max(1, least / (11 * scale)).toFixed(3);
      if (k !== "" && svg.closest(".pj-focus") !== null) stageK = Number(k);
      if (svg.style.getPropertyValue("--pj-k") === k) return;
      if (k === "") svg.style.removeProperty("--pj-k");
      else svg.style.setProperty("--pj-k", k);
    });
    // a small chart draws its labels large: as many bars as their rotated labels have room for (the
    // stage charts share one box, one shown at a time); drawn again at once. A small screen makes the
    // chart small, and so does the Settings row on any screen (at 1024×768 every bar's label fits
    // until the row opens)
    if (limitBars(on ? barsFitting(stageK) : MAX_BARS)) queueMicrotask(handlers.redraw);
  }

  function wake(): void {
    delete body.dataset["cursor"];
    window.clearTimeout(idleTimer);
    if (on) idleTimer = window.setTimeout(() => (body.dataset["cursor"] = "hidden"), CURSOR_IDLE_MS);
  }

  function set(nextOn: boolean): void {
    const changed = nextOn !== on;
    on = nextOn;
    root.dataset["projector"] = String(on);
    body.dataset["projector"] = String(on);
    button?.setAttribute("aria-pressed", String(on));
    wake();
    if (changed) announce.textContent = t(on ? "projector.on" : "projector.off");
    handlers.onChange(on);
    render();
  }

  function enterFullscreen(): void {
    if (!document.fullscreenEnabled || document.fullscreenElement !== null) return;
    // refused (no user gesture, a frame without permission): projector mode works without it
    document.documentElement.requestFullscreen().then(
      () => (ownFullscreen = true),
      () => undefined,
    );
  }

  function exitFullscreen(): void {
    ownFullscreen = false;
    if (document.fullscreenElement !== null) document.exitFullscreen().catch(() => undefined);
  }

  function toggle(): void {
    set(!on);
    if (on) enterFullscreen();
    else if (ownFullscreen) exitFullscreen();
  }

  button?.addEventListener("click", (event) => {
    toggle();
    letGoAfterClick(event);
  });
  // Step, Play, Stop and Reset, for the same reason as `letGoAfterClick`: a pointer's press gives
  // the focus back to the page (also when the prompt box's Apply had put it on Step), so Space then
  // plays instead of pressing Step again. After the click would be too late: a Step or Stop the
  // click disabled has already passed the focus on to Reset (views/page.ts), where the next Space
  // would wipe the text. From the keyboard they keep it.
  for (const id of ["step", "play", "stop", "reset"]) {
    document.getElementById(id)?.addEventListener("mousedown", (event) => {
      if (!on) return;
      event.preventDefault();
      if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
    });
  }
  document.addEventListener("mousemove", wake, { passive: true });
  document.addEventListener("pointerdown", wake, { passive: true });
  document.addEventListener("fullscreenchange", () => {
    if (document.fullscreenElement === null) ownFullscreen = false;
  });
  // ↑/↓ switch the enlarged chart (projector mode only; the other shortcuts live in keyboard.ts)
  document.addEventListener("keydown", (event) => {
    if (!on || !shortcutTarget(event) || (event.key !== "ArrowUp" && event.key !== "ArrowDown")) return;
    event.preventDefault();
    cycle(event.key === "ArrowUp" ? -1 : 1);
  });
  window.addEventListener("resize", () => on && render());
  // a chart's box also changes when a lesson opens or the text grows: its text is refitted
  const boxes = new ResizeObserver(() => fitChartText());
  for (const id of ["stages", "final"]) {
    const node = document.getElementById(id);
    if (node !== null) boxes.observe(node);
  }
  // the text's box changes size after a render too (a wide screen's column settles once the key
  // numbers and the chart are drawn; "Undo reset" wraps the buttons onto a second line): refitted then,
  // or the prompt was scrolled out of its box and the hint cut off
  // (an observer is called only when the size changes, and fitting changes what the box holds, not its size)
  const textBox = new ResizeObserver(() => on && fitText());
  const generated = document.getElementById("generated");
  if (generated !== null) textBox.observe(generated);
  actions.onRender(render);

  return {
    set,
    toggle,
    isOn: () => on,
    toggleFullscreen() {
      if (document.fullscreenElement !== null) exitFullscreen();
      else enterFullscreen();
    },
  };
}

/**
 * A button clicked with the mouse gives focus back to the page, so that Space then plays or pauses
 * instead of pressing the same button again (a teacher clicks Projector, then presses Space). A
 * button pressed from the keyboard (`detail` 0) keeps its focus.
 */
function letGoAfterClick(event: MouseEvent): void {
  if (event.detail > 0 && event.currentTarget instanceof HTMLElement) event.currentTarget.blur();
}

/**
 * How many tokens were scored: the whole vocabulary for a model; for a hand-made table, the tokens
 * it lists (the rest have −∞ logits and the trace reaches them). As the inspector counts.
 */
function scored(r: StepResult): number {
  const listedInfinite = r.candidates.some((c) => c.removed_by === "logits");
  return listedInfinite ? r.candidates.filter((c) => c.removed_by !== "logits").length : r.vocab_size;
}

/** The decoding settings in the chapter's notation ("T 0.8", "top-p 0.9", "seed 42"). */
function settingsParts(p: Readonly<Params>): string[] {
  const parts: string[] = [];
  if (p.strategy === "greedy") parts.push(t("strategy.greedy"));
  else {
    parts.push(`T ${num(p.temperature, 2)}`);
    if (p.top_k > 0) parts.push(`top-k ${p.top_k}`);
    if (p.top_p < 1) parts.push(`top-p ${num(p.top_p, 2)}`);
    if (p.min_p > 0) parts.push(`min-p ${num(p.min_p, 2)}`);
    parts.push(t("projector.seed", { seed: p.seed }));
  }
  return parts;
}
