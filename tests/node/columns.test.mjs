// The columnar trace (issue 10): the candidates cross the boundary as one typed array per field
// (`columns`), every column as long as the listing, and `candidates[i]` (a lazy accessor over the
// columns) reads exactly what the object-per-candidate trace returned before the change — pinned
// in tests/data/trace-golden.json, recorded from that build on the inputs of trace-cases.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { step, Generator, weights, tokenizer } from "./load.mjs";
import { cases } from "./trace-cases.mjs";

const golden = JSON.parse(readFileSync(new URL("../data/trace-golden.json", import.meta.url), "utf8"), (k, v) =>
  v === "-Infinity" ? -Infinity : v === "Infinity" ? Infinity : v,
);

const COLUMNS = {
  id: Uint32Array,
  rank: Uint32Array,
  logit: Float32Array,
  logit_processed: Float32Array,
  p_raw: Float64Array,
  p_tempered: Float64Array,
  p: Float64Array,
  cum: Float64Array,
  kept: Uint8Array,
  removed_by: Int8Array,
};

/** Probabilities may move in the last bits (the normaliser's summation order changed). */
function close(got, want, what) {
  assert.ok(Math.abs(got - want) <= 1e-12 + 1e-9 * Math.abs(want), `${what}: ${got} vs ${want}`);
}

function checkColumns(trace) {
  const n = trace.candidates.length;
  for (const [name, type] of Object.entries(COLUMNS)) {
    assert.ok(trace.columns[name] instanceof type, `columns.${name} is a ${type.name}`);
    assert.equal(trace.columns[name].length, n, `columns.${name} has one entry per candidate`);
  }
  for (const stage of trace.stages) {
    assert.ok(stage.p_in instanceof Float64Array && stage.cum_in instanceof Float64Array);
    assert.equal(stage.p_in.length, stage.active ? n : 0, `${stage.name}.p_in`);
    assert.equal(stage.cum_in.length, stage.p_in.length);
  }
  // The accessor reads the columns.
  trace.candidates.forEach((c, i) => {
    assert.equal(c.id, trace.columns.id[i]);
    assert.equal(c.p, trace.columns.p[i]);
    assert.equal(c.kept, trace.columns.kept[i] === 1);
    const by = trace.columns.removed_by[i];
    assert.equal(c.removed_by, by === -1 ? null : by === -2 ? "logits" : trace.stages[by].name);
  });
  assert.equal(trace.candidates, trace.candidates, "built once, then cached");
}

/** logit_bias sees the raw logits, penalties the biased ones (the bias runs first in every
 * engine): each stage's p_in is their softmax over the whole vocabulary, 0 for a candidate an
 * earlier stage removed, and cum_in its running sum in listing order. */
function checkEarlyInputs(trace, raw, config) {
  const biased = Float64Array.from(raw);
  for (const [id, b] of Object.entries(config.logit_bias ?? {})) biased[+id] += b;
  const softmax = (ls) => {
    const max = Math.max(...ls);
    const e = Array.from(ls, (l) => Math.exp(l - max));
    const z = e.reduce((a, b) => a + b, 0);
    return e.map((x) => x / z);
  };
  const seen = { logit_bias: softmax(raw), penalties: softmax(biased) };
  trace.stages.forEach((s, i) => {
    if (!s.active || !(s.name in seen)) return;
    let total = 0;
    trace.candidates.forEach((c, j) => {
      const before = c.removed_by !== null && trace.stages.findIndex((st) => st.name === c.removed_by) < i;
      const want = before ? 0 : seen[s.name][c.id];
      assert.ok(Math.abs(s.p_in[j] - want) <= 2e-6 * want + 1e-12, `${s.name}.p_in[${j}]: ${s.p_in[j]} vs ${want}`);
      total += s.p_in[j];
      assert.ok(Math.abs(s.cum_in[j] - Math.min(total, 1)) <= 1e-12, `${s.name}.cum_in[${j}]`);
    });
  });
}

for (const { name, logits, config } of cases) {
  test(`columns and candidates[i] read as before: ${name}`, () => {
    const trace = step(logits(), config);
    const want = golden.find((g) => g.name === name).trace;
    checkColumns(trace);
    for (const key of ["token", "u", "seed", "draw", "engine", "strategy", "vocab_size", "kept_count", "unlisted_kept_count", "chosen_rank"]) {
      assert.equal(trace[key], want[key], key);
    }
    for (const key of ["raw_entropy_bits", "unlisted_mass"]) close(trace[key], want[key], key);
    // a fixed temperature is reported as written since session 30 (it was 1/float32(1/T))
    assert.ok(Math.abs(trace.temperature - want.temperature) <= 1e-7 * want.temperature, "temperature");
    assert.equal(trace.temperature, config.strategy === "greedy" ? 0 : config.temperature ?? 1, "temperature as written");
    // (the final entropy's Σ e·s is added in float32 lanes on every path since issue 10's
    // eighteenth round, where a list with holes added it in one f64 chain: ~1e-8 of it moved)
    assert.ok(Math.abs(trace.entropy_bits - want.entropy_bits) <= 1e-6 * want.entropy_bits, `entropy_bits: ${trace.entropy_bits} vs ${want.entropy_bits}`);
    assert.equal(trace.candidates.length, want.candidates.length);
    trace.candidates.forEach((c, i) => {
      const w = want.candidates[i];
      assert.deepEqual(Object.keys(c), Object.keys(w), "same fields, same order");
      for (const key of ["id", "rank", "logit", "logit_processed", "kept", "removed_by"]) assert.equal(c[key], w[key], `candidates[${i}].${key}`);
      for (const key of ["p_raw", "p_tempered", "p", "cum"]) close(c[key], w[key], `candidates[${i}].${key}`);
    });
    assert.deepEqual(Object.keys(trace.chosen), Object.keys(want.chosen));
    assert.equal(trace.chosen.id, want.chosen.id);
    trace.stages.forEach((s, i) => {
      const w = want.stages[i];
      for (const key of ["name", "active", "kept_count", "removed_count"]) assert.equal(s[key], w[key], `${s.name}.${key}`);
      assert.equal(s.p_in.length, w.p_in.length);
      // logit_bias's and penalties' inputs: the recorded build computed them from the logits
      // after every early stage (wrong); they are checked against a softmax of what each saw.
      if (s.active && (s.name === "logit_bias" || s.name === "penalties")) return;
      s.p_in.forEach((p, j) => close(p, w.p_in[j], `${s.name}.p_in[${j}]`));
      s.cum_in.forEach((p, j) => close(p, w.cum_in[j], `${s.name}.cum_in[${j}]`));
    });
    checkEarlyInputs(trace, logits(), config);
  });
}

