"""Runs llama.cpp's own HTTP server (the xllamacpp wheel) on a free loopback port for the tests.

Prints one JSON line {"port": N, "url": "http://127.0.0.1:N"} once the model is loaded and the
server listens, then serves until its standard input closes (so it ends with the test that
spawned it, even if that test is killed) or it receives SIGTERM.

usage: python llama_server.py [--model target/gguf/nexttoken.gguf] [--port 0] [--exact]
  --port 0   pick a free port (retried if another process takes it first)
  --exact    f32 KV cache and flash attention off: only the engine's arithmetic differs from ours
"""

import argparse
import json
import os
import signal
import socket
import sys

import xllamacpp


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(model, port, exact, threads):
    p = xllamacpp.CommonParams()
    p.model.path = model
    p.n_ctx = 0  # the model's own context (128 for ours)
    p.n_parallel = 1
    p.hostnames = ["127.0.0.1"]
    p.port = port
    p.cpuparams.n_threads = threads
    p.cpuparams_batch.n_threads = threads
    p.cpuparams.poll = 0  # no busy-waiting threads on a shared machine
    p.cpuparams_batch.poll = 0
    p.ui = False
    if exact:
        p.cache_type_k = xllamacpp.ggml_type.GGML_TYPE_F32
        p.cache_type_v = xllamacpp.ggml_type.GGML_TYPE_F32
        p.flash_attn_type = xllamacpp.llama_flash_attn_type.LLAMA_FLASH_ATTN_TYPE_DISABLED
    return xllamacpp.Server(p)


def listening(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="target/gguf/nexttoken.gguf")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--exact", action="store_true")
    args = ap.parse_args()
    server = None
    for _ in range(5):
        port = args.port or free_port()
        try:
            server = start(args.model, port, args.exact, args.threads)
        except Exception as e:  # a port taken between free_port() and the bind: try another
            print(f"llama_server: port {port}: {e}", file=sys.stderr)
            continue
        if listening(port):
            break
        server = None
        if args.port:
            break
    if server is None:
        sys.exit("llama_server: could not start llama.cpp's server")
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    print(json.dumps({"port": port, "url": f"http://127.0.0.1:{port}"}), flush=True)
    sys.stdin.read()  # until the parent closes the pipe or exits
    os._exit(0)  # without waiting for the server's threads


if __name__ == "__main__":
    main()
