// Values a library user's trial found accepted without a word, each changing the answer or meaning
// something else: a Promise read as an empty config (a fresh random seed every call), a detached
// typed array read as empty (no history: another token), a misspelled key hidden in a class getter
// or set to undefined, a Generator asked for 0 tokens making one. Each is now refused by name, and
// the next valid call gives the same answer as before.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Generator, sampleCounts, step, tokenizer, weights } from "./load.mjs";
import { refusesAndRecovers as refuses } from "./refuses.mjs";

const logits = Float32Array.from({ length: 300 }, (_, i) => Math.sin(i * 0.37) * 4);
const detached = (view) => {
  structuredClone(view.buffer, { transfer: [view.buffer] });
  return view;
};

test("a Promise, an Error, a WeakRef or an iterator is no config, at the top or as logit_bias", () => {
  refuses(() => step(logits, Promise.resolve({ seed: 1 })), /^config must be an object, got a Promise \(await it first\)$/);
  refuses(() => step(logits, new (class extends Promise {})(() => {})), /got a Promise \(await it first\)$/);
  refuses(() => step(logits, { logit_bias: Promise.resolve({ 5: -100 }) }), /^logit_bias must be an object mapping token ids to biases .*, got a Promise/);
  refuses(() => step(logits, Object.assign(new Error("x"), { seed: 1 })), /^config must be an object, got an Error$/);
  refuses(() => step(logits, new TypeError("x")), /got an Error$/);
  refuses(() => step(logits, new WeakRef({})), /got a WeakRef$/);
  refuses(() => step(logits, (function* () {})()), /got an iterator/);
  refuses(() => step(logits, [1, 2].entries()), /got an iterator/);
  // a class instance whose getters are settings still is one, and its methods are not keys
  class Settings {
    get seed() {
      return 7;
    }
    describe() {
      return "seven";
    }
  }
  assert.deepEqual(step(logits, new Settings()).token, step(logits, { seed: 7 }).token);
});

