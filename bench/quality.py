"""Checking quality on real bug benchmarks: localisation, false alarms, repair, baselines, speed.

    python bench/quality.py [--dataset humanevalfix --dataset debugbench | --dataset PATH.jsonl]
        [--categories logic] [--debugbench-split report] [--limit N] [--calibration FILE]
        [--option name=value] [--jobs 1] [--threads 1] [--out bench/reports/quality]

Input: JSONL of {id, buggy, fixed, ...} pairs (HumanEvalFix adds `test` and `entry_point`). Every
pair's `buggy` and `fixed` are checked alone (no context). Figures, over whole files:
  localisation  the lines changed between buggy and fixed (difflib; an inserted line marks the
                lines around it) against the checker's finding lines ranked by score: top-1/top-3
  false alarms  share of `fixed` files with any finding; findings per 100 lines of `fixed`
  repair        share of buggy files whose corrected code equals `fixed` (each line's trailing
                whitespace and blank lines ignored); HumanEvalFix: share whose corrected code
                passes the dataset's test (subprocess, 10 s timeout, no network namespace)
  baselines     the same localisation / false-alarm figures for compile(), pyflakes and ruff
                (default rules); their lines are ranked in source order (they have no score)
  scores        top-1/top-3 for each line-scoring method of jupyter_codecheck.tools.line_scores
  speed         tokens/s and mean layers computed per scored token
Checks are cached on disk (key: source, options, model, checker code), so reruns are cheap.
Writes report.md, plots (PNG), command.txt and summary.json to --out; the last stdout line is one
JSON object with the figures.
"""
from __future__ import annotations

import argparse
import functools
import hashlib
import importlib.util
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from jupyter_codecheck.tools.calibrate import changed_lines, checker_fingerprint  # noqa: E402
from jupyter_codecheck.tools.calibrate import load as load_calibration  # noqa: E402
from jupyter_codecheck.core.result import CheckResult  # noqa: E402
from jupyter_codecheck.tools.line_scores import METHODS, ranked_lines  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from check_options import parse_option  # noqa: E402
from disk_cache import DiskCache  # noqa: E402
from requirements import command, require  # noqa: E402

BENCH = ROOT.parent / "shared" / "benchmarks"
DATASETS = {"humanevalfix": BENCH / "humanevalfix.jsonl", "debugbench": BENCH / "debugbench.jsonl"}
# DebugBench categories whose bug is a syntax error, and the multi-bug ones (which mix syntax
# errors in); "logic" is everything else (all of HumanEvalFix)
SYNTAX = {"illegal indentation", "unclosed parentheses", "missing colons", "unclosed string",
          "illegal comment", "illegal keywords"}
MULTI = {"double", "triple", "quadruple"}
VENV_BIN = Path(sys.executable).parent
TEST_TIMEOUT_S = 10
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


# margins (nats) of the evidence sweep: the findings a margin gives are derived from each
# check's evidence (the best candidate of every weighed place) and its errors
MARGINS = [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0, 15.0, 20.0]


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


def layout_only_lines(result: CheckResult) -> set[int]:
    """Finding lines whose every edit only changes whitespace (indentation, line breaks, spaces):
    mostly the token-healing rule preferring a longer whitespace token than the cell's."""
    by_line: dict[int, list] = {}
    for e in result.edits:
        by_line.setdefault(e.line, []).append(e)
    out = set()
    for f in result.findings:
        edits = by_line.get(f.line, [])
        if f.kind != "flag" and edits and all("".join(e.original.split()) == "".join(e.replacement.split())
                                              for e in edits):
            out.add(f.line)
    return out


def normalised(code: str) -> str:
    return "\n".join(ln.rstrip() for ln in code.split("\n") if ln.strip())


# -- checks, cached ---------------------------------------------------------------------------------

_WORKER_THREADS = None


def _init_worker(threads):
    global _WORKER_THREADS
    _WORKER_THREADS = threads


def _run_check(job):
    (src, ctx), options, threads = job
    from jupyter_codecheck.core.check import check
    # each check on its own: a re-check keeps an earlier check's verdicts and decisions, which
    # would make the next file of a pair look cheaper than it is
    from jupyter_codecheck.core.adapter import load_model
    load_model(options.get("model"), threads if threads else _WORKER_THREADS).forget()
    if ctx and ctx[0] == LEETCODE_PRELUDE and "namespace" not in options:
        from jupyter_codecheck.facts import kernel_state
        options = {**options, "namespace": kernel_state(sorted(leetcode_names()))}
    r = check(src, context=ctx, n_threads=threads if threads else _WORKER_THREADS, **options)
    r.stats["checker_fingerprint"] = checker_fingerprint()     # which code produced it
    return r.to_json()


# bump when check()'s results change meaning (decisions, findings, scores): older cached checks
# are then not used. Not derived from the source files: several people edit them at once, and a
# comment change must not throw away an hour of checks. `--fresh` ignores the cache.
CHECK_CACHE_VERSION = "4"      # 2: findings need evidence (errors + verified warnings); 3: LeetCode's names; 4: scoped gates


