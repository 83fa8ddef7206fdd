// A link replayed on the embedded model: the model runs over a path's tokens at once and the core
// at each position in the same call (`forceMany` with the step config), and each path entry keeps
// the core's record of its token, its full trace made only when read. Whatever the settings, the
// path must be the one replaying token by token gives: the same ids, forced marks, records, ranks
// and traces, with and without the records — and the records must actually be the ones used.
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
   export { initialState, DEFAULT_PARAMS } from "./state";`,
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
