// What a link (or an element's attributes) that names a lesson carries besides it: a page of its
// own, kept as shared, or only settings and a prompt, laid over the lesson's own set-up.
import type { UrlRequest } from "./url";
import type { LinkNamed } from "./views/lessons";

/**
 * Whether a link holds a page state of its own, beyond its lesson, language and modes (`serverLink`:
 * beyond its server too, which a server link always names).
 */
export function linkHasState(link: UrlRequest, serverLink = false): boolean {
  const fields = [serverLink ? undefined : link.source, link.presetId, link.prompt, link.path, link.branches, link.current, link.viewing, link.tables, link.settings];
  return fields.some((field) => field !== undefined) || Object.keys(link.params).length > 0 || link.stopped === true;
}

/**
 * What a lesson link names besides the lesson when it is only settings, a prompt or a preset (no
 * tokens, tables or source of its own): laid over the lesson's set-up. A link with a page of its
 * own (a shared lesson link) is kept as it is instead; one naming nothing gives undefined.
 */
export function namedOverLesson(link: UrlRequest): LinkNamed | undefined {
  const page = [link.source, link.path, link.branches, link.current, link.viewing, link.tables, link.settings];
  if (page.some((field) => field !== undefined) || link.stopped === true) return undefined;
  if (link.presetId === undefined && link.prompt === undefined && Object.keys(link.params).length === 0) return undefined;
  return { presetId: link.presetId, prompt: link.prompt, params: link.params };
}
