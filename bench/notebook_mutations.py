"""Kernel facts against crashes made on purpose in real notebooks, with the truth by running them.

    python bench/notebook_mutations.py [CLEAN] [--limit N] [--match TEXT] [--seed 0] [--per-cell 3]
        [--cell-timeout 30] [--out bench/reports/notebook-mutations]

The notebooks of notebook_clean.jsonl run cell by cell in an IPython shell of their own, as
bench/kernel_precision.py runs them (bench/notebook_shell.py: one subprocess a notebook, in an
empty folder, no shell commands; the facts read before a cell as `%%codecheck` reads them).
Before each cell, bench/mutations.py makes up to --per-cell mutants of it from the crash
taxonomy (a column, attribute or keyword typo, a 1-D X, a text column into a model, a
mismatched array operand, an axis out of range, a dropped column, a skipped definition), from
its syntax tree and the live objects. Each mutant runs in a forked copy of the shell (a
throwaway copy of the state the cell runs in): the copy runs what an earlier cell would have
done (the mutant's prelude), reads the facts on the mutant, runs it and reports the exception.
The shell itself then runs the original cell; a cell that fails here (a missing data file) has
no mutants counted. Per mutation kind:

  predicted   the mutant crashed and a fact names its exception (`expected_exceptions`; a
              subclass of the one named counts, as `except` would)
  other kind  it crashed, facts claimed another exception
  missed      it crashed, no fact
  flagged     it ran without an error and a fact claimed a crash (a false claim)

and, as kernel_precision, the original cells that ran but were flagged. The targets: at least
80 % of crashing mutants predicted, at most 1 % of mutants that ran and of original cells
flagged. The last stdout line is one JSON object with the figures; report.md, mutants.jsonl,
cells.jsonl and command.txt go to --out.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import signal
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from mutations import KINDS  # noqa: E402
from notebook_shell import BENCH, claims, notebooks, run_worker  # noqa: E402
from requirements import NOTEBOOK_LIBRARIES, require  # noqa: E402

# a forked child past its cell's own timeout (its alarm did not end it): killed
KILL_GRACE_S = 15
NOT_RUN = ("Timeout", "Killed")
PREDICTED_TARGET, FLAGGED_TARGET = 0.8, 0.01
MIN_FOR_TARGET = 5
# the fact a missed crash would need, by mutation kind; `REACH` adds what reading the object takes
NEEDED = {
    "column-typo": "key: a DataFrame's column",
    "attribute-typo": "attribute: of the object",
    "keyword-typo": "call: the callee's signature",
    "1d-slice": "value: scikit-learn's 2-D X",
    "text-column": "value: scikit-learn's numeric X (a text column)",
    "shape-mismatch": "value: numpy's shape rule",
    "axis-range": "value: an axis beyond ndim",
    "dropped-column": "key: a DataFrame's column (the frame as the earlier cell left it)",
    "dropped-column-in-cell": "in-cell propagation: the columns after `drop`, then key",
    "skipped-definition": "undefined name",
}

KILLED = {"error": ["Killed", "", []], "facts": [], "undefined": []}

REACH = {"live": "", "changed": " (flow: the cell stores into the object first)",
         "derived": " (in-cell propagation to reach it)"}

WORKER = r'''
import sys
from notebook_mutations import worker
worker(*sys.argv[1:])
'''


# -- in the notebook's shell process ------------------------------------------------------------

def worker(out_path: str, name: str, seed: str, per_cell: str, timeout: str) -> None:
    """Run the notebook's cells (stdin, JSON) in one shell; each cell's mutants in forked copies
    of it first. One JSON line a cell (its facts, error and mutants' outcomes) to `out_path`."""
    from notebook_shell import new_shell, read_facts, run_cell
    cells, per_cell, timeout = json.loads(sys.stdin.read()), int(per_cell), int(timeout)
    shell = new_shell()
    with open(out_path, "w", encoding="utf-8") as out:
        for i, cell in enumerate(cells):
            rec = read_facts(cell, shell.user_ns)
            if os.environ.get(TRY_FIXES):
                rec["fixes"] = fixed_runs(shell, cell, rec["facts"], timeout)
            made = _make(shell, cell, f"{seed}|{name}|{i}", per_cell, timeout, rec)
            children = _fork_all(shell, made, timeout)
            error = run_cell(shell, cell, timeout)
            results = [_collect(c, run=error is None, timeout=timeout) for c in children]
            rec.update(index=i, error=error,
                       mutants=[{**m.to_dict(), **r} for m, r in zip(made, results) if r is not None])
            out.write(json.dumps(rec) + "\n")
            out.flush()
            if error and error[0] == "Timeout":
                break


def _make(shell, cell: str, seed: str, per_cell: int, timeout: int, rec: dict) -> list:
    """The cell's mutants. Where the cell binds names it then uses, a forked copy of the shell runs
    the cell first, and the mutants are made there with the objects the cell left in those names."""
    import random
    from mutations import Mutant, mutants, uses_own_bindings
    from notebook_shell import run_cell

    def make(bound=None):
        try:
            return mutants(cell, namespace, random.Random(seed), per_cell, hidden=shell.user_ns_hidden, bound=bound)
        except Exception as e:  # noqa: BLE001 - an operator's bug costs this cell's mutants only
            rec["mutation_error"] = repr(e)
            return []

    namespace = shell.user_ns
    own = uses_own_bindings(cell)
    if not own:
        return make()

    def scout():
        nonlocal namespace
        namespace = dict(shell.user_ns)                 # the objects as the cell starts
        run_cell(shell, cell, timeout)
        bound = {n: shell.user_ns[n] for n in own if n in shell.user_ns}
        return {"mutants": [m.to_dict() for m in make(bound)], "mutation_error": rec.get("mutation_error")}

    found = _in_child(scout, timeout)
    if found is None or "mutants" not in found:
        rec["scout_killed"] = True            # the cell's run for its own objects did not end
        return make()
    if found["mutation_error"]:
        rec["mutation_error"] = found["mutation_error"]
    return [Mutant(**d) for d in found["mutants"]]


# set (by bench/fix_runs.py): each fact's offered fix is run too, in a forked copy of the shell
TRY_FIXES = "CODECHECK_BENCH_TRY_FIXES"


def fixed_runs(shell, source: str, facts: list[dict], timeout: int) -> list[dict]:
    """Each fact's first fix (the one offered) written into the cell, and the patched cell run in
    a forked copy of the shell: its error (None: it ran), or "Killed"."""
    from notebook_shell import run_cell
    out = []
    lines = source.split("\n")
    for f in facts:
        if not f.get("candidates") or not 0 < f.get("line", 0) <= len(lines):
            continue
        text = lines[f["line"] - 1]
        fix = f["candidates"][0]
        patched = "\n".join([*lines[:f["line"] - 1], text[:f["column"]] + fix + text[f["end_column"]:],
                             *lines[f["line"]:]])
        ran = _in_child(lambda: {"error": run_cell(shell, patched, timeout)}, timeout)
        out.append({"kind": f["kind"], "message": f["message"], "fix": fix, "line": f["line"],
                    "error": ran["error"] if ran is not None else ["Killed", "", []]})
    return out


def _in_child(work, timeout: int) -> dict | None:
    """`work()` (a JSON-able dict) in a forked copy of the shell; None when it was killed."""
    fd, path = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        try:
            quiet = os.open(os.devnull, os.O_WRONLY)
            os.dup2(quiet, 1)
            os.dup2(quiet, 2)
            result = work()
            with open(path, "w", encoding="utf-8") as f:
                json.dump(result, f)
        finally:
            os._exit(0)
    text = _wait(pid, path, timeout)
    return json.loads(text) if text else None


def _fork_all(shell, made, timeout: int) -> list:
    """A forked copy of the shell for each mutant, each waiting for the word to run it."""
    children, go_ends = [], []
    for m in made:
        fd, path = tempfile.mkstemp(suffix=".json")
        os.close(fd)
        r, w = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:                                        # the child: never returns
            try:
                os.close(w)
                for other in go_ends:
                    os.close(other)
                if os.read(r, 1) == b"1":
                    quiet = os.open(os.devnull, os.O_WRONLY)
                    os.dup2(quiet, 1)
                    os.dup2(quiet, 2)
                    outcome = _run_mutant(shell, m, timeout)
                    with open(path, "w", encoding="utf-8") as f:
                        json.dump(outcome, f)
            finally:
                os._exit(0)
        os.close(r)
        go_ends.append(w)
        children.append((pid, w, path))
    return children


def _run_mutant(shell, m, timeout: int) -> dict:
    """In the child: the prelude (what an earlier cell did), the facts on the mutant, its run."""
    from notebook_shell import read_facts, run_cell
    if m.prelude:
        res = shell.run_cell(m.prelude, store_history=False, silent=True)
        err = res.error_in_exec or res.error_before_exec
        if err is not None:
            return {"prelude_error": [type(err).__name__, str(err)[:200]]}
    t0 = time.perf_counter()
    rec = read_facts(m.source, shell.user_ns)
    rec["read_ms"] = round(1000 * (time.perf_counter() - t0), 2)
    if os.environ.get(TRY_FIXES):
        rec["fixes"] = fixed_runs(shell, m.source, rec["facts"], timeout)
    rec["error"] = run_cell(shell, m.source, timeout)
    return rec


def _collect(child, run: bool, timeout: int) -> dict | None:
    """Tell the child to run its mutant (or to end: the original cell failed) and read what it
    found; a child past its time is killed. None when it was not run."""
    pid, w, path = child
    try:
        os.write(w, b"1" if run else b"0")
    finally:
        os.close(w)
    text = _wait(pid, path, timeout)
    if not run:
        return None
    return json.loads(text) if text else KILLED


def _wait(pid: int, path: str, timeout: int) -> str | None:
    """What the child wrote to `path` once it ended (None: nothing, or killed past its time)."""
    deadline, killed = time.monotonic() + timeout + KILL_GRACE_S, False
    while os.waitpid(pid, os.WNOHANG)[0] == 0:
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            killed = True
            break
        time.sleep(0.02)
    try:
        text = Path(path).read_text(encoding="utf-8")
    finally:
        os.unlink(path)
    return None if killed or not text else text


# -- the benchmark ------------------------------------------------------------------------------

def run_notebook(name: str, cells: list[str], args) -> list[dict]:
    return run_worker(WORKER, [name, args.seed, args.per_cell, args.cell_timeout], cells,
                      (args.per_cell + 1) * (args.cell_timeout + KILL_GRACE_S) * len(cells) + 60)


def verdict(m: dict) -> str:
    """predicted | other kind | missed (it crashed) | flagged | silent (it ran) | not run."""
    if "prelude_error" in m or (m["error"] and m["error"][0] in NOT_RUN):
        return "not run"
    made = claims(m["source"], m)
    if m["error"] is None:
        return "flagged" if made else "silent"
    raised = set(m["error"][2]) or {m["error"][0]}
    if any(raised & set(expected) for _, expected in made):
        return "predicted"
    return "other kind" if made else "missed"


def _share(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


def summarise(books, cells: list[dict], mutants: list[dict], seconds: float) -> dict:
    ran_ok = [c for c in cells if c["error"] is None]
    flagged_ok = [c for c in ran_ok if claims(c["source"], c)]
    per_kind = {}
    for kind in KINDS:
        v = Counter(m["verdict"] for m in mutants if m["kind"] == kind)
        crashed = v["predicted"] + v["other kind"] + v["missed"]
        ran = v["flagged"] + v["silent"]
        per_kind[kind] = {"made": sum(v.values()), "crashed": crashed, "predicted": v["predicted"],
                          "other_kind": v["other kind"], "missed": v["missed"],
                          "predicted_share": _share(v["predicted"], crashed), "ran": ran,
                          "flagged": v["flagged"], "flagged_share": _share(v["flagged"], ran),
                          "not_run": v["not run"]}
    total = {k: sum(p[k] for p in per_kind.values()) for k in ("made", "crashed", "predicted", "other_kind",
                                                               "missed", "ran", "flagged", "not_run")}
    total["predicted_share"] = _share(total["predicted"], total["crashed"])
    total["flagged_share"] = _share(total["flagged"], total["ran"])
    # a kind short of a target (more than a few mutants of it): what the lead compares run to run
    short = [k for k, p in per_kind.items() if p["crashed"] >= MIN_FOR_TARGET
             and p["predicted_share"] < PREDICTED_TARGET or p["ran"] >= MIN_FOR_TARGET and p["flagged_share"] > FLAGGED_TARGET]
    return {"notebooks": len(books), "cells_run": len(cells), "cells_ok": len(ran_ok),
            "cells_ok_flagged": len(flagged_ok), "cells_ok_flagged_share": _share(len(flagged_ok), len(ran_ok)),
            "cells_mutation_failed": sum("mutation_error" in c for c in cells),
            # the facts' reader raised (bench/notebook_shell.read_facts records it as a claim of kind "crash")
            "reader_crashes": sum(any(f["kind"] == "crash" for f in r.get("facts", ())) for r in [*cells, *mutants]),
            "mutants": total, "kinds_short_of_target": short, "per_kind": per_kind, "time_s": round(seconds, 1)}


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{x:.1%}"


def report(summary: dict, cells: list[dict], mutants: list[dict], command: str) -> str:
    t = summary["mutants"]
    lines = ["# Kernel facts against mutated notebook cells, the truth by running them", "",
             f"`{command}`", "",
             f"{summary['notebooks']} notebooks, {summary['cells_run']} cells run, {summary['cells_ok']} without an "
             f"error; {t['made']} mutants of those ({t['not_run']} not run: a prelude failed, a timeout; "
             f"{summary['cells_mutation_failed']} cells where an operator failed; the facts' reader raised on "
             f"{summary['reader_crashes']} cells and mutants).", "",
             f"- crashing mutants predicted with the right exception: **{t['predicted']} of {t['crashed']}** "
             f"({_pct(t['predicted_share'])}; target ≥ 80 %)",
             f"- mutants that ran but were flagged: **{t['flagged']} of {t['ran']}** ({_pct(t['flagged_share'])}; "
             f"target ≤ 1 %)",
             f"- original cells that ran but were flagged: **{summary['cells_ok_flagged']} of {summary['cells_ok']}** "
             f"({_pct(summary['cells_ok_flagged_share'])}; target ≤ 1 %)",
             f"- mutation kinds short of a target (of those with {MIN_FOR_TARGET} or more crashing or running "
             f"mutants): {', '.join(summary['kinds_short_of_target']) or 'none'}", "",
             "| mutation | made | crashed | predicted | % | other kind | missed | ran | flagged | % | not run |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for kind, p in [*summary["per_kind"].items(), ("all", t)]:
        lines.append(f"| {kind} | {p['made']} | {p['crashed']} | {p['predicted']} | {_pct(p['predicted_share'])} | "
                     f"{p['other_kind']} | {p['missed']} | {p['ran']} | {p['flagged']} | {_pct(p['flagged_share'])} | "
                     f"{p['not_run']} |")
    lines += ["", "Reach: `live`, the object the mutant changes is a name's as the cell starts (or a chain's of "
              "attributes and literal keys from one); `changed`, so, but the cell stores into or deletes from it on "
              "an earlier line; `derived`, a call's result or an expression's, or a name the cell binds itself "
              "(seeing it needs in-cell propagation).", "",
              "## What the misses need", "",
              "Crashing mutants with no fact of their exception (missed or another kind claimed), by mutation, "
              "raised exception and reach; the fact kind that would predict them.", "",
              "| mutation | raised | reach | mutants | fact needed | example |", "|---|---|---|---|---|---|"]
    groups = defaultdict(list)
    for m in mutants:
        if m["verdict"] in ("missed", "other kind"):
            groups[(m["kind"], m["error"][0], m["reach"])].append(m)
    for (kind, raised, reach), ms in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        ex = ms[0]
        need = NEEDED[kind] + REACH.get(reach, "")
        lines.append(f"| {kind} | {raised} | {reach} | {len(ms)} | {need} | {ex['notebook']} cell {ex['cell']}: "
                     f"{ex['change']} → {ex['error'][1][:80]!r} |".replace("\n", " "))
    flagged = [m for m in mutants if m["verdict"] == "flagged"]
    if flagged:
        lines += ["", "## Mutants that ran but were flagged", ""]
        lines += [f"- {m['kind']}, {m['notebook']} cell {m['cell']}: {m['change']}: "
                  f"{[f.get('message') for f in m['facts']]} undefined {[u[0] for u in m['undefined']]}"
                  for m in flagged]
    flagged_ok = [c for c in cells if c["error"] is None and claims(c["source"], c)]
    if flagged_ok:
        lines += ["", "## Original cells that ran but were flagged", ""]
        lines += [f"- {c['notebook']} cell {c['index']}: {[f.get('message') for f in c['facts']]} "
                  f"undefined {[u[0] for u in c['undefined']]}" for c in flagged_ok]
    return "\n".join(lines) + "\n"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("clean", nargs="?", default=str(BENCH / "notebook_clean.jsonl"),
                    help="notebook_clean.jsonl (default: ../shared/benchmarks/ beside the repository)")
    ap.add_argument("--limit", type=int, default=0, help="first N notebooks")
    ap.add_argument("--match", default="", help="only notebooks whose repository/path holds this text")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--per-cell", type=int, default=3, help="mutants a cell at most, of different kinds")
    ap.add_argument("--cell-timeout", type=int, default=30)
    ap.add_argument("--out", default=str(ROOT / "bench" / "reports" / "notebook-mutations"))
    args = ap.parse_args(argv)
    require("bench/notebook_mutations.py", packages=(*NOTEBOOK_LIBRARIES, "IPython", "pyflakes"), paths=[args.clean])
    if not hasattr(os, "fork"):
        sys.exit("bench/notebook_mutations.py runs each mutant in a forked copy of the shell: it needs os.fork")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    books = [b for b in notebooks(Path(args.clean), 0) if args.match in b[0]]
    books = books[:args.limit] if args.limit else books
    cells, mutants, t0 = [], [], time.perf_counter()
    for n, (name, sources) in enumerate(books, 1):
        recs = run_notebook(name, sources, args)
        for r in recs:
            r["notebook"], r["source"] = name, sources[r["index"]]
            for m in r.pop("mutants"):
                m.update(notebook=name, cell=r["index"])
                m["verdict"] = verdict(m)
                mutants.append(m)
        cells += recs
        made = [m for m in mutants if m["notebook"] == name]
        print(f"[{n}/{len(books)}] {name}: {len(recs)}/{len(sources)} cells run, "
              f"{sum(r['error'] is None for r in recs)} without error; {len(made)} mutants, "
              f"{sum(m['verdict'] == 'predicted' for m in made)} predicted", file=sys.stderr, flush=True)
    summary = summarise(books, cells, mutants, time.perf_counter() - t0)
    command = "python " + " ".join(shlex.quote(a) for a in ["bench/notebook_mutations.py", *(argv or sys.argv[1:])])
    (out / "command.txt").write_text(command + "\n")
    with open(out / "mutants.jsonl", "w", encoding="utf-8") as f:
        f.writelines(json.dumps(m) + "\n" for m in mutants)
    with open(out / "cells.jsonl", "w", encoding="utf-8") as f:
        f.writelines(json.dumps(c) + "\n" for c in cells)
    (out / "report.md").write_text(report(summary, cells, mutants, command))
    print(json.dumps({k: v for k, v in summary.items()}))


if __name__ == "__main__":
    main()
