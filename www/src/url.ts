// The URL's share of the state. For now only the language (?lang=zh|en); the full shareable state
// (issue 5) extends `readUrl`/`writeUrl` field by field.
import type { Lang } from "./i18n/index";

export interface UrlState {
  lang: Lang | null;
}

export function readUrl(search: string = location.search): UrlState {
  const params = new URLSearchParams(search);
  const lang = params.get("lang");
  return { lang: lang === "zh" || lang === "en" ? lang : null };
}

export function writeUrl(state: { lang: Lang }): void {
  const url = new URL(location.href);
  url.searchParams.set("lang", state.lang);
  history.replaceState(null, "", url);
}

/** The browser's preference: Chinese if its first language is Chinese. */
export function browserLang(): Lang {
  return (navigator.language || "en").toLowerCase().startsWith("zh") ? "zh" : "en";
}
