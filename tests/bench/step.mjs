// `make bench`, Node half: the built wasm `step` for every configuration of issue 10's matrix
// (tests/bench/matrix.mjs) at 1,000 / 32,000 / 151,936 tokens, as ratios to the floor — one fused
// max + Σ exp pass in the same wasm (`logSumExp`) — measured in the same run; transformers.js's
// sampler on the same logits where it has the same configuration; and a full 8,000-candidate
// trace (read through its columns, through one `candidates[i]` object, and through all 8,000
// objects) against the floor at 8,000; "Sample 10,000 times" as one sampleCounts call and as
// 10,000 steps. Rounds are interleaved, so load on the machine affects every column alike; medians.
// BENCH_QUICK=1 runs fewer, shorter rounds; BENCH_ONLY=text keeps the matrix rows whose name
// contains it (as in tests/bench/step.rs).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as pkg from "../../www/pkg/nexttoken.js";
import { peakedLogits, uncertainLogits } from "./logits.mjs";
import { matrix, uncertainRows, UNCERTAIN } from "./matrix.mjs";

const wasmBytes = readFileSync(fileURLToPath(new URL("../../www/pkg/nexttoken_bg.wasm", import.meta.url)));
const wasm = pkg.initSync({ module: wasmBytes });
const { step, logSumExp, sampleCounts } = pkg;

const tjBase = new URL("../../www/node_modules/@huggingface/transformers/src/", import.meta.url);
const { LogitsSampler } = await import(new URL("generation/logits_sampler.js", tjBase));
const { Tensor } = await import(new URL("utils/tensor.js", tjBase));
const { GenerationConfig } = await import(new URL("generation/configuration_utils.js", tjBase));

const quick = !!process.env.BENCH_QUICK;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function timeIt(fn, minMs) {
  let reps = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < minMs) { fn(reps++); t = performance.now(); }
  return ((t - t0) / reps) * 1000; // µs per call
}
async function timeAsync(fn, minMs) {
  let reps = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < minMs) { await fn(reps++); t = performance.now(); }
  return ((t - t0) / reps) * 1000;
}
const f = (x) => (x >= 1000 ? `${(x / 1000).toFixed(2)} ms` : `${x.toFixed(1)} µs`);

const SIZES = [1000, 32000, 151936];
const results = {}; // name → n → {step, tj}
const floors = {};
for (const n of SIZES) {
  const logits = peakedLogits(n);
  const uncertain = uncertainLogits(n);
  const tensor = new Tensor("float32", logits, [1, 1, n]);
  const only = process.env.BENCH_ONLY;
  const rows = [...matrix(n), ...uncertainRows()].filter((r) => !only || r.name.includes(only));
  const samplers = rows.map((r) => (r.tj ? LogitsSampler.getSampler(new GenerationConfig(r.tj)) : null));
  const cols = { floor: [] };
  for (const r of rows) cols[r.name] = [], cols[`tj ${r.name}`] = [];
  const rounds = quick ? 3 : n > 100000 ? 7 : 9;
  const ms = quick ? 15 : 40;
  for (let round = 0; round < rounds; round++) {
    cols.floor.push(timeIt(() => logSumExp(logits), ms));
    rows.forEach((r, i) => {
      const input = r.name.endsWith(UNCERTAIN) ? uncertain : logits;
      cols[r.name].push(timeIt((d) => step(input, { ...r.config, seed: 7, draw: d }), ms));
    });
    for (let i = 0; i < rows.length; i++) {
      if (samplers[i]) cols[`tj ${rows[i].name}`].push(await timeAsync(() => samplers[i](tensor), ms));
    }
  }
  floors[n] = median(cols.floor);
  for (const r of rows) {
    results[r.name] ??= {};
    results[r.name][n] = { step: median(cols[r.name]), tj: r.tj ? median(cols[`tj ${r.name}`]) : null };
  }
}

