// Every public entry point (step, sampleCounts, logSumExp, the Generator's constructor, each of its
// methods and getters) against a fixed list of hostile JavaScript values in every argument and in
// every config field, then a seeded random mix of them. After each call: a valid result, or a plain
// Error (never a wasm trap) naming the argument or field; then `step` gives the answer it gave
// before, and a Generator the call refused still holds the tokens, text, stop state and next
// logits it held (nothing lost). boundary-fuzz.test.mjs asserts survival only; this asserts what
// the caller is told and that nothing already there is lost.
import { test } from "node:test";
import assert from "node:assert/strict";
import { freshInstance, weights, tokenizer } from "./load.mjs";

const api = await freshInstance();
const { step, sampleCounts, logSumExp, Generator } = api;
const chapter = new Float32Array([3.2, 2.1, 1.7, 0.9, 0.4]);
const baseline = step(chapter, { seed: 1, temperature: 0.9 });
const PROMPT = "中国的首都是";
const KEYS = ["strategy", "engine", "temperature", "top_k", "top_p", "min_p", "typical_p", "epsilon_cutoff", "eta_cutoff",
  "repetition_penalty", "frequency_penalty", "presence_penalty", "history", "history_prompt_len", "penalty_last_n",
  "logit_bias", "min_keep", "min_new_tokens", "eos_token_id", "dynatemp_range", "dynatemp_exponent", "seed", "draw",
  "trace_top", "trace_ids", "rest_mass"];

const throwing = (what) => () => { throw new Error(what); };
const TRAPS = ["get", "has", "ownKeys", "getOwnPropertyDescriptor", "getPrototypeOf", "apply", "construct", "defineProperty", "set"];
const trapAll = (target) => new Proxy(target, Object.fromEntries(TRAPS.map((t) => [t, throwing(`trap ${t}`)])));
const detached = (Kind) => {
  const view = new Kind(4);
  structuredClone(view.buffer, { transfer: [view.buffer] });
  return view;
};
const KINDS = [Float32Array, Float64Array, Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array,
  Uint32Array, BigInt64Array, BigUint64Array];

/** The fixed list: [label, make()] (a factory: some values are used up or count their reads). */
const HOSTILE = [
  ["a Proxy whose every trap throws", () => trapAll({})],
  ["an array Proxy whose every trap throws", () => trapAll([1, 2])],
  ["a revoked Proxy", () => { const r = Proxy.revocable({}, {}); r.revoke(); return r.proxy; }],
  ["an object whose getters throw", () => Object.defineProperties({}, Object.fromEntries(["length", "0", ...KEYS].map((k) => [k, { get: throwing(k), enumerable: true }])))],
  ["an array whose length changes each read", () => { let n = 0; return new Proxy([1, 2, 3], { get: (t, k) => (k === "length" ? [3, 2 ** 31, -1][n++ % 3] : t[k]) }); }],
  ["a symbol", () => Symbol("hostile")], ["0n", () => 0n], ["2n ** 64n", () => 2n ** 64n], ["2n ** 64n + 1n", () => 2n ** 64n + 1n],
  ["-0", () => -0], ["NaN", () => NaN], ["Infinity", () => Infinity], ["-Infinity", () => -Infinity], ["2 ** 53", () => 2 ** 53],
  ["-1", () => -1], ["1.5", () => 1.5], ["null", () => null], ["undefined", () => undefined], ["true", () => true],
  ["a function", () => () => 1], ["a holey array", () => [, 1]], ["new Array(3)", () => new Array(3)], // eslint-disable-line no-sparse-arrays
  ["10^6 zeros", () => new Array(1e6).fill(0)], ["2^20 + 1 zeros", () => new Float32Array(2 ** 20 + 1)],
  ...KINDS.map((Kind) => [`a ${Kind.name}`, () => (Kind.name.startsWith("Big") ? new Kind([1n, 2n, 3n]) : new Kind([1, 2, 3]))]),
  ["a detached Float32Array", () => detached(Float32Array)], ["a detached Uint8Array", () => detached(Uint8Array)],
  ["a Float32Array over a SharedArrayBuffer", () => new Float32Array(new SharedArrayBuffer(12)).fill(1)],
  ["a Uint8Array over a SharedArrayBuffer", () => new Uint8Array(new SharedArrayBuffer(3)).fill(1)],
  ["a frozen object", () => Object.freeze({ seed: 1 })], ["a frozen array", () => Object.freeze([1, 2])],
  ["an object whose toString/valueOf throw", () => ({ toString: throwing("toString"), valueOf: throwing("valueOf"), [Symbol.toPrimitive]: throwing("toPrimitive") })],
  ["a null-prototype object", () => Object.assign(Object.create(null), { seed: 1 })],
  ["a lone high surrogate", () => "a\uD800b"], ["a lone low surrogate", () => "\uDC00"],
  ["1 MB of text", () => "x".repeat(2 ** 20)], ["1 MB + 1 of text", () => "中".repeat(2 ** 20 + 1)],
  ["</s>", () => "</s>"], ["special tokens", () => "<unk><s></s><0x00><0xE4>"], ["an empty string", () => ""],
  ["a Map", () => new Map([["seed", 1]])], ["a String object", () => new String("greedy")], ["a Number object", () => new Number(1)],
  ["a Date", () => new Date(0)], ["an Error", () => new Error("e")], ["a Promise", () => Promise.resolve(1)],
];

