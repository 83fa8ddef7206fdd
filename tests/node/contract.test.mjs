// The JavaScript contract of `step`: errors that name their field, no poisoned instance,
// determinism under (seed, draw), inverse-CDF sampling, and no memory growth in a loop.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Generator, step, tokenizer, wasm, weights } from "./load.mjs";
import { importTs } from "./ts.mjs";

// The chapter's table after 「TypeScript 是 JavaScript 的」: 超集 / 一个 / 类型 / 语言 / 扩展.
const chapter = new Float32Array([3.2, 2.1, 1.7, 0.9, 0.4]);

test("greedy picks the largest logit and draws no u", () => {
  const r = step(chapter, { strategy: "greedy" });
  assert.equal(r.token, 0);
  assert.equal(r.u, null);
  assert.equal(step(chapter, { temperature: 0 }).token, 0);
});

test("every error names its field and the allowed range, and the next call works", () => {
  const cases = [
    [chapter, { top_pp: 0.9 }, /^unknown key "top_pp" in config; did you mean "top_p"\?$/],
    [chapter, { topK: 40 }, /^unknown key "topK" in config; did you mean "top_k"\?$/],
    [chapter, { repeat_penalty: 1.1 }, /^unknown key "repeat_penalty" in config; did you mean "repetition_penalty"\?$/],
    [chapter, { max_tokens: 5 }, /^unknown key "max_tokens" in config \(a step chooses one token; a Generator's limit is setMaxNewTokens\)$/],
    [chapter, { top_p: 1.5 }, /top_p must be in \[0, 1\], got 1\.5/],
    [chapter, { top_k: 2.5 }, /top_k must be an integer in \[0, 4294967295\], got 2\.5/],
    [chapter, { temperature: "hot" }, /temperature must be a number: 0 \(greedy\) or in \[1e-38, 1e6\], got string "hot"/],
    [chapter, { temperature: -1 }, /temperature must be 0 \(greedy\) or in \[1e-38, 1e6\], got -1/],
    [chapter, { history: [7] }, /history\[0\] must be a token id < vocabulary size 5, got 7/],
    [chapter, { engine: "gpt" }, /engine must be "hf", "llama.cpp" or "vllm"/],
    [chapter, { engine: "vllm", typical_p: 0.5 }, /typical_p has no stage in engine "vllm"; leave it at 1/],
    [chapter, { engine: "hf", frequency_penalty: 0.5 }, /frequency_penalty has no stage in engine "hf"/],
    [chapter, { seed: -1 }, /seed must be an integer in \[0, 4294967295\], got -1/],
    [chapter, 42, /config must be an object, got 42/],
    [new Float32Array([1, NaN]), {}, /logits\[1\] must be finite or -inf, got NaN/],
    [new Float32Array([1, Infinity]), {}, /logits\[1\] must be finite or -inf, got Infinity/],
    [new Float32Array([-Infinity, -Infinity]), { strategy: "greedy" }, /at least one finite value/],
    [new Float32Array([]), {}, /logits must have at least one entry/],
    ["not logits", {}, /logits must be a Float32Array, a Float64Array or an array of numbers, got string/],
    [[1, "x"], {}, /logits\[1\] must be a finite number or -inf/],
    [chapter, { trace_ids: [1, 5] }, /trace_ids\[1\] must be a token id < vocabulary size 5, got 5/],
    [chapter, { trace_ids: new Array(1025).fill(0) }, /trace_ids must be an array of at most 1024 token ids, got 1025 ids/],
    [chapter, { trace_ids: 3 }, /trace_ids must be an array of at most \d+ token ids, got the number 3/],
  ];
  for (const [logits, config, message] of cases) {
    assert.throws(() => step(logits, config), (e) => e instanceof Error && message.test(e.message),
      `expected ${message} for ${JSON.stringify(config)}`);
    assert.equal(step(chapter, { seed: 1 }).vocab_size, 5, "a valid call after an error works");
  }
});

test("float32 overflow after temperature is computed stably", () => {
  const r = step(new Float32Array([3e38, -3e38, 2.9e38]), { temperature: 0.1, seed: 3 });
  const sum = r.candidates.reduce((s, c) => s + c.p, 0);
  assert.ok(Math.abs(sum - 1) < 1e-9);
  assert.equal(r.token, 0);
});

test("same (seed, draw) gives the same trace; draws differ", () => {
  const config = { temperature: 1.2, top_k: 4, seed: 7, draw: 3 };
  assert.deepEqual(step(chapter, config), step(chapter, config));
  const us = new Set(Array.from({ length: 20 }, (_, draw) => step(chapter, { seed: 7, draw }).u));
  assert.equal(us.size, 20);
});

test("without a seed one is taken and returned, and it reproduces the draw", () => {
  const r = step(chapter, { temperature: 1.5 });
  assert.ok(Number.isInteger(r.seed) && r.seed >= 0 && r.seed < 2 ** 32);
  assert.equal(step(chapter, { temperature: 1.5, seed: r.seed }).token, r.token);
});

test("the chosen token is the first candidate whose cum exceeds u", () => {
  for (let draw = 0; draw < 200; draw++) {
    const r = step(chapter, { temperature: 1.3, top_p: 0.95, seed: 11, draw });
    const first = r.candidates.find((c) => c.cum > r.u);
    assert.equal(first.id, r.token);
    assert.equal(r.chosen.id, r.token);
  }
});

test("the chosen token and trace_ids are always listed, with their rank and true cum", () => {
  const flat = new Float32Array(100).fill(0.25);
  for (let draw = 0; draw < 50; draw++) {
    const r = step(flat, { seed: 42, draw, trace_top: 3, trace_ids: [99] });
    const rank = Math.floor(r.u * 100);
    assert.equal(r.chosen.rank, rank);
    assert.ok(r.candidates.some((c) => c.id === r.token && c.rank === rank));
    assert.ok(r.candidates.some((c) => c.id === 99 && c.rank === 99));
    assert.ok(r.candidates.every((c, i) => i === 0 || r.candidates[i - 1].rank < c.rank), "rank order");
    assert.ok(Math.abs(r.chosen.cum - (rank + 1) / 100) < 1e-6);
    const listedKept = r.candidates.filter((c) => c.kept);
    assert.equal(r.unlisted_kept_count, 100 - listedKept.length);
    assert.ok(Math.abs(r.unlisted_mass + listedKept.reduce((s, c) => s + c.p, 0) - 1) < 1e-9);
  }
});

test("stages are listed in each engine's order", () => {
  const config = { temperature: 0.8, top_k: 3, top_p: 0.9, min_p: 0.05, seed: 1 };
  const names = (engine) => step(chapter, { ...config, engine }).stages.filter((s) => s.active).map((s) => s.name);
  assert.deepEqual(names("hf"), ["temperature", "top_k", "top_p", "min_p"]);
  assert.deepEqual(names("llama.cpp"), ["top_k", "top_p", "min_p", "temperature"]);
  assert.deepEqual(names("vllm"), ["temperature", "min_p", "top_k", "top_p"]);
});

test("100,000 calls do not grow wasm memory", () => {
  const logits = new Float32Array(1000).map((_, i) => Math.sin(i) * 4);
  const config = { temperature: 0.8, top_k: 40, top_p: 0.95, min_p: 0.05, seed: 5 };
  for (let i = 0; i < 100; i++) step(logits, { ...config, draw: i });
  const before = wasm.memory.buffer.byteLength;
  for (let i = 0; i < 100_000; i++) step(logits, { ...config, draw: i });
  assert.equal(wasm.memory.buffer.byteLength, before);
});

test("the Generator's vocab() is tokenizer.json's vocabulary by id, every entry exact", () => {
  const gen = new Generator(weights, tokenizer);
  const vocab = gen.vocab();
  const expected = [];
  for (const [text, id] of Object.entries(JSON.parse(tokenizer).model.vocab)) expected[id] = text;
  assert.equal(vocab.length, expected.length);
  assert.deepEqual(vocab, expected);
  // entries beyond ASCII and the byte tokens are there as written (one string crosses, cut in JS)
  assert.ok(vocab.some((t) => /[\u4e00-\u9fff]/.test(t)) && vocab.includes("<0xE4>"));
  gen.free();
});

test("an unknown key's guess is worded in Chinese on the Chinese page too", async () => {
  const { coreMessage, setLang } = await importTs("core-message", `export { coreMessage, setLang } from "./i18n/index";`);
  const said = (config) => {
    try {
      step(chapter, config);
    } catch (e) {
      return e.message;
    }
    return "";
  };
  setLang("zh");
  assert.equal(coreMessage(said({ topP: 0.9 })), "配置里有未知的键「topP」；是不是想写「top_p」？");
  assert.equal(coreMessage(said({ colour: 1 })), "配置里有未知的键「colour」");
  setLang("en");
  assert.equal(coreMessage(said({ topP: 0.9 })), 'unknown key "topP" in config; did you mean "top_p"?');
});
