// The playground controller (www/src/playground/) over a source whose logits arrive asynchronously,
// as a server's do over fetch: stepping, playing, forcing a token at a past step and replaying a
// link must give the same path — ids, traces, branches — as over the same tables served
// synchronously. The controller is bundled from the page's TypeScript with esbuild (Vite's own),
// sharing this process's wasm package, so the core's `step` is the real one.
import { test } from "node:test";
import assert from "node:assert/strict";
import "./load.mjs";
import { importTs } from "./ts.mjs";


const mod = await importTs(
  "playground",
  `export { Playground } from "./playground/playground";
   export { replayScenario, snapshot } from "./playground/scenarios";
   export { ManualSource } from "./sources/manual";
   export { PRESETS } from "./presets";
   export { initialState } from "./state";`,
  { page: true },
);

/**
 * The same tables as a source whose logits come later: `nextLogits()` is null after every change
 * of context until `loadNextLogits()` resolves (`delay(length)` ms later, like a response), and
 * one request is shared by every caller for the same context.
 */
function asyncTables(preset, delay = () => 1) {
  const inner = new mod.ManualSource(preset);
  let loaded = null;
  let inFlight = null;
  let requests = 0;
  const changed = () => {
    loaded = null;
    inFlight = null;
  };
  return {
    kind: "server",
    capabilities: { tokenizesText: true, hasIds: true, async: true },
    get vocabSize() {
      return inner.vocabSize;
    },
    get eosId() {
      return inner.eosId;
    },
    get promptError() {
      return null;
    },
    get length() {
      return inner.length;
    },
    get requests() {
      return requests;
    },
    async reset(prompt) {
      changed();
      await new Promise((resolve) => setTimeout(resolve, 1));
      return inner.reset(prompt);
    },
    nextLogits: () => loaded,
    loadNextLogits() {
      if (inFlight !== null) return inFlight;
      requests += 1;
      const request = new Promise((resolve) => setTimeout(resolve, delay(inner.length))).then(() => {
        if (inFlight === request) loaded = inner.nextLogits();
        return inner.nextLogits();
      });
      inFlight = request;
      return request;
    },
    append(id) {
      changed();
      return inner.append(id);
    },
    rewind(n) {
      changed();
      inner.rewind(n);
    },
    load(ids) {
      changed();
      inner.load(ids);
    },
    history: () => inner.history(),
    promptLength: () => inner.promptLength(),
    tokenText: (id) => inner.tokenText(id),
    text: () => inner.text(),
    isEos: (id) => inner.isEos(id),
    idOf: (text) => inner.idOf(text),
    setLimits() {},
    stop() {},
    resume() {},
  };
}

/** A playground on `preset`'s tables, synchronous or async, with the preset's prompt read. */
async function playground(preset, async, delay) {
  const pg = new mod.Playground(preset, mod.initialState("en", preset, 7));
  if (async) pg.source = asyncTables(preset, delay);
  pg.setParams({ max_new_tokens: 8, min_new_tokens: 5, temperature: 1.2, top_p: 1 });
  pg.reset();
  await until(() => !pg.waiting && pg.preview !== null);
  return pg;
}

/** Wait (macrotask by macrotask) until `ready()` holds. */
async function until(ready) {
  for (let i = 0; i < 2000 && !ready(); i++) await new Promise((resolve) => setTimeout(resolve, 1));
  assert.ok(ready(), "the playground settled");
}

/** What a user sees of every path: ids, forced marks, and each step's chosen p and u. */
function paths(pg) {
  return pg.state.branches.map((b) => ({
    parent: b.parent,
    forkAt: b.forkAt,
    steps: b.entries.map((e) => ({ id: e.id, forced: e.forced, p: e.chosen.p, u: e.result.u })),
  }));
}

const preset = mod.PRESETS.find((p) => p.tables.length > 1) ?? mod.PRESETS[0];

