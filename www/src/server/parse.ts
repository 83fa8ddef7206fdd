// Reading a server's answer: llama.cpp's `/completion`, OpenAI-compatible completions and chat
// (the `content[]` shape and the legacy `{tokens, token_logprobs, top_logprobs}` one keyed by
// string), and `/v1/models`. Pure functions of parsed JSON; a shape they don't know is a
// ServerError("bad_response" or "too_old"), never a guess.
import { ServerError } from "./types";
import type { Coverage, Distribution, ServerKind, TokenEntry } from "./types";

type Json = unknown;

function isObject(v: Json): v is Record<string, Json> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function bad(detail: string): ServerError {
  return new ServerError({ code: "bad_response", vars: { detail } });
}

/** vLLM's `--return-tokens-as-token-ids` spells a token "token_id:123". */
const TOKEN_ID = /^token_id:(\d+)$/;

/** A log-probability as servers spell it: null (C++ JSON for −∞), "-Infinity", or a number ≤ 0. */
function logprobOf(v: Json): number | null {
  if (v === null || v === "-Infinity" || v === "-inf") return -Infinity;
  return typeof v === "number" && !Number.isNaN(v) && v <= 1e-6 ? Math.min(v, 0) : null;
}

function entryFrom(v: Json, where: string): TokenEntry {
  if (!isObject(v)) throw bad(`${where} is not an object`);
  const token = v["token"];
  if (typeof token !== "string") throw bad(`${where}.token must be a string`);
  const rawBytes = v["bytes"];
  const bytes =
    Array.isArray(rawBytes) && rawBytes.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)
      ? (rawBytes as number[])
      : null;
  const rawId = v["id"];
  const asId = TOKEN_ID.exec(token);
  const id = Number.isInteger(rawId) && (rawId as number) >= 0 ? (rawId as number) : asId ? Number(asId[1]) : null;
  const logprob = logprobOf(v["logprob"]);
  if (logprob === null) {
    const raw = v["logprob"];
    throw bad(`${where}.logprob of “${token}”${id === null ? "" : ` (id ${id})`} must be a number ≤ 0, got ${typeof raw === "number" ? String(raw) : JSON.stringify(raw)}`);
  }
  return { id, text: asId ? "" : token, bytes, logprob };
}

/** Rounding a server's float32 log-probabilities may move their sum this far past 1 (a true
 * log-softmax's sum is 1 to ~1e-5 over 151,936 tokens); the rest is then 0, not negative. */
const MASS_SLACK = 1e-3;
/** The most tokens the core reads (its logits limit): the bound when the server names no size. */
const MAX_VOCAB = 2 ** 20;

/**
 * Refuses a distribution that contradicts itself, instead of drawing from it: listed
 * probabilities adding up past 1 (the rest of the vocabulary would hold a negative mass; it was
 * clamped to 0 and the listed tokens renormalised), or a most likely token below 1/V, which no
 * distribution over V tokens (at most the core's 2^20) has (its rest rounded to 1, a `rest_mass`
 * the core refuses in words about a key the user never wrote).
 */
function checkMass(sorted: readonly TokenEntry[], mass: number, vocabSize: number | null, field: string): void {
  if (mass > 1 + MASS_SLACK) {
    throw new ServerError({ code: "contradictory_mass", vars: { field, sum: mass.toPrecision(6), rest: (1 - mass).toPrecision(6) } });
  }
  const top = sorted[0];
  const vocab = vocabSize ?? MAX_VOCAB;
  if (top !== undefined && Math.exp(top.logprob) * vocab < 1 - MASS_SLACK) {
    const p = Math.exp(top.logprob);
    throw new ServerError({ code: "contradictory_top", vars: { field, p: p === 0 ? "0" : p.toExponential(2), vocab } });
  }
}

/** Sorted most likely first (ties by id, then text), each id (or, without ids, each text) once;
 * `field` names the list in the answer for a refusal. */
function distribution(entries: TokenEntry[], vocabSize: number | null, keyedByText: boolean, field: string): Distribution {
  const seen = new Set<string>();
  const unique: TokenEntry[] = [];
  let collapsed = keyedByText;
  for (const e of entries) {
    const key = e.id !== null ? `#${e.id}` : `=${e.text}`;
    if (seen.has(key)) {
      if (e.id === null) collapsed = true;
      continue;
    }
    seen.add(key);
    unique.push(e);
  }
  if (unique.length > 0 && unique.every((e) => e.logprob === -Infinity)) throw bad("every listed token has probability 0 (log-probability −∞)");
  unique.sort((a, b) => b.logprob - a.logprob || (a.id ?? 0) - (b.id ?? 0) || (a.text < b.text ? -1 : 1));
  let mass = 0;
  for (const e of unique) mass += Math.exp(e.logprob);
  checkMass(unique, mass, vocabSize, field);
  const full = vocabSize !== null && unique.length >= vocabSize && unique.every((e) => e.id !== null);
  const coverage: Coverage = full
    ? { kind: "full" }
    : { kind: "top", listed: unique.length, restMass: Math.min(1, Math.max(0, 1 - mass)) };
  return { entries: unique, coverage, collapsedDuplicates: collapsed };
}

/**
 * llama.cpp's `POST /completion` answer: `completion_probabilities[0].top_logprobs` with id,
 * token, bytes and logprob (raw log-softmax, before the server's samplers). Builds from before
 * December 2024 answer `probs` with post-sampling `prob`s and no ids: too old for this page.
 */
