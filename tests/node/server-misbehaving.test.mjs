// A learner's own model server that misbehaves (tests/node/misbehaving-server.mjs, a fake llama.cpp
// in Node): still loading (503), an HTML error page, truncated or cut-off answers, null / -Infinity /
// NaN log-probabilities, an answer that stalls, a 50 MB answer, another model between two steps,
// an address typed with /v1. Each ends in a ServerError whose zh and en message names the server
// and what to do, never a raw TypeError or AbortError and never an empty address.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { importServerClient, importServerSource } from "./ts.mjs";
import { completion, startMisbehavingServer } from "./misbehaving-server.mjs";

const S = await importServerClient();
const Src = await importServerSource();
let srv;
let info;
before(async () => {
  srv = await startMisbehavingServer();
  info = await new S.ServerClient(srv.url).connect();
});
after(() => srv?.close());

const context = { ids: [0, 1], text: "ab", prompt: "ab", appended: "" };
const next = (options = {}) => new S.ServerClient(srv.url, options).next(info, context, 200);

/** The ServerError `fn` rejects with (fails on anything else), and its message in en and zh. */
async function failure(fn) {
  const err = await fn().then(
    () => assert.fail("resolved"),
    (e) => e,
  );
  assert.ok(err instanceof S.ServerError, `a ServerError, not ${err?.name}: ${err?.message}`);
  const words = {};
  for (const lang of ["en", "zh"]) {
    S.setLang(lang);
    words[lang] = S.describeServerError(err);
  }
  S.setLang("en");
  assert.match(words.zh, /[\u4e00-\u9fff]/);
  return { code: err.code, en: words.en, zh: words.zh };
}

/** A default answer with `change` applied to its top_logprobs, as JSON text. */
function answer(change) {
  const body = completion();
  change(body.completion_probabilities[0].top_logprobs);
  return JSON.stringify(body);
}

test("a server still loading its model (503): says so and to Connect again once it is ready", async () => {
  srv.reply("GET /v1/models", 503, JSON.stringify({ error: { code: 503, message: "Loading model", type: "unavailable_error" } }));
  try {
    const f = await failure(() => new S.ServerClient(srv.url).connect());
    assert.equal(f.code, "loading");
    assert.match(f.en, new RegExp(`${srv.url.replace(/[.:/]/g, "\\$&")} is still loading its model.*Connect again`));
    assert.match(f.zh, /还在加载模型/);
  } finally {
    srv.off("GET /v1/models");
  }
});

