// A Generator method called after free() or on something that is not a Generator says so,
// in words naming the method and what to do (it used to be wasm-bindgen's "null pointer passed
// to rust", which names nothing), and the module and every live Generator go on working.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Generator, step, tokenizer, weights } from "./load.mjs";

const chapter = [Math.log(0.5), Math.log(0.3), Math.log(0.2)];
const METHODS = ["encode", "forceMany", "force", "logits", "next", "rewind", "setMaxNewTokens", "setPrompt", "setStopSequences", "spawn", "stop", "text", "tokens", "vocab"];
const GETTERS = ["eosId", "promptLength", "stopped"];

/** Every public method and getter of Generator.prototype, as `[name, call(self)]`. */
function calls() {
  const out = METHODS.map((name) => [name, (self) => Generator.prototype[name].call(self, 1)]);
  for (const name of GETTERS) {
    const get = Object.getOwnPropertyDescriptor(Generator.prototype, name).get;
    out.push([name, (self) => get.call(self)]);
  }
  return out;
}

test("the d.ts's Generator methods are all covered here", () => {
  const own = Object.getOwnPropertyNames(Generator.prototype).filter((n) => n !== "constructor" && n !== "free" && !n.startsWith("__"));
  assert.deepEqual(own.sort(), [...METHODS, ...GETTERS].sort());
});

test("a call after free() names the method, says it was freed and what to do", () => {
  const gen = new Generator(weights, tokenizer);
  gen.setPrompt("中国的首都是");
  const first = gen.next({ strategy: "greedy" }).token;
  const freed = gen.spawn();
  freed.free();
  for (const [name, call] of calls()) {
    assert.throws(() => call(freed), (e) => {
      assert.ok(e instanceof Error && !(e instanceof WebAssembly.RuntimeError), name);
      assert.equal(e.message, `Generator.${name}: this Generator was freed (free() was called); create a new one (new Generator(weights, tokenizerJson), or spawn() on a live one)`);
      return true;
    });
  }
  // free() again (or Symbol.dispose after free) does nothing: disposing twice is not an error
  freed.free();
  freed[Symbol.dispose]();
  gen.rewind(1);
  assert.equal(gen.next({ strategy: "greedy" }).token, first, "the live Generator still works");
  assert.equal(step(chapter, { strategy: "greedy" }).token, 0);
  gen.free();
});

test("a call on something that is not a Generator names the method and what it got", () => {
  const gen = new Generator(weights, tokenizer);
  gen.setPrompt("中国的首都是");
  const first = gen.next({ strategy: "greedy" }).token;
  const selves = [
    [{}, "an object"],
    [null, "null"],
    [undefined, "undefined"],
    [7, "7"],
    ["gen", 'string "gen"'],
    [Object.create(Generator.prototype), "an object"],
    [new Proxy({}, { get() { throw new Error("trap"); }, getPrototypeOf() { throw new Error("trap"); } }), "an object"],
  ];
  for (const [name, call] of calls()) {
    for (const [self, said] of selves) {
      assert.throws(() => call(self), (e) => {
        assert.ok(e instanceof Error && !(e instanceof WebAssembly.RuntimeError), name);
        assert.equal(e.message, `Generator.${name}: called on ${said}, which is not a Generator; call it on one (const g = new Generator(weights, tokenizerJson); g.${name}…)`);
        return true;
      });
    }
  }
  for (const [self, said] of selves) {
    assert.throws(() => Generator.prototype.free.call(self), { message: `Generator.free: called on ${said}, which is not a Generator; call it on one (const g = new Generator(weights, tokenizerJson); g.free…)` });
  }
  gen.rewind(1);
  assert.equal(gen.next({ strategy: "greedy" }).token, first, "the Generator still works");
  gen.free();
});

test("a transparent Proxy of a live Generator is that Generator; a guarded method keeps its name", () => {
  const gen = new Generator(weights, tokenizer);
  gen.setPrompt("ab");
  assert.deepEqual([...new Proxy(gen, {}).tokens()], [...gen.tokens()]);
  gen.free();
});

test("a guarded method keeps its name and a live Generator's calls are unchanged", () => {
  assert.equal(Generator.prototype.next.name, "next");
  assert.equal(Object.getOwnPropertyDescriptor(Generator.prototype, "eosId").get.name, "get eosId");
  const gen = new Generator(weights, tokenizer);
  assert.equal(gen.promptLength, 0);
  gen.setPrompt("ab");
  assert.ok(gen.promptLength > 0);
  assert.equal(typeof gen.eosId, "number");
  assert.equal(gen.stopped, undefined);
  const spawned = gen.spawn();
  assert.ok(spawned instanceof Generator);
  spawned.setPrompt("ab");
  assert.deepEqual([...spawned.tokens()], [...gen.tokens()]);
  spawned.free();
  gen.free();
});

// vLLM refuses temperature above 2: vllm-project/vllm, vllm/sampling_params.py,
// SamplingParams._verify_args ("temperature must be in [0, 2]"), added by vllm PR #44965 (merged
// 2026-06-09; in v0.24.0, per that release's users) and present at commit 00388f6573cc. Before it
// (e.g. commit db573835d3ef) only temperature < 0 was refused, as our range had it.
test("engine vllm: temperature in [0, 2], as vLLM's _verify_args has it; HF and llama.cpp unchanged", () => {
  for (const t of [0, 1e-6, 0.5, 1, 2]) {
    assert.equal(step(chapter, { engine: "vllm", temperature: t, seed: 1 }).stages.find((s) => s.name === "temperature") !== undefined, true, String(t));
  }
  for (const t of [2.000001, 2.5, 5, 1e6, -1]) {
    assert.throws(() => step(chapter, { engine: "vllm", temperature: t }), {
      message: `temperature must be in [0, 2] for engine "vllm" (below 1e-5: greedy), got ${t}`,
    });
  }
  // the next call works, and the other engines keep their ranges
  for (const engine of ["hf", "llama.cpp"]) assert.equal(typeof step(chapter, { engine, temperature: 5, seed: 1 }).token, "number");
});

