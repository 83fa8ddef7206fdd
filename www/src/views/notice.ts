// The link notice's words: one line per problem of the opening link. Everything in it came from a
// URL, so it is plain text and every invisible or direction-changing character is spelled out.
import { t } from "../i18n/index";
import type { UrlProblem } from "../url";

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
