// What every lesson is made of: the Lesson contract, a tiny DOM builder (text only, never markup),
// and the helpers lessons share (a bar list, a page control lit up, the page's text so far).
// Lessons drive the page only through `Actions`, like any other view.
import type { Actions, Glimpse } from "../actions";
import { num, percent } from "../format";
import { GLOSSES } from "../i18n/classroom.en";
import { lang, t } from "../i18n/index";
import type { MessageKey } from "../i18n/index";
import type { Params, PathEntry } from "../state";

/** What the panel gives a lesson while it is open. */
export interface LessonEnv {
  actions: Actions;
  /** Focus a page control and light it up for a moment (a CSS selector). */
  highlight(selector: string): void;
  /** Run a page change (a scenario, steps) with the panel marked busy; clicks meanwhile are ignored. */
  run(task: () => Promise<void> | void): void;
  /** Redraw the lesson after its own state changed (also runs after every page render). */
  update(): void;
}

/** The model a lesson runs on: the embedded one, or the connected model server's. */
export type LessonSource = "model" | "server";

export interface Lesson {
  /** The prompts the lesson works on: a link that opens the lesson on another prompt is set up anew. */
  prompts?: readonly string[];
  /**
   * What the lesson needs: "any" model (it runs over a connected server too, every number read from
   * the live distribution), or only the embedded "model" or the hand-made tables ("manual"), whose
   * specific weights or table the lesson's text is about (the panel then says so). Default "any".
   */
  runsOn?: "any" | "model" | "manual";
  /** The one click: every parameter, the seed and the tokens (reproducible; resets the lesson), on `on`. */
  setUp(actions: Actions, on: LessonSource): Promise<void>;
  /** Build the lesson's body (again after a language change); returns its update, run after every render. */
  build(body: HTMLElement, env: LessonEnv): () => void;
}

type Child = Node | string | null | undefined | false;

/** An element with a class, attributes and children (strings become text nodes). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: { class?: string; id?: string; attrs?: Record<string, string> } = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props.class !== undefined) node.className = props.class;
  if (props.id !== undefined) node.id = props.id;
  for (const [name, value] of Object.entries(props.attrs ?? {})) node.setAttribute(name, value);
  for (const child of children) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
}

/** A paragraph of lesson text. */
export function para(key: MessageKey, vars: Record<string, string | number> = {}, cls = "lesson-text"): HTMLParagraphElement {
  return h("p", { class: cls }, t(key, vars));
}

/** A button with visible text (its accessible name) and a click handler. */
export function button(text: string, onClick: () => void, cls = "small"): HTMLButtonElement {
  const b = h("button", { class: cls, attrs: { type: "button" } }, text);
  b.addEventListener("click", onClick);
  return b;
}

/** The inspector's "Kept" count: what a lesson's Inspect buttons light once the page is set. */
export const KEPT = "#stat-kept";

/** A button that lights up a page control (its label says which, e.g. "Show me: Top-p"). */
export function pointer(env: LessonEnv, key: MessageKey, selector: string): HTMLButtonElement {
  const b = button(t(key), () => env.highlight(selector), "small pointer");
  b.dataset["target"] = selector;
  return b;
}

export interface Bar {
  label: string;
  p: number;
  /** kept = survives decoding; removed = cut; chosen = the token picked. */
  kind?: "kept" | "removed" | "chosen";
}

/** A list of labelled horizontal bars (a percent each); plain HTML, readable by screen readers. */
export function bars(items: readonly Bar[], caption: string, scale: "max" | "absolute" = "max"): HTMLElement {
  const list = h("ol", { class: "lesson-bars", attrs: { "aria-label": caption } });
  // "max": the longest bar fills the track (small probabilities stay visible); "absolute": 100% fills it
  const max = scale === "absolute" ? 1 : Math.max(...items.map((b) => b.p), 1e-9);
  for (const item of items) {
    const fill = h("span", { class: "fill" });
    fill.style.setProperty("--w", String(item.p / max));
    const li = h(
      "li",
      { class: item.kind ?? "kept" },
      h("span", { class: "bar-label" }, item.label),
      h("span", { class: "track", attrs: { "aria-hidden": "true" } }, fill),
      h("span", { class: "bar-value" }, percent(item.p)),
    );
    if (item.kind === "removed") li.append(h("span", { class: "visually-hidden" }, ` ${t("lesson.removed")}`));
    list.append(li);
  }
  return list;
}

/** A generated token as the learner reads it (the text it completed, or its vocabulary entry). */
export function tokenShown(actions: Actions, entry: PathEntry): string {
  if (entry.piece !== undefined) return entry.piece.replace(/<0x([0-9A-F]{2})>/g, "<$1>");
  return actions.tokenText(entry.id);
}

/** The text generated so far on the path on screen. */
export function generatedText(actions: Actions, entries: readonly PathEntry[] = actions.state().path): string {
  return entries.map((e) => tokenShown(actions, e)).join("");
}

