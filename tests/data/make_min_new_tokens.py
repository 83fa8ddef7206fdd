#!/usr/bin/env python3
"""Writes min_new_tokens.json: conformance cases for `min_new_tokens` in the vector schema of
CONFORMANCE.md. The expectations were WRITTEN FROM the code of HF transformers'
MinNewTokensLengthLogitsProcessor (logits_process.py), NOT produced by running transformers:

    new_tokens_length = input_ids.shape[-1] - prompt_length_to_skip
    if new_tokens_length < min_new_tokens: scores[eos_token_id] = -inf   (eos: an id or a list)

It is a logits *processor* (applied for greedy and sampling, after repetition penalty, before
every warper), so: mask → (greedy: argmax) or (temperature → top-k → top-p → softmax). Here
`input_ids` is the vector's `history` and `prompt_length_to_skip` its `history_prompt_len`.
vLLM's `min_tokens` (len(output_token_ids) < min_tokens masks the stop ids) and llama.cpp's
`ignore_eos` (a −inf logit bias on the end token) give the same distributions for these cases,
which use only keys whose semantics all three share (T = 1 wherever top-p is on).

Standard library only; floats are float32-exact, probabilities are float64 softmax over the kept set.
Run: python3 tests/data/make_min_new_tokens.py > tests/data/min_new_tokens.json
"""
import json
import math
import struct

NEG = float("-inf")


def f32(x):
    return x if math.isinf(x) else struct.unpack("f", struct.pack("f", x))[0]


def base_config(**over):
    c = {"temperature": 1.0, "top_k": 0, "top_p": 1.0, "min_p": 0.0, "typical_p": 1.0,
         "epsilon_cutoff": 0.0, "repetition_penalty": 1.0, "frequency_penalty": 0.0,
         "presence_penalty": 0.0, "history": [], "history_prompt_len": 0, "penalty_last_n": -1,
         "min_keep": 0, "dynatemp_range": 0.0, "dynatemp_exponent": 1.0,
         "min_new_tokens": 0, "eos_token_id": 3}
    c.update(over)
    return c


def expected(logits, c):
    l = [f32(x) for x in logits]
    # repetition penalty (HF: once per distinct id, l < 0 ? l*r : l/r), in float32
    r = c["repetition_penalty"]
    for i in set(c["history"]):
        if l[i] != NEG:
            l[i] = f32(l[i] * r if l[i] < 0 else l[i] / r)
    # MinNewTokensLengthLogitsProcessor
    eos = c["eos_token_id"] if isinstance(c["eos_token_id"], list) else [c["eos_token_id"]]
    if len(c["history"]) - c["history_prompt_len"] < c["min_new_tokens"]:
        for e in eos:
            l[e] = NEG
    alive = [i for i, x in enumerate(l) if x != NEG]
    if not alive:
        return {"error": True, "error_reason": "every logit is -inf after the eos mask: softmax is NaN, "
                "torch.multinomial raises"}, {}
    margins = {}
    if c["temperature"] == 0:
        best = max(alive, key=lambda i: (l[i], -i))
        kept = [best]
        w = {best: 1.0}
    else:
        t = c["temperature"]
        order = sorted(alive, key=lambda i: (-l[i], i))
        if c["top_k"] > 0 and c["top_k"] < len(order):
            kth = l[order[c["top_k"] - 1]]
            margins["top_k"] = abs(kth - l[order[c["top_k"]]]) if c["top_k"] < len(order) else None
            order = [i for i in order if l[i] >= kth]
        mx = l[order[0]]
        w = {i: math.exp((l[i] - mx) / t) for i in order}
        if c["top_p"] < 1.0:
            z = sum(w.values())
            above, keep = 0.0, []
            for i in order:
                if keep and above / z >= c["top_p"]:
                    break
                margins["top_p"] = min(margins.get("top_p", 1.0), abs(above / z - c["top_p"]))
                keep.append(i)
                above += w[i]
            order = keep
            w = {i: w[i] for i in order}
        kept = sorted(order)
    z = sum(w[i] for i in kept)
    probs = [round(w[i] / z, 12) if i in kept else 0.0 for i in range(len(l))]
    top = max(kept, key=lambda i: (probs[i], -i))
    out = {"error": False, "probs": probs, "kept_ids": kept, "num_kept": len(kept), "argmax": top,
           "argmax_candidates": [top], "argmax_is_exact": True, "tie_groups": [],
           "final_logits": ["-inf" if x == NEG or i not in kept else x for i, x in enumerate(l)]}
    return out, margins


