"""The chi-square goodness-of-fit helper of check_dist.py (`check_dist.py chi2`): sampled token
counts against a distribution, with the upper incomplete gamma written out so that no SciPy is
needed (the self test compares it with SciPy when SciPy is there)."""
from __future__ import annotations

import json
import math

def _gammaincc(a, x):
    """regularised upper incomplete gamma Q(a, x) (Numerical Recipes gser/gcf)."""
    if x < 0 or a <= 0:
        raise ValueError("bad arguments")
    if x == 0:
        return 1.0
    gln = math.lgamma(a)
    if x < a + 1.0:
        ap, s, d = a, 1.0 / a, 1.0 / a
        for _ in range(100000):
            ap += 1.0
            d *= x / ap
            s += d
            if abs(d) < abs(s) * 1e-15:
                break
        return max(0.0, 1.0 - s * math.exp(-x + a * math.log(x) - gln))
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 100000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        if abs(d) < tiny:
            d = tiny
        c = b + an / c
        if abs(c) < tiny:
            c = tiny
        d = 1.0 / d
        de = d * c
        h *= de
        if abs(de - 1.0) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - gln) * h


def chi2_sf(stat, dof):
    return _gammaincc(dof / 2.0, stat / 2.0) if dof > 0 else float("nan")


def chi2_gof(counts, probs, min_expected=5.0, tie_groups=None):
    """Pearson chi-square goodness of fit of observed token counts against a
    distribution.  counts: list (len V) or {token_id: count}.  probs: list (len V).
    tie_groups: optional [{"ids": [...]}...]; each group is pooled into one bin
    (its total probability is defined even when which members survive is not).
    Bins with expected count < min_expected are pooled (smallest first).
    Returns dict(stat, dof, p_value, n, bins, impossible) where impossible =
    number of draws of tokens whose probability is 0 (then p_value = 0)."""
    V = len(probs)
    if isinstance(counts, dict):
        c = [0] * V
        for k, v in counts.items():
            c[int(k)] += int(v)
        counts = c
    if len(counts) != V:
        raise ValueError(f"counts length {len(counts)} != vocab {V}")
    n = sum(counts)
    if n <= 0:
        raise ValueError("no draws")
    bins = []  # (expected_prob, observed)
    grouped = set()
    for g in tie_groups or []:
        ids = g["ids"]
        grouped.update(ids)
        bins.append((sum(probs[i] for i in ids), sum(counts[i] for i in ids)))
    for i in range(V):
        if i not in grouped:
            bins.append((float(probs[i]), counts[i]))
    impossible = sum(o for pr, o in bins if pr <= 0 and o > 0)
    bins = [(pr, o) for pr, o in bins if pr > 0]
    if impossible:
        return {"stat": float("inf"), "dof": max(len(bins) - 1, 0), "p_value": 0.0, "n": n,
                "bins": len(bins), "impossible": impossible}
    bins.sort(key=lambda b: b[0])
    pooled = []
    acc_p, acc_o = 0.0, 0
    for pr, o in bins:  # ascending: small bins are pooled until the pool reaches min_expected
        if acc_p > 0 or pr * n < min_expected:
            acc_p += pr
            acc_o += o
            if acc_p * n >= min_expected:
                pooled.append((acc_p, acc_o))
                acc_p, acc_o = 0.0, 0
        else:
            pooled.append((pr, o))
    if acc_p > 0:  # leftover pool that never reached min_expected
        if pooled:
            pr, o = pooled.pop()
            pooled.append((pr + acc_p, o + acc_o))
        else:
            pooled.append((acc_p, acc_o))
    tot = sum(pr for pr, _ in pooled)
    stat = 0.0
    for pr, o in pooled:
        e = pr / tot * n
        stat += (o - e) ** 2 / e
    dof = len(pooled) - 1
    pv = chi2_sf(stat, dof) if dof > 0 else 1.0
    return {"stat": stat, "dof": dof, "p_value": pv, "n": n, "bins": len(pooled), "impossible": 0}


def chi2_main(args):
    with open(args.oracle) as f:
        oracle = json.load(f)
    case = next((c for c in oracle["cases"] if c["id"] == args.case), None)
    if case is None:
        print(f"no case {args.case!r} in {args.oracle}")
        return 2
    if case["expected"]["error"]:
        print("oracle expects an error for this case; nothing to sample")
        return 2
    with open(args.counts) as f:
        doc = json.load(f)
    counts = doc["counts"] if isinstance(doc, dict) and "counts" in doc else doc
    probs = [float(x) for x in case["expected"]["probs"]]
    r = chi2_gof(counts, probs, args.min_expected, case["expected"].get("tie_groups"))
    print(f"case {args.case}: n={r['n']} bins={r['bins']} chi2={r['stat']:.6g} dof={r['dof']} "
          f"p={r['p_value']:.6g} impossible_draws={r['impossible']}")
    ok = r["impossible"] == 0 and r["p_value"] >= args.alpha
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1
