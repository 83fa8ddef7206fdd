// Every refusal names the field, what was given and the allowed range: a number written
// as a string ("0.7") stays refused — never coerced — but its message now says what the field
// accepts, for every number-valued key of `step`'s config, the items of its id lists, a bias, the
// logits, a BigInt no number holds exactly, and the Generator's arguments. After every refusal the
// next call works and gives the same answer.
import { test } from "node:test";
import assert from "node:assert/strict";
import { step, logSumExp, Generator, weights, tokenizer } from "./load.mjs";
import { refusesAndRecovers as refuses } from "./refuses.mjs";

const chapter = new Float32Array([3.2, 2.1, 1.7, 0.9, 0.4]);
const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A range as the messages write one: [a, b], (a, b], [a, b), "> 0", "≥ 0", "finite". */
const RANGE = /(\[|\()-?[\d.e+-]+, [\d.e+-]+(\]|\))|> 0|≥ -?\d|finite number/;

// Each number-valued key, the value a caller might write as a string, and the range its message names.
const KEYS = {
  temperature: ["0.7", "a number: 0 (greedy) or in [1e-38, 1e6]"],
  top_p: ["0.9", "a number in [0, 1]"],
  min_p: ["0.05", "a number in [0, 1]"],
  typical_p: ["0.95", "a number in (0, 1]"],
  epsilon_cutoff: ["0.0003", "a number in [0, 1)"],
  rest_mass: ["0.1", "a number in [0, 1)"],
  repetition_penalty: ["1.1", "a number in [1.4e-45, 3.4e38] (a positive float32)"],
  frequency_penalty: ["0.5", "a number in [-3.4e38, 3.4e38] (a finite float32)"],
  presence_penalty: ["0.5", "a number in [-3.4e38, 3.4e38] (a finite float32)"],
  dynatemp_range: ["0.5", "a number in [0, 1e6]"],
  dynatemp_exponent: ["1", "a finite number ≥ 0"],
  top_k: ["40", "an integer in [0, 4294967295]"],
  min_keep: ["1", "an integer in [0, 4294967295]"],
  trace_top: ["5", "an integer in [0, 4294967295]"],
  seed: ["42", "an integer in [0, 4294967295]"],
  draw: ["0", "an integer in [0, 9007199254740991]"],
  history_prompt_len: ["0", "an integer in [0, 1048576]"],
  penalty_last_n: ["64", "an integer in [-1, 9007199254740991]"],
  min_new_tokens: ["0", "an integer in [0, 4294967295]"],
};

test("a numeric string in any number-valued key: refused, naming the key, the string and the range", () => {
  for (const [key, [text, rule]] of Object.entries(KEYS)) {
    refuses(() => step(chapter, { [key]: text }), new RegExp(`^${esc(key)} must be ${esc(rule)}, got string "${esc(text)}"$`));
    // the range named is the one a number outside it is refused with
    assert.match(rule, RANGE, key);
  }
});

test("other wrong types in a number-valued key name the range too (boolean, array, object, function, symbol)", () => {
  for (const [value, got] of [[true, "boolean true"], [[0.7], "an array"], [{ v: 0.7 }, "an object"]]) {
    refuses(() => step(chapter, { temperature: value }), new RegExp(`^temperature must be a number: 0 \\(greedy\\) or in \\[1e-38, 1e6\\], got ${esc(got)}$`));
  }
  refuses(() => step(chapter, { top_p: () => 0.9 }), /^top_p must be a number in \[0, 1\], got a function$/);
  refuses(() => step(chapter, { seed: Symbol("42") }), /^seed must be an integer in \[0, 4294967295\], got a symbol$/);
});