/** What the Generator holds that a refused call must not change. */
function fingerprint(gen) {
  let logits = "no prompt";
  try {
    const l = gen.logits();
    logits = `${l.length}:${l[0]}:${l[1]}:${l.reduce((a, b) => a + b, 0)}`;
  } catch (e) {
    logits = e.message;
  }
  return JSON.stringify([Array.from(gen.tokens()), gen.text(), gen.stopped ?? null, gen.promptLength, logits]);
}

function reset(gen) {
  gen.setMaxNewTokens(64);
  gen.setStopSequences([]);
  gen.setPrompt(PROMPT);
  gen.next({ strategy: "greedy" });
  gen.next({ seed: 3, draw: 1 });
}

/**
 * The promise for one call: a result, or an Error (not a trap) whose message names `field`
 * (a RegExp) and says what was wrong; then `step` answers as before, and, if `gen` refused the
 * call, it holds what it held. Returns whether the call threw.
 */
function holds(label, field, run, gen) {
  try {
    return holdsOrThrows(label, field, run, gen);
  } catch (e) {
    if (!(e instanceof assert.AssertionError)) throw e;
    failures.push(`${e.message}: ${String(e.actual).slice(0, 200)}`);
    if (gen) reset(gen);
    return true;
  }
}

/** Every broken promise of one test, reported together (one hostile value often breaks several). */
let failures = [];
function noFailures() {
  const found = failures;
  failures = [];
  assert.deepEqual(found.slice(0, 40), [], `${found.length} broken`);
}

