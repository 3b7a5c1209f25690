"""When a cell fails, on JunoBench's real Kaggle crashes: does the repair change what the
published fix changes?

    python bench/failure_junobench.py [--crashes PATH] [--model smollm2-135m] [--threads 1]
        [--limit N] [--cell-timeout 20] [--out DIR]

JunoBench publishes each crash's cells and a summary of the kernel's variables before the
crashing cell, not the error nor the data. Here the crashing cell runs on the stand-ins built
from that summary (bench/notebook_standins.py: faithful objects, or opaque ones that have every
attribute), in a copy of them, its text in `linecache` as IPython keeps a cell's; what it raises
is the failure. A crash counts as **reproduced** when the cell raises in its own code, and not
for want of this machine (a module not installed, a data file absent, a run past
--cell-timeout) nor from an opaque stand-in (its message names one); the others are counted
apart, by why. Then, as auto mode calls it, `repair_failure(target, exception, context=the
earlier cells, namespace=the stand-ins as the failure left them, model=...)`, timed, and its
repair held to the published fix (difflib over the lines of the target and of each earlier
cell):
  at the fix's place   the repaired line (in the target or an earlier cell) is one the fix changes
  the fix's line       the repaired line is the fixed version's line there (blanks aside)
Where the fix inserts lines, the lines on either side of the insertion are its place.
The stand-ins are not the kernel's objects (3-row frames, one-element arrays): a reproduced
crash may be raised a line earlier or by another check than the original's, and a repair the
facts verify on the stand-ins is verified on those. The last line printed is one JSON object;
report.md, rows.jsonl and command.txt go to --out.
"""
from __future__ import annotations

import argparse
import contextlib
import difflib
import io
import json
import linecache
import os
import shlex
import signal
import statistics
import sys
import time
import traceback
import warnings
from pathlib import Path

os.environ.setdefault("MPLBACKEND", "Agg")      # the cells plot: no display

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from harness import BENCH, load_jsonl, pct  # noqa: E402
from requirements import NOTEBOOK_LIBRARIES, require  # noqa: E402

# errors this machine causes, not the notebook: what is missing here, or a run cut short
ENVIRONMENT = ("ModuleNotFoundError", "ImportError", "FileNotFoundError", "OSError", "PermissionError",
               "CellTimeout")


class CellTimeout(Exception):
    pass


def changed_lines(buggy: str, fixed: str) -> dict[int, str | None]:
    """1-based lines of `buggy` the fix changes -> the fixed version's line there (None: the
    line is deleted, or replaced by a different number of lines); around an insertion, the
    lines on either side (None)."""
    a, b = buggy.split("\n"), fixed.split("\n")
    out: dict[int, str | None] = {}
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        if op == "insert":
            for ln in (i1, i1 + 1):
                if 1 <= ln <= len(a):
                    out.setdefault(ln, None)
            continue
        same = op == "replace" and i2 - i1 == j2 - j1
        for k in range(i1, i2):
            out[k + 1] = b[j1 + k - i1] if same else None
    return out


def fix_places(case: dict) -> dict[tuple[int, int], str | None]:
    """(cell, line) -> fixed line of every line the fix changes; cell indexes the buggy side's
    earlier cells, the target last (as repair_failure numbers them)."""
    be, fe = case["buggy"]["earlier"], case["fixed"]["earlier"]
    places: dict[tuple[int, int], str | None] = {}
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, be, fe, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        for k in range(i1, i2):
            other = fe[j1 + k - i1] if op == "replace" and i2 - i1 == j2 - j1 else ""
            for ln, new in changed_lines(be[k], other).items():
                places[(k, ln)] = new if other else None
    for ln, new in changed_lines(case["buggy"]["target"], case["fixed"]["target"]).items():
        places[(len(be), ln)] = new
    return places


