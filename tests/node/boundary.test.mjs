// The boundary cannot be poisoned (issue 9): every hostile case, each in a fresh wasm instance,
// must end in an Error naming field, rule and value (or a correct result) — never a RuntimeError —
// and then the SAME instance and the SAME Generator must still work, with wasm memory under
// 256 MiB. Each test is one class of what was observed on the old boundary.
import { test } from "node:test";
import assert from "node:assert/strict";
import { freshInstance, weights, tokenizer } from "./load.mjs";

const MiB = 2 ** 20;
const MEMORY_BOUND = 256 * MiB;
const chapter = new Float32Array([3.2, 2.1, 1.7, 0.9, 0.4]);
const PROMPT = "中国的首都是";

/** `f()` throws an Error (not a wasm trap) whose message matches `message`. */
function refuses(f, message) {
  assert.throws(f, (e) => {
    assert.ok(e instanceof Error, `threw a non-Error: ${e}`);
    assert.ok(!(e instanceof WebAssembly.RuntimeError), `trapped: ${e.message}`);
    assert.match(e.message, message);
    assert.ok(e.message.length < 400, `message of ${e.message.length} characters`);
    return true;
  });
}

/** The same instance and Generator still work exactly: step, then a whole generate/branch cycle. */
function stillWorks(api, gen) {
  assert.equal(api.step(chapter, { strategy: "greedy" }).token, 0);
  const r = api.step(chapter, { temperature: 1.3, seed: 11, draw: 4 });
  assert.equal(r.candidates.find((c) => c.cum > r.u).id, r.token);
  gen.setPrompt(PROMPT);
  assert.equal(gen.promptLength, gen.tokens().length);
  const first = gen.next({ strategy: "greedy" }).token;
  gen.rewind(1);
  assert.equal(gen.next({ strategy: "greedy" }).token, first);
  gen.force(first);
  gen.rewind(2);
  assert.equal(gen.tokens().length, gen.promptLength);
  assert.equal(gen.logits().length, 8000);
  assert.ok(api.wasm.memory.buffer.byteLength <= MEMORY_BOUND, `${api.wasm.memory.buffer.byteLength} bytes`);
}

/** One class of the issue: a fresh instance and Generator, the hostile calls, then proof of life. */
function boundary(name, run) {
  test(name, async () => {
    const api = await freshInstance();
    const gen = new api.Generator(weights, tokenizer);
    await run(api, gen);
    stillWorks(api, gen);
    gen.free();
  });
}

/** An array whose element `at` has a getter running `get`. */
function withGetter(values, at, get) {
  const a = [...values];
  Object.defineProperty(a, at, { get, enumerable: true });
  return a;
}

/** A safetensors file: `__metadata__` and F32 tensors over `data` zero bytes (offsets as given). */
function safetensors(meta, tensors, data) {
  const header = { __metadata__: Object.fromEntries(Object.entries(meta).map(([k, v]) => [k, String(v)])) };
  for (const [name, shape, offsets] of tensors) header[name] = { dtype: "F32", shape, data_offsets: offsets };
  const text = new TextEncoder().encode(JSON.stringify(header));
  const bytes = new Uint8Array(8 + text.length + data);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(text.length), true);
  bytes.set(text, 8);
  return bytes;
}

/** The crafted model: 64 layers all reading one byte range, and a long context. */
function sharedLayersModel(vocab, dim, layers, seq) {
  const tensors = [];
  let at = 0;
  const put = (name, shape, start = at) => {
    const end = start + shape.reduce((a, b) => a * b, 4);
    tensors.push([name, shape, [start, end]]);
    if (start === at) at = end;
    return start;
  };
  put("tok_emb", [vocab, dim]);
  put("pos_emb", [seq, dim]);
  put("norm_f", [dim]);
  const block = [["norm1", [dim]], ["attn_qkv", [3 * dim, dim]], ["attn_out", [dim, dim]], ["norm2", [dim]],
    ["mlp_up", [4 * dim, dim]], ["mlp_down", [dim, 4 * dim]]];
  const first = block.map(([name, shape]) => put(`blocks.0.${name}`, shape));
  for (let l = 1; l < layers; l++) block.forEach(([name, shape], i) => put(`blocks.${l}.${name}`, shape, first[i]));
  return safetensors({ vocab_size: vocab, dim, n_layers: layers, n_heads: 1, seq_len: seq }, tensors, at);
}

