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


def cached_checks(jobs: list, run, *, options: dict, directory: Path, fresh: bool, version: str) -> list[dict]:
    """`run(payload, options)` (a check, summed up as a JSON-able dict) for each (key, payload) of
    `jobs`, kept on disk by the options, the model file and `version` (bumped when a check's
    meaning changes: not derived from the source files, which several people edit at once)."""
    import json
    import sys
    import time
    from jupyter_codecheck.core.adapter import load_model
    from jupyter_codecheck.engine.paths import resolve_model_path
    model = resolve_model_path(options.get("model"))
    disk = DiskCache(directory, fresh)
    prefix = json.dumps({"options": options, "model": f"{model.name}:{model.stat().st_size}", "version": version},
                        sort_keys=True, default=str)
    out, t0 = [], time.perf_counter()
    for k, (key, payload) in enumerate(jobs):
        text = disk.get(prefix + "\0" + key)
        if text is None:
            # each check on its own: nothing of the previous check is reused
            load_model(options.get("model"), options.get("n_threads")).forget()
            text = json.dumps(run(payload, options))
            disk.put(prefix + "\0" + key, text)
        out.append(json.loads(text))
        if (k + 1) % 10 == 0 or k + 1 == len(jobs):
            print(f"{model.name}: checks [{k + 1}/{len(jobs)}] {time.perf_counter() - t0:.0f} s",
                  file=sys.stderr, flush=True)
    return out
