"""The project's own model as a GGUF file for llama.cpp's `gpt2` architecture (`make gguf`).

Reads the shipped weights (www/model/model.safetensors, int8 rows dequantised exactly as
src/model does: q · scale in float32) and tokenizer.json, and writes F32 tensors whose forward
pass in llama.cpp equals ours (tests/node/server.test.mjs checks it within 5e-3 per log-prob):

- gpt2 normalises with LayerNorm (with bias); our RMSNorm is reproduced by carrying the residual
  stream doubled as [x, −x]: its mean is 0 and its variance mean(x²), so LayerNorm with gain
  [g, 0] and bias 0 gives [rms(x)·g, 0]. Every tensor that writes the residual writes [o, −o].
- Heads are zero-padded from hd to 2·hd channels (gpt2 derives the head size from the width);
  Q is scaled by √2 to undo the wider 1/√(2·hd) softmax scale. All biases are 0.
- No `output` tensor: llama.cpp then uses token_embd, i.e. our tied embedding, and [n, 0]·[e, −e]
  = n·e are our logits.
- The tokenizer as a SentencePiece-style ("llama") vocabulary: spaces written as U+2581, byte
  tokens `<0xXX>` typed BYTE, score −(merge rank) for merged tokens, no space prefix, no BOS.

usage: python export_gguf.py [--model DIR] [--out FILE]
"""

import argparse
import json
import math
import struct
import sys
from pathlib import Path

import gguf
import numpy as np

DTYPES = {"F32": np.float32, "F16": np.float16, "I8": np.int8}


def read_safetensors(path):
    raw = Path(path).read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + n])
    meta = header.pop("__metadata__", {})
    body = raw[8 + n :]
    tensors = {}
    for name, t in header.items():
        start, end = t["data_offsets"]
        dtype = DTYPES.get(t["dtype"])
        if dtype is None:
            sys.exit(f"export_gguf: tensor {name}: dtype {t['dtype']} is not F32, F16 or I8")
        tensors[name] = np.frombuffer(body[start:end], dtype=dtype).reshape(t["shape"])
    return meta, tensors


def weight(tensors, name):
    """A tensor as float32, int8 rows times their `.scale` (the same float32 product as src/model)."""
    t = tensors[name]
    if t.dtype == np.int8:
        scale = tensors[f"{name}.scale"].astype(np.float32)
        return t.astype(np.float32) * scale[:, None]
    return t.astype(np.float32)


def doubled_rows(w):
    """A matrix that writes the residual stream: rows [w; −w]."""
    return np.concatenate([w, -w], axis=0)


def padded_input(w, width):
    """A matrix that reads the normalised stream [n, 0]: columns [w, 0]."""
    out = np.zeros((w.shape[0], width), dtype=np.float32)
    out[:, : w.shape[1]] = w
    return out


def norm_gain(g):
    return np.concatenate([g, np.zeros_like(g)])


def heads_padded(w, n_heads, scale=1.0):
    """Rows of one of q/k/v (dim × dim, head-major) spread to 2·hd channels per head."""
    dim = w.shape[0]
    hd = dim // n_heads
    out = np.zeros((2 * dim, w.shape[1]), dtype=np.float32)
    for h in range(n_heads):
        out[2 * hd * h : 2 * hd * h + hd] = w[hd * h : hd * (h + 1)] * np.float32(scale)
    return out


def heads_unpadded_input(w, n_heads):
    """Columns of the attention output projection read from the padded heads."""
    dim = w.shape[1]
    hd = dim // n_heads
    out = np.zeros((w.shape[0], 2 * dim), dtype=np.float32)
    for h in range(n_heads):
        out[:, 2 * hd * h : 2 * hd * h + hd] = w[:, hd * h : hd * (h + 1)]
    return out


