"""Predicting a notebook cell's crash before it runs (JunoBench), with and without kernel facts.

    python bench/notebook_crashes.py [--crashes PATH] [--clean PATH] [--mode code|kernel|both]
        [--limit N] [--out bench/reports/notebook-crashes] [--cache bench/out/cache] [--fresh]

Input: notebook_crashes.jsonl (JunoBench: for each case a crashing `buggy` and a `fixed` side,
each with its `earlier` cells, the `target` cell and the kernel's `runtime` summary before it) and
notebook_clean.jsonl (cells of notebooks that ran top to bottom, with their `earlier_cells`).
Every target is checked as the command line checks a notebook cell: the same earlier cells as
context (`long_sources.select_context`, the window's start carried from cell to cell as the CLI does)
and the cells before that window as `earlier` (core/long_sources.UnitCheck). Modes:

  code    the cell and its earlier cells only
  kernel  the same, plus the kernel's namespace as stand-in objects built from the `runtime`
          summary (bench/notebook_standins.py: faithful or opaque). A case whose faithful
          stand-ins need a package missing here (TensorFlow, PyTorch, cv2, ...) is checked code
          only in this mode too, and counted.

Figures per mode: balanced accuracy ((crashing targets flagged + fixed targets not flagged) / 2)
overall and per group, with "flagged" read as any error finding, any finding (error or warning),
and each kind alone; `located` (flagged crashing cells whose fix changes the target: is the top
finding on a changed line); exact repairs; clean cells flagged (code mode); the warnings' gains on
crashing, fixed and clean cells at several margins. Baselines on the same cells, as a notebook
linter sees them (earlier cells and target in one file, magics commented out, messages on the
target's lines): pyflakes, ruff (default rules), pylint (errors only).
Needs the bench extra (`pip install '.[bench]'`, or `make bench`): the stand-ins' libraries and
the linters; what is missing is named before anything runs (bench/requirements.py, exit code 2).
Checks are cached on disk (key: cell, context, options, stand-ins, model, checker fingerprint).
Writes report.md, summary.json, cases.jsonl (every finding and the corrected text of every check,
to replay rules offline) and command.txt to --out; the last stdout line is one JSON object.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("MPLBACKEND", "Agg")      # stand-ins import matplotlib.pyplot: no display

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# libraries whose presence in sys.modules the report states: without a namespace, check() reads
# the modules a cell imports from those this process has loaded (libraries="loaded")
WATCHED = ("numpy", "pandas", "sklearn", "matplotlib", "seaborn", "scipy", "PIL", "IPython")


def check_cell(target: str, context: list[str], before: list[str], options: dict):
    """A notebook cell checked as the command line checks it (core.long_sources.UnitCheck)."""
    from jupyter_codecheck.core.long_sources import UnitCheck, check_long
    from jupyter_codecheck.pytext.sources import Unit
    job = UnitCheck(Unit("notebook.ipynb", target, cell=len(before) + len(context)), context, before, [])
    return check_long(target, **{**job.options(), **options})


def _worker() -> None:
    """`--worker`: checks the jobs read from stdin (one JSON object a line), each as the command
    line checks a notebook cell, in a process that has imported only what the command line
    imports: a check without a namespace reads the modules this process has loaded, so code mode
    must not see the stand-ins' pandas or scikit-learn. One JSON line out per job, then the
    watched libraries loaded."""
    out, sys.stdout = sys.stdout, sys.stderr
    from jupyter_codecheck.core.adapter import load_model
    for line in sys.stdin:
        job = json.loads(line)
        # each check on its own (nothing of the previous check kept): a result does not depend
        # on the order of the checks or on what the cache held
        load_model(job["options"].get("model"), job["options"].get("n_threads")).forget()
        r = check_cell(job["target"], job["context"], job["before"], job["options"])
        out.write(json.dumps({"result": r.to_json()}) + "\n")
        out.flush()
    out.write(json.dumps({"loaded": sorted(m for m in WATCHED if m in sys.modules)}) + "\n")
    out.flush()


if __name__ == "__main__" and sys.argv[1:2] == ["--worker"]:
    _worker()
    sys.exit(0)

sys.path.insert(0, str(ROOT / "bench"))

from jupyter_codecheck.core.long_sources import select_context  # noqa: E402
from jupyter_codecheck.core.result import CheckResult  # noqa: E402
from jupyter_codecheck.pytext.sources import is_python_cell  # noqa: E402
from jupyter_codecheck.tools.calibrate import changed_lines, checker_fingerprint  # noqa: E402
from check_options import parse_option  # noqa: E402
from disk_cache import DiskCache  # noqa: E402
from harness import BENCH, load_jsonl, normalised  # noqa: E402
from notebook_standins import build_namespace  # noqa: E402
from notebook_crashes_report import (KINDS, PUBLISHED, balanced, baseline_figures, flagged_by,  # noqa: E402
                                     mode_figures, write_report)
from notebook_linters import LINT_TOOLS, LintCache, _tool_version, linter_file, run_baselines  # noqa: E402
from requirements import NOTEBOOK_LIBRARIES, require  # noqa: E402

# the versions JunoBench's notebooks ran with (PELAB-LiU/JunoBench_construct, data/requirements.txt)
JUNOBENCH_VERSIONS = {"numpy": "1.26.4", "pandas": "2.1.4", "scikit-learn": "1.2.2", "matplotlib": "3.7.1",
                      "seaborn": "0.12.2", "scipy": "1.13.1", "pillow": "10.4.0"}
# bump when check()'s results change meaning for the same inputs (older cached checks unused)
CACHE_VERSION = "2"      # 2: checks without a namespace in the --worker process


# -- data ---------------------------------------------------------------------------------------------

def cli_cells(earlier: list[str]) -> list[str]:
    """The earlier cells as the command line reads a notebook: empty and non-Python cells left out."""
    return [c for c in earlier if c.strip() and is_python_cell(c)]


def cli_context(earlier: list[str]) -> tuple[list[str], list[str]]:
    """(context, before) for the cell after `earlier`, as views/cli.check_files picks them: the
    window's start carried over the notebook's cells in order (select_context)."""
    cells = cli_cells(earlier)
    start = 0
    for k in range(len(cells)):
        start, _ = select_context(cells[:k], start)
    start, ctx = select_context(cells, start)
    return ctx, cells[:start]


def clean_order(row: dict):
    notebook, _, index = row["id"].rpartition("-")
    return (notebook, int(index) if index.isdigit() else 0)


def n_lines(src: str) -> int:
    return len(src.rstrip("\n").split("\n")) if src.strip() else 0


# -- checks, cached -----------------------------------------------------------------------------------

def namespace_option() -> str:
    """`namespace` once check() has it; until then `names` takes the same dict."""
    from jupyter_codecheck.core.options import OPTIONS
    return "namespace" if any(o.name == "namespace" for o in OPTIONS) else "names"


@dataclasses.dataclass
class Job:
    set: str                 # crash | clean
    id: str
    group: str
    side: str                # buggy | fixed | clean
    mode: str                # code | kernel
    target: str
    context: list
    before: list
    namespace: dict | None = None
    described: dict | None = None
    kernel: bool = False     # checked with stand-ins (kernel mode and not a framework case)

    def key(self, prefix: str) -> str:
        body = json.dumps({"target": self.target, "context": self.context, "before": self.before,
                           "standins": self.described if self.namespace is not None else None},
                          sort_keys=True)
        return prefix + "\0" + body


class Cache:
    """Checks on disk by job (its cell, context, stand-ins) under the run's prefix."""

    def __init__(self, directory: Path, prefix: str, fresh: bool):
        self.disk, self.prefix = DiskCache(directory, fresh), prefix

    def _key(self, job: Job) -> str:
        return job.key(self.prefix)

    def path(self, job: Job) -> Path:
        return self.disk.path(self._key(job))

    def get(self, job: Job) -> CheckResult | None:
        text = self.disk.get(self._key(job))
        return CheckResult.from_json(text) if text is not None else None

    def put(self, job: Job, text: str) -> None:
        self.disk.put(self._key(job), text)


