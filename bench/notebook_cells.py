"""Real notebook cells for the reliability benchmarks: the short code cells of a data path, each
with the code cell before it as context."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

MAX_LINES, MAX_CHARS = 12, 600      # short cells: a few hundred checks in a few minutes


@dataclass(frozen=True)
class Cell:
    source: str
    context: tuple[str, ...] = ()

    def body(self, **extra) -> bytes:
        return json.dumps({"source": self.source, "context": list(self.context), **extra}).encode()


def _short(text) -> bool:
    return isinstance(text, str) and text.strip() != "" and len(text) <= MAX_CHARS \
        and text.count("\n") < MAX_LINES


def _notebook_cells(path: Path) -> list[str]:
    nb = json.loads(path.read_text(encoding="utf-8"))
    return ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            for c in nb.get("cells", []) if c.get("cell_type") == "code"]


def load_cells(path: Path) -> list[Cell]:
    """The short cells under `path`, each with the code cell before it as context."""
    path = Path(path)
    if path.is_dir():
        files = sorted(p for p in path.rglob("*") if p.suffix in (".ipynb", ".py", ".jsonl")
                       and p.name != "conftest.py")
        return [c for f in files for c in load_cells(f)]
    if path.suffix == ".jsonl":
        cells = []
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            earlier = record.get("earlier_cells") or []
            cells.append(Cell(record["cell"], tuple(earlier[-1:])))
    elif path.suffix == ".ipynb":
        sources = _notebook_cells(path)
        cells = [Cell(s, tuple(sources[i - 1:i])) for i, s in enumerate(sources)]
    else:
        cells = [Cell(path.read_text(encoding="utf-8"))]
    return [c for c in cells if _short(c.source) and all(_short(x) or len(x) <= 4 * MAX_CHARS for x in c.context)]
