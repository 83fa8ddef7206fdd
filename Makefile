# nexttoken — two commands take a fresh clone to a running page and to green tests:
#   make serve   build everything and serve the playground at http://127.0.0.1:8000
#   make test    every test: native, conformance (Rust + Node), wasm in Node and Chromium, browser
# Both run `make setup` first, which installs every tool the build needs (idempotent).

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
export PATH := $(HOME)/.cargo/bin:$(CURDIR)/www/node_modules/.bin:$(PATH)

WASM_TARGET := wasm32-unknown-unknown
WASM_OUT := target/$(WASM_TARGET)/wasm-release/nexttoken.wasm
PKG := www/pkg
# Features every engine we target has had since 2023; wasm-opt must be told what the input uses.
WASM_OPT_FEATURES := --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-mutable-globals --enable-reference-types --enable-multivalue --enable-simd
# Headless Chromium for wasm-bindgen-test (capabilities, sandbox flags for root), with the
# runner's limits raised for a loaded machine (5 s for chromedriver to bind its port and 20 s
# for the suite by default; limits, not waits). tests/tools/wasm-browser-test.sh runs it again
# only when the runner's own server left the test page unloaded (see there).
WEBDRIVER_ENV := CHROMEDRIVER=/usr/bin/chromedriver WASM_BINDGEN_TEST_WEBDRIVER_JSON=$(CURDIR)/tests/wasm/webdriver.json \
  WASM_BINDGEN_TEST_DRIVER_TIMEOUT=60 WASM_BINDGEN_TEST_TIMEOUT=120
# 8000, not 8080: 8080 is where llama.cpp's llama-server listens by default (the page's default
# model-server address), so the page and a local model server can run side by side.
PORT ?= 8000

.PHONY: setup wasm dist serve test test-native test-wasm test-node test-browser lint bench fuzz train train-run train-eval clean gguf

setup:
	@bash tests/tools/setup.sh

# The wasm module and its ES-module glue + TypeScript types, optimised for size. Functions kept
# apart from their one caller (the engine optimises a function between calls, not within one; see
# src/model/batch.rs's `attend`, src/decode/gathered.rs's loops): --no-inline marks them, one flag
# per pattern (a comma does not separate patterns), and must come before -Oz.
WASM_NO_INLINE := --no-inline='*model::batch::attend*' --no-inline='*decode::gathered::*'
wasm: setup
	cargo build --profile wasm-release --lib --target $(WASM_TARGET)
	wasm-bindgen --target web --out-dir $(PKG) --out-name nexttoken $(WASM_OUT)
	wasm-opt $(WASM_NO_INLINE) -Oz $(WASM_OPT_FEATURES) $(PKG)/nexttoken_bg.wasm -o $(PKG)/nexttoken_bg.wasm
	@ls -l $(PKG)/nexttoken_bg.wasm | awk '{print "wasm: " $$5 " bytes"}'

# The shipped model as GGUF for llama.cpp's gpt2 architecture (tests/tools/export_gguf.py: the
# exact mapping, from the int8 weights in www/model), for the real-engine tests and for trying the
# page's server source without downloading a model: serve it with tests/tools/llama_server.py.
GGUF := target/gguf/nexttoken.gguf
VENV_PY := target/venv/bin/python
gguf: setup $(GGUF)
$(GGUF): www/model/model.safetensors www/model/tokenizer.json tests/tools/export_gguf.py tests/tools/requirements-engines.txt
	$(VENV_PY) tests/tools/export_gguf.py --model www/model --out $@

# The static site (TypeScript checked, then bundled by Vite with the wasm) in dist/, and the same
# page as one self-contained file for use from disk, dist/nexttoken.html (www/scripts/single-file.mjs).
dist: wasm
	cd www && npm run build

serve: dist
	@echo "serving http://127.0.0.1:$(PORT)/  (Ctrl-C to stop)"
	python3 -m http.server $(PORT) --bind 127.0.0.1 --directory dist

test: setup lint test-native dist test-node test-wasm test-browser
	@echo "all tests passed"

# Formatting, clippy as errors, the module boundaries (the core knows nothing of wasm), and the
# page's TypeScript under --strict (it needs the generated www/pkg types, hence `wasm`).
lint: wasm
	cargo fmt --check
	cargo clippy --all-targets --features train -- -D warnings
	cargo clippy --lib --target $(WASM_TARGET) -- -D warnings
	@! grep -rlE 'wasm_bindgen|js_sys|web_sys' src/decode || (echo "lint: src/decode must not know wasm" && false)
	cd www && tsc --strict --noEmit -p tsconfig.json

# Unit, property, conformance (native, through check_dist.py), model, tokenizer, trainer smoke
# and doc tests. `train` adds the trainer's tests (backward pass, a CI-sized run whose loss falls).
test-native: setup
	cargo test --release --features train

