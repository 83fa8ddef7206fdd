// The paths on screen and the branches kept beside it: fork at a step, force a token there, switch
// paths, drop the last token, start over. The source follows: its context is always the path on
// screen (`load` keeps what the two share, so switching costs only the tokens that differ).
import type { Playground } from "./playground";

/** Drop generated tokens until `n` remain. */
export function rewindTo(pg: Playground, n: number): void {
  pg.source.rewind(pg.source.length - n);
}

/** Put the source's context at `ids` (the model keeps the tokens it already shares with them). */
function loadPath(pg: Playground, ids: readonly number[]): boolean {
  try {
    pg.source.load(ids);
  } catch (err) {
    pg.failFrom(err);
    return false;
  }
  return true;
}

/** A new path on screen that leaves path `parentIndex` after its first `at` tokens. */
export function fork(pg: Playground, parentIndex: number, at: number): boolean {
  const { state } = pg;
  const parent = state.branches[parentIndex];
  if (parent === undefined) return false;
  const kept = parent.entries.slice(0, at);
  if (!loadPath(pg, kept.map((e) => e.id))) return false;
  pg.branchStops.set(state.currentBranch, state.stopReason);
  state.branches.push({ ids: kept.map((e) => e.id), entries: kept, parent: parentIndex, forkAt: at });
  state.currentBranch = state.branches.length - 1;
  state.path = kept;
  state.stopReason = null;
  state.viewing = null;
  return true;
}

/** Force `id` at the inspected step: earlier steps are kept, later ones move to a new branch. */
export function force(pg: Playground, id: number): void {
  const { state } = pg;
  const lastIndex = state.path.length - 1;
  const at = state.viewing ?? (pg.finished() ? lastIndex : state.path.length);
  if (at < 0) return;
  if (at < state.path.length && !fork(pg, state.currentBranch, at)) return;
  pg.whenLogits(() => {
    const next = pg.stepWith(id);
    if (typeof next === "string") return pg.fail(next);
    if (pg.appendStep(id, next, true)) pg.refresh();
  });
}

export function switchBranch(pg: Playground, index: number): void {
  const { state } = pg;
  const branch = state.branches[index];
  if (branch === undefined) return;
  pg.pause();
  pg.backfill?.finish(index);
  if (pg.backfill?.waiting.has(index) === true || !loadPath(pg, branch.ids)) return;
  state.path = [...branch.entries];
  state.currentBranch = index;
  state.stopReason = pg.branchStops.get(index) ?? null;
  // the generator refuses to continue a path that had stopped, as the page does
  if (state.stopReason !== null) pg.source.stop();
  state.viewing = null;
  pg.refresh();
}

/** Forget every generated token and path (the source is rewound by the caller). */
export function clearPaths(pg: Playground): void {
  const { state } = pg;
  state.path = [];
  state.branches = [{ ids: [], entries: [], parent: null, forkAt: 0 }];
  state.currentBranch = 0;
  pg.branchStops.clear();
  state.stopReason = null;
  state.viewing = null;
  pg.backfill?.stop();
  pg.backfill = null;
}

/** Drop the last generated token of the path on screen (the model rewinds its KV cache exactly). */
export function back(pg: Playground): void {
  const { state } = pg;
  if (state.path.length === 0) return;
  pg.pause();
  rewindTo(pg, state.path.length - 1);
  state.path = state.path.slice(0, -1);
  pg.syncBranch();
  // rewinding clears a stop, in the generator and here
  state.stopReason = null;
  pg.branchStops.set(state.currentBranch, null);
  state.viewing = null;
  pg.refresh();
}