test("an async source steps, forks and stops exactly as the same tables served synchronously", async () => {
  const results = [];
  for (const async of [false, true]) {
    const pg = await playground(preset, async);
    // two steps, waiting for each as Step would
    for (let i = 1; i <= 2; i++) {
      assert.equal(pg.step(), true);
      await until(() => pg.state.path.length === i && !pg.waiting);
    }
    // force the second-ranked candidate at step 1: a new path from there
    pg.dispatch({ type: "inspect", index: 0 });
    const other = pg.state.path[0].result.candidates.find((c) => c.id !== pg.state.path[0].id && c.kept);
    assert.ok(other, "a second candidate at step 1");
    pg.dispatch({ type: "force", id: other.id });
    await until(() => pg.state.branches.length === 2 && pg.state.path.length === 1 && !pg.waiting);
    // then play to the end (max_new_tokens or the end token)
    pg.dispatch({ type: "setSpeed", tokensPerSecond: 1000 });
    pg.dispatch({ type: "togglePlay" });
    await until(() => pg.finished() && !pg.state.playing);
    if (async) assert.ok(pg.source.requests >= pg.state.path.length, "one request per position at least");
    results.push({ paths: paths(pg), stop: pg.state.stopReason, link: mod.snapshot(pg) });
  }
  const [sync, async] = results;
  assert.equal(sync.paths[1].steps[0].forced, true);
  assert.deepEqual(async.paths, sync.paths);
  assert.deepEqual(async.stop, sync.stop);
  assert.deepEqual(async.link, sync.link);
});

test("a link replays over an async source into the same paths as where it was made", async () => {
  const made = await playground(preset, false);
  for (let i = 0; i < 3; i++) made.step();
  made.dispatch({ type: "inspect", index: 1 });
  const other = made.state.path[1].result.candidates.find((c) => c.id !== made.state.path[1].id && c.kept);
  made.dispatch({ type: "force", id: other.id });
  made.step();
  const link = mod.snapshot(made);

  const replayed = [];
  for (const async of [false, true]) {
    const pg = await playground(preset, async);
    const problems = [];
    // the link's settings on the source already there (as links do for the source they name)
    pg.state.params = link.params;
    await mod.replayScenario(pg, link, problems);
    await until(() => !pg.waiting);
    assert.deepEqual(problems.map((say) => say()), []);
    if (async) assert.ok(pg.source.requests >= 4, "the async source was asked for logits");
    replayed.push(paths(pg));
  }
  assert.deepEqual(replayed[0], paths(made));
  assert.deepEqual(replayed[1], paths(made));
});

test("a step waiting for an async source's logits is dropped when the path changes first", async () => {
  // the answer after one token is slow, any other fast: the shorter path's logits come in first
  const pg = await playground(preset, true, (length) => (length === 1 ? 40 : 1));
  // the first logits are in: this step lands at once, and the next logits are asked for
  assert.equal(pg.step(), true);
  assert.equal(pg.state.path.length, 1);
  // they are not in yet: Step waits for them …
  assert.equal(pg.source.nextLogits(), null);
  assert.equal(pg.step(), true);
  assert.equal(pg.waiting, true);
  // … but Back comes first, and the logits after no token arrive before the slow ones: the waiting
  // step must not land on the shorter path
  pg.dispatch({ type: "back" });
  await new Promise((resolve) => setTimeout(resolve, 80));
  assert.equal(pg.waiting, false);
  assert.equal(pg.state.path.length, 0);
  // and the page can step again afterwards
  assert.equal(pg.step(), true);
  await until(() => pg.state.path.length === 1 && !pg.waiting);
});

test("a prompt changed while a link replays over an async source wins: the replay stops quietly, nothing of the link lands on it", async () => {
  const made = await playground(preset, false);
  for (let i = 0; i < 4; i++) made.step();
  const link = mod.snapshot(made);
  // every answer takes 20 ms: the replay waits for each of its tokens
  const pg = await playground(preset, true, () => 20);
  pg.state.params = link.params;
  const problems = [];
  const replaying = mod.replayScenario(pg, link, problems);
  await until(() => pg.state.path.length === 1);
  pg.dispatch({ type: "setPrompt", prompt: "another prompt" });
  await replaying;
  await until(() => !pg.waiting && pg.preview !== null);
  assert.equal(pg.state.prompt, "another prompt");
  assert.equal(pg.state.path.length, 0, "no token of the link after the new prompt");
  assert.deepEqual(pg.source.history().slice(pg.source.promptLength()), []);
  assert.deepEqual(problems.map((say) => say()), [], "nothing said: the later action won");
  assert.equal(pg.preview.ok, true, "the new prompt's next step, not a failure");
  assert.equal(pg.replaying, false);
  // and the page steps on the new prompt
  assert.equal(pg.step(), true);
  await until(() => pg.state.path.length === 1 && !pg.waiting);
});
