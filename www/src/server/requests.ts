// The requests the page sends: the context (token ids where the server takes them, else its text)
// and how many candidates to list. Nothing else leaves the page: no sampling settings are needed,
// since the page draws with its own `step` over the raw log-probabilities the server returns.
import type { ServerInfo } from "./types";

/** Default number of candidates asked for when the vocabulary is too large to ask for all. */
export const DEFAULT_TOP_N = 200;
/** Vocabularies up to this size are asked for whole (exact distribution, ~86 bytes a token). */
export const FULL_VOCAB_MAX = 32_000;
/** The most candidates the page ever asks for (≈ 1.4 MB of JSON per step). */
export const MAX_TOP_N = 16_384;

export interface HttpRequest {
  method: "GET" | "POST";
  /** Path under the server's address, e.g. "/completion". */
  path: string;
  body?: Record<string, unknown>;
}

/** What the next-token request covers: the context and how many candidates to list. */
export interface Context {
  /** Token ids of the prompt and every appended token (when the server has ids). */
  ids: readonly number[];
  /** The same context as text (prompt + appended text), for servers that take only text. */
  text: string;
  /** The prompt text alone and the appended text alone (chat: user message, assistant prefill). */
  prompt: string;
  appended: string;
}

/** How many candidates one answer lists: the whole vocabulary when it is small, else topN, within the server's cap. */
export function candidatesToAsk(info: ServerInfo, topN: number): number {
  const n = info.vocabSize !== null && info.vocabSize <= FULL_VOCAB_MAX ? info.vocabSize : Math.min(topN, MAX_TOP_N);
  return Math.max(1, info.maxTop !== null ? Math.min(n, info.maxTop) : n);
}

/** The request for the distribution of the token after `context`. */
export function nextTokenRequest(info: ServerInfo, context: Context, n: number): HttpRequest {
  if (info.api === "llama.cpp") {
    // The prompt as ids, so the page's token choice is exactly what is evaluated; the cache
    // keeps the shared prefix, so after an append only the new token is run.
    return { method: "POST", path: "/completion", body: { prompt: [...context.ids], n_predict: 1, n_probs: n, cache_prompt: true } };
  }
  if (info.endpoint === "chat") {
    const messages: Array<{ role: string; content: string }> = [{ role: "user", content: context.prompt }];
    const body: Record<string, unknown> = { model: info.model, messages, max_tokens: 1, logprobs: true, top_logprobs: n, temperature: 0, stream: false };
    if (context.appended !== "") {
      // Continue the assistant's partial answer (llama.cpp prefills a final assistant message;
      // vLLM needs continue_final_message).
      messages.push({ role: "assistant", content: context.appended });
      if (info.kind === "vllm") Object.assign(body, { continue_final_message: true, add_generation_prompt: false });
    }
    return { method: "POST", path: "/v1/chat/completions", body };
  }
  return {
    method: "POST",
    path: "/v1/completions",
    body: { model: info.model, prompt: info.hasIds ? [...context.ids] : context.text, max_tokens: 1, logprobs: n, temperature: 0, stream: false },
  };
}

/** Reading the prompt into ids: llama.cpp's `/tokenize` (with pieces) or vLLM's. */
export function tokenizeRequest(info: ServerInfo, text: string): HttpRequest | null {
  if (info.kind === "llama.cpp") return { method: "POST", path: "/tokenize", body: { content: text, with_pieces: true } };
  if (info.kind === "vllm") return { method: "POST", path: "/tokenize", body: { model: info.model, prompt: text, add_special_tokens: false } };
  return null;
}
