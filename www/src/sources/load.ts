// Loading the embedded model's bytes (same-origin files, streamed for a progress bar, or the
// single-file build's inline bytes) into a `ModelSource`.
import { createGenerator } from "../core";
import { earlyResponse } from "../early";
import { INLINE } from "../payload";
import type { ModelFiles } from "../payload";
import { ModelSource } from "./model";

/** Bytes received so far of everything being loaded; `total` is null when the server does not say. */
export interface LoadProgress {
  loaded: number;
  total: number | null;
}

/** Fetch one same-origin file, streaming its body so progress can be counted. */
async function fetchBytes(url: string, onBytes: (delta: number) => void, onTotal: (n: number | null) => void): Promise<Uint8Array> {
  // (the page's early script may have made this request already, www/src/early.ts)
  const response = await (earlyResponse(url) ?? fetch(url));
  if (!response.ok) throw new Error(`${url.split("/").pop() ?? url}: HTTP ${response.status}`);
  const length = Number(response.headers.get("content-length"));
  // a compressed response reports its compressed size: the count would overshoot, so drop it
  const encoded = (response.headers.get("content-encoding") ?? "identity") !== "identity";
  onTotal(Number.isFinite(length) && length > 0 && !encoded ? length : null);
  if (response.body === null) {
    const whole = new Uint8Array(await response.arrayBuffer());
    onBytes(whole.length);
    return whole;
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
    onBytes(value.length);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** The model's two files as loaded: the weights' bytes and the tokenizer's text. */
export interface ModelBytes {
  weights: Uint8Array;
  tokenizerJson: string;
}

/**
 * Fetch the bundled weights and tokenizer, reporting bytes as they arrive. Needs no wasm, so the
 * page starts it at once, beside the core's download and compile. When the page carries them
 * (single-file build) nothing is fetched and progress is complete at once.
 */
export async function fetchModel(files: ModelFiles, onProgress: (progress: LoadProgress) => void): Promise<ModelBytes> {
  if (files.inline) {
    const weights = files.weights();
    const size = weights.length + files.tokenizerJson.length;
    onProgress({ loaded: size, total: size });
    return { weights, tokenizerJson: files.tokenizerJson };
  }
  // (a build-time constant: the single-file build drops the fetching below, and names no fetch)
  if (INLINE) throw new Error("the page carries its model: nothing to fetch");
  let loaded = 0;
  const totals: Array<number | null | undefined> = [undefined, undefined];
  const report = (): void => {
    const known = totals.every((x) => typeof x === "number");
    const total = known ? totals.reduce<number>((sum, x) => sum + (x ?? 0), 0) : null;
    onProgress({ loaded, total: total !== null && loaded <= total ? total : null });
  };
  const bytes = (delta: number): void => {
    loaded += delta;
    report();
  };
  const [weights, tokenizer] = await Promise.all([
    fetchBytes(files.weightsUrl, bytes, (n) => {
      totals[0] = n;
      report();
    }),
    fetchBytes(files.tokenizerUrl, bytes, (n) => {
      totals[1] = n;
      report();
    }),
  ]);
  return { weights, tokenizerJson: new TextDecoder().decode(tokenizer) };
}

/**
 * The embedded model over its loaded files (after `initCore`); further Generators (Compare, a
 * link's paths rebuilt in the background) are spawned from the first, its files parsed once.
 */
export function modelSource({ weights, tokenizerJson }: ModelBytes): ModelSource {
  const gen = createGenerator(weights, tokenizerJson);
  return new ModelSource(gen, () => gen.spawn());
}
