"""Silent slips in real notebooks: does the model (or a kernel fact) flag a change that runs but
computes something else? The truth by running the cells.

    python bench/notebook_slips.py [CLEAN] [--limit N] [--match TEXT ...] [--seed 0] [--per-cell 2]
        [--cell-timeout 30] [--model NAME ...] [--option name=value] [--no-model] [--threads 1]
        [--kernel-from REPORT_DIR]
        [--out bench/reports/notebook-slips] [--cache bench/out/cache] [--fresh]

The notebooks of notebook_clean.jsonl run cell by cell in an IPython shell of their own, as
bench/notebook_mutations.py runs them (bench/notebook_shell.py). Before each cell,
bench/slips.py makes up to --per-cell slips of it (a comparison or arithmetic operator, an
off-by-one bound, swapped arguments, another variable or column of the same type, a dropped
negation). The original cell and each slip run in forked copies of the shell; the shell then
runs the original itself. What a run computes: its printed text and displayed values, and a hash
of every object the cell or one of its slips names (pickled; its repr where it does not pickle). A slip counts when
it ran without an error and what it computed differs from the original's; a cell whose two runs
of the original differ (time, an unseeded random draw) is left out with its slips. The original
cells that ran are the negatives.

Judged, per slip kind:
  kernel facts  the facts read before the slip as `%%codecheck` reads them: any claim on a slip or
                on an original cell (facts claim crashes: every claim here is a false one)
  the model     each slip and each original checked as the command line checks a notebook cell
                (its earlier cells as context, no kernel), at margin 0; read offline at the
                shipped notebook margin, the shipped general margin and a sweep: a slip is found
                when a model warning is on its changed line; an original is flagged by any model
                warning. Chance: a warning on a random line of the cell at the same rate.
Targets: at least 25 % of slips found on their changed line, at most 1 % of originals flagged.
The last stdout line is one JSON object with the figures; report.md, slips.jsonl, cells.jsonl,
summary.json and command.txt go to --out. Checks are cached on disk (bench/disk_cache.py).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from notebook_shell import BENCH, claims, notebooks, run_worker  # noqa: E402
from requirements import NOTEBOOK_LIBRARIES, require  # noqa: E402
from slips import KINDS, labels_output  # noqa: E402

FOUND_TARGET, FLAGGED_TARGET = 0.25, 0.01
SWEEP = (0.0, 1.0, 2.0, 3.0, 4.0, 6.0, 8.0, 10.0, 12.0, 15.0)
CACHE_VERSION = "2"      # 2: line repairs kept apart (their own floor and gates)

WORKER = r'''
import sys
from notebook_slips import worker
worker(*sys.argv[1:])
'''


# -- in the notebook's shell process ------------------------------------------------------------

def worker(out_path: str, name: str, seed: str, per_cell: str, timeout: str) -> None:
    """Run the notebook's cells (stdin, JSON) in one shell; each cell's original and slips first in
    forked copies of it. One JSON line a cell to `out_path`."""
    import random
    from notebook_mutations import _in_child
    from notebook_shell import new_shell, read_facts
    from slips import slips
    cells, per_cell, timeout = json.loads(sys.stdin.read()), int(per_cell), int(timeout)
    shell = new_shell()
    with open(out_path, "w", encoding="utf-8") as out:
        for i, cell in enumerate(cells):
            rec = read_facts(cell, shell.user_ns)
            try:
                made = slips(cell, shell.user_ns, random.Random(f"{seed}|{name}|{i}"), per_cell,
                             hidden=shell.user_ns_hidden)
            except Exception as e:  # noqa: BLE001 - an operator's bug costs this cell's slips only
                rec["mutation_error"], made = repr(e), []
            # the objects compared: those the cell or any of its slips names
            names = sorted(set().union(*(_names(s) for s in [cell, *(m.source for m in made)])))
            forked = _in_child(lambda: computed(shell, cell, timeout, names), timeout) if made else None
            results = []
            for m in made:
                def run_slip(m=m):
                    got = read_facts(m.source, shell.user_ns)
                    return {**got, **computed(shell, m.source, timeout, names)}
                results.append({**m.to_dict(), **(_in_child(run_slip, timeout) or {"error": ["Killed", "", []]})})
            own = computed(shell, cell, timeout, names)
            rec.update(index=i, error=own["error"], digest=own["digest"],
                       deterministic=forked is None or forked.get("digest") == own["digest"],
                       slips=[{**r, "differs": r.get("error") is None and r.get("digest") != own["digest"],
                               "output_differs": r.get("error") is None and r.get("output") != own["output"]}
                              for r in results])
            out.write(json.dumps(rec) + "\n")
            out.flush()
            if own["error"] and own["error"][0] == "Timeout":
                break


def _names(source: str) -> set[str]:
    import ast
    try:
        return {n.id for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Name)}
    except SyntaxError:        # IPython syntax: its output alone is compared
        return set()


def computed(shell, source: str, timeout: int, names: list[str]) -> dict:
    """Run a cell; its error, a hash of its printed and displayed output, and a hash of that and
    of the objects in `names` afterwards."""
    import hashlib
    from IPython.utils.capture import capture_output
    from notebook_shell import run_cell
    with capture_output() as cap:
        error = run_cell(shell, source, timeout, silent=False)
    shown = cap.stdout + "\0" + "\0".join(repr(sorted(o.data.items())) for o in cap.outputs)
    output = hashlib.sha256(shown.encode("utf-8", "replace")).hexdigest()
    if error is not None:
        return {"error": error, "output": output, "digest": None}
    h = hashlib.sha256(output.encode())
    for n in names:
        if n in shell.user_ns:
            h.update(n.encode() + b"\0" + _fingerprint(shell.user_ns[n]))
    return {"error": None, "output": output, "digest": h.hexdigest()}


def _fingerprint(obj) -> bytes:
    import inspect
    import pickle
    if inspect.ismodule(obj) or inspect.isroutine(obj) or inspect.isclass(obj):
        return b"-"
    try:
        return pickle.dumps(obj, protocol=4)
    except Exception:  # noqa: BLE001 - what does not pickle is compared by its repr
        try:
            return repr(obj).encode("utf-8", "replace")
        except Exception:  # noqa: BLE001
            return b"?"


# -- the benchmark ------------------------------------------------------------------------------

def run_notebook(name: str, cells: list[str], args) -> list[dict]:
    # each cell runs once in the shell and once a slip or original in a forked copy
    return run_worker(WORKER, [name, args.seed, args.per_cell, args.cell_timeout], cells,
                      (args.per_cell + 3) * (args.cell_timeout + 15) * len(cells) + 60)


def _summed_up(job: tuple[str, list[str]], options: dict) -> dict:
    from notebook_crashes import check_cell, cli_context
    cell, earlier = job
    context, before = cli_context(earlier)
    from quality_report import _evidence_of
    r = check_cell(cell, context, before, options)
    ev = _evidence_of(r)
    return {"evidence": ev["gains"], "repairs": ev["repairs"], "errors": ev["errors"], "time_s": r.stats.get("time_s")}


def model_checks(jobs: list[tuple[str, list[str]]], options: dict, cache_dir: Path, fresh: bool) -> list[dict]:
    """Each (cell, earlier cells) checked as the command line checks a notebook cell, at margin 0:
    its supported places' (line, gain) and its error lines."""
    from disk_cache import cached_checks
    return cached_checks([(cell + "\0" + "\0".join(earlier), (cell, earlier)) for cell, earlier in jobs], _summed_up,
                         options={**options, "margin": 0.0}, directory=cache_dir / "slip-checks", fresh=fresh,
                         version=CACHE_VERSION)


