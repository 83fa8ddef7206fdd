// Vite builds the static page into ../dist with relative URLs, so dist/ works from any path.
// `vite build --mode single` (the second half of `npm run build`) adds dist/nexttoken.html, the
// same page in one self-contained file for use from disk (scripts/single-file.mjs).
import { defineConfig } from "vite";
import { compileHints, earlyRequests, preloadPayload } from "./scripts/start-up.mjs";
import { singleFile } from "./scripts/single-file.mjs";

export default defineConfig(({ mode }) => {
  const single = mode === "single";
  // `vite build --mode element` (last in `npm run build`) adds dist/nexttoken-element.js, the
  // <nexttoken-playground> element for course pages (src/element.ts)
  if (mode === "element") {
    return {
      base: "./",
      build: {
        outDir: "../dist",
        emptyOutDir: false,
        copyPublicDir: false,
        target: "es2022",
        lib: { entry: "src/element.ts", formats: ["iife"], name: "nexttoken", fileName: () => "nexttoken-element.js" },
      },
    };
  }
  return {
    base: "./",
    plugins: single ? [compileHints(), singleFile()] : [compileHints(), preloadPayload(), earlyRequests()],
    build: {
      outDir: "../dist",
      // the single-file pass runs second and adds one file to the multi-file build
      emptyOutDir: !single,
      copyPublicDir: !single,
      target: "es2022",
      // Keep the wasm as a separate file (never inlined as a data: URL).
      assetsInlineLimit: 0,
      // one script: no chunks to preload, so no preload polyfill either
      ...(single ? { modulePreload: false, rollupOptions: { output: { inlineDynamicImports: true } } } : {}),
    },
    server: { host: "127.0.0.1" },
  };
});
