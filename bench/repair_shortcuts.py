"""Do the repair's shortcuts change what it finds? Each recorded failure repaired twice, with the
shortcuts (the written line as the draft, the context's exit test, the prompt's K,V shared by
every line) and without them (`repair_failure(..., shortcuts=False)`: each line's prompt whole,
no draft, no exit), both with the model always asked.

    python bench/repair_shortcuts.py bench/reports/failure-repairs-<model>/mutants.jsonl [CLEAN]
        [--model smollm2-135m] [--min-lines 5] [--max-lines 20] [--limit 0] [--out DIR]

(the failures bench/failure_latency.py repairs, with their context).

Issue 51 asks that a repair found with the shortcut equal the repair found without it
(tests/test_failure_repair.py holds that on its cells); this reads it on real failures: the
shown repair, the candidate lists (cell, line, text), and how far the model's gains differ.
The last stdout line is one JSON object.
"""
from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from failure_latency import chosen_failures, failure_arguments, finish  # noqa: E402


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    failure_arguments(ap, min_lines=5, limit=0)
    args = ap.parse_args(argv)
    todo = chosen_failures(args, "bench/repair_shortcuts.py")
    from jupyter_codecheck.core.adapter import load_model
    from jupyter_codecheck.core.resolved_model import resolve_model
    from jupyter_codecheck.failure import Failure, repair_failure
    engine = load_model(resolve_model(args.model), None)

    def repaired(c: dict, shortcuts: bool):
        engine.session.truncate(0)
        fix = repair_failure(c["source"], Failure.from_dict(c["failure"]), context=c["context"], model=args.model,
                             rank_exact=True, shortcuts=shortcuts)
        shown = None if fix.repair is None else (fix.repair.cell, fix.repair.line, fix.repair.new_line)
        return shown, {(r.cell, r.line, r.new_line): r.gain for r in fix.candidates}

    same_repair = same_candidates = 0
    gaps: list[float] = []
    lines = []
    for k, c in enumerate(todo, 1):
        shown_a, cands_a = repaired(c, True)
        shown_b, cands_b = repaired(c, False)
        same_repair += shown_a == shown_b
        same_candidates += cands_a.keys() == cands_b.keys()
        gap = max((abs(cands_a[x] - cands_b[x]) for x in cands_a.keys() & cands_b.keys()
                   if not (math.isnan(cands_a[x]) or math.isnan(cands_b[x]))), default=0.0)   # NaN: no gain weighed
        gaps.append(gap)
        lines.append(f"{c['id']}: the same repair {shown_a == shown_b}, the same candidates "
                     f"{cands_a.keys() == cands_b.keys()}, the largest gain gap {gap:.3f} nats")
        print(f"[{k}/{len(todo)}] {lines[-1]}", file=sys.stderr, flush=True)
    gaps.sort()
    summary = {"model": args.model, "cases": len(todo), "same_repair": same_repair, "same_candidates": same_candidates,
               "gain_gap_median": round(gaps[len(gaps) // 2], 4), "gain_gap_max": round(gaps[-1], 4)}
    text = (f"{len(todo)} failures of {args.min_lines}-{args.max_lines}-line cells, {args.model}: the shown repair the same "
            f"with and without the shortcuts in {same_repair}, the candidate lists in {same_candidates}; the model's gains "
            f"differ by {summary['gain_gap_median']} nats at the median case, {summary['gain_gap_max']} at most")
    finish(args.out, "bench/repair_shortcuts.py", argv, text, summary, lines)


if __name__ == "__main__":
    main()
