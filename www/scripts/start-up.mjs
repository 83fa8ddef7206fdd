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
