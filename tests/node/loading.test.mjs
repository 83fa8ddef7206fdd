// Loading the model through the wasm boundary: corrupt safetensors bytes and tokenizer.json text
// are refused by `new Generator` with an Error naming what is wrong, and the next Generator
// (made in the same instance) generates exactly what a fresh one does. A prompt of lone
// surrogates, or one too long, is refused and the Generator keeps its state. (Native tests pin
// the parsers: tests/model_loading.rs, tests/tokenizer.rs; this pins what the page's caller sees.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { freshInstance, weights, tokenizer } from "./load.mjs";

const { Generator } = await freshInstance();
const PROMPT = "中国的首都是";

function run(gen) {
  gen.setPrompt(PROMPT);
  const tokens = [0, 1, 2].map(() => gen.next({ strategy: "greedy" }).token);
  return { tokens, text: gen.text() };
}
const fresh = (() => {
  const gen = new Generator(weights, tokenizer);
  const out = run(gen);
  gen.free();
  return out;
})();

function refusedThenFresh(w, t, message) {
  assert.throws(() => new Generator(w, t), (e) => {
    assert.ok(e instanceof Error && !(e instanceof WebAssembly.RuntimeError), `not an Error: ${e}`);
    assert.match(e.message, message);
    return true;
  });
  const gen = new Generator(weights, tokenizer);
  assert.deepEqual(run(gen), fresh, "the next Generator is a fresh one");
  gen.free();
}

const headerLength = Number(new DataView(weights.buffer, weights.byteOffset).getBigUint64(0, true));
const header = new TextDecoder().decode(weights.subarray(8, 8 + headerLength));
/** The model file with `header` in place of its own (the data section unchanged). */
function withHeader(text) {
  const bytes = new TextEncoder().encode(text);
  const out = new Uint8Array(8 + bytes.length + weights.length - 8 - headerLength);
  new DataView(out.buffer).setBigUint64(0, BigInt(bytes.length), true);
  out.set(bytes, 8);
  out.set(weights.subarray(8 + headerLength), 8 + bytes.length);
  return out;
}

