// Each engine's own "off" values: vLLM's top_k -1 (its `_verify_args` accepts -1 and 0
// as "disable", refuses below -1), llama.cpp's top_k ≤ 0 (`llama_sampler_top_k_impl` returns when
// k <= 0), and the "off" of top_p 1, min_p 0 and HF's top_k 0 are accepted and shown as off in the
// trace (the stage inactive, no value); HF's negative top_k is refused, as TopKLogitsWarper does.
import { test } from "node:test";
import assert from "node:assert/strict";
import { step, Generator, weights, tokenizer } from "./load.mjs";
import { refusesAndRecovers as refuses } from "./refuses.mjs";

const chapter = new Float32Array([3.2, 2.1, 1.7, 0.9, 0.4]);
const stage = (trace, name) => trace.stages.find((s) => s.name === name);

/** The stage `name` is off in `config`'s trace, and the step draws as with the key left out. */
function off(config, name, omitted) {
  const trace = step(chapter, { seed: 4, ...config });
  const s = stage(trace, name);
  assert.ok(s, `${name} listed`);
  assert.equal(s.active, false, `${JSON.stringify(config)}: ${name} off`);
  assert.equal(s.value, null);
  assert.equal(s.removed_count, 0);
  const plain = step(chapter, { seed: 4, ...omitted });
  assert.equal(trace.token, plain.token);
  assert.equal(trace.u, plain.u);
  assert.deepEqual(trace.candidates.map((c) => c.p), plain.candidates.map((c) => c.p));
}

