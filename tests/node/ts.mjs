// Imports the page's TypeScript modules in Node: esbuild (Vite's own, from www/node_modules)
// bundles an entry that re-exports them into one ES module under target/, which is imported.
// For modules that need no DOM at import time (the server client, i18n).
import { createRequire } from "node:module";
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const esbuild = createRequire(`${root}www/package.json`)("esbuild");

/** @param {string} name a file name for the bundle @param {string} entry ES-module source, paths relative to www/src */
export async function importTs(name, entry) {
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
  });
  writeFileSync(out, result.outputFiles[0].contents);
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
