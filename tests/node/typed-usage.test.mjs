// A TypeScript user's program against the package (typed-usage.fixture.ts): what the runtime
// accepts, the types accept too, and what the runtime returns is what the types say.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Generator, step, sampleCounts, weights, tokenizer } from "./load.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const fixture = fileURLToPath(new URL("./typed-usage.fixture.ts", import.meta.url));

/** `tsc --strict` over the fixture (a demanding user's settings, with `libs` for target and
 * lib); its complaints, or "". */
function typeErrors(libs = ["--target", "ES2022", "--lib", "ES2022,DOM,ESNext.Disposable"]) {
  const args = [fixture, "--noEmit", "--strict", "--exactOptionalPropertyTypes", "--noUncheckedIndexedAccess",
    ...libs, "--module", "ESNext", "--moduleResolution", "bundler", "--types", "", "--skipLibCheck", "false"];
  try {
    execFileSync(`${root}www/node_modules/.bin/tsc`, args, { cwd: fileURLToPath(new URL(".", import.meta.url)), encoding: "utf8" });
    return "";
  } catch (e) {
    return String(e.stdout || e.message);
  }
}

/** The fixture with its types stripped (esbuild, Vite's own), imported. */
async function fixtureModule() {
  const esbuild = createRequire(`${root}www/package.json`)("esbuild");
  const out = await esbuild.build({ entryPoints: [fixture], bundle: false, format: "esm", write: false, logLevel: "silent" });
  mkdirSync(`${root}target/node-ts`, { recursive: true });
  const file = `${root}target/node-ts/typed-usage-fixture.mjs`;
  writeFileSync(file, out.outputFiles[0].contents);
  return import(`${pathToFileURL(file).href}?t=${Date.now()}`);
}

test("a TypeScript program written as the runtime allows type-checks under tsc --strict and runs as its types say", async () => {
  // It was refused: next() and step(logits) needed a config argument (`undefined` written out),
  // history/trace_ids/eos_token_id took only number[] (not the Uint32Array tokens() and encode()
  // return), setStopSequences no readonly list, and `stopped` was a bare string said to be null.
  assert.equal(typeErrors(), "");
  const { usage } = await fixtureModule();
  const u = usage({ Generator, step, sampleCounts }, weights, tokenizer);
  assert.equal(u.runningStopped, undefined, "stopped is undefined (not null) while generation may go on");
  assert.equal(u.texts.length, 2);
  for (const t of u.texts) {
    assert.ok(t.stop !== null, `${t.prompt}: the loop ended on a stop`);
    assert.equal(t.stopped, t.stop, `${t.prompt}: the getter says what the token said`);
    assert.ok(t.text.length > 0);
  }
  assert.equal(u.texts[1].text.startsWith("北京"), true, u.texts[1].text);
  assert.equal(typeof u.bareNext, "number");
  assert.equal(typeof u.bareStep, "number");
  // next()'s trace is typed present (it was `StepResult | null`, so `.trace.chosen` needed `!`)
  // and is; force()'s is typed and is null
  assert.ok(u.nextChosenP > 0 && u.nextChosenP <= 1);
  assert.equal(u.forcedTrace, null);
  // the Uint32Arrays were read as the lists they are: the penalty ran over the tokens so far, and
  // 北京's id is listed wherever it ranks
  const pen = u.penalised.stages.find((s) => s.name === "penalties");
  assert.equal(pen.active, true);
  assert.ok(u.penalised.candidates.some((c) => c.id === 2218));
  assert.equal(u.beams.length, 3);
  assert.equal([...u.histogram.values()].reduce((a, b) => a + b, 0), 500);
});

test("the package's types compile under a target's default libs (ES2020, ES2022), without ESNext.Disposable", () => {
  // The generated Generator declares [Symbol.dispose](), which only lib ESNext.Disposable (or
  // esnext) knew: under a default lib tsc failed in our .d.ts, 'Property 'dispose' does not exist
  // on type 'SymbolConstructor'', and only skipLibCheck hid it.
  for (const target of ["ES2020", "ES2022"]) assert.equal(typeErrors(["--target", target]), "", `--target ${target}`);
  assert.equal(typeErrors(["--target", "ESNext"]), "", "and where the lib declares Symbol.dispose itself");
});

