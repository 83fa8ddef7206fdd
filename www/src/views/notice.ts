// The link notice's words: one line per problem of the opening link (and per setting it changed in
// its lesson). Everything in it came from a URL, so it is plain text and every invisible or
// direction-changing character is spelled out.
import { t } from "../i18n/index";
import type { MessageKey } from "../i18n/index";
import type { LessonOverride } from "../lesson-link";
import type { LessonId } from "../lessons/catalog";
import type { UrlProblem } from "../url";
import { el } from "./controls";

/**
 * `text` with control, format (bidi overrides and isolates, zero-width marks), separator and lone
 * surrogate characters written as `\u202E` (`\u{E0001}` above the BMP), and `\` as `\\`, so no
 * value from a link can reverse, hide or break the line it is shown in. ZWJ stays (emoji sequences).
 */
export function escapeControls(text: string): string {
  return text.replace(/\\|(?!\u200D)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu, (char) => {
    if (char === "\\") return "\\\\";
    const code = char.codePointAt(0) ?? 0;
    const hex = code.toString(16).toUpperCase();
    return code > 0xffff ? `\\u{${hex}}` : `\\u${hex.padStart(4, "0")}`;
  });
}

/** One ignored part of the link, in words: field, value received, the rule it broke. */
export function problemText(problem: UrlProblem): string {
  const rule = problem.rule;
  let because: string;
  switch (rule.kind) {
    case "range":
      because = t(rule.integer ? "url.rule.integer" : "url.rule.number", { min: rule.min, max: rule.max });
      break;
    case "oneOf":
      because = t("url.rule.oneOf", { options: rule.options.join(", ") });
      break;
    case "tooLong":
      because = t("url.rule.tooLong", { max: rule.max });
      break;
    case "tokens":
      because = t("url.rule.tokens");
      break;
    case "promptCut":
      because = t("url.rule.promptCut", { max: rule.max });
      break;
    case "tokensCut":
      because = t("url.rule.tokensCut", { kept: rule.kept });
      break;
    case "repeated":
      because = t("url.rule.repeated", { used: escapeControls(rule.used) });
      break;
    case "notText":
      because = t("url.rule.notText");
      break;
    case "table":
      because = t("url.rule.table");
      break;
    case "settings":
      because = t("url.rule.settings");
      break;
    case "unknown":
      because = t("url.rule.unknown");
      break;
    case "cut":
      because = rule.kept === null ? t("url.rule.cut") : t("url.rule.cutTokens", { kept: rule.kept });
      break;
    case "linkTooLong":
      return t("url.linkTooLong", { max: rule.max });
    case "more":
      return t("url.more", { count: rule.count });
  }
  return t("url.ignored", { field: escapeControls(problem.field), value: escapeControls(problem.value), rule: because });
}

/** A link's setting used over one its lesson sets itself, in words (parsed values: nothing to spell out). */
export function overrideText(id: LessonId, over: LessonOverride): string {
  const lesson = t(`lesson.${id}.short` as MessageKey);
  return t("url.lessonOwn", { field: over.key, value: over.value, own: over.own, lesson, again: t("lesson.again") });
}

/**
 * The link notice's heading and lines, in the current language: the link's problems, then the
 * settings it changed in its lesson (`notes`); a link with only the latter was used as written, and
 * its heading says what it did instead. Hidden when there is nothing to say.
 */
export function fillLinkNotice(problems: ReadonlyArray<() => string>, notes: ReadonlyArray<() => string>): void {
  const head = el("url-notice-head");
  head.dataset["i18n"] = problems.length === 0 && notes.length > 0 ? "url.lessonNotice" : "url.notice";
  head.textContent = t(head.dataset["i18n"] as MessageKey);
  if (problems.length + notes.length === 0) el("url-notice").hidden = true;
  el("url-notice-list").replaceChildren(
    ...[...problems, ...notes].map((say) => {
      const li = document.createElement("li");
      li.textContent = say();
      return li;
    }),
  );
}