L = [1.5, 0.5, -0.25, 2.0, 0.0]  # id 3 is the end token, and the most likely one
CASES = [
    ("mnt_masks_eos_before_n", "edge", "1 new token (history 3, prompt 2) < min_new_tokens 3: eos removed",
     L, base_config(min_new_tokens=3, history=[0, 1, 2], history_prompt_len=2)),
    ("mnt_reached_allows_eos", "edge", "3 new tokens = min_new_tokens 3: nothing removed",
     L, base_config(min_new_tokens=3, history=[0, 1, 2, 1, 0], history_prompt_len=2)),
    ("mnt_counts_new_tokens_only", "edge",
     "history 6 ≥ 2 but only 1 new token (prompt 5) < 2: eos removed (unlike min_length)",
     L, base_config(min_new_tokens=2, history=[0, 1, 2, 4, 0, 1], history_prompt_len=5)),
    ("mnt_eos_list", "edge", "eos_token_id as a list [3, 4], no token generated yet: both removed",
     L, base_config(min_new_tokens=1, eos_token_id=[3, 4])),
    ("mnt_greedy", "edge", "greedy: the processor runs before the argmax, so the runner-up is chosen",
     L, base_config(temperature=0.0, min_new_tokens=5, history=[0], history_prompt_len=1)),
    ("mnt_then_top_k_1", "edge", "top-k 1 after the mask keeps the best non-end token",
     L, base_config(top_k=1, min_new_tokens=2)),
    ("mnt_then_top_p", "edge", "top-p 0.8 over the masked distribution",
     L, base_config(top_p=0.8, min_new_tokens=2, history=[1], history_prompt_len=0)),
    ("mnt_zero_is_off", "edge", "min_new_tokens 0: eos kept",
     L, base_config(min_new_tokens=0)),
    ("mnt_with_repetition_penalty", "edge", "repetition 1.5 on id 0, then the mask: id 1 and 0 compete",
     L, base_config(repetition_penalty=1.5, min_new_tokens=4, history=[0, 0], history_prompt_len=1)),
    ("mnt_only_eos_left", "error", "the end token is the only finite logit and is masked",
     [NEG, NEG, 1.0], base_config(min_new_tokens=1, eos_token_id=2)),
]


def main():
    cases = []
    for cid, cat, desc, logits, cfg in CASES:
        exp, margins = expected(logits, cfg)
        cases.append({"id": cid, "category": cat, "description": desc, "vocab_size": len(logits),
                      "config": cfg,
                      "logits": ["-inf" if x == NEG else f32(x) for x in logits],
                      "expected": exp, "meta": {"decision_margins": {k: v for k, v in margins.items() if v is not None}}})
    doc = {"schema_version": 1,
           "reference": "huggingface-transformers MinNewTokensLengthLogitsProcessor",
           "reference_version": "transformers 5.24.0 logits_process.py (read, not run)",
           "how_computed": "WRITTEN FROM HF's code, NOT RUN: tests/data/make_min_new_tokens.py applies "
                           "HF's rule (eos_token_id -> -inf while len(history) - history_prompt_len < "
                           "min_new_tokens) after repetition penalty and before greedy/the warpers, then "
                           "a float64 softmax over the kept float32 logits. The same distributions hold for "
                           "vLLM min_tokens and llama.cpp ignore_eos; the suites run the file under all "
                           "three engines.",
           "chain_order": ["RepetitionPenaltyLogitsProcessor (if != 1)",
                           "MinNewTokensLengthLogitsProcessor (if min_new_tokens > 0)",
                           "-- greedy: argmax; sampling: --", "TemperatureLogitsWarper", "TopKLogitsWarper",
                           "TopPLogitsWarper", "softmax -> torch.multinomial"],
           "float_encoding": "every logit is an exact float32 value; non-finite values are the strings \"-inf\"",
           "tolerance": {"prob_atol": 1e-05, "prob_rtol": 0.0001, "sum_atol": 0.0001},
           "num_cases": len(cases), "cases": cases}
    print(json.dumps(doc, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
