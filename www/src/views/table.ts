// The "manual logits" editor: the rows of the hand-made table the next step reads. Editing a logit
// re-runs the step at once, so a teacher can type the chapter's numbers and watch softmax react.
import { visible } from "../format";
import { lang, t } from "../i18n/index";
import type { TableRow } from "../sources/manual";
import { MAX_LOGIT } from "../url";
import { el } from "./controls";
import { numberField, readNumber, inRange } from "./number-field";
import type { NumberField } from "./number-field";

/** A logit a table row (and so a link) can hold (误解二's own table too). */
export const LOGIT_RULE = { min: -MAX_LOGIT, max: MAX_LOGIT, integer: false };

export function createTable(handlers: { onRows(rows: TableRow[]): void }): {
  render(rows: TableRow[], eos: string, editable: boolean): void;
} {
  const body = el<HTMLTableElement>("logit-table").tBodies[0] ?? el<HTMLTableElement>("logit-table").createTBody();
  const newToken = el<HTMLInputElement>("new-token");
  const newLogit = el<HTMLInputElement>("new-logit");
  let current: TableRow[] = [];
  // the new row's logit: refused in words like the rows' (Add reads what the box accepted)
  let newValue = 0;
  const newField = numberField(newLogit, LOGIT_RULE, (value) => {
    newValue = value;
    newField.render(value);
  });
  newField.render(newValue);
  const fields = new WeakMap<HTMLInputElement, NumberField>();

  el<HTMLButtonElement>("add-row").addEventListener("click", () => {
    const token = newToken.value;
    const typed = readNumber(newLogit.value, LOGIT_RULE);
    if (!inRange(typed, LOGIT_RULE)) newLogit.dispatchEvent(new Event("change"));
    const logit = inRange(typed, LOGIT_RULE) ? typed : null;
    if (token === "" || logit === null) return;
    const rows = current.filter((row) => row.token !== token);
    rows.push({ token, logit });
    newToken.value = "";
    handlers.onRows(rows);
  });

  return {
    render(rows, eos, editable) {
      current = rows;
      // keep focus on a logit input that is being edited: only rebuild when the tokens changed
      const sameTokens =
        body.dataset["lang"] === lang() &&
        body.rows.length === rows.length && rows.every((row, i) => body.rows[i]?.dataset["token"] === row.token);
      if (sameTokens) {
        rows.forEach((row, i) => {
          const input = body.rows[i]?.querySelector("input");
          if (input) fields.get(input)?.render(row.logit);
          if (input) input.disabled = !editable;
        });
        return;
      }
      body.dataset["lang"] = lang();
      // a row's × that had the keyboard's focus goes with its row: focus goes to the × now in its
      // place (else the last row's; else the new token's box), not to the page
      const active = document.activeElement;
      const removedAt = active instanceof HTMLButtonElement && body.contains(active) ? (active.closest("tr")?.sectionRowIndex ?? 0) : null;
      body.replaceChildren(
        ...rows.map((row, i) => {
          const tr = document.createElement("tr");
          tr.dataset["token"] = row.token;
          const name = document.createElement("th");
          name.scope = "row";
          name.textContent = visible(row.token);
          if (row.token === eos) {
            name.classList.add("eos");
            name.title = t("table.eos");
          }
          const logitCell = document.createElement("td");
          const input = document.createElement("input");
          input.disabled = !editable;
          input.setAttribute("aria-label", t("table.logitOf", { token: visible(row.token) }));
          logitCell.append(input);
          const field = numberField(input, LOGIT_RULE, (logit) => handlers.onRows(current.map((r, j) => (j === i ? { ...r, logit } : r))));
          field.render(row.logit);
          fields.set(input, field);
          const removeCell = document.createElement("td");
          const remove = document.createElement("button");
          remove.type = "button";
          remove.className = "small quiet";
          remove.textContent = "×";
          remove.disabled = !editable || rows.length <= 1;
          remove.setAttribute("aria-label", t("table.removeOf", { token: visible(row.token) }));
          remove.addEventListener("click", () => handlers.onRows(current.filter((_, j) => j !== i)));
          removeCell.append(remove);
          tr.append(name, logitCell, removeCell);
          return tr;
        }),
      );
      if (removedAt !== null) {
        const next = body.rows[Math.min(removedAt, body.rows.length - 1)]?.querySelector("button");
        (next && !next.disabled ? next : newToken).focus({ preventScroll: true });
      }
    },
  };
}
