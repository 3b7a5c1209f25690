"""Do the exact fixes run? Every fix the kernel facts offer on the mutation bench's mutants and on
the notebooks' own cells, written into the cell and the cell run.

    python bench/fix_runs.py [CLEAN] [--limit N] [--match TEXT] [--seed 0] [--per-cell 3]
        [--cell-timeout 30] [--out bench/reports/fix-runs]

bench/notebook_mutations.py runs as it does on its own (same notebooks, mutants and seed; its
report goes to --out/mutations/), with each fact's first fix (the one a view offers: the
"did you mean" of auto mode, the guard and the command line) also written into the cell and the
patched cell run in a forked copy of the shell, in the state the cell itself runs in. A mutant's
original cell ran without an error, so its fixed cell should too: the share of those that run is
the figure (target ≥ 95 %). The notebooks' own cells are reported beside it (a cell that raised
here for this machine's reasons, a missing data file, may fail again after the fix). The last
stdout line is one JSON object; report.md and fixes.jsonl go to --out.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
from collections import Counter
from pathlib import Path

import notebook_mutations
from notebook_shell import BENCH, ROOT


def _share(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("clean", nargs="?", default=str(BENCH / "notebook_clean.jsonl"))
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--match", default="")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--per-cell", type=int, default=3)
    ap.add_argument("--cell-timeout", type=int, default=30)
    ap.add_argument("--out", default=str(ROOT / "bench" / "reports" / "fix-runs"))
    args = ap.parse_args(argv)
    out = Path(args.out)
    inner = out / "mutations"
    os.environ[notebook_mutations.TRY_FIXES] = "1"
    bench_args = [args.clean, "--limit", str(args.limit), "--match", args.match, "--seed", str(args.seed),
                  "--per-cell", str(args.per_cell), "--cell-timeout", str(args.cell_timeout), "--out", str(inner)]
    notebook_mutations.main(bench_args)         # checks its requirements first
    rows = []
    for name, source in (("mutant", "mutants.jsonl"), ("cell", "cells.jsonl")):
        for line in (inner / source).read_text(encoding="utf-8").splitlines():
            rec = json.loads(line)
            for f in rec.get("fixes", ()):
                rows.append({"on": name, "notebook": rec.get("notebook"),
                             "cell": rec.get("cell", rec.get("index")), "mutation": rec.get("kind"),
                             "cell_error": (rec.get("error") or [None])[0], **f})
    with open(out / "fixes.jsonl", "w", encoding="utf-8") as f:
        f.writelines(json.dumps(r) + "\n" for r in rows)
    mutant_fixes = [r for r in rows if r["on"] == "mutant"]
    ran = [r for r in mutant_fixes if r["error"] is None]
    cell_fixes = [r for r in rows if r["on"] == "cell"]
    summary = {"mutant_fixes": len(mutant_fixes), "mutant_fixes_ran": len(ran),
               "mutant_fixes_ran_share": _share(len(ran), len(mutant_fixes)),
               "by_fact_kind": {k: {"fixes": n, "ran": sum(1 for r in ran if r["kind"] == k)}
                                for k, n in sorted(Counter(r["kind"] for r in mutant_fixes).items())},
               "cell_fixes": len(cell_fixes), "cell_fixes_ran": sum(r["error"] is None for r in cell_fixes)}
    command = "python " + " ".join(shlex.quote(a) for a in ["bench/fix_runs.py", *(argv or sys.argv[1:])])
    (out / "command.txt").write_text(command + "\n")
    lines = ["# Do the exact fixes run? (the mutation bench's mutants and the notebooks' cells)", "",
             f"`{command}`", "",
             f"- fixes offered on mutants whose original cell ran: **{len(mutant_fixes)}**, the fixed cell ran "
             f"without an error: **{len(ran)}** ({(summary['mutant_fixes_ran_share'] or 0):.1%}; target ≥ 95 %)",
             f"- fixes offered on the notebooks' own cells: {len(cell_fixes)}, ran: {summary['cell_fixes_ran']}", "",
             "| fact kind | fixes | ran |", "|---|---|---|"]
    lines += [f"| {k} | {v['fixes']} | {v['ran']} |" for k, v in summary["by_fact_kind"].items()]
    failed = [r for r in mutant_fixes if r["error"] is not None]
    if failed:
        lines += ["", "## Fixed mutants that still failed", ""]
        lines += [f"- {r['notebook']} cell {r['cell']} ({r['mutation']}): {r['message'][:100]!r} -> fix "
                  f"{r['fix'][:80]!r}: {r['error'][0]}: {r['error'][1][:100]!r}" for r in failed]
    (out / "report.md").write_text("\n".join(lines) + "\n")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
