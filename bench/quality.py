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
import hashlib
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
from harness import BENCH, normalised, pct  # noqa: E402
from quality_data import (DATASETS, LEETCODE_PRELUDE, debugbench_split, export_calibration_split,  # noqa: E402
                          leetcode_names, load_pairs)
from quality_report import _evidence_of, figures_for, margin_sweep, speed, write_report  # noqa: E402
from requirements import command, require  # noqa: E402

VENV_BIN = Path(sys.executable).parent
TEST_TIMEOUT_S = 10

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
CHECK_CACHE_VERSION = "5"      # 2: findings need evidence (errors + verified warnings); 3: LeetCode's names; 4: scoped gates; 5: line repairs' own floor and gates


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


def _scores(result: CheckResult, method: str) -> dict[int, float]:
    from jupyter_codecheck.tools.line_scores import line_scores
    return line_scores(result, method)


# what other benchmarks read of this one (quality.BENCH, quality.load_pairs, ...)
__all__ = ["BENCH", "DATASETS", "LEETCODE_PRELUDE", "changed_lines", "debugbench_split", "leetcode_names",
           "load_pairs", "main", "parse_limit"]


if __name__ == "__main__":
    main()
