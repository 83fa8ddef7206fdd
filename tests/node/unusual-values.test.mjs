// A library user's unusual but plausible values that hostile-values and the boundary suites leave
// open: integers written as BigInt (seed: 5n) are those numbers, range-checked by the
// core with the field and its range; a BigInt no number holds exactly is refused by name; a stop
// sequence (or any config string) with a lone UTF-16 surrogate is refused, where it used to become
// U+FFFD and silently stop at any replacement character, and a key holding one is quoted by its
// escape (`\uD800`), not as "�"; odd but well-formed stop sequences
// (emoji across byte tokens, a combining accent, CRLF, "</s>") stop exactly at their text. After
// every refusal the next call works and gives the same answer.
import { test } from "node:test";
import assert from "node:assert/strict";
import { step, Generator, weights, tokenizer } from "./load.mjs";
import { refusesAndRecovers as refuses } from "./refuses.mjs";

const chapter = new Float32Array([3.2, 2.1, 1.7, 0.9, 0.4]);

test("an integer written as a BigInt is that number; out of range it is named with its range", () => {
  const asNumbers = step(chapter, { seed: 5, top_k: 3, logit_bias: { 1: 2 }, history: [0, 1], repetition_penalty: 2 });
  const asBigInts = step(chapter, { seed: 5n, top_k: 3n, logit_bias: { 1: 2n }, history: [0n, 1n], repetition_penalty: 2n });
  assert.equal(asBigInts.token, asNumbers.token);
  assert.equal(asBigInts.u, asNumbers.u);
  assert.equal(asBigInts.seed, 5);
  refuses(() => step(chapter, { seed: -1n }), /^seed must be an integer in \[0, 4294967295\], got -1$/);
  refuses(() => step(chapter, { seed: 2n ** 70n }), /^seed must be an integer in \[0, 4294967295\], got 1\.1805916207174113e\+21$/);
  refuses(() => step(chapter, { top_p: 2n }), /^top_p must be in .*got 2$/);
  // no number holds 2^64 + 1: refused, never rounded to 2^64
  refuses(() => step(chapter, { seed: 2n ** 64n + 1n }), /^seed must be an integer in \[0, 4294967295\], got bigint 18446744073709551617, which no number holds exactly$/);
  // the config itself as a BigInt, and logits as BigInts, stay refused
  refuses(() => step(chapter, 10n), /^config must be an object, got bigint 10$/);
  refuses(() => step([1, 2n], {}), /^logits\[1\] must be a finite number or -inf, got bigint 2$/);
});

test("numbers written as strings are named with the field and its range", () => {
  refuses(() => step(chapter, { temperature: "0.7" }), /^temperature must be a number: 0 \(greedy\) or in \[1e-38, 1e6\], got string "0\.7"$/);
  refuses(() => step(chapter, { top_k: "40" }), /^top_k must be an integer in \[0, 4294967295\], got string "40"$/);
  refuses(() => step(chapter, { logit_bias: { 1: "5" } }), /^logit_bias\["1"\] must be a number in \[-100, 100\] or -inf, got string "5"$/);
});

test("a lone surrogate in a stop sequence or a config string is refused, not read as U+FFFD", () => {
  const g = new Generator(weights, tokenizer);
  g.setPrompt("今天");
  for (const [list, message] of [
    [["\uD800"], /^stop sequences\[0\] must be well-formed Unicode text, got a lone surrogate U\+D800 at index 0$/],
    [["ok", "a\uDC00b"], /^stop sequences\[1\] must be well-formed Unicode text, got a lone surrogate U\+DC00 at index 1$/],
  ]) {
    refuses(() => g.setStopSequences(list), message);
  }
  refuses(() => step(chapter, { strategy: "greedy\uD83D" }), /^strategy must be well-formed Unicode text, got a lone surrogate U\+D83D at index 6$/);
  // the refused list left none behind: a replacement character does not stop the text
  const ids = g.encode("今天\uFFFD好");
  for (const id of ids) assert.equal(g.force(id).stop, null);
  // a paired surrogate (an emoji) is fine
  g.setStopSequences(["😀"]);
  // the prompt too: refused by position, and the prompt before stays
  g.setPrompt("今天");
  const before = g.promptLength;
  refuses(() => g.setPrompt("今天\uD800好"), /^prompt must be well-formed Unicode text, got a lone surrogate U\+D800 at index 2$/);
  refuses(() => g.encode("\uDFFF"), /^encode text must be well-formed Unicode text, got a lone surrogate U\+DFFF at index 0$/);
  assert.equal(g.promptLength, before);
  g.setPrompt("😀");
});

test("a key with a lone surrogate is named by its escape, not as U+FFFD", () => {
  // Rust's strings cannot hold a lone surrogate: the key used to arrive as "�", naming nothing the
  // user typed. A key holding a pair (an emoji) is quoted as itself.
  for (const [config, message] of [
    [{ "\uD800x": 1 }, /^unknown key "\\uD800x" in config/],
    [{ temperature: 1, ["top_p\uDFFF"]: { a: 1 } }, /^unknown key "top_p\\uDFFF" in config/],
    [{ logit_bias: { "\uDBFF": -1 } }, /^logit_bias\["\\uDBFF"\] must be keyed by a token id \(an integer ≥ 0\), got key "\\uDBFF"$/],
    [{ logit_bias: { 3: -1, "a\uDC00": "-inf" } }, /^logit_bias\["a\\uDC00"\] must be keyed by a token id/],
    [{ "😀": 1 }, /^unknown key "😀" in config/],
  ]) {
    refuses(() => step(chapter, config), message);
  }
});

test("odd but well-formed stop sequences stop exactly where their text is complete", () => {
  const g = new Generator(weights, tokenizer);
  for (const [sequence, forced] of [
    ["😀", "😀好"], // byte tokens: stops on the last one, not on a pending byte
    ["e\u0301", "cafe\u0301!"],
    ["\r\n", "a\r\nb"],
    ["</s>", "x</s>y"],
  ]) {
    g.setPrompt("今天");
    g.setStopSequences([sequence]);
    const ids = g.encode(forced);
    const at = ids.findIndex((id) => g.force(id).stop !== null);
    assert.ok(at >= 0, `${JSON.stringify(sequence)} stopped`);
    assert.ok(g.text().endsWith(sequence), `${JSON.stringify(sequence)}: the text ends with it (${JSON.stringify(g.text())})`);
    assert.equal(g.stopped, "stop_sequence");
  }
});
