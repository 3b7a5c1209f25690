"""Tables derived from a model's vocabulary, kept on disk between processes.

Scanning the vocabulary (token classes, longer tokens for healing) and counting the shortlist's
tokens takes about a second in every new kernel; the results depend only on the model file and
the code that makes them, so both are in the key.
"""
from __future__ import annotations

import hashlib
import inspect
import os
import pickle
import sys
from pathlib import Path
from typing import Callable, TypeVar

from .lens import default_cache_dir

T = TypeVar("T")


def _key(model_path: str | os.PathLike, make: Callable) -> str:
    st = os.stat(model_path)
    try:
        code = inspect.getsource(make)
    except (OSError, TypeError):
        code = getattr(make, "__qualname__", repr(make))
    h = hashlib.sha256(f"{os.path.realpath(model_path)}\0{st.st_size}\0{st.st_mtime_ns}\0{code}\0"
                       f"{sys.version_info[:2]}".encode())
    return h.hexdigest()[:16]


def on_disk(model_path: str | os.PathLike, name: str, make: Callable[[], T], *,
            source: Callable | None = None) -> T:
    """`make()`, or what it returned for this model file and code before. `source`: the function
    whose code the value depends on (default: `make`)."""
    path = default_cache_dir() / "derived" / f"{name}-{_key(model_path, source or make)}.pickle"
    try:
        with open(path, "rb") as f:
            return pickle.load(f)          # our own cache folder, written below
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ValueError):
        pass
    value = make()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(f"{path}.{os.getpid()}.tmp")
        with open(tmp, "wb") as f:
            pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
        tmp.replace(path)
    except OSError:
        pass    # a read-only cache folder: computed again next time
    return value
