// Fuzzing the wasm boundary: random JavaScript values (wrong types, odd numbers, nested objects,
// typed arrays) into every export. Each call must return or throw an Error — never trap the
// instance — and a valid call must work afterwards.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { step, Generator } from "./load.mjs";

// Deterministic generator so a failure reproduces (xorshift32).
let state = 12345;
const rand = () => {
  state ^= state << 13; state >>>= 0; state ^= state >>> 17; state ^= state << 5; state >>>= 0;
  return state / 4294967296;
};
const pick = (xs) => xs[Math.floor(rand() * xs.length)];
const numbers = [0, -0, 1, -1, 0.5, 2.5, 1e-40, 1e308, -1e308, NaN, Infinity, -Infinity, 2 ** 32, 2 ** 53, -(2 ** 31)];
const keys = ["temperature", "top_k", "top_p", "min_p", "typical_p", "epsilon_cutoff", "eta_cutoff", "repetition_penalty",
  "frequency_penalty", "presence_penalty", "history", "history_prompt_len", "penalty_last_n", "logit_bias",
  "min_keep", "dynatemp_range", "dynatemp_exponent", "engine", "seed", "draw", "trace_top", "trace_ids", "min_new_tokens", "eos_token_id", "strategy", "x", "__proto__"];
function value(depth = 0) {
  switch (Math.floor(rand() * (depth > 2 ? 5 : 8))) {
    case 0: return pick(numbers);
    case 1: return rand() * 4 - 1;
    case 2: return pick(["hf", "vllm", "llama.cpp", "greedy", "sample", "", "-inf", "北京"]);
    case 3: return pick([null, undefined, true, false]);
    case 4: return Math.floor(rand() * 50);
    case 5: return Array.from({ length: Math.floor(rand() * 5) }, () => value(depth + 1));
    case 6: return Object.fromEntries(Array.from({ length: Math.floor(rand() * 4) }, () => [pick(["0", "1", "7", "-1", "a"]), value(depth + 1)]));
    default: return pick([new Float32Array(3), new Uint8Array(2), new Float64Array([1, NaN]), () => 1, Symbol.iterator]);
  }
}
function config() {
  if (rand() < 0.1) return value();
  return Object.fromEntries(Array.from({ length: Math.floor(rand() * 6) }, () => [pick(keys), value()]));
}
function logits() {
  const r = rand();
  if (r < 0.1) return value();
  const n = Math.floor(rand() * 64);
  const xs = Array.from({ length: n }, () => (rand() < 0.1 ? pick(numbers) : rand() * 20 - 10));
  return r < 0.6 ? new Float32Array(xs) : xs;
}

const good = new Float32Array([3.2, 2.1, 1.7, 0.9, 0.4]);

test("step survives 20,000 random inputs", () => {
  for (let i = 0; i < 20_000; i++) {
    try {
      const r = step(logits(), config());
      assert.ok(Number.isInteger(r.token));
    } catch (e) {
      assert.ok(e instanceof Error, `threw a non-Error: ${e}`);
      assert.ok(e.message.length > 0);
    }
  }
  assert.equal(step(good, { seed: 1, strategy: "greedy" }).token, 0);
});

test("Generator survives random calls and bad model files", () => {
  const weights = readFileSync(fileURLToPath(new URL("../../www/model/model.safetensors", import.meta.url)));
  const tokenizer = readFileSync(fileURLToPath(new URL("../../www/model/tokenizer.json", import.meta.url)), "utf8");
  // Corrupt files are refused with a message, never a trap.
  for (const [w, t] of [[weights.subarray(0, 100), tokenizer], [new Uint8Array(0), tokenizer], [weights, "{"], [weights, "[]"],
    [weights, tokenizer.slice(0, tokenizer.length / 2)], [Uint8Array.from(weights).fill(0xff, 8, 64), tokenizer]]) {
    assert.throws(() => new Generator(w, t), Error);
  }
  const gen = new Generator(weights, tokenizer);
  const actions = [
    () => gen.setPrompt(pick(["中国的首都是", "", "x".repeat(3000), "\u{1F600}\u0000\uFFFF", "React 是一个用于构建"])),
    () => gen.next(config()),
    () => gen.next({ seed: 3, draw: Math.floor(rand() * 10) }),
    () => gen.force(pick([0, 1, 5, 7999, 8000, 2 ** 31, -1, 1.5])),
    () => gen.rewind(pick([0, 1, 3, 100, -1])),
    () => gen.stop(),
    () => gen.setMaxNewTokens(pick([0, 1, 5, 64])),
    () => gen.setStopSequences(pick([[], ["。"], ["", "的"]])),
  ];
  for (let i = 0; i < 600; i++) {
    try {
      pick(actions)();
    } catch (e) {
      assert.ok(e instanceof Error, `threw a non-Error: ${e}`);
    }
  }
  gen.setPrompt("中国的首都是");
  gen.setMaxNewTokens(4);
  const out = gen.next({ strategy: "greedy" });
  assert.ok(Number.isInteger(out.token));
  gen.free();
});
