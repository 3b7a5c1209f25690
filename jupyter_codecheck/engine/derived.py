"""What a new process would otherwise compute again from the model file, kept on disk.

Scanning the vocabulary (token classes, longer tokens for healing) and counting the shortlist's
tokens would otherwise be redone by every new kernel; the results depend only on the model file
and the code that makes them, so both are in the key. The batch copies of the layer matrices are
written and mapped by the engine itself (`batch_weights_file`).
"""
from __future__ import annotations

import hashlib
import inspect
import os
import pickle
import sys
import time
from pathlib import Path
from typing import Callable, TypeVar

from .paths import default_cache_dir

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


def batch_weights_file(model_path: str | os.PathLike, type_name: str, library: str | os.PathLike) -> Path | None:
    """The file that keeps the model's batch copies of `type_name` (see Session's
    `batch_weights`) between processes, named after the model file's identity and the engine
    library that converts them; the engine checks the file's header, layout and checksum on
    every load and rebuilds a stale or damaged one. Older files of the same model file, library
    file and type are removed (two installed engines, e.g. a development build beside the
    package, keep a file each). None when the cache folder cannot be created."""
    real, real_lib = os.path.realpath(model_path), os.path.realpath(library)
    st, lib = os.stat(real), os.stat(real_lib)
    key = hashlib.sha256(f"{st.st_size}\0{st.st_mtime_ns}\0{lib.st_size}\0{lib.st_mtime_ns}".encode()).hexdigest()[:16]
    place = hashlib.sha256(f"{real}\0{real_lib}".encode()).hexdigest()[:8]
    prefix = f"{Path(real).stem}-{place}-{type_name}-"
    folder = default_cache_dir() / "weights"
    path = folder / f"{prefix}{key}.bin"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    if not path.exists():
        # a changed model file or engine: the older copies can never be read again. A temporary
        # file goes only when old, as a writer in another process may still be filling it.
        for old in folder.glob(f"{prefix}*"):
            try:
                if old.suffix == ".bin" or time.time() - old.stat().st_mtime > 3600:
                    old.unlink()
            except OSError:
                pass
    return path
