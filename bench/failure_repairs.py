"""Repairs of crashing cells, the truth by running them: crash-causing mutants of real notebooks.

    python bench/failure_repairs.py [CLEAN] [--model smollm2-135m] [--limit N] [--match TEXT]
        [--seed 0] [--per-cell 3] [--cell-timeout 30] [--no-model] [--out DIR]

The notebooks of notebook_clean.jsonl run cell by cell in an IPython shell of their own
(bench/notebook_shell.py), and bench/mutations.py makes up to --per-cell crash-causing mutants of
each cell, as bench/notebook_mutations.py does: a typo in a column, attribute or keyword, a 1-D X,
a text column into a model, a mismatched array, an axis out of range, and the kinds whose cause is
an earlier cell (its `prelude`: a column dropped, a text column added to X, a definition skipped).
Each mutant runs in a forked copy of the shell; one that raises is the failure: there,
`repair_failure` gets the exception, the cells run before (the prelude last) and the kernel's
objects as the failure left them, as auto mode does after a failed cell. Its repair is then run
from the state before the failed cell (before the prelude, when the repair is in it) in another
forked copy, and counts as **repaired** when it runs without an error and leaves what the
original cell left: the same printed and displayed text and the same objects in the names the
original binds (type, shape, columns, values' hash). The original's run is read twice; a cell
whose two runs differ (time, randomness without a seed) is left out.

Per mutation kind, and split by whether the facts offered an exact fix before the run: crashed,
repaired, a repair that runs but differs, one that still fails, no repair shown. The targets:
>= 60 % repaired over all kinds, >= 40 % of those without an exact fix, >= 30 % of the causes in
an earlier cell. The model is loaded once a notebook, before the forks, on one thread (a forked
copy holds no other thread); times are of that thread on a shared machine (the load is printed).
The last stdout line is one JSON object with the figures; report.md, summary.json (the same
figures), mutants.jsonl and command.txt go to --out.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import re
import shlex
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from mutations import KINDS  # noqa: E402
from notebook_shell import BENCH, notebooks, run_worker  # noqa: E402
from requirements import NOTEBOOK_LIBRARIES, require  # noqa: E402

KILL_GRACE_S = 15
REPAIRED_TARGET, NO_EXACT_TARGET, EARLIER_TARGET = 0.6, 0.4, 0.3
# the kinds whose cause is an earlier cell (the mutant's prelude), when the mutant has one
EARLIER_KINDS = ("dropped-column", "skipped-definition", "text-column")
# "elsewhere": a repair in an earlier cell the mutant did not change (no run can tell it right)
OUTCOMES = ("repaired", "differs", "still fails", "elsewhere", "no repair", "not run")
_ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")
_OUT_PROMPT = re.compile(r"Out\[\d+\]")

WORKER = r'''
import sys
from failure_repairs import worker
worker(*sys.argv[1:])
'''


# -- in the notebook's shell process ------------------------------------------------------------

def worker(out_path: str, name: str, seed: str, per_cell: str, timeout: str, model: str) -> None:
    """Run the notebook's cells (stdin, JSON) in one shell; each cell's mutants, their repairs
    and the repairs' runs in forked copies of it first. One JSON line a mutant to `out_path`."""
    from notebook_mutations import _make
    from notebook_shell import new_shell, read_facts, run_cell
    cells, per_cell, timeout = json.loads(sys.stdin.read()), int(per_cell), int(timeout)
    shell = new_shell()
    if model != "none":
        from jupyter_codecheck.core.adapter import load_model
        from jupyter_codecheck.core.resolved_model import resolve_model
        load_model(resolve_model(model), 1)      # before the forks: each copy shares it
    ran: list[str] = []
    with open(out_path, "w", encoding="utf-8") as out:
        for i, cell in enumerate(cells):
            rec = read_facts(cell, shell.user_ns)
            made = _make(shell, cell, f"{seed}|{name}|{i}", per_cell, timeout, rec)
            if made:
                first, again = (_in_child(lambda c=cell: _fingerprint(shell, c, c, timeout), timeout) for _ in "12")
                failed = first is None or first.get("error") is not None
                stable = not failed and first == again
                for m in made:
                    row = {**m.to_dict(), "index": i, "stable": stable, "original_failed": failed}
                    if stable:
                        row.update(_mutant(shell, m, ran, cell, first, timeout, model))
                    out.write(json.dumps(row) + "\n")
                    out.flush()
            error = run_cell(shell, cell, timeout)
            ran.append(cell)
            if error and error[0] == "Timeout":
                break


