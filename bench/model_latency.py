"""Latency per model: the median warm check() of a 40-line and of a 10-line cell.

    python bench/model_latency.py [--model NAME|PATH ...] [--reps 5] [--threads N] [--cpu-time] [--f16]
        [--option name=value ...] [--out DIR]

For each model (default: smollm2-135m, qwen2.5-coder-0.5b, qwen2.5-coder-1.5b), in one process:
load it and check both cells once (the model's files read, its per-model tables filled), then
time `--reps` checks of each cell with the default options (and any `--option`) and threads, each after another cell
and `forget()` (nothing of the cell kept from the check before, as for a new cell in a notebook).
The cells are bench/latency.py's: its 40-line data-science cell (FACTS_CELL) with the names its
earlier cells define (`namespace=` the names only: no kernel facts), and its 10-line CELL_10.
Beside each, llama.cpp scoring the same tokens (every position's logits, the same weights and
threads, median of `--reps`): what plain scoring costs, so a target in seconds reads as a ratio
to it. Prints one line per model and, last, one JSON object; with --out also
writes output.txt and command.txt there. The machine's load average is printed with each model:
the cores may be shared.
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

from check_options import parse_option  # noqa: E402
from instruction_sets import describe, instruction_sets  # noqa: E402
from latency import CELL_10, FACTS_CELL, _facts_namespace  # noqa: E402

MODELS = ("smollm2-135m", "qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b")


# --cpu-time: this process's CPU seconds (with --threads 1 they barely move with the machine's
# other work); --f16: the checker as it ran every layer type before, on f16 copies
CLOCK = time.perf_counter


def measure(model: str, reps: int, threads: int | None = None, options: dict | None = None) -> dict:
    from jupyter_codecheck.core.adapter import load_model
    from jupyter_codecheck.core.check import check
    from jupyter_codecheck.engine.llamacpp import LlamaCppModel
    from jupyter_codecheck.engine.paths import model_display_name, resolve_model_path

    path = resolve_model_path(model)
    names = frozenset(_facts_namespace())
    options = options or {}
    t0 = time.perf_counter()
    first = check(FACTS_CELL, model=model, namespace=names, n_threads=threads, **options)
    first_s = time.perf_counter() - t0
    check(CELL_10, model=model, n_threads=threads, **options)
    engine = load_model(model, threads)
    out = {"model": model, "name": model_display_name(path), "file_bytes": path.stat().st_size,
           "first_check_s": round(first_s, 2)}
    for label, cell, ns in (("40", FACTS_CELL, names), ("10", CELL_10, None)):
        times = []
        tokens = 0
        for _ in range(reps):
            check("pass\n", model=model, n_threads=threads)       # another cell in between
            engine.forget()
            t0 = CLOCK()
            r = check(cell, model=model, namespace=ns, n_threads=threads, **options)
            times.append(CLOCK() - t0)
            tokens = r.stats.get("tokens", 0)
            verification = (r.stats.get("verification") or {}).get("time_s", 0.0)
        out[f"cell{label}_lines"] = len(cell.splitlines())
        out[f"cell{label}_tokens"] = tokens
        out[f"cell{label}_median_s"] = round(statistics.median(times), 3)
        out[f"cell{label}_times_s"] = [round(t, 3) for t in times]
        out[f"cell{label}_last_verification_s"] = round(verification, 3)     # the evidence step's share
    ref = LlamaCppModel(path, n_threads=engine.session.n_threads)
    for label, cell in (("40", FACTS_CELL), ("10", CELL_10)):
        ids = engine.tokenizer.encode(cell).ids
        times = []
        for _ in range(reps):
            ref.clear()
            t0 = CLOCK()
            ref.score(ids, all_logits=True)
            times.append(CLOCK() - t0)
        out[f"cell{label}_llamacpp_s"] = round(statistics.median(times), 3)
    ref.close()
    out["threads"] = engine.session.n_threads
    out["findings_40"] = len(first.findings)
    out["load_average"] = round(os.getloadavg()[0], 2)
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", action="append", help="a known name or a GGUF path (repeatable)")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--out", help="folder for output.txt and command.txt")
    ap.add_argument("--threads", type=int, default=None, help="threads per check (default: the engine's)")
    ap.add_argument("--cpu-time", action="store_true", help="time in this process's CPU seconds")
    ap.add_argument("--f16", action="store_true",
                    help="every layer type on f16 copies (the checker's settings before k-quants ran as stored)")
    ap.add_argument("--option", action="append", type=parse_option, default=[], help="check() option name=value")
    args = ap.parse_args(argv)
    global CLOCK
    if args.cpu_time:
        CLOCK = time.process_time
    if args.f16:
        from jupyter_codecheck.core import adapter
        from jupyter_codecheck.engine.session import FAST
        adapter.checker_settings = lambda _layer_type: dict(FAST)
    assert len(FACTS_CELL.splitlines()) == 40 and len(CELL_10.splitlines()) == 10
    lines, rows = [], []
    for model in args.model or MODELS:
        r = measure(model, args.reps, args.threads, dict(args.option))
        rows.append(r)
        line = (f"{r['name']} ({r['file_bytes'] / 1e6:.0f} MB): 40-line cell {r['cell40_median_s']:.2f} s "
                f"({r['cell40_tokens']} tokens), 10-line cell {r['cell10_median_s']:.2f} s "
                f"({r['cell10_tokens']} tokens), median of {args.reps} warm checks; llama.cpp scoring "
                f"the same tokens {r['cell40_llamacpp_s']:.2f} s and {r['cell10_llamacpp_s']:.2f} s "
                f"({r['threads']} threads); first check in the process {r['first_check_s']:.2f} s; "
                f"load average {r['load_average']}")
        print(line, flush=True)
        lines.append(line)
    isa = instruction_sets()
    lines.append("ran on: " + describe(isa))
    print(lines[-1])
    final = json.dumps({"reps": args.reps, "models": rows, "instruction_sets": isa})
    print(final)
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "output.txt").write_text("\n".join(lines + [final]) + "\n")
        command = "python bench/model_latency.py " + " ".join(
            shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:]))
        (out / "command.txt").write_text(
            f"{command}   # {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, 2-core machine "
            f"shared with other jobs (load average per model in output.txt)\n")


if __name__ == "__main__":
    main()
