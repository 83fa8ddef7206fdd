// The page's payload — the wasm module and the model's weights and tokenizer — as the build ships
// it. This file is the multi-file build's (dist/index.html): same-origin files next to the page,
// fetched with progress. The single-file build (`vite build --mode single`, see
// www/scripts/single-file.mjs) replaces this module with one exporting the same names over bytes
// carried inside the page (INLINE = true), so dist/nexttoken.html never makes a request.
import weightsUrl from "../model/model.safetensors?url";
import tokenizerUrl from "../model/tokenizer.json?url";

/** The model's two files: URLs to fetch, or (single file) the bytes and text themselves. */
export type ModelFiles =
  | { inline: false; weightsUrl: string; tokenizerUrl: string }
  | { inline: true; weights: () => Uint8Array; tokenizerJson: string };

/** Whether everything is inside the page. A build-time constant, so the other path is dropped. */
export const INLINE: boolean = false;

/** The wasm module's bytes when inline; null here: the wasm-bindgen glue fetches its own file. */
export function wasmBytes(): Uint8Array | null {
  return null;
}

export const MODEL_FILES: ModelFiles = { inline: false, weightsUrl, tokenizerUrl };