boundary("a JS exception while the logits are read is an Error, and the next call works", (api) => {
  refuses(() => api.step(withGetter([1, 2, 3], 1, () => { throw new Error("boom"); }), {}),
    /logits could not be read: reading it threw Error: boom/);
  const badLength = new Proxy([1, 2], { get: (t, k) => { if (k === "length") throw new TypeError("no length"); return t[k]; } });
  refuses(() => api.step(badLength, {}), /logits could not be read: reading it threw TypeError: no length/);
  const detached = new Float32Array([1, 2]);
  structuredClone(detached.buffer, { transfer: [detached.buffer] });
  refuses(() => api.step(detached, {}), /^logits must be a live typed array, got a Float32Array whose ArrayBuffer was detached \(transferred, or a view of WebAssembly memory that has since grown\)$/);
  refuses(() => api.step("not logits", {}), /logits must be a Float32Array, a Float64Array or an array of numbers, got string "not logits"/);
  refuses(() => api.step([1, "x"], {}), /logits\[1\] must be a finite number or -inf, got string "x"/);
  refuses(() => api.step(new Int32Array(3), {}), /logits must be a Float32Array, a Float64Array or an array of numbers, got an Int32Array/);
  refuses(() => api.step(Symbol("s"), {}), /got a symbol/);
  refuses(() => api.step(10n, {}), /got bigint 10/);
  // ~700 of these used to kill the instance (leaked shadow stack): 2,000 here.
  for (let i = 0; i < 2000; i++) refuses(() => api.step(withGetter([1, 2], 0, () => { throw new Error("x"); }), {}), /threw Error: x/);
});

boundary("a Float32Array viewing the module's own memory is copied and read correctly", (api) => {
  const view = new Float32Array(api.wasm.memory.buffer, 1024, 8);
  const expected = Float32Array.from(view);
  const finite = expected.every((x) => Number.isFinite(x) || x === -Infinity) && expected.some(Number.isFinite);
  if (finite) {
    const r = api.step(view, { strategy: "greedy", trace_top: 8 });
    const best = expected.indexOf(Math.max(...expected.filter(Number.isFinite)));
    assert.equal(r.token, best);
  } else {
    refuses(() => api.step(view, {}), /logits/);
  }
  // Growing memory detaches that view: afterwards it reads as detached, never as garbage.
  api.step(new Float32Array(1_000_000), { seed: 1 });
  if (view.buffer !== api.wasm.memory.buffer) refuses(() => api.step(view, {}), /^logits must be a live typed array, got a Float32Array whose ArrayBuffer was detached \(transferred, or a view of WebAssembly memory that has since grown\)$/);
});

boundary("getters that call step (and the Generator) again run, and both calls are right", (api, gen) => {
  const inner = [];
  const reentrant = withGetter([3.2, 2.1, 1.7, 0.9, 0.4], 0, () => { inner.push(api.step(chapter, { seed: 1 }).token); return 3.2; });
  assert.equal(api.step(reentrant, { strategy: "greedy" }).token, 0);
  const config = { get seed() { inner.push(api.step(chapter, { strategy: "greedy" }).token); return 7; }, temperature: 0.5 };
  assert.equal(api.step(chapter, config).token, api.step(chapter, { seed: 7, temperature: 0.5 }).token);
  assert.equal(inner.length, 2);
  gen.setPrompt(PROMPT);
  const out = gen.next({ get strategy() { gen.next({ strategy: "greedy" }); return "greedy"; } });
  assert.equal(gen.tokens().length, gen.promptLength + 2, "the inner next ran, then the outer one");
  assert.ok(Number.isInteger(out.token));
});

