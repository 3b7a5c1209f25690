"""Candidate tokens for the cheap exit test: the tokens most frequent in real Python code.

The exit test wants the reference token's probability and rank without the full output head
(49k rows for SmolLM2: ~8 layers of work). Scoring a shortlist of frequent code tokens plus the
reference token costs ~2 % of that. Probabilities over the shortlist are an upper bound and ranks a
lower bound of the true ones; how far they are off is measured in bench/engine.py and the tests.

The counts come from the Python standard library's own sources, present on every machine.
"""
from __future__ import annotations

import functools
import importlib
import inspect

import numpy as np

from .derived import on_disk

CORPUS_MODULES = (
    "argparse", "ast", "collections", "csv", "dataclasses", "difflib", "email.message",
    "functools", "heapq", "inspect", "json.decoder", "json.encoder", "logging", "pathlib",
    "random", "shutil", "statistics", "string", "textwrap", "typing", "unittest.case", "zipfile",
)


@functools.lru_cache(maxsize=8)
def _counts(model_path: str, n_vocab: int, source) -> np.ndarray:
    # a Model's tokenizer is only wanted when the counts are not on disk yet
    return on_disk(model_path, "shortlist-counts", lambda: _count(n_vocab, getattr(source, "tokenizer", source)),
                   source=_count)


def _count(n_vocab: int, tokenizer) -> np.ndarray:
    counts = np.zeros(n_vocab, dtype=np.int64)
    for name in CORPUS_MODULES:
        try:
            source = inspect.getsource(importlib.import_module(name))
        except (ImportError, OSError, TypeError):
            continue  # a trimmed Python install: use what is there
        ids = np.asarray(tokenizer.encode(source).ids, dtype=np.int64)
        counts += np.bincount(ids, minlength=n_vocab)
    return counts


def code_shortlist(tokenizer, size: int = 1024) -> np.ndarray:
    """The `size` most frequent token ids in the standard library's Python sources. `tokenizer`:
    a Tokenizer, or a Model (whose tokenizer may then still be loading)."""
    path = tokenizer.path if hasattr(tokenizer, "tokenizer") else tokenizer.model_path
    counts = _counts(str(path), tokenizer.n_vocab, tokenizer)
    order = np.argsort(-counts, kind="stable")
    return order[:size].astype(np.int32)
