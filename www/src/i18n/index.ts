// Interface language: a key → plain-text lookup with {name} placeholders (never markup).
import { en } from "./en";
import type { MessageKey } from "./en";
import { zh } from "./zh";

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
  document.title = t("doc.title");
}
