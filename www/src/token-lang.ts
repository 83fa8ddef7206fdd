// The language of a token's text, for the markup around it: the model's Chinese tokens, candidates
// and text are marked lang="zh-CN" wherever the page shows them (on the English page a screen reader
// would read them as English, and the browser would pick an English font's fallback glyphs). In
// the Chinese page the mark only repeats the page's language. Other text is left to the page's own.
const HAN = /\p{Script=Han}/u;

/** "zh-CN" for text holding a Chinese character; null otherwise. */
export function tokenLang(text: string): string | null {
  return HAN.test(text) ? "zh-CN" : null;
}

/** Set (or clear) `node`'s lang for the token text it shows. */
export function markLang(node: Element, text: string): void {
  const lang = tokenLang(text);
  if (lang === null) node.removeAttribute("lang");
  else node.setAttribute("lang", lang);
}

/** The text as a node: a <span lang="zh-CN"> when it is Chinese, else a plain text node. */
export function langText(text: string): Node {
  const lang = tokenLang(text);
  if (lang === null) return document.createTextNode(text);
  const span = document.createElement("span");
  span.lang = lang;
  span.textContent = text;
  return span;
}
