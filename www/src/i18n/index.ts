// Interface language: a key → plain-text lookup with {name} placeholders (never markup).
import { en } from "./en";
import type { MessageKey } from "./en";
import { zh } from "./zh";
import { markHanRuns } from "../token-lang";

export type Lang = "en" | "zh";
export type { MessageKey };

const tables: Record<Lang, Record<MessageKey, string>> = { en, zh };

let current: Lang = "en";

export function setLang(lang: Lang): void {
  current = lang;
}

export function lang(): Lang {
  return current;
}

/** The text for `key` in the current language, with `{name}` replaced from `vars`. */
export function t(key: MessageKey, vars: Record<string, string | number> = {}): string {
  return tables[current][key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in vars ? String(vars[name]) : whole,
  );
}

/** The text for `key` in `language`, placeholders left as they are (a lesson's name in a link). */
export function textIn(language: Lang, key: MessageKey): string {
  return tables[language][key];
}

/** Fill every `[data-i18n]` element's text, `[data-i18n-label]` element's aria-label and
 * `[data-i18n-placeholder]` input's placeholder. */
export function translateDocument(root: ParentNode = document): void {
  for (const el of root.querySelectorAll<HTMLElement>("[data-i18n]")) {
    el.textContent = t(el.dataset["i18n"] as MessageKey);
  }
  for (const el of root.querySelectorAll<HTMLElement>("[data-i18n-placeholder]")) {
    el.setAttribute("placeholder", t(el.dataset["i18nPlaceholder"] as MessageKey));
  }
  for (const el of root.querySelectorAll<HTMLElement>("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset["i18nLabel"] as MessageKey));
  }
  document.documentElement.lang = current === "zh" ? "zh-CN" : "en";
  // (the English text naming a Chinese source: its Chinese read in a Chinese voice)
  for (const el of root.querySelectorAll<HTMLElement>("[data-i18n]")) markHanRuns(el);
  // the language button is written in the other language (中文 / English): a screen reader reads
  // it in that language's voice only if it says so
  document.getElementById("lang-toggle")?.setAttribute("lang", current === "zh" ? "en" : "zh-CN");
  document.title = t("doc.title");
}

/**
 * A message from the wasm core or the model, in the page's language. The core words its errors in
 * English in a fixed, tested shape (field first, then the rule, then the value received), so the
 * Chinese page rewrites those shapes; anything else is shown as the core said it.
 */
export function coreMessage(message: string): string {
  if (current !== "zh") return message;
  const rules: Array<[RegExp, (...m: string[]) => string]> = [
    [/^prompt must contain at least one character$/, () => "提示词至少要有一个字符"],
    [/^prompt must be at most (\d+) tokens, got (\d+)$/, (n, got) => `提示词最多 ${n} 个 Token，现在有 ${got} 个`],
    [/^the context is full \((\d+) tokens\)$/, (n) => `上下文已满（${n} 个 Token）`],
    [/^generation has stopped \((.+)\); rewind or set a new prompt$/, (why) => `生成已经停止（${why}）；请回退或重新设置提示词`],
    [/^(\S+) must leave at least one token, but removed every remaining one$/, (stage) => `${stage} 必须至少保留一个 Token，但它去掉了剩下的全部候选`],
    [/^(\S+) has no stage in engine "(.+)"; leave it at (.+)$/, (field, engine, off) => `引擎「${engine}」没有 ${field} 这一步；请把它保持为 ${off}`],
    [/^logits must contain at least one finite value, got all -inf$/, () => "logits 至少要有一个有限值，现在全部是 -inf"],
    [/^logits\[(\d+)\] overflows float32 after (\S+); use a penalty closer to its off value$/, (i, stage) => `logits[${i}] 经过 ${stage} 后超出 float32 范围；请把惩罚参数调得更接近关闭值`],
    [/^unknown key "(.+?)" in config(?:; did you mean "(.+)"\?)?$/, (key, meant) => (meant ? `配置里有未知的键「${key}」；是不是想写「${meant}」？` : `配置里有未知的键「${key}」`)],
    [/^(\S+) must be (.+), got (.+)$/, (field, allowed, got) => `${field} 应为 ${allowed}，实际为 ${got}`],
  ];
  for (const [pattern, say] of rules) {
    const match = pattern.exec(message);
    if (match !== null) return say(...match.slice(1).map((s) => s ?? ""));
  }
  return message;
}
