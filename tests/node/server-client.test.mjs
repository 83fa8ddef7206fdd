// The model-server client (www/src/server/): API detection, requests, answers parsed into
// candidates with coverage and rest mass, and every failure classified and worded in zh and en.
// First on recorded llama.cpp answers and on vLLM / Ollama answers written from their
// documentation (tests/data/server/), then against llama.cpp's real server.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { importServerClient } from "./ts.mjs";
import { Generator, weights, tokenizer } from "./load.mjs";
import { startLlamaServer } from "./llama-server.mjs";

const data = (name) => JSON.parse(readFileSync(new URL(`../data/server/${name}`, import.meta.url), "utf8"));
const doc = data("documented.json");
const S = await importServerClient();

/** A fetch that answers from a table of path → JSON (or status), recording what was asked. */
function fakeFetch(routes) {
  const asked = [];
  const f = async (url, init = {}) => {
    const path = new URL(url).pathname;
    asked.push({ path, body: init.body ? JSON.parse(init.body) : undefined });
    const r = routes[path];
    if (r === undefined) return new Response("not found", { status: 404 });
    if (r instanceof Error) throw r;
    if (typeof r === "number") return new Response("refused", { status: r });
    return new Response(JSON.stringify(r), { status: 200, headers: { "content-type": "application/json" } });
  };
  return { fetch: f, asked };
}
const loopbackPage = { origin: "http://127.0.0.1:8000", protocol: "http:", hostname: "127.0.0.1", csp: "" };

function codeOf(fn) {
  return fn().then(
    () => "resolved",
    (e) => (e instanceof S.ServerError ? e.code : `not a ServerError: ${e}`),
  );
}

test("llama.cpp's /completion answer (recorded): ids, text, bytes, logprobs, and the rest mass of a top-5", () => {
  const d = S.parseLlamaCompletion(data("llamacpp-completion.json"), 8000);
  assert.equal(d.entries.length, 5);
  assert.deepEqual(d.entries[0], { id: 2218, text: "北京", bytes: [229, 140, 151, 228, 186, 172], logprob: d.entries[0].logprob });
  assert.ok(d.entries.every((e, i) => i === 0 || e.logprob <= d.entries[i - 1].logprob), "most likely first");
  assert.equal(d.coverage.kind, "top");
  const listed = d.entries.reduce((s, e) => s + Math.exp(e.logprob), 0);
  assert.equal(d.coverage.listed, 5);
  assert.ok(Math.abs(d.coverage.restMass - (1 - listed)) < 1e-12 && d.coverage.restMass > 0, "rest = 1 − Σ p(listed), never renormalised");
  assert.equal(d.collapsedDuplicates, false);
});

test("OpenAI-compatible answers: content[] (llama.cpp /v1, recorded; vLLM and Ollama chat) and the legacy keyed shape", () => {
  const comp = S.parseOpenAi(data("llamacpp-v1-completions.json"), 8000);
  assert.equal(comp.entries[0].id, 2218);
  assert.equal(comp.entries[0].text, "北京");
  const chat = S.parseOpenAi(data("llamacpp-v1-chat.json"), 8000);
  assert.equal(chat.entries.length, 5);
  assert.ok(chat.entries.every((e) => Number.isInteger(e.id)));

  const legacy = S.parseOpenAi(doc.vllm_completions_legacy, null);
  assert.deepEqual(legacy.entries.map((e) => [e.id, e.text]), [[null, " Paris"], [null, " the"], [null, " a"], [null, " located"]]);
  assert.equal(legacy.collapsedDuplicates, true, "keyed by string: tokens that share a text are merged by the server");
  assert.equal(legacy.coverage.kind, "top");

  const ids = S.parseOpenAi(doc.vllm_completions_token_ids, null);
  assert.deepEqual(ids.entries.map((e) => e.id), [12095, 279, 264], "--return-tokens-as-token-ids gives ids back");
  assert.equal(ids.collapsedDuplicates, false);

  const vchat = S.parseOpenAi(doc.vllm_chat, null);
  assert.deepEqual(vchat.entries[2].bytes, [229], "a byte token keeps its bytes");

  const ollama = S.parseOpenAi(doc.ollama_chat, null);
  assert.equal(ollama.entries.length, 2, "the same string twice without ids is one candidate");
  assert.equal(ollama.collapsedDuplicates, true);
  assert.ok(ollama.entries.every((e) => e.id === null));
});