boundary("exceptions while the config is read never leak: 2,000 throwing getters and Proxy traps", (api, gen) => {
  const throwing = { get top_k() { throw new Error("getter"); } };
  const ownKeys = new Proxy({}, { ownKeys() { throw new Error("ownKeys"); } });
  const has = new Proxy({}, { has() { throw new Error("has"); } });
  const proto = new Proxy({}, { getPrototypeOf() { throw new Error("proto"); } });
  const revocable = Proxy.revocable({}, {});
  revocable.revoke();
  for (let i = 0; i < 2000; i++) {
    refuses(() => api.step(chapter, throwing), /^top_k could not be read: reading it threw Error: getter/);
    refuses(() => api.step(chapter, ownKeys), /threw Error: ownKeys/);
    refuses(() => api.step(chapter, has), /threw Error: has/);
    refuses(() => api.step(chapter, proto), /threw Error: proto/);
    refuses(() => api.step(chapter, revocable.proxy), /config could not be read/);
  }
  gen.setPrompt(PROMPT);
  for (let i = 0; i < 1000; i++) refuses(() => gen.next(throwing), /threw Error: getter/);
});

boundary("a config nested 5,000 deep (or cyclic) is refused by depth, and the next call works", (api, gen) => {
  let deep = {};
  for (let i = 0; i < 5000; i++) deep = { a: deep };
  // under a key the core does not know, nothing is walked: the key is what is wrong
  refuses(() => api.step(chapter, deep), /^unknown key "a" in config$/);
  deep = { logit_bias: deep };
  refuses(() => api.step(chapter, deep), /config must be nested at most 4 levels deep, got deeper at logit_bias\["a"\]\["a"\]\["a"\]/);
  const cyclic = { logit_bias: {} };
  cyclic.logit_bias.self = cyclic;
  refuses(() => api.step(chapter, cyclic), /nested at most 4 levels deep/);
  gen.setPrompt(PROMPT);
  refuses(() => gen.next(deep), /nested at most 4 levels deep/);
});

boundary("trace_top is clamped to the vocabulary: 1e8 and 4e9 allocate nothing", (api, gen) => {
  assert.equal(api.step(chapter, { trace_top: 1e8, seed: 1 }).candidates.length, 5);
  assert.equal(api.step(chapter, { trace_top: 4e9, seed: 1 }).candidates.length, 5);
  const wide = new Float32Array(100_000).map((_, i) => Math.sin(i) * 8);
  assert.equal(api.step(wide, { trace_top: 4e9, seed: 1 }).candidates.length, 65536);
  refuses(() => api.step(chapter, { trace_top: 2 ** 32 }), /trace_top must be an integer in \[0, 4294967295\], got 4294967296/);
  gen.setPrompt(PROMPT);
  assert.equal(gen.next({ trace_top: 4e8, seed: 2 }).trace.candidates.length, 8000);
  assert.ok(api.wasm.memory.buffer.byteLength <= MEMORY_BOUND);
});

boundary("sizes past the documented limits are named errors: logits, history, logit_bias, trace_ids, text", (api, gen) => {
  const length = (n) => new Proxy([], { get: (t, k) => (k === "length" ? n : 0) });
  refuses(() => api.step(length(2 ** 27), {}), /logits must have at most 1048576 entries, got 134217728/);
  refuses(() => api.step(new Float32Array(2 ** 20 + 1), {}), /logits must have at most 1048576 entries, got 1048577/);
  refuses(() => api.logSumExp(length(2 ** 27)), /logits must have at most 1048576 entries/);
  refuses(() => api.step(chapter, { history: length(7e7) }), /history must have at most 1048576 entries, got 70000000/);
  refuses(() => api.step(chapter, { history: new Array(2 ** 20 + 1).fill(0) }), /history must have at most 1048576 entries, got 1048577/);
  // The largest accepted call: 2^20 logits, 2^20 history ids and 2^20 biases together.
  const most = new Float32Array(2 ** 20).map((_, i) => Math.sin(i) * 8);
  const bias = {};
  for (let i = 0; i < 2 ** 20; i += 1) bias[i] = i % 3 === 0 ? "-inf" : 1;
  const r = api.step(most, { seed: 1, history: new Array(2 ** 20).fill(5), logit_bias: bias, repetition_penalty: 1.1 });
  assert.equal(r.kept_count, 2 ** 20 - Math.ceil(2 ** 20 / 3));
  assert.ok(api.wasm.memory.buffer.byteLength <= MEMORY_BOUND, `${api.wasm.memory.buffer.byteLength / MiB} MiB`);
  refuses(() => gen.encode("界".repeat(5e7)), /encode text must be a string of at most 1048576 characters, got 50000000 characters/);
  refuses(() => gen.setPrompt("a".repeat(1e8)), /prompt must be a string of at most 1048576 characters, got 100000000/);
  refuses(() => gen.setPrompt("中国".repeat(4000)), /prompt must be at most 127 tokens/);
  refuses(() => api.step(chapter, { trace_ids: length(7e7) }), /trace_ids must have at most 1048576 entries, got 70000000/);
  refuses(() => api.step(chapter, { trace_ids: new Array(1025).fill(1) }), /trace_ids must be an array of at most 1024 token ids, got 1025 ids/);
  refuses(() => api.step(chapter, { trace_ids: [2 ** 32] }), /trace_ids\[0\] must be an integer in \[0, 4294967295\], got 4294967296/);
  refuses(() => api.step(chapter, { trace_ids: "xyz" }), /trace_ids must be an array of at most \d+ token ids, got string "xyz"/);
  assert.ok(api.step(chapter, { trace_ids: [4], trace_top: 1, seed: 1 }).candidates.some((c) => c.id === 4));
  refuses(() => api.step(chapter, { eos_token_id: new Array(65).fill(1), min_new_tokens: 1, history: [] }), /eos_token_id must be an array of at most 64 token ids, got 65 ids/);
  refuses(() => api.step(chapter, { eos_token_id: 9, min_new_tokens: 1 }), /eos_token_id/);
  refuses(() => api.step(chapter, { min_new_tokens: 2 ** 32 }), /min_new_tokens must be an integer in \[0, 4294967295\], got 4294967296/);
  refuses(() => gen.setStopSequences(new Array(65).fill("x")), /stop sequences must have at most 64 entries, got 65/);
  refuses(() => gen.setStopSequences(["x".repeat(300)]), /stop sequences\[0\] must be a string of at most 256 characters, got 300/);
});

