// The model-server client's data: what a server is, what one answer says about the next token,
// and why a request failed. Plain data, no DOM, so the same code runs in the page and in Node.

/** Which HTTP API the page speaks: llama.cpp's own `/completion`, or an OpenAI-compatible `/v1`. */
export type ServerApi = "llama.cpp" | "openai";
export const SERVER_APIS: readonly ServerApi[] = ["llama.cpp", "openai"];

/** Which program answered, as far as the page can tell (it changes limits and advice, not requests). */
export type ServerKind = "llama.cpp" | "vllm" | "ollama" | "openai";

/** What `connect` learned about a server. */
export interface ServerInfo {
  /** The address as the user typed it, normalised (no trailing slash). */
  url: string;
  api: ServerApi;
  kind: ServerKind;
  /** The model's name as the server reports it. */
  model: string;
  /** Tokens in the model's vocabulary, when the server says (llama.cpp's `/v1/models` meta.n_vocab). */
  vocabSize: number | null;
  /** Whether answers carry token ids and prompts may be token ids (llama.cpp, vLLM with ids). */
  hasIds: boolean;
  /** Most candidates one answer may list (Ollama and vLLM's default: 20); null: no limit known. */
  maxTop: number | null;
  /** OpenAI-compatible only: `/v1/completions` (prompt continued as is) or `/v1/chat/completions`. */
  endpoint: "completion" | "completions" | "chat";
}

/** One candidate of an answer. */
export interface TokenEntry {
  /** The vocabulary id; null when the server gives strings only (Ollama, vLLM without ids). */
  id: number | null;
  /** The token's text as the server spells it (may be a partial character: see `bytes`). */
  text: string;
  /** The token's exact UTF-8 bytes, when the server gives them (llama.cpp, OpenAI `bytes`). */
  bytes: number[] | null;
  /** Natural log of its probability over the whole vocabulary. */
  logprob: number;
}

/**
 * How much of the distribution an answer covers. `full`: every token of the vocabulary is listed
 * (llama.cpp with n_probs = n_vocab). `top`: only the `listed` most likely ones; `restMass` is
 * 1 − Σ p(listed), the probability of all other tokens together, as reported (never renormalised).
 */
export type Coverage = { kind: "full" } | { kind: "top"; listed: number; restMass: number };

/** The server's next-token distribution after one context. */
export interface Distribution {
  /** Candidates, most likely first; each string once (duplicates the server collapsed stay collapsed). */
  entries: TokenEntry[];
  coverage: Coverage;
  /** Strings the server listed more than once for different ids can't be told apart without ids. */
  collapsedDuplicates: boolean;
}

/** Why talking to a server failed; `describeServerError` words each for the user (zh and en). */
export type ServerErrorCode =
  | "bad_address" // not an http(s) URL
  | "blocked_by_page" // the page's own CSP does not allow this address
  | "no_network" // this copy of the page connects nowhere (the offline single file)
  | "private_network" // an http page on a public address may not reach a local server
  | "refused" // nothing answers at that address (not running, wrong port)
  | "cors" // the server answers but not to this page's origin
  | "ollama_origin" // Ollama refuses this origin (file:// sends Origin: null): OLLAMA_ORIGINS
  | "unauthorized" // the server wants an API key
  | "not_found" // no such endpoint: not a llama.cpp or OpenAI-compatible server
  | "too_old" // the server answers without log-probabilities (or without ids where needed)
  | "http" // another HTTP status
  | "bad_response" // not the JSON shape of any supported API
  | "contradictory_mass" // the listed probabilities add up past 1: no room for the rest (field, sum, rest)
  | "contradictory_top" // the most likely listed token is below 1/vocabulary: no distribution has that (field, p, vocab)
  | "timeout"
  | "loading" // HTTP 503: the model is still loading (llama.cpp) or the server is busy
  | "no_model" // the server lists no model (Ollama or LM Studio with none loaded)
  | "cut_off" // the connection closed before the answer was complete
  | "too_large" // an answer larger than any this page asks for
  | "model_changed" // the answers are another model's than the one connected (ids, name, token text)
  | "logprobs_off" // HTTP 400 about logprobs: the server was started without them allowed (vLLM --max-logprobs)
  | "connect_timeout" // no answer to Connect's first question in time (hung, or still starting)
  | "cancelled" // the user gave up waiting (Cancel)
  | "mixed_content"; // an https page may not reach a plain-http server other than this computer

export interface ServerErrorInfo {
  code: ServerErrorCode;
  /** Placeholders for the message: url, origin, status, detail, version, port… */
  vars: Record<string, string | number>;
}

export class ServerError extends Error {
  readonly code: ServerErrorCode;
  readonly vars: Record<string, string | number>;
  constructor(info: ServerErrorInfo) {
    super(`${info.code}: ${JSON.stringify(info.vars)}`);
    this.name = "ServerError";
    this.code = info.code;
    this.vars = info.vars;
  }
}
