// The generated text as chips: one list item per token, tinted by the probability it had when
// chosen; a click inspects that step.
import { chipParts, percent } from "../format";
import { t } from "../i18n/index";
import type { AppState } from "../state";
import { el } from "./controls";

export function createTokens(handlers: { onInspect(index: number): void }): {
  render(state: AppState, tokenText: (id: number) => string, isEos: (id: number) => boolean): void;
} {
  const list = el<HTMLOListElement>("chips");
  const promptEcho = el<HTMLSpanElement>("prompt-echo");
  return {
    render(state, tokenText, isEos) {
      promptEcho.textContent = state.prompt;
      const items = state.path.map((entry, index) => {
        const li = list.children[index] instanceof HTMLLIElement ? (list.children[index] as HTMLLIElement) : document.createElement("li");
        const button = li.querySelector("button") ?? li.appendChild(document.createElement("button"));
        button.type = "button";
        button.className = "chip";
        button.replaceChildren();
        const text = tokenText(entry.id);
        if (isEos(entry.id)) {
          button.classList.add("eos");
          button.append(text);
        } else {
          const parts = chipParts(text);
          if (parts.space) {
            const space = document.createElement("span");
            space.className = "space";
            space.setAttribute("aria-hidden", "true");
            space.textContent = "␣";
            button.append(space, " ");
          }
          button.append(parts.text);
        }
        const p = entry.chosen.p;
        li.style.setProperty("--p", String(p));
        li.dataset["rank"] = String(entry.rank);
        li.dataset["forced"] = String(entry.forced);
        li.classList.toggle("forced", entry.forced);
        li.classList.toggle("viewing", state.viewing === index);
        button.title = t("chip.title", {
          token: text,
          p: percent(p),
          forced: entry.forced ? t("chip.forced") : "",
        });
        button.setAttribute("aria-pressed", String(state.viewing === index));
        button.onclick = () => handlers.onInspect(index);
        return li;
      });
      list.replaceChildren(...items);
      list.dataset["empty"] = String(items.length === 0);
      list.dataset["emptyText"] = t("generated.empty");
    },
  };
}
