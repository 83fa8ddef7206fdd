// Two build steps for the page's first second (measured with tests/bench/page-link.mjs):
//
// `compileHints`: V8's explicit compile hint on the page's script. `//# allFunctionsCalledOnLoad`
// on its first line has Chromium (136+) compile every function of the bundle eagerly, on a
// background thread while the script streams in, instead of lazily on the main thread when each is
// first called. Opening the page calls most of the bundle (the views, D3, the lessons' set-up)
// before it is ready: that lazy compiling took 200–270 ms of the main thread, 62–67 ms with the
// hint (Chromium 156 traces, two of each build; on 2 loaded cores the background compiling then
// competes with the page, so ready times did not show it, tests/bench/HISTORY.md). Other engines
// read a comment. Added after minification (which drops comments),
// before the single-file pass inlines the script (so its CSP hash covers the comment).
//
// `preloadPayload` (multi-file build only): `<link rel="preload" as="fetch">` for the wasm, the
// weights and tokenizer.json in the page's head, so they download while the script itself
// downloads and compiles; the fetches in src/start.ts (and wasm-bindgen's) then take them from
// the preload. Same URLs, same mode (cors, same origin): nothing is fetched twice.
//
// `earlyRequests` (multi-file build only): a tiny classic script, `assets/early-<hash>.js`, last in
// the head (every other request is made before the parser waits on it; first in the head it held
// back the bundle's and the stylesheet's requests; `async` gives no order against the bundle).
// It runs while the page's 350 KB script is still downloading and being parsed, and makes the
// requests for the wasm and the model's two files there and then (the preloads' bytes, read from
// then on), leaving the responses in `window.nexttokenEarly`; src/early.ts hands them to core.ts
// (wasm-bindgen's init instantiates from a Response, streaming) and sources/load.ts, which otherwise
// made them only once the bundle ran (the core was then ready ~100–280 ms after the bundle had run).
// Compiling the wasm here (`WebAssembly.compileStreaming`) was tried: the page alone as early, but
// the link's replay slower (tests/bench/HISTORY.md, seventh round). A separate
// same-origin file, not an inline script, so that a server's own `script-src 'self'` header (as the
// browser tests send) allows it without a hash. If it is missing or fails, the page loads the wasm
// itself as before.
import { createHash } from "node:crypto";

const HINT = "//# allFunctionsCalledOnLoad\n";

/** Vite plugin: the compile hint on every emitted JS chunk. */
export function compileHints() {
  return {
    name: "nexttoken-compile-hints",
    generateBundle: {
      order: "pre",
      handler(_options, bundle) {
        for (const file of Object.values(bundle)) {
          if (file.type === "chunk" && !file.code.startsWith(HINT)) file.code = HINT + file.code;
        }
      },
    },
  };
}

/** The payload's files, by the name the build gives them (hashed): the wasm, then the model's two. */
const PAYLOAD = [/^assets\/nexttoken_bg-[\w-]+\.wasm$/, /^assets\/model-[\w-]+\.safetensors$/, /^assets\/tokenizer-[\w-]+\.json$/];

/** Vite plugin: preload links for the payload in index.html's head, before the script. */
export function preloadPayload() {
  return {
    name: "nexttoken-preload-payload",
    transformIndexHtml: {
      order: "post",
      handler(html, ctx) {
        if (ctx.bundle === undefined) return html;
        const names = Object.keys(ctx.bundle);
        const files = PAYLOAD.map((pattern) => {
          const found = names.filter((name) => pattern.test(name));
          if (found.length !== 1) throw new Error(`preload: expected one file matching ${pattern}, found ${found.length}`);
          return found[0];
        });
        // after the CSP meta (which governs them), before the script
        const links = files.map((file) => `<link rel="preload" href="./${file}" as="fetch" crossorigin />\n    `).join("");
        const at = html.indexOf("<script type=\"module\"");
        if (at < 0) throw new Error("preload: index.html has no module script");
        return html.slice(0, at) + links + html.slice(at);
      },
    },
  };
}

/** The early script's text: the requests for the wasm and the model, made at once, for src/early.ts. */
function earlyScript([wasm, weights, tokenizer]) {
  const url = (file) => JSON.stringify("./" + file);
  return `"use strict";
(function () {
  // (the bundle runs after this script; should it ever run first, it has fetched for itself)
  if (window.nexttokenEarly !== undefined) return;
  var early = { wasm: fetch(${url(wasm)}), files: {} };
  early.wasm.catch(function () {});
  [${url(weights)}, ${url(tokenizer)}].forEach(function (path) {
    var href = new URL(path, document.baseURI).href;
    early.files[href] = fetch(href);
    early.files[href].catch(function () {});
  });
  window.nexttokenEarly = early;
})();
`;
}

/** Vite plugin: the early script (emitted next to the payload) and its tag in index.html's head. */
export function earlyRequests() {
  let early = null;
  return {
    name: "nexttoken-early-requests",
    generateBundle: {
      order: "pre",
      handler(_options, bundle) {
        const files = PAYLOAD.map((pattern) => {
          const found = Object.keys(bundle).filter((name) => pattern.test(name));
          if (found.length !== 1) throw new Error(`early script: expected one file matching ${pattern}, found ${found.length}`);
          return found[0];
        });
        const source = earlyScript(files);
        const hash = createHash("sha256").update(source).digest("hex").slice(0, 8);
        early = `assets/early-${hash}.js`;
        this.emitFile({ type: "asset", fileName: early, source });
      },
    },
    transformIndexHtml: {
      order: "post",
      handler(html, ctx) {
        if (ctx.bundle === undefined) return html;
        if (early === null) throw new Error("early script: no early script emitted");
        // last in the head: the bundle's and the stylesheet's requests are made before the parser
        // waits on this one; a classic script, so it runs before the bundle (which is deferred)
        const at = html.indexOf("</head>");
        if (at < 0 || !html.includes("<script type=\"module\"")) throw new Error("early script: index.html has no head or no module script");
        return html.slice(0, at) + `  <script src="./${early}"></script>\n  ` + html.slice(at);
      },
    },
  };
}
