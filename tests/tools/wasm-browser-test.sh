#!/usr/bin/env bash
# The wasm-bindgen-test suite in headless Chromium, run again only when the suite never started.
#
# Why: wasm-bindgen-test-runner serves the test page with tiny_http 0.12, whose task pool counts
# a thread as waiting until it runs, so new connections arriving together beyond the idle threads
# (four at start, one holding the page's own connection) are queued and, while Chromium's
# keep-alive connections hold every thread, never served. The page then waits for one of its JS
# modules for good ("Loading scripts...": `src/wasm/vocab.js` pending after 300 s, in CI and in a
# clean-clone run). The glue's snippet modules were five; they are three again (boundary.js,
# columns.js, generator.js; tests/node/glue-imports.test.mjs keeps it so): at load 5–6 the suite
# hung 4 of 6 times with five, 0 of 12 with three. This run-again is the second line of defence.
# A run that printed "test result:" is final, pass or fail; only a run that never got that far is
# tried again, at most three times, each bounded so a hung page costs minutes, not the runner's
# 300 s page-load limit plus its own.
set -uo pipefail
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for attempt in 1 2 3; do
  timeout --kill-after=10 240 cargo test --target wasm32-unknown-unknown --test wasm_api 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  [ "$status" -eq 0 ] && exit 0
  grep -q "test result:" "$log" && exit "$status"
  echo "wasm-browser-test: the test page never reported (attempt $attempt of 3, exit $status); trying again" >&2
done
exit 1
