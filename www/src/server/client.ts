// The model-server client: finds out which API answers at an address (`connect`), reads a prompt
// into ids, and asks for the next-token distribution of a context. Every failure becomes a
// ServerError with a code the page words (`describeServerError`). `fetch` and the page's facts
// (origin, CSP) are passed in, so the same code runs in the page and in Node tests.
import { classifyFailure, cspAllowsConnect, cspConnectsNowhere, normaliseAddress } from "./errors";
import { checkSameModel, parseJson, readAnswer } from "./answer";
import { parseLlamaCompletion, parseModels, parseOpenAi, parseTokenize, parseVersion, versionAtLeast } from "./parse";
import type { ModelsInfo } from "./parse";
import { candidatesToAsk, nextTokenRequest, tokenizeRequest } from "./requests";
import type { Context, HttpRequest } from "./requests";
import { ServerError } from "./types";
import type { Distribution, ServerApi, ServerInfo, ServerKind } from "./types";

/** Ollama answers with log-probabilities since this version. */
export const OLLAMA_MIN_VERSION = [0, 12, 11] as const;

export interface PageFacts {
  /** `location.origin`, "null" for file://. */
  origin: string;
  protocol: string;
  hostname: string;
  /** The page's Content-Security-Policy (from its meta tag), "" if none. */
  csp: string;
}

export interface ClientOptions {
  fetch?: typeof fetch;
  page?: PageFacts;
  /** Milliseconds before a request is given up (the first step of a long prompt can take seconds). */
  timeoutMs?: number;
  /** The same for Connect's quick questions (models, version, end token): a hung server is told sooner. */
  connectTimeoutMs?: number;
}

/** The facts of the page this code runs in (Node: a loopback origin, no CSP). */
export function currentPage(): PageFacts {
  const loc = (globalThis as { location?: Location }).location;
  const meta = (globalThis as { document?: Document }).document?.querySelector('meta[http-equiv="Content-Security-Policy"]');
  return {
    origin: loc?.origin ?? "http://127.0.0.1",
    protocol: loc?.protocol ?? "http:",
    hostname: loc?.hostname ?? "127.0.0.1",
    csp: meta?.getAttribute("content") ?? "",
  };
}

export class ServerClient {
  readonly base: URL;
  private readonly fetchFn: typeof fetch;
  private readonly page: PageFacts;
  private readonly timeoutMs: number;
  private readonly connectTimeoutMs: number;
  private kind: ServerKind | null = null;

  /** Throws ServerError("bad_address") for anything but an http(s) address. */
  constructor(address: string, options: ClientOptions = {}) {
    this.base = normaliseAddress(address);
    this.fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.page = options.page ?? currentPage();
    this.timeoutMs = options.timeoutMs ?? 120_000;
    this.connectTimeoutMs = Math.min(this.timeoutMs, options.connectTimeoutMs ?? 15_000);
  }

  /** The address without a trailing slash: requests append their path to it. */
  get url(): string {
    return this.base.href.replace(/\/+$/, "");
  }

  /**
   * Detects the server: llama.cpp (`/v1/models` with meta.n_vocab), vLLM, Ollama (`/api/version`,
   * ≥ 0.12.11) or another OpenAI-compatible server. `api` overrides the API the page speaks.
   */
  async connect(api?: ServerApi, endpoint?: "completions" | "chat"): Promise<ServerInfo> {
    const body = await this.request({ method: "GET", path: "/v1/models" }, undefined, this.connectTimeoutMs).catch((e: unknown) => {
      if (!(e instanceof ServerError)) throw e;
      // a web page, not JSON (another program on that port): not a model server
      if (e.code === "bad_response") throw new ServerError({ code: "not_found", vars: { ...e.vars, detail: "/v1/models is not JSON" } });
      // no prompt was sent yet: the server is hung or still starting
      if (e.code === "timeout") throw new ServerError({ code: "connect_timeout", vars: { ...e.vars, detail: Math.round(this.connectTimeoutMs / 1000) } });
      throw e;
    });
    const models: ModelsInfo = this.located(() => parseModels(body));
    let kind: ServerKind = models.kind ?? "openai";
    let version: number[] | null = null;
    if (kind !== "llama.cpp" && kind !== "vllm") {
      version = await this.ollamaVersion();
      if (version !== null) kind = "ollama";
    }
    this.kind = kind;
    if (kind === "ollama" && version !== null && !versionAtLeast(version, OLLAMA_MIN_VERSION)) {
      throw new ServerError({ code: "too_old", vars: { server: "Ollama", detail: version.join("."), version: version.join("."), needed: OLLAMA_MIN_VERSION.join(".") } });
    }
    const chosen: ServerApi = api ?? (kind === "llama.cpp" ? "llama.cpp" : "openai");
    return {
      url: this.url,
      api: chosen,
      kind,
      model: models.model,
      vocabSize: models.vocabSize,
      // llama.cpp answers with ids on every endpoint; vLLM only with --return-tokens-as-token-ids
      // (learned from its first answer), Ollama never.
      hasIds: kind === "llama.cpp",
      maxTop: kind === "ollama" || kind === "vllm" ? 20 : null,
      endpoint: chosen === "llama.cpp" ? "completion" : (endpoint ?? "completions"),
    };
  }