test("answers without log-probabilities are 'too old'; other shapes are 'bad_response' naming what is missing", () => {
  const tooOld = [
    () => S.parseLlamaCompletion(doc.llamacpp_old_probs, 8000),
    () => S.parseOpenAi(doc.ollama_chat_without_logprobs, null),
  ];
  for (const f of tooOld) assert.throws(f, (e) => e.code === "too_old");
  assert.throws(() => S.parseLlamaCompletion({ content: "x" }, 8000), (e) => e.code === "bad_response" && /n_probs/.test(e.vars.detail));
  assert.throws(() => S.parseOpenAi({ choices: [] }, null), (e) => e.code === "bad_response" && /choices\[0\]/.test(e.vars.detail));
  const badLogprob = structuredClone(data("llamacpp-completion.json"));
  badLogprob.completion_probabilities[0].top_logprobs[1].logprob = "high";
  assert.throws(() => S.parseLlamaCompletion(badLogprob, 8000), (e) => e.code === "bad_response" && /top_logprobs\[1\]\.logprob/.test(e.vars.detail));
});

test("an answer that contradicts itself is refused, naming its list and the server: probabilities past 1, a most likely token below 1/V", async () => {
  // Both were drawn from: a sum past 1 left the rest clamped to 0 and the listed tokens
  // renormalised; a most likely token below 1/V (or a sum that rounds to 0) gave rest_mass 1,
  // which the core refused in words about a key the user never wrote.
  const llama = (logprobs) => {
    const body = structuredClone(data("llamacpp-completion.json"));
    body.completion_probabilities[0].top_logprobs.forEach((e, i) => (e.logprob = logprobs[i] ?? logprobs.at(-1)));
    return body;
  };
  const refused = (code, fields) => (e) => {
    assert.ok(e instanceof S.ServerError, String(e));
    assert.equal(e.code, code);
    for (const [k, v] of Object.entries(fields)) assert.equal(e.vars[k], v, k);
    return true;
  };
  const over = llama([-0.1, -0.5, -1, -2, -3]); // Σ p = 2.06437…
  assert.throws(() => S.parseLlamaCompletion(over, 8000), refused("contradictory_mass", { field: "completion_probabilities[0].top_logprobs", sum: "2.06437", rest: "-1.06437" }));
  const chat = structuredClone(doc.vllm_chat);
  for (const e of chat.choices[0].logprobs.content[0].top_logprobs) e.logprob = -0.2;
  assert.throws(() => S.parseOpenAi(chat, null), refused("contradictory_mass", { field: "logprobs.content[0].top_logprobs" }));
  const legacy = { choices: [{ logprobs: { top_logprobs: [{ " Paris": -0.05, " the": -0.9 }] } }] };
  assert.throws(() => S.parseOpenAi(legacy, null), refused("contradictory_mass", { field: "logprobs.top_logprobs[0]" }));
  // a sum past 1 by rounding only is taken, its rest 0
  const rounded = S.parseLlamaCompletion(llama([Math.log(0.6), Math.log(0.4004), -Infinity]), 8000);
  assert.deepEqual(rounded.coverage, { kind: "top", listed: 5, restMass: 0 });
  // the most likely token below 1/8000: no distribution over 8,000 tokens has that
  assert.throws(() => S.parseLlamaCompletion(llama([-9.5, -10]), 8000), refused("contradictory_top", { p: "7.49e-5", vocab: 8000 }));
  assert.equal(S.parseLlamaCompletion(llama([-8.9, -10]), 8000).coverage.kind, "top", "1/8000 < e^-8.9");
  // without a size, the most the core reads (2^20); a sum that rounds to 0 is below it
  const tiny = { choices: [{ logprobs: { content: [{ top_logprobs: [{ token: "a", logprob: -800 }, { token: "b", logprob: -801 }] }] } }] };
  assert.throws(() => S.parseOpenAi(tiny, null), refused("contradictory_top", { field: "logprobs.content[0].top_logprobs", p: "0", vocab: 1048576 }));
  tiny.choices[0].logprobs.content[0].top_logprobs[0].logprob = -12;
  assert.ok(S.parseOpenAi(tiny, null).coverage.restMass < 1);

  // through the client, the refusal names the server, in English and Chinese
  const server = fakeFetch({ "/completion": over });
  const info = { url: "http://127.0.0.1:8080", api: "llama.cpp", kind: "llama.cpp", model: "m", vocabSize: 8000, hasIds: true, maxTop: null, endpoint: "completion" };
  const client = new S.ServerClient(info.url, { fetch: server.fetch, page: loopbackPage });
  const e = await client.next(info, { ids: [5, 6], text: "ab", prompt: "ab", appended: "" }, 5).then(() => assert.fail("resolved"), (x) => x);
  assert.equal(e.code, "contradictory_mass");
  S.setLang("en");
  assert.equal(
    S.describeServerError(e),
    "The answer from http://127.0.0.1:8080 contradicts itself: the probabilities of the tokens in completion_probabilities[0].top_logprobs add up to 2.06437, more than 1, which would leave the rest of the vocabulary -1.06437. The page takes no step from it; check how the server computes its log-probabilities.",
  );
  S.setLang("zh");
  assert.match(S.describeServerError(e), /^http:\/\/127\.0\.0\.1:8080 的应答自相矛盾：completion_probabilities\[0\]\.top_logprobs 里各 Token 的概率加起来是 2\.06437，超过 1/);
  S.setLang("en");
});

