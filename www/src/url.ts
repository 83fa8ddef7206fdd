// The URL's share of the state. For now the language (?lang=zh|en) and the logits source
// (?source=model|manual); the full shareable state
// (issue 5) extends `readUrl`/`writeUrl` field by field.
import type { Lang } from "./i18n/index";
import type { SourceKind } from "./state";

export interface UrlState {
  lang: Lang | null;
  source: SourceKind | null;
}

export function readUrl(search: string = location.search): UrlState {
  const params = new URLSearchParams(search);
  const lang = params.get("lang");
  const source = params.get("source");
  return { lang: lang === "zh" || lang === "en" ? lang : null, source: source === "model" || source === "manual" ? source : null };
}

export function writeUrl(state: { lang: Lang; source: SourceKind }): void {
  const url = new URL(location.href);
  url.searchParams.set("lang", state.lang);
  url.searchParams.set("source", state.source);
  history.replaceState(null, "", url);
}

/** The browser's preference: Chinese if its first language is Chinese. */
export function browserLang(): Lang {
  return (navigator.language || "en").toLowerCase().startsWith("zh") ? "zh" : "en";
}
