// Where the page's state goes: the address bar (kept in step with the page, or held as a link
// arrived) and the links Share writes, after `?` or, when long, after `#`. What the state says,
// field by field, is url.ts's.

/**
 * The page's state (without its language) as it was when the address bar was held: while the page
 * still shows that state, the address bar keeps the link as it arrived.
 */
let held: string | null = null;

/** `query` without the page's language (switching it is no change of what the link shows). */
function stateOf(query: URLSearchParams): string {
  const state = new URLSearchParams(query);
  state.delete("lang");
  return state.toString();
}

/**
 * Keep the link as it arrived in the address bar (it carries what the page could not show: paths
 * over a prompt too long for the model) until the page's state differs from `query`'s.
 */
export function holdAddress(query: URLSearchParams): void {
  held = stateOf(query);
}

/**
 * A query longer than this is written after `#` instead of `?`. The fragment never reaches the
 * server, so no request-line limit can turn a shared link into the server's error page: IIS
 * refuses a query over 2,048 characters, nginx and Apache a request line over 8 KB, and a link
 * with a few dozen generated paths is 24 KB. Short links keep `?` (what people expect to see).
 */
export const QUERY_IN_FRAGMENT_AFTER = 2000;

/** `base` (its query and fragment replaced) carrying `query`: after `?`, or after `#` when long. */
export function linkWithState(base: string | URL, query: URLSearchParams): URL {
  const url = new URL(base);
  const text = query.toString();
  const long = text.length > QUERY_IN_FRAGMENT_AFTER;
  url.search = long ? "" : text;
  url.hash = long ? text : "";
  return url;
}

/** Set once a new link has arrived in the fragment: the page is leaving to open it. */
let leaving = false;

/**
 * Open the link that arrived after `#` in a tab already showing the page (the browser only moved
 * to the fragment). The new address is taken from the event, not the address bar: a write of the
 * page's old state still queued when the link arrived (the page busy replaying a long link) would
 * otherwise replace the new link before the reload read it, and the page reopened the old one.
 */
export function openArrivedLink(newUrl: string): void {
  leaving = true;
  history.replaceState(null, "", newUrl);
  location.reload();
}

/** Keep the address bar in step with the page (no history entry per change). */
export function writeUrl(query: URLSearchParams): void {
  if (leaving) return;
  if (held !== null && stateOf(query) === held) return;
  held = null;
  const url = linkWithState(location.href, query);
  if (url.href !== location.href) history.replaceState(null, "", url);
}
