// wasm-bindgen declares `Generator[Symbol.dispose]()`, which only TypeScript's lib
// `ESNext.Disposable` (or `esnext`) knew: under a target's default lib (ES2020, ES2022) a user's
// `tsc` failed in this file. The same declaration as that lib's (and @types/node's), which merges
// with theirs, lets it compile everywhere; `using` still needs the lib's `Disposable` type.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}

/** Engine whose stage order and tie rules a step follows. */
export type Engine = "hf" | "llama.cpp" | "vllm";

/** Token ids: an array of numbers, or a Uint32Array as `Generator.tokens()` and `encode()` return
 *  them (so `history: gen.tokens()` and `trace_ids: gen.encode("北京")` need no copy). */
export type TokenIds = readonly number[] | Uint32Array;

/** Why a Generator stopped: `GeneratedToken.stop` and `Generator.stopped`. */
export type StopReason = "eos" | "max_new_tokens" | "stop_sequence" | "user" | "context_full";

/**
 * Config for `step`. Every key is optional; an unknown key throws an Error naming it, whatever it
 * holds (`undefined` and `null` too). Keys are read like `for…in` (own and inherited enumerable),
 * plus non-enumerable own properties and class getters (methods are not keys), each read once. A
 * Map, Promise, Error or iterator is refused by name, not read as an empty config. Limits: nested at most 4 levels, at most 1,048,576 entries in any array
 * or object, 2,098,176 values in all, strings of at most 1024 characters. Getters may throw (the
 * call throws an Error naming the key; the instance is unharmed).
 */
export interface StepConfig {
  /** "sample" (default) or "greedy". */
  strategy?: "sample" | "greedy";
  /** ≥ 0, default 1; 0 means greedy. */
  temperature?: number;
  /** Integer ≥ 0; 0 = off. Each engine's own "off" is accepted too and traced as off: vllm -1,
   *  llama.cpp any k ≤ 0 (an int32). */
  top_k?: number;
  /** In [0, 1]; 1 = off (vllm: (0, 1]). */
  top_p?: number;
  /** In [0, 1]; 0 = off. */
  min_p?: number;
  /** In (0, 1]; 1 = off. hf and llama.cpp only. */
  typical_p?: number;
  /** In [0, 1); 0 = off. hf only. */
  epsilon_cutoff?: number;
  /** In [0, 1); 0 = off. hf only (EtaLogitsWarper): removes tokens below
   *  min(eta_cutoff, √eta_cutoff · e^(−H)), H the entropy (nats) of its input; runs last. */
  eta_cutoff?: number;
  /** > 0; 1 = off. Penalises the ids in `history`, which it needs (refused without one). */
  repetition_penalty?: number;
  /** Finite; 0 = off. llama.cpp and vllm only. Needs `history`, as repetition_penalty. */
  frequency_penalty?: number;
  /** Finite; 0 = off. llama.cpp and vllm only. Needs `history`, as repetition_penalty. */
  presence_penalty?: number;
  /** Token ids seen so far (prompt then generated), oldest first; each < vocabulary size;
   *  at most 1,048,576 (2^20) ids. */
  history?: TokenIds;
  /** How many leading history ids are prompt (vllm's frequency/presence skip them); ≤ history
   *  length, and 0 without a history (`next` fills in its own). */
  history_prompt_len?: number;
  /** llama.cpp's penalty window; -1 = all (the only value other engines accept), 0 = none. */
  penalty_last_n?: number;
  /** Bias added to a token's logit, keyed by token id; in [-100, 100], or "-inf" to ban; at most
   *  1,048,576 entries. */
  logit_bias?: Record<string, number | "-inf">;
  /** Every truncation keeps at least this many tokens (at least 1 is always kept). */
  min_keep?: number;
  /** llama.cpp dynamic temperature half-range, in [0, 1e6]; 0 = off. */
  dynatemp_range?: number;
  /** llama.cpp dynamic temperature exponent; default 1. */
  dynatemp_exponent?: number;
  /** "hf" (default), "llama.cpp" or "vllm". */
  engine?: Engine;
  /** Integer 0 … 2^32 − 1. Without one, a fresh seed is taken and returned. */
  seed?: number;
  /** Integer ≥ 0: which draw of the seed's stream (one per generated token). */
  draw?: number;
  /** How many candidates the trace lists (default 20); clamped to min(trace_top, vocabulary
   *  size, 65,536), so nothing is allocated by the number asked for. */
  trace_top?: number;
  /** While fewer than this many new tokens exist (history.length − history_prompt_len), the
   *  eos_token_id tokens are removed (HF min_new_tokens, vLLM min_tokens); 0 = off. Needs
   *  `history` ([] for none yet; refused without one), as the penalties do. */
  min_new_tokens?: number;
  /** End-of-sequence id, or ids (at most 64), each < vocabulary size; required when
   *  min_new_tokens > 0 (the Generator supplies its own). */
  eos_token_id?: number | TokenIds;
  /** Token ids the trace lists too, with their rank, wherever they rank (a forced token, "find a
   *  token"): at most 1024 integer ids, each < vocabulary size; duplicates are ignored. */
  trace_ids?: TokenIds;
  /** In [0, 1): the logits are log-probabilities of the top of the vocabulary only (a model
   *  server's top N; unknown ids −inf) and the other tokens together hold this probability.
   *  `p_raw` is then each token's probability over the whole vocabulary, and the trace's `rest`
   *  says whether the final `p` is exact. */
  rest_mass?: number;
}