# The JS contract in Node: conformance vectors through the built module, errors, determinism;
# llama.cpp's real server (server.test.mjs) against our forward, hence `gguf`.
test-node: wasm gguf
	node --test tests/node/

# wasm-bindgen-test suites, in Node and in headless Chromium.
test-wasm: setup
	cargo test --target $(WASM_TARGET) --test wasm_api
	$(WEBDRIVER_ENV) WASM_BINDGEN_USE_BROWSER=1 tests/tools/wasm-browser-test.sh

# The page in a real browser (Playwright driving Debian's Chromium); server.test.mjs drives it
# against llama.cpp's real server, hence `gguf`.
test-browser: dist gguf
	node --test tests/e2e/

bench: dist
	cargo bench --bench step
	node tests/bench/step.mjs
	node tests/bench/summary.mjs
	node tests/bench/model.mjs
	node tests/bench/page-link.mjs
	node tests/bench/page-step.mjs

# The embedded model, second edition (issue 13; model card in README.md). Hours of CPU on 2 cores,
# so it runs in the background in directories outside the worktree that persist, and is
# resumable: `make train-run` starts each run or, after any interruption, continues it from its
# ckpt.bin (saved every 250 steps; batches and dropout masks depend only on seed and step, so a
# resumed run ends byte-identical to an uninterrupted one). Two runs, one after the other:
#   base ($(TRAIN_DIR)): 7,250 steps of a 15,000-step schedule, every paragraph ending in </s>
#     (`--breaks line`, the first edition's format);
#   text ($(TRAIN_TEXT_DIR)): a fine-tune from the base's weights in which a text's paragraphs
#     are joined by a newline and only its end is </s> (`--breaks text`), so a question or a
#     heading is no longer followed by the end token.
# Keep the ARGS unchanged while resuming (--steps sets the LR schedule). The tokenizer is the
# committed first edition's www/model/tokenizer.json, unchanged (see the model card).
# `make train` = both runs to the end, export the fine-tune's int8 weights to
# $(TRAIN_TEXT_DIR)/model.safetensors, then evaluate the shipped weights (before) and the new ones
# (after) on the same targets, in both formats; copy them into www/model/ only when every target,
# tests/model.rs, generator.rs, generator_batch.rs and model_loading.rs (NEXTTOKEN_MODEL=...) and the lessons hold.
# `make train-eval WEIGHTS=...` evaluates any weights (held-out loss per file vs the Kneser-Ney
# 3-gram fitted on the same training stream; greedy fluency on src/train/eval_prompts.txt).
TRAIN_DIR ?= ../train-v2/run
TRAIN_TEXT_DIR ?= ../train-v2/text
TRAIN_SHAPE := --dim 128 --layers 7 --heads 4 --ctx 128 --batch 16
TRAIN_RUN_ARGS := --dir $(TRAIN_DIR) $(TRAIN_SHAPE) --breaks line \
	--steps 15000 --until 7250 --warmup 300 --lr 2e-3 --wd 0.1 --dropout 0.1 --seed 3 --eval-every 250
TRAIN_TEXT_ARGS := --dir $(TRAIN_TEXT_DIR) --init $(TRAIN_DIR)/ckpt.bin $(TRAIN_SHAPE) --breaks text \
	--steps 3000 --warmup 100 --lr 1.2e-3 --wd 0.1 --dropout 0.1 --seed 4 --eval-every 250
WEIGHTS ?= www/model/model.safetensors
TRAIN_BIN := cargo run --release --features train --bin train --
train-run: setup
	MATMUL_NUM_THREADS=2 nice -n 19 $(TRAIN_BIN) run $(TRAIN_RUN_ARGS)
	MATMUL_NUM_THREADS=2 nice -n 19 $(TRAIN_BIN) run $(TRAIN_TEXT_ARGS)

train-eval: setup
	nice -n 19 $(TRAIN_BIN) eval --weights $(WEIGHTS) --breaks text
	nice -n 19 $(TRAIN_BIN) eval --weights $(WEIGHTS) --breaks line
	nice -n 19 $(TRAIN_BIN) greedy --weights $(WEIGHTS)

train: train-run
	$(TRAIN_BIN) export --dir $(TRAIN_TEXT_DIR) --out $(TRAIN_TEXT_DIR)/model.safetensors
	$(MAKE) train-eval WEIGHTS=www/model/model.safetensors
	$(MAKE) train-eval WEIGHTS=$(TRAIN_TEXT_DIR)/model.safetensors

# A million random logits/configs (arbitrary floats, keys and types) through step: no panic; then
# 100,000 hostile JavaScript values through the wasm boundary: only Errors, no trap, no leak.
fuzz: wasm
	FUZZ_CASES=1000000 cargo test --release --test fuzz -- --nocapture
	BOUNDARY_FUZZ_CALLS=100000 node --test tests/node/boundary-fuzz.test.mjs

clean:
	rm -rf target $(PKG)