def _mutant(shell, m, ran: list[str], cell: str, original: dict, timeout: int, model: str) -> dict:
    """The mutant's failure, its repair (in a forked copy where it failed) and the repair's run
    (in a forked copy of the state before it)."""
    from notebook_shell import read_facts

    def fail_and_repair():
        from jupyter_codecheck.failure import repair_failure
        if m.prelude:
            res = shell.run_cell(m.prelude, store_history=True, silent=True)
            if (res.error_in_exec or res.error_before_exec) is not None:
                return {"outcome": "not run", "why": "prelude failed"}
        facts = read_facts(m.source, shell.user_ns)["facts"]
        exact = any(f.get("candidates") for f in facts)
        err = _run(shell, m.source, timeout)
        if err is None:
            return {"outcome": "ran"}
        if isinstance(err, str):
            return {"outcome": "not run", "why": err}
        context = [*ran, *([m.prelude] if m.prelude else [])]
        t0 = time.perf_counter()
        fix = repair_failure(m.source, err, context=context, namespace=shell.user_ns,
                             model=None if model == "none" else model, threads=1, use_model=model != "none")
        seconds = time.perf_counter() - t0
        d = fix.to_dict()
        return {"error": [type(err).__name__, str(err)[:200]], "failure": d["failure"], "exact_before": exact,
                "repair_s": round(seconds, 3),
                "cause": d["cause"], "cause_place": d["cause_place"], "repair": d["repair"],
                "candidates": len(d["candidates"]), "refused": d["refused"],
                "n_context": len(context), "stats": d["stats"]}

    got = _in_child(fail_and_repair, 4 * timeout + 120)
    if got is None:
        return {"outcome": "not run", "why": "killed"}
    if got.get("outcome"):
        return got
    r = got["repair"]
    if r is None:
        return {**got, "outcome": "no repair"}
    n = got["n_context"]
    if r["cell"] == n:                       # the failed cell itself
        prelude, source = m.prelude, r["source"]
        where = "failed cell"
    elif m.prelude and r["cell"] == n - 1:   # the prelude: the earlier cell at fault
        prelude, source = r["source"], m.source
        where = "earlier cell"
    else:
        return {**got, "outcome": "elsewhere", "why": "a repair in a cell run before this one"}
    after = _in_child(lambda: _fingerprint(shell, source, cell, timeout, prelude), timeout)
    if after is None:
        return {**got, "outcome": "still fails", "where": where, "why": "killed"}
    if after.get("error") is not None:
        outcome = "still fails"
    else:
        outcome = "repaired" if after == original else "differs"
    return {**got, "outcome": outcome, "where": where, "after_error": after.get("error")}


def _run(shell, source: str, timeout: int):
    """Run a cell; its exception (live, with its traceback), a reason it did not end, or None."""
    import signal
    from notebook_shell import Timeout
    signal.alarm(timeout)
    try:
        res = shell.run_cell(source, store_history=True, silent=True)
        return res.error_in_exec or res.error_before_exec
    except Timeout:
        return "timeout"
    finally:
        signal.alarm(0)


def _fingerprint(shell, source: str, original: str, timeout: int, prelude: str = "") -> dict:
    """What running `source` leaves (after `prelude`): its error, the text it prints and
    displays, and the objects in the names `original` binds."""
    import contextlib
    from notebook_shell import run_cell
    from jupyter_codecheck.pytext.pycheck import bound_names, parse
    if prelude:
        res = shell.run_cell(prelude, store_history=False, silent=True)
        if (res.error_in_exec or res.error_before_exec) is not None:
            return {"error": "prelude"}
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        error = run_cell(shell, source, timeout, silent=False)
    tree = parse(original)
    names = sorted(bound_names(tree)[0]) if tree is not None else []
    text = _OUT_PROMPT.sub("Out[?]", _ADDRESS.sub("0x?", buf.getvalue()))
    return {"error": None if error is None else error[0], "text": text[-20000:],
            "objects": {n: _object_print(shell.user_ns.get(n, None)) for n in names}}


