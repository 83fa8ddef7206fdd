// What the page's early script started (www/scripts/start-up.mjs, multi-file build only): the
// requests for the wasm and the model's two files, made while this bundle was still downloading and
// being parsed. Each is taken at most once; without the script (the single file, or a script that
// failed to load) every lookup is null and the page fetches for itself.

interface Early {
  wasm: Promise<Response>;
  /** Responses by absolute URL. */
  files: Record<string, Promise<Response> | undefined>;
}

const scope = globalThis as { nexttokenEarly?: Early | null };
const early: Early | null = scope.nexttokenEarly ?? null;
// from here on an early script would be too late (it runs before the bundle, but should it not): it then does nothing
scope.nexttokenEarly ??= null;

/** The early script's response for the wasm, if it ran. */
export function earlyWasm(): Promise<Response> | null {
  return early?.wasm ?? null;
}

/** The early script's request for `url` (absolute), if it made one; taken once. */
export function earlyResponse(url: string): Promise<Response> | null {
  const response = early?.files[url];
  if (early === null || response === undefined) return null;
  early.files[url] = undefined;
  return response;
}
