"""The benchmarks' one disk cache: texts kept by key, so that a re-run checks or lints only what
changed. A key is hashed (SHA-256) into two-character folders; a write goes through a temporary
file, so that an interrupted run leaves no half-written entry; `fresh` reads nothing (writes)."""
from __future__ import annotations

import hashlib
from pathlib import Path


class DiskCache:
    def __init__(self, directory: Path, fresh: bool = False):
        self.dir, self.fresh = Path(directory), fresh

    def path(self, key: str) -> Path:
        k = hashlib.sha256(key.encode()).hexdigest()
        return self.dir / k[:2] / f"{k}.json"

    def get(self, key: str) -> str | None:
        p = self.path(key)
        return p.read_text() if p.is_file() and not self.fresh else None

    def put(self, key: str, text: str) -> None:
        p = self.path(key)
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_suffix(".tmp")
        tmp.write_text(text)
        tmp.replace(p)