test("an error page: the JSON error's message or the HTML page's title, never its markup", async () => {
  srv.reply("POST /completion", 502, "<!doctype html><html><head><title>502 Bad Gateway</title><style>body{}</style></head><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>", "text/html");
  let f = await failure(() => next());
  assert.equal(f.code, "http");
  assert.match(f.en, /answered HTTP 502: 502 Bad Gateway/);
  assert.doesNotMatch(f.en + f.zh, /<|body\{/);
  srv.reply("POST /completion", 400, JSON.stringify({ error: { code: 400, message: "Prompt contains invalid tokens", type: "invalid_request_error" } }));
  f = await failure(() => next());
  assert.match(f.en, /answered HTTP 400: Prompt contains invalid tokens$/);
  srv.off("POST /completion");
});

test("an answer that is not JSON, truncated, null or of an unknown shape names the server's address", async () => {
  const bodies = ["<html><body>Welcome to nginx</body></html>", JSON.stringify(completion()).slice(0, 200), "null", JSON.stringify({ completion_probabilities: [] })];
  for (const text of bodies) {
    srv.reply("POST /completion", 200, text);
    const f = await failure(() => next());
    assert.equal(f.code, "bad_response");
    assert.ok(f.en.includes(`from ${srv.url} `) && f.zh.includes(srv.url), f.en);
  }
  srv.reply("GET /v1/models", 200, JSON.stringify({ object: "list", data: [] }));
  const f = await failure(() => new S.ServerClient(srv.url).connect());
  assert.equal(f.code, "no_model", "no model loaded (Ollama or LM Studio without one)");
  assert.match(f.en, /no model loaded/);
  srv.off("GET /v1/models");
  srv.off("POST /completion");
});

test("log-probabilities null, \"-Infinity\" or a bare -Infinity are probability 0; NaN is refused naming the token", async () => {
  for (const text of [answer((t) => (t[7].logprob = null)), answer((t) => (t[7].logprob = "-Infinity")), answer((t) => (t[7].logprob = "X")).replace('"X"', "-Infinity")]) {
    srv.reply("POST /completion", 200, text);
    const d = await next();
    assert.equal(d.entries.length, 8);
    assert.equal(d.entries.at(-1).logprob, -Infinity);
    assert.equal(d.entries.at(-1).text, "h");
  }
  for (const text of [answer((t) => (t[2].logprob = "NaN")), answer((t) => (t[2].logprob = "X")).replace('"X"', "NaN")]) {
    srv.reply("POST /completion", 200, text);
    const f = await failure(() => next());
    assert.equal(f.code, "bad_response");
    assert.match(f.en, /“c” \(id 2\).*NaN/);
  }
  srv.reply("POST /completion", 200, answer((t) => t.forEach((e) => (e.logprob = null))));
  assert.match((await failure(() => next())).en, /every listed token has probability 0/);
  srv.off("POST /completion");
});

test("the server goes away in the middle of an answer: worded as cut off, not a raw TypeError", async () => {
  srv.on("POST /completion", (_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.write('{"completion_probabilities": [');
    setTimeout(() => res.destroy(), 50);
  });
  const f = await failure(() => next());
  assert.equal(f.code, "cut_off");
  assert.match(f.en, /closed the connection before its answer was complete/);
  srv.off("POST /completion");
});

test("an answer that stalls (before or after its headers) times out with the timeout's message, and no request stays open", async () => {
  srv.on("POST /completion", () => {});
  assert.equal((await failure(() => next({ timeoutMs: 300 }))).code, "timeout");
  srv.on("POST /completion", (_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.write('{"completion_probabilities": [');
  });
  const f = await failure(() => next({ timeoutMs: 300 }));
  assert.equal(f.code, "timeout");
  assert.match(f.en, /No answer from .* in time/);
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(srv.open, 0, "the stalled requests were closed");
  srv.off("POST /completion");
});

test("a 50 MB answer is refused as too large (an answer to this page is at most a few MB)", async () => {
  const pad = JSON.stringify("x".repeat(50 * 1024 * 1024));
  srv.reply("POST /completion", 200, JSON.stringify(completion()).replace("{", `{"pad":${pad},`));
  const f = await failure(() => next());
  assert.equal(f.code, "too_large");
  assert.match(f.en, /more than 16 MB/);
  srv.off("POST /completion");
});

test("an address typed with /v1 (as OpenAI clients want it) or /v1/ reaches the server", async () => {
  for (const typed of [`${srv.url}/v1`, `${srv.url}/v1/`, `${srv.url.replace("http://", "")}/v1`]) {
    const client = new S.ServerClient(typed);
    assert.equal(client.url, srv.url);
    assert.equal((await client.connect()).kind, "llama.cpp");
  }
});

test("another model between two steps (ids beyond the vocabulary, another name, a token's text changed): Connect again", async () => {
  const source = new Src.ServerSource(new Src.ServerClient(srv.url), info);
  await source.reset("ab");
  assert.ok(source.nextLogits() !== null);
  const swaps = [
    () => srv.reply("POST /completion", 200, answer((t) => t.push({ id: 900, token: "z", bytes: [122], logprob: -9 }))),
    () => srv.reply("POST /completion", 200, JSON.stringify({ ...completion(), model: "qwen2.5-0.5b.gguf" })),
    () => srv.reply("POST /completion", 200, answer((t) => (t[1] = { ...t[1], token: "中", bytes: [228, 184, 173] }))),
  ];
  for (const swap of swaps) {
    swap();
    for (const lang of ["en", "zh"]) {
      Src.setLang(lang);
      await source.reset(`ab${lang}`).then(
        () => assert.fail("resolved"),
        (e) => assert.match(e.message, lang === "en" ? /now serves another model.*Connect again/ : /换了模型.*重新连接/),
      );
    }
    Src.setLang("en");
  }
  srv.off("POST /completion");
});

test("Connect to a server that never answers its end token (/props) or version is bounded by the connect timeout", { timeout: 10_000 }, async () => {
  srv.on("GET /props", () => {});
  srv.on("GET /api/version", () => {});
  try {
    const started = Date.now();
    const source = await Src.ServerSource.connect(new Src.ServerClient(srv.url, { connectTimeoutMs: 300 }));
    assert.equal(source.eosId, undefined, "no end token known, Connect still done");
    assert.ok(Date.now() - started < 3000);
  } finally {
    srv.off("GET /props");
    srv.off("GET /api/version");
  }
});

test("an https page and a plain-http server on the network: says the browser blocks it and what to run", () => {
  const facts = { pageOrigin: "https://course.example.edu", pageProtocol: "https:", pageHostname: "course.example.edu", cspAllows: true, reachable: false };
  const code = (target) => S.classifyFailure({ ...facts, target: new URL(target) }).code;
  assert.equal(code("http://192.168.1.20:8080/v1/models"), "mixed_content");
  assert.equal(code("http://127.0.0.1:8080/v1/models"), "refused", "loopback is allowed from https: nothing answers there");
  assert.equal(code("https://192.168.1.20:8080/v1/models"), "refused");
  const m = S.describeServerError(new S.ServerError({ code: "mixed_content", vars: { url: "http://192.168.1.20:8080", port: "8080" } }));
  assert.match(m, /opened over https.*plain-http server \(http:\/\/192\.168\.1\.20:8080\).*ssh -N -L 8080:127\.0\.0\.1:8080/);
});

test("broken UTF-8 in token bytes: a byte that never starts a character (0xFF) shows at once as U+FFFD; a cut character completes later", () => {
  assert.deepEqual(Src.appendBytes([], [0xff]), { piece: "\ufffd", pending: [] });
  assert.deepEqual(Src.appendBytes([], [0x80]), { piece: "\ufffd", pending: [] });
  assert.deepEqual(Src.appendBytes([0xe4], [0x61]), { piece: "\ufffda", pending: [] }, "a lead byte followed by ASCII");
  assert.deepEqual(Src.appendBytes([], [0xf0, 0x9f]), { piece: "", pending: [0xf0, 0x9f] });
  assert.deepEqual(Src.appendBytes([0xf0, 0x9f], [0x98, 0x80]), { piece: "😀", pending: [] });
  assert.equal(Src.tokenLabelOf("\ufffd", [0xff]), "<FF>");
});

test("a server started without log-probabilities allowed (vLLM --max-logprobs 0: HTTP 400): says how to start it", async () => {
  srv.reply("POST /completion", 400, JSON.stringify({ object: "error", message: "Requested sample logprobs of 8, which is greater than max allowed: 0", type: "BadRequestError", code: 400 }));
  const f = await failure(() => next());
  assert.equal(f.code, "logprobs_off");
  assert.match(f.en, /refuses to return log-probabilities \(Requested sample logprobs of 8, which is greater than max allowed: 0\).*--max-logprobs/);
  assert.match(f.zh, /--max-logprobs/);
  srv.off("POST /completion");
});

test("Connect to a server that never answers /v1/models: bounded, and worded for Connect (no prompt was sent)", { timeout: 10_000 }, async () => {
  srv.on("GET /v1/models", () => {});
  try {
    const f = await failure(() => new S.ServerClient(srv.url, { connectTimeoutMs: 300 }).connect());
    assert.equal(f.code, "connect_timeout");
    assert.match(f.en, /No answer from .* to the page's first question \(GET \/v1\/models\).*click Connect again/);
    assert.doesNotMatch(f.en, /prompt/);
  } finally {
    srv.off("GET /v1/models");
  }
});

test("Cancel while the prompt is being read: the read rejects as cancelled (not a prompt error), and the next request reads it again", async () => {
  const source = new Src.ServerSource(new Src.ServerClient(srv.url), info);
  srv.on("POST /tokenize", () => {});
  const reading = source.reset("abc");
  await new Promise((resolve) => setTimeout(resolve, 100));
  source.cancel();
  await reading.then(
    () => assert.fail("resolved"),
    (e) => assert.match(e.message, /^Cancelled: the server at .* had not answered after \d+ s\. Click Step to ask again/),
  );
  assert.equal(source.promptError, null, "Step is not blocked by a prompt error");
  assert.equal(source.nextLogits(), null);
  srv.off("POST /tokenize");
  const next = await source.loadNextLogits();
  assert.equal(next.logits.length, 8);
  assert.deepEqual(source.history(), [0, 1, 2], "the prompt was read again");
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(srv.open, 0, "the hung request was closed");
});
