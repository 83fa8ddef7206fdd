// A link replayed on the embedded model: the model runs over a path's tokens at once and the core
// at each position in the same call (`forceMany` with the step config), and each path entry keeps
// the core's record of its token, its full trace made only when read. Whatever the settings, the
// path must be the one replaying token by token gives: the same ids, forced marks, records, ranks
// and traces, with and without the records — and the records must actually be the ones used. A path
// rebuilt in the background keeps no logits: read, they are made again, and must be the very bits
// (and so the very traces) an eager replay kept.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Generator, weights, tokenizer } from "./load.mjs";
import { importTs } from "./ts.mjs";

const mod = await importTs(
  "replay-records",
  `export { Playground } from "./playground/playground";
   export { replayScenario } from "./playground/scenarios";
   export { ModelSource } from "./sources/model";
   export { PRESETS } from "./presets";
   export { initialState, DEFAULT_PARAMS } from "./state";
   export { PathFiller } from "./replay";
   export { PathLogits } from "./path-logits";`,
  { page: true },
);

/** A playground on the model; `records: false` hides the records (every step then runs in full). */
function playground(records) {
  const preset = mod.PRESETS[0];
  const pg = new mod.Playground(preset, mod.initialState("en", preset, 42));
  const source = new mod.ModelSource(new Generator(weights, tokenizer));
  let used = 0;
  const recorded = source.recorded.bind(source);
  source.recorded = (id, config) => {
    if (!records) return null;
    const record = recorded(id, config);
    if (record !== null) used += 1;
    return record;
  };
  pg.model = source;
  pg.source = source;
  pg.state.source = "model";
  return { pg, used: () => used };
}

/** Every path as the page keeps it, each entry's trace read (made now, for a recorded step). */
function paths(pg) {
  return pg.state.branches.map((b) =>
    b.entries.map((e) => ({ id: e.id, forced: e.forced, rank: e.rank, chosen: e.chosen, piece: e.piece, result: JSON.parse(JSON.stringify(e.result)) })),
  );
}

const forced = (n, seed) => Array.from({ length: n }, (_, i) => ({ token: ((i + seed) * 7919) % 7700 + 300, forced: true }));

const settings = [
  {},
  { repetition_penalty: 1.3, frequency_penalty: 0.4, engine: "llama.cpp", top_k: 40 },
  { min_new_tokens: 20, temperature: 1.2 },
  { strategy: "greedy" },
];

for (const params of settings) {
  test(`a replayed link is the same with the model's records as token by token (${JSON.stringify(params)})`, async () => {
    // the core's own choices at the first steps (not forced), then forced tokens, and a branch
    const link = {
      prompt: "a",
      params: { ...mod.DEFAULT_PARAMS, max_new_tokens: 100, ...params },
      path: [{ token: 1000, forced: false }, ...forced(40, 1)],
      branches: [{ parent: 0, forkAt: 10, tokens: forced(25, 7) }],
    };
    const got = [];
    for (const records of [true, false]) {
      const { pg, used } = playground(records);
      pg.state.prompt = link.prompt;
      pg.state.params = link.params;
      const problems = [];
      await mod.replayScenario(pg, link, problems);
      assert.deepEqual(problems.map((say) => say()), []);
      assert.equal(pg.state.branches.length, 2);
      got.push(paths(pg));
      if (records) assert.ok(used() >= 60, `the records were used (${used()} of 66 steps)`);
      else assert.equal(used(), 0);
    }
    assert.deepEqual(got[0], got[1]);
  });
}

/** The entries of `tokens` replayed eagerly, as a short link is (each entry keeps its logits). */
async function eager(params, tokens) {
  const { pg } = playground(true);
  pg.state.prompt = "a";
  pg.state.params = params;
  const problems = [];
  await mod.replayScenario(pg, { prompt: "a", params, path: tokens }, problems);
  assert.deepEqual(problems.map((say) => say()), []);
  return pg.state.branches[0].entries;
}

for (const params of settings) {
  test(`a path rebuilt in the background keeps no logits, and makes them again bit for bit (${JSON.stringify(params)})`, async () => {
    const all = { ...mod.DEFAULT_PARAMS, max_new_tokens: 512, ...params };
    const tokens = [{ token: 1000, forced: false }, ...forced(120, 3)];
    const filling = new Generator(weights, tokenizer);
    const remaking = filling.spawn();
    let runs = 0;
    const forceMany = remaking.forceMany.bind(remaking);
    remaking.forceMany = (ids, config) => {
      runs += 1;
      return forceMany(ids, config);
    };
    const filler = new mod.PathFiller(filling, "a", all, new mod.PathLogits(() => remaking, "a"));
    const path = { ids: tokens.map((t) => t.token), forced: tokens.map((t) => t.forced) };
    filler.begin(path);
    const filled = filler.fill(path, Number.POSITIVE_INFINITY);
    assert.equal(filled.error, null);
    assert.equal(filled.entries.length, tokens.length);
    // no logits held: each entry's are a getter, and nothing was made again before being read
    for (const entry of filled.entries) assert.equal(typeof Object.getOwnPropertyDescriptor(entry.input, "logits")?.get, "function");
    // what the chips, their tooltips and the path tree read needs no logits either
    for (const entry of filled.entries) assert.ok(entry.vocabSize === 8000 && entry.chosen.p_raw > 0 && entry.chosen.p >= 0);
    assert.equal(runs, 0);
    const reference = await eager(all, tokens);
    assert.equal(reference.length, tokens.length);
    // read in an order that leaves the path and comes back: still one run of the model over it
    const order = [...filled.entries.keys()].reverse();
    for (const i of order) {
      const lazy = filled.entries[i];
      const kept = reference[i];
      assert.equal(lazy.id, kept.id);
      assert.equal(lazy.forced, kept.forced);
      assert.equal(lazy.rank, kept.rank);
      assert.deepEqual(lazy.chosen, kept.chosen);
      assert.equal(lazy.vocabSize, kept.vocabSize);
      assert.deepEqual(lazy.input.config, kept.input.config);
      const a = new Uint32Array(lazy.input.logits.buffer.slice(0));
      const b = new Uint32Array(kept.input.logits.buffer.slice(kept.input.logits.byteOffset, kept.input.logits.byteOffset + kept.input.logits.byteLength));
      assert.ok(a.length === b.length && a.every((x, k) => x === b[k]), `the logits of token ${i + 1}, bit for bit`);
      assert.deepEqual(JSON.parse(JSON.stringify(lazy.result)), JSON.parse(JSON.stringify(kept.result)), `the trace of token ${i + 1}`);
    }
    assert.equal(runs, 1, "one run of the model for every step of the path");
  });
}
