// The page's server source (www/src/sources/server.ts) over llama.cpp's real server: the core's
// own `step` chooses every token from the server's answers, and greedy decoding gives the same
// tokens as the embedded model; a top-N answer carries its rest mass into the core (`rest_mass`),
// whose trace keeps p_raw over the whole vocabulary and says when the final p is exact.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { importServerSource } from "./ts.mjs";
import { Generator, step, weights, tokenizer } from "./load.mjs";
import { startLlamaServer } from "./llama-server.mjs";

const M = await importServerSource();
let server;
before(async () => {
  server = await startLlamaServer({ exact: true });
});
after(() => server?.stop());

test("bytes: unfinished characters stay pending, byte tokens are labelled <E4>", () => {
  assert.deepEqual(M.appendBytes([], [0xe5]), { piece: "", pending: [0xe5] });
  assert.deepEqual(M.appendBytes([0xe5], [0x8c, 0x97, 0x41]), { piece: "北A", pending: [] });
  assert.equal(M.tokenLabelOf("\ufffd", [0xe5]), "<E5>");
  assert.equal(M.tokenLabelOf("北京", [229, 140, 151, 228, 186, 172]), "北京");
});

for (const prompt of ["中国的首都是", "The capital of France is", "组件是"]) {
  test(`greedy over the server equals the embedded model token for token: ${prompt}`, async () => {
    const source = await M.ServerSource.connect(new M.ServerClient(server.url));
    assert.equal(source.vocabSize, 8000);
    const gen = new Generator(weights, tokenizer);
    gen.setPrompt(prompt);
    assert.equal(source.eosId, gen.eosId, "the end token's id comes from the server");
    await source.reset(prompt);
    assert.deepEqual(source.history(), Array.from(gen.tokens()));
    const ours = [];
    const theirs = [];
    for (let i = 0; i < 16; i++) {
      const mine = gen.next({ strategy: "greedy" });
      ours.push(mine.token);
      const next = await source.loadNextLogits();
      assert.equal(next.known.kind, "full");
      const r = step(next.logits, { strategy: "greedy", trace_top: 1 });
      theirs.push(r.token);
      const out = source.append(r.token);
      assert.equal(out.piece, mine.piece, `piece ${i}`);
      assert.deepEqual(out.pending, mine.pending, `pending bytes ${i}`);
      if (mine.stop || source.isEos(r.token)) break;
    }
    assert.deepEqual(theirs, ours);
    assert.equal(source.text(), gen.text());
    // rewind is exact: the logits are those before the rewound tokens again
    source.rewind(2);
    gen.rewind(2);
    const again = await source.loadNextLogits();
    assert.equal(step(again.logits, { strategy: "greedy" }).token, step(gen.logits(), { strategy: "greedy" }).token);
  });
}

test("a top-50 answer: rest mass to the core, p_raw over the whole vocabulary, exact only when a cut makes it so", async () => {
  const client = new M.ServerClient(server.url);
  const full = await M.ServerSource.connect(client);
  await full.reset("给一个代码编辑器插件起名：");
  const whole = await full.loadNextLogits();
  // the same server, as if its vocabulary were too large to ask for whole
  const top = new M.ServerSource(client, { ...full.info, maxTop: 50 });
  await top.reset("给一个代码编辑器插件起名：");
  const next = await top.loadNextLogits();
  assert.equal(next.known.kind, "top");
  assert.equal(next.known.listed, 50);
  assert.ok(next.known.restMass > 0.1, `a flat distribution leaves much outside the top 50: ${next.known.restMass}`);
  const plain = step(next.logits, { rest_mass: next.known.restMass, seed: 3, trace_top: 5 });
  const reference = step(whole.logits, { seed: 3, trace_top: 5 });
  // the two requests (whole vocabulary, then top 50; the second may come through the server's
  // prompt cache) give p_raw 1.7e-6 apart on a p of 0.03 with the second edition's 7 layers (the
  // first edition's 4 stayed under 1e-6): float32 noise, far below the page's 0.1 % — hence 1e-5
  const NOISE = 1e-5;
  for (const c of plain.candidates.slice(0, 5)) {
    const ref = reference.candidates.find((x) => x.id === c.id);
    assert.ok(Math.abs(c.p_raw - ref.p_raw) < NOISE, `p_raw of ${c.id} over the whole vocabulary: ${c.p_raw} vs ${ref.p_raw}`);
  }
  assert.equal(plain.rest.mass, next.known.restMass);
  assert.equal(plain.rest.exact, false);
  const topK = step(next.logits, { rest_mass: next.known.restMass, top_k: 40, seed: 3 });
  const topKRef = step(whole.logits, { top_k: 40, seed: 3 });
  assert.equal(topK.rest.exact, true, "top-k 40 of a top-50 list is exact");
  assert.equal(topK.token, topKRef.token);
  assert.ok(Math.abs(topK.chosen.p - topKRef.chosen.p) < NOISE);
  assert.throws(() => step(next.logits, { rest_mass: 1 }), /rest_mass must be in \[0, 1\), got 1/);
});

test("logits asked for while the prompt is read wait for it (never the previous prompt's context)", async () => {
  const source = await M.ServerSource.connect(new M.ServerClient(server.url));
  await source.reset("The capital of France is");
  const resetting = source.reset("中国的首都是");
  assert.equal(source.nextLogits(), null, "nothing to step on while the prompt is read");
  const early = source.loadNextLogits();
  await resetting;
  const next = await early;
  assert.equal(next, source.nextLogits(), "the answer for the new prompt, the one the page steps on");
  const gen = new Generator(weights, tokenizer);
  gen.setPrompt("中国的首都是");
  assert.equal(step(next.logits, { strategy: "greedy" }).token, step(gen.logits(), { strategy: "greedy" }).token);
});

test("a failed request rejects with the page's worded message (what to run), not the error's code", async () => {
  M.setLang("en");
  const client = new M.ServerClient(server.url);
  const source = await M.ServerSource.connect(client);
  await source.reset("中国的首都是");
  client.next = () => Promise.reject(new M.ServerError({ code: "refused", vars: { url: server.url, port: 8080 } }));
  source.append(step((await source.loadNextLogits()).logits, { strategy: "greedy" }).token);
  await assert.rejects(source.loadNextLogits(), (err) => {
    assert.match(err.message, /^Nothing answers at http:\/\/127\.0\.0\.1:\d+\. Start the server first, for example: llama-server -m model\.gguf --port 8080/);
    return true;
  });
});

test("append asks for the next answer at once, unless prefetch is off (Compare's columns: none after the token they stop at)", async () => {
  const client = new M.ServerClient(server.url);
  const source = await M.ServerSource.connect(client);
  await source.reset("中国的首都是");
  const first = (await source.loadNextLogits()).logits;
  const [best, second] = step(first, { strategy: "greedy", trace_top: 2 }).candidates.map((c) => c.id);
  let asked = 0;
  const next = client.next.bind(client);
  client.next = (...args) => {
    asked += 1;
    return next(...args);
  };
  source.prefetch = false;
  source.append(best);
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(asked, 0, "no answer asked for after the append");
  assert.equal(source.nextLogits(), null);
  await source.loadNextLogits();
  assert.equal(asked, 1, "asked when stepped");
  source.rewind(1);
  source.prefetch = true;
  source.append(second);
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(asked, 2, "the page's path asks at once");
  await source.loadNextLogits();
  assert.equal(asked, 2, "and the step reads that answer");
});
