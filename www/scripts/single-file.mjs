// The single-file build: `vite build --mode single` (run by `npm run build` after the normal build)
// writes dist/nexttoken.html, the whole page in one file that works opened from disk (file://)
// with no network at all — a teacher copies it to a USB stick.
//
// Two steps, both here:
//  1. `src/payload.ts` (same-origin URLs) is swapped for a generated module that carries the wasm
//     and the weights as base64 and tokenizer.json as text, with INLINE = true: the page compiles
//     the wasm with wasm-bindgen's `initSync` and never fetches (the fetching path is tree-shaken).
//  2. The built HTML gets its one script and its stylesheet inline, and its CSP is replaced by one
//     allowing exactly those two (by sha256) plus wasm compilation, with `default-src 'none'` and
//     `connect-src 'none'`: the file provably makes no request. Every other emitted file is dropped.
//  3. The same page again as dist/nexttoken-server.html, whose CSP differs only in
//     `connect-src http://127.0.0.1:* http://localhost:*`: the single file for use with a model
//     server on this computer (issue 12), opt-in by choosing that file.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const WWW = fileURLToPath(new URL("../", import.meta.url));
const PAYLOAD = fileURLToPath(new URL("../src/payload.ts", import.meta.url));
const VIRTUAL = "\0nexttoken-inline-payload";
export const SINGLE_FILE = "nexttoken.html";

const base64 = (path) => readFileSync(new URL(path, `file://${WWW}`)).toString("base64");

/** The generated stand-in for src/payload.ts (same exports, see its types there). */
function inlinePayload() {
  const wasm = base64("pkg/nexttoken_bg.wasm");
  const weights = base64("model/model.safetensors");
  const tokenizer = readFileSync(new URL("model/tokenizer.json", `file://${WWW}`), "utf8");
  return `
const decode = (text) => {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
};
export const INLINE = true;
export function wasmBytes() {
  return decode(${JSON.stringify(wasm)});
}
export const MODEL_FILES = {
  inline: true,
  weights: () => decode(${JSON.stringify(weights)}),
  tokenizerJson: ${JSON.stringify(tokenizer)},
};
`;
}

const sha256 = (text) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

/**
 * Script text safe between <script> and </script>: the HTML parser ends the element at `</script`
 * (written `<\/script`, the same string to JS), and after `<!--` it changes how it reads the rest,
 * which no rewrite fixes everywhere (strings, regexes, code) — refuse it, it does not occur today.
 */
function scriptText(code) {
  const text = code.replace(/<\/(script)/gi, "<\\/$1");
  if (text.includes("<!--")) throw new Error(`${SINGLE_FILE}: the bundle contains "<!--", unsafe to inline`);
  return text;
}

/** The single file for use with a model server on this computer (issue 12): loopback only. */
export const SERVER_FILE = "nexttoken-server.html";
export const SERVER_CONNECT = "http://127.0.0.1:* http://localhost:*";

/** The Content-Security-Policy of the single file: only its own inline script and style. */
export function singleFileCsp(script, style, connect = "'none'") {
  return [
    "default-src 'none'",
    `script-src ${sha256(script)} 'wasm-unsafe-eval'`,
    `style-src ${sha256(style)}`,
    "img-src data:",
    `connect-src ${connect}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

/** Vite plugin for `--mode single` (see vite.config.ts). */
export function singleFile() {
  return {
    name: "nexttoken-single-file",
    enforce: "pre",
    async resolveId(source, importer, options) {
      if (importer === undefined || !/payload(\.ts)?$/.test(source)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved?.id === PAYLOAD ? VIRTUAL : null;
    },
    load(id) {
      return id === VIRTUAL ? inlinePayload() : null;
    },
    generateBundle: {
      order: "post",
      handler(_options, bundle) {
        const files = Object.values(bundle);
        const page = files.find((f) => f.type === "asset" && f.fileName === "index.html");
        if (page === undefined) throw new Error(`${SINGLE_FILE}: no index.html in the bundle`);
        const byName = new Map(files.map((f) => [f.fileName, f]));
        const take = (url, type) => {
          const file = byName.get(url.replace(/^\.\//, ""));
          if (file?.type !== type) throw new Error(`${SINGLE_FILE}: ${url} is not a built ${type}`);
          return type === "chunk" ? file.code : String(file.source);
        };
        let html = String(page.source);
        const scripts = [];
        const styles = [];
        html = html.replace(/<script type="module"[^>]*\ssrc="([^"]+)"[^>]*><\/script>/g, (_, src) => {
          scripts.push(scriptText(take(src, "chunk")));
          return "\0script";
        });
        html = html.replace(/<link rel="stylesheet"[^>]*\shref="([^"]+)"[^>]*>/g, (_, href) => {
          styles.push(take(href, "asset").replace(/<\/(style)/gi, "<\\/$1"));
          return "\0style";
        });
        if (scripts.length !== 1 || styles.length !== 1) {
          throw new Error(`${SINGLE_FILE}: expected one script and one stylesheet, got ${scripts.length} and ${styles.length}`);
        }
        const [script, style] = [scripts[0], styles[0]];
        const csp = /<meta http-equiv="Content-Security-Policy"[^>]*>/;
        if (!csp.test(html)) throw new Error(`${SINGLE_FILE}: index.html has no CSP meta to replace`);
        // anything still pointing at a file would fail from a USB stick: refuse to build it
        const left = html.match(/\s(?:src|href)="(?!data:|#)[^"]*"/);
        if (left !== null) throw new Error(`${SINGLE_FILE}: still refers to a file: ${left[0].trim()}`);
        const inline = (connect) =>
          html
            .replace(csp, () => `<meta http-equiv="Content-Security-Policy" content="${singleFileCsp(script, style, connect)}" />`)
            .replace("\0style", () => `<style>${style}</style>`)
            .replace("\0script", () => `<script type="module">${script}</script>`);
        for (const name of Object.keys(bundle)) delete bundle[name];
        this.emitFile({ type: "asset", fileName: SINGLE_FILE, source: inline("'none'") });
        // the same file that may also reach a model server on this computer, for teachers who opt in
        this.emitFile({ type: "asset", fileName: SERVER_FILE, source: inline(SERVER_CONNECT) });
      },
    },
  };
}
