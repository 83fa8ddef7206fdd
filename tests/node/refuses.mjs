// The boundary's promise, asserted the same way by every hostile-value suite: `run` throws a plain
// Error (never a wasm trap) whose message matches, and the next valid call gives the same answer.
import assert from "node:assert/strict";
import { step } from "./load.mjs";

const chapter = new Float32Array([3.2, 2.1, 1.7, 0.9, 0.4]);
const baseline = step(chapter, { seed: 1 });

export function refusesAndRecovers(run, message) {
  assert.throws(run, (e) => {
    assert.ok(e instanceof Error && !(e instanceof WebAssembly.RuntimeError), `not an Error: ${e}`);
    assert.match(e.message, message);
    return true;
  });
  const again = step(chapter, { seed: 1 });
  assert.equal(again.token, baseline.token, "the next valid call works, with the same answer");
  assert.equal(again.u, baseline.u);
}