test("a Generator's token carries the same columnar trace; a forced token's trace is null", () => {
  const gen = new Generator(weights, tokenizer);
  try {
    gen.setPrompt("TypeScript 是 JavaScript 的");
    const out = gen.next({ seed: 5, trace_top: 30 });
    checkColumns(out.trace);
    assert.equal(out.trace.token, out.token);
    assert.equal(out.trace.candidates.length, 30 + (out.trace.chosen_rank >= 30 ? 1 : 0));
    const forced = gen.force(out.token);
    assert.equal(forced.trace, null);
  } finally {
    gen.free();
  }
});

test("a full 8,000-candidate trace is columns, and every column is a copy (not a view of wasm memory)", () => {
  const logits = new Float32Array(8000).map((_, i) => Math.sin(i) * 3);
  const trace = step(logits, { seed: 2, trace_top: 8000 });
  checkColumns(trace);
  assert.equal(trace.columns.id.length, 8000);
  const again = step(logits, { seed: 2, draw: 1, trace_top: 8000 });
  assert.notEqual(trace.columns.p.buffer, again.columns.p.buffer);
  assert.deepEqual([...trace.columns.id].sort((a, b) => a - b), [...Array(8000).keys()]);
});

test("with rest_mass the columnar trace carries rest, and p_raw in the columns is over the whole vocabulary", () => {
  const logits = new Float32Array([-0.5, -1.2, -2.0, -3.1]);
  const plain = step(logits, { seed: 3, top_k: 2, trace_top: 4 });
  const trace = step(logits, { seed: 3, top_k: 2, trace_top: 4, rest_mass: 0.25 });
  assert.equal(plain.rest, undefined);
  const { raw_entropy_bits_min: low, raw_entropy_bits_max: high, ...rest } = trace.rest;
  assert.deepEqual(rest, { mass: 0.25, exact: true, removed_by: "top_k", given: 4 });
  // no id left for the rest to sit on: both bounds are the given tokens' share, 0.75·(H − log2 0.75)
  close(low, 0.75 * (plain.raw_entropy_bits - Math.log2(0.75)), "raw entropy bound");
  assert.equal(low, high);
  checkColumns(trace);
  trace.columns.p_raw.forEach((p, i) => close(p, plain.columns.p_raw[i] * 0.75, `p_raw[${i}]`));
  assert.equal(trace.candidates[0].p_raw, trace.columns.p_raw[0]);
});

// `chosen` is "the chosen token's entry; the same entry is always in `candidates` too": the very
// object, so includes/indexOf find it (they did not: chosen was a second object with equal fields).
test("chosen is the object candidates holds at its place, and candidates[i] is the same object on every read", () => {
  const gen = new Generator(weights, tokenizer);
  try {
    gen.setPrompt("中国的首都是");
    const logits = new Float32Array(8000).map((_, i) => Math.sin(i) * 3);
    const traces = [
      ...cases.map(({ logits: l, config }) => step(l(), config)),
      step(logits, { seed: 4, temperature: 5, trace_top: 0 }), // chosen listed only as the chosen one
      step(logits, { strategy: "greedy", trace_top: 3, trace_ids: [7, 9] }),
      gen.next({ seed: 5, trace_top: 2 }).trace,
    ];
    for (const r of traces) {
      const at = r.candidates.indexOf(r.chosen);
      assert.ok(r.candidates.includes(r.chosen), `chosen ${r.chosen.id} is one of the candidates`);
      assert.equal(r.candidates[at].rank, r.chosen_rank);
      assert.equal(r.candidates.filter((c) => c.id === r.chosen.id).length, 1, "listed once");
      for (let i = 0; i < r.candidates.length; i++) assert.equal(r.candidates[i], r.candidates[i]);
      // built again (set to null), the chosen entry is still `chosen`; a caller's own `chosen`
      // property does not find its way into the list
      const original = r.chosen;
      r.chosen = { ...original };
      r.candidates = null;
      assert.equal(r.candidates[at], original);
      assert.ok(!r.candidates.includes(r.chosen));
    }
  } finally {
    gen.free();
  }
});
