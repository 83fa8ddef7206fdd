// A model server as a logits source (issue 12): llama.cpp's server, vLLM or Ollama on the
// teacher's machine. The page still chooses every token with its own `step` over the server's raw
// log-probabilities; the server only answers "what comes next" for a context of token ids (or
// text, for servers without ids). Answers arrive over fetch, so this source is async: after any
// change of context it starts the next request at once and `nextLogits()` is null until it lands.
import { ServerClient } from "../server/client";
import { t } from "../i18n/index";
import { describeServerError } from "../server/messages";
import { toLogits } from "../server/logits";
import { DEFAULT_TOP_N } from "../server/requests";
import type { Context } from "../server/requests";
import { ServerError } from "../server/types";
import type { Distribution, ServerErrorCode, ServerInfo } from "../server/types";
import type { Appended, Capabilities, LogitsSource, NextLogits } from "./logits-source";
import { appendBytes, tokenLabelOf } from "./server-text";
import { SourceError } from "./source-error";

/** Vocabulary size assumed when a server with ids does not report one (vLLM): ids are below it. */
const UNKNOWN_VOCAB_WITH_IDS = 262_144;
/** Page-side ids for a server that answers with strings only (Ollama): at most this many texts. */
const INTERNED_VOCAB = 65_536;

interface TokenInfo {
  text: string;
  bytes: number[];
}

export class ServerSource implements LogitsSource {
  readonly kind = "server";
  readonly capabilities: Capabilities;
  readonly vocabSize: number;
  /** The end-of-sequence id, known once the server names one (llama.cpp's /props). */
  eosId: number | undefined = undefined;
  promptError: string | null = null;
  /** Candidates asked for when the vocabulary is too large to ask for all (user-settable). */
  topN = DEFAULT_TOP_N;
  /**
   * Token-id paths whose every prefix the next `reset` fetches before it resolves, so a link's
   * paths replay synchronously over the server like over the embedded model (ids only).
   */
  preload: ReadonlyArray<readonly number[]> = [];
  /**
   * Whether `append` asks for the next answer at once (the page's path: the next Step is then
   * ready sooner). Compare's columns ask only when they step, so a column's last token, after
   * which it stops, costs no answer nobody reads.
   */
  prefetch = true;
  /** Called when a request starts (true) and ends (false), for the page's progress line. */
  onBusy: (busy: boolean) => void = () => {};

  private readonly tokens = new Map<number, TokenInfo>();
  private readonly interned = new Map<string, number>();
  private promptIds: number[] = [];
  private promptText = "";
  private appended: number[] = [];
  /** Text completed by each appended token, and the bytes still pending after it. */
  private pieces: Array<{ piece: string; pending: number[] }> = [];
  private cache = new Map<string, NextLogits>();
  private inflight = new Map<string, Promise<NextLogits>>();
  /** `reset` reading the prompt (and preloading): the logits asked for meanwhile wait for it. */
  private reading: Promise<void> | null = null;
  /** Counts `reset`s: a read that a later one superseded stops at its next await and changes nothing. */
  private epoch = 0;
  /** Aborts every request of the prompt being replaced (its answers could only be stale). */
  private abort = new AbortController();
  /** A prompt whose read the user cancelled: the next request reads it again. */
  private unread: string | null = null;
  /** When the requests now out started (for Cancel's message). */
  private busySince = 0;
  /** The code of the last failed request (null after an answer): the panel words the status line by it. */
  lastFailure: ServerErrorCode | null = null;

  readonly client: ServerClient;
  readonly info: ServerInfo;

  constructor(client: ServerClient, info: ServerInfo) {
    this.client = client;
    this.info = info;
    this.capabilities = { tokenizesText: true, hasIds: info.hasIds, async: true };
    this.vocabSize = info.vocabSize ?? (info.hasIds ? UNKNOWN_VOCAB_WITH_IDS : INTERNED_VOCAB);
  }

  /** Connects to the server at `address` (detecting its API unless `api` is given). */
  static async connect(client: ServerClient, api?: ServerInfo["api"]): Promise<ServerSource> {
    const info = await client.connect(api);
    const source = new ServerSource(client, info);
    source.eosId = (await client.eosId(info)) ?? undefined;
    return source;
  }

  get length(): number {
    return this.appended.length;
  }

  /** Reads the prompt into ids with the server's own tokenizer, then asks for the first distribution. */
  async reset(prompt: string): Promise<void> {
    // a newer prompt wins: the older one's requests are dropped, its read ends quietly
    this.abort.abort();
    this.abort = new AbortController();
    this.inflight.clear();
    this.unread = null;
    this.onBusy(false);
    const epoch = ++this.epoch;
    const reading = this.read(prompt, epoch, this.abort.signal);
    this.reading = reading;
    try {
      await reading;
    } finally {
      if (this.reading === reading) this.reading = null;
    }
  }