function holdsOrThrows(label, field, run, gen) {
  const before = gen ? fingerprint(gen) : undefined;
  let threw = false;
  try {
    const out = run();
    if (out instanceof Generator) out.free();
  } catch (e) {
    threw = true;
    assert.ok(e instanceof Error, `${label}: threw a non-Error ${String(e)}`);
    assert.ok(!(e instanceof WebAssembly.RuntimeError), `${label}: trapped the instance: ${e.message}`);
    assert.ok(e.message.length > 10 && e.message.length < 700, `${label}: a message of ${e.message.length} characters`);
    assert.match(e.message, field, `${label}: the message names the field`);
    assert.match(e.message, /must|could not be read|unknown key|not valid|was freed|running|needs|has stopped|has no|at least|at most|truncated|got/, `${label}: says what was wrong`);
  }
  const again = step(chapter, { seed: 1, temperature: 0.9 });
  assert.equal(again.token, baseline.token, `${label}: the next step gives the same token`);
  assert.equal(again.u, baseline.u);
  if (gen && threw) assert.equal(fingerprint(gen), before, `${label}: the refused call changed the Generator`);
  if (gen && !threw) reset(gen);
  return threw;
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A message that starts with one of `fields` (a config's unknown key: "unknown key … in config"). */
const names = (...fields) => new RegExp(`^(${fields.map(escape).join("|")})\\b|^Generator\\.${fields.includes("config") ? "|^unknown key .* in config\\b" : ""}`);

/** Every argument of every entry point: [label, field names the message may start with, call(value)]. */
function positions(gen) {
  return [
    ["step logits", names("logits"), (v) => step(v, { seed: 1 })],
    ["step config", names("config", ...KEYS), (v) => step(chapter, v)],
    ["sampleCounts logits", names("logits"), (v) => sampleCounts(v, { seed: 1 }, 4)],
    ["sampleCounts config", names("config", ...KEYS), (v) => sampleCounts(chapter, v, 4)],
    ["sampleCounts n", names("n"), (v) => sampleCounts(chapter, { seed: 1 }, v)],
    ["logSumExp logits", names("logits"), (v) => logSumExp(v)],
    ["new Generator weights", names("model bytes", "model file", "safetensors"), (v) => new Generator(v, tokenizer)],
    ["new Generator tokenizer", names("tokenizer JSON", "tokenizer.json"), (v) => new Generator(weights, v)],
    ["setPrompt", names("prompt"), (v) => gen.setPrompt(v)],
    ["next config", names("config", ...KEYS), (v) => gen.next(v)],
    ["force", names("force token"), (v) => gen.force(v)],
    ["forceMany tokens", names("tokens"), (v) => gen.forceMany(v)],
    ["forceMany config", names("config", ...KEYS), (v) => gen.forceMany([5], v)],
    ["rewind", names("rewind n"), (v) => gen.rewind(v)],
    ["setMaxNewTokens", names("setMaxNewTokens n"), (v) => gen.setMaxNewTokens(v)],
    ["setStopSequences", names("stop sequences"), (v) => gen.setStopSequences(v)],
    ["setStopSequences item", names("stop sequences"), (v) => gen.setStopSequences(["。", v])],
    ["encode", names("encode text"), (v) => gen.encode(v)],
  ];
}

test("every argument of every entry point, given each hostile value: a result or an Error naming it; nothing lost", () => {
  const gen = new Generator(weights, tokenizer);
  reset(gen);
  for (const [where, field, call] of positions(gen)) {
    for (const [what, make] of HOSTILE) holds(`${where} ← ${what}`, field, () => call(make()), gen);
  }
  gen.free();
  noFailures();
});

test("every config field of step, sampleCounts, next and forceMany, given each hostile value", () => {
  const gen = new Generator(weights, tokenizer);
  reset(gen);
  const calls = [
    ["step", (c) => step(chapter, c)],
    ["sampleCounts", (c) => sampleCounts(chapter, c, 3)],
    ["next", (c) => gen.next(c)],
    ["forceMany", (c) => gen.forceMany([5, 6], c)],
  ];
  for (const key of KEYS) {
    for (const [what, make] of HOSTILE) {
      for (const [where, call] of calls) {
        holds(`${where} {${key}: ${what}}`, names(key), () => call({ seed: 2, [key]: make() }), where === "next" || where === "forceMany" ? gen : undefined);
      }
      // a getter that throws, and one whose value changes at each read (read once: a valid value or a refusal)
      holds(`step {get ${key}: throws}`, names(key), () => step(chapter, { get [key]() { throw new Error("no"); } }));
      let reads = 0;
      holds(`next {get ${key}: changes}`, names(key), () => gen.next({ get [key]() { return [0.5, "x", 1][reads++ % 3]; } }), gen);
    }
  }
  gen.free();
  noFailures();
});

test("a freed Generator, getters, and re-entrant calls from inside an argument", () => {
  const gen = new Generator(weights, tokenizer);
  reset(gen);
  const freed = gen.spawn();
  freed.free();
  for (const [where, , call] of positions(freed)) {
    if (where.startsWith("new ") || where.startsWith("step") || where.startsWith("sample") || where.startsWith("logSum")) continue;
    holds(`freed ${where}`, /^Generator\.\w+: this Generator was freed/, () => call(1), gen);
  }
  for (const name of ["logits", "tokens", "text", "vocab", "stop", "spawn"]) holds(`freed ${name}()`, /^Generator\.\w+: this Generator was freed/, () => freed[name](), gen);
  for (const name of ["stopped", "promptLength", "eosId"]) holds(`freed .${name}`, /^Generator\.\w+: this Generator was freed/, () => freed[name], gen);

  // a getter that calls step while the outer step reads its config: the outer result is the one
  // without the re-entry, and so is the inner one
  const plain = step(chapter, { seed: 5, temperature: 0.7, trace_top: 5 });
  let inner;
  const outer = step(chapter, { seed: 5, trace_top: 5, get temperature() { inner = step(chapter, { seed: 1, temperature: 0.9 }); return 0.7; } });
  assert.equal(inner.u, baseline.u);
  assert.deepEqual([outer.token, outer.u, Array.from(outer.columns.p)], [plain.token, plain.u, Array.from(plain.columns.p)]);
  const counts = sampleCounts(chapter, { seed: 5, get temperature() { step(chapter, { seed: 9 }); return 0.7; } }, 50);
  assert.deepEqual(Array.from(counts.counts), Array.from(sampleCounts(chapter, { seed: 5, temperature: 0.7 }, 50).counts));

  // free() from inside the Generator's own argument is refused, and the call goes on
  const want = gen.next({ strategy: "greedy" }).token;
  gen.rewind(1);
  holds("free() inside next's config", /^temperature could not be read: .*Generator\.free: this Generator's next is running/,
    () => gen.next({ get temperature() { gen.free(); return 0; } }), gen);
  assert.equal(gen.next({ strategy: "greedy" }).token, want);
  gen.free();
  noFailures();
});

test("a seeded mix of hostile values in every position at once", () => {
  let state = 0x2545f491;
  const rand = () => { state ^= state << 13; state >>>= 0; state ^= state >>> 17; state ^= state << 5; state >>>= 0; return state / 4294967296; };
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const gen = new Generator(weights, tokenizer);
  reset(gen);
  const value = () => (rand() < 0.3 ? pick([0.5, 1, 3, "greedy", "hf", [1, 2], { 1: -100 }]) : pick(HOSTILE)[1]());
  const config = () => Object.fromEntries(Array.from({ length: 1 + Math.floor(rand() * 4) }, () => [pick(KEYS), value()]));
  const all = positions(gen);
  for (let i = 0; i < 1500; i++) {
    const [where, field, call] = pick(all);
    const arg = where.endsWith("config") && rand() < 0.7 ? config() : value();
    holds(`call ${i}: ${where}`, field, () => call(arg), gen);
  }
  gen.free();
  noFailures();
});

test("what each refusal says: the field, and the rule it broke (not one it did not)", () => {
  const gen = new Generator(weights, tokenizer);
  reset(gen);
  /** `run` is refused with `message`, and nothing it could reach changed. */
  const says = (run, message) => {
    const before = fingerprint(gen);
    assert.throws(run, (e) => e instanceof Error && !(e instanceof WebAssembly.RuntimeError) && message.test(e.message) || assert.fail(e.message));
    assert.equal(fingerprint(gen), before);
    assert.equal(step(chapter, { seed: 1, temperature: 0.9 }).u, baseline.u);
  };
  // a typed array where the settings belong is named, not read by its indices (an empty
  // BigInt64Array was the defaults; a BigInt64Array of biases was a logit_bias of {0: 1})
  says(() => step(chapter, new BigInt64Array(0)), /^config must be an object, got a BigInt64Array$/);
  says(() => gen.next(new Float32Array([1])), /^config must be an object, got a Float32Array \(the logits go before the config: step\(logits, config\), sampleCounts\(logits, config, n\)\)$/);
  says(() => step(chapter, { logit_bias: new BigInt64Array([5n]) }), /^logit_bias must be an object mapping token ids to biases .*, got an array$/);
  // …and a list of BigInts is a list of numbers, as [3n, 1n] is
  const history = { repetition_penalty: 1.3, seed: 2, trace_top: 5 };
  assert.deepEqual(step(chapter, { ...history, history: new BigUint64Array([3n, 1n]) }).u, step(chapter, { ...history, history: [3, 1] }).u);
  assert.deepEqual(Array.from(step(chapter, { ...history, history: new BigInt64Array([3n, 1n]) }).columns.p), Array.from(step(chapter, { ...history, history: [3, 1] }).columns.p));
  // an unknown key is what is wrong with it, whatever its getter does
  says(() => step(chapter, { top_p: 0.5, get colour() { throw new Error("x"); } }), /^unknown key "colour" in config; reading it threw Error: x$/);
  says(() => gen.next({ get 1() { throw new Error("y"); } }), /^unknown key "1" in config; reading it threw Error: y$/);
  // stop sequences: an array of strings of at most 256 characters, said so whatever came instead
  says(() => gen.setStopSequences("x".repeat(2000)), /^stop sequences must be an array of strings, got string "x{40}…"$/);
  says(() => gen.setStopSequences("\uD800"), /^stop sequences must be an array of strings, got string "\\ud800"$/);
  says(() => gen.setStopSequences(["。", "x".repeat(2000)]), /^stop sequences\[1\] must be a string of at most 256 characters, got 2000 characters$/);
  says(() => gen.setStopSequences(["。", new Array(100).fill("a")]), /^stop sequences\[1\] must be a string, got an array$/);
  says(() => gen.setStopSequences(["。", { get 0() { throw new Error("z"); } }]), /^stop sequences\[1\] must be a string, got an object$/);
  says(() => gen.setStopSequences({ length: 1, get 0() { throw new Error("z"); } }), /^stop sequences must be an array of strings, got an object$/);
  gen.setStopSequences(["😀".repeat(256)]); // 256 characters, 512 UTF-16 units: accepted
  says(() => gen.setStopSequences(["😀".repeat(257)]), /^stop sequences\[0\] must be a string of at most 256 characters, got 257 characters/);
  gen.setStopSequences([]);
  // token ids: an array of integers
  says(() => gen.forceMany("\uD800"), /^tokens must be an array of at most 65536 token ids, got string "\\ud800"$/);
  says(() => gen.forceMany("5".repeat(100)), /^tokens must be an array of at most 65536 token ids, got string "5{40}…"$/);
  says(() => gen.forceMany({ length: 1, get 0() { throw new Error("z"); } }), /^tokens must be an array of at most 65536 token ids, got an object$/);
  says(() => gen.forceMany([5, [6]]), /^tokens\[1\] must be an integer in \[0, 7999\], got an array$/);
  // a number float32 rounds to 0 is refused in words that say why (it was "must be > 0, got 1e-300")
  says(() => step(chapter, { repetition_penalty: 1e-300 }), /^repetition_penalty must be in \[1\.4e-45, 3\.4e38\] \(a positive float32\), got 1e-300$/);
  says(() => step(chapter, { engine: "llama.cpp", presence_penalty: 1e39 }), /^presence_penalty must be in \[-3\.4e38, 3\.4e38\] \(a finite float32\), got 1e\+39$/);
  // a BigInt argument is shown as the number it is
  says(() => gen.rewind(2n), /^rewind n must be an integer in \[0, 4294967295\], got bigint 2$/);
  says(() => sampleCounts(chapter, {}, 2n ** 70n), /^n must be an integer in \[1, 1048576\], got bigint 1180591620717411303424$/);
  gen.free();
});
