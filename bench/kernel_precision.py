"""Kernel facts against a real kernel: does a fact predict the exception the cell then raises?

    python bench/kernel_precision.py [--clean PATH] [--limit N] [--match TEXT] [--cell-timeout 30]
        [--out bench/reports/kernel-precision] [--guard [--opening]]

The notebooks of notebook_clean.jsonl (well-kept public notebooks that ran top to bottom where
they were written) are run here, cell by cell, in an IPython shell of their own (one subprocess a
notebook, in an empty folder; shell commands are not run). Before each cell runs, the kernel
facts are read from the shell's live objects (facts.kernel_facts) with Python's undefined
names given the same namespace, exactly what `%%codecheck` reads; then the cell runs and its
exception, if any, is recorded. Many cells fail here for reasons of this machine (a data file, a
framework that is not installed): what matters is

  false facts   facts on cells that then ran without an error (the tool cried wolf)
  true facts    facts on cells that then raised the exception the fact names (AttributeError,
                KeyError, TypeError, NameError)
  missed        cells that raised one of those with no fact (mostly a failed cell's names)

The last stdout line is one JSON object with the figures; report.md, cells.jsonl and
command.txt go to --out.

`--guard` measures auto mode's stopping guard instead (`%codecheck auto guard`, exact part only:
the model's warnings never stop a cell). Each notebook runs twice in a shell of its own with the
extension loaded, auto mode off and then guard; a cell the guard stops is run again unchanged
(the user's way to run it anyway) and its outcome recorded. Reported: that the same cells ran
with the same outcome both times, the cells stopped, and those stopped wrongly (the run without
the guard ran them without an error); and the time a cell waited for its exact findings.
`--opening` first runs, in both shells, what a user runs first (a plot, a 200,000-character
print, joblib's worker pool, whose threads stay): the guard must not stand down after it. (A
plain shell has no pyzmq garbage-collector thread; a real kernel's is in bench/guard_trial.py.)
"""
from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from notebook_shell import BENCH, EXPECTED, OPENING, claims, notebooks, worker_env  # noqa: E402
from requirements import NOTEBOOK_LIBRARIES, require  # noqa: E402

WORKER = r'''
import json, sys
from notebook_shell import new_shell, read_facts, run_cell
cells, timeout = json.loads(sys.stdin.read()), int(sys.argv[1])
shell = new_shell()
for i, cell in enumerate(cells):
    rec = read_facts(cell, shell.user_ns)
    error = run_cell(shell, cell, timeout)
    sys.__stdout__.write("@@CELL " + json.dumps({"index": i, **rec, "error": error}) + "\n")
    sys.__stdout__.flush()
    if error and error[0] == "Timeout":
        break
'''



GUARD_WORKER = r'''
import json, signal, sys, os, time
os.environ["MPLBACKEND"] = "Agg"
from IPython.core.interactiveshell import InteractiveShell
from jupyter_codecheck.views.auto_mode import CellStopped
from jupyter_codecheck.views.magics import _LOADED, load_ipython_extension
given, timeout, mode, out_path = json.loads(sys.stdin.read()), int(sys.argv[1]), sys.argv[2], sys.argv[3]
cells = given["cells"]
shell = InteractiveShell.instance()
shell.system = lambda *a, **k: None          # no shell commands (`!pip install ...`)
shell.getoutput = lambda *a, **k: []
load_ipython_extension(shell, warm_up=False)
auto = _LOADED[id(shell)].auto
auto.set(mode, model=False)
for cell in given["opening"]:                # what a user ran first, not recorded
    shell.run_cell(cell, store_history=True)
class Timeout(BaseException):
    pass
def alarm(*_):
    raise Timeout()
signal.signal(signal.SIGALRM, alarm)
def outcome(res):
    err = res.error_before_exec or res.error_in_exec
    return None if err is None else [type(err).__name__, str(err)[:200]]
with open(out_path, "w", encoding="utf-8") as out:
    for i, cell in enumerate(cells):
        auto.pre_run_s, stopped = None, None
        signal.alarm(timeout)
        try:
            error = outcome(shell.run_cell(cell, store_history=True))
            pre_run_s = auto.pre_run_s
            if error and error[0] == "CellStopped":
                stopped = error[1]
                error = outcome(shell.run_cell(cell, store_history=True))     # again, unchanged: it runs
        except Timeout:
            error, pre_run_s = ["Timeout", ""], auto.pre_run_s
        finally:
            signal.alarm(0)
        out.write(json.dumps({"index": i, "error": error, "stopped": stopped, "pre_run_s": pre_run_s}) + "\n")
        out.flush()
        if error and error[0] == "Timeout":
            break
'''