// The full trace at 8,000: every candidate listed (what the page's CSV export asks for; its replay
// of a forced token asks for `trace_ids` instead), read through the columns, through one
// `candidates[i]` object, and through every object.
const N8 = 8000;
const logits8 = peakedLogits(N8);
const full = { temperature: 0.8, top_k: 40, top_p: 0.95, min_p: 0.05, trace_top: N8 };
const c8 = { floor: [], columns: [], objects: [], all: [] };
const sumP = (list) => {
  let total = 0;
  for (const c of list) total += c.p;
  return total;
};
for (let round = 0; round < (quick ? 3 : 9); round++) {
  c8.floor.push(timeIt(() => logSumExp(logits8), quick ? 15 : 40));
  c8.columns.push(timeIt((d) => step(logits8, { ...full, seed: 7, draw: d }).columns.p[N8 - 1], quick ? 15 : 40));
  c8.objects.push(timeIt((d) => step(logits8, { ...full, seed: 7, draw: d }).candidates[N8 - 1].p, quick ? 15 : 40));
  c8.all.push(timeIt((d) => sumP(step(logits8, { ...full, seed: 7, draw: d }).candidates), quick ? 15 : 40));
}

// "Sample 10,000 times" at the page's vocabulary: one sampleCounts call against the 10,000 steps
// the page made before it (the same tokens), on a peaked (T 0.8, top-p 0.9) and a flat (T 1.5) step.
const sampleRows = [["T 0.8 top-p 0.9", { temperature: 0.8, top_p: 0.9 }], ["T 1.5", { temperature: 1.5 }]];
const sampleN = sampleRows.map(([name, config]) => {
  const cfg = { ...config, seed: 84 };
  const once = [], steps = [];
  for (let round = 0; round < (quick ? 1 : 3); round++) {
    once.push(timeIt(() => sampleCounts(logits8, cfg, 10000), quick ? 15 : 200));
    steps.push(timeIt(() => {
      for (let d = 0; d < 10000; d++) step(logits8, { ...cfg, draw: d, trace_top: 0 });
    }, quick ? 1 : 200));
  }
  return { name, once: median(once), steps: median(steps) };
});

// Memory: calls at the largest size must not grow wasm memory after the first.
const big = peakedLogits(151936);
step(big, { seed: 1 });
step(big, { seed: 1, top_k: 40 });
const before = wasm.memory.buffer.byteLength;
for (let i = 0; i < (quick ? 200 : 2000); i++) step(big, { ...(i % 2 ? { top_p: 0.9 } : { temperature: 1.5 }), seed: 1, draw: i });
const grew = wasm.memory.buffer.byteLength - before;

console.log(`\nwasm step ÷ floor (Node ${process.version}, medians of interleaved rounds${quick ? ", BENCH_QUICK" : ""})\n`);
console.log(`| config | ${SIZES.map((n) => n.toLocaleString("en")).join(" | ")} | transformers.js at 151,936 (step ÷ tj) |`);
console.log(`|---|${SIZES.map(() => "---:").join("|")}|---:|`);
console.log(`| floor (max + Σ exp) | ${SIZES.map((n) => f(floors[n])).join(" | ")} | |`);
for (const [name, byN] of Object.entries(results)) {
  const cells = SIZES.map((n) => `${(byN[n].step / floors[n]).toFixed(2)}× (${f(byN[n].step)})`);
  const big = byN[151936];
  const tj = big.tj ? `${f(big.tj)} (${(big.step / big.tj).toFixed(2)}×)` : "–";
  console.log(`| ${name} | ${cells.join(" | ")} | ${tj} |`);
}
const fl8 = median(c8.floor);
const ratio8 = (xs) => `${f(median(xs))} = ${(median(xs) / fl8).toFixed(1)}×`;
console.log(`\nfull trace at 8,000 (trace_top 8,000): floor ${f(fl8)}; columns ${ratio8(c8.columns)}; one candidates[i] object ${ratio8(c8.objects)}; all 8,000 objects read ${ratio8(c8.all)}`);
for (const r of sampleN) {
  console.log(`Sample 10,000 times at 8,000, ${r.name}: one sampleCounts ${f(r.once)}, 10,000 steps ${f(r.steps)} (${(r.steps / r.once).toFixed(0)}× faster)`);
}
console.log(`wasm memory growth over ${quick ? 200 : 2000} calls at 151,936 after warm-up: ${grew} bytes`);

// For tests/bench/summary.mjs, which puts these beside criterion's native medians.
const out = `${process.env.CARGO_TARGET_DIR ?? fileURLToPath(new URL("../../target", import.meta.url))}/bench/`;
mkdirSync(out, { recursive: true });
writeFileSync(`${out}wasm-step.json`, JSON.stringify({
  node: process.version, quick, floors, results, trace: { floor: fl8, columns: median(c8.columns) },
}));