def _object_print(obj) -> str:
    """A short print of an object to tell two runs' objects apart: its type, shape, columns and
    a hash of its values where the library gives one."""
    kind = f"{type(obj).__module__}.{type(obj).__qualname__}"
    try:
        import numpy as np
        import pandas as pd
        if isinstance(obj, (pd.DataFrame, pd.Series)):
            values = int(pd.util.hash_pandas_object(obj, index=True).sum()) if obj.size < 5_000_000 else None
            cols = list(map(str, obj.columns)) if isinstance(obj, pd.DataFrame) else str(obj.name)
            return f"{kind} {obj.shape} {cols} {values}"
        if isinstance(obj, np.ndarray):
            digest = hash(obj.tobytes()) if obj.dtype != object and obj.size < 5_000_000 else None
            return f"{kind} {obj.shape} {obj.dtype} {digest}"
        if hasattr(obj, "get_params") and callable(obj.get_params):
            return f"{kind} {sorted((k, repr(v)[:100]) for k, v in obj.get_params(deep=False).items())} " \
                   f"{getattr(obj, 'n_features_in_', None)}"
    except Exception:  # noqa: BLE001 - an object a library cannot print: its type alone
        return kind
    if isinstance(obj, (int, float, str, bool, type(None), list, tuple, dict, set)):
        try:
            return _ADDRESS.sub("0x?", repr(obj)[:2000])
        except Exception:  # noqa: BLE001
            return kind
    return kind


def _in_child(work, timeout: int) -> dict | None:
    from notebook_mutations import _in_child as child
    return child(work, timeout)


# -- the benchmark ------------------------------------------------------------------------------

