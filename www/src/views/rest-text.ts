// How the page words a model server's top N (issue 12): the rest-of-the-vocabulary bar's texts,
// the kept count and entropy that cover the listed tokens only (said so, with the bounds the core
// computes), and each stage's note while the rest is still in play. Reads `StepResult.rest` only.
import type { RestTexts } from "../charts/rest";
import type { StageName, StepResult } from "../core";
import { grouped, num, percent, STAGE_NAMES } from "../format";
import { t } from "../i18n/index";

// (whole counts: 7,999)
const count = grouped;

/** The rest bar's words, or null when the step's logits covered the whole vocabulary. */
export function restTexts(r: StepResult): RestTexts | null {
  const rest = r.rest;
  if (rest === undefined) return null;
  const p = percent(rest.mass);
  return {
    tick: t("rest.tick"),
    label: t("rest.label"),
    barName: t("rest.barName", { p, n: count(r.vocab_size - rest.given) }),
    removedNote: (stage) => t("rest.removedNote", { stage: STAGE_NAMES[stage] }),
    removedName: (stage) => t("rest.removedName", { p, stage: STAGE_NAMES[stage] }),
  };
}

/** "Kept": of the whole vocabulary when the rest was provably removed, else of the listed tokens only. */
export function keptText(r: StepResult, whole: number): string {
  const rest = r.rest;
  if (rest === undefined) return t("inspector.keptValue", { k: r.kept_count, n: whole });
  if (rest.removed_by !== null) return t("rest.keptExact", { k: r.kept_count, n: count(r.vocab_size), stage: STAGE_NAMES[rest.removed_by] });
  return t("rest.kept", { k: r.kept_count, n: count(rest.given), m: count(r.vocab_size - rest.given) });
}

/** The projector's short kept cell. */
export function keptShort(r: StepResult, whole: number): string {
  const rest = r.rest;
  if (rest === undefined) return `${r.kept_count} / ${whole}`;
  if (rest.removed_by !== null) return `${r.kept_count} / ${count(r.vocab_size)}`;
  return t("rest.pjKept", { k: r.kept_count, n: count(rest.given) });
}

/** Entropy: the final one (over the listed tokens unless exact) and the raw one as the core's bounds. */
export function entropyText(r: StepResult): string {
  const rest = r.rest;
  if (rest === undefined) return t("inspector.entropyValue", { h: num(r.entropy_bits, 2), raw: num(r.raw_entropy_bits, 2) });
  const bounds = { h: num(r.entropy_bits, 2), lo: num(rest.raw_entropy_bits_min, 2), hi: num(rest.raw_entropy_bits_max, 2) };
  return rest.exact ? t("rest.entropyExact", bounds) : t("rest.entropy", bounds);
}

/**
 * A stage chart's note while the rest of the vocabulary is still in play before it (its input is
 * the listed tokens only); "" once a cut removed the rest, or for a full vocabulary.
 */
export function stageRestNote(r: StepResult, stage: StageName): string {
  const rest = r.rest;
  if (rest === undefined || rest.mass <= 0) return "";
  const order = r.stages.map((s) => s.name);
  const removedAt = rest.removed_by === null ? Infinity : order.indexOf(rest.removed_by);
  return order.indexOf(stage) <= removedAt && rest.removed_by !== stage
    ? t("rest.stageListed", { n: count(rest.given), p: percent(rest.mass) })
    : "";
}

/** The final strip's box beside the draw, and why u never lands in it. */
export function stripRest(r: StepResult): { label: string; status: string; name: string; why: string } | null {
  const rest = r.rest;
  if (rest === undefined || rest.mass <= 0) return null;
  const p = percent(rest.mass);
  const stage = rest.removed_by === null ? null : STAGE_NAMES[rest.removed_by];
  return {
    label: t("rest.label"),
    status: `${p} · ${stage === null ? t("rest.strip.box") : t("rest.strip.removed", { stage })}`,
    name: t("rest.strip.name", { p }),
    why: stage === null ? t("rest.strip.whyInexact", { p, n: count(rest.given) }) : t("rest.strip.whyExact", { p, stage }),
  };
}
