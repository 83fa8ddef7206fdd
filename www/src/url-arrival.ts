// A link as it arrives in real life, before it is read field by field (url.ts): pasted into a chat
// with a `)` or `。` after it, percent-encoded a second time by an LMS, `&` written as `&amp;` by an
// HTML editor, keys in upper case or with hyphens, the whole state after `#` instead of `?` (or a
// field added after `#` to a link with a query). Each repair here is one the page can make without
// guessing what the link's author meant.

/**
 * The query to read (no leading `?`): the link's query, then a fragment that holds fields
 * (`#v=2&lang=en…` instead of a query, or `…&end=1#step=3` added by hand after one; a bare `embed`
 * in it being the fragment's own flag), each decoded once more if it was percent-encoded twice. A
 * fragment's field is read as if written last: given in the query too, it is the one used, and the
 * notice says so (a repeated key).
 */
export function arrivedQuery(search: string, hash: string): string {
  const query = decodedOnce(search.replace(/^\?/, ""));
  const fragment = trimTrailing(hash.replace(/^#/, ""));
  if (!fragment.includes("=")) return query;
  const fields = decodedOnce(fragment.split("&").filter((part) => part !== "embed").join("&"));
  return query === "" ? fields : `${query}&${fields}`;
}

/** The fragment's flags (`#embed`), whatever was pasted after the link. */
export function fragmentFlags(hash: string): string[] {
  return trimTrailing(hash.replace(/^#/, "")).split("&");
}

/**
 * A query percent-encoded twice, decoded once: every `=` and `&` escaped (`v%3D2%26lang%3Den`), or
 * every escape an escaped `%` (`prompt=%25E7%25BB%2599`). A query the page wrote has raw `=`, and
 * its escapes (a Chinese prompt, a `/` in a table) are never all `%25` followed by two hex digits.
 */
function decodedOnce(query: string): string {
  const escapes = query.match(/%[0-9A-Fa-f]{2}/g) ?? [];
  const allEscaped = !query.includes("=") && /%3D/i.test(query);
  const escapedTwice = escapes.length > 0 && escapes.every((e) => e === "%25") && /%25[0-9A-Fa-f]{2}/.test(query);
  if (!allEscaped && !escapedTwice) return query;
  try {
    return decodeURIComponent(query);
  } catch {
    return query;
  }
}

/** What a chat app or a sentence leaves after a pasted link: closing brackets, quotes, punctuation, spaces. */
const TRAILING = /[\s)\]}>"'.,;:!?。，、；：！？）」』】》]+$/u;

/** `text` without what a sentence left after it. */
export function trimTrailing(text: string): string {
  return text.replace(TRAILING, "");
}

/** Fields whose value may itself end in punctuation (free text): never trimmed. */
const FREE_TEXT: ReadonlySet<string> = new Set(["prompt", "stop", "table"]);

/** Fields whose value is a list of tokens `12.34f.56`: a cut one keeps its complete tokens. */
const TOKEN_LISTS: ReadonlySet<string> = new Set(["path", "branch"]);

/**
 * The link's entries with keys as the page writes them (`LANG`, `Top-P`, `amp;seed` → `lang`, `top_p`,
 * `seed` when that is a known key) and the last value without what was pasted after the link (unless
 * it is free text); an entry that is only such leftovers (`…&)`) is dropped.
 *
 * A link that says it ends with `end` (`v=3` and later) and does not was cut off on the way (a chat
 * app or an LMS keeps 2,000 or 8,000 characters): its last entry, maybe partial, is `cut`, left out
 * of `entries` but for a path's or branch's tokens before the last one (the last may be partial).
 */
export function arrivedEntries(
  query: string,
  known: ReadonlySet<string>,
  endsAfter: number,
): { entries: Array<[string, string]>; cut?: { key: string; value: string; kept: number | null }; notText: Set<string> } {
  const entries: Array<[string, string]> = [];
  const notText = new Set<string>();
  // (URLSearchParams reads the non-empty parts between `&`, in order: part i is entry i)
  const parts = query.split("&").filter((part) => part !== "");
  let version = 0;
  let ended = false;
  for (const [key, value] of new URLSearchParams(query)) {
    const plain = key.replace(/^(amp;)+/i, "").toLowerCase().replace(/-/g, "_");
    const name = !known.has(key) && known.has(plain) ? plain : key;
    if (name === "v") version = Number(value);
    if (name === "end") ended = true;
    if (FREE_TEXT.has(name) && lostBytes(parts[entries.length] ?? "", value)) notText.add(name);
    entries.push([name, value]);
  }
  const last = entries.pop();
  if (last === undefined) return { entries, notText };
  if (version >= endsAfter && !ended) {
    const [key, value] = last;
    const whole = value.slice(0, Math.max(0, value.lastIndexOf(".")));
    if (!TOKEN_LISTS.has(key) || whole === "") return { entries, cut: { key, value, kept: null }, notText };
    entries.push([key, whole]);
    return { entries, cut: { key, value, kept: whole.split(".").length }, notText };
  }
  if (last[1] === "" && trimTrailing(last[0]) === "") return { entries, notText };
  entries.push([last[0], FREE_TEXT.has(last[0]) ? last[1] : trimTrailing(last[1])]);
  return { entries, notText };
}

/**
 * Whether the escapes of `raw` (one `key=value` of a query) were bytes that are not UTF-8 text
 * (`%E4%B8` cut from a character, `%ED%A0%80` a lone surrogate's bytes): the browser reads each
 * such byte run as U+FFFD, so `value` holds more U+FFFD than `raw` wrote (raw or as `%EF%BF%BD`).
 */
function lostBytes(raw: string, value: string): boolean {
  if (!/%[89a-f]/i.test(raw)) return false;
  const count = (text: string, pattern: RegExp): number => text.match(pattern)?.length ?? 0;
  return count(value, /\uFFFD/g) > count(raw, /\uFFFD|%EF%BF%BD/gi);
}

/**
 * Keys a share sheet or a campaign adds to any link it passes on (WeChat's `from=singlemessage&
 * isappinstalled=0`, `utm_*`, `fbclid`…): not the page's fields and not the author's mistakes, so
 * they are left out of the notice (and of the link the page then writes).
 */
export function addedOnTheWay(key: string): boolean {
  return /^(utm_[a-z_]+|fbclid|gclid|dclid|msclkid|igshid|mc_cid|mc_eid|from|isappinstalled|scene|spm|vd_source|share_source|share_medium|share_from|wxfrom|ref_src)$/i.test(key);
}
