"""The margin a model warning needs on notebook code, chosen on half of the clean notebook cells
and reported on the other half and on the crash cases (an offline replay: no model runs).

    python bench/notebook_margin.py [--cases bench/reports/notebook-crashes/cases.jsonl]
        [--clean ../shared/benchmarks/notebook_clean.jsonl] [--target 0.01]

Input: the cases.jsonl of bench/notebook_crashes.py (every check's findings with their gains,
and every weighed place's best gain). The clean cells are split by repository: the calibration
half is the repositories in alphabetical order at even positions, the report half the others.
The margin is the smallest (in steps of 0.5 nats) at which at most `--target` of the calibration
half's cells have a warning; the report half, the fixed and the crashing targets (code mode) are
then read at that margin. A warning here is a supported candidate whose gain reaches the margin.
The last line is one JSON object.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from requirements import require  # noqa: E402


def best_gain(row: dict) -> float:
    """The largest gain a supported candidate of the check reached (the warnings' and the
    places' below the shipped margin alike); 0 without one."""
    gains = [f["gain"] for f in row["findings"] if f["severity"] == "warning" and f["gain"] is not None]
    gains += [e[1] for e in row.get("evidence", []) if e[2]]
    return max(gains or [0.0])


def share(gains: list[float], margin: float) -> float:
    return sum(g >= margin for g in gains) / len(gains) if gains else 0.0


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", default=str(ROOT / "bench" / "reports" / "notebook-crashes" / "cases.jsonl"))
    ap.add_argument("--clean", default=str(ROOT.parent / "shared" / "benchmarks" / "notebook_clean.jsonl"))
    ap.add_argument("--target", type=float, default=0.01)
    args = ap.parse_args(argv)
    require("bench/notebook_margin.py", paths=[args.clean])
    repo = {}
    with open(args.clean, encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            repo[d["id"]] = d["meta"]["repo"]
    rows = [json.loads(line) for line in open(args.cases, encoding="utf-8")]
    repos = sorted(set(repo.values()))
    calib_repos = set(repos[0::2])
    clean = [r for r in rows if r["side"] == "clean"]
    calib = [best_gain(r) for r in clean if repo.get(r["id"]) in calib_repos]
    report = [best_gain(r) for r in clean if repo.get(r["id"]) not in calib_repos]
    fixed = [best_gain(r) for r in rows if r["side"] == "fixed" and r["mode"] == "code"]
    crashing = [best_gain(r) for r in rows if r["side"] == "buggy" and r["mode"] == "code"]
    margin = next(m / 2 for m in range(0, 81) if share(calib, m / 2) <= args.target)
    lines = [f"calibration half ({', '.join(sorted(calib_repos))}): {len(calib)} cells",
             f"report half: {len(report)} cells; crash cases: {len(crashing)} crashing, {len(fixed)} fixed targets",
             f"margin chosen: {margin} nats (at most {args.target:.0%} of the calibration half with a warning)", "",
             "margin  calib  report  fixed  crashing"]
    for m in sorted({4.0, 5.85, 6.0, 8.0, 10.0, margin, 12.0, 15.0}):
        lines.append(f"{m:6.2f}  {share(calib, m):5.1%}  {share(report, m):6.1%}  {share(fixed, m):5.1%}  "
                     f"{share(crashing, m):8.1%}")
    print("\n".join(lines))
    print(json.dumps({"margin": margin, "target": args.target, "calib_cells": len(calib),
                      "report_cells": len(report), "report_flagged": round(share(report, margin), 4),
                      "fixed_flagged": round(share(fixed, margin), 4),
                      "crashing_flagged": round(share(crashing, margin), 4),
                      "calib_flagged": round(share(calib, margin), 4)}))


if __name__ == "__main__":
    main()
