// The model server's panel wired to the playground: Connect makes the connected ServerSource the
// Playground's `server` and its source, and a `source=server` link (its tokens are the server's
// ids) waits here until then, never replayed on the embedded model and never connected without a click.
// Meanwhile the address bar and Share show the page's current settings with the link's server
// fields (and its tokens, while the prompt is still the link's), and Connect uses those settings.
import type { Playground } from "../playground/playground";
import { applyScenario, snapshot } from "../playground/scenarios";
import type { ScenarioRequest } from "../scenario";
import type { ServerApi } from "../server/types";
import { createServerLinkNotice } from "./server-link-notice";
import type { ServerLinkNotice } from "./server-link-notice";
import { createServerPanel } from "./server-panel";
import type { ServerPanel } from "./server-panel";

export interface ServerWiring {
  readonly panel: ServerPanel;
  /** Keep a `source=server` link for Connect: fill in its address and API, mark the server chosen. */
  holdLink(link: ScenarioRequest, address: string | undefined, api: ServerApi | null, query: URLSearchParams): void;
  /**
   * Until Connect: `current` (the page's own query, every setting as it is now) with the held
   * link's server fields, and its tokens while the prompt is still the link's; else null.
   */
  heldQuery(current: URLSearchParams): URLSearchParams | null;
  /** Redraw the held link's notice (shown while "Model server" is chosen and the link waits). */
  renderNotice(): void;
  /** Whether a server link waits for Connect. */
  waiting(): boolean;
}

/** What only the held link knows: the server, and the tokens (server ids) of its paths. */
const SERVER_KEYS = ["server", "api"] as const;
const TOKEN_KEYS = ["path", "branch", "at", "stopped", "step"] as const;

/**
 * `onLinkApplied`: a held link was replayed over the server (its problems are in `pg.linkProblems`);
 * `lesson`: whether the page's link opens a lesson (its notice says so).
 */
export function wireServer(pg: Playground, onLinkApplied: () => void, lesson: () => boolean): ServerWiring {
  let held: ScenarioRequest | null = null;
  /** The status line since Connect was clicked for the held link (echoed by its notice). */
  let attempt: { text: string; failed: boolean } | null = null;
  let tried = false;
  /** Made after the panel (whose first status line arrives while it is being made). */
  let notice: ServerLinkNotice | null = null;
  let heldQuery: URLSearchParams | null = null;
  /** The prompt shown when the link was held: the link's tokens belong to it. */
  let heldPrompt = "";
  const samePrompt = (): boolean => pg.state.prompt === heldPrompt;
  /** The held link under the settings as they are now (changed while it waited). */
  const current = (link: ScenarioRequest): ScenarioRequest => {
    const { prompt, presetId, params } = pg.state;
    const tokens = samePrompt() ? {} : { path: [], branches: [], current: 0, stopped: false, viewing: null };
    return { ...link, ...tokens, prompt, presetId, params: { ...params } };
  };
  const panel = createServerPanel((connected) => {
    // Connect again to the server in use: its text is kept (replayed over the new connection),
    // unless it now runs another model (its token ids mean other tokens: start from the prompt)
    const before = pg.server?.info;
    const again = held === null && pg.state.source === "server" && before?.url === connected.info.url && before.model === connected.info.model && before.vocabSize === connected.info.vocabSize;
    const keep: ScenarioRequest | null = again ? snapshot(pg) : held === null ? null : current(held);
    pg.server = connected;
    if (keep === null) return pg.selectSource("server");
    const wanted: ScenarioRequest = { ...keep, source: "server" };
    held = null;
    heldQuery = null;
    pg.linkProblems = [];
    attempt = null;
    tried = false;
    renderNotice();
    void applyScenario(pg, wanted, pg.linkProblems).then(onLinkApplied);
  }, (text, state) => {
    attempt = tried ? { text, failed: state === "error" } : null;
    renderNotice();
  });
  const connectButton = document.getElementById("server-connect");
  connectButton?.addEventListener("click", () => {
    tried = held !== null;
  }, { capture: true });
  notice = createServerLinkNotice(() => connectButton?.click());
  function renderNotice(): void {
    notice?.render(held !== null && pg.serverChosen ? { url: panel.address(), lesson: lesson() } : null, attempt);
  }
  return {
    panel,
    holdLink(link, address, api, query) {
      held = link;
      heldQuery = query;
      heldPrompt = pg.state.prompt;
      pg.selectSource("server");
      panel.prefill(address ?? panel.address(), api);
      renderNotice();
    },
    renderNotice,
    waiting: () => held !== null,
    heldQuery(now) {
      if (heldQuery === null) return null;
      const merged = new URLSearchParams(now);
      merged.set("source", "server");
      for (const key of [...SERVER_KEYS, ...TOKEN_KEYS]) merged.delete(key);
      // the link's tokens are the server's ids: kept for its prompt, dropped with a new prompt
      const kept = samePrompt() ? [...SERVER_KEYS, ...TOKEN_KEYS] : SERVER_KEYS;
      for (const key of kept) for (const value of heldQuery.getAll(key)) merged.append(key, value);
      return merged;
    },
  };
}
