// Vite builds the static page into ../dist with relative URLs, so dist/ works from any path.
import { defineConfig } from "vite";

export default defineConfig({
  base: "./",
  build: {
    outDir: "../dist",
    emptyOutDir: true,
    target: "es2022",
    // Keep the wasm as a separate file (never inlined as a data: URL).
    assetsInlineLimit: 0,
  },
  server: { host: "127.0.0.1" },
});
