// Reset from the user, and its one Undo: the tokens and paths a Reset (button or R) cleared stay in
// `Playground.beforeReset` until the page moves on (a token, another prompt or source), and Undo
// reset replays them through the core like a link (scenarios.ts).
import type { Playground } from "./playground";
import { apply, snapshot } from "./scenarios";

/** Reset from the user: the tokens and paths go, but one Undo brings them back. */
export function userReset(pg: Playground): void {
  const before = snapshot(pg);
  pg.reset();
  // a Reset with nothing left to clear (a double tap, R twice) keeps the first one's Undo
  if (before.path.length > 0 || before.branches.length > 0) pg.beforeReset = before;
  pg.notify();
}

/** Put the page back as it was before the user's Reset. */
export async function undoReset(pg: Playground): Promise<boolean> {
  const before = pg.beforeReset;
  pg.beforeReset = null;
  if (before === null) return false;
  await apply(pg, before);
  return true;
}

/** Undo stays offered only while nothing new happened: no token, the same prompt and source. */
export function undoOffered(pg: Playground): boolean {
  const { state, beforeReset } = pg;
  if (beforeReset !== null && (state.path.length > 0 || state.prompt !== beforeReset.prompt || state.source !== beforeReset.source)) pg.beforeReset = null;
  return pg.beforeReset !== null;
}