def _share(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


def summarise(books, mutants: list[dict], seconds: float) -> dict:
    crashed = [m for m in mutants if m.get("outcome") in OUTCOMES and m.get("outcome") != "not run"]

    def tally(ms):
        c = Counter(m["outcome"] for m in ms)
        return {"crashed": len(ms), **{o.replace(" ", "_"): c[o] for o in OUTCOMES[:-1]},
                "repaired_share": _share(c["repaired"], len(ms))}

    per_kind = {k: tally([m for m in crashed if m["kind"] == k]) for k in KINDS}
    exact = tally([m for m in crashed if m.get("exact_before")])
    no_exact = tally([m for m in crashed if not m.get("exact_before")])
    earlier = tally([m for m in crashed if m["kind"] in EARLIER_KINDS and m.get("prelude")])
    # the mutation's own `del` taken out again is the whole repair of a skipped definition here;
    # in a notebook a definition is skipped by a cell not run, which no deletion repairs
    no_exact_other = tally([m for m in crashed if not m.get("exact_before") and m["kind"] != "skipped-definition"])
    by_origin = Counter((m.get("repair") or {}).get("origin") for m in crashed if m["outcome"] == "repaired")
    times = sorted(m["repair_s"] for m in crashed if "repair_s" in m)
    # the repairs the model was asked for (its stats name the GGUF it loaded)
    asked = sorted(m["repair_s"] for m in crashed if "repair_s" in m
                   and str((m.get("stats") or {}).get("model", "")).endswith(".gguf"))
    return {"notebooks": len(books), "mutants": len(mutants),
            "original_failed": sum(bool(m.get("original_failed")) for m in mutants),
            "unstable": sum(not m.get("stable") and not m.get("original_failed") for m in mutants),
            "ran": sum(m.get("outcome") == "ran" for m in mutants),
            "not_run": sum(m.get("outcome") == "not run" for m in mutants),
            "all": tally(crashed), "exact_fix_offered": exact, "no_exact_fix": no_exact,
            "no_exact_fix_not_skipped_definition": no_exact_other,
            "cause_in_earlier_cell": earlier,
            "repaired_by_origin": dict(by_origin), "per_kind": per_kind,
            "repair_s_median": times[len(times) // 2] if times else None,
            "repair_s_p90": times[int(len(times) * 0.9)] if times else None,
            "model_asked": len(asked), "model_asked_s_median": asked[len(asked) // 2] if asked else None,
            "time_s": round(seconds, 1)}


def _pct(x) -> str:
    return "–" if x is None else f"{x:.1%}"


def report(summary: dict, mutants: list[dict], command: str, load: str) -> str:
    a = summary["all"]
    lines = ["# Repairs of crashing cells, the truth by running them", "", f"`{command}`", "",
             f"Machine load while it ran: {load}.", "",
             f"{summary['notebooks']} notebooks, {summary['mutants']} mutants ({summary['original_failed']} of cells that "
             f"fail here as written and {summary['unstable']} of cells whose two runs differ, left out; {summary['ran']} ran without an error; {summary['not_run']} not run).", "",
             f"- crashing mutants repaired: **{a['repaired']} of {a['crashed']}** ({_pct(a['repaired_share'])}; "
             f"target ≥ 60 %)",
             f"- of those the facts offered no exact fix for: **{summary['no_exact_fix']['repaired']} of "
             f"{summary['no_exact_fix']['crashed']}** ({_pct(summary['no_exact_fix']['repaired_share'])}; target ≥ 40 %)",
             f"- of those, other than a skipped definition (whose prelude's `del` the repair takes out again): "
             f"{summary['no_exact_fix_not_skipped_definition']['repaired']} of "
             f"{summary['no_exact_fix_not_skipped_definition']['crashed']} "
             f"({_pct(summary['no_exact_fix_not_skipped_definition']['repaired_share'])})",
             f"- of those the facts offered an exact fix for: {summary['exact_fix_offered']['repaired']} of "
             f"{summary['exact_fix_offered']['crashed']} ({_pct(summary['exact_fix_offered']['repaired_share'])})",
             f"- causes in an earlier cell (a mutant with a prelude): **{summary['cause_in_earlier_cell']['repaired']} of "
             f"{summary['cause_in_earlier_cell']['crashed']}** ({_pct(summary['cause_in_earlier_cell']['repaired_share'])}; "
             f"target ≥ 30 %)",
             f"- repaired by origin: {summary['repaired_by_origin']}",
             f"- time from the failure to the repair (one thread): median {summary['repair_s_median']} s, "
             f"90th percentile {summary['repair_s_p90']} s; of the {summary['model_asked']} that asked the model, median "
             f"{summary['model_asked_s_median']} s", "",
             "| mutation | crashed | repaired | % | runs, differs | still fails | in another cell | no repair |",
             "|---|---|---|---|---|---|---|---|"]
    for kind, p in [*summary["per_kind"].items(), ("all", a), ("no exact fix", summary["no_exact_fix"]),
                    ("exact fix offered", summary["exact_fix_offered"])]:
        lines.append(f"| {kind} | {p['crashed']} | {p['repaired']} | {_pct(p['repaired_share'])} | {p['differs']} | "
                     f"{p['still_fails']} | {p['elsewhere']} | {p['no_repair']} |")
    lines += ["", "## Examples", ""]
    shown = Counter()
    for m in mutants:
        o = m.get("outcome")
        if o in OUTCOMES[:-1] and shown[(m["kind"], o)] < 2:
            shown[(m["kind"], o)] += 1
            r = m.get("repair") or {}
            lines.append(f"- {m['kind']}, {o}: {m['change']} → {m.get('error', ['?'])[0]}; cause: {m.get('cause')!s:.120}; "
                         f"repair: {r.get('old_line', '')!r:.80} → {r.get('new_line', '')!r:.80} ({r.get('origin')}, "
                         f"verified {r.get('verified')})".replace("\n", " "))
    return "\n".join(lines) + "\n"


def report_of_rows(path: Path, args, argv) -> None:
    """The report of a run's mutants.jsonl (its notebooks, its load as the run wrote it)."""
    mutants = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    books = sorted({m["notebook"] for m in mutants})
    summary = summarise(books, mutants, 0.0)
    summary["model"] = "none" if args.no_model else args.model
    out = Path(args.out or path.parent)
    out.mkdir(parents=True, exist_ok=True)
    # the run's own command and load when it wrote them (a finished run's report made again)
    ran = json.loads((out / "summary.json").read_text()) if (out / "summary.json").is_file() else {}
    load = ran.get("load", "not sampled (the report of a stopped run's rows)")
    summary["load"] = load
    summary["time_s"] = ran.get("time_s", 0.0)
    remade = "python " + " ".join(shlex.quote(a) for a in ["bench/failure_repairs.py", *(argv or sys.argv[1:])])
    run = (out / "command.txt").read_text().splitlines()[0] if (out / "command.txt").is_file() else None
    command = run or remade
    (out / "command.txt").write_text(command + "\n" + (f"# report made again: {remade}\n" if run else ""))
    if path.resolve() != (out / "mutants.jsonl").resolve():
        (out / "mutants.jsonl").write_text(path.read_text(encoding="utf-8"))
    (out / "report.md").write_text(report(summary, mutants, command, load))
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(json.dumps(summary))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("clean", nargs="?", default=str(BENCH / "notebook_clean.jsonl"),
                    help="notebook_clean.jsonl (default: ../shared/benchmarks/ beside the repository)")
    ap.add_argument("--model", default="smollm2-135m", help="known name or GGUF path")
    ap.add_argument("--no-model", action="store_true", help="the exact fixes alone (no model)")
    ap.add_argument("--limit", type=int, default=0, help="first N notebooks")
    ap.add_argument("--match", default="", help="only notebooks whose repository/path holds this text (of "
                    "several, comma-separated: any)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--per-cell", type=int, default=3, help="mutants a cell at most, of different kinds")
    ap.add_argument("--cell-timeout", type=int, default=30)
    ap.add_argument("--out", default=None, help="report folder (default bench/reports/failure-repairs-<model>)")
    ap.add_argument("--rows", default=None, help="make the report of this run's mutants.jsonl (a run stopped "
                    "before its end: the notebooks it finished) instead of running")
    args = ap.parse_args(argv)
    if args.rows:
        report_of_rows(Path(args.rows), args, argv)
        return
    require("bench/failure_repairs.py", packages=(*NOTEBOOK_LIBRARIES, "IPython", "pyflakes"), paths=[args.clean])
    if not hasattr(os, "fork"):
        sys.exit("bench/failure_repairs.py runs each mutant in a forked copy of the shell: it needs os.fork")
    model = "none" if args.no_model else args.model
    if model != "none":
        from jupyter_codecheck.core.resolved_model import resolve_model
        resolve_model(model)                  # a model that is not there: said now, not per notebook
    out = Path(args.out or ROOT / "bench" / "reports" / f"failure-repairs-{Path(model).stem}")
    out.mkdir(parents=True, exist_ok=True)
    books = [b for b in notebooks(Path(args.clean), 0) if any(m in b[0] for m in args.match.split(","))]
    books = books[:args.limit] if args.limit else books
    mutants, t0, loads = [], time.perf_counter(), []
    for n, (name, sources) in enumerate(books, 1):
        recs = run_worker(WORKER, [name, args.seed, args.per_cell, args.cell_timeout, model], sources,
                          (args.per_cell * 4 + 2) * (args.cell_timeout + KILL_GRACE_S) * len(sources) + 600)
        loads.append(os.getloadavg()[0])
        for r in recs:
            r["notebook"] = name
        mutants += recs
        with open(out / "mutants.jsonl", "w", encoding="utf-8") as f:      # as it goes: a long run's to read
            f.writelines(json.dumps(m) + "\n" for m in mutants)
        c = Counter(r.get("outcome") for r in recs)
        print(f"[{n}/{len(books)}] {name}: {len(recs)} mutants, {dict(c)}", file=sys.stderr, flush=True)
    summary = summarise(books, mutants, time.perf_counter() - t0)
    summary["model"] = model
    load = f"load average {min(loads, default=0):.1f}–{max(loads, default=0):.1f} (sampled after each notebook)"
    summary["load"] = load
    command = "python " + " ".join(shlex.quote(a) for a in ["bench/failure_repairs.py", *(argv or sys.argv[1:])])
    (out / "command.txt").write_text(command + "\n")
    with open(out / "mutants.jsonl", "w", encoding="utf-8") as f:
        f.writelines(json.dumps(m) + "\n" for m in mutants)
    (out / "report.md").write_text(report(summary, mutants, command, load))
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
