// The model server's panel wired to the playground: Connect makes the connected ServerSource the
// Playground's `server` and its source, and a `source=server` link (its tokens are the server's
// ids) waits here until then, never replayed on the embedded model and never connected without a click.
import type { Playground } from "../playground/playground";
import { applyScenario, snapshot } from "../playground/scenarios";
import type { ScenarioRequest } from "../scenario";
import type { ServerApi } from "../server/types";
import { createServerPanel } from "./server-panel";
import type { ServerPanel } from "./server-panel";

export interface ServerWiring {
  readonly panel: ServerPanel;
  /** Keep a `source=server` link for Connect: fill in its address and API, mark the server chosen. */
  holdLink(link: ScenarioRequest, address: string | undefined, api: ServerApi | null, query: URLSearchParams): void;
  /** The held link's query until Connect (the address bar and Share keep it), else null. */
  heldQuery(): URLSearchParams | null;
}

/** `onLinkApplied`: a held link was replayed over the server (its problems are in `pg.linkProblems`). */
export function wireServer(pg: Playground, onLinkApplied: () => void): ServerWiring {
  let held: ScenarioRequest | null = null;
  let heldQuery: URLSearchParams | null = null;
  const panel = createServerPanel((connected) => {
    // Connect again to the server in use: its text is kept (replayed over the new connection)
    const again = held === null && pg.state.source === "server" && pg.server?.info.url === connected.info.url;
    const keep: ScenarioRequest | null = again ? snapshot(pg) : held;
    pg.server = connected;
    if (keep === null) return pg.selectSource("server");
    const wanted: ScenarioRequest = { ...keep, source: "server" };
    held = null;
    heldQuery = null;
    pg.linkProblems = [];
    void applyScenario(pg, wanted, pg.linkProblems).then(onLinkApplied);
  });
  return {
    panel,
    holdLink(link, address, api, query) {
      held = link;
      heldQuery = query;
      pg.selectSource("server");
      panel.prefill(address ?? panel.address(), api);
    },
    heldQuery: () => heldQuery,
  };
}
