// V8's explicit compile hint for the page's script: `//# allFunctionsCalledOnLoad` on its first line
// has Chromium (136+) compile every function of the bundle eagerly, on a background thread while
// the script streams in, instead of lazily on the main thread when each is first called. Opening
// the page calls most of the bundle (the views, D3, the lessons' set-up) before it is ready, so
// that lazy compiling was ~150–250 ms of the main thread's time (profiled, Chromium 156); other
// engines read a comment. Added after minification (which drops comments), before the single-file
// pass inlines the script (so its CSP hash covers the comment).
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
