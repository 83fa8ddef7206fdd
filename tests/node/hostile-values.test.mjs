// A library user's hostile values into `step` that the boundary suites (boundary*.test.mjs,
// contract.test.mjs) do not pin: built-ins whose contents are not properties (a Map of logit
// biases used to be read as {} — silently no bias), every kind of typed array named in the message,
// a finite number past float32's range named as passed (not "inf"), sparse arrays, -0, frozen,
// sealed and null-prototype configs, shared and offset buffers. After every refusal the next valid
// call must work and give the same answer as before.
import { test } from "node:test";
import assert from "node:assert/strict";
import { step } from "./load.mjs";
import { refusesAndRecovers } from "./refuses.mjs";

const chapter = new Float32Array([3.2, 2.1, 1.7, 0.9, 0.4]);
const baseline = step(chapter, { seed: 1 });

function refuses(logits, config, message) {
  refusesAndRecovers(() => step(logits, config), message);
}

test("a Map, Set or Date where an object of settings belongs is refused by name, not read as {}", () => {
  refuses(chapter, new Map([["top_p", 0.5]]), /^config must be an object, got a Map \(its entries are not properties\)$/);
  refuses(chapter, { logit_bias: new Map([[0, -100]]) }, /^logit_bias must be an object mapping token ids to biases \(.*\), got a Map \(its entries are not properties\)$/);
  refuses(chapter, new Set(["greedy"]), /^config must be an object, got a Set/);
  refuses(chapter, new Date(0), /^config must be an object, got a Date/);
  refuses(chapter, /greedy/, /^config must be an object, got a RegExp/);
  refuses(chapter, { top_p: new WeakMap() }, /^top_p must be a number in \[0, 1\], got a WeakMap \(its entries are not properties\)$/);
  // the same bias written as an object is applied
  assert.equal(step(chapter, { strategy: "greedy", logit_bias: { 0: -100 } }).token, 1);
  // an object literal with keys skips the brand checks (speed); a Map given Object.prototype by
  // hand still has no keys, so it is still checked and still refused, not read as {}
  refuses(chapter, Object.setPrototypeOf(new Map([["top_p", 0.5]]), Object.prototype), /^config must be an object, got a Map/);
  refuses(chapter, { logit_bias: Object.setPrototypeOf(new Map([[0, -100]]), Object.prototype) }, /got a Map \(its entries are not properties\)$/);
});

test("every other kind of typed array (and DataView, ArrayBuffer) as logits is named in the message", () => {
  const kinds = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, BigInt64Array, BigUint64Array];
  for (const Kind of kinds) {
    const article = /^[AEIO]/.test(Kind.name) ? "an" : "a";
    refuses(new Kind(3), {}, new RegExp(`^logits must be a Float32Array, a Float64Array or an array of numbers, got ${article} ${Kind.name}$`));
  }
  refuses(new DataView(new ArrayBuffer(12)), {}, /got a DataView$/);
  refuses(new ArrayBuffer(12), {}, /got an ArrayBuffer$/);
  refuses({ length: 3, 0: 1, 1: 2, 2: 3 }, {}, /got an object$/);
  // a Float64Array (what JS maths makes) is read like an array of numbers: each rounded to float32,
  // the same trace as the Float32Array of those values; one past float32's range is refused by name
  const wide = Float64Array.from({ length: 300 }, (_, i) => Math.sin(i * 0.37) * 4 + 1e-9 * i);
  const cfg = { temperature: 0.8, top_k: 40, top_p: 0.95, seed: 7, draw: 3, trace_top: 300 };
  assert.deepEqual(step(wide, cfg), step(Float32Array.from(wide), cfg));
  assert.equal(step(Float64Array.of(-Infinity, 2, 1), { strategy: "greedy" }).token, 1);
  refuses(Float64Array.of(0, 1e39), {}, /^logits\[1\] must be finite in float32 \(at most 3.4028235e38\) or -inf, got 1e\+39$/);
  refuses(Float64Array.of(0, NaN), {}, /^logits\[1\] must be finite or -inf, got NaN$/);
  // a Float32Array over shared memory, or at an offset, is read as its elements
  const shared = new Float32Array(new SharedArrayBuffer(16));
  shared.set([0.5, 2, 1, 0]);
  assert.equal(step(shared, { strategy: "greedy" }).token, 1);
  assert.equal(step(new Float32Array([9, 1, 5, 2]).subarray(1), { strategy: "greedy" }).token, 1);
});

test("numbers at the edges: float32 overflow named as passed, -0, NaN and Infinity, sparse arrays, BigInt", () => {
  refuses([1, 1e40], {}, /^logits\[1\] must be finite in float32 \(at most 3\.4028235e38\) or -inf, got 1e\+40$/);
  refuses([1, NaN], {}, /^logits\[1\] must be finite or -inf, got NaN$/);
  refuses([1, Infinity], {}, /^logits\[1\] must be finite or -inf, got Infinity$/);
  refuses([3.2, , 1.7], {}, /^logits\[1\] must be a finite number or -inf, got a hole \(no element at index 1\)$/); // eslint-disable-line no-sparse-arrays
  refuses([1, 2n], {}, /^logits\[1\] must be a finite number or -inf, got bigint 2$/);
  // a BigInt setting is its number, range-checked like one (unusual-values.test.mjs)
  refuses(chapter, { top_p: 2n }, /^top_p must be in .*got 2$/);
  refuses(chapter, { seed: 2n ** 70n }, /^seed must be an integer in \[0, 4294967295\], got 1\.1805916207174113e\+21$/);
  refuses(chapter, { temperature: NaN }, /^temperature must be 0 \(greedy\) or in \[1e-38, 1e6\], got NaN$/);
  refuses(chapter, { top_p: -Infinity }, /^top_p must be in \[0, 1\], got -Infinity$/);
  // -0 is 0: a logit of -0, top_k -0 (off), temperature -0 (greedy)
  assert.equal(step([-0, -1], { strategy: "greedy" }).token, 0);
  assert.deepEqual(step(chapter, { top_k: -0, seed: 1 }).token, baseline.token);
  assert.equal(step(chapter, { temperature: -0 }).token, 0);
  // a finite logit below float32's range is -inf: that token cannot be drawn
  const r = step([1, -1e40], { seed: 3, trace_top: 2 });
  assert.equal(r.token, 0);
});