def run_target(target: str, namespace: dict, name: str, timeout: float):
    """Runs the cell on `namespace` as IPython runs one; (exception or None, printed text)."""
    filename = f"<ipython-input-{name}>"
    linecache.cache[filename] = (len(target), None, target.splitlines(True), filename)

    def alarm(signum, frame):
        raise CellTimeout(f"the cell ran past {timeout} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(target, filename, "exec"), namespace)
        return None, out.getvalue(), filename
    except BaseException as e:  # noqa: BLE001 - the failure is the point
        if isinstance(e, KeyboardInterrupt):
            raise
        return e, out.getvalue(), filename
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def not_reproduced(exc: BaseException | None, filename: str) -> str | None:
    """Why the stand-ins' run is no reproduction of the crash (None: it is one)."""
    if exc is None:
        return "ran without an error"
    if type(exc).__name__ in ENVIRONMENT or isinstance(exc, (ImportError, OSError, CellTimeout)):
        return f"this machine ({type(exc).__name__})"
    if "opaque stand-in" in str(exc) or "Opaque" in str(exc):
        return "an opaque stand-in"
    frames = traceback.extract_tb(exc.__traceback__)
    if not any(f.filename == filename for f in frames):
        return "raised outside the cell"
    if any(f.filename.endswith(("standin_values.py", "standin_cells.py", "notebook_standins.py")) for f in frames):
        return "an opaque stand-in"
    return None


def one(case: dict, args) -> dict:
    from jupyter_codecheck.failure import repair_failure
    from notebook_standins import build_namespace
    b = case["buggy"]
    rec = {"id": case["id"], "group": case["group"]}
    try:
        standins = build_namespace(b["earlier"], b["target"], b["runtime"])
    except Exception as e:  # noqa: BLE001 - a summary the stand-ins cannot read
        rec["skipped"] = f"stand-ins: {type(e).__name__}"
        return rec
    if standins.needs:
        rec["skipped"] = f"this machine (needs {', '.join(sorted(standins.needs))})"
        return rec
    namespace = dict(standins.namespace)
    exc, printed, filename = run_target(b["target"], namespace, case["id"], args.cell_timeout)
    why = not_reproduced(exc, filename)
    rec["error"] = None if exc is None else f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"
    if why is not None:
        rec["skipped"] = why
        return rec
    t0 = time.perf_counter()
    fix = repair_failure(b["target"], exc, context=b["earlier"], namespace=namespace, model=args.model,
                         threads=args.threads)
    rec["repair_s"] = round(time.perf_counter() - t0, 3)
    rec["cause"] = fix.cause_text
    rec["asked_model"] = "model_s" in fix.stats
    places = fix_places(case)
    rec["fix_places"] = sorted([list(k) for k in places])
    r = fix.repair
    if r is None:
        rec["repair"] = None
        return rec
    rec["repair"] = {"cell": r.cell, "line": r.line, "origin": r.origin, "verified": r.verified,
                     "old_line": r.old_line, "new_line": r.new_line}
    rec["at_fix_place"] = (r.cell, r.line) in places
    want = places.get((r.cell, r.line))
    rec["fix_line"] = want is not None and want.split() == r.new_line.split()
    return rec


def summarise(rows: list[dict]) -> dict:
    done = [r for r in rows if "skipped" not in r]
    skipped: dict[str, int] = {}
    for r in rows:
        if "skipped" in r:
            key = r["skipped"].split(" (")[0] if r["skipped"].startswith("this machine") else r["skipped"]
            skipped[key] = skipped.get(key, 0) + 1
    n = len(done)
    shown = [r for r in done if r.get("repair")]
    times = [r["repair_s"] for r in done]

    def share(k):
        return round(k / n, 4) if n else None

    lined = [r for r in done if r.get("fix_places")]     # the others' fix only adds cells: no line to repair
    return {"cases": len(rows), "reproduced": n, "not_reproduced": dict(sorted(skipped.items(), key=lambda kv: -kv[1])),
            "fix_changes_lines": len(lined),
            "at_fix_place_where_the_fix_changes_lines": round(sum(bool(r.get("at_fix_place")) for r in lined) / len(lined), 4)
            if lined else None,
            "with_repair": share(len(shown)), "at_fix_place": share(sum(bool(r.get("at_fix_place")) for r in done)),
            "fix_line": share(sum(bool(r.get("fix_line")) for r in done)),
            "at_fix_place_of_shown": round(sum(bool(r.get("at_fix_place")) for r in shown) / len(shown), 4) if shown else None,
            "by_origin": {o: sum(1 for r in shown if r["repair"]["origin"] == o)
                          for o in sorted({r["repair"]["origin"] for r in shown})},
            "repair_s_median": round(statistics.median(times), 3) if times else None,
            "asked_model": sum(bool(r.get("asked_model")) for r in done)}


def report(rows: list[dict], summary: dict, command: str, meta: dict) -> str:
    n = summary["reproduced"]
    lines = ["# When a cell fails: JunoBench's crashes, the repair against the published fix", "",
             f"`{command}`", "",
             f"{meta['model']}, {meta['threads']} thread(s); load average {meta['load'][0]}–{meta['load'][1]}.", "",
             f"{summary['cases']} cases; **{n} crashes reproduced on the stand-ins**; not reproduced: "
             + (", ".join(f"{k} {v}" for k, v in summary["not_reproduced"].items()) or "none") + ".", "",
             f"- a repair shown: **{pct(summary['with_repair'])}** of the reproduced crashes",
             f"- the repair at a line the fix changes: **{pct(summary['at_fix_place'])}** "
             f"({pct(summary['at_fix_place_of_shown'])} of the repairs shown)",
             f"- of the {summary['fix_changes_lines']} whose fix changes lines of the cells run (the others' only "
             f"adds cells), the repair at one of them: {pct(summary['at_fix_place_where_the_fix_changes_lines'])}",
             f"- the repair writes the fix's own line: **{pct(summary['fix_line'])}**",
             f"- repairs by origin: {summary['by_origin']}; the model asked for {summary['asked_model']}",
             f"- time to the repair: median {summary['repair_s_median']} s", "",
             "| case | error | repair | at the fix's place | the fix's line |", "|---|---|---|---|---|"]
    for r in rows:
        if "skipped" in r:
            continue
        rep = r.get("repair")
        shown = "none" if rep is None else f"cell {rep['cell']} line {rep['line']}: `{rep['old_line'].strip()}` → `{rep['new_line'].strip()}` ({rep['origin']}, verified {rep['verified']})"
        cells = [r["id"], str(r["error"]), shown, "yes" if r.get("at_fix_place") else "no", "yes" if r.get("fix_line") else "no"]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    lines += ["", "Not reproduced:", ""] + [f"- {r['id']}: {r['skipped']}" + (f" ({r['error']})" if r.get("error") else "")
                                             for r in rows if "skipped" in r]
    return "\n".join(lines) + "\n"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--crashes", default=str(BENCH / "notebook_crashes.jsonl"))
    ap.add_argument("--model", default="smollm2-135m")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--cell-timeout", type=float, default=20.0, help="seconds a crashing cell may run on the stand-ins")
    ap.add_argument("--out", default=None, help="folder for report.md, rows.jsonl and command.txt")
    args = ap.parse_args(argv)
    require("bench/failure_junobench.py", packages=("pyflakes", *NOTEBOOK_LIBRARIES), paths=[args.crashes])
    from jupyter_codecheck.core.adapter import load_model
    from jupyter_codecheck.core.resolved_model import resolve_model
    resolved = resolve_model(args.model)
    load_model(resolved, args.threads)
    cases = load_jsonl(Path(args.crashes), args.limit)
    rows, loads = [], []
    for k, case in enumerate(cases, 1):
        rec = one(case, args)
        rows.append(rec)
        loads.append(os.getloadavg()[0])
        what = rec.get("skipped") or (f"repair {'at' if rec.get('at_fix_place') else 'not at'} the fix's place"
                                      if rec.get("repair") else "no repair")
        print(f"[{k}/{len(cases)}] {case['id']}: {rec.get('error')}; {what}", file=sys.stderr, flush=True)
    summary = summarise(rows)
    meta = {"model": resolved.path.name, "threads": args.threads,
            "load": [round(min(loads), 2), round(max(loads), 2)] if loads else [None, None]}
    summary = {**meta, **summary}
    command = "python " + " ".join(shlex.quote(a) for a in ["bench/failure_junobench.py", *(argv if argv is not None else sys.argv[1:])])
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "report.md").write_text(report(rows, summary, command, meta), encoding="utf-8")
        (out / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        (out / "command.txt").write_text(command + "\n", encoding="utf-8")
        (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