/** With `rest_mass`: what the logits leave out, and whether the final probabilities are exact. */
export interface RestTrace {
  /** The config's rest_mass: the probability of every token not given. */
  mass: number;
  /** True when the final p (and the draw) equal the full vocabulary's: a top-k, min-p or greedy
   *  cut removed the least likely given token before any stage that needs the unknown tail
   *  (top-p, typical-p, epsilon cutoff) or moves logits (logit_bias, penalties). */
  exact: boolean;
  /** The stage ("top_k", "min_p" or "greedy") that provably removed every token not given, when
   *  `exact`; null otherwise. The draw never lands on a token not given: u falls among the given
   *  tokens only (so when not `exact`, their final p is over the given tokens only). */
  removed_by: "top_k" | "min_p" | "greedy" | null;
  /** How many tokens were given (finite logits); `kept_count` and `entropy_bits` count only
   *  these when not `exact`. */
  given: number;
  /** Bounds on the whole vocabulary's raw (T = 1) entropy in bits (`raw_entropy_bits` covers the
   *  given tokens only): the rest's mass over the ids not given, none above the least likely
   *  given token, carries at least mass·log2(1/p_min) and at most mass·log2(m/mass) bits. */
  raw_entropy_bits_min: number;
  raw_entropy_bits_max: number;
}

export type StageName =
  | "logit_bias" | "min_new_tokens" | "penalties" | "greedy" | "temperature"
  | "top_k" | "top_p" | "min_p" | "typical_p" | "epsilon_cutoff" | "eta_cutoff";

/** What one stage did. */
export interface StageTrace {
  name: StageName;
  /** False if at its off value, or skipped because greedy decided first. */
  active: boolean;
  /** Tokens left after this stage. */
  kept_count: number;
  removed_count: number;
  /** The parameter as applied (k, p, T after dynamic temperature …), or null. */
  value: number | null;
  /** top_k: the k-th logit; top_p: mass kept; min_p: probability cut (min_p·p_max);
   *  epsilon_cutoff: ε; eta_cutoff: its cut min(η, √η·e^(−H)); typical_p: entropy of its input (nats); min_new_tokens: new tokens so far. */
  threshold: number | null;
  /** Probability of each listed candidate in this stage's input distribution (same order as
   *  `candidates`); empty for inactive stages. */
  p_in: Float64Array;
  /** Running total of `p_in` in candidate order: the curve a top-p chart draws against p. */
  cum_in: Float64Array;
}

/** One vocabulary entry. */
export interface Candidate {
  id: number;
  /** Position in the full candidate order, 0-based: kept tokens by final p (desc, ties by lower
   *  id), then removed ones by raw logit (desc, ties by lower id). */
  rank: number;
  /** Raw input logit. */
  logit: number;
  /** After logit_bias and penalties: what the filters rank by. */
  logit_processed: number;
  /** Softmax of the raw logits. */
  p_raw: number;
  /** Softmax of the processed logits at the applied temperature, before truncation. */
  p_tempered: number;
  /** Final probability (0 if removed). */
  p: number;
  /** Cumulative final probability in candidate order; the token chosen is the first with cum > u. */
  cum: number;
  kept: boolean;
  /** Stage that removed it ("logits" if its input was -inf), or null. */
  removed_by: StageName | "logits" | null;
}

/**
 * The listed candidates as columns: entry i of every column describes `candidates[i]`, and every
 * column has the same length. Each is a copy (not a view of wasm memory), made in one piece.
 */
export interface CandidateColumns {
  id: Uint32Array;
  rank: Uint32Array;
  logit: Float32Array;
  logit_processed: Float32Array;
  p_raw: Float64Array;
  p_tempered: Float64Array;
  p: Float64Array;
  cum: Float64Array;
  /** 1 if kept, 0 if removed. */
  kept: Uint8Array;
  /** The index in `stages` of the stage that removed it; -1 if kept; -2 if its input logit was
   *  -inf (`removed_by: "logits"`). */
  removed_by: Int8Array;
}

