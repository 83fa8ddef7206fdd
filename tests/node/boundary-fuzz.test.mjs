// Fuzzing the boundary with hostile JavaScript values (issue 9): throwing getters, Proxies whose
// traps throw, revoked Proxies, detached buffers, views of the module's own memory, deep, wide
// and cyclic objects, prototype keys, class getters, getters that call back into the module, and
// wrong types, into every export. Every call must return or throw an Error — never a
// WebAssembly.RuntimeError, never a non-Error — and afterwards the same instance and Generator
// must work and wasm memory must be under 256 MiB.
//
// BOUNDARY_FUZZ_CALLS sets the number of calls: 5,000 in `make test`, 100,000 in `make fuzz`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { freshInstance, weights, tokenizer } from "./load.mjs";

const CALLS = Number(process.env.BOUNDARY_FUZZ_CALLS ?? 5000);
const MEMORY_BOUND = 256 * 2 ** 20;
const good = new Float32Array([3.2, 2.1, 1.7, 0.9, 0.4]);

// Deterministic (xorshift32), so a failure reproduces from its call number.
let state = 0x9e3779b9;
const rand = () => {
  state ^= state << 13; state >>>= 0; state ^= state >>> 17; state ^= state << 5; state >>>= 0;
  return state / 4294967296;
};
const int = (n) => Math.floor(rand() * n);
const pick = (xs) => xs[int(xs.length)];

const KEYS = ["strategy", "engine", "temperature", "top_k", "top_p", "min_p", "typical_p", "epsilon_cutoff", "eta_cutoff",
  "repetition_penalty", "frequency_penalty", "presence_penalty", "history", "history_prompt_len", "penalty_last_n",
  "logit_bias", "min_keep", "dynatemp_range", "dynatemp_exponent", "seed", "draw", "trace_top", "trace_ids", "min_new_tokens", "eos_token_id", "top_pp", "__proto__",
  "constructor", "0", "k".repeat(3000)];
const NUMBERS = [0, -0, 1, -1, 0.5, 7999, 7999.9, 8000, 2 ** 31, 2 ** 32, 2 ** 32 + 5, 2 ** 53 - 1, 1e8, 4e8, 1e300,
  -1e300, 1e-320, NaN, Infinity, -Infinity];
const STRINGS = ["", "greedy", "sample", "hf", "llama.cpp", "vllm", "-inf", "abc", "xyz界", "中国的首都是", "\u{1F600}\uD800",
  "x".repeat(2000)];
const TRAPS = ["get", "has", "ownKeys", "getOwnPropertyDescriptor", "getPrototypeOf", "set", "defineProperty"];

/** What a hostile getter may do besides returning a value. */
function sideEffect(api, gen) {
  switch (int(6)) {
    case 0: throw new Error("getter threw");
    case 1: throw pick(["a string", 42, null, undefined, { message: "not an Error" }]);
    case 2: return api.step(good, { seed: 1 }).token; // re-entrant step
    case 3: try { return gen.next({ seed: 2 }).token; } catch (e) { return e.message.length; } // re-entrant Generator
    case 4: try { gen.rewind(1); } catch (_) { /* a refused rewind is fine */ } return 1;
    default: return pick(NUMBERS);
  }
}

