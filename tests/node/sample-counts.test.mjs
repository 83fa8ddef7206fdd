// `sampleCounts` (the page's "Sample N times"): n draws counted by the core in one call are exactly
// the tokens n calls of `step` choose (draws config.draw … + n − 1), over the trace contract's
// configurations and a model server's rest_mass; hostile `n` and configs are refused by name, the
// next call works.
import { test } from "node:test";
import assert from "node:assert/strict";
import { sampleCounts, step } from "./load.mjs";
import { cases } from "./trace-cases.mjs";
import { refusesAndRecovers } from "./refuses.mjs";

const chapter = new Float32Array([3.2, 2.1, 1.7, 0.9, 0.4]);

function stepped(logits, config, n) {
  const counts = new Map();
  const first = config.draw ?? 0;
  for (let i = 0; i < n; i++) {
    const { token } = step(logits, { ...config, draw: first + i, trace_top: 0, trace_ids: [] });
    counts.set(token, (counts.get(token) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => a[0] - b[0]);
}

test("n draws counted in one call are the tokens n steps choose", () => {
  const flat = Float32Array.from({ length: 4000 }, (_, i) => (i % 5) * 0.01);
  const all = [
    ...cases.map((c) => [c.name, c.logits(), c.config]),
    ["flat, T 5, 4,000 kept", flat, { temperature: 5, seed: 2 }],
    ["a server's top 20 and rest_mass 0.2", Float32Array.from({ length: 300 }, (_, i) => (i < 20 ? -1 - 0.1 * i : -Infinity)), { rest_mass: 0.2, seed: 8, draw: 40 }],
  ];
  for (const [name, logits, config] of all) {
    const { ids, counts, seed } = sampleCounts(logits, config, 300);
    assert.ok(ids instanceof Uint32Array && counts instanceof Uint32Array, name);
    assert.equal(seed, config.seed, name);
    assert.deepEqual([...ids].map((id, i) => [id, counts[i]]), stepped(logits, config, 300), name);
  }
});

test("without a seed the fresh seed comes back and repeats the counts", () => {
  const first = sampleCounts(chapter, {}, 1000);
  const again = sampleCounts(chapter, { seed: first.seed }, 1000);
  assert.deepEqual([...again.ids], [...first.ids]);
  assert.deepEqual([...again.counts], [...first.counts]);
  assert.equal([...first.counts].reduce((a, b) => a + b, 0), 1000);
});

test("a bad n, config or logits is refused by name, and the next call works", () => {
  const n = /^n must be an integer in \[1, 1048576\], got /;
  for (const bad of [0, -1, 1.5, 2 ** 20 + 1, NaN, Infinity, "10", null, undefined, 10n, Symbol("n"), {}, [3]]) {
    refusesAndRecovers(() => sampleCounts(chapter, { seed: 1 }, bad), n);
  }
  refusesAndRecovers(() => sampleCounts(chapter, { seed: 1 }, "10"), /got string "10"$/);
  refusesAndRecovers(() => sampleCounts(chapter, { top_p: 2 }, 10), /^top_p must be in \[0, 1\], got 2$/);
  refusesAndRecovers(() => sampleCounts(chapter, { get seed() { throw new Error("boom"); } }, 10), /seed could not be read: reading it threw Error: boom/);
  refusesAndRecovers(() => sampleCounts(new Float32Array([1, NaN]), {}, 10), /^logits\[1\] must be finite or -inf, got NaN$/);
  refusesAndRecovers(() => sampleCounts(chapter, { draw: 2 ** 53 - 1, seed: 1 }, 2), /^draw must be at most 9007199254740990 with n = 2/);
  assert.equal(sampleCounts(chapter, { draw: 2 ** 53 - 1, seed: 1 }, 1).counts[0], 1);
});