/** Step until generation stops (or `max` steps), waiting for a server's answer before each. */
export async function runToEnd(actions: Actions, max = 64): Promise<void> {
  for (let i = 0; i < max && (await actions.stepReady()); i++);
}

/** The model the page is on now (a lesson's later clicks stay on it): the server, else the embedded one. */
export function liveSource(actions: Actions): LessonSource {
  return actions.state().source === "server" ? "server" : "model";
}

/** The final probability of the token shown as `text` in a glimpse (0 if it was cut or not listed). */
export function glimpseP(g: Glimpse, text: string): number {
  return g.kept.find((c) => c.text === text)?.p ?? 0;
}

export interface GlimpseCache {
  /** The glimpse, or null while it is on its way (over a server: then `onReady` runs when it lands). */
  get(prompt: string, params: Readonly<Params>): Glimpse | string | null;
  /** Changes whenever a glimpse lands or the page's model changes (part of a `keyed` key). */
  stamp(): string;
}

/**
 * Glimpses are pure functions of the model, prompt and params: computed once per triple. Over a
 * server they arrive later; `onReady` redraws the lesson then.
 */
export function glimpseCache(actions: Actions, onReady: () => void): GlimpseCache {
  const cache = new Map<string, Glimpse | string | null>();
  let landed = 0;
  const model = (): string => {
    const server = actions.server();
    return liveSource(actions) === "server" && server !== null ? `server ${server.url} ${server.model}` : "model";
  };
  return {
    get(prompt, params) {
      const key = JSON.stringify([model(), prompt, params]);
      if (!cache.has(key)) {
        const found = actions.glimpse(prompt, { ...params });
        if (!(found instanceof Promise)) {
          cache.set(key, found);
        } else {
          cache.set(key, null);
          void found.then((later) => {
            cache.set(key, later);
            landed++;
            onReady();
          });
        }
      }
      return cache.get(key) ?? null;
    },
    stamp: () => `${model()}|${landed}`,
  };
}

/**
 * Write `text` into a status line only when it differs: rewriting the same words is still a change
 * to a screen reader, which then says the line again at every render (every step, every slider).
 */
export function say(node: HTMLElement, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}

/** Replace `node`'s children only when `key` changed (keeps focus inside it otherwise). */
export function keyed(node: HTMLElement, key: string, build: () => Child[]): void {
  if (node.dataset["key"] === key) return;
  node.dataset["key"] = key;
  const focused = node.contains(document.activeElement);
  node.replaceChildren(...build().filter((c): c is Node | string => c !== null && c !== undefined && c !== false));
  // focus stays in the group (e.g. after a choice button is replaced by the next step's buttons)
  if (focused) node.querySelector<HTMLElement>("button:not(:disabled), input, textarea")?.focus();
}

/** A Chinese prompt or token with its English gloss in the English interface ("北京 (Beijing)"). */
export function glossed(text: string): string {
  const english = lang() === "en" ? GLOSSES[text] : undefined;
  return english === undefined ? text : `${text} (${english})`;
}

/** The gloss alone, as a small span after a quoted prompt (nothing in Chinese or without a gloss). */
export function gloss(text: string): HTMLElement | null {
  const english = lang() === "en" ? GLOSSES[text] : undefined;
  // a phrase in quotes, a word as it is: 「中国的首都是」 (“The capital of China is”), 北京 (Beijing)
  return english === undefined ? null : h("span", { class: "gloss" }, english.includes(" ") ? ` (“${english}”)` : ` (${english})`);
}

type OwnKey = "temperature" | "top_p";
const OWN: Record<OwnKey, { label: MessageKey; min: number; max: number; step: number }> = {
  temperature: { label: "lesson.own.temperature", min: 0, max: 2, step: 0.05 },
  top_p: { label: "lesson.own.topP", min: 0.01, max: 1, step: 0.01 },
};

/**
 * The sliders a lesson asks the learner to move, inside the lesson: shown only where the sidebar is
 * hidden (projector and embed modes, styles/lessons.css). They change the page's settings through
 * `Actions`, like the sidebar's own.
 */
export function ownSliders(actions: Actions, keys: readonly OwnKey[]): { node: HTMLElement; sync(params: Readonly<Params>): void } {
  const node = h("div", { class: "lesson-own", attrs: { role: "group", "aria-label": t("lesson.own.group") } });
  const syncs = keys.map((key) => {
    const spec = OWN[key];
    const id = `lesson-own-${key.replace("_", "-")}`;
    const input = h("input", { id, attrs: { type: "range", min: String(spec.min), max: String(spec.max), step: String(spec.step) } });
    const out = h("output", { attrs: { for: id } });
    input.addEventListener("input", () => actions.setParams({ [key]: Number(input.value) }));
    node.append(h("div", { class: "lesson-own-item" }, h("label", { attrs: { for: id } }, t(spec.label)), input, out));
    return (params: Readonly<Params>): void => {
      if (document.activeElement !== input) input.value = String(params[key]);
      out.textContent = num(params[key], 2);
    };
  });
  return { node, sync: (params) => syncs.forEach((sync) => sync(params)) };
}
