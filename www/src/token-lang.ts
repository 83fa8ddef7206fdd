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

/** A run of Chinese: Han characters with the CJK punctuation and full-width forms between them. */
const HAN_RUN = /[\p{Script=Han}\u3000-\u303f\uff00-\uffef]*\p{Script=Han}[\p{Script=Han}\u3000-\u303f\uff00-\uffef]*/gu;

/**
 * On the English page, every run of Chinese in `root`'s text that no element marks yet put in a
 * <span lang="zh-CN"> (a lesson's 「用户 (user)」, a sentence quoting a token), so a screen reader
 * reads it in a Chinese voice. The text itself is unchanged.
 */
export function markHanRuns(root: Node): void {
  if (document.documentElement.lang.startsWith("zh")) return;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const found: Text[] = [];
  for (let n = walker.nextNode(); n !== null; n = walker.nextNode()) {
    const parent = n.parentElement;
    if (!(n instanceof Text) || parent === null || !HAN.test(n.data) || parent.closest("[lang^='zh'], textarea, option, script, style") !== null) continue;
    found.push(n);
  }
  for (const text of found) {
    const parts: Array<Node | string> = [];
    let at = 0;
    for (const m of text.data.matchAll(HAN_RUN)) {
      parts.push(text.data.slice(at, m.index));
      parts.push(langText(m[0]));
      at = m.index + m[0].length;
    }
    parts.push(text.data.slice(at));
    text.replaceWith(...parts.filter((p) => p !== ""));
  }
}
