// A Generator's wasm handle (`__wbg_ptr`) cannot be forged, copied into a stranger, or freed from
// inside the Generator's own call. Before the guard knew which handles wasm-bindgen made, an
// object made by Object.create(Generator.prototype) with a numeric `__wbg_ptr` was called into
// Rust as if it were one: a small number read and wrote arbitrary memory (tokens() gave [],
// setMaxNewTokens wrote into whatever lay there), a large one trapped (RuntimeError), and one
// copied from a live Generator, then freed, left that Generator reading freed memory ("is already
// running") and the next `new Generator` hung. A free() from inside the Generator's own argument
// getter marked it freed in JavaScript while wasm kept (and leaked) its memory.
import { test } from "node:test";
import assert from "node:assert/strict";
import { freshInstance, weights, tokenizer } from "./load.mjs";

const api = await freshInstance();
const { Generator } = api;
const PROMPT = "中国的首都是";

/** What a fresh Generator does: its prompt tokens, then three greedy tokens and their text. */
function run(gen) {
  gen.setPrompt(PROMPT);
  const tokens = [0, 1, 2].map(() => gen.next({ strategy: "greedy" }).token);
  return { prompt: [...gen.tokens()].slice(0, gen.promptLength), tokens, text: gen.text() };
}

const fresh = (() => {
  const gen = new Generator(weights, tokenizer);
  try {
    return run(gen);
  } finally {
    gen.free();
  }
})();

/** The call throws an Error (not a trap) whose message matches. */
function refused(call, message) {
  assert.throws(call, (e) => {
    assert.ok(e instanceof Error && !(e instanceof WebAssembly.RuntimeError), `not an Error: ${e}`);
    assert.match(e.message, message);
    return true;
  });
}

test("an object with a forged numeric handle is refused by every method, and nothing is read or written", () => {
  const gen = new Generator(weights, tokenizer);
  gen.setPrompt(PROMPT);
  const before = [...gen.tokens()];
  const memory = api.wasm.memory.buffer.byteLength;
  for (const ptr of [8, 1024, gen.__wbg_ptr + 4, gen.__wbg_ptr - 8, memory - 4, memory + 8, 2 ** 31, 2 ** 32 - 4]) {
    const fake = Object.create(Generator.prototype);
    fake.__wbg_ptr = ptr;
    const said = new RegExp(`^Generator\\.(\\w+): called on an object, which is not a Generator; its wasm handle ${ptr} is no live Generator's`);
    refused(() => fake.tokens(), said);
    refused(() => fake.text(), said);
    refused(() => fake.setMaxNewTokens(3), said);
    refused(() => fake.setPrompt("x"), said);
    refused(() => fake.next({ strategy: "greedy" }), said);
    refused(() => fake.spawn(), said);
    refused(() => fake.promptLength, said);
    refused(() => fake.free(), said);
  }
  assert.deepEqual([...gen.tokens()], before, "the live Generator is untouched");
  gen.free();
  // the next Generator behaves as a fresh one
  const next = new Generator(weights, tokenizer);
  assert.deepEqual(run(next), fresh);
  next.free();
});

