#!/usr/bin/env bash
# Idempotent setup: installs every tool the build and the tests need, and nothing by hand.
# Run by `make setup` (which `make serve` and `make test` call first). Safe to re-run: each step
# checks first and does nothing when the tool is already there at the right version.
set -euo pipefail
cd "$(dirname "$0")/../.."

say() { printf '\033[1msetup:\033[0m %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
# A download cut off by the network (npm's "ECONNRESET … aborted" failed a clean-clone CI once) is
# tried again, up to three times in all, before the setup gives up.
retry() {
  local attempt
  for attempt in 1 2 3; do
    "$@" && return 0
    [ "$attempt" = 3 ] || { say "failed (attempt $attempt of 3), trying again in 10 s: $*"; sleep 10; }
  done
  return 1
}

# 1. The wasm target for the one rustup toolchain on the machine.
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# 2. wasm-bindgen-cli at exactly the wasm-bindgen version pinned in Cargo.lock (the CLI and the
#    crate must agree byte for byte on the ABI, or the generated JS fails at load).
wb_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$wb_version" ]; then
  say "installing wasm-bindgen-cli $wb_version"
  # --locked fails on this registry mirror (one pinned dependency is missing), so fall back.
  cargo install wasm-bindgen-cli --version "=$wb_version" --locked \
    || cargo install wasm-bindgen-cli --version "=$wb_version"
fi

# 3. Chromium and its driver, from Debian, for the browser tests (never a downloaded browser), and
#    a CJK font so the Chinese interface renders in screenshots (the page itself ships no fonts).
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null || ! fc-list 2>/dev/null | grep -qi wqy; then
  say "installing Debian chromium, chromium-driver and fonts-wqy-microhei"
  retry as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive retry as_root apt-get install -y -qq chromium chromium-driver fonts-wqy-microhei fontconfig
fi

# 4. Node packages from the committed lockfile (binaryen's wasm-opt, playwright-core, typescript,
#    vite, d3, and the benchmark's transformers.js). --ignore-scripts: transformers.js would try to
#    download onnxruntime binaries, which cannot work offline and which nothing here uses.
stamp=www/node_modules/.package-lock.sha
want=$(sha256sum www/package-lock.json | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  say "installing Node packages (npm ci)"
  (cd www && retry npm ci --ignore-scripts --no-audit --no-fund)
  echo "$want" > "$stamp"
fi
# 5. llama.cpp's own server (xllamacpp) and the GGUF writer (gguf + numpy) in a project-local
#    virtual environment, target/venv, for the real-engine tests (issue 12). Pinned in
#    tests/tools/requirements-engines.txt; reinstalled only when that file changes.
venv=target/venv
stamp=$venv/.requirements.sha
want=$(sha256sum tests/tools/requirements-engines.txt | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ] || ! "$venv/bin/python" -c 'import xllamacpp, gguf' 2>/dev/null; then
  say "installing xllamacpp and gguf into $venv"
  if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
    # Debian splits venv out of python3
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq python3-venv
  fi
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  retry "$venv/bin/python" -m pip install -q --disable-pip-version-check -r tests/tools/requirements-engines.txt
  echo "$want" > "$stamp"
fi
say "ready"