def vocabulary(tokenizer):
    model = tokenizer["model"]
    vocab = sorted(model["vocab"].items(), key=lambda kv: kv[1])
    if [i for _, i in vocab] != list(range(len(vocab))):
        sys.exit("export_gguf: tokenizer.json ids are not 0..n-1")
    rank = {}
    for r, m in enumerate(model["merges"]):
        a, b = m if isinstance(m, list) else m.split(" ", 1)
        rank.setdefault(a + b, r)
    special = {t["content"] for t in tokenizer.get("added_tokens", [])} | {"<s>", "</s>"}
    tokens, scores, types = [], [], []
    for text, _ in vocab:
        if text == model.get("unk_token"):
            kind = gguf.TokenType.UNKNOWN
        elif text in special:
            kind = gguf.TokenType.CONTROL
        elif len(text) == 6 and text.startswith("<0x") and text.endswith(">"):
            kind = gguf.TokenType.BYTE
        else:
            kind = gguf.TokenType.NORMAL
        tokens.append(text if kind != gguf.TokenType.NORMAL else text.replace(" ", "\u2581"))
        scores.append(-float(rank[text]) if text in rank else 0.0)
        types.append(kind)
    ids = {text: i for text, i in vocab}
    return tokens, scores, types, ids


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="www/model", help="directory with model.safetensors and tokenizer.json")
    ap.add_argument("--out", default="target/gguf/nexttoken.gguf")
    args = ap.parse_args()
    meta, t = read_safetensors(Path(args.model) / "model.safetensors")
    tokenizer = json.loads((Path(args.model) / "tokenizer.json").read_text(encoding="utf-8"))
    vocab_size, dim, n_layers, n_heads, seq_len = (
        int(meta[k]) for k in ("vocab_size", "dim", "n_layers", "n_heads", "seq_len")
    )
    width = 2 * dim
    tokens, scores, types, ids = vocabulary(tokenizer)
    if len(tokens) != vocab_size:
        sys.exit(f"export_gguf: tokenizer has {len(tokens)} tokens, the model {vocab_size}")

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    w = gguf.GGUFWriter(str(out), "gpt2")
    w.add_name("nexttoken")
    w.add_description("nexttoken's embedded model (RMSNorm GPT) mapped exactly onto gpt2")
    w.add_context_length(seq_len)
    w.add_embedding_length(width)
    w.add_feed_forward_length(t["blocks.0.mlp_up"].shape[0])
    w.add_block_count(n_layers)
    w.add_head_count(n_heads)
    w.add_layer_norm_eps(1e-5)  # src/model's RMSNorm epsilon (model::EPS)
    w.add_file_type(gguf.LlamaFileType.ALL_F32)
    w.add_tokenizer_model("llama")
    w.add_token_list(tokens)
    w.add_token_scores(scores)
    w.add_token_types(types)
    w.add_unk_token_id(ids["<unk>"])
    w.add_bos_token_id(ids["<s>"])
    w.add_eos_token_id(ids["</s>"])
    w.add_add_bos_token(False)
    w.add_add_eos_token(False)
    w.add_add_space_prefix(False)

    def tensor(name, array):
        w.add_tensor(name, np.ascontiguousarray(array, dtype=np.float32))

    tensor("token_embd.weight", np.concatenate([weight(t, "tok_emb"), -weight(t, "tok_emb")], axis=1))
    tensor("position_embd.weight", np.concatenate([weight(t, "pos_emb"), -weight(t, "pos_emb")], axis=1))
    for l in range(n_layers):
        p = f"blocks.{l}."
        qkv = weight(t, p + "attn_qkv")
        q, k, v = qkv[:dim], qkv[dim : 2 * dim], qkv[2 * dim :]
        fused = np.concatenate(
            [heads_padded(q, n_heads, math.sqrt(2.0)), heads_padded(k, n_heads), heads_padded(v, n_heads)]
        )
        b = f"blk.{l}."
        tensor(b + "attn_norm.weight", norm_gain(weight(t, p + "norm1")))
        tensor(b + "attn_norm.bias", np.zeros(width))
        tensor(b + "attn_qkv.weight", padded_input(fused, width))
        tensor(b + "attn_qkv.bias", np.zeros(3 * width))
        tensor(b + "attn_output.weight", doubled_rows(heads_unpadded_input(weight(t, p + "attn_out"), n_heads)))
        tensor(b + "attn_output.bias", np.zeros(width))
        tensor(b + "ffn_norm.weight", norm_gain(weight(t, p + "norm2")))
        tensor(b + "ffn_norm.bias", np.zeros(width))
        up = weight(t, p + "mlp_up")
        tensor(b + "ffn_up.weight", padded_input(up, width))
        tensor(b + "ffn_up.bias", np.zeros(up.shape[0]))
        tensor(b + "ffn_down.weight", doubled_rows(weight(t, p + "mlp_down")))
        tensor(b + "ffn_down.bias", np.zeros(width))
    tensor("output_norm.weight", norm_gain(weight(t, "norm_f")))
    tensor("output_norm.bias", np.zeros(width))

    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    print(f"export_gguf: wrote {out} ({out.stat().st_size:,} bytes; gpt2, vocab {vocab_size}, width {width})")


if __name__ == "__main__":
    main()