  /** The prompt's token ids and pieces by the server's own tokenizer; null where the server has none. */
  async tokenize(info: ServerInfo, text: string, signal?: AbortSignal): Promise<Array<{ id: number; piece: string | number[] }> | null> {
    const req = tokenizeRequest(info, text);
    if (req === null) return null;
    const body = await this.request(req, signal);
    return this.located(() => parseTokenize(body));
  }

  /**
   * The end-of-sequence id (llama.cpp: `/props` names the token, `/tokenize` with parse_special
   * gives its id), so the page can end at it like the embedded model; null where unknown.
   */
  async eosId(info: ServerInfo): Promise<number | null> {
    if (info.kind !== "llama.cpp") return null;
    try {
      const props = await this.request({ method: "GET", path: "/props" }, undefined, this.connectTimeoutMs);
      const eos = props !== null && typeof props === "object" ? (props as Record<string, unknown>)["eos_token"] : undefined;
      if (typeof eos !== "string" || eos === "") return null;
      const ids = parseTokenize(await this.request({ method: "POST", path: "/tokenize", body: { content: eos, parse_special: true } }, undefined, this.connectTimeoutMs));
      return ids.length === 1 && ids[0] !== undefined ? ids[0].id : null;
    } catch {
      return null;
    }
  }

  /** The distribution of the token after `context`, as many candidates as `candidatesToAsk` allows. */
  async next(info: ServerInfo, context: Context, topN: number, signal?: AbortSignal): Promise<Distribution> {
    const n = candidatesToAsk(info, topN);
    const body = await this.request(nextTokenRequest(info, context, n), signal);
    return this.located(() => {
      const dist = info.api === "llama.cpp" ? parseLlamaCompletion(body, info.vocabSize) : parseOpenAi(body, info.vocabSize);
      checkSameModel(info, body, dist);
      return dist;
    });
  }

  /** Runs a parser of this server's answer; its ServerError names this server's address. */
  private located<T>(parse: () => T): T {
    try {
      return parse();
    } catch (e) {
      throw this.locate(e);
    }
  }

  private locate(e: unknown): unknown {
    return e instanceof ServerError && e.vars["url"] === undefined ? new ServerError({ code: e.code, vars: { url: this.url, ...e.vars } }) : e;
  }

  private async ollamaVersion(): Promise<number[] | null> {
    try {
      const body = await this.request({ method: "GET", path: "/api/version" }, undefined, this.connectTimeoutMs);
      const v = body !== null && typeof body === "object" ? (body as Record<string, unknown>)["version"] : undefined;
      return typeof v === "string" ? parseVersion(v) : null;
    } catch {
      return null;
    }
  }

  /** One JSON request; any failure is classified into a ServerError. */
  async request(req: HttpRequest, signal?: AbortSignal, timeoutMs = this.timeoutMs): Promise<unknown> {
    const target = new URL(this.url + req.path);
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    const onAbort = (): void => timeout.abort();
    signal?.addEventListener("abort", onAbort);
    const facts = {
      target,
      pageOrigin: this.page.origin,
      pageProtocol: this.page.protocol,
      pageHostname: this.page.hostname,
      cspAllows: this.page.csp === "" || cspAllowsConnect(this.page.csp, target, this.page.origin),
      connectNone: this.page.csp !== "" && cspConnectsNowhere(this.page.csp),
      kind: this.kind,
    };
    try {
      if (!facts.cspAllows) throw new ServerError(classifyFailure({ ...facts, reachable: null }));
      let res: Response;
      try {
        res = await this.fetchFn(target.href, {
          method: req.method,
          headers: req.body ? { "content-type": "application/json" } : {},
          body: req.body ? JSON.stringify(req.body) : null,
          signal: timeout.signal,
          credentials: "omit",
          referrerPolicy: "no-referrer",
        });
      } catch (e) {
        if (signal?.aborted) throw e;
        if (timeout.signal.aborted) throw new ServerError(classifyFailure({ ...facts, reachable: null, timedOut: true }));
        throw new ServerError(classifyFailure({ ...facts, reachable: await this.probe(target) }));
      }
      let text: string;
      try {
        text = await readAnswer(res);
      } catch (e) {
        if (e instanceof ServerError) throw this.locate(e);
        if (signal?.aborted) throw e;
        if (timeout.signal.aborted) throw new ServerError(classifyFailure({ ...facts, reachable: null, timedOut: true }));
        // the connection closed mid-answer: the server stopped or restarted
        throw new ServerError({ code: "cut_off", vars: { url: this.url } });
      }
      if (!res.ok) throw new ServerError(classifyFailure({ ...facts, reachable: true, status: res.status, body: text }));
      return this.located(() => parseJson(text, req.path));
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Whether anything answers at all: a no-cors request succeeds (opaquely) even where CORS refuses. */
  private async probe(target: URL): Promise<boolean | null> {
    try {
      await this.fetchFn(new URL("/", target).href, { mode: "no-cors", credentials: "omit", signal: AbortSignal.timeout(5000) });
      return true;
    } catch (e) {
      // Node's fetch has no no-cors mode; say nothing rather than guess.
      return e instanceof TypeError && /no-cors|not supported|not implemented/i.test(String(e.message)) ? null : false;
    }
  }
}