test("frozen, sealed, null-prototype and symbol-keyed configs are read like plain ones; unknown keys are named", () => {
  const want = step(chapter, { top_p: 0.5, seed: 9 });
  for (const config of [
    Object.freeze({ top_p: 0.5, seed: 9 }),
    Object.seal({ top_p: 0.5, seed: 9 }),
    Object.assign(Object.create(null), { top_p: 0.5, seed: 9 }),
    { top_p: 0.5, seed: 9, [Symbol("x")]: 1 },
  ]) {
    const got = step(Object.freeze([...chapter]), config);
    assert.equal(got.token, want.token);
    assert.equal(got.u, want.u);
  }
  refuses(chapter, Object.freeze({ top_p: 0.5, colour: "red" }), /^unknown key "colour" in config$/);
  refuses(chapter, { top_p: "0.5" }, /^top_p must be a number in \[0, 1\], got string "0\.5"$/);
  refuses(chapter, { strategy: "GREEDY" }, /^strategy must be "sample" or "greedy", got string "GREEDY"$/);
});

test("a list of numbers (read in one copy) is refused element by element exactly as before", () => {
  const n = chapter.length;
  const history = (bad) => [...Array(300).fill(1), bad, 2];
  refuses(chapter, { repetition_penalty: 1.3, history: history(2.5) }, /^history\[300\] must be an integer in \[0, 4294967295\], got 2\.5$/);
  refuses(chapter, { repetition_penalty: 1.3, history: history("3") }, /^history\[300\] must be an integer in \[0, 4294967295\], got string "3"$/);
  refuses(chapter, { repetition_penalty: 1.3, history: [...Array(300).fill(1), , 2] }, /^history\[300\] must be .*got a hole \(no element at index 300\)$/); // eslint-disable-line no-sparse-arrays
  refuses(chapter, { repetition_penalty: 1.3, history: history(n) }, new RegExp(`^history\\[300\\] must be a token id < vocabulary size ${n}, got ${n}$`));
  refuses(chapter, { trace_ids: [0, -1] }, /^trace_ids\[1\] must be an integer in \[0, 4294967295\], got -1$/);
  refuses(chapter, { logit_bias: { "05": 1 } }, /^logit_bias\["05"\] must be keyed by a token id \(an integer ≥ 0\), got key "05"$/);
  refuses(chapter, { logit_bias: { "+5": 1 } }, /^logit_bias\["\+5"\] must be keyed by a token id/);
  // each element is read once, typed arrays and -0 included, and the same history gives the same trace
  let reads = 0;
  const counted = [3, 1, 4];
  Object.defineProperty(counted, 1, { get: () => (reads += 1, 1), enumerable: true });
  const want = step(chapter, { repetition_penalty: 1.3, history: [3, 1, 4], seed: 5, trace_top: 5 });
  for (const list of [counted, new Uint32Array([3, 1, 4]), new Float64Array([3, 1, 4]), [3, 1, 4, -0].slice(0, 3)]) {
    const got = step(chapter, { repetition_penalty: 1.3, history: list, seed: 5, trace_top: 5 });
    assert.deepEqual(got.candidates.map((c) => c.p), want.candidates.map((c) => c.p));
  }
  assert.equal(reads, 1);
  assert.equal(step(chapter, { repetition_penalty: 1.3, history: [-0], seed: 5 }).token, step(chapter, { repetition_penalty: 1.3, history: [0], seed: 5 }).token);
});

test("a getter or Proxy trap that throws inside the config is named by its entry, not as the whole config", () => {
  const history = [1, 2, 3];
  Object.defineProperty(history, 1, { get() { throw new Error("boom"); } });
  refuses(chapter, { history, repetition_penalty: 1.2 }, /^history\[1\] could not be read: reading it threw Error: boom$/);
  const trapped = new Proxy([0, 1, 2], { get(t, k) { if (k === "2") throw new TypeError("trap"); return t[k]; } });
  refuses(chapter, { trace_ids: trapped }, /^trace_ids\[2\] could not be read: reading it threw TypeError: trap$/);
  // after a string in the list, the rest is read the general way: still named by index
  const mixed = ["x", 1];
  Object.defineProperty(mixed, 1, { get() { throw new Error("late"); } });
  refuses(chapter, { history: mixed }, /^history\[1\] could not be read: reading it threw Error: late$/);
  refuses(chapter, { logit_bias: { get 3() { throw new Error("bias"); } } }, /^logit_bias\["3"\] could not be read: reading it threw Error: bias$/);
  refuses(chapter, { get temperature() { throw new Error("t"); } }, /^temperature could not be read: reading it threw Error: t$/);
  refuses(chapter, { logit_bias: new Proxy({}, { ownKeys() { throw new Error("keys"); } }) }, /^logit_bias could not be read: reading it threw Error: keys$/);
  // a trap on the config itself names the config
  refuses(chapter, new Proxy({}, { ownKeys() { throw new Error("top"); } }), /^config could not be read: reading it threw Error: top$/);
});
