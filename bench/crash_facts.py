"""The kernel facts alone on the notebook crash cases: which crashing cells get an exact fact,
and which fixed ones do (a false alarm), with the stand-in namespaces of bench/notebook_crashes.py
and no model. A quick look while adding a fact kind; the figures of record come from
notebook_crashes.py, which adds Python's own checks and the model.

    python bench/crash_facts.py ../shared/benchmarks/notebook_crashes.jsonl

Prints each side that has a fact, then one JSON line of the counts.
"""
from __future__ import annotations

import argparse
import json
import sys
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from notebook_standins import build_namespace  # noqa: E402
from requirements import NOTEBOOK_LIBRARIES, require  # noqa: E402

from jupyter_codecheck.facts import kernel_facts  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", type=Path, help="notebook_crashes.jsonl")
    args = ap.parse_args(argv)
    require("bench/crash_facts.py", packages=NOTEBOOK_LIBRARIES, paths=[args.data])
    warnings.simplefilter("ignore")
    counts = {"cases": 0, "buggy_with_fact": 0, "fixed_with_fact": 0}
    kinds: dict[str, int] = {}
    for line in args.data.read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        counts["cases"] += 1
        for side in ("buggy", "fixed"):
            s = case[side]
            standins = build_namespace(s["earlier"], s["target"], s.get("runtime") or {})
            facts = kernel_facts(s["target"], standins.namespace)
            if not facts:
                continue
            counts[f"{side}_with_fact"] += 1
            for f in facts:
                kinds[f.kind] = kinds.get(f.kind, 0) + 1
                print(f"{case['id']} {side} line {f.line}: {f.kind}: {f.message}")
    print(json.dumps({**counts, "facts_by_kind": kinds}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
