"""Time from a cell's failure to its repair, on the failures bench/failure_repairs.py recorded.

    python bench/failure_latency.py bench/reports/failure-repairs-<model>/mutants.jsonl
        [CLEAN] [--model qwen2.5-coder-1.5b] [--threads N] [--min-lines 10] [--max-lines 20]
        [--limit 40] [--out DIR]

Each crashing mutant of a cell of --min-lines to --max-lines lines is repaired again here, in
this process, with the failure the run recorded (what was raised and where) and the cells run
before it (from CLEAN, the notebooks the mutants came from, and the mutant's prelude), without
the kernel's objects (the facts take milliseconds beside the model; what is timed is the
model's part). Each failure is repaired three times: as the views do (the model is not asked
when an exact fix is verified) from a cold session, the same after `hold_context` held the earlier
cells as auto mode does at idle after the cell before (untimed), and with the model always asked
from a cold session (`rank_exact`, the slowest case). The
target (issue 51): median <= 3 s with Qwen2.5-Coder-1.5B, <= 0.5 s with SmolLM2, on 2 cores. Without
--threads the engine chooses per step between all cores and one, as in the views (a pool of
two stalls at every layer's barrier while another process holds a core).
With --baseline, llama.cpp (the same GGUF) scores as many rows as each model-asked repair
took, every position's logits, once on one thread and once on all cores, the faster counted:
plain scoring of those rows, what no ordering of the repair's work can go below on this machine
without fewer rows. The machine's load is printed beside the figures. The last stdout line is
one JSON object.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from notebook_shell import BENCH, notebooks  # noqa: E402
from requirements import require  # noqa: E402


def cases(mutants_path: Path, clean: Path, min_lines: int, max_lines: int, limit: int) -> list[dict]:
    """The recorded failures of cells of min_lines..max_lines lines, with their context."""
    cells = dict(notebooks(clean, 0))
    out = []
    for line in mutants_path.read_text(encoding="utf-8").splitlines():
        m = json.loads(line)
        if "failure" not in m or m["notebook"] not in cells:
            continue
        n = len(m["source"].rstrip("\n").split("\n"))
        if not min_lines <= n <= max_lines:
            continue
        context = cells[m["notebook"]][:m["index"]] + ([m["prelude"]] if m.get("prelude") else [])
        out.append({"id": f"{m['notebook']}#{m['index']}:{m['kind']}", "source": m["source"], "context": context,
                    "failure": m["failure"], "lines": n})
    return out[:limit] if limit else out


def failure_arguments(ap: argparse.ArgumentParser, *, min_lines: int, limit: int) -> None:
    """The arguments that choose the recorded failures (shared with bench/repair_shortcuts.py)."""
    ap.add_argument("mutants", help="mutants.jsonl of a bench/failure_repairs.py run")
    ap.add_argument("clean", nargs="?", default=str(BENCH / "notebook_clean.jsonl"))
    ap.add_argument("--model", default="smollm2-135m")
    ap.add_argument("--min-lines", type=int, default=min_lines)
    ap.add_argument("--max-lines", type=int, default=20)
    ap.add_argument("--limit", type=int, default=limit)
    ap.add_argument("--out", default=None, help="folder for output.txt and command.txt")


def chosen_failures(args, script: str) -> list[dict]:
    """The failures the arguments choose, after the script's requirements are checked."""
    require(script, packages=("numpy", "pyflakes"), paths=[args.mutants, args.clean])
    todo = cases(Path(args.mutants), Path(args.clean), args.min_lines, args.max_lines, args.limit)
    if not todo:
        sys.exit(f"no recorded failure of a cell of {args.min_lines}-{args.max_lines} lines in {args.mutants}")
    return todo


def finish(out: str | None, script: str, argv, text: str, summary: dict, lines: list[str] = ()) -> None:
    """Prints the figures (the last line one JSON object) and, with `out`, writes them to
    output.txt beside the command that made them."""
    print(text)
    if out:
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "output.txt").write_text("".join(x + "\n" for x in lines) + text + "\n" + json.dumps(summary) + "\n")
        (folder / "command.txt").write_text(
            "python " + " ".join(shlex.quote(a) for a in [script, *(argv or sys.argv[1:])]) + "\n")
    print(json.dumps(summary))


