"""The data sets of bench/quality.py: HumanEvalFix and DebugBench pairs (a buggy and a fixed
side), DebugBench's categories and calibration split, and what LeetCode's judge defines before a
DebugBench solution runs.
"""
from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import sys
from pathlib import Path

from harness import BENCH

DATASETS = {"humanevalfix": BENCH / "humanevalfix.jsonl", "debugbench": BENCH / "debugbench.jsonl"}
# DebugBench categories whose bug is a syntax error, and the multi-bug ones (which mix syntax
# errors in); "logic" is everything else (all of HumanEvalFix)
SYNTAX = {"illegal indentation", "unclosed parentheses", "missing colons", "unclosed string",
          "illegal comment", "illegal keywords"}
MULTI = {"double", "triple", "quadruple"}

# What LeetCode's judge defines before a DebugBench solution runs (typing names, the usual
# modules, ListNode/TreeNode): checked as an earlier cell, so the solutions' `List[int]` is not
# an undefined name. The baselines (compile, pyflakes, ruff) read the files alone, as before.
LEETCODE_PRELUDE = """from typing import List, Optional, Dict, Tuple, Set
import collections, heapq, math, bisect, itertools, functools, re, string
from collections import defaultdict, Counter, deque, OrderedDict
from heapq import heappush, heappop, heapify
from functools import lru_cache, cache, reduce
from itertools import accumulate, permutations, combinations, product
from math import inf, gcd, sqrt, ceil, floor, log
from bisect import bisect_left, bisect_right, insort


class ListNode:
    def __init__(self, val=0, next=None):
        self.val = val
        self.next = next


class TreeNode:
    def __init__(self, val=0, left=None, right=None):
        self.val = val
        self.left = left
        self.right = right
"""
# The globals LeetCode's Python 3 judge defines beyond the prelude's text (a dump of them:
# github.com/Animenosekai/leet, leet/runners/python3.md): these modules, and everything each
# one exports, star-imported. They go to check() as `names` (a kernel's namespace does the same),
# not into the prelude: a star import would make no name certainly undefined, and their explicit
# list would be a thousand tokens of context. `Node` is defined by the judge for the problems whose
# template declares it.
LEETCODE_MODULES = ("bisect", "collections", "copy", "datetime", "functools", "heapq", "io", "itertools",
                    "json", "math", "operator", "os", "random", "re", "statistics", "string", "sys", "typing")


@functools.cache
def leetcode_names() -> frozenset[str]:
    names = {"Node", "ListNode", "TreeNode", *LEETCODE_MODULES}
    for m in LEETCODE_MODULES:
        mod = importlib.import_module(m)
        names.update(getattr(mod, "__all__", None) or (n for n in dir(mod) if not n.startswith("_")))
    return frozenset(names)


# -- data -------------------------------------------------------------------------------------------

def debugbench_split(pair: dict) -> str:
    """DebugBench problems split in two halves by a hash of the problem name: "calib" (used to
    calibrate the thresholds) and "report" (used for the figures). One problem's bug variants
    share a fixed solution, so the split is by problem, never by pair."""
    slug = pair["id"].split("/")[1] if "/" in pair["id"] else pair["id"]
    return "calib" if int(hashlib.sha256(slug.encode()).hexdigest(), 16) % 2 == 0 else "report"


def export_calibration_split(directory: Path, n_pairs: int) -> None:
    """Writes the DebugBench "calib" half for `jupyter-codecheck calibrate`: each problem's fixed
    solution as a .py file under clean/ (in a hash order), and the logic-bug pairs as pairs.jsonl
    (the first `n_pairs` in a hash order)."""
    with open(DATASETS["debugbench"], encoding="utf-8") as f:
        rows = [r for r in (json.loads(x) for x in f if x.strip()) if debugbench_split(r) == "calib"]
    order = sorted(rows, key=lambda r: hashlib.sha256(r["id"].encode()).hexdigest())
    clean = directory / "clean"
    clean.mkdir(parents=True, exist_ok=True)
    seen: set = set()
    for r in order:
        if r["fixed"] not in seen:
            seen.add(r["fixed"])
            (clean / f"{len(seen):03d}_{r['id'].split('/')[1][:40]}.py").write_text(r["fixed"])
    logic = [r for r in order if r["bug_type"] not in SYNTAX | MULTI][:n_pairs or None]
    with open(directory / "pairs.jsonl", "w", encoding="utf-8") as f:
        for r in logic:
            f.write(json.dumps(r) + "\n")
    print(f"{len(seen)} clean files in {clean}, {len(logic)} pairs in {directory / 'pairs.jsonl'}")


def category_filter(spec: str | None):
    if not spec or spec == "all":
        return lambda bt: True
    wanted = {c.strip() for c in spec.split(",") if c.strip()}
    logic = "logic" in wanted
    syntax = "syntax" in wanted
    names = wanted - {"logic", "syntax"}
    return lambda bt: (bt in names or (logic and bt not in SYNTAX | MULTI)
                       or (syntax and bt in SYNTAX))


def load_pairs(args) -> list[dict]:
    keep = category_filter(args.categories)
    pairs = []
    for ds in args.dataset or ["humanevalfix", "debugbench"]:
        path = DATASETS.get(ds, Path(ds))
        if not Path(path).is_file():
            sys.exit(f"error: dataset {ds!r} not found ({path}); give a name "
                     f"({', '.join(DATASETS)}) or a JSONL path")
        with open(path, encoding="utf-8") as f:
            rows = [json.loads(line) for line in f if line.strip()]
        for k, r in enumerate(rows):
            r.setdefault("id", f"{Path(path).stem}/{k}")
            r.setdefault("dataset", Path(path).stem)
        if args.debugbench_split != "all":
            rows = [r for r in rows if r["dataset"] != "debugbench" or debugbench_split(r) == args.debugbench_split]
        rows = [r for r in rows if keep(r.get("bug_type", ""))]
        for r in rows:
            r["context"] = [LEETCODE_PRELUDE] if r["dataset"] == "debugbench" and not args.no_prelude else None
        limit = args.limit.get(ds, args.limit.get("", 0))
        if limit:
            rows = rows[:limit]
        pairs += rows
    return pairs
