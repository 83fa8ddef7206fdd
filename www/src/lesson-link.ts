// What a link (or an element's attributes) that names a lesson carries besides it: a page of its
// own, kept as shared, or only settings and a prompt, laid over the lesson's own set-up.
import type { Actions } from "./actions";
import type { Params } from "./state";
import type { UrlRequest } from "./url";

/** What a lesson link or element names besides the lesson: each wins over the lesson's set-up. */
export interface LinkNamed {
  presetId?: string;
  prompt?: string;
  params: Partial<Params>;
}

/** A setting the lesson sets itself that the link named otherwise: the link's value is used. */
export interface LessonOverride {
  key: string;
  value: string;
  own: string;
}

/**
 * The settings a lesson's text is written for: how the next token is chosen. A seed, a token limit
 * or stop sequences only change which draw or how long, never what the lesson shows.
 */
const DECODING: ReadonlySet<string> = new Set<keyof Params>([
  "strategy", "temperature", "top_k", "top_p", "min_p", "typical_p", "repetition_penalty", "frequency_penalty", "presence_penalty", "engine",
]);

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

/**
 * `actions` whose `apply` lays `named` over each scenario a lesson's set-up asks for; `overridden`
 * hears of each decoding setting the lesson sets itself that the link named otherwise (the lesson's
 * text then describes settings no longer on screen: the notice says so, not the page in silence).
 */
export function withNamed(actions: Actions, named: LinkNamed, overridden: (all: readonly LessonOverride[]) => void): Actions {
  const found = new Map<string, LessonOverride>();
  return {
    ...actions,
    apply: (scenario) => {
      for (const [key, own] of Object.entries(scenario.params ?? {})) {
        const value: unknown = (named.params as Record<string, unknown>)[key];
        if (DECODING.has(key) && value !== undefined && value !== own) found.set(key, { key, value: String(value), own: String(own) });
      }
      if (found.size > 0) overridden([...found.values()]);
      return actions.apply({
        ...scenario,
        presetId: named.presetId ?? scenario.presetId,
        prompt: named.prompt ?? scenario.prompt,
        params: { ...scenario.params, ...named.params },
      });
    },
  };
}
