// A touch screen without a keyboard has no Shift+Enter: its on-screen Return key is the only way to
// type a line break. There the prompt's Return writes a new line, as a phone's text boxes do, Step
// makes the next token, and the hint under the box says so; with a keyboard Enter still steps.
// A finger has no hover either: a first tap on a chart's bar shows its numbers (charts/tooltip.ts),
// and the inspector's hint says so.
import { el } from "./controls";

/** A touch screen is the only pointer (a phone, a tablet without a mouse or trackpad). */
export function touchOnly(): boolean {
  return matchMedia("(pointer: coarse)").matches && !matchMedia("(any-pointer: fine)").matches;
}

/** Word the prompt's key hint and the bars' hint for this device (call before the document is translated). */
export function installTouchKeys(): void {
  if (!touchOnly()) return;
  el("prompt-keys").dataset["i18n"] = "prompt.keysTouch";
  const barsHint = document.querySelector<HTMLElement>(".inspector > p.note[data-i18n='inspector.forceHint']");
  if (barsHint !== null) barsHint.dataset["i18n"] = "inspector.forceHintTouch";
}
