// Projector mode's prompt editor: the sidebar (and its prompt box) is hidden in projector mode, so a
// "✎ Prompt" button at the start of the text strip opens a large one-line editor in the strip's place.
// Enter applies the prompt and takes one step (as the sidebar's box does), Apply only applies, Esc or
// Cancel leave it unchanged. On a touch-only screen (a classroom board) the on-screen keyboard's
// Return is the one key that finishes the box: it applies without a step, so the class can predict
// before the teacher taps Step (the sidebar's Return there never steps either: it writes a new line). Over the hand-made tables, which never read a prompt, the editor says so
// and offers the embedded model instead of a box that would silently do nothing. The editor exists in
// the DOM only while open (its label never doubles the sidebar's "Prompt").
import { t } from "../i18n/index";
import { h } from "../lessons/kit";
import { touchOnly } from "./touch-keys";

export interface PromptEditorDeps {
  /** The prompt on the page now. */
  prompt(): string;
  /** Whether the page is on a hand-made table (the prompt is only its title). */
  manual(): boolean;
  /** Whether the source reads "</s>" in a prompt as text, never as the end token (the embedded model). */
  endTokenAsText(): boolean;
  /** Whether the embedded model is there to switch to. */
  modelReady(): boolean;
  /** Apply a prompt (the text starts over from it); `step` then takes one step. */
  apply(prompt: string, step: boolean): void;
  /** Switch the page to the embedded model, keeping the prompt. */
  useModel(): void;
  /** Pause Play: the text must not change under the teacher's typing. */
  pause(): void;
}

export interface PromptEditor {
  /** Redraw after a page render: closes itself when projector mode is left. */
  render(): void;
  isOpen(): boolean;
  /** Open the box (the E key; the ✎ Prompt button does the same), focus in it; Play pauses. */
  open(): void;
}

export function createPromptEditor(deps: PromptEditorDeps): PromptEditor {
  const card = document.querySelector<HTMLElement>(".text-card");
  const generated = document.getElementById("generated");
  const edit = h("button", { id: "pj-prompt-edit", class: "pj-prompt-edit", attrs: { type: "button", "aria-expanded": "false", "aria-controls": "pj-prompt", "aria-keyshortcuts": "E" } });
  edit.addEventListener("click", () => (form === null ? open() : close(edit)));
  // at the start of the text strip, before the prompt it edits (it reads as the prompt's label there)
  generated?.insertBefore(edit, document.getElementById("prompt-echo"));
  let form: HTMLElement | null = null;
  /** The language and source the open editor was built for (rebuilt when either changes). */
  let builtFor = "";

  const projectorOn = (): boolean => document.body.dataset["projector"] === "true";
  const key = (): string => `${t("pjPrompt.label")}|${deps.manual()}`;

  function build(): HTMLElement {
    builtFor = key();
    const manual = deps.manual();
    const text = h("textarea", { id: "pj-prompt-text", attrs: { rows: "1", spellcheck: "false", "aria-describedby": manual ? "pj-prompt-why" : "pj-prompt-keys" } });
    text.value = deps.prompt();
    text.readOnly = manual;
    // "</s>" typed on the embedded model is text: said while it is typed (the sidebar's note is hidden here)
    const keys = h("p", { id: "pj-prompt-keys", class: "pj-prompt-note", attrs: { "aria-live": "polite" } });
    const sayKeys = (): void => {
      const said = deps.endTokenAsText() && text.value.includes("</s>") ? t("pjPrompt.eosText") : t(touchOnly() ? "pjPrompt.keysTouch" : "pjPrompt.keys");
      if (keys.textContent !== said) keys.textContent = said;
    };
    sayKeys();
    text.addEventListener("input", sayKeys);
    text.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" || event.shiftKey || event.isComposing || event.keyCode === 229) return;
      event.preventDefault();
      if (deps.manual()) return;
      finish(text.value, !touchOnly());
    });
    const apply = h("button", { class: "primary", attrs: { type: "button" } }, t("pjPrompt.apply"));
    apply.addEventListener("click", () => finish(text.value, false));
    // over a table the prompt cannot apply: in Apply's place, the way to a model that reads it
    const useModel = h("button", { class: "primary", attrs: { type: "button" } }, t("pjPrompt.useModel"));
    useModel.addEventListener("click", () => {
      deps.useModel();
      // the same editor, now over the model: the prompt can be typed
      rebuild();
      document.getElementById("pj-prompt-text")?.focus();
    });
    apply.disabled = manual;
    const action = manual && deps.modelReady() ? useModel : apply;
    const cancel = h("button", { attrs: { type: "button" } }, t("pjPrompt.cancel"));
    cancel.addEventListener("click", () => close(edit));
    const node = h(
      "div",
      { id: "pj-prompt", class: "pj-prompt", attrs: { role: "group", "aria-labelledby": "pj-prompt-label" } },
      h("label", { id: "pj-prompt-label", attrs: { for: "pj-prompt-text" } }, t("pjPrompt.label")),
      text,
      action,
      cancel,
      manual
        ? h("p", { id: "pj-prompt-why", class: "pj-prompt-note" }, t("pjPrompt.manual"))
        : keys,
    );
    // Esc leaves the prompt as it was (and is not also taken as "close the lesson")
    node.addEventListener("keydown", (event) => {
      if (event.key !== "Escape" || event.isComposing || event.keyCode === 229) return;
      event.preventDefault();
      close(edit);
    });
    return node;
  }

  function open(): void {
    if (form !== null || generated === null) return;
    deps.pause();
    form = build();
    generated.after(form);
    card?.setAttribute("data-editing", "true");
    edit.setAttribute("aria-expanded", "true");
    const text = form.querySelector("textarea");
    text?.focus();
    text?.select();
  }

  function rebuild(): void {
    if (form === null) return;
    const next = build();
    form.replaceWith(next);
    form = next;
  }

  /** Close; focus goes to `focusTo` (null: leave it where it is). */
  function close(focusTo: HTMLElement | null): void {
    if (form === null) return;
    form.remove();
    form = null;
    card?.removeAttribute("data-editing");
    edit.setAttribute("aria-expanded", "false");
    focusTo?.focus();
  }

  function finish(prompt: string, step: boolean): void {
    close(null);
    deps.apply(prompt, step);
    // focus on Step, the next thing a teacher does (Enter, Space and → step from it); else back here
    const next = document.getElementById("step");
    (next instanceof HTMLButtonElement && !next.disabled ? next : edit).focus();
  }

  function render(): void {
    // short on screen (it shares the strip's line with the text), named in full by its content (not
    // aria-label: a field's label search for "Prompt" must find the sidebar's box alone)
    edit.replaceChildren(h("span", { attrs: { "aria-hidden": "true" } }, `✎ ${t("pjPrompt.editShort")}`), h("span", { class: "visually-hidden" }, t("pjPrompt.edit")));
    if (form === null) return;
    if (!projectorOn()) close(null);
    else if (builtFor !== key()) rebuild();
  }

  return { render, isOpen: () => form !== null, open };
}
