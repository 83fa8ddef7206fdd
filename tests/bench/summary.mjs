// `make bench`, last step of the step benchmarks: issue 10's table, native and wasm side by side.
// Reads criterion's medians (target/criterion/step/<slug>/<n>/new/estimates.json, written by
// tests/bench/step.rs in this run) and the wasm medians tests/bench/step.mjs wrote to
// target/bench/wasm-step.json, and prints every row as a ratio to its own floor (measured in the
// same run by the same harness), marked against the targets: ≤ 3× at 32,000, ≤ 2× at 151,936.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const target = process.env.CARGO_TARGET_DIR ?? fileURLToPath(new URL("../../target", import.meta.url));
const SIZES = [1000, 32000, 151936];
const LIMIT = { 32000: 3, 151936: 2 };
// The slug criterion's directory names use (tests/bench/step.rs `slug`).
const slug = (name) => name.replace(/[^A-Za-z0-9.]/g, "_");

function native(group, name, n) {
  try {
    const json = JSON.parse(readFileSync(`${target}/criterion/${group}/${slug(name)}/${n}/new/estimates.json`, "utf8"));
    return json.median.point_estimate / 1000; // µs
  } catch {
    return null;
  }
}

let wasm;
try {
  wasm = JSON.parse(readFileSync(`${target}/bench/wasm-step.json`, "utf8"));
} catch {
  console.error("summary: no target/bench/wasm-step.json; run `node tests/bench/step.mjs` first");
  process.exit(1);
}

const cell = (t, floor, n) => {
  if (t == null || floor == null) return "–";
  const r = t / floor;
  const mark = LIMIT[n] ? (r <= LIMIT[n] ? " ✓" : " ✗") : "";
  return `${r.toFixed(2)}×${mark}`;
};
// The native floor is measured before a size's rows and after them (step.rs): their mean divides.
const floorOf = (group, n) => {
  const [a, b] = [native(group, "floor", n), native(group, "floor_after", n)];
  return a != null && b != null ? (a + b) / 2 : (a ?? b);
};
const floorsNative = Object.fromEntries(SIZES.map((n) => [n, floorOf("step", n)]));
const head = SIZES.map((n) => n.toLocaleString("en"));
console.log(`\nissue 10: step ÷ floor, native (criterion) and wasm (Node ${wasm.node}${wasm.quick ? ", BENCH_QUICK" : ""}); ✓/✗ against ≤ 3× at 32,000 and ≤ 2× at 151,936\n`);
console.log(`| config | ${head.map((h) => `native ${h}`).join(" | ")} | ${head.map((h) => `wasm ${h}`).join(" | ")} |`);
console.log(`|---|${SIZES.map(() => "---:").join("|")}|${SIZES.map(() => "---:").join("|")}|`);
const us = (t) => (t == null ? "–" : t >= 1000 ? `${(t / 1000).toFixed(2)} ms` : `${t.toFixed(1)} µs`);
console.log(`| floor | ${SIZES.map((n) => us(floorsNative[n])).join(" | ")} | ${SIZES.map((n) => us(wasm.floors[n])).join(" | ")} |`);
let met = 0;
let rows = 0;
for (const [name, byN] of Object.entries(wasm.results)) {
  const nat = SIZES.map((n) => cell(native("step", name, n), floorsNative[n], n));
  const was = SIZES.map((n) => cell(byN[n]?.step, wasm.floors[n], n));
  rows++;
  if (![...nat, ...was].some((c) => c.endsWith("✗") || c === "–")) met++;
  console.log(`| ${name} | ${nat.join(" | ")} | ${was.join(" | ")} |`);
}
const tn = native("trace", "full trace", 8000);
const tf = floorOf("trace", 8000);
const nTrace = tn != null && tf != null ? `${(tn / tf).toFixed(1)}×` : "–";
const to = native("trace", "full trace objects", 8000);
const nObjects = to != null && tf != null ? `${(to / tf).toFixed(1)}×` : "–";
console.log(`\nfull trace at 8,000 (target ≤ 20×), read as columns: native ${nTrace}, wasm ${(wasm.trace.columns / wasm.trace.floor).toFixed(1)}×; as objects (native Decoder::step): ${nObjects}`);
console.log(`rows within both targets, native and wasm: ${met} of ${rows}`);
const drift = [...SIZES.map((n) => [n, "step"]), [8000, "trace"]].map(([n, group]) => `${n.toLocaleString("en")}: ${us(native(group, "floor", n))} / ${us(native(group, "floor_after", n))}`);
console.log(`native floor before / after its rows (the table divides by their mean): ${drift.join("; ")}`);
