// The first-visit seed is derived, not tuned: it is the smallest seed whose first `draws` random
// numbers (the core's own generator, through the wasm `step`) all lie below `below`. Read from the
// page's source so the two cannot drift apart.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { step } from "./load.mjs";

const source = readFileSync(new URL("../../www/src/state.ts", import.meta.url), "utf8");
const match = /FIRST_VISIT = \{ seed: (\d+), draws: (\d+), below: ([\d.]+) \}/.exec(source);

test("FIRST_VISIT.seed is the smallest seed whose first draws all fall below the bound", () => {
  assert.ok(match, "FIRST_VISIT in www/src/state.ts");
  const [seed, draws, below] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const u = (s, draw) => step(new Float32Array([0, 0]), { seed: s, draw, trace_top: 0 }).u;
  const typical = (s) => Array.from({ length: draws }, (_, d) => u(s, d)).every((x) => x < below);
  let first = 0;
  while (!typical(first)) first++;
  assert.equal(seed, first);
  // and seed 42, the old default, opens with a rare draw (u = 0.955): the reason for the rule
  assert.ok(u(42, 0) > 0.95);
});