def run_notebook(cells: list[str], cell_timeout: int) -> list[dict]:
    env = worker_env()
    with tempfile.TemporaryDirectory() as tmp:
        try:
            p = subprocess.run([sys.executable, "-c", WORKER, str(cell_timeout)], input=json.dumps(cells),
                               capture_output=True, text=True, cwd=tmp, env=env,
                               timeout=cell_timeout * len(cells) + 60)
            text = p.stdout
        except subprocess.TimeoutExpired as e:
            text = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
    return [json.loads(line[7:]) for line in text.splitlines() if line.startswith("@@CELL ")]


def run_guarded(cells: list[str], cell_timeout: int, mode: str, opening: list[str]) -> list[dict]:
    """Each cell's outcome in a shell with auto mode `mode` (off or guard), after the `opening`
    cells, and for guard the cells stopped (then run again unchanged) and the time each waited
    for its exact findings."""
    env = worker_env()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "cells.jsonl"
        work = Path(tmp) / "work"
        work.mkdir()
        try:
            subprocess.run([sys.executable, "-c", GUARD_WORKER, str(cell_timeout), mode, str(out)],
                           input=json.dumps({"cells": cells, "opening": opening}), capture_output=True,
                           text=True, cwd=work, env=env, timeout=2 * cell_timeout * (len(cells) + len(opening)) + 60)
        except subprocess.TimeoutExpired:
            pass
        text = out.read_text(encoding="utf-8") if out.exists() else ""
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def guard_main(books, args, out: Path, argv) -> None:
    """--guard: every notebook without and with the stopping guard (see the module's doc)."""
    rows, t0 = [], time.perf_counter()
    # a plain shell has no GUI loop for `%matplotlib`: Agg draws the plot
    opening = [c.replace("%matplotlib inline\n", "") for c in OPENING] if args.opening else []
    for n, (name, cells) in enumerate(books, 1):
        plain = {r["index"]: r for r in run_guarded(cells, args.cell_timeout, "off", opening)}
        guarded = {r["index"]: r for r in run_guarded(cells, args.cell_timeout, "guard", opening)}
        for i in sorted(set(plain) & set(guarded)):      # a run ends at its first timeout
            p, g = plain[i], guarded[i]
            rows.append({"notebook": name, "index": i, "source": cells[i],
                         "error_off": p["error"], "error_guard": g["error"],
                         "stopped": g["stopped"], "pre_run_s": g["pre_run_s"]})
        print(f"[{n}/{len(books)}] {name}: {len(plain)}/{len(guarded)} of {len(cells)} cells run, "
              f"{sum(bool(r['stopped']) for r in rows if r['notebook'] == name)} stopped",
              file=sys.stderr, flush=True)

    def kind(e):
        return None if e is None else e[0]

    differ = [r for r in rows if kind(r["error_off"]) != kind(r["error_guard"])
              and "Timeout" not in (kind(r["error_off"]), kind(r["error_guard"]))]
    stopped = [r for r in rows if r["stopped"]]
    wrong = [r for r in stopped if r["error_off"] is None or r["error_guard"] is None]
    crashed = [r for r in rows if kind(r["error_off"]) in ("NameError", "KeyError", "AttributeError", "TypeError",
                                                          "NotFittedError", "ValueError")]
    waits = sorted(r["pre_run_s"] for r in rows if isinstance(r["pre_run_s"], (int, float)))

    def pct(q):
        return round(1000 * waits[min(len(waits) - 1, int(q * len(waits)))], 2) if waits else None

    # cells run in both runs; a timeout (a slow cell on a busy machine) is no outcome to compare
    summary = {"mode": "guard", "opening": bool(opening), "notebooks": len(books), "cells_total": sum(len(c) for _, c in books),
               "cells": len(rows),
               "cells_same_outcome": len(rows) - len(differ), "cells_different_outcome": len(differ),
               "timeouts": sum("Timeout" in (kind(r["error_off"]), kind(r["error_guard"])) for r in rows),
               "stopped": len(stopped), "stopped_wrongly": len(wrong),
               "stopped_by_error": {k: sum(kind(r["error_off"]) == k for r in stopped)
                                    for k in sorted({kind(r["error_off"]) for r in stopped}, key=str)},
               "crashes_of_a_fact_kind": len(crashed), "crashes_stopped": sum(bool(r["stopped"]) for r in crashed),
               "pre_run_ms": {"median": pct(0.5), "p90": pct(0.9), "max": round(1000 * waits[-1], 2) if waits else None,
                              "cells": len(waits)},
               "time_s": round(time.perf_counter() - t0, 1)}
    command = _write_cells(out, rows, argv)
    lines = ["# The stopping guard against a real shell (notebook_clean's notebooks, run here)", "",
             f"`{command}`", "",
             f"{summary['notebooks']} notebooks, {summary['cells']} of their {summary['cells_total']} cells run "
             f"both with auto mode off and with `%codecheck auto guard` (exact part; a stopped cell run again "
             f"unchanged; a notebook's run ends at its first timeout).", "",
             f"- same outcome with and without the guard: **{summary['cells_same_outcome']}** of {summary['cells']} "
             f"({summary['timeouts']} cells timed out in a run)",
             f"- cells stopped: **{summary['stopped']}**, stopped wrongly (ran without an error without the "
             f"guard): **{summary['stopped_wrongly']}**; the errors the stopped cells raised without it: "
             f"{summary['stopped_by_error']}",
             f"- cells that crashed with NameError/KeyError/AttributeError/TypeError/ValueError: "
             f"{summary['crashes_of_a_fact_kind']}, stopped before they ran: {summary['crashes_stopped']}",
             f"- waited for the exact findings before a cell ran: median {summary['pre_run_ms']['median']} ms, "
             f"90th percentile {summary['pre_run_ms']['p90']} ms, max {summary['pre_run_ms']['max']} ms "
             f"({summary['pre_run_ms']['cells']} cells; a shared machine)", ""]
    if wrong:
        lines += ["## Stopped wrongly", ""] + [f"- {r['notebook']} cell {r['index']}: {r['stopped']}" for r in wrong] + [""]
    if differ:
        lines += ["## Different outcomes", ""] + [f"- {r['notebook']} cell {r['index']}: off {r['error_off']}, "
                                                 f"guard {r['error_guard']}" for r in differ[:50]] + [""]
    lines += ["## Stopped", ""] + [f"- {r['notebook']} cell {r['index']} ({kind(r['error_off'])}): {r['stopped']}"
                                   for r in stopped[:100]]
    (out / "report.md").write_text("\n".join(lines) + "\n")
    print(json.dumps(summary))