test("vLLM's top_k -1 and 0 are off, as vLLM accepts them; below -1 is refused with vLLM's range", () => {
  off({ engine: "vllm", top_k: -1 }, "top_k", { engine: "vllm" });
  off({ engine: "vllm", top_k: 0 }, "top_k", { engine: "vllm" });
  off({ top_k: -1, engine: "vllm", temperature: 0.8 }, "top_k", { engine: "vllm", temperature: 0.8 });
  refuses(() => step(chapter, { engine: "vllm", top_k: -2 }),
    /^top_k must be an integer in \[-1, 4294967295\] for engine "vllm" \(-1 and 0: off\), got -2$/);
  refuses(() => step(chapter, { engine: "vllm", top_k: "-1" }), /^top_k must be an integer in \[-1, 4294967295\] for engine "vllm"/);
  refuses(() => step(chapter, { engine: "vllm", top_k: -1.5 }), /^top_k must be an integer in \[-1, /);
});

test("llama.cpp's top_k ≤ 0 is off (any int32), top_p 1 and min_p 0 are off", () => {
  for (const k of [0, -1, -40, -2147483648]) off({ engine: "llama.cpp", top_k: k }, "top_k", { engine: "llama.cpp" });
  refuses(() => step(chapter, { engine: "llama.cpp", top_k: -2147483649 }),
    /^top_k must be an integer in \[-2147483648, 4294967295\] for engine "llama\.cpp" \(≤ 0: off\), got -2147483649$/);
  off({ engine: "llama.cpp", top_p: 1 }, "top_p", { engine: "llama.cpp" });
  off({ engine: "llama.cpp", min_p: 0 }, "min_p", { engine: "llama.cpp" });
});

test("HF's top_k 0 (or null) is off, a negative one refused as TopKLogitsWarper refuses it", () => {
  off({ top_k: 0 }, "top_k", {});
  off({ top_k: null }, "top_k", {});
  off({ top_p: 1, min_p: 0 }, "top_p", {});
  off({ engine: "vllm", top_p: 1, min_p: 0 }, "min_p", { engine: "vllm" });
  refuses(() => step(chapter, { top_k: -1 }), /^top_k must be an integer in \[0, 4294967295\], got -1$/);
  refuses(() => step(chapter, { engine: "hf", top_k: -1 }), /^top_k must be an integer in \[0, 4294967295\], got -1$/);
});

test("a positive top_k is the same on every engine after these rules", () => {
  for (const engine of ["hf", "llama.cpp", "vllm"]) {
    const t = step(chapter, { engine, top_k: 2, seed: 4 });
    assert.equal(stage(t, "top_k").active, true);
    assert.equal(stage(t, "top_k").value, 2);
    assert.equal(stage(t, "top_k").kept_count, 2);
  }
});

test("a wrapped primitive (new Number, new String, Object(1n)…) is named, not read as empty settings or as keys", () => {
  const cases = [
    [new Number(0.7), "Number", "number"],
    [new Boolean(true), "Boolean", "boolean"],
    [new String("hf"), "String", "string"],
    [Object(5n), "BigInt", "bigint"],
    [Object(Symbol("s")), "Symbol", "symbol"],
  ];
  for (const [value, name, lower] of cases) {
    const said = `a ${name} object \\(a wrapped primitive: pass the ${lower} itself\\)`;
    refuses(() => step(chapter, value), new RegExp(`^config must be an object, got ${said}$`));
    refuses(() => step(chapter, { temperature: value }), new RegExp(`^temperature must be a number: 0 \\(greedy\\) or in \\[1e-38, 1e6\\], got ${said}$`));
  }
  // a wrapper with keys of its own is still a wrapper; a plain object with index keys is a config
  const keyed = Object.assign(new Number(1), { temperature: 0.5 });
  assert.equal(step(chapter, keyed).stages.find((s) => s.name === "temperature").value, 0.5, "read by its keys, as before");
  refuses(() => step(chapter, { 0: 1 }), /^unknown key "0" in config$/);
});

test("wrong `this` and calls after free() throw an Error, and the instance and other Generators go on", () => {
  const gen = new Generator(weights, tokenizer);
  gen.setPrompt("中国的首都是");
  const first = gen.next({ strategy: "greedy" }).token;
  const spawned = gen.spawn();
  spawned.free();
  const calls = ["next", "force", "forceMany", "tokens", "text", "logits", "rewind", "setPrompt", "setMaxNewTokens", "setStopSequences", "spawn", "vocab", "encode", "stop"];
  for (const name of calls) {
    for (const self of [spawned, {}, null, new Proxy({}, { get() { throw new Error("trap"); } })]) {
      assert.throws(() => Generator.prototype[name].call(self, 1), (e) => e instanceof Error && !(e instanceof WebAssembly.RuntimeError), name);
    }
  }
  for (const prop of ["eosId", "promptLength", "stopped"]) {
    assert.throws(() => Object.getOwnPropertyDescriptor(Generator.prototype, prop).get.call(spawned), Error, prop);
  }
  gen.rewind(1);
  assert.equal(gen.next({ strategy: "greedy" }).token, first, "the first Generator still works");
  assert.equal(step(chapter, { strategy: "greedy" }).token, 0);
  gen.free();
});

test("the page's table of settings each engine lacks is the core's, and the page never sends one", async () => {
  const { importTs } = await import("./ts.mjs");
  const page = await importTs(
    "engines",
    `export { ENGINE_LACKS, engineLacks } from "./engines";
     export { DEFAULT_PARAMS, stepConfig } from "./state";`,
  );
  // every setting the page's controls hold, away from its off value
  const set = { temperature: 0.7, top_k: 5, top_p: 0.8, min_p: 0.05, typical_p: 0.5, repetition_penalty: 1.3, frequency_penalty: 0.5, presence_penalty: 0.5 };
  for (const engine of ["hf", "llama.cpp", "vllm"]) {
    for (const [key, value] of Object.entries(set)) {
      let refusal = null;
      try {
        step(chapter, { engine, seed: 1, history: [1, 2], [key]: value });
      } catch (e) {
        refusal = e.message;
      }
      assert.equal(refusal !== null, page.engineLacks(engine, key), `${engine} ${key}: ${refusal}`);
      if (refusal !== null) assert.match(refusal, new RegExp(`^${key} has no stage in engine "${engine.replace(".", "\\.")}"`));
    }
    // the page's own config for all of them at once steps under every engine, the lacked ones left out
    const params = { ...page.DEFAULT_PARAMS, ...set, engine };
    const config = page.stepConfig(params, [1, 2], 1, 0);
    for (const key of page.ENGINE_LACKS[engine]) assert.equal(key in config, false, `${engine} sends ${key}`);
    assert.ok(Number.isInteger(step(chapter, config).token), engine);
  }
});
