// `make bench`, Node half: the built wasm `step` side by side with (a) the floor — one fused
// max + Σ exp pass in the same wasm —, (b) transformers.js's sampler (what a JavaScript user would
// reach for today; it applies neither top-p nor a trace), and (c) a straightforward sort-based
// JavaScript sampler. Same peaked logits as the criterion benchmark. Rounds are interleaved, so
// load on the machine affects every column alike; medians are reported with ratios.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as pkg from "../../www/pkg/nexttoken.js";
import { peakedLogits } from "./logits.mjs";

const wasmBytes = readFileSync(fileURLToPath(new URL("../../www/pkg/nexttoken_bg.wasm", import.meta.url)));
const wasm = pkg.initSync({ module: wasmBytes });
const { step, logSumExp } = pkg;

const tjBase = new URL("../../www/node_modules/@huggingface/transformers/src/", import.meta.url);
const { LogitsSampler } = await import(new URL("generation/logits_sampler.js", tjBase));
const { Tensor } = await import(new URL("utils/tensor.js", tjBase));
const { GenerationConfig } = await import(new URL("generation/configuration_utils.js", tjBase));

/** (c) What one writes without thinking about it: softmax with T, sort everything, cut, draw. */
function sortSampler(logits, { temperature, top_k, top_p, min_p }, u) {
  const n = logits.length;
  let max = -Infinity;
  for (let i = 0; i < n; i++) if (logits[i] > max) max = logits[i];
  const items = new Array(n);
  let z = 0;
  for (let i = 0; i < n; i++) {
    const w = Math.exp((logits[i] - max) / temperature);
    z += w;
    items[i] = { id: i, w };
  }
  items.sort((a, b) => b.w - a.w || a.id - b.id);
  let kept = top_k > 0 ? items.slice(0, top_k) : items;
  let zk = 0;
  for (const it of kept) zk += it.w;
  let cum = 0, cut = kept.length;
  for (let i = 0; i < kept.length; i++) { if (cum >= top_p * zk) { cut = i; break; } cum += kept[i].w; }
  kept = kept.slice(0, cut);
  const floorW = min_p * kept[0].w;
  kept = kept.filter((it) => it.w >= floorW);
  let total = 0;
  for (const it of kept) total += it.w;
  let acc = 0;
  for (const it of kept) { acc += it.w / total; if (acc > u) return it.id; }
  return kept[kept.length - 1].id;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function timeIt(fn, minMs = 25) {
  let reps = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < minMs) { fn(reps++); t = performance.now(); }
  return ((t - t0) / reps) * 1000; // µs per call
}
async function timeAsync(fn, minMs = 25) {
  let reps = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < minMs) { await fn(reps++); t = performance.now(); }
  return ((t - t0) / reps) * 1000;
}

const full = { temperature: 0.8, top_k: 40, top_p: 0.95, min_p: 0.05 };
const topKOff = { ...full, top_k: 0 };
const rows = [];
for (const n of [1000, 32000, 151936]) {
  const logits = peakedLogits(n);
  const tensor = new Tensor("float32", logits, [1, 1, n]);
  const tj40 = LogitsSampler.getSampler(new GenerationConfig({ do_sample: true, temperature: 0.8, top_k: 40 }));
  const tjOff = LogitsSampler.getSampler(new GenerationConfig({ do_sample: true, temperature: 0.8, top_k: 0 }));
  const cols = { floor: [], step_full: [], step_k_off: [], tj_k40: [], tj_k_off: [], js_sort_full: [], js_sort_k_off: [] };
  const rounds = n > 100000 ? 7 : 11;
  for (let r = 0; r < rounds; r++) {
    cols.floor.push(timeIt(() => logSumExp(logits)));
    cols.step_full.push(timeIt((i) => step(logits, { ...full, seed: 7, draw: i })));
    cols.step_k_off.push(timeIt((i) => step(logits, { ...topKOff, seed: 7, draw: i })));
    cols.tj_k40.push(await timeAsync(() => tj40(tensor)));
    cols.tj_k_off.push(await timeAsync(() => tjOff(tensor), n > 100000 ? 300 : 50));
    cols.js_sort_full.push(timeIt((i) => sortSampler(logits, full, (i * 0.618) % 1), n > 100000 ? 200 : 25));
    cols.js_sort_k_off.push(timeIt((i) => sortSampler(logits, topKOff, (i * 0.618) % 1), n > 100000 ? 200 : 25));
  }
  const m = Object.fromEntries(Object.entries(cols).map(([k, v]) => [k, median(v)]));
  rows.push({ n, ...m });
}

// Memory: 100,000 calls at the largest size must not grow wasm memory after the first.
const big = peakedLogits(151936);
step(big, { ...full, seed: 1 });
const before = wasm.memory.buffer.byteLength;
for (let i = 0; i < 2000; i++) step(big, { ...(i % 2 ? full : topKOff), seed: 1, draw: i });
const grew = wasm.memory.buffer.byteLength - before;

const f = (x) => (x >= 1000 ? `${(x / 1000).toFixed(2)} ms` : `${x.toFixed(1)} µs`);
const r = (a, b) => `${(a / b).toFixed(2)}×`;
console.log(`\nwasm step vs baselines (Node ${process.version}, median of interleaved rounds)\n`);
console.log("| vocab | floor (max+Σexp) | step full (k40,p.95,min-p.05,T.8) | ÷ floor | transformers.js k40 | step ÷ tj | step k off | ÷ floor | transformers.js k off | tj ÷ step | JS sort full | JS sort k off |");
console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const x of rows) {
  console.log(`| ${x.n.toLocaleString("en")} | ${f(x.floor)} | ${f(x.step_full)} | ${r(x.step_full, x.floor)} | ${f(x.tj_k40)} | ${r(x.step_full, x.tj_k40)} | ${f(x.step_k_off)} | ${r(x.step_k_off, x.floor)} | ${f(x.tj_k_off)} | ${r(x.tj_k_off, x.step_k_off)} | ${f(x.js_sort_full)} | ${f(x.js_sort_k_off)} |`);
}
console.log(`\nwasm memory growth over 2,000 calls at 151,936 after warm-up: ${grew} bytes`);
