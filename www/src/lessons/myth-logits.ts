// 误解二 (logits are not probabilities), on the chapter's hand-made table: its logits editable in
// the lesson, so "edit a logit in the table on the left" can be done where the sidebar is hidden.
import { num, percent } from "../format";
import { t } from "../i18n/index";
import { FIRST_VISIT } from "../state";
import { numberField } from "../views/number-field";
import type { NumberField } from "../views/number-field";
import { LOGIT_RULE } from "../views/table";
import { glossed, h, keyed, para, pointer, say } from "./kit";
import type { Lesson } from "./kit";
import { TS_PROMPT } from "./myths";

/** 误解二：logits are not probabilities. Their sum is any number; softmax's is 1. */
export function logitsNotProbabilities(): Lesson {
  return {
    prompts: [TS_PROMPT],
    // the chapter's own table, editable: not a model's distribution
    runsOn: "manual",
    async setUp(actions) {
      // the first visit's seed: its first draws are typical ones, not a tail token on the first Step
      await actions.apply({ source: "manual", presetId: "ts-zh", params: { temperature: 1, top_p: 1, seed: FIRST_VISIT.seed }, path: [] });
    },
    build(body, env) {
      const { actions } = env;
      // editable logits, as in the sidebar's table (hidden in projector and embed modes): "edit a logit in the table on the left" is done here
      const rowsBody = h("tbody");
      const sumLogits = h("td", { class: "sum-logits" });
      const sumP = h("td", { class: "sum-p" });
      const table = h(
        "table",
        { class: "lesson-table" },
        h("caption", {}, t("lesson.myth2.caption")),
        h("thead", {}, h("tr", {}, h("th", { attrs: { scope: "col" } }, "Token"), h("th", { attrs: { scope: "col" } }, "logit"), h("th", { attrs: { scope: "col" } }, t("lesson.myth2.prob")))),
        rowsBody,
        h("tfoot", {}, h("tr", {}, h("th", { attrs: { scope: "row" } }, t("lesson.myth2.sum")), sumLogits, sumP)),
      );
      const cells = new Map<number, { field: NumberField; p: HTMLElement }>();
      const sums = h("p", { class: "lesson-sums", attrs: { role: "status" } });
      // a refused logit is named beside the table, not in its cell: a sentence there widened the
      // table past the screen in projector mode (its cells never wrap)
      const errors = h("div", { class: "lesson-field-errors" });
      body.append(
        para("lesson.myth2.intro"),
        h(
          "div",
          { class: "lesson-cols" },
          h("div", {}, table),
          h("div", {}, sums, errors, para("lesson.myth2.try"), h("div", { class: "lesson-row" }, pointer(env, "lesson.show.logit", "#logit-table tbody input"), pointer(env, "lesson.show.logitsChart", '#stages figure[data-stage="logits"]'))),
        ),
      );
      return () => {
        const preview = actions.preview();
        // in the table's own order (an id per row, in order), which an edit does not reshuffle under the typing hand
        const rows = preview?.ok === true ? preview.result.candidates.filter((c) => Number.isFinite(c.logit)).sort((a, b) => a.id - b.id) : [];
        const logitSum = rows.reduce((s, c) => s + c.logit, 0);
        const pSum = rows.reduce((s, c) => s + c.p_raw, 0);
        // the logits are f32 (2.2 reads 2.2000000476): the table's own number, as typed
        const shown = (logit: number): number => Number(logit.toPrecision(7));
        keyed(rowsBody, rows.map((c) => c.id).join("."), () => {
          cells.clear();
          errors.replaceChildren();
          return rows.map((c) => {
            const token = glossed(actions.tokenText(c.id));
            const input = h("input", { class: "lesson-logit", attrs: { "aria-label": t("table.logitOf", { token }), value: String(shown(c.logit)) } });
            const logitCell = h("td", {}, input);
            const p = h("td", {});
            cells.set(c.id, { field: numberField(input, LOGIT_RULE, (logit) => actions.setLogit(c.id, logit), (e) => errors.append(e)), p });
            return h("tr", {}, h("th", { attrs: { scope: "row" } }, token), logitCell, p);
          });
        });
        for (const c of rows) {
          const cell = cells.get(c.id);
          cell?.field.render(shown(c.logit));
          if (cell !== undefined) say(cell.p, percent(c.p_raw));
        }
        say(sumLogits, num(logitSum, 2));
        say(sumP, num(pSum, 3));
        say(sums, t("lesson.myth2.sums", { logits: num(logitSum, 2), p: num(pSum, 3) }));
      };
    },
  };
}
