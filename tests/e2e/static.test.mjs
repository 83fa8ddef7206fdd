// Source rules the browser tests cannot see: zh and en have the same keys, no markup injection,
// no unseeded randomness, and the module boundaries (only core.ts imports the wasm package,
// only charts/ import d3).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const SRC = fileURLToPath(new URL("../../www/src/", import.meta.url));

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : [];
  });
}

const keys = (path) => [...readFileSync(path, "utf8").matchAll(/^\s+"([\w.]+)":/gm)].map((m) => m[1]).sort();

test("zh and en have the same message keys", () => {
  const en = keys(join(SRC, "i18n/en.ts"));
  assert.ok(en.length > 50);
  assert.deepEqual(keys(join(SRC, "i18n/zh.ts")), en);
});

test("no innerHTML, no .html(), no Math.random in the page source", () => {
  for (const path of files(SRC)) {
    const text = readFileSync(path, "utf8");
    assert.doesNotMatch(text, /innerHTML|outerHTML|insertAdjacentHTML|\.html\(|Math\.random/, relative(SRC, path));
  }
});

test("only core.ts imports the wasm package and only charts import d3", () => {
  for (const path of files(SRC)) {
    const rel = relative(SRC, path);
    const text = readFileSync(path, "utf8");
    if (rel !== "core.ts") assert.doesNotMatch(text, /from "\.\.?\/(\.\.\/)?pkg\//, rel);
    if (!rel.startsWith("charts/")) assert.doesNotMatch(text, /from "d3|import "d3/, rel);
  }
});
