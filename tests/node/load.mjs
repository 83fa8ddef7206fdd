// Loads the built wasm package (www/pkg) in Node, the way the page does but from disk.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as pkg from "../../www/pkg/nexttoken.js";

const wasmPath = fileURLToPath(new URL("../../www/pkg/nexttoken_bg.wasm", import.meta.url));
const compiled = new WebAssembly.Module(readFileSync(wasmPath));
export const wasm = pkg.initSync({ module: compiled });
export const { step, logSumExp, sampleCounts, Generator } = pkg;

export const weights = readFileSync(fileURLToPath(new URL("../../www/model/model.safetensors", import.meta.url)));
export const tokenizer = readFileSync(fileURLToPath(new URL("../../www/model/tokenizer.json", import.meta.url)), "utf8");

let instances = 0;
/** A new, separate wasm instance (its own memory, decoder and tables) with the package's API. */
export async function freshInstance() {
  instances += 1;
  const mod = await import(`../../www/pkg/nexttoken.js?instance=${instances}`);
  const instanceWasm = mod.initSync({ module: compiled });
  return { step: mod.step, logSumExp: mod.logSumExp, sampleCounts: mod.sampleCounts, Generator: mod.Generator, wasm: instanceWasm, pkg: mod };
}
