// The wasm API's words: a hole in an array is named as a hole at its index (it used to
// read "got null" or "got undefined"); a value JSON has no form for (a symbol, a function, a Map, a
// BigInt no number holds) is refused in the same words as a string in that key — the field named as
// Rust names it, never `config.…` —; and a range that is the engine's (vLLM's top_p in (0, 1], its
// penalties in [-2, 2]) is the one said, for a string too and wherever `engine` is written.
import { test } from "node:test";
import assert from "node:assert/strict";
import { step, logSumExp, Generator, weights, tokenizer } from "./load.mjs";
import { refusesAndRecovers as refuses } from "./refuses.mjs";

const chapter = new Float32Array([3.2, 2.1, 1.7, 0.9, 0.4]);
const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/* eslint-disable no-sparse-arrays */

/** The message `run` throws. */
function message(run) {
  try {
    run();
  } catch (e) {
    return e.message;
  }
  assert.fail("no error");
}

test("a hole in an array is named as a hole, with the field and its index", () => {
  const hole = (i) => `got a hole \\(no element at index ${i}\\)$`;
  refuses(() => step(chapter, { history: [1, , 3] }), new RegExp(`^history\\[1\\] must be an integer in \\[0, 4294967295\\], ${hole(1)}`));
  refuses(() => step(chapter, { trace_ids: [0, 1, , 3] }), new RegExp(`^trace_ids\\[2\\] must be an integer .*, ${hole(2)}`));
  refuses(() => step(chapter, { eos_token_id: [, 4] }), new RegExp(`^eos_token_id\\[0\\] must be an integer .*, ${hole(0)}`));
  refuses(() => step([3.2, , 1.7], {}), new RegExp(`^logits\\[1\\] must be a finite number or -inf, ${hole(1)}`));
  refuses(() => logSumExp([1, 2, , 4]), new RegExp(`^logits\\[2\\] must be a finite number or -inf, ${hole(2)}`));
  // an element that is there but undefined is said as such, not as null
  refuses(() => step(chapter, { history: [1, undefined] }), /^history\[1\] must be an integer in \[0, 4294967295\], got undefined$/);
  refuses(() => step(chapter, { logit_bias: { 1: undefined } }), /^logit_bias\["1"\] must be a number in \[-100, 100\] or -inf, got undefined$/);
  // a key left undefined is still "not given"
  assert.equal(step(chapter, { seed: 1, top_p: undefined }).token, step(chapter, { seed: 1 }).token);
  const g = new Generator(weights, tokenizer);
  refuses(() => g.setStopSequences(["。", , "\n"]), new RegExp(`^stop sequences\\[1\\] must be a string, ${hole(1)}`));
  g.setPrompt("今天");
  const max = g.vocab().length - 1;
  const before = g.tokens().length;
  refuses(() => g.forceMany([5, , 7]), new RegExp(`^tokens\\[1\\] must be an integer in \\[0, ${max}\\], ${hole(1)}`));
  assert.equal(g.tokens().length, before, "nothing forced");
  g.free();
});

// Every key, with what a string in it is told: the rule a symbol, a function, a Map or an
// undefined list item must be told in the same words.
const KEYS = [
  "strategy", "engine", "temperature", "top_k", "top_p", "min_p", "typical_p", "epsilon_cutoff", "eta_cutoff",
  "repetition_penalty", "frequency_penalty", "presence_penalty", "history", "history_prompt_len",
  "penalty_last_n", "logit_bias", "min_keep", "min_new_tokens", "eos_token_id", "dynatemp_range",
  "dynatemp_exponent", "seed", "draw", "trace_top", "trace_ids", "rest_mass",
];

test("a symbol, a function or a Map in any key is told what a string there is told: one wording, no `config.`", () => {
  for (const key of KEYS) {
    const rule = message(() => step(chapter, { [key]: "x" })).replace(/, got string "x"$/, "");
    assert.match(rule, new RegExp(`^${esc(key)} must be `), key);
    for (const [value, got] of [[Symbol("x"), "a symbol"], [() => 1, "a function"], [new Map(), "a Map (its entries are not properties)"]]) {
      refuses(() => step(chapter, { [key]: value }), new RegExp(`^${esc(rule)}, got ${esc(got)}$`));
    }
  }
  // inside a list and a map too, and a BigInt no number holds exactly
  refuses(() => step(chapter, { history: [0, Symbol("x")] }), /^history\[1\] must be an integer in \[0, 4294967295\], got a symbol$/);
  refuses(() => step(chapter, { logit_bias: { 2: () => 1 } }), /^logit_bias\["2"\] must be a number in \[-100, 100\] or -inf, got a function$/);
  refuses(() => step(chapter, { seed: 2n ** 64n + 1n }), /^seed must be an integer in \[0, 4294967295\], got bigint 18446744073709551617, which no number holds exactly$/);
  // an unknown key is named as unknown whatever its value
  refuses(() => step(chapter, { top_pp: Symbol("x") }), /^unknown key "top_pp" in config; did you mean "top_p"\?$/);
  // no refusal of a config value starts with "config."
  for (const config of [{ temperature: Symbol() }, { history: [1, , 2] }, { engine: "e".repeat(2000) }, { strategy: "greedy\uD800" }, { logit_bias: { 1: 2n ** 70n * 3n + 1n } }]) {
    assert.doesNotMatch(message(() => step(chapter, config)), /^config\./);
  }
});

