// `make bench`, model half: the shipped model's forward pass in wasm (Node) and natively, in the
// same run, plus model load + first token in wasm. `force` runs exactly one forward pass with the
// KV cache (no sampling); `next` adds a full decoding step with its trace.
import { readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import * as pkg from "../../www/pkg/nexttoken.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const t0 = performance.now();
pkg.initSync({ module: readFileSync(`${root}www/pkg/nexttoken_bg.wasm`) });
// NEXTTOKEN_MODEL measures another export (a candidate shape) before it replaces the shipped one.
const weightsPath = process.env.NEXTTOKEN_MODEL ?? `${root}www/model/model.safetensors`;
const weights = readFileSync(weightsPath);
const tokenizer = readFileSync(`${root}www/model/tokenizer.json`, "utf8");
const gen = new pkg.Generator(weights, tokenizer);
gen.setPrompt("中国的首都是");
gen.next({ strategy: "greedy" });
const firstToken = performance.now() - t0;

function tokensPerSecond(run) {
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < 3000) n += run();
  return (n / (performance.now() - start)) * 1000;
}
const prompt = gen.encode("React 是一个用于构建");
const forward = tokensPerSecond(() => {
  gen.setPrompt("React 是一个用于构建");
  gen.setMaxNewTokens(1000);
  let n = 0;
  for (let i = 0; i < 100; i++) { gen.force(prompt[i % prompt.length] + 300 + i); n++; }
  return n + prompt.length;
});
const generate = tokensPerSecond(() => {
  gen.setPrompt("React 是一个用于构建");
  gen.setMaxNewTokens(100);
  let n = 0;
  for (let i = 0; i < 100; i++) { try { gen.next({ seed: 1, temperature: 0.8, top_p: 0.95 }); n++; } catch { break; } }
  return n + prompt.length;
});
const native = execFileSync("cargo", ["test", "--release", "--test", "model", "--", "--ignored", "--nocapture", "bench_native_tokens_per_second"],
  { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], env: { ...process.env, NEXTTOKEN_MODEL: weightsPath } });
const nativeRate = Number((native.match(/= ([0-9.]+) tokens\/s/) ?? [])[1]);

console.log(`\n${weightsPath} (Node ${process.version})\n`);
console.log("| measure | value |\n|---|---:|");
console.log(`| wasm forward (force, KV cache) | ${forward.toFixed(0)} tokens/s |`);
console.log(`| wasm generate (forward + step with trace, T 0.8, top-p 0.95) | ${generate.toFixed(0)} tokens/s |`);
console.log(`| native forward | ${nativeRate.toFixed(0)} tokens/s |`);
console.log(`| wasm ÷ native (forward) | ${((forward / nativeRate) * 100).toFixed(0)} % |`);
console.log(`| wasm init + model load + first token | ${firstToken.toFixed(0)} ms |`);
