// Starts llama.cpp's real HTTP server (the xllamacpp wheel, tests/tools/llama_server.py) on a
// free loopback port, serving the project's own model as GGUF (`make gguf`). Shared by the
// server tests in Node and in the browser. The server ends when its stdin closes, so it never
// outlives the test process.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
export const VENV_PYTHON = `${root}target/venv/bin/python`;
export const GGUF = `${root}target/gguf/nexttoken.gguf`;
const SCRIPT = `${root}tests/tools/llama_server.py`;

/**
 * @param {{exact?: boolean}} options exact: f32 KV cache and flash attention off
 * @returns {Promise<{url: string, port: number, stop: () => void}>}
 */
export async function startLlamaServer({ exact = false } = {}) {
  if (!existsSync(VENV_PYTHON)) throw new Error(`${VENV_PYTHON} is missing: run \`make setup\``);
  if (!existsSync(GGUF)) throw new Error(`${GGUF} is missing: run \`make gguf\``);
  const args = [SCRIPT, "--model", GGUF, ...(exact ? ["--exact"] : [])];
  const child = spawn(VENV_PYTHON, args, { cwd: root, stdio: ["pipe", "pipe", "pipe"] });
  let log = "";
  child.stderr.on("data", (d) => {
    log = (log + d).slice(-4000);
  });
  const ready = await new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`llama.cpp server not ready after 30 s:\n${log}`)), 30_000);
    child.stdout.on("data", (d) => {
      out += d;
      const line = out.split("\n")[0];
      if (out.includes("\n")) {
        clearTimeout(timer);
        resolve(JSON.parse(line));
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`llama.cpp server exited (${code}):\n${log}`));
    });
  });
  child.removeAllListeners("exit");
  // Never keep the test process alive for the server's sake.
  child.unref();
  for (const s of [child.stdin, child.stdout, child.stderr]) /** @type {any} */ (s).unref?.();
  return {
    url: ready.url,
    port: ready.port,
    stop: () => {
      child.stdin.end();
      child.kill("SIGTERM");
    },
  };
}

/** POST JSON to the server, the parsed JSON back (throws on a non-2xx status). */
export async function postJson(url, body) {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}