test("vLLM's ranges are said for vLLM: top_p in (0, 1], penalties in [-2, 2], temperature from 0", () => {
  const vllmTopP = /^top_p must be a number in \(0, 1\] for engine "vllm", got string "0\.9"$/;
  refuses(() => step(chapter, { engine: "vllm", top_p: "0.9" }), vllmTopP);
  refuses(() => step(chapter, { top_p: "0.9", engine: "vllm" }), vllmTopP); // engine written after
  refuses(() => step(chapter, { top_p: Symbol(), engine: "vllm" }), /^top_p must be a number in \(0, 1\] for engine "vllm", got a symbol$/);
  refuses(() => step(chapter, { engine: "vllm", top_p: 0 }), /^top_p must be in \(0, 1\] for engine "vllm", got 0$/);
  refuses(() => step(chapter, { top_p: "0.9" }), /^top_p must be a number in \[0, 1\], got string "0\.9"$/);
  assert.equal(step(chapter, { top_p: 0, seed: 1 }).token, 0, "HF keeps the top token at top_p 0");
  for (const key of ["presence_penalty", "frequency_penalty"]) {
    refuses(() => step(chapter, { engine: "vllm", [key]: 2.5, history: [0] }), new RegExp(`^${key} must be in \\[-2, 2\\] for engine "vllm", got 2\\.5$`));
    refuses(() => step(chapter, { engine: "vllm", [key]: "1" }), new RegExp(`^${key} must be a number in \\[-2, 2\\] for engine "vllm", got string "1"$`));
    assert.equal(step(chapter, { engine: "vllm", [key]: -2, history: [0], seed: 1 }).stages.length > 0, true);
    assert.equal(step(chapter, { engine: "llama.cpp", [key]: 2.5, history: [0], seed: 1 }).stages.length > 0, true);
  }
  // vLLM takes any temperature in [0, 2] (below 1e-5 is greedy); HF's smallest is 1e-38
  assert.equal(step(chapter, { engine: "vllm", temperature: 1e-39, seed: 1 }).token, 0);
  refuses(() => step(chapter, { engine: "vllm", temperature: -1 }), /^temperature must be in \[0, 2\] for engine "vllm" \(below 1e-5: greedy\), got -1$/);
  refuses(() => step(chapter, { temperature: 1e-39 }), /^temperature must be 0 \(greedy\) or in \[1e-38, 1e6\], got 1e-39$/);
});

test("bidi and zero-width characters a caller wrote are escaped where a message echoes them, and the unknown-key suggestion sees through them", () => {
  // They were printed raw: `unknown key "top‮k"` reversed the rest of the line, and
  // `unknown key "top_k​"` named a key that looked like the one the config has, with no suggestion.
  const RAW = /[\u00AD\u061C\u200B-\u200F\u2028-\u202E\u2060-\u206F\uFE00-\uFE0F\uFEFF]|[\u{E0000}-\u{E0FFF}]/u;
  const said = (run, exact) => {
    const m = message(run);
    assert.ok(!RAW.test(m), `no invisible character raw: ${JSON.stringify(m)}`);
    assert.equal(m, exact);
    refuses(run, new RegExp(`^${esc(exact)}$`)); // an Error, and the next call works
  };
  said(() => step(chapter, { "top\u202Ek": 1 }), 'unknown key "top\\u202Ek" in config; did you mean "top_k"?');
  said(() => step(chapter, { "top_k\u200B": 3 }), 'unknown key "top_k\\u200B" in config; did you mean "top_k"?');
  said(() => step(chapter, { "\u2066temperature\u2069": 1 }), 'unknown key "\\u2066temperature\\u2069" in config; did you mean "temperature"?');
  said(() => step(chapter, { "seed\u{E0041}": 1 }), 'unknown key "seed\\u{E0041}" in config; did you mean "seed"?');
  said(() => step(chapter, { "max_tokens\u200D": 5 }), 'unknown key "max_tokens\\u200D" in config (a step chooses one token; a Generator\'s limit is setMaxNewTokens)');
  said(() => step(chapter, { logit_bias: { "1\u202E": 2 } }), 'logit_bias["1\\u202E"] must be keyed by a token id (an integer ≥ 0), got key "1\\u202E"');
  // a string value: {:?} escaped the first two, not a variation selector after the first character
  said(() => step(chapter, { strategy: "gre\u202Edy" }), 'strategy must be "sample" or "greedy", got string "gre\\u{202e}dy"');
  said(() => step(chapter, { engine: "hf\uFE0F" }), 'engine must be "hf", "llama.cpp" or "vllm", got string "hf\\u{fe0f}"');
  // the boundary's own messages: a throwing getter on an unknown key, a nested entry, what was thrown
  said(() => step(chapter, { get ["top\u202Ek"]() { throw new Error("no\u202Epe"); } }), 'unknown key "top\\u202Ek" in config; reading it threw Error: no\\u202Epe');
  said(() => step(chapter, { logit_bias: { get ["1\u200B"]() { throw new Error("x"); } } }), 'logit_bias["1\\u200B"] could not be read: reading it threw Error: x');
  // a Generator's config the same way
  const gen = new Generator(weights, tokenizer);
  gen.setPrompt("中国的首都是");
  said(() => gen.next({ "top\u202Ek": 1 }), 'unknown key "top\\u202Ek" in config; did you mean "top_k"?');
  gen.free();
});
