// The <nexttoken-playground> attributes ⇄ the page's link. Shared by the element (which turns its
// attributes into the iframe's URL) and the Share dialog (which writes the element snippet), so a
// snippet carries exactly the fields its link does and the element reproduces the same page.
import type { NumericParam } from "./state";

/**
 * What the page in the iframe may do: run its scripts, as its own origin (its module script, wasm
 * and model are fetched from its origin, and a sandboxed origin is opaque, so same-origin files would
 * become cross-origin requests and fail), and open "Open full page ↗" in a new tab that is not
 * sandboxed. Everything else stays off: it cannot navigate the course page, submit forms, open
 * alerts or download. (Scripts and same origin together could lift the sandbox from inside; the page
 * is our own, so this is least privilege for our code, not a cage for foreign code.) Clipboard
 * writes and fullscreen are granted through `allow`.
 */
export const IFRAME_SANDBOX = "allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox";
export const IFRAME_ALLOW = "fullscreen; clipboard-write";

/**
 * Attributes passed through to the page's URL: every field of a link except the page's own modes
 * (`embed` is always on, `projector` is the viewer's choice). HF/OpenAI parameter names.
 */
export const ELEMENT_ATTRIBUTES = [
  "lang", "source", "server", "api", "preset", "prompt", "lesson", "strategy", "engine", "seed", "temperature", "top_k",
  "top_p", "min_p", "typical_p", "repetition_penalty", "frequency_penalty", "presence_penalty",
  "max_new_tokens", "min_new_tokens", "stop", "table", "path", "branch", "at", "stopped", "step", "v", "set",
] as const;

/** Every numeric parameter a link carries is an attribute too: a missing one fails `tsc` here. */
type DroppedParam = Exclude<NumericParam, (typeof ELEMENT_ATTRIBUTES)[number]>;
const everyParamCarried: [DroppedParam] extends [never] ? true : DroppedParam = true;
void everyParamCarried;

/** Fields a link may repeat (`stop=a&stop=b`); an attribute holds them as one JSON array of strings. */
const LIST_ATTRIBUTES: ReadonlySet<string> = new Set(["stop", "table", "branch", "set"]);

/**
 * The link values of one attribute. A list field takes a JSON array of strings (`stop='["。","\n"]'`)
 * or, written by hand, one plain value (`stop="。"`); anything else is one value, checked by the page.
 */
export function attributeValues(name: string, value: string): string[] {
  if (!LIST_ATTRIBUTES.has(name) || !value.startsWith("[")) return [value];
  try {
    const list: unknown = JSON.parse(value);
    if (Array.isArray(list) && list.every((item) => typeof item === "string")) return list as string[];
  } catch {
    // not a list: the page reads it as one value (and names it if it is malformed)
  }
  return [value];
}

/** One attribute's value for the link values of `name` (the inverse of `attributeValues`). */
export function attributeValue(name: string, values: readonly string[]): string {
  const only = values[0];
  if (values.length === 1 && only !== undefined && !(LIST_ATTRIBUTES.has(name) && only.startsWith("["))) return only;
  return JSON.stringify(values);
}

/** The element's attributes for a link's query: every field it carries, in the link's order. */
export function elementAttributes(query: URLSearchParams): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const name of new Set(query.keys())) {
    if ((ELEMENT_ATTRIBUTES as readonly string[]).includes(name)) out.push([name, attributeValue(name, query.getAll(name))]);
  }
  return out;
}

/** Smallest frame height the page is usable in, and the height when none (or no usable one) is given. */
export const MIN_HEIGHT = 240;
export const MAX_HEIGHT = 4000;
export const DEFAULT_HEIGHT = 640;

/** `height` in pixels (`700`, `700px`); null unless a number of pixels from MIN_HEIGHT to MAX_HEIGHT. */
export function frameHeight(value: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(?:px)?\s*$/i.exec(value);
  const n = match === null ? Number.NaN : Number(match[1]);
  return n >= MIN_HEIGHT && n <= MAX_HEIGHT ? n : null;
}

/**
 * Attributes the element reads itself or any HTML element may carry (`class`, `data-*`, `aria-*`,
 * `on*`…): not the page's, and not a course author's typo either.
 */
function ownAttribute(name: string): boolean {
  return /^(height|title|id|class|style|slot|part|exportparts|hidden|dir|tabindex|role|nonce|is|inert|translate|draggable|accesskey|autofocus|popover|spellcheck|contenteditable|item[a-z]*|(data|aria)-.*|on.*)$/.test(name);
}

/**
 * The page's address for an element's attributes (after `#`): always embed mode. Attributes the page does not
 * know (`temprature="0.5"`) and a height the element cannot use go along too, so the page names them
 * in its notice, in its language, as it names a link's: a typo is said, not silently dropped.
 */
export function embedUrl(page: URL, attributes: (name: string) => string | null, names: readonly string[] = []): URL {
  const url = new URL(page.href);
  url.search = "";
  for (const name of ELEMENT_ATTRIBUTES) {
    // `top-p` reads as well as `top_p`: HTML authors write hyphens
    const value = attributes(name) ?? attributes(name.replace(/_/g, "-"));
    if (value !== null) for (const item of attributeValues(name, value)) url.searchParams.append(name, item);
  }
  const known = new Set<string>([...ELEMENT_ATTRIBUTES, ...ELEMENT_ATTRIBUTES.map((n) => n.replace(/_/g, "-"))]);
  for (const name of names) {
    if (!known.has(name) && !ownAttribute(name)) url.searchParams.append(name, attributes(name) ?? "");
  }
  const height = attributes("height");
  if (height !== null && frameHeight(height) === null) url.searchParams.append("height", height);
  url.searchParams.set("embed", "1");
  // the element's own link is whole (a snippet's `v` may say that links end with `end`)
  url.searchParams.set("end", "1");
  // the fields travel after `#`, which is never sent to the server: a 2,000-character Chinese prompt
  // (18 KB encoded) is over many servers' request-line limit (8 KB in nginx, 16 KB in Node), and the
  // page reads a query after `#` (url-arrival.ts) and then moves it to its address bar's `?`
  url.hash = url.searchParams.toString();
  url.search = "";
  return url;
}
