// A server's answer from its bytes to JSON, for servers that misbehave: an answer larger than any
// this page asks for is cut off at a cap (a runaway or never-ending body), bare -Infinity / NaN
// (Python's json.dumps writes them) are read as strings the parser then judges, an error page is
// shortened to its message, and an answer from another model than the one connected is refused.
import { ServerError } from "./types";
import type { Distribution, ServerInfo } from "./types";

/** The largest answer read: a whole 32,000-token vocabulary is ~3 MB of JSON. */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** The body as text, refused (and its download cancelled) once it passes `MAX_ANSWER_BYTES`. */
export async function readAnswer(res: Response, max = MAX_ANSWER_BYTES): Promise<string> {
  const tooLarge = (): ServerError => new ServerError({ code: "too_large", vars: { detail: `${Math.round(max / 1024 / 1024)} MB` } });
  if (Number(res.headers.get("content-length") ?? 0) > max) {
    await res.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (res.body === null) return res.text();
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    text += decoder.decode(value, { stream: true });
  }
}

/** JSON, with bare -Infinity, Infinity and NaN outside strings read as the strings "-Infinity" … */
export function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // not JSON as it is: maybe only for Python's non-standard numbers
  }
  const quoted = text.replace(/"(?:[^"\\]|\\.)*"|-?Infinity|NaN/g, (m) => (m.startsWith('"') ? m : `"${m}"`));
  try {
    if (quoted !== text) return JSON.parse(quoted) as unknown;
  } catch {
    // still not JSON
  }
  throw new ServerError({ code: "bad_response", vars: { detail: `${path} did not answer JSON` } });
}

/** An HTTP error's body as a short reason: a JSON error's message, an HTML page's title or text. */
export function errorDetail(body: string): string {
  let detail = body;
  try {
    const json = JSON.parse(body) as unknown;
    const error = typeof json === "object" && json !== null ? (json as Record<string, unknown>)["error"] ?? (json as Record<string, unknown>)["message"] : undefined;
    const message = typeof error === "object" && error !== null ? (error as Record<string, unknown>)["message"] : error;
    if (typeof message === "string" && message !== "") detail = message;
  } catch {
    if (/<\/?[a-z!][^>]*>/i.test(body)) {
      const title = /<title[^>]*>([^<]*)<\/title>/i.exec(body)?.[1]?.trim();
      detail = title || body.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, " ").replace(/<[^>]*>/g, " ");
    }
  }
  return detail.replace(/\s+/g, " ").trim().slice(0, 160);
}

/**
 * Refuses an answer from another model than the one Connect found (the server restarted with
 * another model between two steps): a token id beyond its vocabulary, or llama.cpp naming
 * another model. Other servers' `model` field may be an alias a proxy rewrites: not compared.
 */
export function checkSameModel(info: ServerInfo, body: unknown, dist: Distribution): void {
  const beyond = info.vocabSize === null ? undefined : dist.entries.find((e) => e.id !== null && e.id >= (info.vocabSize ?? 0));
  if (beyond !== undefined) {
    throw new ServerError({ code: "model_changed", vars: { detail: `token id ${beyond.id ?? ""} ≥ ${info.vocabSize ?? ""}` } });
  }
  const model = typeof body === "object" && body !== null ? (body as Record<string, unknown>)["model"] : undefined;
  if (info.kind === "llama.cpp" && typeof model === "string" && model !== "" && model !== info.model) {
    throw new ServerError({ code: "model_changed", vars: { detail: model.split(/[\\/]/).pop() ?? model } });
  }
}