class Runner:
    """Runs checks: a job without a namespace in the `--worker` process (the command line's
    modules only), a job with one here (the stand-ins' libraries loaded, as in a kernel)."""

    def __init__(self, options: dict, ns_option: str):
        self.options, self.ns_option = options, ns_option
        self.worker = None
        self.worker_loaded: list[str] | None = None

    def run(self, job: Job) -> str:
        if job.namespace is None:
            return self._in_worker(job)
        from jupyter_codecheck.core.adapter import load_model
        load_model(self.options.get("model"), self.options.get("n_threads")).forget()
        from jupyter_codecheck.facts import kernel_state
        r = check_cell(job.target, job.context, job.before,
                       {**self.options, self.ns_option: kernel_state(job.namespace)})
        r.stats["checker_fingerprint"] = checker_fingerprint()
        return r.to_json()

    def _in_worker(self, job: Job) -> str:
        if self.worker is None:
            self.worker = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--worker"],
                                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.worker.stdin.write(json.dumps({"target": job.target, "context": job.context,
                                            "before": job.before, "options": self.options}) + "\n")
        self.worker.stdin.flush()
        line = self.worker.stdout.readline()
        if not line:
            raise RuntimeError(f"the check worker stopped (exit {self.worker.wait()})")
        r = CheckResult.from_json(json.loads(line)["result"])
        r.stats["checker_fingerprint"] = checker_fingerprint()
        return r.to_json()

    def close(self) -> None:
        if self.worker is not None:
            self.worker.stdin.close()
            for line in self.worker.stdout:
                got = json.loads(line)
                if "loaded" in got:
                    self.worker_loaded = got["loaded"]
            self.worker.wait()
            self.worker = None


