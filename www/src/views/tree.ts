// The path tree: every path kept after forcing a token, nested under the path it left, with its
// log-probability under the source, so students see an early choice change everything after it.
import { markLang } from "../token-lang";
import { num } from "../format";
import { t } from "../i18n/index";
import type { AppState, Branch, PathEntry } from "../state";
import { el } from "./controls";

export function createTree(handlers: { onSwitch(index: number): void }): {
  render(state: AppState, entryText: (entry: PathEntry) => string): void;
} {
  const root = el<HTMLDivElement>("tree");
  return {
    render(state, entryText) {
      if (state.branches.length <= 1) {
        const p = document.createElement("p");
        p.className = "note";
        p.textContent = t("tree.empty");
        root.replaceChildren(p);
        return;
      }
      const list = (parent: number | null): HTMLUListElement | null => {
        const children = state.branches.map((b, i): [Branch, number] => [b, i]).filter(([b]) => b.parent === parent);
        if (children.length === 0) return null;
        const ul = document.createElement("ul");
        for (const [branch, index] of children) {
          const li = document.createElement("li");
          const button = document.createElement("button");
          button.type = "button";
          button.className = "path";
          button.dataset["branch"] = String(index);
          // a path of the opening link still being rebuilt has its tokens but no entries yet
          const waiting = branch.entries.length < branch.ids.length;
          const shared = branch.entries.slice(0, branch.forkAt).map(entryText).join("");
          const own = waiting ? "…" : branch.entries.slice(branch.forkAt).map(entryText).join("");
          const prefix = document.createElement("span");
          prefix.className = "shared";
          prefix.textContent = shared.length > 8 ? `…${shared.slice(-8)}` : shared;
          markLang(prefix, prefix.textContent);
          const rest = document.createElement("span");
          rest.className = "own";
          rest.textContent = own;
          markLang(rest, own);
          button.append(prefix, rest);
          button.setAttribute("aria-current", String(index === state.currentBranch));
          button.title = t("tree.open");
          button.addEventListener("click", () => handlers.onSwitch(index));
          const logp = document.createElement("span");
          logp.className = "logp";
          // log-probability of the path: the sum of ln p at T = 1 read from each step's trace
          const total = branch.entries.reduce((sum, e) => sum + Math.log(e.chosen.p_raw), 0);
          logp.textContent = waiting ? "…" : t("tree.logp", { v: num(total, 2) });
          li.append(button, logp);
          if (waiting) li.setAttribute("aria-busy", "true");
          if (index === state.currentBranch) {
            const badge = document.createElement("span");
            badge.className = "badge";
            badge.textContent = t("tree.current");
            li.append(badge);
          }
          const sub = list(index);
          if (sub) li.append(sub);
          ul.append(li);
        }
        return ul;
      };
      // the tree is drawn afresh: a path that had the keyboard's focus (Enter switched to it) keeps it
      const active = document.activeElement;
      const focused = active instanceof HTMLElement && root.contains(active) ? active.dataset["branch"] : undefined;
      root.replaceChildren(list(null) ?? document.createElement("ul"));
      if (focused !== undefined) root.querySelector<HTMLElement>(`button[data-branch="${focused}"]`)?.focus({ preventScroll: true });
    },
  };
}