  private async read(prompt: string, epoch: number, signal: AbortSignal): Promise<void> {
    this.appended = [];
    this.pieces = [];
    this.promptText = prompt;
    this.promptIds = [];
    this.cache.clear();
    const superseded = (): boolean => epoch !== this.epoch;
    try {
      if (this.info.hasIds) {
        const pieces = await this.client.tokenize(this.info, prompt, signal);
        if (superseded()) return;
        this.promptIds = (pieces ?? []).map((p) => p.id);
        if (this.promptIds.length === 0) throw new Error("the prompt is empty");
      } else if (prompt === "") throw new Error("the prompt is empty");
      this.promptError = null;
      await this.fetchCurrent();
      if (superseded()) return;
      const paths = this.info.hasIds ? this.preload : [];
      this.preload = [];
      for (const path of paths) {
        for (let i = 1; i <= path.length && !superseded(); i++) {
          this.appended = path.slice(0, i);
          // a token the server refuses ends this path's preload: its replay stops there and says so
          if (!(await this.fetchCurrent().then(() => true, () => false))) break;
        }
      }
      if (!superseded()) this.appended = [];
    } catch (err) {
      if (superseded()) return;
      const cancelled = cancelledBy(signal);
      if (cancelled !== null) {
        // not the prompt's fault: the next Step reads it again
        this.unread = prompt;
        throw new Error(describeServerError(cancelled));
      }
      this.lastFailure = err instanceof ServerError ? err.code : null;
      this.promptError = describeServerError(err);
      throw new Error(this.promptError);
    }
  }

  /**
   * The user's Cancel: gives up every request now out. Whoever waits gets the "cancelled" failure
   * (Play stops); the next Step asks again.
   */
  cancel(): void {
    if (this.inflight.size === 0 && this.reading === null) return;
    const seconds = Math.round((performance.now() - this.busySince) / 1000);
    this.abort.abort(new ServerError({ code: "cancelled", vars: { url: this.info.url, detail: seconds } }));
    this.abort = new AbortController();
    this.inflight.clear();
    this.onBusy(false);
  }

  /** The server's tokenizer turned text in the prompt (a typed "</s>") into the end token. */
  get promptHoldsEnd(): boolean {
    return this.eosId !== undefined && this.promptIds.includes(this.eosId);
  }

  private key(): string {
    return this.info.hasIds ? [...this.promptIds, ...this.appended].join(",") : this.appended.join(",");
  }

  nextLogits(): NextLogits | null {
    return this.reading === null && this.unread === null ? (this.cache.get(this.key()) ?? null) : null;
  }

  /**
   * The current context's distribution from the server (one request per context, shared); while
   * the prompt is being read, after it. Rejects with the failure worded for the page.
   */
  loadNextLogits(): Promise<NextLogits> {
    if (this.unread !== null) {
      const prompt = this.unread;
      return this.reset(prompt).then(() => this.loadNextLogits());
    }
    return this.reading === null ? this.fetchCurrent() : this.reading.then(() => this.loadNextLogits());
  }

  private fetchCurrent(): Promise<NextLogits> {
    const key = this.key();
    const done = this.cache.get(key);
    if (done) return Promise.resolve(done);
    const pending = this.inflight.get(key);
    if (pending) return pending;
    const signal = this.abort.signal;
    const answer = this.fetchNext(this.context(), signal);
    const request = answer.then(
      (dist) => {
        let next: NextLogits;
        try {
          next = this.remember(dist);
        } catch (err) {
          this.lastFailure = err instanceof ServerError ? err.code : null;
          const located = err instanceof ServerError && err.vars["url"] === undefined ? new ServerError({ code: err.code, vars: { url: this.info.url, ...err.vars } }) : err;
          throw new Error(describeServerError(located));
        }
        // an answer for a prompt replaced meanwhile is never kept (a server without ids keys by the
        // appended tokens alone, so it would pass for the new prompt's)
        if (signal.aborted) return this.loadNextLogits();
        this.lastFailure = null;
        this.cache.set(key, next);
        return next;
      },
      (err: unknown) => {
        const cancelled = cancelledBy(signal);
        if (cancelled !== null) throw new Error(describeServerError(cancelled));
        // dropped because a newer prompt replaced this one: whoever waits gets the current answer
        if (signal.aborted) return this.loadNextLogits();
        this.lastFailure = err instanceof ServerError ? err.code : null;
        // the page shows a rejection's message as it is: refused, CORS … and what to run
        throw new Error(describeServerError(err));
      },
    );
    if (this.inflight.size === 0) this.busySince = performance.now();
    this.inflight.set(key, request);
    this.onBusy(true);
    const settle = (): void => {
      if (this.inflight.get(key) === request) this.inflight.delete(key);
      this.onBusy(this.inflight.size > 0);
    };
    answer.then(settle, settle);
    return request;
  }

