"""Exit policies swept on whole files: how deep decisions go, how often an exit changes one.

    python bench/exit_sweep.py [--data ../shared/benchmarks/humanevalfix.jsonl] [--limit N]
        [--threads 2] [--policy SPEC ...]

For every file (the `fixed` and the `buggy` side of each pair) one full-depth pass records, after
every layer and for every token, exactly what the checker's exit test reads (the layer's hidden
state through the exit lens and the shortlist head: reference log-probability and rank, top-K),
and the full head's view at the last layer. Each policy (the presets, a grid of reference-token
tests and any --policy) is then replayed on those numbers with the real policy objects, as
`decoding.scorer.Scorer` runs them on one batch per file:

    decision_depth   mean (exit layer + 1) / n_layer over the scored tokens
    exited           share of tokens that leave before the last layer
    wrong            share of tokens whose acceptance decision (the check() defaults: p >= 0.2 or
                     rank <= 9, lenient for the first 3 tokens) at the exit layer differs from the
                     one at full depth
    cost_exact       modelled compute per token relative to full depth when skipped layers are
                     recomputed ("exact" KV: every token still runs every layer; an exit saves the
                     full head, ~8 layers, and pays its tests, ~0.3 layers each)
    cost_propagate   the same when skipped layers only compute K,V from the exit state (~6 % of
                     a layer each; see bench/check.py for what that does to decisions)

Rows judging a token that token healing may reject never exit (check() holds them at full depth:
healing reads the full-depth favourite); `wrong` compares the acceptance rule only, not healing.
The clean side is also replayed without that hold (`fixed_no_hold`: what the exit tests could do
with token healing off), and the shallowest policy within 1 % changed decisions is printed both
ways: the best these exit tests reach even with exact K,V and nothing held back.

Replaying from full-depth states is exact for the exit decisions themselves in "exact" KV mode (a
token's states never depend on other tokens' exits there); it leaves out what the edit walk does
after a rejection. The last line is one JSON object with every policy's figures.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from jupyter_codecheck.decoding.acceptance import AcceptanceRule
from jupyter_codecheck.decoding.dist import Dist
from jupyter_codecheck.decoding.exit_policy import PRESETS, LayerStats, make_policy
from jupyter_codecheck.core.adapter import load_model

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from requirements import require  # noqa: E402
DEFAULT_DATA = ROOT.parent / "shared" / "benchmarks" / "humanevalfix.jsonl"
HEAD_LAYERS = 8.0     # the full 49k-token head, in layer-equivalents (SmolLM2-135M)
TEST_LAYERS = 0.3     # one exit test: lens map + shortlist head
KV_LAYERS = 0.06      # K,V projections of one layer from a frozen state
RULE = AcceptanceRule()
TOP_K = max(RULE.top_k_needed(), 8)


def grid() -> list[str]:
    out = []
    for test in ("ref-rank:0+ref-prob:0.2", "ref-rank:1+ref-prob:0.1", "ref-rank:3+ref-prob:0.1",
                 "ref-rank:3+ref-prob:0.2", "ref-rank:3+ref-prob:0.3", "ref-top1:0.5"):
        for opt in ("min:2,every:3", "min:6,every:3", "min:11,every:3", "min:2,every:1"):
            out.append(f"{test},{opt}")
    # one late test: with exact K,V every token runs every layer anyway, so an exit saves only
    # the full head, and each extra test costs; a single test just before the end is cheapest
    for test in ("ref-rank:3+ref-prob:0.1", "ref-rank:9+ref-prob:0.1", "ref-rank:3+ref-prob:0.2"):
        for layer in (23, 26, 27, 28):
            out.append(f"{test},min:{layer},every:30")
    # more permissive tests: where the 1 % line is crossed
    for test in ("ref-rank:3", "ref-rank:5", "ref-rank:9", "ref-rank:9+ref-prob:0.05"):
        for opt in ("min:2,every:1", "min:2,every:3", "min:8,every:2"):
            out.append(f"{test},{opt}")
    return out


def record(engine, ids: list[int]) -> dict:
    """Per layer and token: the exit test's numbers (lens + shortlist) and, last, the full head."""
    s, lens = engine.session, engine.get_lens()
    engine.set_cell_shortlist(ids)
    bos = s.n_past
    n = len(ids) - 1                         # row k judges ids[k + 1]: the cell's token k
    refs = np.asarray(ids[1:], np.int32)
    rows = np.arange(n)
    per_layer = []

    def hook(step):
        if step.layer < s.n_layer - 1:
            states = lens.apply(step.layer, s.hidden(rows)) if lens is not None else s.hidden(rows)
            h = s.head_states(states, refs, top_k=TOP_K, shortlist=True)
            per_layer.append((h.ref_logprob, h.ref_rank, h.topk_ids, h.topk_logprob))

    s.forward(ids[:-1], hook=hook)
    h = s.head(rows, refs, top_k=TOP_K)
    per_layer.append((h.ref_logprob, h.ref_rank, h.topk_ids, h.topk_logprob))
    s.truncate(bos)
    return {"refs": refs, "layers": per_layer}


