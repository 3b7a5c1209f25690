"""The evidence margin the DebugBench "calib" half asks for with the checker as it is now.

    python bench/margin_calib.py [--target 0.15] [--limit 200] [--model NAME]

Checks the distinct correct solutions of the first `--limit` logic-bug pairs of the calib half
once each, at margin 0 with LeetCode's definitions as an earlier cell (as bench/quality.py reads
DebugBench), and prints the smallest margin that leaves at most `--target` of them flagged
(`tools/calibrate.choose_margin`) beside the shipped one. The report half is never read. The last
line is one JSON object with the figures.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import quality  # noqa: E402  (the datasets and their preludes)

from jupyter_codecheck.core.adapter import load_model  # noqa: E402
from jupyter_codecheck.core.calibration import shipped, shipped_margin  # noqa: E402
from jupyter_codecheck.core.check import check  # noqa: E402
from jupyter_codecheck.core.evidence import EvidenceConfig  # noqa: E402
from jupyter_codecheck.tools.calibrate import choose_margin, file_gain  # noqa: E402


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--target", type=float, default=0.15)
    ap.add_argument("--limit", type=int, default=200)
    ap.add_argument("--model", default=None, help="a short name or GGUF path (default: the default model)")
    args = ap.parse_args(argv)
    ns = argparse.Namespace(dataset=["debugbench"], categories="logic", debugbench_split="calib",
                            limit={"debugbench": args.limit}, no_prelude=False)
    seen, jobs = set(), []
    for p in quality.load_pairs(ns):
        if p["fixed"] not in seen:
            seen.add(p["fixed"])
            jobs.append((p["fixed"], p["context"]))
    names = sorted(quality.leetcode_names())      # what LeetCode's judge defines, as quality.py
    t0 = time.perf_counter()
    results = []
    for k, (src, ctx) in enumerate(jobs):
        load_model(args.model).forget()
        results.append(check(src, context=ctx, margin=0.0, model=args.model, namespace=names))
        if (k + 1) % 20 == 0:
            print(f"[{k + 1}/{len(jobs)}] {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    m = choose_margin(results, args.target)
    margin_now = shipped(shipped_margin, args.model, EvidenceConfig.margin)
    at_shipped = sum(file_gain(r) >= margin_now for r in results) / len(results)
    print(f"{len(jobs)} correct files of the calib half: margin {m.margin} nats leaves "
          f"{m.achieved_false_alarm:.1%} flagged ({m.files_with_errors} with errors); the shipped "
          f"{margin_now} nats leaves {at_shipped:.1%}")
    print(json.dumps({"model": args.model or "default", "files": len(jobs), "target": args.target, "margin": m.margin,
                      "flagged_at_margin": round(m.achieved_false_alarm, 4),
                      "files_with_errors": m.files_with_errors, "shipped_margin": margin_now,
                      "flagged_at_shipped": round(at_shipped, 4)}))


if __name__ == "__main__":
    main()
