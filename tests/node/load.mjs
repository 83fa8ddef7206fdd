// Loads the built wasm package (www/pkg) in Node, the way the page does but from disk.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as pkg from "../../www/pkg/nexttoken.js";

const wasmPath = fileURLToPath(new URL("../../www/pkg/nexttoken_bg.wasm", import.meta.url));
export const wasm = pkg.initSync({ module: readFileSync(wasmPath) });
export const { step, logSumExp, Generator } = pkg;