def judge(rec: dict) -> list[tuple[str, str]]:
    """(kind, verdict) for every claim on a cell: 'false' (the cell ran), 'true' (it raised
    what the claim names), 'other' (it raised something else), 'deferred' (a name used only
    inside a function the cell defines: it raises when the function is called, not here)."""
    made = claims(rec["source"], rec)
    err = rec["error"]
    deferred = rec["undefined"] and not any(k == "undefined-name" for k, _ in made)
    out = [("undefined-name", "deferred")] if deferred else []
    for kind, expected in made:
        if err is None:
            out.append((kind, "false"))
        elif err[0] in expected:
            out.append((kind, "true"))
        else:
            out.append((kind, "other"))
    return out


def _write_cells(out: Path, rows: list, argv) -> str:
    """Each cell's record in cells.jsonl and the command in command.txt; returns the command."""
    with open(out / "cells.jsonl", "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    command = "python " + " ".join(shlex.quote(a) for a in ["bench/kernel_precision.py", *(argv or sys.argv[1:])])
    (out / "command.txt").write_text(command + "\n")
    return command


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clean", default=str(BENCH / "notebook_clean.jsonl"))
    ap.add_argument("--limit", type=int, default=0, help="first N notebooks")
    ap.add_argument("--match", default="", help="only notebooks whose repository/path holds this text")
    ap.add_argument("--cell-timeout", type=int, default=30)
    ap.add_argument("--out", default=None, help="default: bench/reports/kernel-precision "
                    "(kernel-guard with --guard)")
    ap.add_argument("--guard", action="store_true", help="measure auto mode's stopping guard instead")
    ap.add_argument("--opening", action="store_true", help="with --guard: before each notebook, what a user "
                    "runs first (a plot, a large print, joblib's worker pool; notebook_shell.OPENING)")
    args = ap.parse_args(argv)
    if args.opening and not args.guard:
        ap.error("--opening measures the guard: give --guard too")
    # the notebooks' cells import these in the worker's IPython: without them they fail there
    require("bench/kernel_precision.py", packages=NOTEBOOK_LIBRARIES, paths=[args.clean])
    out = Path(args.out or ROOT / "bench" / "reports" / ("kernel-guard" if args.guard else "kernel-precision"))
    out.mkdir(parents=True, exist_ok=True)
    books = [b for b in notebooks(Path(args.clean), 0) if args.match in b[0]]
    books = books[:args.limit] if args.limit else books
    if args.guard:
        guard_main(books, args, out, argv)
        return
    records, t0 = [], time.perf_counter()
    for n, (name, cells) in enumerate(books, 1):
        recs = run_notebook(cells, args.cell_timeout)
        for r in recs:
            r["notebook"], r["source"] = name, cells[r["index"]]
        records += recs
        print(f"[{n}/{len(books)}] {name}: {len(recs)}/{len(cells)} cells run, "
              f"{sum(r['error'] is None for r in recs)} without error", file=sys.stderr, flush=True)
    verdicts = defaultdict(lambda: defaultdict(int))
    for r in records:
        for kind, v in judge(r):
            verdicts[kind][v] += 1
    ran_ok = [r for r in records if r["error"] is None]
    flagged_ok = [r for r in ran_ok if any(v == "false" for _, v in judge(r))]
    raised = [r for r in records if r["error"] and r["error"][0] in (*EXPECTED.values(), "NotFittedError")]
    missed = [r for r in raised if not any(v == "true" for _, v in judge(r))]
    summary = {"notebooks": len(books), "cells_run": len(records), "cells_ok": len(ran_ok),
               "cells_ok_flagged": len(flagged_ok),
               "cells_ok_flagged_share": round(len(flagged_ok) / len(ran_ok), 4) if ran_ok else None,
               "claims": {k: dict(v) for k, v in sorted(verdicts.items())},
               "raised_predictable": len(raised), "raised_predicted": len(raised) - len(missed),
               "time_s": round(time.perf_counter() - t0, 1)}
    command = _write_cells(out, records, argv)
    lines = ["# Kernel facts against a real kernel (notebook_clean's notebooks, run here)", "",
             f"`{command}`", "",
             f"{summary['notebooks']} notebooks, {summary['cells_run']} cells run, {summary['cells_ok']} without an error.", "",
             f"- cells that ran without an error but had a claim (false alarms): **{summary['cells_ok_flagged']}** "
             f"({summary['cells_ok_flagged_share']:.1%})" if ran_ok else "- no cell ran",
             f"- cells that raised AttributeError/KeyError/TypeError/NameError: {summary['raised_predictable']}, "
             f"predicted by a claim of that kind: {summary['raised_predicted']}", "",
             "| claim | false (cell ran) | true (raised it) | other error | deferred (in a def) |",
             "|---|---|---|---|---|"]
    for kind, v in sorted(verdicts.items()):
        lines.append(f"| {kind} | {v.get('false', 0)} | {v.get('true', 0)} | {v.get('other', 0)} | "
                     f"{v.get('deferred', 0)} |")
    lines += ["", "## False claims", ""]
    for r in flagged_ok:
        lines.append(f"- {r['notebook']} cell {r['index']}: {[f.get('message') for f in r['facts']]} "
                     f"undefined {[u[0] for u in r['undefined']]}")
    (out / "report.md").write_text("\n".join(lines) + "\n")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
