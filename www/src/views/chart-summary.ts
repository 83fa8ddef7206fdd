// Each stage chart's text alternative: the few numbers that matter, not one per bar. The highest
// scores, the most likely tokens, or for a filter how many it kept and removed (of the whole
// vocabulary) and the most likely of each; read as the chart's description (inspector.ts), while
// the SVG's own axis, labels and numbers are hidden from assistive technology (the bars, one tab
// stop, still name their token and numbers one by one).
import type { StageTrace } from "../core";
import type { StepView } from "../charts/frame";
import { grouped, num, percent } from "../format";
import { t } from "../i18n/index";

/** How many tokens a summary names. */
const NAMED = 3;

type Row = { label: string; value: string };

function list(rows: Row[]): string {
  return rows.slice(0, NAMED).map((r) => t("summary.item", { token: r.label, value: r.value })).join(t("announce.join"));
}

/** The summary of the chart `kind` ("logits", "softmax" or a stage's name) for `view`. */
export function chartSummary(kind: string, stage: StageTrace | null, view: StepView): string {
  const shown = view.order.filter(({ c }) => c.removed_by !== "logits");
  type Entry = StepView["order"][number];
  const row = (p: (e: Entry) => number) => (e: Entry): Row => ({ label: view.label(e.c.id), value: percent(p(e)) });
  if (kind === "logits") return t("summary.logits", { top: list(shown.map(({ c }) => ({ label: view.label(c.id), value: num(c.logit, 2) }))) });
  if (kind === "softmax") {
    const byRaw = [...shown].sort((a, b) => b.c.p_raw - a.c.p_raw);
    return t("summary.softmax", { top: list(byRaw.map(row((e) => e.c.p_raw))) });
  }
  if (stage === null) return "";
  if (kind === "temperature") {
    const byTempered = [...shown].sort((a, b) => b.c.p_tempered - a.c.p_tempered);
    return t("summary.temperature", { t: num(stage.value, 2), top: list(byTempered.map(row((e) => e.c.p_tempered))) });
  }
  // a filter: what reached it, split into what it kept and what it removed
  const here = view.stageIndex.get(stage.name) ?? -1;
  const input = (e: Entry): number => stage.p_in[e.i] ?? 0;
  const reached = shown.filter(({ c }) => c.removed_by === null || (view.stageIndex.get(c.removed_by) ?? -1) >= here).sort((a, b) => input(b) - input(a));
  const kept = reached.filter(({ c }) => c.removed_by !== stage.name);
  const removed = reached.filter(({ c }) => c.removed_by === stage.name);
  const keptText = t("summary.kept", { n: grouped(stage.kept_count), top: list(kept.map(row(input))) });
  if (stage.removed_count === 0) return `${keptText} ${t("summary.removedNone")}`;
  const removedText = removed.length === 0 ? t("summary.removedCount", { n: grouped(stage.removed_count) }) : t("summary.removed", { n: grouped(stage.removed_count), top: list(removed.map(row(input))) });
  return `${keptText} ${removedText}`;
}
