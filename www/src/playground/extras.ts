// What the playground computes beside its path: Sample N (many draws of the next token) and Compare
// settings (on a Generator of its own, so the path on screen is untouched; over a model server,
// compare-server.ts; a lesson's glimpse of another prompt is lesson-io.ts). Each one only reads the
// source and the core's traces.
import { messageOf, runSampleCounts } from "../core";
import type { Generator } from "../core";
import { generatedStop } from "../sources/model";
import { stepConfig } from "../state";
import type { PathEntry, StopReason } from "../state";
import { COMPARE_SETTINGS } from "../views/compare";
import type { CompareColumn, CompareToken } from "../views/compare";
import { chipDisplay } from "../views/chip-display";
import type { Playground } from "./playground";
import { runServerCompare } from "./compare-server";

/** N draws of the next token (draw = 0 … N−1 of the seed), counted by the core in one call. */
export function sampleN(pg: Playground, n: number): void {
  if (pg.finished() || pg.preview === null || !pg.preview.ok) return;
  // the same input as Step (a server's rest_mass included), so N draws are N of Step's draws
  const input = pg.nextInput();
  if (input === null) return;
  const out = runSampleCounts(input.logits, { ...input.config, draw: 0 }, n);
  if (!out.ok) return;
  const { ids, counts: times } = out.result;
  const counts = new Map<number, number>();
  ids.forEach((id, i) => counts.set(id, times[i] ?? 0));
  pg.sampleRun = { n, counts };
  pg.notify();
}

/** The comparison's own Generator (same weights, separate KV cache), created on first use. */
let compareGen: Generator | null = null;

/**
 * Generate from the current prompt and seed under each comparison setting, on a separate Generator
 * so the main path is untouched. Every token is chosen in wasm (`next`); only the trace is kept.
 */
export function runCompare(pg: Playground): void {
  const { state, model, server } = pg;
  // over a model server: token by token, through the server and the core (compare-server.ts)
  if (server !== null && pg.source === server) {
    if (!pg.blocked() && pg.compareRun?.status.kind !== "running") void runServerCompare(pg, server);
    return;
  }
  if (model === null || pg.source !== model || model.promptError !== null) return;
  const source = model;
  compareGen ??= source.spawnGenerator();
  const gen = compareGen;
  if (gen === null) return;
  const columns: CompareColumn[] = COMPARE_SETTINGS.map((setting) => {
    const params = { ...state.params, ...setting.params };
    const tokens: CompareToken[] = [];
    let stop: StopReason | null = null;
    try {
      gen.setPrompt(state.prompt);
      gen.setMaxNewTokens(params.max_new_tokens);
      gen.setStopSequences([...params.stop]);
      for (let i = 0; i < params.max_new_tokens && stop === null; i++) {
        const out = gen.next(stepConfig(params, Array.from(gen.tokens()), gen.promptLength, i, gen.eosId));
        const trace = out.trace;
        if (trace === null) break;
        const entry: PathEntry = { id: out.token, result: trace, chosen: trace.chosen, rank: trace.chosen_rank, forced: false, piece: out.piece, pending: out.pending };
        tokens.push({ display: chipDisplay(source, entry), p: trace.chosen.p, pRaw: trace.chosen.p_raw });
        stop = pg.stopOf(generatedStop(out));
      }
    } catch (err) {
      return { id: setting.id, tokens, stop, error: messageOf(err) };
    }
    return { id: setting.id, tokens, stop, error: null };
  });
  pg.compareRun = { prompt: state.prompt, seed: state.params.seed, maxNewTokens: state.params.max_new_tokens, columns, source: "model", status: { kind: "done" } };
  pg.notify();
}
