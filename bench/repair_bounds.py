"""What the model's evidence can reach on the dev sets, and what the line repairs' gates refuse.

    python bench/repair_bounds.py QUALITY_REPORT_DIR [QUALITY_REPORT_DIR ...] [--data DIR]

bound   bench/quality.py reports run at margin 0 (with `repairs=lines`: every repair's own gain
        kept): the most buggy files with a changed line among the top three findings, with at
        most the dataset's target share of correct files flagged (HumanEvalFix 5 %, DebugBench
        10 %), over every warning threshold (0-40 nats, both measures) against every repair
        floor (0-40 nats). The thresholds are fitted on the pairs themselves: an oracle's bound,
        which no calibration reaches.
gates   each dataset's one-line fixes (the fixed line for the buggy one, difflib), as proposals
        to core/repairs.not_a_repair: how many real fixes it refuses, by reason; DebugBench's
        logic bugs as bench/quality.py counts them (no syntax or multi-bug category).
The last line is one JSON object with the figures.
"""
from __future__ import annotations

import argparse
import collections
import difflib
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from harness import BENCH, load_jsonl  # noqa: E402
from requirements import require  # noqa: E402

TARGETS = {"humanevalfix": 0.05, "debugbench": 0.10}
MARGINS = [k / 4 for k in range(161)] + [math.inf]
FLOORS = [k / 2 for k in range(81)] + [math.inf]


def bound(pairs: list[dict], target: float) -> dict:
    from clean_kinds import MEASURES, dev_figures
    best = {"top3": 0.0, "fixed_flagged": 0.0}
    for measure in MEASURES:
        for margin in MARGINS:
            for floor in FLOORS:
                f = dev_figures(pairs, measure, margin, floor)
                if f["fixed_flagged"] <= target and f["top3"] > best["top3"]:
                    best = {"top3": f["top3"], "fixed_flagged": f["fixed_flagged"], "measure": measure,
                            "margin": margin, "repair_floor": floor}
    return best


def gates(rows: list[dict]) -> dict:
    """Real one-line fixes refused by not_a_repair, by reason."""
    from jupyter_codecheck.core.repairs import not_a_repair
    n, refused = 0, collections.Counter()
    for r in rows:
        buggy, fixed = r["buggy"].split("\n"), r["fixed"].split("\n")
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, buggy, fixed).get_opcodes():
            if tag != "replace" or i2 - i1 != 1 or j2 - j1 != 1:
                continue
            n += 1
            data = r["buggy"].encode()
            start = sum(len(x.encode()) + 1 for x in buggy[:i1])
            body = buggy[i1].encode()
            why = not_a_repair(data, start + len(body) - len(body.lstrip()), start + len(body),
                               fixed[j1].strip().encode())
            if why:
                refused[why] += 1
    return {"one_line_fixes": n, "refused": sum(refused.values()), "by_reason": dict(refused)}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("reports", nargs="+", help="bench/quality.py report folders run at margin 0")
    ap.add_argument("--data", default=str(BENCH), help="folder of humanevalfix.jsonl and debugbench.jsonl")
    args = ap.parse_args(argv)
    data = Path(args.data)
    require("bench/repair_bounds.py", paths=[*(Path(d) / "pairs.jsonl" for d in args.reports),
                                             data / "humanevalfix.jsonl", data / "debugbench.jsonl"])
    from quality_data import MULTI, SYNTAX
    out = {"bound": {}, "gates": {}}
    for d in args.reports:
        pairs = load_jsonl(Path(d) / "pairs.jsonl", 0)
        for ds in dict.fromkeys(p["dataset"] for p in pairs):
            b = bound([p for p in pairs if p["dataset"] == ds], TARGETS.get(ds, 0.05))
            out["bound"][f"{Path(d).name}:{ds}"] = b
            print(f"{Path(d).name} {ds}: at most {b['top3']:.1%} top-3 at {b['fixed_flagged']:.1%} flagged "
                  f"({b.get('measure')} {b.get('margin')}, repairs from {b.get('repair_floor')})")
    logic = [r for r in load_jsonl(data / "debugbench.jsonl", 0) if r.get("bug_type") not in SYNTAX | MULTI]
    for ds, rows in (("humanevalfix", load_jsonl(data / "humanevalfix.jsonl", 0)), ("debugbench logic", logic)):
        g = out["gates"][ds] = gates(rows)
        print(f"{ds}: not_a_repair refuses {g['refused']} of {g['one_line_fixes']} one-line fixes {g['by_reason']}")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
