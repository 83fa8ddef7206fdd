// A fake llama.cpp server in Node (http on a free loopback port) that misbehaves on request: each
// test swaps in a handler for a path (a 503 while loading, an HTML page, truncated JSON, an answer
// that never ends…). By default it answers like llama.cpp's real server over a vocabulary of
// `VOCAB` one-letter tokens, so a page can connect, read a prompt and step over it.
import { createServer } from "node:http";

export const VOCAB = ["a", "b", "c", "d", "e", "f", "g", "h"];

/** log-softmax of −id·0.5 over `tokens`: token 0 most likely; `ids` are the ones listed (all by default). */
export function completion(ids = VOCAB.map((_, i) => i), tokens = VOCAB) {
  const z = tokens.reduce((s, _, i) => s + Math.exp(-i * 0.5), 0);
  const top_logprobs = ids.map((id) => ({ id, token: tokens[id], bytes: [...Buffer.from(tokens[id])], logprob: -id * 0.5 - Math.log(z) }));
  return { content: tokens[0], model: "fake.gguf", completion_probabilities: [{ ...top_logprobs[0], top_logprobs }] };
}

/** The default answers, path → (request body) → JSON. */
export const llamaRoutes = {
  "GET /v1/models": () => ({ object: "list", data: [{ id: "fake.gguf", object: "model", owned_by: "llamacpp", meta: { n_vocab: VOCAB.length } }] }),
  "GET /props": () => ({ eos_token: "h" }),
  "POST /tokenize": (body) => ({
    tokens: [...String(body?.content ?? "")].map((ch) => ({ id: Math.max(0, VOCAB.indexOf(ch)), piece: ch })),
  }),
  "POST /completion": () => completion(),
};

/**
 * Starts the server. `server.on(route, handler)`: from now on `route` ("POST /completion") is
 * answered by `handler(req, res, body)` (raw Node response: any status, any bytes, or none);
 * `server.off(route)` restores the default. `server.asked` lists "METHOD /path" of every request;
 * `server.open` counts requests not yet answered or closed.
 */
export async function startMisbehavingServer() {
  const handlers = new Map();
  const asked = [];
  const sockets = new Set();
  const state = { open: 0 };
  const http = createServer((req, res) => {
    res.setHeader("access-control-allow-origin", req.headers.origin ?? "*");
    res.setHeader("access-control-allow-headers", "content-type");
    if (req.method === "OPTIONS") return res.end();
    const route = `${req.method} ${new URL(req.url, "http://x").pathname}`;
    asked.push(route);
    state.open++;
    res.on("close", () => state.open--);
    let raw = "";
    req.on("data", (d) => (raw += d));
    req.on("end", () => {
      let body = null;
      try {
        body = raw === "" ? null : JSON.parse(raw);
      } catch {
        // not JSON: handlers see null
      }
      const custom = handlers.get(route);
      if (custom) return custom(req, res, body);
      const answer = llamaRoutes[route];
      if (!answer) {
        res.writeHead(404, { "content-type": "application/json" });
        return res.end(JSON.stringify({ error: { code: 404, message: "File Not Found", type: "not_found_error" } }));
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(answer(body)));
    });
  });
  http.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${http.address().port}`;
  return {
    url,
    asked,
    get open() {
      return state.open;
    },
    on: (route, handler) => handlers.set(route, handler),
    off: (route) => handlers.delete(route),
    /** Answer `route` with this status and body text (and content type). */
    reply: (route, status, text, type = "application/json") =>
      handlers.set(route, (_req, res) => {
        res.writeHead(status, { "content-type": type });
        res.end(text);
      }),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