test("requests: ids and n_probs for llama.cpp (whole vocabulary up to 32,000, else top N), text for servers without ids", () => {
  const llama = { url: "http://127.0.0.1:8080", api: "llama.cpp", kind: "llama.cpp", model: "m", vocabSize: 8000, hasIds: true, maxTop: null, endpoint: "completion" };
  const ctx = { ids: [5, 6, 7], text: "ab", prompt: "a", appended: "b" };
  assert.deepEqual(S.nextTokenRequest(llama, ctx, S.candidatesToAsk(llama, 200)), {
    method: "POST",
    path: "/completion",
    body: { prompt: [5, 6, 7], n_predict: 1, n_probs: 8000, cache_prompt: true },
  });
  assert.equal(S.candidatesToAsk({ ...llama, vocabSize: 151_936 }, 200), 200);
  assert.equal(S.candidatesToAsk({ ...llama, vocabSize: 151_936 }, 1e9), S.MAX_TOP_N);
  const ollama = { ...llama, api: "openai", kind: "ollama", model: "qwen2.5:7b", vocabSize: null, hasIds: false, maxTop: 20, endpoint: "completions" };
  const r = S.nextTokenRequest(ollama, ctx, S.candidatesToAsk(ollama, 200));
  assert.equal(r.path, "/v1/completions");
  assert.equal(r.body.prompt, "ab", "Ollama cannot take token ids");
  assert.equal(r.body.logprobs, 20, "Ollama lists at most 20");
  const chat = S.nextTokenRequest({ ...ollama, kind: "vllm", endpoint: "chat" }, ctx, 20);
  assert.deepEqual(chat.body.messages, [{ role: "user", content: "a" }, { role: "assistant", content: "b" }]);
  assert.equal(chat.body.continue_final_message, true);
  assert.equal(chat.body.top_logprobs, 20);
});

test("detection: Ollama by /api/version (too old below 0.12.11), vLLM by owned_by, llama.cpp by n_vocab", async () => {
  const ollama = fakeFetch({ "/v1/models": doc.ollama_models, "/api/version": doc.ollama_version });
  const info = await new S.ServerClient("127.0.0.1:11434", { fetch: ollama.fetch, page: loopbackPage }).connect();
  assert.deepEqual([info.kind, info.api, info.model, info.hasIds, info.maxTop, info.url], ["ollama", "openai", "qwen2.5:7b", false, 20, "http://127.0.0.1:11434"]);
  const old = fakeFetch({ "/v1/models": doc.ollama_models, "/api/version": doc.ollama_version_old });
  assert.equal(await codeOf(() => new S.ServerClient("http://127.0.0.1:11434", { fetch: old.fetch, page: loopbackPage }).connect()), "too_old");
  const vllm = fakeFetch({ "/v1/models": doc.vllm_models });
  const v = await new S.ServerClient("http://10.0.0.5:8000/", { fetch: vllm.fetch, page: loopbackPage }).connect();
  assert.deepEqual([v.kind, v.api, v.vocabSize, v.maxTop], ["vllm", "openai", null, 20]);
  const llama = fakeFetch({ "/v1/models": data("llamacpp-models.json") });
  const l = await new S.ServerClient("http://127.0.0.1:8080", { fetch: llama.fetch, page: loopbackPage }).connect();
  assert.deepEqual([l.kind, l.api, l.vocabSize, l.hasIds], ["llama.cpp", "llama.cpp", 8000, true]);
  const forced = await new S.ServerClient("http://127.0.0.1:8080", { fetch: llama.fetch, page: loopbackPage }).connect("openai", "chat");
  assert.deepEqual([forced.api, forced.endpoint], ["openai", "chat"], "the user may override the API");
});

