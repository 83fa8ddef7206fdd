// Why a request to a model server failed, told apart from what the page can observe. In a
// browser every network-level failure (nothing listening, CORS, the local-network block, the
// page's own CSP) is the same opaque TypeError, so the page gathers facts first (its origin, its
// CSP, whether a no-cors probe reaches the server) and `classifyFailure` decides from them.
import { errorDetail } from "./answer";
import { ServerError } from "./types";
import type { ServerErrorInfo, ServerKind } from "./types";

/** Ollama's default port: a refused origin there is Ollama's OLLAMA_ORIGINS check. */
const OLLAMA_PORT = "11434";

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(h) || h === "::1";
}

/** Loopback or a private / link-local address: what a public http page may not reach. */
export function isLocalHost(host: string): boolean {
  if (isLoopbackHost(host)) return true;
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  const v4 = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(h);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
  }
  return /^f[cd][0-9a-f]{2}:/.test(h) || /^fe[89ab][0-9a-f]:/.test(h) || h.endsWith(".local");
}

/** Reads a server address the user typed; adds http:// when no scheme is given. */
export function normaliseAddress(input: string): URL {
  const trimmed = input.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new ServerError({ code: "bad_address", vars: { url: trimmed } });
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.hostname === "" || url.username !== "" || url.password !== "") {
    throw new ServerError({ code: "bad_address", vars: { url: trimmed } });
  }
  // OpenAI clients take the address with /v1: the page adds that itself
  url.pathname = url.pathname.replace(/\/v1\/?$/i, "/");
  return url;
}

/** Whether the policy allows no connection at all (`connect-src 'none'`, or default-src 'none' alone). */
export function cspConnectsNowhere(csp: string): boolean {
  const find = (name: string): string | undefined =>
    csp
      .split(";")
      .map((d) => d.trim().toLowerCase())
      .find((d) => d.split(/\s+/)[0] === name);
  const directive = find("connect-src") ?? find("default-src");
  return directive !== undefined && directive.split(/\s+/).slice(1).join(" ") === "'none'";
}

/**
 * Whether a page whose Content-Security-Policy is `csp` may fetch `target` (connect-src, or
 * default-src when there is none). Covers the forms a page uses: 'none', 'self', *, schemes
 * (`https:`) and host sources with `*.` hosts and `:*` ports.
 */
export function cspAllowsConnect(csp: string, target: URL, pageOrigin: string): boolean {
  const directives = new Map<string, string[]>();
  for (const part of csp.split(";")) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name && !directives.has(name.toLowerCase())) directives.set(name.toLowerCase(), values);
  }
  const sources = directives.get("connect-src") ?? directives.get("default-src");
  if (sources === undefined) return true;
  const defaultPort = target.protocol === "https:" ? "443" : "80";
  const port = target.port || defaultPort;
  return sources.some((s) => {
    const src = s.toLowerCase();
    if (src === "'none'") return false;
    if (src === "'self'") return pageOrigin !== "null" && target.origin === pageOrigin;
    if (src === "*") return target.protocol === "http:" || target.protocol === "https:";
    if (/^[a-z][a-z0-9+.-]*:$/.test(src)) return target.protocol === src;
    const m = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\*\.)?([^:/]+|\[[^\]]+\])(?::(\*|\d+))?(?:\/.*)?$/.exec(src);
    if (!m) return false;
    const [, scheme, wildcard, host = "", srcPort] = m;
    if (scheme && `${scheme}:` !== target.protocol && !(scheme === "http" && target.protocol === "https:")) return false;
    const hostOk = wildcard ? target.hostname.endsWith(`.${host}`) : target.hostname === host;
    const portOk = srcPort === "*" || (srcPort ?? (scheme === "https" ? "443" : "80")) === port;
    return hostOk && portOk;
  });
}

/** What the page observed when a request failed. */
export interface FailureFacts {
  target: URL;
  /** `location.origin` ("null" for a page opened from a file). */
  pageOrigin: string;
  /** `location.protocol` and `location.hostname` of the page. */
  pageProtocol: string;
  pageHostname: string;
  /** False when the page's CSP refuses the address. */
  cspAllows: boolean;
  /** The page's CSP allows no connection at all (the offline single file). */
  connectNone?: boolean;
  /** A network failure: did a no-cors probe still reach the server? null: not probed (or not a network failure). */
  reachable: boolean | null;
  /** An HTTP answer's status and the start of its body, when there was one. */
  status?: number;
  body?: string;
  /** Which server answered, if known (from an earlier request). */
  kind?: ServerKind | null;
  timedOut?: boolean;
}

export function classifyFailure(f: FailureFacts): ServerErrorInfo {
  const url = f.target.origin;
  const port = f.target.port || (f.target.protocol === "https:" ? "443" : "80");
  const base = { url, origin: f.pageOrigin, port };
  const ollama = f.kind === "ollama" || port === OLLAMA_PORT;
  if (f.timedOut) return { code: "timeout", vars: base };
  if (f.status !== undefined) {
    const detail = errorDetail(f.body ?? "");
    if (f.status === 403 && ollama) return { code: "ollama_origin", vars: base };
    if (f.status === 403 && /origin|cors/i.test(detail)) return { code: "cors", vars: base };
    if (f.status === 401) return { code: "unauthorized", vars: base };
    // llama.cpp answers 503 "Loading model" until its model is in memory (others: busy)
    if (f.status === 503) return { code: "loading", vars: { ...base, detail } };
    // vLLM's --max-logprobs (default 20; 0: none) refuses more candidates than it allows
    if (f.status === 400 && /logprob/i.test(detail)) return { code: "logprobs_off", vars: { ...base, detail } };
    if (f.status === 404 || f.status === 405) return { code: "not_found", vars: { ...base, detail } };
    return { code: "http", vars: { ...base, status: f.status, detail } };
  }
  if (!f.cspAllows) return { code: f.connectNone ? "no_network" : "blocked_by_page", vars: base };
  const publicHttpPage = f.pageProtocol === "http:" && f.pageOrigin !== "null" && !isLocalHost(f.pageHostname);
  if (publicHttpPage && isLocalHost(f.target.hostname)) return { code: "private_network", vars: base };
  // an https page may fetch plain http only from this computer (loopback counts as secure)
  if (f.pageProtocol === "https:" && f.target.protocol === "http:" && !isLoopbackHost(f.target.hostname)) return { code: "mixed_content", vars: base };
  if (f.reachable === true) return { code: ollama || f.pageOrigin === "null" ? "ollama_origin" : "cors", vars: base };
  return { code: "refused", vars: base };
}