class CheckCache:
    def __init__(self, directory: Path, options: dict, model_key: str, fresh: bool = False):
        self.disk = DiskCache(directory, fresh)
        self.options = options
        self.prefix = json.dumps({"options": options, "model": model_key, "version": CHECK_CACHE_VERSION},
                                 sort_keys=True)

    def _key(self, job) -> str:
        src, ctx = job
        return self.prefix + "\0" + src + ("\0" + "\0".join(ctx) if ctx else "")

    def get(self, src: str) -> CheckResult | None:
        text = self.disk.get(self._key(src))
        return CheckResult.from_json(text) if text is not None else None

    def put(self, src: str, text: str) -> None:
        self.disk.put(self._key(src), text)


def run_checks(sources: list[tuple], cache: CheckCache, jobs: int, threads: int | None) -> dict[tuple, CheckResult]:
    """Each (source, context) checked once; results by that pair."""
    out: dict[str, CheckResult] = {}
    todo = []
    for s in dict.fromkeys(sources):
        r = cache.get(s)
        if r is None:
            todo.append(s)
        else:
            out[s] = r
    print(f"checks: {len(out)} cached, {len(todo)} to run", file=sys.stderr, flush=True)
    t0, tokens = time.perf_counter(), 0

    def done(k, s, text):
        nonlocal tokens
        cache.put(s, text)
        out[s] = CheckResult.from_json(text)
        tokens += out[s].stats.get("tokens", 0)
        if (k + 1) % 10 == 0 or k + 1 == len(todo):
            el = time.perf_counter() - t0
            print(f"[{k + 1}/{len(todo)}] {tokens / el:.0f} tok/s, {el / 60:.1f} min", file=sys.stderr, flush=True)

    if jobs <= 1:
        for k, s in enumerate(todo):
            done(k, s, _run_check((s, cache.options, threads)))
    else:
        per = max(1, (threads or os.cpu_count() or 1) // jobs)
        with ProcessPoolExecutor(jobs, initializer=_init_worker, initargs=(per,)) as ex:
            for k, (s, text) in enumerate(zip(todo, ex.map(_run_check, [(s, cache.options, None) for s in todo]))):
                done(k, s, text)
    return out


# -- baselines ----------------------------------------------------------------------------------------

def compile_lines(src: str) -> list[int]:
    try:
        compile(src, "<cell>", "exec")
    except SyntaxError as e:
        return [e.lineno or 1]
    except (ValueError, RecursionError, MemoryError):
        return [1]
    return []


def pyflakes_lines(src: str) -> list[int]:
    from pyflakes import api

    class Collect:
        def __init__(self):
            self.lines = []

        def unexpectedError(self, filename, msg):
            self.lines.append(1)

        def syntaxError(self, filename, msg, lineno, offset, text):
            self.lines.append(lineno or 1)

        def flake(self, message):
            self.lines.append(message.lineno)
    rep = Collect()
    api.check(src, "<cell>", rep)
    return rep.lines


def ruff_lines(sources: list[str]) -> list[list[int]]:
    """ruff's default rules over all sources in one run (one file each)."""
    out: list[list[int]] = [[] for _ in sources]
    with tempfile.TemporaryDirectory() as d:
        for k, s in enumerate(sources):
            Path(d, f"f{k}.py").write_text(s)
        p = subprocess.run([command("ruff") or "ruff", "check", "--isolated", "--no-cache",
                            "--output-format", "json", "--exit-zero", d], capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"ruff failed: {p.stderr.strip()}")
        for item in json.loads(p.stdout or "[]"):
            k = int(Path(item["filename"]).stem[1:])
            row = (item.get("location") or {}).get("row") or 1
            out[k].append(row)
    return out


def ordered_unique(lines) -> list[int]:
    return sorted(set(lines))


# -- HumanEvalFix tests ----------------------------------------------------------------------------------

def passes(code: str, pair: dict, cache_dir: Path) -> bool:
    """Does `code` pass the pair's test? Run in a subprocess without network, cached by content."""
    program = f"{code}\n\n{pair['test']}\n\ncheck({pair['entry_point']})\n"
    key = hashlib.sha256(program.encode()).hexdigest()
    f = cache_dir / key[:2] / key
    if f.is_file():
        return f.read_text() == "pass"
    with tempfile.TemporaryDirectory() as d:
        prog = Path(d, "prog.py")
        prog.write_text(program)
        cmd = [sys.executable, "-I", str(prog)]
        if _can_unshare():
            cmd = ["unshare", "-rn"] + cmd     # no network namespace: the code cannot reach out
        try:
            ok = subprocess.run(cmd, cwd=d, capture_output=True, timeout=TEST_TIMEOUT_S,
                                env={"PATH": "/usr/bin:/bin", "HOME": d}).returncode == 0
        except subprocess.TimeoutExpired:
            ok = False
    f.parent.mkdir(parents=True, exist_ok=True)
    f.write_text("pass" if ok else "fail")
    return ok


_UNSHARE = None


def _can_unshare() -> bool:
    global _UNSHARE
    if _UNSHARE is None:
        try:
            _UNSHARE = subprocess.run(["unshare", "-rn", "true"], capture_output=True, timeout=10).returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            _UNSHARE = False
    return _UNSHARE


# -- figures ---------------------------------------------------------------------------------------

def hits(ranked: list[int], lines: set[int], k: int) -> bool:
    return any(ln in lines for ln in ranked[:k])


def _distinct_fixed(rows: list[dict]) -> dict:
    flagged: dict[str, bool] = {}
    for r in rows:
        key = r.get("fixed_key", r["id"])
        flagged[key] = flagged.get(key, False) or r["fixed_findings"] > 0
    return {"distinct_fixed_files": len(flagged),
            "false_alarm_rate_distinct": sum(flagged.values()) / max(1, len(flagged))}


def figures_for(rows: list[dict], method: str) -> dict:
    n = len(rows)
    if not n:
        return {}
    fixed_lines = sum(r["fixed_nlines"] for r in rows) or 1
    f = {
        "pairs": n,
        "top1_localisation": sum(hits(r["ranked"][method], r["changed"], 1) for r in rows) / n,
        "top3_localisation": sum(hits(r["ranked"][method], r["changed"], 3) for r in rows) / n,
        "buggy_flagged": sum(bool(r["ranked"][method]) for r in rows) / n,
        "false_alarm_rate": sum(r["fixed_findings"] > 0 for r in rows) / n,
        # the same without findings that only change whitespace (see layout_only_lines)
        "false_alarm_rate_no_layout": sum(r["fixed_findings"] > r["fixed_layout_findings"] for r in rows) / n,
        # per distinct correct file (DebugBench has several bugs per solution): flagged in any pair
        **_distinct_fixed(rows),
        "findings_per_100_lines": 100 * sum(r["fixed_findings"] for r in rows) / fixed_lines,
        "repair_exact": sum(r["repair_exact"] for r in rows) / n,
        "fixed_unchanged": sum(r["fixed_unchanged"] for r in rows) / n,
    }
    tested = [r for r in rows if r.get("tests") is not None]
    if tested:
        t = [r["tests"] for r in tested]
        f.update({"tested_pairs": len(t),
                  "repair_tests_pass": sum(x["corrected_buggy"] for x in t) / len(t),
                  "buggy_tests_pass": sum(x["buggy"] for x in t) / len(t),
                  "fixed_tests_pass": sum(x["fixed"] for x in t) / len(t),
                  "corrected_fixed_tests_pass": sum(x["corrected_fixed"] for x in t) / len(t)})
    for name in ("compile", "pyflakes", "ruff"):
        b = [r["baselines"][name] for r in rows]
        f[name] = {"top1_localisation": sum(hits(x["buggy"], r["changed"], 1) for x, r in zip(b, rows)) / n,
                   "top3_localisation": sum(hits(x["buggy"], r["changed"], 3) for x, r in zip(b, rows)) / n,
                   "false_alarm_rate": sum(bool(x["fixed"]) for x in b) / n,
                   "findings_per_100_lines": 100 * sum(len(x["fixed"]) for x in b) / fixed_lines}
    best = max(("compile", "pyflakes", "ruff"), key=lambda k: (f[k]["top3_localisation"], -f[k]["false_alarm_rate"]))
    f["best_baseline"] = best
    f["best_baseline_top3"] = f[best]["top3_localisation"]
    f["scores"] = {m: {"top1": sum(hits(r["ranked"][m], r["changed"], 1) for r in rows) / n,
                       "top3": sum(hits(r["ranked"][m], r["changed"], 3) for r in rows) / n} for m in METHODS}
    return f


def speed(results: list[CheckResult]) -> dict:
    tokens = sum(r.stats["tokens"] for r in results)
    t = sum(r.stats["time_s"] for r in results)
    verify_t = sum((r.stats.get("verification") or {}).get("time_s", 0.0) for r in results)
    verify_rows = sum((r.stats.get("verification") or {}).get("rows", 0) for r in results)
    rows = sum(r.stats["rows_scored"] for r in results)
    layers = sum(r.stats["layers_computed"] for r in results)
    hist = [0] * max((len(r.stats["exit_histogram"]) for r in results), default=0)
    for r in results:
        for k, v in enumerate(r.stats["exit_histogram"]):
            hist[k] += v
    return {"tokens": tokens, "time_s": round(t, 2), "tokens_per_s": tokens / t if t else 0.0,
            # the evidence step's share of the check time, and its rows per cell token
            "verification_share": verify_t / t if t else 0.0,
            "verification_over_walk": verify_t / (t - verify_t) if t > verify_t else 0.0,
            "verification_rows_per_token": verify_rows / tokens if tokens else 0.0,
            "layers_per_token": layers / rows if rows else 0.0,
            "n_layer": results[0].stats["n_layer"] if results else 0, "exit_histogram": hist,
            # what check() ran with (its defaults may change between versions)
            "exit_policy": sorted({str(r.stats.get("exit_policy")) for r in results}),
            "lens": sorted({bool(r.stats.get("lens")) for r in results})}


# -- report --------------------------------------------------------------------------------------

def pct(x) -> str:
    return "–" if x is None else f"{100 * x:.1f} %"


def write_report(out: Path, summary: dict, rows: list[dict], results: dict, method: str, command: str):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out.mkdir(parents=True, exist_ok=True)
    (out / "command.txt").write_text(command + "\n")
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")

    # precision-recall of a threshold on the finding score: a reported line is right when it is a
    # changed line of a buggy file; any line reported on a fixed file is wrong
    import numpy as np
    scored = []   # (score, is_hit, pair index)
    for k, r in enumerate(rows):
        for ln, s in r["scores"][method]["buggy"].items():
            scored.append((s, int(ln) in r["changed"], k))
        for s in r["scores"][method]["fixed"].values():
            scored.append((s, False, k))
    fig, ax = plt.subplots(1, 2, figsize=(11, 4.2))
    if scored:
        thresholds = sorted({s for s, _, _ in scored})
        prec, rec, fa = [], [], []
        for t in thresholds:
            kept = [(h, k) for s, h, k in scored if s >= t]
            prec.append(sum(h for h, _ in kept) / len(kept))
            rec.append(len({k for h, k in kept if h}) / len(rows))
            fa.append(sum(any(s >= t for s in r["scores"][method]["fixed"].values()) for r in rows) / len(rows))
        ax[0].plot(rec, prec, marker=".", ms=3)
        ax[0].set_xlabel("recall (buggy files with a changed line reported)")
        ax[0].set_ylabel("precision (reported lines that are changed lines)")
        ax[0].set_title(f"finding-score threshold ({method})")
        ax[1].plot(fa, rec, marker=".", ms=3, label="checker (score threshold)")
        for name, m in (("compile", "o"), ("pyflakes", "s"), ("ruff", "^")):
            b = summary["overall"][name]
            ax[1].plot([b["false_alarm_rate"]], [b["top3_localisation"]], m, label=name)
        ax[1].axvline(0.15, color="grey", ls=":", lw=1)
        ax[1].set_xlabel("share of fixed files with a finding")
        ax[1].set_ylabel("buggy files with a changed line reported")
        ax[1].set_title("detection vs false alarms")
        ax[1].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "score_threshold.png", dpi=110)
    plt.close(fig)

    sp = summary["speed"]
    if sp["exit_histogram"]:
        fig, ax = plt.subplots(figsize=(6.5, 3.5))
        h = np.array(sp["exit_histogram"], float)
        ax.bar(np.arange(1, len(h) + 1), h / max(h.sum(), 1))
        ax.set_xlabel("layer whose output decided the token")
        ax.set_ylabel("share of scored tokens")
        ax.set_title(f"exit layers ({sp['layers_per_token']:.1f} of {sp['n_layer']} layers per token)")
        fig.tight_layout()
        fig.savefig(out / "exit_layers.png", dpi=110)
        plt.close(fig)

    if summary.get("margin_sweep"):
        fig, ax = plt.subplots(figsize=(6.5, 4.2))
        for d, pts in summary["margin_sweep"].items():
            ax.plot([p["fixed_flagged"] for p in pts], [p["top3"] for p in pts], marker="o", ms=3, label=d)
            for p in pts:
                if p["margin"] in (0.0, 2.0, 5.0, 10.0):
                    ax.annotate(f"{p['margin']:g}", (p["fixed_flagged"], p["top3"]), fontsize=7,
                                textcoords="offset points", xytext=(3, 3))
            b = summary["datasets"][d]["ruff"]
            ax.plot([b["false_alarm_rate"]], [b["top3_localisation"]], "^", label=f"ruff ({d})")
        ax.axvline(0.15, color="grey", ls=":", lw=1)
        ax.set_xlabel("share of fixed files with a finding (error or warning)")
        ax.set_ylabel("top-3 localisation of the buggy files")
        ax.set_title(f"evidence margin (nats) — {summary['model']}")
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(out / "margin_sweep.png", dpi=110)
        plt.close(fig)

    names = list(summary["datasets"]) + ["overall"]
    fig, ax = plt.subplots(figsize=(7, 3.8))
    w = 0.2
    for j, (label, get) in enumerate((("checker", lambda d: d["top3_localisation"]),
                                      ("compile", lambda d: d["compile"]["top3_localisation"]),
                                      ("pyflakes", lambda d: d["pyflakes"]["top3_localisation"]),
                                      ("ruff", lambda d: d["ruff"]["top3_localisation"]))):
        vals = [get(summary["datasets"][n] if n != "overall" else summary["overall"]) for n in names]
        ax.bar(np.arange(len(names)) + (j - 1.5) * w, vals, w, label=label)
    ax.set_xticks(np.arange(len(names)), names)
    ax.set_ylabel("top-3 localisation")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "localisation.png", dpi=110)
    plt.close(fig)

    lines = ["# Checking quality", "", f"Command: `{command}`", "",
             f"Model: {summary['model']}; options: `{json.dumps(summary['options'])}`; "
             f"findings ranked by `{method}`; {summary['date']}.", "",
             "| set | pairs | top-1 | top-3 | best baseline top-3 | fixed flagged | findings /100 lines (fixed) | repair exact | tests pass after repair |",
             "|---|---|---|---|---|---|---|---|---|"]
    for n in names:
        d = summary["datasets"][n] if n != "overall" else summary["overall"]
        lines.append(f"| {n} | {d['pairs']} | {pct(d['top1_localisation'])} | {pct(d['top3_localisation'])} | "
                     f"{pct(d['best_baseline_top3'])} ({d['best_baseline']}) | {pct(d['false_alarm_rate'])} | "
                     f"{d['findings_per_100_lines']:.2f} | {pct(d['repair_exact'])} | {pct(d.get('repair_tests_pass'))} |")
    lines += ["", "Baselines (same files):", "",
              "| set | tool | top-1 | top-3 | fixed flagged | findings /100 lines (fixed) |", "|---|---|---|---|---|---|"]
    for n in names:
        d = summary["datasets"][n] if n != "overall" else summary["overall"]
        lines.append(f"| {n} | checker | {pct(d['top1_localisation'])} | {pct(d['top3_localisation'])} | "
                     f"{pct(d['false_alarm_rate'])} | {d['findings_per_100_lines']:.2f} |")
        for t in ("compile", "pyflakes", "ruff"):
            b = d[t]
            lines.append(f"| {n} | {t} | {pct(b['top1_localisation'])} | {pct(b['top3_localisation'])} | "
                         f"{pct(b['false_alarm_rate'])} | {b['findings_per_100_lines']:.2f} |")
    lines += ["", "Finding-line scores (the same findings, ranked by each method; see "
              "`jupyter_codecheck/scoring.py`):", "", "| set | " + " | ".join(METHODS) + " |",
              "|---|" + "---|" * len(METHODS)]
    for n in names:
        d = summary["datasets"][n] if n != "overall" else summary["overall"]
        lines.append(f"| {n} top-1 / top-3 | " + " | ".join(
            f"{pct(d['scores'][m]['top1'])} / {pct(d['scores'][m]['top3'])}" for m in METHODS) + " |")
    o = summary["overall"]
    if o.get("tested_pairs"):
        lines += ["", f"HumanEvalFix tests ({o['tested_pairs']} pairs): buggy passes {pct(o['buggy_tests_pass'])}, "
                      f"fixed passes {pct(o['fixed_tests_pass'])}, corrected buggy passes "
                      f"{pct(o['repair_tests_pass'])}, corrected fixed passes {pct(o['corrected_fixed_tests_pass'])}."]
    lines += ["", "Fixed files flagged when findings that only change whitespace are left out: " + ", ".join(
        f"{n} {pct((summary['datasets'][n] if n != 'overall' else summary['overall'])['false_alarm_rate_no_layout'])}"
        for n in names) + "."]
    lines += ["", "Distinct correct files flagged (a file that is the fixed side of several pairs counts once, "
                  "flagged if flagged in any): " + ", ".join(
        f"{n} {pct(d['false_alarm_rate_distinct'])} of {d['distinct_fixed_files']}"
        for n, d in ((n, summary['datasets'][n] if n != 'overall' else summary['overall']) for n in names)) + "."]
    if summary.get("calibration"):
        c = summary["calibration"]
        lines += ["", f"Thresholds from `{c['tool']}` ({c['created']}): target {pct(c['target_false_alarm'])} of clean "
                      f"files flagged, {pct(c['achieved_false_alarm'])} on its {c['calibration_set']['files']} "
                      f"calibration files; objective: {c['objective']}."]
    if summary.get("calibration_sweep"):
        sw = summary["calibration_sweep"]
        lines += ["", f"Operating points on the calibration split ({sw['clean_files']} clean files, "
                      f"{sw['buggy_files']} buggy files; offline, full depth):", "",
                  "| rule (accept_prob, accept_rank, lenient_floor) | clean files flagged | buggy changed line rejected |",
                  "|---|---|---|"]
        for label, v in sw["rules"].items():
            lines.append(f"| {label} | {pct(v['false_alarm'])} | {pct(v['buggy_line_hit'])} |")
        lines += ["", "![calibration](calibration.png)"]
    if summary.get("margin_sweep"):
        lines += ["", "Evidence margin sweep (findings derived from each check's errors and the best gain of every "
                      "weighed place; the checks ran with the options above):", "",
                  "| set | margin (nats) | fixed flagged | top-1 | top-3 |", "|---|---|---|---|---|"]
        for d, pts in summary["margin_sweep"].items():
            for p_ in pts:
                lines.append(f"| {d} | {p_['margin']:g} | {pct(p_['fixed_flagged'])} | {pct(p_['top1'])} | {pct(p_['top3'])} |")
        lines += ["", "![margin sweep](margin_sweep.png)"]
    lines += ["", f"Verification (the evidence step): {pct(sp['verification_share'])} of the check time, "
                  f"{pct(sp['verification_over_walk'])} over the walk alone, "
                  f"{sp['verification_rows_per_token']:.2f} branch rows per cell token."]
    lines += ["", f"Speed: {sp['tokens_per_s']:.1f} tokens/s over {sp['tokens']} tokens "
                  f"({sp['time_s'] / 60:.1f} min of checking; shared 2-core machine), "
                  f"{sp['layers_per_token']:.2f} of {sp['n_layer']} layers per scored token; exit policy "
                  f"{', '.join(sp['exit_policy'])}, exit lens {', '.join(map(str, sp['lens']))}.", "",
              "![localisation](localisation.png)", "", "![score threshold](score_threshold.png)", "",
              "![exit layers](exit_layers.png)", ""]
    (out / "report.md").write_text("\n".join(lines))
    with open(out / "pairs.jsonl", "w") as f:
        for r in rows:
            f.write(json.dumps({"id": r["id"], "dataset": r["dataset"], "bug_type": r["bug_type"],
                                "changed": sorted(r["changed"]), "ranked": r["ranked"][method],
                                "fixed_findings": r["fixed_findings"], "repair_exact": r["repair_exact"],
                                "tests": r.get("tests"), "evidence": r["evidence"]}) + "\n")