test("addresses: http(s) only, a missing scheme means http://; the page's CSP is read like the browser does", () => {
  assert.equal(S.normaliseAddress("127.0.0.1:8080").href, "http://127.0.0.1:8080/");
  for (const bad of ["", "ftp://x", "javascript:alert(1)", "http://user:pw@127.0.0.1:8080", "http://"]) {
    assert.throws(() => S.normaliseAddress(bad), (e) => e.code === "bad_address", bad);
  }
  const served = "default-src 'self'; connect-src 'self' http://127.0.0.1:* http://localhost:* http://[::1]:*";
  const allows = (u, origin = "http://127.0.0.1:8000") => S.cspAllowsConnect(served, new URL(u), origin);
  assert.equal(allows("http://127.0.0.1:8080/completion"), true);
  assert.equal(allows("http://localhost:11434/v1/models"), true);
  assert.equal(allows("http://[::1]:8080/v1/models"), true);
  assert.equal(allows("http://192.168.1.20:8000/v1/models"), false);
  assert.equal(allows("https://gpu.example.edu/v1/models"), false);
  assert.equal(S.cspAllowsConnect("default-src 'none'; connect-src 'none'", new URL("http://127.0.0.1:8080/"), "null"), false);
  assert.equal(S.cspAllowsConnect("script-src 'self'", new URL("http://127.0.0.1:8080/"), "null"), true);
});

test("failures are classified from what the page can observe", () => {
  const base = { target: new URL("http://127.0.0.1:8080/v1/models"), pageOrigin: "http://127.0.0.1:8000", pageProtocol: "http:", pageHostname: "127.0.0.1", cspAllows: true, reachable: false };
  const code = (over) => S.classifyFailure({ ...base, ...over }).code;
  assert.equal(code({}), "refused");
  assert.equal(code({ reachable: true }), "cors");
  assert.equal(code({ reachable: true, pageOrigin: "null", pageProtocol: "file:", pageHostname: "" }), "ollama_origin");
  assert.equal(code({ reachable: true, target: new URL("http://127.0.0.1:11434/v1/models") }), "ollama_origin");
  assert.equal(code({ status: 403, kind: "ollama" }), "ollama_origin");
  assert.equal(code({ pageOrigin: "http://course.example.edu", pageHostname: "course.example.edu" }), "private_network");
  assert.equal(code({ pageOrigin: "https://course.example.edu", pageProtocol: "https:", pageHostname: "course.example.edu" }), "refused");
  assert.equal(code({ cspAllows: false }), "blocked_by_page");
  assert.equal(code({ cspAllows: false, connectNone: true }), "no_network");
  assert.equal(S.cspConnectsNowhere("default-src 'none'; script-src 'sha256-x'; connect-src 'none'"), true);
  assert.equal(S.cspConnectsNowhere("default-src 'none'; connect-src http://127.0.0.1:*"), false);
  assert.equal(code({ status: 401 }), "unauthorized");
  assert.equal(code({ status: 404, body: "Not Found" }), "not_found");
  assert.equal(code({ status: 500, body: "boom" }), "http");
  assert.equal(code({ timedOut: true }), "timeout");
});

test("every error is worded in zh and en, with the command that fixes it and no placeholder left", () => {
  const vars = { url: "http://127.0.0.1:11434", origin: "null", port: "11434", detail: "d", status: 500, server: "Ollama", field: "top_logprobs", sum: "1.5", rest: "-0.5", p: "1e-9", vocab: 8000 };
  const codes = ["bad_address", "blocked_by_page", "no_network", "private_network", "refused", "cors", "ollama_origin", "unauthorized", "not_found", "too_old", "http", "bad_response", "contradictory_mass", "contradictory_top", "timeout", "loading", "no_model", "cut_off", "too_large", "model_changed", "mixed_content", "logprobs_off", "cancelled", "connect_timeout"];
  const fixes = { refused: /llama-server .*--port 11434|ollama serve/, ollama_origin: /OLLAMA_ORIGINS='\*' ollama serve/, private_network: /https/, blocked_by_page: /ssh -N -L 11434:127\.0\.0\.1:11434/, too_old: /0\.12\.11/ };
  for (const lang of ["en", "zh"]) {
    S.setLang(lang);
    const seen = new Set();
    for (const c of codes) {
      const m = S.describeServerError(new S.ServerError({ code: c, vars }));
      assert.ok(!/\{\w+\}/.test(m) && !m.startsWith("server.error"), `${lang} ${c}: ${m}`);
      assert.ok(lang === "en" || /[\u4e00-\u9fff]/.test(m), `${c} is Chinese in zh: ${m}`);
      if (fixes[c]) assert.match(m, fixes[c], `${lang} ${c}`);
      seen.add(m);
    }
    assert.equal(seen.size, codes.length, "each error has its own message");
  }
  S.setLang("en");
});