def decisions(refs, lp, rank, ids, lps) -> np.ndarray:
    return np.array([_accepts_one(refs[k], lp[k], rank[k], ids[k], lps[k], k)
                     for k in range(len(refs))], bool)


def replay(spec: str, files: list[dict], n_layer: int, hold: bool = True) -> dict:
    policy = make_policy(spec)
    test_layers = policy.test_layers(n_layer)
    depth = exited = wrong = tests = total = 0
    for f in files:
        refs, layers = f["refs"], f["layers"]
        n = len(refs)
        exit_layer = np.full(n, n_layer - 1)
        active = np.ones(n, bool)
        policy.start(n)
        for layer in range(n_layer - 1):
            if test_layers is not None and layer not in test_layers:
                continue
            rows = np.flatnonzero(active)
            if rows.size == 0:
                break
            lp, rank, ids, lps = (a[rows] for a in layers[layer])
            tests += rows.size
            stop = np.asarray(policy.decide(LayerStats(layer, n_layer, rows, lp, rank, ids, lps,
                                                       np.ones(rows.size, bool))), bool)
            if hold:
                stop &= ~f["held"][rows]
            exit_layer[rows[stop]] = layer
            active[rows[stop]] = False
        full = f["full_accept"]
        at_exit = full.copy()
        for layer in np.unique(exit_layer[exit_layer < n_layer - 1]):
            sel = np.flatnonzero(exit_layer == layer)
            lp, rank, ids, lps = (a[sel] for a in f["layers"][layer])
            at_exit[sel] = [_accepts_one(refs[k], lp[j], rank[j], ids[j], lps[j], k)
                            for j, k in enumerate(sel)]
        depth += int((exit_layer + 1).sum())
        exited += int((exit_layer < n_layer - 1).sum())
        wrong += int((at_exit != full).sum())
        total += n
    early = exited / total
    skipped = 1.0 - depth / (total * n_layer)
    per_test = TEST_LAYERS * tests / total
    full_cost = n_layer + HEAD_LAYERS
    cost_exact = (n_layer + HEAD_LAYERS * (1 - early) + per_test) / full_cost
    cost_prop = (depth / total + KV_LAYERS * skipped * n_layer + HEAD_LAYERS * (1 - early)
                 + per_test) / full_cost
    return {"policy": spec, "decision_depth": round(depth / (total * n_layer), 4),
            "exited": round(early, 4), "wrong": round(wrong / total, 5),
            "tests_per_token": round(tests / total, 2), "cost_exact": round(cost_exact, 3),
            "cost_propagate": round(cost_prop, 3)}


