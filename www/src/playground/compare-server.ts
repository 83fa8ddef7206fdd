// Compare over a model server: each column (greedy, focused, wild, current) is generated token by
// token through a ServerSource of its own (the same server and model, its own context and cache, so
// the main path is untouched) and the core's `step`, exactly as Step does on the main path: the same
// config, draw = the token's index, a top-N answer's rest mass, the same stop rule (stops.ts). The
// page shows each token as it lands. The run ends at the first failure (no request after it), and is
// dropped at the next token when the user stops it or the prompt, settings or source change.
import { messageOf, runStep } from "../core";
import { ServerSource } from "../sources/server";
import { SourceError } from "../sources/source-error";
import { stepConfig } from "../state";
import type { PathEntry } from "../state";
import { chipDisplay } from "../views/chip-display";
import { COMPARE_SETTINGS } from "../views/compare";
import type { CompareColumn, CompareRun } from "../views/compare";
import type { Playground } from "./playground";
import { stopAfterAppend } from "./stops";

/** The server run in progress (the one a Stop ends). */
let current: CompareRun | null = null;

/** Stop the server comparison in progress, keeping the columns it made. */
export function stopServerCompare(pg: Playground): void {
  if (current === null || current.status.kind !== "running") return;
  current.status = { kind: "cancelled", why: "user" };
  pg.notify();
}

export async function runServerCompare(pg: Playground, server: ServerSource): Promise<void> {
  const { state } = pg;
  const prompt = state.prompt;
  const base = { ...state.params, stop: [...state.params.stop] };
  const settings = JSON.stringify(base);
  const total = COMPARE_SETTINGS.length * base.max_new_tokens;
  const run: CompareRun = { prompt, seed: base.seed, maxNewTokens: base.max_new_tokens, columns: [], source: "server", status: { kind: "running", done: 0, total } };
  current = run;
  pg.compareRun = run;
  pg.notify();
  // a source of its own on the same connection: its context never touches the main path's
  const source = new ServerSource(server.client, server.info);
  source.eosId = server.eosId;
  source.topN = server.topN;
  // each column asks for its next answer when it steps: none after the token it stops at
  source.prefetch = false;
  /** Still wanted: not stopped, nothing the run was made for changed. */
  const live = (): boolean => {
    if (run.status.kind !== "running") return false;
    if (pg.compareRun === run && pg.source === server && state.prompt === prompt && JSON.stringify(state.params) === settings) return true;
    run.status = { kind: "cancelled", why: "changed" };
    pg.notify();
    return false;
  };
  const fail = (column: CompareColumn, err: unknown): void => {
    column.error = messageOf(err);
    column.sourceFailed = true;
    run.status = { kind: "failed" };
    pg.notify();
  };
  try {
    await source.reset(prompt);
  } catch (err) {
    // the prompt could not be read: said in the first column, and nothing more is asked
    if (live()) {
      const column: CompareColumn = { id: COMPARE_SETTINGS[0]?.id ?? "greedy", tokens: [], stop: null, error: null };
      run.columns.push(column);
      fail(column, err);
    }
    return;
  }
  for (const [index, setting] of COMPARE_SETTINGS.entries()) {
    const params = { ...base, ...setting.params };
    const column: CompareColumn = { id: setting.id, tokens: [], stop: null, error: null };
    if (!live()) return;
    run.columns.push(column);
    // back to the prompt: the answers already fetched for it stay cached (every column starts there)
    source.rewind(source.length);
    for (let i = 0; i < params.max_new_tokens && column.stop === null; i++) {
      let next;
      try {
        next = source.nextLogits() ?? (await source.loadNextLogits());
      } catch (err) {
        if (live()) fail(column, err);
        return;
      }
      if (!live()) return;
      // what Step reads: the same config (draw = index), a top-N answer's rest of the vocabulary
      const rest = next.known.kind === "top" ? { rest_mass: next.known.restMass } : {};
      const out = runStep(next.logits, { ...stepConfig(params, source.history(), source.promptLength(), i, source.eosId), ...rest });
      if (!out.ok) {
        column.error = out.message;
        break;
      }
      const { result } = out;
      let appended;
      try {
        appended = source.append(result.token);
      } catch (err) {
        // the server's own refusal is worded already (shown as the main view shows it)
        column.error = messageOf(err);
        column.sourceFailed = err instanceof SourceError;
        break;
      }
      const entry: PathEntry = { id: result.token, result, chosen: result.chosen, rank: result.chosen_rank, forced: false };
      if (appended.piece !== undefined) entry.piece = appended.piece;
      if (appended.pending !== undefined) entry.pending = appended.pending;
      column.tokens.push({ display: chipDisplay(source, entry), p: result.chosen.p, pRaw: result.chosen.p_raw });
      column.stop = stopAfterAppend(source, appended, result.token, params, i + 1);
      run.status = { kind: "running", done: index * base.max_new_tokens + i + 1, total };
      pg.notify();
    }
  }
  if (run.status.kind === "running") {
    run.status = { kind: "done" };
    pg.notify();
  }
}