test("min_new_tokens without a history is refused by name: no new token could ever be counted, so the end token was held back forever", () => {
  const gen = new Generator(weights, tokenizer);
  const eos = gen.eosId;
  /** A user's own loop: step over the Generator's logits, then force the choice. */
  const loop = (withHistory) => {
    gen.setPrompt("中国的首都是");
    gen.setMaxNewTokens(40);
    let t;
    do {
      const config = { strategy: "greedy", min_new_tokens: 2, eos_token_id: eos };
      if (withHistory) Object.assign(config, { history: gen.tokens(), history_prompt_len: gen.promptLength });
      t = gen.force(step(gen.logits(), config).token);
    } while (t.stop === null);
    return { stop: t.stop, text: gen.text() };
  };
  // It ran past 。 to the 40-token limit ("…城市。\n给一个代码编辑器插件起名…"): the end token never came.
  const refusal = /^min_new_tokens must be 0 \(off\) without a history \(it counts the new tokens in history: pass the token ids so far and history_prompt_len, \[\] for none yet\), got 2$/;
  assert.throws(() => loop(false), { message: refusal });
  assert.throws(() => sampleCounts(gen.logits(), { seed: 1, min_new_tokens: 2, eos_token_id: eos }, 10), { message: refusal });
  assert.deepEqual(loop(true), { stop: "eos", text: "北京，也是一座有三千多年历史的城市。" });
  // [] is a history (no new token yet: the end token held back), and the Generator fills in its own
  gen.setPrompt("中国的首都是");
  const held = step(gen.logits(), { seed: 1, min_new_tokens: 1, eos_token_id: eos, history: [], trace_ids: [eos] });
  assert.equal(held.candidates.find((c) => c.id === eos).removed_by, "min_new_tokens");
  const next = gen.next({ seed: 1, min_new_tokens: 1, trace_ids: [eos] });
  assert.equal(next.trace.candidates.find((c) => c.id === eos).removed_by, "min_new_tokens");
  const forced = gen.forceMany([gen.tokens()[0]], { seed: 1, min_new_tokens: 1 });
  assert.equal(forced.records.length, 1);
  gen.free();
});

test("raising max_new_tokens after its stop lets generation go on, as if the limit had been higher all along", () => {
  const gen = new Generator(weights, tokenizer);
  const config = { seed: 11, temperature: 0.9 };
  const run = (limit) => {
    gen.setPrompt("TypeScript 是 JavaScript 的");
    gen.setMaxNewTokens(limit);
    let t;
    do t = gen.next(config); while (t.stop === null);
    return t.stop;
  };
  const wholeStop = run(8);
  const whole = Array.from(gen.tokens());
  assert.ok(whole.length - gen.promptLength > 3, "the whole run is longer than the first limit");
  assert.equal(run(3), "max_new_tokens");
  assert.equal(gen.stopped, "max_new_tokens");
  // "5 more": it was refused, 'generation has stopped (max_new_tokens); rewind or set a new prompt'
  gen.setMaxNewTokens(8);
  assert.equal(gen.stopped, undefined);
  let t;
  do t = gen.next(config); while (t.stop === null);
  assert.equal(t.stop, wholeStop);
  assert.deepEqual(Array.from(gen.tokens()), whole, "the same tokens as a limit of 8 from the start");
  // a limit not above the tokens generated keeps the stop; other stops are not the limit's to lift
  assert.equal(run(3), "max_new_tokens");
  gen.setMaxNewTokens(2);
  assert.throws(() => gen.next(config), { message: /^generation has stopped \(max_new_tokens\)/ });
  gen.stop();
  gen.setMaxNewTokens(20);
  assert.equal(gen.stopped, "user");
  assert.throws(() => gen.next(config), { message: /^generation has stopped \(user\)/ });
  gen.rewind(0);
  assert.equal(gen.next(config).token, gen.tokens().at(-1));
  gen.free();
});