boundary("the Generator refuses everything but setPrompt before a prompt, and is never bricked", (api, gen) => {
  const noPrompt = (method) => new RegExp(`${method} needs a prompt: call setPrompt first`);
  refuses(() => gen.next({ strategy: "greedy" }), noPrompt("next"));
  refuses(() => gen.rewind(0), noPrompt("rewind"));
  refuses(() => gen.rewind(1), noPrompt("rewind"));
  refuses(() => gen.force(5), noPrompt("force"));
  refuses(() => gen.rewind(1), noPrompt("rewind"));
  refuses(() => gen.logits(), noPrompt("logits"));
  assert.deepEqual(Array.from(gen.tokens()), []);
  assert.equal(gen.text(), "");
  assert.equal(gen.promptLength, 0);
  refuses(() => gen.setPrompt(""), /prompt must contain at least one character/);
  refuses(() => gen.next({}), noPrompt("next"));
  refuses(() => gen.setPrompt(123), /prompt must be a string, got 123/);
  refuses(() => gen.setPrompt(undefined), /prompt must be a string, got undefined/);
  refuses(() => gen.setPrompt({ toString: () => "x" }), /prompt must be a string, got an object/);
  refuses(() => gen.encode(5), /encode text must be a string, got 5/);
  // After a prompt: rewinding past it is refused and changes nothing.
  gen.setPrompt(PROMPT);
  const before = Array.from(gen.tokens());
  refuses(() => gen.rewind(1), /rewind n must be in \[0, 0\] \(the generated tokens\), got 1/);
  assert.deepEqual(Array.from(gen.tokens()), before);
});

