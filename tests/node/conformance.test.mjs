// Every reference vector through the wasm `step` in Node, checked by the shared check_dist.py.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { step } from "./load.mjs";

const dataDir = fileURLToPath(new URL("../data/", import.meta.url));
const toFloat = (v) => (v === "-inf" ? -Infinity : v === "inf" ? Infinity : v === "nan" ? NaN : v);

const files = [["hf.json", "hf"], ["llamacpp.json", "llama.cpp"], ["vllm.json", "vllm"],
  // written from HF's MinNewTokensLengthLogitsProcessor; the same distributions in every engine
  ["min_new_tokens.json", "hf"], ["min_new_tokens.json", "llama.cpp"], ["min_new_tokens.json", "vllm"]];
for (const [file, engine] of files) {
  test(`wasm step matches ${file} (${engine})`, () => {
    const data = JSON.parse(readFileSync(join(dataDir, file), "utf8"));
    const cases = data.cases.map((c) => {
      const logits = new Float32Array(c.logits.map(toFloat));
      const config = { ...c.config, engine, seed: 1, trace_top: logits.length };
      try {
        const r = step(logits, config);
        const probs = new Array(logits.length).fill(0);
        for (const cand of r.candidates) probs[cand.id] = cand.p;
        const kept_ids = r.candidates.filter((x) => x.kept).map((x) => x.id).sort((a, b) => a - b);
        assert.equal(kept_ids.length, r.kept_count, `${c.id}: kept_count`);
        return { id: c.id, output: { probs, kept_ids, argmax: r.candidates[0].id } };
      } catch (e) {
        assert.equal(c.category, "error", `${c.id}: unexpected error ${e.message}`);
        return { id: c.id, output: { error: true } };
      }
    });
    const out = join(mkdtempSync(join(tmpdir(), "nexttoken-")), `${engine}.${file}.wasm.json`);
    writeFileSync(out, JSON.stringify({ cases }));
    let report;
    try {
      report = execFileSync("python3", [join(dataDir, "check_dist.py"), join(dataDir, file), out,
        "--skip-category", "error", "--strict-argmax", "--quiet"], { encoding: "utf8" });
    } catch (e) {
      assert.fail(`${file}: ${e.stdout}`);
    }
    assert.match(report, / 0 failed/);
  });
}