test("a misspelled key is refused wherever it hides: a class getter, a non-enumerable property, undefined or null", () => {
  class Cfg {
    get seed() {
      return 7;
    }
    get topK() {
      return 1;
    }
  }
  refuses(() => step(logits, new Cfg()), /^unknown key "topK" in config; did you mean "top_k"\?$/);
  refuses(() => step(logits, Object.defineProperty({ seed: 7 }, "topK", { value: 1 })), /^unknown key "topK" in config/);
  refuses(() => step(logits, { seed: 7, temprature: undefined }), /^unknown key "temprature" in config; did you mean "temperature"\?$/);
  refuses(() => step(logits, { seed: 7, temprature: null }), /^unknown key "temprature"/);
  // a known key left undefined or null is still "not given"
  assert.equal(step(logits, { seed: 7, temperature: undefined, top_k: null }).token, step(logits, { seed: 7 }).token);
  // a key is quoted as JavaScript would write it: a NUL or a quote does not cut the message short
  refuses(() => step(logits, { 'a\0"b': 1 }), /^unknown key "a\\u0000\\"b" in config$/);
});

test("a detached typed array is named, not read as an empty list", () => {
  const history = [5, 5, 5];
  const penalised = { seed: 3, repetition_penalty: 100, history };
  const live = step(logits, penalised).token;
  refuses(() => step(logits, { ...penalised, history: detached(new Uint32Array(history)) }), /^history must be a live typed array or an array, got a Uint32Array whose ArrayBuffer was detached \(transferred, or a view of WebAssembly memory that has since grown\)$/);
  assert.equal(step(logits, { ...penalised, history: new Uint32Array(history) }).token, live);
  refuses(() => step(logits, { min_new_tokens: 2, eos_token_id: detached(new Uint32Array([1])) }), /^eos_token_id must be a live typed array or an array, got a Uint32Array whose ArrayBuffer was detached/);
  refuses(() => step(detached(new Float32Array(logits)), {}), /^logits must be a live typed array, got a Float32Array whose ArrayBuffer was detached/);
  refuses(() => step(detached(Float64Array.from(logits)), {}), /^logits must be a live typed array, got a Float64Array whose/);
  refuses(() => new Generator(detached(new Uint8Array(weights)), tokenizer), /^model bytes must be a live Uint8Array, got a Uint8Array whose ArrayBuffer was detached/);
  // an empty typed array that was never detached is still just empty, and shared memory never is
  assert.equal(step(logits, { seed: 3, repetition_penalty: 100, history: new Uint32Array(0) }).token, step(logits, { seed: 3 }).token);
  assert.equal(step(logits, { seed: 3, history: new Uint32Array(new SharedArrayBuffer(0)) }).token, step(logits, { seed: 3 }).token);
});

test("+Infinity is spelled as JavaScript spells it", () => {
  refuses(() => step(new Float32Array([1, Infinity]), {}), /^logits\[1\] must be finite or -inf, got Infinity$/);
  // (below float32's range is its -inf, a ban, on purpose: hostile-values.test.mjs)
});

test("the trace reports a temperature and a repetition penalty as they were written", () => {
  for (const temperature of [0.7, 0.3, 1.5, 1e6, 1e-38]) {
    const trace = step(logits, { seed: 1, temperature });
    assert.equal(trace.temperature, temperature);
    assert.equal(trace.stages.find((s) => s.name === "temperature").value, temperature);
  }
  assert.equal(step(logits, { seed: 1, engine: "vllm", temperature: 0.001 }).temperature, 0.01);
  const penalised = step(logits, { seed: 1, repetition_penalty: 1.3, history: [1] });
  assert.equal(penalised.stages.find((s) => s.name === "penalties").value, 1.3);
  refuses(() => step(logits, { trace_ids: 5 }), /^trace_ids must be an array of at most 1024 token ids, got the number 5$/);
});

test("a Generator: max_new_tokens at least 1, never passed; history_prompt_len checked as step checks it", () => {
  const gen = new Generator(weights, tokenizer);
  gen.setPrompt("中国的首都是");
  refuses(() => gen.setMaxNewTokens(0), /^setMaxNewTokens n must be an integer in \[1, 4294967295\], got 0$/);
  gen.setMaxNewTokens(3);
  const first = [gen.next({ seed: 1 }).token, gen.next({ seed: 1 }).token];
  // lowered below what is generated: next refuses (it made one more token and called it the limit)
  gen.setMaxNewTokens(1);
  refuses(() => gen.next({ seed: 1 }), /^next needs max_new_tokens above the tokens generated, got 1 with 2 generated; raise it \(setMaxNewTokens\) or rewind$/);
  assert.equal(gen.tokens().length - gen.promptLength, 2, "nothing was appended");
  gen.setMaxNewTokens(3);
  const third = gen.next({ seed: 1 });
  assert.equal(third.stop, "max_new_tokens");
  gen.rewind(3);
  assert.deepEqual([gen.next({ seed: 1 }).token, gen.next({ seed: 1 }).token], first, "the same tokens again");
  gen.rewind(2);
  // history_prompt_len without history counts in the Generator's own tokens, and is range-checked
  const length = gen.tokens().length;
  refuses(() => gen.next({ seed: 1, history_prompt_len: 99 }), new RegExp(`^history_prompt_len must be in \\[0, ${length}\\] \\(the tokens this Generator holds, its prompt's ${gen.promptLength} included: next's own history\\), got 99$`));
  assert.equal(gen.next({ seed: 1, history_prompt_len: gen.promptLength }).token, first[0]);
  gen.free();
});

test("the ordinary slips are told what to do: arguments swapped, a generation's key given to a step", () => {
  refuses(() => step({ seed: 1 }, logits), /^config must be an object, got a Float32Array \(the logits go before the config: step\(logits, config\), sampleCounts\(logits, config, n\)\)$/);
  refuses(() => step(logits, { max_new_tokens: 8 }), /^unknown key "max_new_tokens" in config \(a step chooses one token; a Generator's limit is setMaxNewTokens\)$/);
  refuses(() => step(logits, { max_tokens: 8 }), /setMaxNewTokens\)$/);
  refuses(() => step(logits, { stop: ["。"] }), /^unknown key "stop" in config \(.*setStopSequences\)$/);
  refuses(() => step(logits, { n: 5 }), /the number of draws is sampleCounts' third argument: sampleCounts\(logits, config, n\)\)$/);
  refuses(() => step(logits, { top_logprobs: 5 }), /trace_top sets how many\)$/);
  // the same slips under sampleCounts are told the same, in words that fit it too
  refuses(() => sampleCounts({ seed: 1 }, logits, 10), /^config must be an object, got a Float32Array \(the logits go before the config: step\(logits, config\), sampleCounts\(logits, config, n\)\)$/);
  refuses(() => sampleCounts(logits, { n: 10 }, 10), /^unknown key "n" in config \(a step draws one token; the number of draws is sampleCounts' third argument: sampleCounts\(logits, config, n\)\)$/);
  // an empty list of end ids is said as such, not "none"
  refuses(() => step(logits, { min_new_tokens: 2, eos_token_id: [] }), /^eos_token_id must be set \(a token id or an array of them\) when min_new_tokens > 0, got an empty array$/);
  refuses(() => step(logits, { min_new_tokens: 2 }), /^eos_token_id must be set \(a token id or an array of them\) when min_new_tokens > 0, got none$/);
  // a penalty that overflows float32 is named with its value (it said only "after penalties")
  const huge = new Float32Array([3e38, 1, 2]);
  refuses(() => step(huge, { repetition_penalty: 1e-30, history: [0] }), /^logits\[0\] overflows float32 after repetition_penalty 1e-30; use a penalty closer to its off value$/);
  refuses(
    () => step(huge, { repetition_penalty: 1e-30, presence_penalty: 0.1, engine: "llama.cpp", history: [0, 0] }),
    /^logits\[0\] overflows float32 after repetition_penalty 1e-30, presence_penalty 0\.1; use a penalty closer to its off value$/,
  );
  assert.equal(step(huge, { repetition_penalty: 1.5, history: [0] }).token, 0);
  // (max_new_tokens was told "did you mean min_new_tokens?")
});

test("a Generator found by a library user's trial: the context, a stop sequence, forceMany's draws, min_new_tokens", () => {
  const gen = new Generator(weights, tokenizer);
  // a rewind(0) after a context_full stop clears the stop, not the context: next, force and
  // forceMany refuse (next went to 129 tokens of a 128-token context, and rewind then failed)
  let text = "";
  while (gen.encode(text).length < 127) text += "x ";
  while (gen.encode(text).length > 127) text = text.slice(0, -1);
  gen.setPrompt(text);
  gen.setMaxNewTokens(64);
  const last = gen.logits();
  assert.equal(gen.next({ seed: 1 }).stop, "context_full");
  const full = gen.tokens().length;
  // no next token fits, so none has scores (logits() gave the last token's own, unchanged)
  refuses(() => gen.logits(), /^logits needs room for a next token, but the context is full \(128 of 128 tokens\); rewind first$/);
  gen.rewind(1);
  assert.deepEqual(gen.logits(), last);
  assert.equal(gen.next({ seed: 1 }).stop, "context_full");
  gen.rewind(0);
  refuses(() => gen.next({ seed: 1 }), /^generation has stopped \(context_full\)/);
  refuses(() => gen.force(5), /^generation has stopped \(context_full\)/);
  refuses(() => gen.forceMany([5]), /^generation has stopped \(context_full\)/);
  assert.equal(gen.tokens().length, full);
  gen.rewind(0);
  gen.rewind(1);
  assert.equal(gen.next({ seed: 1 }).stop, "context_full", "one back, the last token again");
  // a stop sequence matches only when it ends in the new text (北京 stopped again at the next ，)
  gen.setPrompt("中国的首都是");
  gen.setStopSequences(["北京"]);
  const first = gen.next({ strategy: "greedy" });
  assert.equal(first.stop, "stop_sequence");
  gen.rewind(0);
  const after = gen.next({ strategy: "greedy" });
  assert.notEqual(after.stop, "stop_sequence", `"${after.piece}" does not end 北京`);
  gen.setStopSequences([]);
  // forceMany without a draw (a seed given): each position's draw is the tokens generated so far,
  // as next makes it (it was 0 at every position)
  gen.setPrompt("中国的首都是");
  const hot = { seed: 9, temperature: 50 };
  const chosen = [];
  for (let i = 0; i < 5; i++) chosen.push(gen.next(hot).token);
  gen.rewind(5);
  assert.deepEqual(gen.forceMany(chosen, hot).records.map((r) => r.choice), chosen);
  gen.rewind(5);
  refuses(() => gen.forceMany(chosen, { seed: 1, draw: 2 ** 53 - 2 }), /^draw must be at most 9007199254740987 for 5 tokens/);
  assert.equal(gen.tokens().length, gen.promptLength, "nothing appended");
  // min_new_tokens holds back the Generator's own end token too when the caller names other end ids
  gen.setPrompt("中国的首都是北京，也是一座有三千多年历史的城市。");
  const out = gen.next({ min_new_tokens: 5, eos_token_id: 5, seed: 0 });
  assert.notEqual(out.token, gen.eosId);
  gen.free();
});

test("a penalty without a history is refused by name (it penalised nothing, without a word); [] and next's own history work", () => {
  const repeated = new Float32Array([2, 1, 0.5, 0.25]);
  for (const [key, value, engine, off] of [
    ["repetition_penalty", 1.3, "hf", 1],
    ["frequency_penalty", 0.5, "llama.cpp", 0],
    ["presence_penalty", 0.5, "vllm", 0],
  ]) {
    const said = new RegExp(`^${key} must be ${off} \\(off\\) without a history \\(it penalises the tokens in history: pass the token ids so far, \\[\\] for none yet\\), got ${value}$`);
    refuses(() => step(repeated, { [key]: value, engine, seed: 1 }), said);
    refuses(() => sampleCounts(repeated, { [key]: value, engine, seed: 1 }, 10), said);
    // with the ids so far it acts: token 0, in the history, is less likely than without the penalty
    const plain = step(repeated, { engine, seed: 1, history: [0] }).columns;
    const penalised = step(repeated, { [key]: value, engine, seed: 1, history: [0] }).columns;
    assert.ok(penalised.p[penalised.id.indexOf(0)] < plain.p[plain.id.indexOf(0)], key);
    // an empty history is a history: nothing to penalise yet, said so by the caller
    assert.equal(step(repeated, { [key]: value, engine, seed: 1, history: [] }).token, step(repeated, { engine, seed: 1 }).token);
    // at its off value no history is needed
    assert.equal(step(repeated, { [key]: off, engine, seed: 1 }).token, step(repeated, { engine, seed: 1 }).token);
  }
  // a Generator's next fills in its own tokens as the history
  const gen = new Generator(weights, tokenizer);
  gen.setPrompt("中国的首都是");
  assert.equal(typeof gen.next({ repetition_penalty: 1.3, seed: 1 }).token, "number");
  assert.equal(gen.forceMany([5], { repetition_penalty: 1.3, seed: 1 }).records.length, 1);
  gen.free();
});