boundary("numbers crossing into Rust are range-checked, never wrapped, truncated or coerced", (api, gen) => {
  gen.setPrompt(PROMPT);
  const force = /force token must be an integer in \[0, 7999\], got /;
  refuses(() => gen.force(2 ** 32 + 5), new RegExp(`${force.source}4294967301`));
  refuses(() => gen.force("abc"), new RegExp(`${force.source}string "abc"`));
  refuses(() => gen.force(NaN), new RegExp(`${force.source}NaN`));
  refuses(() => gen.force(7999.9), new RegExp(`${force.source}7999\\.9`));
  refuses(() => gen.force(-1), new RegExp(`${force.source}-1`));
  refuses(() => gen.force(8000), new RegExp(`${force.source}8000`));
  refuses(() => gen.force(undefined), new RegExp(`${force.source}undefined`));
  refuses(() => gen.force({ valueOf: () => 5 }), new RegExp(`${force.source}an object`));
  assert.equal(gen.tokens().length, gen.promptLength, "no refused force appended a token");
  // forceMany: the whole list is read and checked before any token is appended
  const logits = gen.logits();
  refuses(() => gen.forceMany([5, 8000]), /tokens\[1\] must be an integer in \[0, 7999\], got 8000/);
  refuses(() => gen.forceMany([5, 1.5]), /tokens\[1\] must be an integer in \[0, 7999\], got 1\.5/);
  refuses(() => gen.forceMany([5, "6"]), /tokens\[1\] must be an integer .* got string "6"/);
  refuses(() => gen.forceMany(5), /tokens must be an array of at most 65536 token ids, got the number 5/);
  refuses(() => gen.forceMany(new Map()), /tokens must be a plain object|Map/);
  assert.equal(gen.tokens().length, gen.promptLength, "no refused forceMany appended a token");
  assert.deepEqual(gen.logits(), logits);
  const run = gen.forceMany(new Uint32Array([300, 301]));
  assert.deepEqual(run.tokens.map((t) => t.token), [300, 301]);
  assert.equal(run.logits.length, 2 * 8000);
  assert.deepEqual(run.logits.slice(0, 8000), logits);
  assert.equal(run.records, undefined, "no config, no records");
  gen.rewind(2);
  // with a step config: refused as `step` refuses it, nothing appended; else the core's record of
  // each position, as `step` gives it there (draw one further, the forced tokens in history)
  const config = { seed: 7, draw: 2, temperature: 0.8, top_p: 0.9, repetition_penalty: 1.3, history: Array.from(gen.tokens()), trace_top: 24 };
  refuses(() => gen.forceMany([300, 301], { ...config, top_p: 2 }), /top_p must be in \[0, 1\], got 2/);
  refuses(() => gen.forceMany([300, 301], new Map()), /config must be a plain object|Map/);
  assert.equal(gen.tokens().length, gen.promptLength, "no refused forceMany appended a token");
  assert.deepEqual(gen.logits(), logits);
  const recorded = gen.forceMany([300, 301], config);
  recorded.tokens.forEach((t, i) => {
    const at = { ...config, draw: 2 + i, history: [...config.history, 300, 301].slice(0, config.history.length + i), trace_ids: [t.token] };
    const trace = api.step(recorded.logits.slice(i * 8000, (i + 1) * 8000), at);
    assert.equal(recorded.records[i].choice, trace.token);
    assert.deepEqual(recorded.records[i].candidate, trace.candidates.find((c) => c.id === t.token));
  });
  gen.rewind(2);
  refuses(() => gen.rewind(2 ** 32), /rewind n must be an integer in \[0, 4294967295\], got 4294967296/);
  refuses(() => gen.rewind(-1), /rewind n must be an integer in \[0, 4294967295\], got -1/);
  refuses(() => gen.rewind("1"), /rewind n must be an integer .* got string "1"/);
  refuses(() => gen.setMaxNewTokens(2 ** 32), /setMaxNewTokens n must be an integer in \[1, 4294967295\], got 4294967296/);
  refuses(() => gen.setMaxNewTokens(-1), /setMaxNewTokens n must be an integer in \[1, 4294967295\], got -1/);
  refuses(() => gen.setMaxNewTokens(1.5), /got 1\.5/);
  gen.setMaxNewTokens(2 ** 32 - 1);
  refuses(() => gen.setStopSequences("xyz界"), /stop sequences must be an array of strings, got string "xyz界"/);
  refuses(() => gen.setStopSequences(["。", 5]), /stop sequences\[1\] must be a string, got 5/);
  refuses(() => gen.setStopSequences(null), /stop sequences must be an array of strings, got null/);
  gen.setStopSequences(["。"]);
  refuses(() => api.step(chapter, { history: [1], history_prompt_len: 2 ** 53 - 1 }),
    /history_prompt_len must be an integer in \[0, 1048576\], got 9007199254740991/);
  refuses(() => api.step(chapter, { history: [1], history_prompt_len: 2 }), /history_prompt_len must be in \[0, 1\] \(the history's length\), got 2/);
  refuses(() => api.logSumExp(["a"]), /logits\[0\] must be a finite number or -inf, got string "a"/);
  refuses(() => api.logSumExp([]), /logits must have at least one entry, got an empty array/);
  refuses(() => api.logSumExp([0, NaN]), /logits\[1\] must be finite or -inf, got NaN/);
  assert.ok(Math.abs(api.logSumExp([0, 0]) - Math.LN2) < 1e-6);
});

boundary("dynatemp_range that would make T infinite is refused; the largest allowed gives finite p", (api) => {
  refuses(() => api.step(chapter, { engine: "llama.cpp", dynatemp_range: 1e300 }), /dynatemp_range must be in \[0, 1e6\], got 1e\+300/);
  const r = api.step(new Float32Array([0, -100, 1]), { engine: "llama.cpp", dynatemp_range: 1e6, seed: 3 });
  assert.ok(Number.isFinite(r.temperature));
  assert.ok(r.candidates.every((c) => Number.isFinite(c.p)));
});

boundary("keys inherited through the prototype, and class getters, are honoured", (api) => {
  assert.equal(api.step(new Float32Array([0, 10]), Object.create({ strategy: "greedy" })).u, null);
  class Greedy { get strategy() { return "greedy"; } }
  assert.equal(api.step(new Float32Array([0, 10]), new Greedy()).u, null);
  class Sampled extends Greedy { constructor() { super(); this.seed = 4; } get strategy() { return "sample"; } }
  assert.equal(api.step(chapter, new Sampled()).seed, 4);
  refuses(() => api.step(chapter, Object.create({ top_pp: 1 })), /unknown key "top_pp" in config/);
  refuses(() => api.step(chapter, () => 1), /config must be an object, got a function/);
  refuses(() => api.step(chapter, 42), /config must be an object, got 42/);
  refuses(() => api.step(chapter, { seed: 2n ** 64n + 1n }), /seed must be an integer in \[0, 4294967295\], got bigint 18446744073709551617, which no number holds exactly/);
});

boundary("error messages echo keys and values bounded", (api) => {
  const key = "k".repeat(MiB);
  refuses(() => api.step(chapter, { [key]: 1 }), /unknown key "k{40}…" in config/);
  refuses(() => api.step(chapter, { logit_bias: { [key]: 1 } }), /logit_bias\["k{40}…"\] must be keyed by a token id/);
  refuses(() => api.step(chapter, { strategy: "s".repeat(1000) }), /strategy must be "sample" or "greedy", got string "s{40}/);
  refuses(() => api.step(chapter, { engine: "e".repeat(5000) }), /engine must be a string of at most 1024 characters, got 5000/);
});

boundary("150k logit_bias bans on 300k logits remove exactly those tokens", (api) => {
  const logits = new Float32Array(300_000).map((_, i) => Math.cos(i) * 6);
  const bias = {};
  for (let i = 0; i < 300_000; i += 2) bias[i] = "-inf";
  const r = api.step(logits, { logit_bias: bias, seed: 1 });
  assert.equal(r.kept_count, 150_000);
  assert.equal(r.token % 2, 1);
  assert.ok(r.candidates.filter((c) => c.kept).every((c) => c.id % 2 === 1));
});

boundary("crafted model files are refused before they allocate: shared bytes, huge KV cache, wrong types", (api) => {
  const shared = sharedLayersModel(16, 64, 64, 16384);
  assert.ok(shared.length < 8 * MiB);
  refuses(() => new api.Generator(shared, tokenizer), /data_offsets .* overlap tensor/);
  const headerOnly = safetensors({ vocab_size: 8, dim: 64, n_layers: 64, n_heads: 1, seq_len: 65536 }, [], 0);
  refuses(() => new api.Generator(headerOnly, tokenizer), /metadata `seq_len`: the KV cache .* must be at most 67108864 bytes/);
  refuses(() => new api.Generator(new Uint8Array(32 * MiB + 1), tokenizer), /model bytes must be at most 33554432 bytes, got 33554433/);
  refuses(() => new api.Generator([1, 2, 3], tokenizer), /model bytes must be a Uint8Array, got an array/);
  refuses(() => new api.Generator(weights, 123), /tokenizer JSON must be a string, got 123/);
  refuses(() => new api.Generator(weights, "{"), /./);
  assert.ok(api.wasm.memory.buffer.byteLength <= MEMORY_BOUND);
});
