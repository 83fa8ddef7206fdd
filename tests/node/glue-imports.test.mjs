// The built glue's static imports of our JS snippets: at most three. Each is one request the
// browser makes in parallel at load, and wasm-bindgen-test-runner's server (tiny_http 0.12) can
// leave a fourth simultaneous new connection unserved: with five snippet modules the Chromium run
// of tests/wasm_api.rs hung 4 of 6 times at load 5–6 (the page waiting for one module for good),
// with three 0 of 12. A new snippet belongs in one of the three (tests/tools/wasm-browser-test.sh).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

test("the glue imports at most three snippet modules", () => {
  const glue = readFileSync(new URL("../../www/pkg/nexttoken.js", import.meta.url), "utf8");
  const modules = new Set([...glue.matchAll(/from\s+["']\.\/snippets\/[^"']+\/([^"'/]+\.js)["']/g)].map((m) => m[1]));
  assert.ok(modules.size >= 1, "the glue names its snippets");
  assert.ok(modules.size <= 3, `the glue imports ${modules.size} snippet modules: ${[...modules].join(", ")}`);
});
