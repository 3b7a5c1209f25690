"""What the benchmarks share besides their requirements (requirements.py): where the repository
and the benchmark data are, reading a JSONL data set, and the report's number format.

    from harness import BENCH, ROOT, load_jsonl, normalised, pct
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the benchmark data (../shared/benchmarks/README.md says where each file comes from)
BENCH = ROOT.parent / "shared" / "benchmarks"


def load_jsonl(path: Path, limit: int) -> list[dict]:
    if not path.is_file():
        sys.exit(f"error: {path} not found")
    with open(path, encoding="utf-8") as f:
        rows = [json.loads(x) for x in f if x.strip()]
    return rows[:limit] if limit else rows


def normalised(code: str) -> str:
    return "\n".join(ln.rstrip() for ln in code.split("\n") if ln.strip())


def pct(x) -> str:
    return "–" if x is None else f"{100 * x:.1f} %"