test("an HTTP server that is not a model server: not_found; a closed port: refused", async () => {
  const plain = createServer((_, res) => res.writeHead(404).end("Not Found"));
  await new Promise((r) => plain.listen(0, "127.0.0.1", r));
  const { port } = plain.address();
  assert.equal(await codeOf(() => new S.ServerClient(`http://127.0.0.1:${port}`).connect()), "not_found");
  await new Promise((r) => plain.close(r));
  assert.equal(await codeOf(() => new S.ServerClient(`http://127.0.0.1:${port}`).connect()), "refused");
});

test("the page's CSP is checked before any request: nothing is sent to an address it refuses", async () => {
  const f = fakeFetch({});
  const page = { ...loopbackPage, csp: "connect-src 'self' http://127.0.0.1:* http://localhost:*" };
  assert.equal(await codeOf(() => new S.ServerClient("http://192.168.1.20:8000", { fetch: f.fetch, page }).connect()), "blocked_by_page");
  assert.equal(f.asked.length, 0);
});

// --- against llama.cpp's real server (the project's model as GGUF) ---

let server;
before(async () => {
  server = await startLlamaServer({ exact: true });
});
after(() => server?.stop());

function logSoftmax(logits) {
  let max = -Infinity;
  for (const l of logits) max = Math.max(max, l);
  let sum = 0;
  for (const l of logits) sum += Math.exp(l - max);
  return Array.from(logits, (l) => l - max - Math.log(sum));
}

test("live llama.cpp: detected, tokenises, and the full-vocabulary answer as logits equals our forward", async () => {
  const client = new S.ServerClient(server.url);
  const info = await client.connect();
  assert.deepEqual([info.kind, info.api, info.vocabSize, info.hasIds], ["llama.cpp", "llama.cpp", 8000, true]);
  const gen = new Generator(weights, tokenizer);
  gen.setPrompt("中国的首都是");
  const pieces = await client.tokenize(info, "中国的首都是");
  assert.deepEqual(pieces.map((p) => p.id), Array.from(gen.tokens()));
  assert.deepEqual(pieces.map((p) => p.piece), ["中国", "的", "首都", "是"]);
  const ctx = { ids: Array.from(gen.tokens()), text: "中国的首都是", prompt: "中国的首都是", appended: "" };
  const dist = await client.next(info, ctx, 200);
  assert.deepEqual(dist.coverage, { kind: "full" }, "8,000 ≤ 32,000: the whole vocabulary, exact");
  assert.equal(dist.entries[0].text, "北京");
  const { logits, coverage } = S.toLogits(dist, info.vocabSize, () => -1);
  assert.equal(coverage.kind, "full");
  const ours = logSoftmax(gen.logits());
  let worst = 0;
  for (let i = 0; i < ours.length; i++) worst = Math.max(worst, Math.abs(ours[i] - logits[i]));
  assert.ok(worst < 5e-3, `max |Δ logprob| ${worst}`);
});

test("live llama.cpp /v1: completions and chat answers parse, top-N with an honest rest", async () => {
  const client = new S.ServerClient(server.url);
  const comp = await client.connect("openai");
  assert.equal(comp.endpoint, "completions");
  const ctx = { ids: [2759, 1405, 2219, 1107], text: "中国的首都是", prompt: "中国的首都是", appended: "" };
  const d = await client.next({ ...comp, maxTop: 20 }, ctx, 200);
  assert.equal(d.entries.length, 20);
  assert.equal(d.entries[0].id, 2218);
  assert.equal(d.coverage.kind, "top");
  const listed = d.entries.reduce((s, e) => s + Math.exp(e.logprob), 0);
  assert.ok(Math.abs(listed + d.coverage.restMass - 1) < 1e-9);
  const chat = await client.connect("openai", "chat");
  const c = await client.next({ ...chat, maxTop: 5 }, { ...ctx, appended: "北京" }, 5);
  assert.equal(c.entries.length, 5);
  assert.ok(c.entries.every((e) => Number.isInteger(e.id) && e.logprob <= 0));
});