test("corrupt safetensors bytes: each refusal names the problem; the next Generator is fresh", () => {
  refusedThenFresh(weights.subarray(0, 4), tokenizer, /^model file truncated: needs 8 bytes, got 4$/);
  refusedThenFresh(weights.subarray(0, weights.length >> 1), tokenizer, /^tensor `[\w.]+`: data_offsets \[\d+, \d+\] must satisfy start ≤ end ≤ \d+ \(the data size\)$/);
  const hugeHeader = new Uint8Array(weights);
  new DataView(hugeHeader.buffer).setBigUint64(0, 2n ** 63n, true);
  refusedThenFresh(hugeHeader, tokenizer, /^model file truncated: needs 9223372036854775816 bytes, got \d+$/);
  refusedThenFresh(withHeader("x".repeat(headerLength)), tokenizer, /^safetensors header: /);
  // a header that lies about where a tensor ends (past the data) names that tensor and its offsets
  const [offsets, start, end] = header.match(/"data_offsets":\[(\d+),(\d+)\]/);
  const beyond = Number(end) + 1e9;
  const name = header.slice(0, header.indexOf(offsets)).match(/"([\w.]+)":\{[^{]*$/)[1];
  refusedThenFresh(withHeader(header.replace(offsets, `"data_offsets":[${start},${beyond}]`)), tokenizer,
    new RegExp(`^tensor \`${name.replace(/\./g, "\\.")}\`: data_offsets \\[${start}, ${beyond}\\] must satisfy start ≤ end ≤ \\d+ \\(the data size\\)$`));
  refusedThenFresh(withHeader(header.replace(offsets, `"data_offsets":[0,${Number(end) - Number(start)}]`)), tokenizer, /overlap tensor .*; tensors must not share bytes$/);
  const [shape, rows, cols] = header.match(/"shape":\[(\d+),(\d+)\]/);
  refusedThenFresh(withHeader(header.replace(shape, `"shape":[${Number(rows) + 1},${cols}]`)), tokenizer, /bytes do not match shape \[\d+, \d+\] of I8$/);
  refusedThenFresh(withHeader(header.replace('"I8"', '"F16"')), tokenizer, /bytes do not match shape \[\d+, \d+\] of F16$/);
  // not a Uint8Array, or one whose buffer is detached or was shrunk
  refusedThenFresh(weights.buffer, tokenizer, /^model bytes must be a Uint8Array, got an ArrayBuffer$/);
  const detached = new Uint8Array(weights);
  structuredClone(detached.buffer, { transfer: [detached.buffer] });
  refusedThenFresh(detached, tokenizer, /^model bytes must be a live Uint8Array, got a Uint8Array whose ArrayBuffer was detached/);
  const resizable = new ArrayBuffer(weights.length, { maxByteLength: weights.length });
  const view = new Uint8Array(resizable);
  view.set(weights);
  resizable.resize(100);
  refusedThenFresh(view, tokenizer, /^model file truncated: needs \d+ bytes, got 100$/);
  // shared memory holding the right bytes is read as them
  const shared = new Uint8Array(new SharedArrayBuffer(weights.length));
  shared.set(weights);
  const gen = new Generator(shared, tokenizer);
  assert.deepEqual(run(gen), fresh);
  gen.free();
});

test("corrupt tokenizer.json: not JSON, unknown merges, 0 or too many entries, duplicate ids, lone surrogates, 100 MB", () => {
  const parsed = JSON.parse(tokenizer);
  const edited = (edit) => {
    const copy = structuredClone(parsed);
    edit(copy);
    return JSON.stringify(copy);
  };
  refusedThenFresh(weights, "{not json", /^tokenizer\.json is not valid JSON: /);
  refusedThenFresh(weights, edited((t) => t.model.merges.push(["zzq", "qqz"])), /^tokenizer\.json field `model\.merges`: entry \d+ uses "zzq", which is not in the vocabulary$/);
  refusedThenFresh(weights, edited((t) => { t.model.vocab = {}; t.model.merges = []; }), /^model vocabulary \(8000\) and tokenizer vocabulary \(0\) differ$/);
  refusedThenFresh(weights, edited((t) => { const keys = Object.keys(t.model.vocab); t.model.vocab[keys[500]] = t.model.vocab[keys[501]]; }), /^tokenizer\.json field `model\.vocab`: id \d+ is used twice$/);
  // 10^6 entries do not fit the 8,388,608 characters a tokenizer.json may have
  const million = `{"model":{"type":"BPE","vocab":{${Array.from({ length: 1e6 }, (_, i) => `"${i}":${i}`).join(",")}},"merges":[]}}`;
  refusedThenFresh(weights, million, /^tokenizer JSON must be a string of at most 8388608 characters, got \d+ characters$/);
  refusedThenFresh(weights, tokenizer.replace('"超"', '"\uD800"'), /^tokenizer JSON must be well-formed Unicode text, got a lone surrogate U\+D800 at index \d+$/);
  refusedThenFresh(weights, "x".repeat(1e8), /^tokenizer JSON must be a string of at most 8388608 characters, got 100000000 characters$/);
  refusedThenFresh(weights, new String(tokenizer), /^tokenizer JSON must be a string, got a String object/);
});

test("a prompt of lone surrogates, a 100 MB prompt, or an empty one is refused; the Generator keeps its tokens and goes on", () => {
  const gen = new Generator(weights, tokenizer);
  gen.setPrompt(PROMPT);
  const first = gen.next({ strategy: "greedy" }).token;
  const tokens = [...gen.tokens()];
  for (const [prompt, message] of [
    ["\uD800\uDC00\uD800", /^prompt must be well-formed Unicode text, got a lone surrogate U\+D800 at index 2$/],
    ["\uDC00".repeat(5), /^prompt must be well-formed Unicode text, got a lone surrogate U\+DC00 at index 0$/],
    ["x".repeat(1e8), /^prompt must be a string of at most 1048576 characters, got 100000000 characters$/],
    ["", /^prompt must contain at least one character$/],
  ]) {
    assert.throws(() => gen.setPrompt(prompt), { message });
    assert.deepEqual([...gen.tokens()], tokens, "the refused prompt changed nothing");
  }
  assert.throws(() => gen.encode("a\uDBFFb"), { message: /^encode text must be well-formed Unicode text, got a lone surrogate U\+DBFF at index 1$/ });
  gen.rewind(1);
  assert.equal(gen.next({ strategy: "greedy" }).token, first);
  // NUL is a character like any other: encoded, and a prompt holding it generates
  assert.equal(gen.encode("a\u0000b").length, 3);
  gen.setPrompt("a\u0000b");
  assert.equal(typeof gen.next({ strategy: "greedy" }).token, "number");
  assert.deepEqual(run(gen), fresh, "a new prompt after all that gives a fresh Generator's tokens");
  gen.free();
});

test("numbers past 2^32 in either file are refused as written, never wrapped to wasm's 32-bit sizes", () => {
  // a shape of 2^32 + 128 rows was read as 128 (the model loaded from a header that lies); a
  // dimension of 2^32 + 1 was quoted as 1
  const [shape, rows, cols] = header.match(/"shape":\[(\d+),(\d+)\]/);
  const wrapsTo = (n) => 2 ** 32 + Number(n);
  refusedThenFresh(withHeader(header.replace(shape, `"shape":[${wrapsTo(rows)},${cols}]`)), tokenizer,
    new RegExp(`: shape dimension ${wrapsTo(rows)} must be at most 4294967295$`));
  refusedThenFresh(withHeader(header.replace(shape, `"shape":[${rows},${cols},${wrapsTo(1)}]`)), tokenizer, /: shape dimension 4294967297 must be at most 4294967295$/);
  // an offset no u64 of the parser holds is shown as written (it was "?")
  const [offsets, start] = header.match(/"data_offsets":\[(\d+),(\d+)\]/);
  refusedThenFresh(withHeader(header.replace(offsets, `"data_offsets":[${start},9007199254740992]`)), tokenizer,
    new RegExp(`: data_offsets \\[${start}, 9007199254740992\\] must satisfy start ≤ end ≤ \\d+ \\(the data size\\)$`));
  // a token id of 2^40 was read as id 0 ("id 0 is used twice")
  const parsed = JSON.parse(tokenizer);
  parsed.model.vocab.zzz = 2 ** 40;
  refusedThenFresh(weights, JSON.stringify(parsed), /^tokenizer\.json field `model\.vocab`: id of "zzz" must be an integer in 0\.\.8001$/);
});

test("a safetensors header past 1 MiB is refused before it is parsed: the instance's memory does not grow by its JSON tree", async () => {
  // 32 MB of `[0,0,…]` (a file within the 32 MiB limit): main parsed it first, growing this
  // instance's memory to 545 MB, never returned, before refusing it as "must be a JSON object"
  const { Generator: Fresh, wasm } = await freshInstance();
  const loaded = new Fresh(weights, tokenizer);
  loaded.free();
  const before = wasm.memory.buffer.byteLength;
  const text = `[${"0,".repeat((1 << 24) - 64)}0]`;
  const bytes = new Uint8Array(8 + text.length);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(text.length), true);
  new TextEncoder().encodeInto(text, bytes.subarray(8));
  assert.throws(() => new Fresh(bytes, tokenizer),
    { message: `safetensors header: its length (${text.length} bytes, the first 8 bytes of the file) must be at most 1048576` });
  const grown = wasm.memory.buffer.byteLength - before;
  assert.ok(grown <= 2 * bytes.length, `memory grew by ${grown >> 20} MB for a ${bytes.length >> 20} MB file`);
  const gen = new Fresh(weights, tokenizer);
  assert.deepEqual(run(gen), fresh, "the next Generator is a fresh one");
  gen.free();
});
