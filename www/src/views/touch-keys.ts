// A touch screen without a keyboard has no Shift+Enter: its on-screen Return key is the only way to
// type a line break. There the prompt's Return writes a new line, as a phone's text boxes do, Step
// makes the next token, and the hint under the box says so; with a keyboard Enter still steps.
import { el } from "./controls";

/** A touch screen is the only pointer (a phone, a tablet without a mouse or trackpad). */
export function touchOnly(): boolean {
  return matchMedia("(pointer: coarse)").matches && !matchMedia("(any-pointer: fine)").matches;
}

/** Word the prompt's key hint for this device (call before the document is translated). */
export function installTouchKeys(): void {
  if (touchOnly()) el("prompt-keys").dataset["i18n"] = "prompt.keysTouch";
}
