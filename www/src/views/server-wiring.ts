// The model server's panel wired to the playground: Connect makes the connected ServerSource the
// Playground's `server` and its source, and a `source=server` link (its tokens are the server's
// ids) waits here until then, never replayed on the embedded model and never connected without a click.
import type { Playground } from "../playground/playground";
import { applyScenario } from "../playground/scenarios";
import type { ScenarioRequest } from "../scenario";
import type { ServerApi } from "../server/types";
import { createServerPanel } from "./server-panel";
import type { ServerPanel } from "./server-panel";

export interface ServerWiring {
  readonly panel: ServerPanel;
  /** Keep a `source=server` link for Connect: fill in its address and API, mark the server chosen. */
  holdLink(link: ScenarioRequest, address: string | undefined, api: ServerApi | null): void;
}

/** `onLinkApplied`: a held link was replayed over the server (its problems are in `pg.linkProblems`). */
export function wireServer(pg: Playground, onLinkApplied: () => void): ServerWiring {
  let held: ScenarioRequest | null = null;
  const panel = createServerPanel((connected) => {
    pg.server = connected;
    if (held === null) return pg.selectSource("server");
    const wanted: ScenarioRequest = { ...held, source: "server" };
    held = null;
    pg.linkProblems = [];
    void applyScenario(pg, wanted, pg.linkProblems).then(onLinkApplied);
  });
  return {
    panel,
    holdLink(link, address, api) {
      held = link;
      pg.selectSource("server");
      panel.prefill(address ?? panel.address(), api);
    },
  };
}