class _PlainScoring:
    """llama.cpp scoring `n` rows of a repair's document in one batch, every position's logits:
    on one thread and on all cores (the faster counted; on a busy machine a pool stalls)."""

    def __init__(self, path: Path, engine):
        from jupyter_codecheck.engine.llamacpp import LlamaCppModel
        self.tok = engine.tokenizer
        self.refs = [LlamaCppModel(path, n_threads=n, n_ctx=4096, n_batch=1024)
                     for n in sorted({1, os.cpu_count() or 1})]
        for ref in self.refs:            # the first use's own costs, once
            ref.score(self.tok.encode("x = 1\n").ids, all_logits=True)
            ref.clear()

    def time(self, cells: list[str], n: int) -> float:
        ids = self.tok.encode("".join(cells)).ids or [0]
        ids = (ids * (n // len(ids) + 1))[:max(1, min(n, 1024))]
        best = float("inf")
        for ref in self.refs:
            ref.clear()
            t = time.perf_counter()
            ref.score(ids, all_logits=True)
            best = min(best, time.perf_counter() - t)
        return best


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    failure_arguments(ap, min_lines=10, limit=40)
    ap.add_argument("--threads", type=int, default=None, help="fixed (default: chosen per step)")
    ap.add_argument("--baseline", action="store_true",
                    help="also time llama.cpp scoring as many rows as each model-asked repair")
    args = ap.parse_args(argv)
    if args.baseline:
        require("bench/failure_latency.py --baseline", packages=("llama_cpp",))
    todo = chosen_failures(args, "bench/failure_latency.py")
    from jupyter_codecheck.core.adapter import load_model
    from jupyter_codecheck.core.resolved_model import resolve_model
    from jupyter_codecheck.failure import Failure, hold_context, repair_failure
    resolved = resolve_model(args.model)
    t0 = time.perf_counter()
    engine = load_model(resolved, args.threads)
    load_s = time.perf_counter() - t0
    repair_failure("x = y\n", "NameError: name 'y' is not defined", model=args.model, threads=args.threads,
                   rank_exact=True)                               # the first use's own costs, once
    scoring = _PlainScoring(resolved.path, engine) if args.baseline else None
    times_by_case = []
    times, rows, loads, views, held, asked, plain = [], [], [], [], [], 0, []
    for c in todo:
        failure = Failure.from_dict(c["failure"])
        engine.session.truncate(0)           # cold: no K,V of an earlier repair's document
        t = time.perf_counter()
        seen = repair_failure(c["source"], failure, context=c["context"], model=args.model, threads=args.threads)
        views.append(time.perf_counter() - t)
        asked += "model_s" in seen.stats
        engine.session.truncate(0)
        hold_context(c["context"], model=args.model, threads=args.threads)     # at idle, before the cell
        t = time.perf_counter()
        repair_failure(c["source"], failure, context=c["context"], model=args.model, threads=args.threads)
        held.append(time.perf_counter() - t)
        engine.session.truncate(0)
        t = time.perf_counter()
        fix = repair_failure(c["source"], failure, context=c["context"], model=args.model,
                             threads=args.threads, rank_exact=True)
        s = time.perf_counter() - t
        times.append(s)
        times_by_case.append(s)
        rows.append(fix.stats.get("rows", 0))
        if scoring is not None:
            plain.append(scoring.time(c["context"] + [c["source"]], rows[-1]))
        loads.append(os.getloadavg()[0])
        print(f"{c['id']} ({c['lines']} lines): as the views do {views[-1]:.2f} s, {held[-1]:.2f} s with the "
              f"context held; model asked {s:.2f} s, "
              f"{fix.stats.get('rows')} rows" + (f", llama.cpp scoring them {plain[-1]:.2f} s" if plain else ""),
              file=sys.stderr, flush=True)
    times.sort()
    views.sort()
    held.sort()
    summary = {"model": resolved.path.name, "threads": args.threads, "cases": len(times),
               "median_s": round(statistics.median(times), 3), "p90_s": round(times[int(0.9 * (len(times) - 1))], 3),
               "views_median_s": round(statistics.median(views), 3),
               "views_p90_s": round(views[int(0.9 * (len(views) - 1))], 3), "views_asked_model": asked,
               "views_held_median_s": round(statistics.median(held), 3),
               "views_held_p90_s": round(held[int(0.9 * (len(held) - 1))], 3),
               "mean_rows": round(sum(rows) / len(rows), 1), "load_s": round(load_s, 2),
               "load_average": [round(min(loads), 2), round(max(loads), 2)]}
    if plain:
        summary["llamacpp_rows_median_s"] = round(statistics.median(plain), 3)
        summary["model_asked_over_llamacpp"] = round(statistics.median(t / p for t, p in zip(times_by_case, plain)), 3)
    text = (f"{summary['cases']} failures of {args.min_lines}-{args.max_lines}-line cells, {resolved.path.name}, "
            f"{args.threads or 'chosen'} threads: as the views repair them median {summary['views_median_s']} s, 90th "
            f"percentile {summary['views_p90_s']} s (the model asked for {asked}); the same with the earlier cells "
            f"held at idle median {summary['views_held_median_s']} s, 90th percentile {summary['views_held_p90_s']} s; "
            f"with the model always asked "
            f"median {summary['median_s']} s, 90th percentile {summary['p90_s']} s "
            f"({summary['mean_rows']} rows on average)"
            + (f"; llama.cpp scoring as many rows median {summary['llamacpp_rows_median_s']} s (the model-asked "
               f"repair {summary['model_asked_over_llamacpp']}x that)" if plain else "")
            + f"; load average {summary['load_average'][0]}–"
            f"{summary['load_average'][1]}")
    finish(args.out, "bench/failure_latency.py", argv, text, summary)


if __name__ == "__main__":
    main()
