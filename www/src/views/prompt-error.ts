// A prompt the model cannot read (too long for its context, empty): the message says what to do,
// not only the rule, and the prompt box is marked invalid and described by it, so a screen reader
// on the box hears why Step is off. The message's prefix ends in a full-width colon in Chinese,
// so no space follows it there.
import { coreMessage, lang, t } from "../i18n/index";

const FIXES: readonly [RegExp, "prompt.fixTooLong" | "prompt.fixEmpty"][] = [
  [/^prompt must be at most \d+ tokens, got \d+$/, "prompt.fixTooLong"],
  [/^prompt must contain at least one character$/, "prompt.fixEmpty"],
];

/** The whole message for a prompt the source refused. */
export function promptErrorText(message: string): string {
  const found = FIXES.find(([shape]) => shape.test(message))?.[1];
  // in projector mode the sidebar's box is hidden: the fix names the way to the projector's own
  const fix = found === undefined ? undefined : document.body.dataset["projector"] === "true" ? (`${found}.projector` as const) : found;
  const gap = lang() === "zh" ? "" : " ";
  return `${t("error.prompt")}${gap}${coreMessage(message)}${fix === undefined ? "" : `${lang() === "zh" ? "。" : ". "}${t(fix)}`}`;
}

/** Mark the prompt box invalid (described by the error) or valid again. */
export function markPrompt(invalid: boolean): void {
  const box = document.getElementById("prompt");
  if (box === null) return;
  const described = (box.getAttribute("aria-describedby") ?? "").split(" ").filter((id) => id !== "" && id !== "error");
  if (invalid) {
    box.setAttribute("aria-invalid", "true");
    described.unshift("error");
  } else {
    box.removeAttribute("aria-invalid");
  }
  box.setAttribute("aria-describedby", described.join(" "));
}