# -- the calibration's operating curve ---------------------------------------------------------------

def calibration_sweep(out: Path, clean_dir: str, pairs_path: str | None, limit: int, cache_dir: Path,
                      calibration, threads) -> dict:
    """Every grid rule's false-alarm rate on the calibration files against its buggy changed-line
    hit rate (offline, from the cached accept-all statistics), with the chosen and the built-in
    rules marked: calibration.png and the figures of both rules."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from jupyter_codecheck.tools import calibrate as cal
    from jupyter_codecheck.engine.paths import resolve_model_path
    model = resolve_model_path(None)
    stats = cal.cached_token_stats(cache_dir / "tokens", cal.file_sha256(model), n_threads=threads)
    sources = cal.collect_sources([clean_dir])[:limit or None]
    clean = [stats(src, name) for name, src in sources]
    buggy = []
    if pairs_path:
        with open(pairs_path, encoding="utf-8") as f:
            calib_pairs = [json.loads(x) for x in f if x.strip()]
        for p in calib_pairs:
            lines = changed_lines(p["buggy"], p["fixed"])
            if lines:
                buggy.append((stats(p["buggy"], p["id"]), lines))
    choice = cal.select(clean, 1.0, buggy=buggy)
    pts = [(fa, hit if hit is not None else rej) for _, fa, hit, rej in choice.table]
    builtin = cal.Rule(0.2, 9, 0.005)
    marks = {"built-in (0.2, 9, 0.005)": builtin}
    if calibration is not None:
        o = calibration.options
        marks[f"calibrated ({o['accept_prob']}, {o['accept_rank']}, {o['lenient_floor']})"] = cal.Rule(
            o["accept_prob"], o["accept_rank"], o["lenient_floor"])
    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    ax.scatter([x for x, _ in pts], [y for _, y in pts], s=6, alpha=0.4, label="grid rules")
    found = {}
    for (label, rule), m in zip(marks.items(), ("s", "*")):
        row = next(r for r in choice.table if r[0] == rule) if any(r[0] == rule for r in choice.table) else None
        if row is None:
            fa = sum(cal.flagged(f, rule) for f in clean) / len(clean)
            hit = sum(cal.line_hit(f, rule, ln) for f, ln in buggy) / len(buggy) if buggy else None
            row = (rule, fa, hit, 0.0)
        found[label] = {"false_alarm": row[1], "buggy_line_hit": row[2]}
        ax.plot([row[1]], [row[2] if row[2] is not None else row[3]], m, ms=11, label=label)
    ax.axvline(calibration.target_false_alarm if calibration else 0.15, color="grey", ls=":", lw=1)
    ax.set_xlabel(f"share of the {len(clean)} calibration clean files flagged")
    ax.set_ylabel(f"buggy files ({len(buggy)}) with a rejected token on a changed line" if buggy
                  else "share of judged tokens rejected")
    ax.set_title("acceptance rules on the calibration split (full depth, offline)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    out.mkdir(parents=True, exist_ok=True)
    fig.savefig(out / "calibration.png", dpi=110)
    plt.close(fig)
    return {"clean_files": len(clean), "buggy_files": len(buggy), "rules": found}


# -- main --------------------------------------------------------------------------------------------

def parse_limit(text: str) -> tuple[str, int]:
    name, eq, value = text.rpartition("=")
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--limit takes N or NAME=N, got {text!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"--limit must be >= 0, got {n}")
    return name, n


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dataset", action="append", help="humanevalfix | debugbench | a JSONL path (repeatable; default both)")
    ap.add_argument("--categories", default=None,
                    help="comma list of bug_type names, or 'logic' (no syntax errors, no multi-bug pairs), 'syntax', 'all'")
    ap.add_argument("--debugbench-split", choices=("all", "calib", "report"), default="all",
                    help="DebugBench half by problem (calibration uses 'calib')")
    ap.add_argument("--limit", action="append", type=parse_limit, default=[],
                    help="first N pairs of each dataset (after filtering); NAME=N for one dataset (repeatable)")
    ap.add_argument("--calibration", default=None, help="calibration JSON whose options the checks use")
    ap.add_argument("--option", action="append", type=parse_option, default=[], help="check() option name=value")
    ap.add_argument("--score", choices=METHODS, default="finding", help="line score that ranks findings")
    ap.add_argument("--jobs", type=int, default=1, help="check processes (each loads the model)")
    ap.add_argument("--threads", type=int, default=None, help="threads per check (default: the engine's)")
    ap.add_argument("--no-tests", action="store_true", help="skip running HumanEvalFix tests")
    ap.add_argument("--sweep-clean", default=None,
                    help="calibration clean files/dir: plot every grid rule's operating point (calibration.png)")
    ap.add_argument("--sweep-pairs", default=None, help="calibration pairs JSONL for --sweep-clean")
    ap.add_argument("--sweep-limit", type=int, default=0, help="first N clean sources for --sweep-clean")
    ap.add_argument("--export-calibration-split", metavar="DIR", default=None,
                    help="write the DebugBench calibration half (clean/ and pairs.jsonl) to DIR and exit")
    ap.add_argument("--export-pairs", type=int, default=30, help="pairs written by --export-calibration-split")
    ap.add_argument("--fresh", action="store_true", help="run every check again (and refresh the cache)")
    ap.add_argument("--no-prelude", action="store_true",
                    help="check DebugBench solutions without LeetCode's definitions as an earlier cell")
    ap.add_argument("--cache", default=str(ROOT / "bench" / "out" / "cache"))
    ap.add_argument("--out", default=str(ROOT / "bench" / "out" / "quality"))
    args = ap.parse_args(argv)
    args.limit = dict(args.limit)
    # the report's plots and the baselines: said before minutes of checking, not after
    require("bench/quality.py", packages=("matplotlib", "pyflakes"), commands=("ruff",),
            paths=[DATASETS.get(ds, Path(ds)) for ds in args.dataset or ["humanevalfix", "debugbench"]])
    if args.export_calibration_split:
        export_calibration_split(Path(args.export_calibration_split), args.export_pairs)
        return
    command = "python bench/quality.py " + " ".join(shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:]))

    options: dict = {}
    calibration = load_calibration(args.calibration) if args.calibration else None
    if calibration is not None:
        options.update(calibration.options)
    options.update(dict(args.option))
    # the benchmark measures the model's findings, whatever a view would show of them
    options.setdefault("model_warnings", "on")
    from jupyter_codecheck.engine.paths import resolve_model_path
    model_path = resolve_model_path(options.get("model"))
    model_key = f"{model_path.name}:{model_path.stat().st_size}"

    pairs = load_pairs(args)
    if not pairs:
        sys.exit("error: no pairs selected (check --dataset / --categories / --limit)")
    print(f"{len(pairs)} pairs: " + ", ".join(f"{d} {sum(p['dataset'] == d for p in pairs)}"
                                              for d in dict.fromkeys(p["dataset"] for p in pairs)), file=sys.stderr)
    cache_dir = Path(args.cache)
    cache = CheckCache(cache_dir / "checks", options, model_key, fresh=args.fresh)
    ctx_of = lambda p: tuple(p["context"]) if p.get("context") else None  # noqa: E731
    jobs = [(s, ctx_of(p)) for p in pairs for s in (p["buggy"], p["fixed"])]
    sources = [s for s, _ in jobs]
    results = run_checks(jobs, cache, args.jobs, args.threads)

    ruff_all = ruff_lines(sources)
    rows = []
    for k, p in enumerate(pairs):
        rb, rf = results[(p["buggy"], ctx_of(p))], results[(p["fixed"], ctx_of(p))]
        changed = changed_lines(p["buggy"], p["fixed"])
        if not changed:
            continue
        row = {"id": p["id"], "dataset": p["dataset"], "bug_type": p.get("bug_type", ""), "changed": changed,
               "fixed_nlines": p["fixed"].count("\n") + (not p["fixed"].endswith("\n")),
               "fixed_findings": len(rf.findings), "fixed_layout_findings": len(layout_only_lines(rf)),
               "fixed_key": hashlib.sha256(p["fixed"].encode()).hexdigest()[:16],
               "ranked": {m: ranked_lines(rb, m) for m in METHODS},
               "scores": {m: {"buggy": _scores(rb, m), "fixed": _scores(rf, m)} for m in METHODS},
               "evidence": {"buggy": _evidence_of(rb), "fixed": _evidence_of(rf)},
               "repair_exact": normalised(rb.corrected) == normalised(p["fixed"]),
               "fixed_unchanged": normalised(rf.corrected) == normalised(p["fixed"]),
               "baselines": {
                   "compile": {"buggy": compile_lines(p["buggy"]), "fixed": compile_lines(p["fixed"])},
                   "pyflakes": {"buggy": ordered_unique(pyflakes_lines(p["buggy"])),
                                "fixed": ordered_unique(pyflakes_lines(p["fixed"]))},
                   "ruff": {"buggy": ordered_unique(ruff_all[2 * k]), "fixed": ordered_unique(ruff_all[2 * k + 1])}}}
        if p.get("test") and p.get("entry_point") and not args.no_tests:
            tdir = cache_dir / "tests"
            row["tests"] = {"buggy": passes(p["buggy"], p, tdir), "fixed": passes(p["fixed"], p, tdir),
                            "corrected_buggy": passes(rb.corrected, p, tdir),
                            "corrected_fixed": passes(rf.corrected, p, tdir)}
        rows.append(row)

    all_results = [results[j] for j in dict.fromkeys(jobs)]
    summary = {"model": model_path.name, "options": options, "score": args.score,
               "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
               "datasets": {d: figures_for([r for r in rows if r["dataset"] == d], args.score)
                            for d in dict.fromkeys(r["dataset"] for r in rows)},
               "overall": figures_for(rows, args.score), "speed": speed(all_results),
               "margin_sweep": {d: margin_sweep([r for r in rows if r["dataset"] == d])
                                for d in dict.fromkeys(r["dataset"] for r in rows)}}
    out = Path(args.out)
    if args.sweep_clean:
        summary["calibration_sweep"] = calibration_sweep(out, args.sweep_clean, args.sweep_pairs, args.sweep_limit,
                                                         cache_dir, calibration, args.threads)
    if calibration is not None:
        summary["calibration"] = calibration.to_dict()
    write_report(out, summary, rows, results, args.score, command)

    o = summary["overall"]
    print(f"top-3 localisation {pct(o['top3_localisation'])} (best baseline {o['best_baseline']} "
          f"{pct(o['best_baseline_top3'])}); fixed flagged {pct(o['false_alarm_rate'])}; repair exact "
          f"{pct(o['repair_exact'])}; {summary['speed']['tokens_per_s']:.1f} tok/s; report in {out}")
    final = {k: (round(v, 4) if isinstance(v, float) else v) for k, v in o.items()
             if not isinstance(v, dict)}
    final["top3_vs_best_baseline"] = round(o["top3_localisation"] / o["best_baseline_top3"], 3) if o["best_baseline_top3"] else None
    final["scores"] = {m: {k: round(v, 4) for k, v in s.items()} for m, s in o["scores"].items()}
    final["tokens_per_s"] = round(summary["speed"]["tokens_per_s"], 2)
    final["layers_per_token"] = round(summary["speed"]["layers_per_token"], 3)
    final["verification_over_walk"] = round(summary["speed"]["verification_over_walk"], 3)
    final["margin_sweep"] = summary["margin_sweep"]
    final["datasets"] = {d: {k: (round(v, 4) if isinstance(v, float) else v) for k, v in f.items()
                             if not isinstance(v, dict)} for d, f in summary["datasets"].items()}
    final["report"] = str(out)
    print(json.dumps(final))


def _evidence_of(result: CheckResult) -> dict:
    """What a margin sweep needs of a check: its error lines and each supported place's best gain;
    `places`, every weighed place's [line, gain, supported] (bench/clean_kinds.py's file-relative
    measure reads the gains available elsewhere in the file)."""
    return {"errors": sorted({f.line for f in result.findings if f.severity == "error"}),
            "gains": [[e.line, e.gain] for e in result.evidence if e.supported],
            "places": [[e.line, e.gain, e.supported] for e in result.evidence]}


def findings_at(ev: dict, margin: float) -> list[int]:
    """Finding lines at `margin`, ranked: errors first (in line order), then warnings by gain."""
    errors = ev["errors"]
    warn = sorted(((g, ln) for ln, g in ev["gains"] if g >= margin and ln not in errors), key=lambda x: (-x[0], x[1]))
    return errors + list(dict.fromkeys(ln for _, ln in warn))


def margin_sweep(rows: list[dict]) -> list[dict]:
    """Fixed files flagged and top-1/top-3 localisation of the buggy files at each margin."""
    n = len(rows) or 1
    out = []
    for m in MARGINS:
        out.append({"margin": m,
                    "fixed_flagged": sum(bool(findings_at(r["evidence"]["fixed"], m)) for r in rows) / n,
                    "top1": sum(hits(findings_at(r["evidence"]["buggy"], m), r["changed"], 1) for r in rows) / n,
                    "top3": sum(hits(findings_at(r["evidence"]["buggy"], m), r["changed"], 3) for r in rows) / n})
    return out


def _scores(result: CheckResult, method: str) -> dict[int, float]:
    from jupyter_codecheck.tools.line_scores import line_scores
    return line_scores(result, method)


if __name__ == "__main__":
    main()