test("hostile shapes not tried before: 10,000 unknown keys, {length: 1e9} array-likes, frozen and revoked values; the next call works", () => {
  const many = {};
  for (let i = 0; i < 10000; i++) many[`k${i}`] = i;
  assert.throws(() => step(chapter, many), { message: 'unknown key "k0" in config' });
  const huge = { length: 1e9 };
  assert.throws(() => step(huge, {}), { message: "logits must be a Float32Array, a Float64Array or an array of numbers, got an object" });
  assert.throws(() => step(chapter, { history: huge }), { message: "history must be an array of at most 1048576 token ids, got an object" });
  assert.throws(() => step(chapter, { trace_ids: huge }), { message: "trace_ids must be an array of at most 1024 token ids, got an object" });
  const sparse = [];
  sparse.length = 5e6;
  assert.throws(() => step(sparse, {}), { message: "logits must have at most 1048576 entries, got 5000000" });
  assert.equal(step(Object.freeze([...chapter]), Object.freeze({ strategy: "greedy" })).token, 0, "frozen values are read as any other");
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  assert.throws(() => step(chapter, proxy), { message: /^config could not be read: reading it threw TypeError: / });
  const gen = new Generator(weights, tokenizer);
  gen.setPrompt("中国的首都是");
  const first = gen.next({ strategy: "greedy" }).token;
  assert.throws(() => gen.setStopSequences(huge), { message: "stop sequences must be an array of strings, got an object" });
  assert.throws(() => gen.forceMany(huge), { message: "tokens must be an array of at most 65536 token ids, got an object" });
  assert.throws(() => gen.next(many), { message: 'unknown key "k0" in config' });
  gen.rewind(1);
  assert.equal(gen.next({ strategy: "greedy" }).token, first, "the Generator goes on");
  assert.equal(step(chapter, { strategy: "greedy" }).token, 0);
  gen.free();
});

test("a wrapped primitive or a built-in passed where a string or a number goes is named, not 'an object'", () => {
  const gen = new Generator(weights, tokenizer);
  const wrapped = (name, lower) => `a ${name} object (a wrapped primitive: pass the ${lower} itself)`;
  assert.throws(() => gen.setPrompt(new String("中国的首都是")), { message: `prompt must be a string, got ${wrapped("String", "string")}` });
  assert.throws(() => gen.encode(new String("a")), { message: `encode text must be a string, got ${wrapped("String", "string")}` });
  assert.throws(() => gen.setMaxNewTokens(new Number(5)), { message: `setMaxNewTokens n must be an integer in [1, 4294967295], got ${wrapped("Number", "number")}` });
  assert.throws(() => gen.setPrompt(new Map()), { message: "prompt must be a string, got a Map" });
  assert.throws(() => gen.setPrompt({}), { message: "prompt must be a string, got an object" });
  assert.throws(() => gen.setPrompt(new Proxy({}, { get() { throw new Error("trap"); } })), { message: "prompt must be a string, got an object" });
  gen.setPrompt("中国的首都是");
  assert.equal(typeof gen.next({ strategy: "greedy" }).token, "number");
  gen.free();
});

test("a Generator passed where a config, a list, logits or text goes is named as one, not 'unknown key \"__wbg_ptr\"'", () => {
  const gen = new Generator(weights, tokenizer);
  gen.setPrompt("中国的首都是");
  const spawned = gen.spawn();
  for (const g of [gen, spawned]) {
    const cases = [
      [() => step(chapter, g), "config must be an object, got a Generator"],
      [() => gen.next(g), "config must be an object, got a Generator"],
      [() => step(chapter, { history: g }), "history must be an array of at most 1048576 token ids, got a Generator"],
      [() => step(g, {}), "logits must be a Float32Array, a Float64Array or an array of numbers, got a Generator"],
      [() => gen.setPrompt(g), "prompt must be a string, got a Generator"],
      [() => gen.forceMany(g), "tokens must be an array of at most 65536 token ids, got a Generator"],
    ];
    for (const [call, message] of cases) assert.throws(call, { message });
  }
  // a plain object copying a Generator's fields is no Generator
  assert.throws(() => step(chapter, { ...gen }), { message: /^unknown key "__wbg_ptr" in config/ });
  assert.equal(gen.next({ strategy: "greedy" }).stop, null);
  spawned.free();
  gen.free();
});

test("next's history_prompt_len past the Generator's own tokens names them, not a history the caller never gave", () => {
  const gen = new Generator(weights, tokenizer);
  gen.setPrompt("中国的首都是");
  assert.throws(() => gen.next({ history_prompt_len: 200 }), {
    message: `history_prompt_len must be in [0, ${gen.tokens().length}] (the tokens this Generator holds, its prompt's ${gen.promptLength} included: next's own history), got 200`,
  });
  assert.throws(() => gen.forceMany([1], { history_prompt_len: 200 }), /the tokens this Generator holds/);
  // within them it is taken; a caller's own history keeps step's wording
  assert.equal(gen.next({ strategy: "greedy", history_prompt_len: 0 }).stop, null);
  assert.throws(() => gen.next({ history: [1, 2], history_prompt_len: 3 }), { message: "history_prompt_len must be in [0, 2] (the history's length), got 3" });
  gen.free();
});