def run_checks(jobs: list[Job], cache: Cache, runner: Runner) -> dict[int, CheckResult]:
    """Results by job index; each distinct check once."""
    by_key: dict[str, CheckResult] = {}
    keys = [cache.path(j).name for j in jobs]
    todo, queued = [], set()
    for j, k in zip(jobs, keys):
        if k in by_key or k in queued:
            continue
        r = cache.get(j)
        if r is None:
            todo.append(j)
            queued.add(k)
        else:
            by_key[k] = r
    print(f"checks: {len(by_key)} cached, {len(todo)} to run", file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    for n, j in enumerate(todo, 1):
        t = time.perf_counter()
        text = runner.run(j)
        cache.put(j, text)
        r = CheckResult.from_json(text)
        by_key[cache.path(j).name] = r
        el = time.perf_counter() - t0
        print(f"[{n}/{len(todo)}] {j.set} {j.id} {j.side} {j.mode}{' (stand-ins)' if j.kernel else ''}: "
              f"{len(r.findings)} findings, {time.perf_counter() - t:.1f} s; {el / 60:.1f} min, "
              f"~{el / n * (len(todo) - n) / 60:.1f} min left", file=sys.stderr, flush=True)
    return {k: by_key[key] for k, key in enumerate(keys)}

def speed(jobs: list[Job], results: dict, cache: Cache) -> dict:
    distinct = {cache.path(j).name: results[k] for k, j in enumerate(jobs)}
    t = sum(r.stats.get("time_s", 0.0) for r in distinct.values())
    tokens = sum(r.stats.get("tokens", 0) for r in distinct.values())
    return {"checks": len(distinct), "time_s": round(t, 1), "tokens": tokens,
            "tokens_per_s": round(tokens / t, 1) if t else None}


# -- main ----------------------------------------------------------------------------------------------------

def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--crashes", default=str(BENCH / "notebook_crashes.jsonl"))
    ap.add_argument("--clean", default=str(BENCH / "notebook_clean.jsonl"))
    ap.add_argument("--mode", choices=("code", "kernel", "both"), default="both")
    ap.add_argument("--limit", type=int, default=0, help="first N crash cases and first N clean cells")
    ap.add_argument("--out", default=str(ROOT / "bench" / "reports" / "notebook-crashes"))
    ap.add_argument("--cache", default=str(ROOT / "bench" / "out" / "cache"))
    ap.add_argument("--fresh", action="store_true", help="run every check and linter again")
    ap.add_argument("--option", action="append", type=parse_option, default=[],
                    help="check() option name=value for every check (e.g. libraries=import)")
    args = ap.parse_args(argv)
    modes = ["code", "kernel"] if args.mode == "both" else [args.mode]
    # the linters are the baselines of every run; the stand-ins' libraries make kernel mode's
    # namespaces (a case whose libraries were missing would be checked as code only)
    require("bench/notebook_crashes.py", packages=("pyflakes", *NOTEBOOK_LIBRARIES), commands=("ruff", "pylint"),
            paths=[args.crashes, *([args.clean] if "code" in modes else [])])
    command_line = "python bench/notebook_crashes.py " + " ".join(
        shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:]))
    # every target is a notebook cell, as the command line checks a notebook's cells
    options: dict = {"notebook": True, **dict(args.option)}
    ns_option = namespace_option()

    from jupyter_codecheck.engine.paths import resolve_model_path
    model_path = resolve_model_path(options.get("model"))
    fingerprint = checker_fingerprint()
    prefix = json.dumps({"version": CACHE_VERSION, "checker": fingerprint, "options": options,
                         "model": f"{model_path.name}:{model_path.stat().st_size}",
                         "namespace_option": ns_option}, sort_keys=True)
    cache = Cache(Path(args.cache) / "notebook-checks", prefix, args.fresh)

    cases = load_jsonl(Path(args.crashes), args.limit)
    clean = load_jsonl(Path(args.clean), args.limit) if "code" in modes else []
    print(f"{len(cases)} crash cases, {len(clean)} clean cells; modes {', '.join(modes)}; "
          f"namespace as {ns_option}=", file=sys.stderr, flush=True)

    # stand-ins, per case and side
    standins = {}
    framework: dict[str, set] = {}
    t0 = time.perf_counter()
    for c in cases:
        for side in ("buggy", "fixed"):
            s = build_namespace(c[side]["earlier"], c[side]["target"], c[side]["runtime"])
            standins[(c["id"], side)] = s
            if s.needs:
                framework.setdefault(c["id"], set()).update(s.needs)
    print(f"stand-ins built in {time.perf_counter() - t0:.1f} s; {len(framework)} cases need a missing "
          f"package", file=sys.stderr, flush=True)

    jobs: list[Job] = []
    for c in cases:
        for side in ("buggy", "fixed"):
            ctx, before = cli_context(c[side]["earlier"])
            for mode in modes:
                s = standins[(c["id"], side)]
                kernel = mode == "kernel" and c["id"] not in framework
                jobs.append(Job("crash", c["id"], c["group"], side, mode, c[side]["target"], ctx, before,
                                s.namespace if kernel else None, s.described if kernel else None, kernel))
    # cells of one notebook one after another, in notebook order: their context windows share a
    # beginning, whose KV the next check reuses (results do not depend on the order)
    for c in sorted(clean, key=clean_order):
        ctx, before = cli_context(c["earlier_cells"])
        jobs.append(Job("clean", c["id"], "clean", "clean", "code", c["cell"], ctx, before))
    runner = Runner(options, ns_option)
    try:
        results = run_checks(jobs, cache, runner)
    finally:
        runner.close()

    # baselines
    lint_cache = LintCache(Path(args.cache) / "notebook-lint", args.fresh)
    lint_entries = []      # (key, text, first, last)
    for c in cases:
        for side in ("buggy", "fixed"):
            text, first, last = linter_file(c[side]["earlier"], c[side]["target"])
            lint_entries.append((("crash", c["id"], side), text, first, last))
    for c in clean:
        text, first, last = linter_file(c["earlier_cells"], c["cell"])
        lint_entries.append((("clean", c["id"]), text, first, last))
    msgs = run_baselines([t for _, t, _, _ in lint_entries], lint_cache)
    lint = {}
    for k, (key, _, first, last) in enumerate(lint_entries):
        lint[key] = {"first": first, "last": last, **{tool: msgs[tool][k] for tool in msgs}}

    # per-check records
    from jupyter_codecheck.core.repairs import FIM_SOURCE
    from quality_report import repair_gains
    rows: dict = {}
    clean_rows: list[dict] = []
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "cases.jsonl", "w", encoding="utf-8") as f:
        for j, job in enumerate(jobs):
            r = results[j]
            rec = {"set": job.set, "id": job.id, "group": job.group, "side": job.side, "mode": job.mode,
                   "kernel": job.kernel, "target": job.target,
                   "context_cells": len(job.context), "before_cells": len(job.before),
                   "findings": [dataclasses.asdict(x) for x in r.findings],
                   # the verified places; a line repair's own gain apart (another reading)
                   "evidence": [[e.line, round(e.gain, 4), e.supported, e.original, e.replacement]
                                for e in r.evidence if e.source != FIM_SOURCE],
                   "repairs": repair_gains(r.stats),
                   "corrected": r.corrected,
                   "time_s": r.stats.get("time_s"), "tokens": r.stats.get("tokens")}
            if job.set == "crash":
                c = next(x for x in cases if x["id"] == job.id)
                fixed_target = c["fixed"]["target"]
                rec["changed_lines"] = sorted(changed_lines(job.target, fixed_target)) \
                    if job.side == "buggy" and normalised(job.target) != normalised(fixed_target) else []
                rec["repair_exact"] = normalised(r.corrected) == normalised(fixed_target)
                s = standins[(job.id, job.side)]
                if job.mode == "kernel":
                    rec["standins"] = s.described
                    rec["needs"] = sorted(framework.get(job.id, ()))
                if job.mode == modes[0]:
                    e = lint[("crash", job.id, job.side)]
                    rec["baselines"] = {t: [m for m in e[t] if e["first"] <= m[0] <= e["last"]]
                                        for t in LINT_TOOLS}
                rows[(job.id, job.side, job.mode)] = rec
            else:
                e = lint[("clean", job.id)]
                rec["baselines"] = {t: [m for m in e[t] if e["first"] <= m[0] <= e["last"]]
                                    for t in LINT_TOOLS}
                clean_rows.append(rec)
            f.write(json.dumps(rec) + "\n")

    kinds: dict[str, int] = {}
    for s in standins.values():
        for d in s.described.values():
            if d["standin"] == "note":
                continue
            k = d["standin"] + (f" ({d['why']})" if d.get("why") else "")
            kinds[k] = kinds.get(k, 0) + 1
    packages: dict[str, int] = {}
    for needs in framework.values():
        for p in needs:
            packages[p] = packages.get(p, 0) + 1
    summary = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "model": model_path.name,
        "checker_fingerprint": fingerprint, "namespace_option": ns_option, "options": options,
        "cases": len(cases), "clean_cells": len(clean),
        "framework_cases": sorted(framework), "framework_packages": dict(sorted(packages.items(), key=lambda x: -x[1])),
        "modes": {m: mode_figures(cases, rows, clean_rows if m == "code" else None, m) for m in modes},
        "baselines": baseline_figures(cases, lint, [lint[("clean", c["id"])] for c in clean] if clean else None),
        "published": PUBLISHED,
        "standins": {"namespaces": len(standins), "kinds": dict(sorted(kinds.items(), key=lambda x: -x[1])),
                     "unparsed_runtime_read": sum(s.unparsed for s in standins.values()),
                     "runtime_names_skipped": {f"{i}/{side}": s.skipped for (i, side), s in standins.items() if s.skipped}},
        "clean_errors": [{"id": r["id"], "line": f["line"], "kind": f["kind"], "message": f["message"]}
                         for r in clean_rows for f in r["findings"] if f["severity"] == "error"],
        "fixed_errors": [{"id": k[0], "mode": k[2], "line": f["line"], "kind": f["kind"], "message": f["message"]}
                         for k, r in rows.items() if k[1] == "fixed" for f in r["findings"] if f["severity"] == "error"],
        "code_mode_libraries_loaded": runner.worker_loaded,
        "kernel_findings": [{"id": k[0], "side": k[1], "line": f["line"], "kind": f["kind"], "message": f["message"]}
                            for k, r in rows.items() if k[2] == "kernel" and r["kernel"]
                            for f in r["findings"] if f["severity"] == "error"],
        "library_versions": {p: (_tool_version(p), v) for p, v in JUNOBENCH_VERSIONS.items()},
        "speed": speed(jobs, results, cache),
    }
    if "kernel" in modes and "code" in modes:
        sub = [c for c in cases if c["id"] not in framework]
        if sub:
            ks = {"cases": len(sub)}
            for m in ("code", "kernel"):
                for rule in ("error", "any"):
                    ks[f"{m}_{rule}"] = balanced([(bool(flagged_by(rows[(c["id"], "buggy", m)]["findings"], rule)),
                                                   bool(flagged_by(rows[(c["id"], "fixed", m)]["findings"], rule)))
                                                  for c in sub])["balanced_accuracy"]
            summary["kernel_subset"] = ks
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    (out / "command.txt").write_text(command_line + "\n")
    write_report(out, summary, command_line)

    final: dict = {"cases": len(cases), "clean_cells": len(clean), "framework_cases": len(framework),
                   "namespace_option": ns_option}
    for m, fig in summary["modes"].items():
        fl = fig["flagged"]
        final[m] = {"ba_error": fl["error"]["balanced_accuracy"], "ba_any": fl["any"]["balanced_accuracy"],
                    "crash_error": fl["error"]["crash_flagged"], "fixed_error": fl["error"]["fixed_flagged"],
                    "crash_any": fl["any"]["crash_flagged"], "fixed_any": fl["any"]["fixed_flagged"],
                    "ba_by_kind": {k: fl[k]["balanced_accuracy"] for k in (*KINDS, "warning")},
                    "located_error": fig["located"]["error"]["share"], "located_any": fig["located"]["any"]["share"],
                    "repair_exact": fig["repair_exact"]["share"]}
        if m == "code":
            final[m]["clean_error"] = fl["error"].get("clean_flagged")
            final[m]["clean_any"] = fl["any"].get("clean_flagged")
    if "kernel_subset" in summary:
        final["kernel_subset"] = summary["kernel_subset"]
    final["baselines"] = {k: {"ba": b["balanced_accuracy"], "clean": b.get("clean_flagged")}
                          for k, b in summary["baselines"].items()}
    final["report"] = str(out)

    def rounded(x):
        if isinstance(x, float):
            return round(x, 4)
        if isinstance(x, dict):
            return {k: rounded(v) for k, v in x.items()}
        return x
    print(json.dumps(rounded(final)))


if __name__ == "__main__":
    main()