  private fetchNext(context: Context, signal: AbortSignal): Promise<Distribution> {
    return this.client.next(this.info, context, this.topN, signal);
  }

  private context(): Context {
    const appendedText = this.pieces.map((p) => p.piece).join("");
    return { ids: [...this.promptIds, ...this.appended], text: this.promptText + appendedText, prompt: this.promptText, appended: appendedText };
  }

  /** Keeps each listed token's text and bytes, and gives id-less tokens the page's own ids. */
  private remember(dist: Distribution): NextLogits {
    for (const e of dist.entries) {
      const bytes = e.bytes ?? Array.from(new TextEncoder().encode(e.text));
      const id = e.id ?? this.intern(e.text);
      const known = this.tokens.get(id);
      if (known === undefined) this.tokens.set(id, { text: e.text, bytes });
      else if (e.id !== null && known.bytes.join() !== bytes.join()) {
        // the same id is another token now: the server restarted with another model
        const was = tokenLabelOf(known.text, known.bytes);
        throw new ServerError({ code: "model_changed", vars: { url: this.info.url, detail: `token ${id}: “${was}” → “${tokenLabelOf(e.text, bytes)}”` } });
      }
    }
    const { logits, coverage } = toLogits(dist, this.vocabSize, (text) => this.intern(text));
    return { logits, known: coverage };
  }

  private intern(text: string): number {
    let id = this.interned.get(text);
    if (id === undefined) {
      id = this.interned.size;
      if (id >= INTERNED_VOCAB) throw new RangeError(`more than ${INTERNED_VOCAB} different tokens from this server`);
      this.interned.set(text, id);
    }
    return id;
  }

  append(id: number): Appended {
    const token = this.tokens.get(id);
    if (token === undefined) throw new SourceError(t("rest.error.unknownToken", { id }));
    const before = this.pieces.at(-1)?.pending ?? [];
    const out = appendBytes(before, token.bytes);
    this.appended.push(id);
    this.pieces.push(out);
    if (this.prefetch) void this.loadNextLogits().catch(() => {}); // the next answer starts now; errors show when read
    return { piece: out.piece, pending: out.pending };
  }

  rewind(n: number): void {
    if (!Number.isInteger(n) || n < 0 || n > this.appended.length) throw new SourceError(t("rest.error.rewind", { n, have: this.appended.length }));
    this.appended.length -= n;
    this.pieces.length -= n;
  }

  load(ids: readonly number[]): void {
    this.rewind(this.appended.length);
    for (const id of ids) {
      const token = this.tokens.get(id);
      if (token === undefined) throw new SourceError(t("rest.error.unknownToken", { id }));
      const out = appendBytes(this.pieces.at(-1)?.pending ?? [], token.bytes);
      this.appended.push(id);
      this.pieces.push(out);
    }
  }

  history(): number[] {
    return this.info.hasIds ? [...this.promptIds, ...this.appended] : [...this.appended];
  }

  promptLength(): number {
    return this.info.hasIds ? this.promptIds.length : 0;
  }

  tokenText(id: number): string {
    const token = this.tokens.get(id);
    return token === undefined ? `#${id}` : tokenLabelOf(token.text, token.bytes);
  }

  text(): string {
    return this.pieces.map((p) => p.piece).join("");
  }

  isEos(id: number): boolean {
    return id === this.eosId;
  }

  idOf(text: string): number | undefined {
    const wanted = text.replace(/␣/g, " ");
    for (const [id, token] of this.tokens) if (tokenLabelOf(token.text, token.bytes) === wanted || token.text === wanted) return id;
    return undefined;
  }

  /** The server checks no stop conditions here; the page does (eos, stop sequences, max tokens). */
  setLimits(): void {}
  stop(): void {}
  resume(): void {}
}

/** The user's Cancel, if that is why `signal` aborted (a newer prompt aborts without a reason of ours). */
function cancelledBy(signal: AbortSignal): ServerError | null {
  return signal.aborted && signal.reason instanceof ServerError && signal.reason.code === "cancelled" ? signal.reason : null;
}
