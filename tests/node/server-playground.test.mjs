// The page's controller (www/src/playground/) over the real server source and llama.cpp's real
// server (issue 12's leftovers): a token the server never listed is refused as the server source's
// own failure (worded by it, not the decoding core's, and not "stopped answering"); two prompt
// resets that overlap on a slow server end on the later prompt, with no stale distribution shown
// and no request of the earlier prompt left running. The controller is bundled from the page's
// TypeScript with esbuild, over this process's wasm package (the real core).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Generator, step, weights, tokenizer } from "./load.mjs";
import { startLlamaServer } from "./llama-server.mjs";
import { importTs } from "./ts.mjs";


const mod = await importTs(
  "server-playground",
  `export { Playground } from "./playground/playground";
   export { ServerSource } from "./sources/server";
   export { ServerClient } from "./server/client";
   export { PRESETS } from "./presets";
   export { initialState } from "./state";
   export { setLang } from "./i18n";`,
  { page: true },
);
mod.setLang("en");
let server;
before(async () => {
  server = await startLlamaServer({ exact: true });
});
after(() => server?.stop());

/** Resolves once `ready()` holds (polled), or fails after `ms`. */
async function until(ready, what, ms = 15_000) {
  const end = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A fetch that records every request to the server (path, JSON body) and how many are still open,
 * and holds a /tokenize of `slowText` back for `delay` ms (a slow server), honouring its abort signal.
 */
function recordingFetch(slowText = null, delay = 0) {
  const seen = { requests: [], open: 0, aborted: [] };
  const fetchFn = async (url, init = {}) => {
    const path = new URL(url).pathname;
    const body = typeof init.body === "string" ? JSON.parse(init.body) : null;
    seen.requests.push({ path, body });
    seen.open++;
    try {
      if (path === "/tokenize" && slowText !== null && body?.content === slowText) {
        await new Promise((resolve, reject) => {
          const timer = setTimeout(resolve, delay);
          init.signal?.addEventListener("abort", () => {
            clearTimeout(timer);
            seen.aborted.push(path);
            reject(new DOMException("aborted", "AbortError"));
          });
        });
      }
      return await fetch(url, init);
    } finally {
      seen.open--;
    }
  };
  return { seen, fetchFn };
}

function playground(source) {
  const preset = mod.PRESETS[0];
  const pg = new mod.Playground(preset, mod.initialState("en", preset, 7));
  pg.state.params = { ...pg.state.params, strategy: "greedy" };
  pg.server = source;
  return pg;
}

test("a token the server never listed is refused as the server source's failure, worded by it", async () => {
  const client = new mod.ServerClient(server.url);
  const full = await mod.ServerSource.connect(client);
  // the same server as if its vocabulary were too large to ask for whole: the top 50 only
  const source = new mod.ServerSource(client, { ...full.info, maxTop: 50 });
  const pg = playground(source);
  pg.state.prompt = "中国的首都是";
  pg.selectSource("server");
  await until(() => pg.preview?.ok === true, "the first step's preview");
  assert.equal(pg.preview.result.rest.given, 50);
  const listed = new Set(pg.preview.result.candidates.map((c) => c.id));
  // an id the top 50 never named (the embedded model's vocabulary is 8,000)
  const unlisted = [...Array(8000).keys()].reverse().find((id) => !listed.has(id) && source.tokenText(id) === `#${id}`);
  pg.dispatch({ type: "force", id: unlisted });
  await until(() => pg.preview?.ok === false, "the refusal");
  assert.match(pg.preview.message, new RegExp(`^Token ${unlisted} is not in any of the server's answers for this text`));
  assert.equal(pg.sourceFailed, true, "shown as the source's failure (no “decoding core rejected” prefix)");
  assert.equal(pg.sourceLost, false, "the server did not stop answering");
  assert.equal(pg.state.path.length, 0, "nothing appended");
  // and the next step works
  pg.refresh();
  await until(() => pg.preview?.ok === true, "the preview again");
  assert.equal(pg.step(), true);
  await until(() => pg.state.path.length === 1, "one step");
  mod.setLang("zh");
  assert.throws(() => source.append(unlisted), (err) => err.name === "SourceError" && /不在服务对这段文本的任何应答里/.test(err.message));
  mod.setLang("en");
});

test("two prompt resets overlapping on a slow server: the later prompt wins, nothing stale, no request left running", async () => {
  const first = "The capital of France is";
  const second = "中国的首都是";
  const { seen, fetchFn } = recordingFetch(first, 600);
  const source = await mod.ServerSource.connect(new mod.ServerClient(server.url, { fetch: fetchFn }));
  const pg = playground(source);
  pg.state.prompt = "组件是";
  pg.selectSource("server");
  await until(() => pg.preview?.ok === true, "the first prompt's preview");
  seen.requests.length = 0;
  // the teacher changes the prompt twice while the first change is still being read
  pg.dispatch({ type: "setPrompt", prompt: first });
  pg.dispatch({ type: "setPrompt", prompt: second });
  await until(() => pg.preview?.ok === true && !pg.waiting, "the second prompt's preview");
  // past the moment the first prompt's slow answer would have landed
  await new Promise((resolve) => setTimeout(resolve, 900));
  const gen = new Generator(weights, tokenizer);
  gen.setPrompt(second);
  assert.deepEqual(source.history(), Array.from(gen.tokens()), "the context is the later prompt's");
  const want = step(gen.logits(), { strategy: "greedy" }).token;
  assert.equal(pg.preview.ok, true);
  assert.equal(pg.preview.result.token, want, "the distribution shown is the later prompt's (北京)");
  assert.equal(source.tokenText(pg.preview.result.token), "北京");
  const completions = seen.requests.filter((r) => r.path === "/completion");
  assert.ok(completions.every((r) => JSON.stringify(r.body.prompt) === JSON.stringify(Array.from(gen.tokens()))), `only the later prompt is asked about: ${JSON.stringify(completions.map((r) => r.body.prompt))}`);
  assert.deepEqual(seen.aborted, ["/tokenize"], "the earlier prompt's request was dropped, not left running");
  assert.equal(seen.open, 0, "no request still open");
  // and Step goes on from the later prompt
  assert.equal(pg.step(), true);
  await until(() => pg.state.path.length === 1, "one step");
  assert.equal(pg.state.path[0].id, want);
});