def _accepts_one(ref, lp, rank, ids, lps, k) -> bool:
    d = Dist(ref=int(ref), ref_logprob=float(lp), ref_rank=int(rank), top_ids=ids,
             top_logprobs=lps, exit_layer=0, full_depth=False)
    return RULE.accepts(d, int(ref), k)      # row k judges the cell's token k


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(DEFAULT_DATA))
    ap.add_argument("--limit", type=int, default=0, help="first N pairs (0: all)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--policy", action="append", default=[], help="more policy specs to replay")
    args = ap.parse_args()
    require("bench/exit_sweep.py", paths=[args.data])

    pairs = [json.loads(line) for line in open(args.data)]
    if args.limit:
        pairs = pairs[:args.limit]
    engine = load_model(None, args.threads)
    tok, n_layer = engine.tokenizer, engine.session.n_layer
    if engine.get_lens() is None:
        sys.exit("no exit lens for this model: the sweep measures the lens-based exit tests")
    from jupyter_codecheck.core.vocab import document_start, healable_ids
    start = document_start(tok)
    # held at full depth, as check() does
    healable = np.fromiter(healable_ids(tok), np.int32)

    t0 = time.perf_counter()
    sides = {"fixed": [], "buggy": []}
    for i, pair in enumerate(pairs):
        for side in sides:
            # the document-start token once, as check() puts it before a cell (row 0 judges
            # the cell's first token)
            engine.session.truncate(0)
            f = record(engine, start + tok.encode(pair[side]).ids)
            f["full_accept"] = decisions(f["refs"], *f["layers"][-1])
            f["held"] = np.isin(f["refs"], healable)
            sides[side].append(f)
        print(f"\rrecorded {i + 1}/{len(pairs)} pairs", end="", file=sys.stderr, flush=True)
    print(f"\nrecording: {time.perf_counter() - t0:.0f} s", file=sys.stderr)

    specs = list(dict.fromkeys([PRESETS[k] for k in ("lens", "plain", "fast", "safe")]
                               + grid() + args.policy))
    names = {v: k for k, v in PRESETS.items() if k != "default"}
    figures = {"pairs": len(pairs), "tokens": {s: int(sum(len(f["refs"]) for f in v))
                                               for s, v in sides.items()}, "policies": []}
    print(f"{'policy':46s} {'side':6s} {'depth':>6s} {'exited':>7s} {'wrong':>7s} "
          f"{'exact':>6s} {'propag':>6s}")
    for spec in specs:
        row = {"policy": spec, "preset": names.get(spec)}
        for side, files in sides.items():
            r = replay(spec, files, n_layer)
            row[side] = {k: v for k, v in r.items() if k != "policy"}
            label = f"{spec}" + (f" ({names[spec]})" if spec in names else "")
            print(f"{label[:46]:46s} {side:6s} {r['decision_depth']:6.3f} {r['exited']:7.3f} "
                  f"{r['wrong']:7.4f} {r['cost_exact']:6.3f} {r['cost_propagate']:6.3f}")
        r = replay(spec, sides["fixed"], n_layer, hold=False)
        row["fixed_no_hold"] = {k: v for k, v in r.items() if k != "policy"}
        print(f"{'  (nothing held at full depth)':46s} {'fixed':6s} {r['decision_depth']:6.3f} "
              f"{r['exited']:7.3f} {r['wrong']:7.4f} {r['cost_exact']:6.3f} {r['cost_propagate']:6.3f}")
        figures["policies"].append(row)
    for key, what in (("fixed", "healable rows held at full depth, as check() does"),
                      ("fixed_no_hold", "nothing held")):
        ok = [p for p in figures["policies"] if p[key]["wrong"] <= 0.01]
        best = min(ok, key=lambda p: p[key]["decision_depth"]) if ok else None
        figures["best_within_1pct" + key[len("fixed"):]] = best and {"policy": best["policy"], **best[key]}
        if best:
            print(f"shallowest policy with <= 1 % changed decisions on clean code ({what}): "
                  f"{best['policy']} (depth {best[key]['decision_depth']:.3f}, "
                  f"wrong {best[key]['wrong']:.4f})")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