export function parseLlamaCompletion(body: Json, vocabSize: number | null): Distribution {
  if (!isObject(body)) throw bad("the answer is not a JSON object");
  const list = body["completion_probabilities"];
  if (!Array.isArray(list)) {
    if ("probs" in body || "completion_probabilities" in body) {
      throw new ServerError({ code: "too_old", vars: { server: "llama.cpp", detail: "probs" } });
    }
    throw bad("no completion_probabilities (was n_probs sent?)");
  }
  const first = list[0];
  if (!isObject(first)) throw bad("completion_probabilities is empty");
  const top = first["top_logprobs"];
  if (!Array.isArray(top)) {
    if (Array.isArray(first["probs"]) || Array.isArray(first["top_probs"])) {
      throw new ServerError({ code: "too_old", vars: { server: "llama.cpp", detail: "probs" } });
    }
    throw bad("completion_probabilities[0].top_logprobs is missing");
  }
  const entries = top.map((e, i) => entryFrom(e, `top_logprobs[${i}]`));
  if (entries.some((e) => e.id === null)) throw new ServerError({ code: "too_old", vars: { server: "llama.cpp", detail: "id" } });
  return distribution(entries, vocabSize, false, "completion_probabilities[0].top_logprobs");
}

/**
 * An OpenAI-compatible answer, completions or chat: `choices[0].logprobs` in the `content[]`
 * shape (chat; llama.cpp's and newer servers' completions) or the legacy completions shape
 * `{tokens, token_logprobs, top_logprobs: [{text: logprob}]}`, keyed by string (a server that
 * gives two tokens the same text merges them; vLLM's "token_id:N" keys restore the ids).
 */
export function parseOpenAi(body: Json, vocabSize: number | null): Distribution {
  if (!isObject(body)) throw bad("the answer is not a JSON object");
  const choices = body["choices"];
  const choice = Array.isArray(choices) ? choices[0] : undefined;
  if (!isObject(choice)) throw bad("choices[0] is missing");
  const logprobs = choice["logprobs"];
  if (!isObject(logprobs)) {
    throw new ServerError({ code: "too_old", vars: { server: "openai", detail: "logprobs" } });
  }
  const content = logprobs["content"];
  if (Array.isArray(content)) {
    const first = content[0];
    if (!isObject(first) || !Array.isArray(first["top_logprobs"])) throw bad("logprobs.content[0].top_logprobs is missing");
    const entries = (first["top_logprobs"] as Json[]).map((e, i) => entryFrom(e, `top_logprobs[${i}]`));
    return distribution(entries, vocabSize, false, "logprobs.content[0].top_logprobs");
  }
  const top = logprobs["top_logprobs"];
  if (Array.isArray(top)) {
    const first = top[0];
    if (!isObject(first)) throw bad("logprobs.top_logprobs[0] is not an object");
    const entries = Object.entries(first).map(([token, logprob]) =>
      entryFrom({ token, logprob }, `top_logprobs[0][${JSON.stringify(token)}]`),
    );
    return distribution(entries, vocabSize, entries.some((e) => e.id === null), "logprobs.top_logprobs[0]");
  }
  throw bad("logprobs has neither content nor top_logprobs");
}

/** What `GET /v1/models` says: the first model's name, its vocabulary size (llama.cpp) and owner. */
export interface ModelsInfo {
  model: string;
  vocabSize: number | null;
  kind: ServerKind | null;
}

export function parseModels(body: Json): ModelsInfo {
  if (!isObject(body) || !Array.isArray(body["data"])) throw bad("/v1/models has no data list");
  const first = body["data"][0];
  if (first === undefined) throw new ServerError({ code: "no_model", vars: {} });
  if (!isObject(first) || typeof first["id"] !== "string") throw bad("/v1/models lists no model");
  const meta = first["meta"];
  const nVocab = isObject(meta) ? meta["n_vocab"] : undefined;
  const owner = first["owned_by"];
  const kind: ServerKind | null =
    owner === "llamacpp" || Number.isInteger(nVocab) ? "llama.cpp" : owner === "vllm" ? "vllm" : owner === "ollama" || owner === "library" ? "ollama" : null;
  return {
    model: first["id"],
    vocabSize: Number.isInteger(nVocab) && (nVocab as number) > 0 ? (nVocab as number) : null,
    kind,
  };
}

/** llama.cpp's `POST /tokenize` with pieces: ids and each piece's text or bytes. */
export function parseTokenize(body: Json): Array<{ id: number; piece: string | number[] }> {
  if (!isObject(body) || !Array.isArray(body["tokens"])) throw bad("/tokenize has no tokens list");
  return body["tokens"].map((t, i) => {
    if (Number.isInteger(t)) return { id: t as number, piece: "" };
    if (!isObject(t) || !Number.isInteger(t["id"])) throw bad(`/tokenize tokens[${i}] has no id`);
    const piece = t["piece"];
    return { id: t["id"] as number, piece: typeof piece === "string" || Array.isArray(piece) ? (piece as string | number[]) : "" };
  });
}

/** Ollama's `GET /api/version`: "0.12.11" → [0, 12, 11]. */
export function parseVersion(text: string): number[] | null {
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(text.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

export function versionAtLeast(v: readonly number[], min: readonly number[]): boolean {
  for (let i = 0; i < min.length; i++) {
    const a = v[i] ?? 0;
    const b = min[i] ?? 0;
    if (a !== b) return a > b;
  }
  return true;
}