test("a handle copied from a live Generator acts on that Generator (as a transparent Proxy does); freeing through it frees it once", () => {
  const gen = new Generator(weights, tokenizer);
  gen.setPrompt(PROMPT);
  const alias = Object.create(Generator.prototype);
  alias.__wbg_ptr = gen.__wbg_ptr;
  assert.deepEqual([...alias.tokens()], [...gen.tokens()]);
  alias.free();
  // the Generator knows it was freed, and no second free reaches wasm (freed twice it would
  // corrupt the allocator: the next `new Generator` hung)
  refused(() => gen.tokens(), /^Generator\.tokens: this Generator was freed/);
  gen.free();
  // the stranger still holds a handle, now no live Generator's: refused, and nothing freed twice
  refused(() => alias.free(), /^Generator\.free: called on an object, which is not a Generator; its wasm handle \d+ is no live Generator's/);
  const a = new Generator(weights, tokenizer);
  const b = new Generator(weights, tokenizer);
  assert.deepEqual(run(a), fresh);
  assert.deepEqual(run(b), fresh);
  // a stale handle (of a freed Generator) copied into a stranger is refused, even once reused
  const stale = Object.create(Generator.prototype);
  stale.__wbg_ptr = 12345678;
  refused(() => stale.text(), /is no live Generator's/);
  a.free();
  b.free();
});

test("a Proxy or getter that hands the guard one handle and the call another is refused or read once", () => {
  const gen = new Generator(weights, tokenizer);
  gen.setPrompt(PROMPT);
  let reads = 0;
  // first read (the guard's) a live handle, then a forged one: the call goes to the live one
  const twoFaced = new Proxy(gen, { get(target, key) { if (key === "__wbg_ptr") return (reads += 1) === 1 ? target.__wbg_ptr : 8; return Reflect.get(target, key); } });
  assert.deepEqual([...twoFaced.tokens()], [...gen.tokens()]);
  assert.equal(reads, 1, "the handle is read once");
  const lying = new Proxy(gen, { get(target, key) { return key === "__wbg_ptr" ? 1024 : Reflect.get(target, key); } });
  refused(() => lying.tokens(), /its wasm handle 1024 is no live Generator's/);
  // replacing the class's own wrapper cannot make a forged handle genuine
  assert.throws(() => { Generator.__wrap = () => ({}); }, TypeError);
  gen.rewind(0);
  const spawned = gen.spawn();
  assert.deepEqual(run(spawned), fresh);
  spawned.free();
  gen.free();
});

test("free() from inside the Generator's own argument is refused; the Generator and its memory stay", () => {
  const gen = new Generator(weights, tokenizer);
  gen.setPrompt(PROMPT);
  let inner;
  const config = { strategy: "greedy", get seed() { try { gen.free(); } catch (e) { inner = e; } return 1; } };
  const token = gen.next(config).token;
  assert.ok(inner instanceof Error);
  assert.match(inner.message, /^Generator\.free: this Generator's next is running \(free\(\) was called from inside its argument\?\); call free\(\) after it returns$/);
  gen.rewind(1);
  assert.equal(gen.next({ strategy: "greedy" }).token, token, "the Generator was not freed");
  const forced = [5];
  Object.defineProperty(forced, 0, { get() { try { gen[Symbol.dispose](); } catch (e) { inner = e; } return 5; } });
  gen.forceMany(forced);
  assert.match(inner.message, /^Generator\.\[[\w.]*dispose\]: this Generator's forceMany is running/);
  gen.free();
  refused(() => gen.tokens(), /was freed/);
  const next = new Generator(weights, tokenizer);
  assert.deepEqual(run(next), fresh);
  next.free();
});

test("a frozen Generator works, and free() on it names why it cannot (it is freed when collected)", () => {
  const gen = Object.freeze(new Generator(weights, tokenizer));
  assert.deepEqual(run(gen), fresh);
  refused(() => gen.free(), /^Generator\.free: this Generator is frozen/);
  assert.deepEqual([...gen.tokens()].length > 0, true, "still usable after the refused free");
});

test("a subclass instance works as a Generator", () => {
  class Sub extends Generator {}
  const gen = new Sub(weights, tokenizer);
  assert.deepEqual(run(gen), fresh);
  gen.free();
  refused(() => gen.text(), /was freed/);
});

test("guard_generator (exported, run at start) called again does nothing and breaks nothing", () => {
  const gen = new Generator(weights, tokenizer);
  assert.equal(api.pkg.guard_generator(), undefined);
  assert.equal(api.pkg.guard_generator(), undefined);
  assert.deepEqual(run(gen), fresh);
  gen.free();
});

test("a getter that re-prompts the same Generator runs before the call touches it: the call acts on the new prompt, as a fresh Generator would", () => {
  const gen = new Generator(weights, tokenizer);
  gen.setPrompt("React 是一个用于构建");
  const token = gen.next({ strategy: "greedy", get seed() { gen.setPrompt(PROMPT); return 1; } }).token;
  assert.equal(token, fresh.tokens[0]);
  assert.deepEqual([...gen.tokens()].slice(gen.promptLength), [fresh.tokens[0]]);
  // a resizable buffer shrunk by an earlier getter is read at its new length; shared memory as its elements
  const buffer = new ArrayBuffer(16, { maxByteLength: 16 });
  const history = new Uint32Array(buffer);
  history.set([3, 1, 4, 1]);
  const config = { strategy: "greedy", repetition_penalty: 1.3, get seed() { buffer.resize(8); return 1; }, history };
  const shared = new Uint32Array(new SharedArrayBuffer(8));
  shared.set([3, 1]);
  gen.rewind(1);
  const a = gen.next(config).token;
  gen.rewind(1);
  assert.equal(gen.next({ strategy: "greedy", repetition_penalty: 1.3, seed: 1, history: shared }).token, a);
  gen.rewind(1);
  assert.equal(gen.next({ strategy: "greedy", repetition_penalty: 1.3, seed: 1, history: [3, 1] }).token, a);
  gen.free();
});

test("past 2 GiB of wasm memory a Generator's handle is negative (the glue keeps an i32) and it works: next, spawn, free", async () => {
  // A page that spawned ~2,250 Generators had its next ones refused ("its wasm handle is
  // -2144992960") and unfreeable. Growing the memory first puts new allocations past 2 GiB at once.
  const high = await freshInstance();
  const pages = high.wasm.memory.buffer.byteLength / 65536;
  high.wasm.memory.grow(32768 - pages);
  const parent = new high.Generator(weights, tokenizer);
  const kept = [parent];
  let gen = parent;
  while (gen.__wbg_ptr > 0 && kept.length < 64) {
    gen = parent.spawn();
    kept.push(gen);
  }
  assert.ok(gen.__wbg_ptr < 0, `a handle past 2 GiB (got ${gen.__wbg_ptr} after ${kept.length} Generators)`);
  assert.deepEqual(run(gen), fresh);
  const child = gen.spawn();
  assert.deepEqual(run(child), fresh);
  child.free();
  for (const each of kept) each.free();
  assert.throws(() => gen.next(), /this Generator was freed/);
  // the rest of the instance is unharmed: the step's columns are read from memory past 2 GiB
  const logits = new Float32Array(1000).map((_, i) => Math.sin(i));
  assert.equal(high.step(logits, { strategy: "greedy" }).token, api.step(logits, { strategy: "greedy" }).token);
});