def warned_lines(check: dict, margin: float, measure: str = "nats", repair_floor: float = math.inf) -> set[int]:
    """The lines with a warning at the margin: by the gain, or by its lead over the best gain at
    the cell's other lines (bench/clean_kinds.py; these checks keep the supported places only);
    and the lines whose line repair's own gain reaches `repair_floor` (`repairs=lines`)."""
    from clean_kinds import repairs_of
    repaired = set(repairs_of(check, repair_floor))
    if measure == "lead":
        from clean_kinds import warnings_of
        return repaired | {ln for ln, v in warnings_of([[ln, g, True] for ln, g in check["evidence"]], "lead").items()
                           if v >= margin}
    return repaired | _warned_nats(check, margin)


def _warned_nats(check: dict, margin: float) -> set[int]:
    return {ln for ln, gain in check["evidence"] if gain is not None and gain >= margin}


def _share(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


def model_figures(slips: list[dict], originals: list[dict], margin: float, model: str,
                  measure: str = "nats", repair_floor: float = math.inf) -> dict:
    def warned_of(rec):
        return warned_lines(rec["checks"][model], margin, measure, repair_floor)
    found = [s for s in slips if s["line"] in warned_of(s)]
    warned = [s for s in slips if warned_of(s)]
    flagged = [c for c in originals if warned_of(c)]
    # chance: a cell's warning on one of its lines at random, as often as the model warns on slips
    chance = sum(1 / max(1, s["source"].count("\n") + 1) for s in warned)
    per_kind = {k: _share(sum(s["kind"] == k for s in found), sum(s["kind"] == k for s in slips)) for k in KINDS}
    return {"margin": margin, "measure": measure, "repair_floor": repair_floor if math.isfinite(repair_floor) else None,
            "found": len(found), "found_share": _share(len(found), len(slips)),
            "slips_warned_share": _share(len(warned), len(slips)),
            "chance_found_share": round(chance / len(slips), 4) if slips else None,
            "originals_flagged": len(flagged), "originals_flagged_share": _share(len(flagged), len(originals)),
            "per_kind_found": per_kind}


def main(argv=None) -> None:
    from check_options import parse_option
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("clean", nargs="?", default=str(BENCH / "notebook_clean.jsonl"),
                    help="notebook_clean.jsonl (default: ../shared/benchmarks/ beside the repository)")
    ap.add_argument("--limit", type=int, default=0, help="first N notebooks")
    ap.add_argument("--match", action="append", default=[],
                    help="only notebooks whose repository/path holds this text (repeatable: any of them)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--per-cell", type=int, default=2, help="slips a cell at most, of different kinds")
    ap.add_argument("--cell-timeout", type=int, default=30)
    ap.add_argument("--model", action="append", default=[],
                    help="a model's short name or GGUF path (repeatable: each judged on the same slips; default: the default model)")
    ap.add_argument("--option", action="append", type=parse_option, default=[], help="check() option name=value")
    ap.add_argument("--threads", type=int, default=None, help="threads of the model's checks")
    ap.add_argument("--no-model", action="store_true", help="the kernel facts only")
    ap.add_argument("--kernel-from", default=None, metavar="DIR",
                    help="the notebooks' runs (cells.jsonl, slips.jsonl) of an earlier report: judged again, not rerun")
    ap.add_argument("--out", default=str(ROOT / "bench" / "reports" / "notebook-slips"))
    ap.add_argument("--cache", default=str(ROOT / "bench" / "out" / "cache"))
    ap.add_argument("--fresh", action="store_true", help="run every model check again")
    args = ap.parse_args(argv)
    require("bench/notebook_slips.py", packages=(*NOTEBOOK_LIBRARIES, "IPython", "pyflakes"), paths=[args.clean])
    if not hasattr(os, "fork"):
        sys.exit("bench/notebook_slips.py runs each slip in a forked copy of the shell: it needs os.fork")
    options = dict(args.option)
    if args.threads:
        options["n_threads"] = args.threads
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    books = [b for b in notebooks(Path(args.clean), 0) if not args.match or any(m in b[0] for m in args.match)]
    books = books[:args.limit] if args.limit else books
    cells, slips, t0 = [], [], time.perf_counter()
    if args.kernel_from:        # the notebooks' runs of an earlier report, judged again
        for name, path in (("cells", "cells.jsonl"), ("slips", "slips.jsonl")):
            recs = [json.loads(x) for x in open(Path(args.kernel_from) / path, encoding="utf-8")]
            for r in recs:
                r.pop("checks", None)
            (cells if name == "cells" else slips).extend(r for r in recs if r["notebook"] in dict(books))
        books = [b for b in books if any(c["notebook"] == b[0] for c in cells)]
    for n, (name, sources) in enumerate([] if args.kernel_from else books, 1):
        recs = run_notebook(name, sources, args)
        for r in recs:
            r["notebook"], r["source"] = name, sources[r["index"]]
            for s in r.pop("slips"):
                s.update(notebook=name, cell=r["index"])
                slips.append(s)
        cells += recs
        print(f"[{n}/{len(books)}] {name}: {len(recs)}/{len(sources)} cells run; "
              f"{sum(s['differs'] for s in slips if s['notebook'] == name)} slips that run and differ",
              file=sys.stderr, flush=True)
    run_s = time.perf_counter() - t0
    originals = [c for c in cells if c["error"] is None and c["deterministic"]]
    judged = {(c["notebook"], c["index"]) for c in originals}
    # a run made before print()'s arguments were left out of the swaps: those slips are left out
    labels = [s for s in slips if labels_output(s)]
    slips = [s for s in slips if not labels_output(s)]
    counted = [s for s in slips if s["differs"] and (s["notebook"], s["cell"]) in judged]
    by_kind = {k: Counter() for k in KINDS}
    for s in slips:
        if (s["notebook"], s["cell"]) in judged:
            by_kind[s["kind"]][("crashed" if s.get("error") else "differs" if s["differs"] else "same")] += 1
    facts = {"slips_claimed": sum(bool(claims(s["source"], s)) for s in counted),
             "originals_claimed": sum(bool(claims(c["source"], c)) for c in originals)}
    facts["slips_claimed_share"] = _share(facts["slips_claimed"], len(counted))
    facts["originals_claimed_share"] = _share(facts["originals_claimed"], len(originals))
    summary = {"notebooks": len(books), "cells_run": len(cells), "originals": len(originals),
               "nondeterministic_cells": sum(c["error"] is None and not c["deterministic"] for c in cells),
               "slips_made": sum(by_kind[k].total() for k in KINDS), "slips": len(counted),
               "slips_output_differs": sum(s["output_differs"] for s in counted),
               "print_swaps_left_out": len(labels),
               "per_kind": {k: dict(by_kind[k]) for k in KINDS}, "facts": facts, "kernel_run_s": round(run_s, 1),
               "options": {k: v for k, v in options.items() if k != "n_threads"}}
    if not args.no_model:
        from jupyter_codecheck.core.calibration import (shipped, shipped_margin, shipped_margin_measure,
                                                        shipped_repair_margin)
        from jupyter_codecheck.core.repairs import FIM_MARGIN
        from jupyter_codecheck.engine.paths import resolve_model_path
        earlier = {name: sources for name, sources in books}
        jobs = [(c["source"], earlier[c["notebook"]][:c["index"]]) for c in originals]
        jobs += [(s["source"], earlier[s["notebook"]][:s["cell"]]) for s in counted]
        summary["models"] = {}
        for model in args.model or [None]:
            t1 = time.perf_counter()
            checks = model_checks(jobs, {**options, **({"model": model} if model else {})}, Path(args.cache), args.fresh)
            for rec, check in zip([*originals, *counted], checks):
                rec.setdefault("checks", {})[model or "default"] = check
            margins = {"notebook": shipped(lambda m: shipped_margin(m, notebook=True), model, 2.0),
                       "general": shipped(shipped_margin, model, 2.0)}
            measure = shipped(shipped_margin_measure, model, "nats")
            # with line repairs, the floor shipped for notebook cells is theirs beside the margin
            floor = shipped(lambda m: shipped_repair_margin(m, notebook=True), model, FIM_MARGIN) \
                if options.get("repairs") == "lines" else math.inf
            key = model or "default"
            summary["models"][key] = {
                "file": resolve_model_path(model).name, "check_s": round(time.perf_counter() - t1, 1),
                **{f"at_{k}_margin": model_figures(counted, originals, m, key, measure, floor)
                   for k, m in margins.items()},
                "sweep": [model_figures(counted, originals, m, key) for m in SWEEP]}
    command = "python " + " ".join(shlex.quote(a) for a in ["bench/notebook_slips.py", *(argv or sys.argv[1:])])
    (out / "command.txt").write_text(command + "\n")
    with open(out / "slips.jsonl", "w", encoding="utf-8") as f:
        f.writelines(json.dumps(s) + "\n" for s in slips)
    with open(out / "cells.jsonl", "w", encoding="utf-8") as f:
        f.writelines(json.dumps(c) + "\n" for c in cells)
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    (out / "report.md").write_text(report(summary, counted, command))
    print(json.dumps(summary))


def _pct(x) -> str:
    return "–" if x is None else f"{x:.1%}"


def report(summary: dict, counted: list[dict], command: str) -> str:
    f = summary["facts"]
    lines = ["# Silent slips in real notebooks: the model and the kernel facts, the truth by running them", "",
             f"`{command}`", "",
             f"{summary['notebooks']} notebooks, {summary['cells_run']} cells run, {summary['originals']} ran "
             f"without an error and gave the same result twice (the negatives; {summary['nondeterministic_cells']} "
             f"others did not). {summary['slips_made']} slips made of those; **{summary['slips']}** ran without an "
             f"error and computed something else (the positives; {summary['slips_output_differs']} of them changed "
             f"the printed or displayed output, the others only the objects). Swaps of print()'s arguments "
             f"label the output and compute nothing else: {summary['print_swaps_left_out']} left out.", "",
             "| slip | made | crashed | ran, same result | ran, other result |", "|---|---|---|---|---|"]
    for k, c in summary["per_kind"].items():
        lines.append(f"| {k} | {sum(c.values())} | {c.get('crashed', 0)} | {c.get('same', 0)} | {c.get('differs', 0)} |")
    lines += ["", f"Kernel facts: a claim on **{f['slips_claimed']} of {summary['slips']}** slips "
              f"({_pct(f['slips_claimed_share'])}) and on {f['originals_claimed']} of {summary['originals']} original "
              f"cells ({_pct(f['originals_claimed_share'])}). Facts claim crashes, and these slips run: a claim here "
              "is a false one, and none is what the facts are for.", ""]
    for m in summary.get("models", {}).values():
        lines += [f"## The model: {m['file']} ({m['check_s']:.0f} s of checks)", "",
                  "Found: a model warning on the slip's changed line (target ≥ 25 %); chance: a warning on a random "
                  "line of the cell, as often as the model warns on slips; originals flagged: any model warning "
                  "(target ≤ 1 %).", "",
                  "| margin (nats) | found | chance | slips with any warning | originals flagged |",
                  "|---|---|---|---|---|"]
        for label in ("notebook", "general"):
            r = m[f"at_{label}_margin"]
            floor = "" if r.get("repair_floor") is None else f"; line repairs from {r['repair_floor']:g}"
            lines.append(f"| **{r['margin']:g} (shipped {label}, {r['measure']}{floor})** | {_pct(r['found_share'])} | "
                         f"{_pct(r['chance_found_share'])} | {_pct(r['slips_warned_share'])} | "
                         f"{_pct(r['originals_flagged_share'])} |")
        for r in m["sweep"]:
            lines.append(f"| {r['margin']:g} | {_pct(r['found_share'])} | {_pct(r['chance_found_share'])} | "
                         f"{_pct(r['slips_warned_share'])} | {_pct(r['originals_flagged_share'])} |")
        r = m["at_notebook_margin"]
        lines += ["", "Found at the shipped notebook margin, per slip kind: " +
                  ", ".join(f"{k} {_pct(v)}" for k, v in r["per_kind_found"].items()), ""]
    lines += ["", "## Examples of slips that ran and computed something else", ""]
    lines += [f"- {s['kind']}, {s['notebook']} cell {s['cell']} line {s['line']}: `{s['change']}`" for s in counted[:15]]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