test("lists and maps: each id and each bias names its range", () => {
  refuses(() => step(chapter, { history: [0, "1"] }), /^history\[1\] must be an integer in \[0, 4294967295\], got string "1"$/);
  refuses(() => step(chapter, { trace_ids: ["2"] }), /^trace_ids\[0\] must be an integer in \[0, 4294967295\], got string "2"$/);
  refuses(() => step(chapter, { trace_ids: "2" }), /^trace_ids must be an array of at most \d+ token ids, got string "2"$/);
  refuses(() => step(chapter, { eos_token_id: "4" }), /^eos_token_id must be a token id \(an integer in \[0, 4294967295\]\) or an array of at most \d+ of them, got string "4"$/);
  refuses(() => step(chapter, { eos_token_id: ["4"] }), /^eos_token_id\[0\] must be an integer in \[0, 4294967295\], got string "4"$/);
  refuses(() => step(chapter, { logit_bias: { 1: "5" } }), /^logit_bias\["1"\] must be a number in \[-100, 100\] or -inf, got string "5"$/);
  refuses(() => step(chapter, { logit_bias: "5" }), /^logit_bias must be an object mapping token ids to biases \(a number in \[-100, 100\] or -inf\), got string "5"$/);
  // "-inf" stays the one string a bias may be (a ban that travels through JSON)
  assert.notEqual(step(chapter, { seed: 1, logit_bias: { 0: "-inf" } }).token, 0);
});

test("a BigInt no number holds exactly names the key's range, in a list and a map too", () => {
  const big = 2n ** 64n + 1n;
  const got = "got bigint 18446744073709551617, which no number holds exactly";
  refuses(() => step(chapter, { top_k: big }), new RegExp(`^top_k must be an integer in \\[0, 4294967295\\], ${got}$`));
  refuses(() => step(chapter, { repetition_penalty: big }), new RegExp(`^repetition_penalty must be a number in \\[1\\.4e-45, 3\\.4e38\\] \\(a positive float32\\), ${got}$`));
  refuses(() => step(chapter, { history: [0, big] }), new RegExp(`^history\\[1\\] must be an integer in \\[0, 4294967295\\], ${got}$`));
  refuses(() => step(chapter, { logit_bias: { 1: big } }), new RegExp(`^logit_bias\\["1"\\] must be a number in \\[-100, 100\\] or -inf, ${got}$`));
  refuses(() => step(chapter, { eos_token_id: big }), new RegExp(`^eos_token_id must be a token id \\(an integer in \\[0, 4294967295\\]\\) or an array of at most \\d+ of them, ${got}$`));
});

test("logits and the Generator's arguments: a string where a number belongs names the range", () => {
  refuses(() => step(["3.2", 2.1], {}), /^logits\[0\] must be a finite number or -inf, got string "3\.2"$/);
  refuses(() => logSumExp([1, "2"]), /^logits\[1\] must be a finite number or -inf, got string "2"$/);
  const g = new Generator(weights, tokenizer);
  g.setPrompt("今天");
  const vocab = g.vocab().length;
  const max = vocab - 1;
  refuses(() => g.force("5", {}), new RegExp(`^force token must be an integer in \\[0, ${max}\\], got string "5"$`));
  refuses(() => g.forceMany(["5"]), new RegExp(`^tokens\\[0\\] must be an integer in \\[0, ${max}\\], got string "5"$`));
  refuses(() => g.forceMany([2n ** 64n + 1n]), new RegExp(`^tokens\\[0\\] must be an integer in \\[0, ${max}\\], got bigint 18446744073709551617, which no number holds exactly$`));
  refuses(() => g.rewind("1"), /^rewind n must be an integer in \[0, \d+\], got string "1"$/);
  refuses(() => g.setMaxNewTokens("3"), /^setMaxNewTokens n must be an integer in \[1, 4294967295\], got string "3"$/);
  refuses(() => g.next({ temperature: "0.5" }), /^temperature must be a number: 0 \(greedy\) or in \[1e-38, 1e6\], got string "0\.5"$/);
  // the Generator is untouched by all of it
  const before = g.tokens().length;
  g.next({ seed: 1 });
  assert.equal(g.tokens().length, before + 1);
  g.free();
});
