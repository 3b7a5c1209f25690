"""How close real code comes to the walk's dense-stretch bound, and whether the bound ever fires.

The edit walk flags a rejection without searching for an edit where at least `dense_rejections`
of the last `dense_span` input tokens were not kept (`EditorConfig`): the bound that keeps a
stretch the model cannot read (deep brackets) from costing a search per token. On real code it
should never fire, so that what the walk finds there is what it found without it. This checks
every cell of the given sets with the shipped defaults and no context (a cell alone gets more
rejections than with the cells before it: the conservative case) and counts, per set: cells,
cells where the bound fired, and the most not-kept tokens in any `dense_span` tokens of a cell.
With `--no-bound` the walk searches every rejection (the bound set out of reach), and the
densest stretch is measured over several spans: where real code lies, to place the bound above it.
Cells given with `--cell` (a file of Python) are measured the same way: the stretches it is for.

    python bench/dense_stretches.py ../shared/benchmarks/notebook_clean.jsonl \
        ../shared/benchmarks/notebook_crashes.jsonl ../shared/benchmarks/humanevalfix.jsonl \
        ../shared/benchmarks/debugbench.jsonl --limit debugbench=100

Ends with one JSON line of the figures.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from jupyter_codecheck import check  # noqa: E402
from requirements import require  # noqa: E402
from jupyter_codecheck.decoding.editor import NOT_KEPT, EditDecoder, EditorConfig  # noqa: E402


def cells_of(path: Path, limit: int | None) -> list[tuple[str, str]]:
    """(name, source) of every cell of a data set: both sides of a bug pair, a clean cell."""
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f):
            if limit is not None and n >= limit:
                break
            row = json.loads(line)
            if "cell" in row:                                   # notebook_clean
                out.append((row["id"], row["cell"]))
            elif isinstance(row.get("buggy"), dict):           # notebook_crashes
                out += [(f"{row['id']}/{side}", row[side]["target"]) for side in ("buggy", "fixed")]
            else:                                               # HumanEvalFix, DebugBench
                out += [(f"{row['id']}/{side}", row[side]) for side in ("buggy", "fixed")]
    return [(name, src) for name, src in out if isinstance(src, str) and src.strip()]


def densest(decisions: list[str], span: int) -> int:
    """The most not-kept tokens among any `span` consecutive tokens."""
    marks = [k for k, d in enumerate(decisions) if d in NOT_KEPT]
    best, lo = 0, 0
    for hi, k in enumerate(marks):
        while k - marks[lo] >= span:
            lo += 1
        best = max(best, hi - lo + 1)
    return best


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="+", type=Path, help="JSONL data sets")
    ap.add_argument("--limit", action="append", default=[],
                    help="NAME=N: the first N rows of the set whose file is NAME.jsonl")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--no-bound", action="store_true", help="search every rejection; measure spans")
    ap.add_argument("--spans", default="16,32,64,128", help="spans measured with --no-bound")
    args = ap.parse_args(argv)
    require("bench/dense_stretches.py", paths=args.data)
    limits = dict(x.split("=", 1) for x in args.limit)
    cfg = EditorConfig()
    span, need = cfg.dense_span, cfg.dense_rejections
    spans = [int(x) for x in args.spans.split(",")] if args.no_bound else [span]
    if args.no_bound:
        EditDecoder._dense = lambda self, i: False     # every rejection searched
    figures = {"dense_span": span, "dense_rejections": need, "bound": not args.no_bound, "sets": {}}
    for path in args.data:
        limit = int(limits[path.stem]) if path.stem in limits else None
        cells = ([(path.name, path.read_text(encoding="utf-8"))] if path.suffix == ".py"
                 else cells_of(path, limit))
        t0 = time.perf_counter()
        fired, worst, histogram = [], {n: (0, "") for n in spans}, {}
        for k, (name, src) in enumerate(cells):
            r = check(src, n_threads=args.threads)
            decisions = [t.decision for t in r.tokens]
            for n in spans:
                worst[n] = max(worst[n], (densest(decisions, n), name))
            most = densest(decisions, span)
            histogram[most] = histogram.get(most, 0) + 1
            if r.stats["unsearched"]:
                fired.append(name)
            if (k + 1) % 50 == 0:
                print(f"{path.stem}: {k + 1}/{len(cells)} cells, {time.perf_counter() - t0:.0f} s, "
                      f"bound fired in {len(fired)}", flush=True)
        figures["sets"][path.stem] = {
            "cells": len(cells), "rows_limit": limit, "bound_fired": len(fired), "fired_in": fired[:10],
            "most_not_kept": {str(n): {"tokens": w[0], "where": w[1]} for n, w in worst.items()},
            "histogram": {str(k): histogram[k] for k in sorted(histogram)},
            "seconds": round(time.perf_counter() - t0, 1)}
        print(f"{path.stem}: {len(cells)} cells, bound fired in {len(fired)}; most not kept in "
              + ", ".join(f"{n} tokens: {w[0]} ({w[1]})" for n, w in worst.items())
              + f"; the bound needs {need} of {span}", flush=True)
    figures["bound_fired"] = sum(s["bound_fired"] for s in figures["sets"].values())
    figures["cells"] = sum(s["cells"] for s in figures["sets"].values())
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
