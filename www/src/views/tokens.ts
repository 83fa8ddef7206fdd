// The generated text as chips: one list item per token, tinted by the probability it had when
// chosen; a click inspects that step. A token that ends inside a UTF-8 character shows its byte
// (`<E4>`) as a pending chip, never a replacement character. The end token reads 「结束符」 / "end".
// Below the chips the same text is shown plain (no ␣, no chips), and copying gives that plain text.
import { langText, markLang } from "../token-lang";
import { chipParts, percent } from "../format";
import { t } from "../i18n/index";
import type { AppState, PathEntry } from "../state";
import { el } from "./controls";

/** How one generated token reads on its chip. */
export interface ChipDisplay {
  text: string;
  /** The vocabulary entry, for the tooltip when it differs from `text`. */
  token: string;
  kind: "text" | "eos" | "pending";
  /** For a pending chip: the unfinished character's bytes so far (`<E4><B8>`). */
  pending?: string;
}

export function createTokens(handlers: { onInspect(index: number): void }): {
  render(state: AppState, display: (entry: PathEntry) => ChipDisplay, blocked?: boolean): void;
} {
  const list = el<HTMLOListElement>("chips");
  const promptEcho = el<HTMLSpanElement>("prompt-echo");
  const plainText = el<HTMLOutputElement>("plain-text");
  const copyMsg = el<HTMLSpanElement>("copy-msg");
  let plain = "";
  // selecting and copying the chips gives the text, not the ␣ markers or chip labels
  el<HTMLDivElement>("generated").addEventListener("copy", (event) => {
    if (event.clipboardData === null) return;
    event.clipboardData.setData("text/plain", plain);
    event.preventDefault();
  });
  el<HTMLButtonElement>("copy-text").addEventListener("click", () => {
    navigator.clipboard.writeText(plain).then(
      () => (copyMsg.textContent = t("text.copied")),
      () => (copyMsg.textContent = ""),
    );
  });
  return {
    render(state, display, blocked) {
      promptEcho.textContent = state.prompt;
      markLang(promptEcho, state.prompt);
      copyMsg.textContent = "";
      plain = state.prompt + state.path.map((entry) => plainPiece(display(entry))).join("");
      plainText.textContent = plain;
      markLang(plainText, plain);
      const items = state.path.map((entry, index) => {
        const li = list.children[index] instanceof HTMLLIElement ? (list.children[index] as HTMLLIElement) : document.createElement("li");
        const button = li.querySelector("button") ?? li.appendChild(document.createElement("button"));
        button.type = "button";
        button.className = "chip";
        button.replaceChildren();
        const shown = display(entry);
        if (shown.kind === "eos") {
          button.classList.add("eos");
          button.append(t("end.chip"));
        } else if (shown.kind === "pending") {
          button.classList.add("pending");
          button.append(langText(shown.text));
        } else {
          const parts = chipParts(shown.text);
          if (parts.space) {
            const space = document.createElement("span");
            space.className = "space";
            space.setAttribute("aria-hidden", "true");
            space.textContent = "␣";
            button.append(space, " ");
          }
          button.append(langText(parts.text));
          // a character outside the BMP completed from byte tokens (an emoji, 𠮷) is often missing from
          // the fonts: its code point beside it, so a tofu box still says which character came out
          if (shown.token !== shown.text) {
            const astral = [...parts.text].filter((c) => (c.codePointAt(0) ?? 0) > 0xffff);
            if (astral.length > 0) button.append(codePoints(astral));
          }
        }
        const p = entry.chosen.p;
        li.style.setProperty("--p", String(p));
        li.dataset["rank"] = String(entry.rank);
        li.dataset["forced"] = String(entry.forced);
        li.dataset["kind"] = shown.kind;
        li.classList.toggle("forced", entry.forced);
        li.classList.toggle("viewing", state.viewing === index);
        const token = shown.kind === "eos" ? t("end.chip") : shown.token !== shown.text ? `${shown.text} (${shown.token})` : shown.text;
        button.title =
          (shown.kind === "eos" ? `${t("end.title", { token: shown.token })} ` : "") +
          t("chip.title", { token, p: percent(p), forced: entry.forced ? t("chip.forced") : "" }) +
          (shown.kind === "pending" ? ` ${t("chip.pending", { bytes: shown.pending ?? shown.text })}` : "");
        button.setAttribute("aria-pressed", String(state.viewing === index));
        button.onclick = () => handlers.onInspect(index);
        return li;
      });
      // the chips stay where they are (replaceChildren moves them out and back: the chip Enter
      // pressed lost the keyboard's focus to the page); new ones are added, dropped ones removed
      items.forEach((li, i) => {
        if (list.children[i] !== li) list.insertBefore(li, list.children[i] ?? null);
      });
      while (list.children.length > items.length) list.lastElementChild?.remove();
      list.dataset["empty"] = String(items.length === 0);
      // a prompt the model cannot read turns Step off: its error says what to do instead
      list.dataset["emptyText"] = blocked === true ? "" : t("generated.empty");
    },
  };
}

/** `U+1F917` labels for characters (read by a screen reader too; never part of the plain text). */
function codePoints(chars: string[]): HTMLElement {
  const label = document.createElement("span");
  label.className = "codepoint";
  label.textContent = chars.map((c) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase()}`).join(" ");
  return label;
}

/** A chip's share of the plain text: its text (an end token and unfinished bytes add nothing). */
function plainPiece(shown: ChipDisplay): string {
  return shown.kind === "text" ? shown.text : "";
}
