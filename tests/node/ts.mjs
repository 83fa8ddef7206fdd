// Imports the page's TypeScript modules in Node: esbuild (Vite's own, from www/node_modules)
// bundles an entry that re-exports them into one ES module under target/, which is imported.
// For modules that need no DOM at import time (the server client, i18n).
import { createRequire } from "node:module";
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const esbuild = createRequire(`${root}www/package.json`)("esbuild");

/**
 * The page's own modules over this process's wasm package (initialised by load.mjs): the package
 * stays external, so the core's `step` is the real one and shared; the model's file URLs
 * (payload.ts's `?url` imports) are stubbed, as nothing is fetched without a browser.
 */
const pageOnly = {
  name: "page-only",
  setup(build) {
    const pkg = pathToFileURL(`${root}www/pkg/nexttoken.js`).href;
    build.onResolve({ filter: /\/pkg\/nexttoken\.js$/ }, () => ({ path: pkg, external: true }));
    build.onResolve({ filter: /\?url$/ }, (args) => ({ path: args.path, namespace: "url-stub" }));
    build.onLoad({ filter: /.*/, namespace: "url-stub" }, () => ({ contents: 'export default "";', loader: "js" }));
  },
};

/**
 * @param {string} name a file name for the bundle @param {string} entry ES-module source, paths relative to www/src
 * @param {{ page?: boolean }} [options] page: the controller's modules (see `pageOnly`); its timers are `window`'s
 */
export async function importTs(name, entry, options = {}) {
  const out = `${root}target/node-ts/${name}.mjs`;
  mkdirSync(`${root}target/node-ts`, { recursive: true });
  const result = await esbuild.build({
    stdin: { contents: entry, resolveDir: `${root}www/src`, loader: "ts", sourcefile: `${name}-entry.ts` },
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    write: false,
    logLevel: "silent",
    plugins: options.page ? [pageOnly] : [],
  });
  writeFileSync(out, result.outputFiles[0].contents);
  if (options.page) globalThis.window ??= globalThis;
  return import(`${pathToFileURL(out).href}?t=${Date.now()}`);
}

/** The server client and its messages. */
export function importServerClient() {
  return importTs(
    "server-client",
    `export * from "./server/client";
     export * from "./server/parse";
     export * from "./server/requests";
     export * from "./server/errors";
     export * from "./server/types";
     export * from "./server/logits";
     export { describeServerError } from "./server/messages";
     export { setLang } from "./i18n";`,
  );
}

/** The page's server source (www/src/sources/server.ts) with its client. */
export function importServerSource() {
  return importTs(
    "server-source",
    `export { ServerSource } from "./sources/server";
     export { appendBytes, completePrefix, tokenLabelOf } from "./sources/server-text";
     export { ServerClient } from "./server/client";
     export { ServerError } from "./server/types";
     export { setLang } from "./i18n";`,
  );
}