/**
 * Logits for `step` and `logSumExp`: a Float32Array (copied), a Float64Array or an array of
 * numbers (each rounded to float32: one above its range is refused, one below it is -Infinity, a
 * ban, as a float32 cast makes it, so `-Number.MAX_VALUE` masks a token), at most
 * 1,048,576 (2^20) entries, each finite or -Infinity, at least one finite. A typed array whose
 * buffer was detached (transferred, or a view of wasm memory that has grown) is refused by name.
 */
export type Logits = Float32Array | Float64Array | readonly number[];

/** Result of `sampleCounts`: how often each token came up in n draws. */
export interface SampleCounts {
  /** The tokens drawn at least once, ascending. */
  ids: Uint32Array;
  /** How often each of `ids` was drawn; they sum to n. */
  counts: Uint32Array;
  /** The seed the draws came from (the config's, or a fresh one when it has none). */
  seed: number;
}

/** Result of `step`. */
export interface StepResult {
  token: number;
  /** The uniform draw in [0, 1) that chose the token; null for greedy. */
  u: number | null;
  seed: number;
  draw: number;
  engine: Engine;
  strategy: "sample" | "greedy";
  /** Temperature applied; 0 for greedy. */
  temperature: number;
  vocab_size: number;
  kept_count: number;
  entropy_bits: number;
  raw_entropy_bits: number;
  stages: StageTrace[];
  /** In rank order: the first trace_top of the candidate order (kept by final p, then the best
   *  removed by raw logit), plus the chosen token and every trace_ids entry wherever they rank.
   *  Ranks may skip; `cum` is always the true cumulative mass through the entry. Built from
   *  `columns` on first read and cached (every read gives the same array and the same objects,
   *  `chosen` among them): a caller that reads only the columns (a full-vocabulary
   *  trace) never builds these objects. */
  readonly candidates: Candidate[];
  /** The same candidates, one typed array per field. */
  columns: CandidateColumns;
  /** Kept tokens not in `candidates`: the strip's "rest" band. */
  unlisted_kept_count: number;
  /** Their total final probability (1 − the listed kept p's; 0 when none is unlisted). */
  unlisted_mass: number;
  /** Same as `chosen.rank` (kept for compatibility). */
  chosen_rank: number;
  /** The chosen token's entry: the very object `candidates` holds at its place (always listed),
   *  so `r.candidates.includes(r.chosen)` is true and `r.candidates.indexOf(r.chosen)` is its
   *  index. Read without building `candidates`. */
  chosen: Candidate;
  /** Present only when the config gave `rest_mass`. */
  rest?: RestTrace;
}

/** What `Generator.next()` / `force()` returns for one token: `NextToken` (a trace) or
 *  `ForcedToken` (none), which those methods are typed as. */
export interface GeneratedToken {
  token: number;
  /** The vocabulary entry ("北京", "<0xE4>"). */
  token_text: string;
  /** Text completed by this token (empty while a character is still spelled out in bytes). */
  piece: string;
  /** Bytes of an unfinished character, carried to the next token. */
  pending: number[];
  /** The step's trace; null for a forced token. */
  trace: StepResult | null;
  /** Why this token ended generation; null when it did not (a field of a returned record is
   *  null when it does not apply, as `u`, `trace` and `stop_sequence` are; the Generator's
   *  getters, `stopped` and `eosId`, give undefined instead: test `t.stop === null` but
   *  `gen.stopped === undefined`, or `== null` for both). */
  stop: StopReason | null;
  /** The stop sequence matched, when `stop` is "stop_sequence"; otherwise null. */
  stop_sequence: string | null;
}

/** What `Generator.next()` returns: its trace is always there. */
export interface NextToken extends GeneratedToken {
  /** The step that chose the token. */
  trace: StepResult;
}

/** What `Generator.force()` returns (and each of `forceMany`'s tokens): no step chose it. */
export interface ForcedToken extends GeneratedToken {
  trace: null;
}

/** What `Generator.forceMany(tokens)` returns: the tokens appended (up to the first stop). */
export interface ForcedTokens {
  /** Each appended token, as `force()` returns it. */
  tokens: ForcedToken[];
  /** `tokens.length` rows of `vocab_size`: the logits each token was forced at. */
  logits: Float32Array;
  /** With a config: what `next(config)` would make of each position (`tokens.length` of them). */
  records?: ForcedRecord[];
}

/** What `next(config)` would make of one forced token's position (`forceMany` with a config). */
export interface ForcedRecord {
  /** The token `next` would choose there (the forced one or another). */
  choice: number;
  /** The forced token's candidate record there (its true rank and cum, as `trace_ids` lists it). */
  candidate: Candidate;
}