/** A random hostile value; `depth` keeps the generator itself finite. */
function hostile(api, gen, depth = 0) {
  const deeper = () => hostile(api, gen, depth + 1);
  switch (int(depth > 2 ? 4 : 22)) {
    case 0: return pick(NUMBERS);
    case 1: return pick(STRINGS);
    case 2: return pick([null, undefined, true, false, Symbol("s"), 10n, () => 1]);
    case 3: return rand() * 20 - 10;
    case 4: { // throwing / re-entrant getter on a known key
      const o = {};
      Object.defineProperty(o, pick(KEYS), { get: () => sideEffect(api, gen), enumerable: rand() < 0.5 });
      return o;
    }
    case 5: { // a Proxy whose trap throws (or calls back in)
      const trap = pick(TRAPS);
      return new Proxy(rand() < 0.5 ? [1, 2, 3] : { seed: 1 }, { [trap]: () => sideEffect(api, gen) });
    }
    case 6: { const r = Proxy.revocable({}, {}); r.revoke(); return r.proxy; }
    case 7: { const f = new Float32Array(int(8) + 1); structuredClone(f.buffer, { transfer: [f.buffer] }); return f; }
    case 8: return new Float32Array(api.wasm.memory.buffer, 4 * int(4096), int(64)); // aliasing: read only
    case 9: { let o = {}; for (let i = int(6000); i > 0; i--) o = { [pick(KEYS)]: o }; return o; }
    case 10: { // wide
      const o = {};
      const n = rand() < 0.05 ? 20_000 : int(200);
      for (let i = 0; i < n; i++) o[rand() < 0.5 ? String(i) : pick(KEYS) + i] = pick(NUMBERS);
      return o;
    }
    case 11: { const o = { logit_bias: {}, history: [] }; o.logit_bias.x = o; o.history.push(o); return o; }
    case 12: return Object.create(Object.fromEntries([[pick(KEYS), deeper()], [pick(KEYS), deeper()]]));
    case 13: {
      const key = pick(KEYS);
      class C { get [key]() { return sideEffect(api, gen); } }
      return new C();
    }
    case 14: return new Proxy([], { get: (t, k) => (k === "length" ? pick([2 ** 20 + 1, 2 ** 27, 7e7, -1, NaN, 2 ** 32]) : 0) });
    case 15: { const a = [1, 2, 3]; Object.defineProperty(a, int(3), { get: () => sideEffect(api, gen) }); return a; }
    case 16: return pick([new Float64Array(3), new Uint8Array(4), new Int32Array(2), new BigInt64Array(2), new DataView(new ArrayBuffer(4))]);
    case 17: return Array.from({ length: int(40) }, () => (rand() < 0.8 ? rand() * 10 : deeper()));
    case 18: return new Float32Array(Array.from({ length: int(40) + 1 }, () => (rand() < 0.05 ? pick(NUMBERS) : rand() * 10)));
    case 19: return Object.fromEntries(Array.from({ length: int(6) }, () => [pick(KEYS), deeper()]));
    case 20: return { logit_bias: Object.fromEntries(Array.from({ length: int(5) }, () => [pick(["0", "1", "4", "-1", "x"]), deeper()])), seed: int(9) };
    default: return [new Map([["seed", 1]]), new Date(0), /x/, new Error("e"), Promise.resolve(1), globalThis][int(6)];
  }
}

/** One random call into the instance's API. */
function call(api, gen) {
  const h = () => hostile(api, gen);
  switch (int(15)) {
    case 0: case 1: case 2: return api.step(rand() < 0.5 ? h() : good, h());
    case 3: return rand() < 0.5 ? api.logSumExp(h()) : api.sampleCounts(rand() < 0.5 ? h() : good, h(), rand() < 0.5 ? int(50) : h());
    case 4: case 5: return gen.next(rand() < 0.3 ? { seed: int(5), trace_top: pick([5, 1e8]) } : h());
    case 6: return gen.force(rand() < 0.3 ? int(8000) : h());
    case 7: return gen.rewind(rand() < 0.3 ? int(3) : h());
    case 8: return gen.setPrompt(rand() < 0.5 ? pick(["中国的首都是", "React 是一个用于构建", "组件"]) : h());
    case 9: return gen.setStopSequences(rand() < 0.3 ? ["。"] : h());
    case 10: return gen.setMaxNewTokens(rand() < 0.3 ? 64 : h());
    case 11: return gen.encode(h());
    case 12: return [gen.logits(), gen.tokens(), gen.text(), gen.stopped, gen.promptLength, gen.stop()];
    case 13: return gen.forceMany(rand() < 0.3 ? Array.from({ length: int(4) }, () => int(8000)) : h(), rand() < 0.5 ? undefined : h());
    default: return new api.Generator(rand() < 0.5 ? weights.subarray(0, int(weights.length)) : h(), rand() < 0.5 ? tokenizer : h());
  }
}

test(`${CALLS} hostile calls: only Errors, the same instance and Generator still work, memory bounded`, async () => {
  const api = await freshInstance();
  const gen = new api.Generator(weights, tokenizer);
  let errors = 0;
  for (let i = 0; i < CALLS; i++) {
    try {
      const out = call(api, gen);
      if (out instanceof api.Generator) out.free();
    } catch (e) {
      errors += 1;
      assert.ok(e instanceof Error, `call ${i} threw a non-Error: ${String(e)}`);
      assert.ok(!(e instanceof WebAssembly.RuntimeError), `call ${i} trapped: ${e.message}`);
      assert.ok(e.message.length > 0 && e.message.length < 600, `call ${i}: message of ${e.message.length} characters`);
    }
  }
  assert.ok(errors > CALLS / 4 && errors < CALLS, `${errors} of ${CALLS} calls refused`);
  // Proof of life on the same instance and Generator.
  assert.equal(api.step(good, { strategy: "greedy" }).token, 0);
  gen.setMaxNewTokens(64);
  gen.setStopSequences([]);
  gen.setPrompt("中国的首都是");
  const a = gen.next({ strategy: "greedy" }).token;
  gen.rewind(1);
  assert.equal(gen.next({ strategy: "greedy" }).token, a);
  const fresh = new api.Generator(weights, tokenizer);
  fresh.setPrompt("中国的首都是");
  assert.equal(fresh.next({ strategy: "greedy" }).token, a);
  fresh.free();
  gen.free();
  assert.ok(api.wasm.memory.buffer.byteLength <= MEMORY_BOUND, `${api.wasm.memory.buffer.byteLength} bytes`);
});
