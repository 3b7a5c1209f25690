"""Shared fixtures: the real default model (loaded once), real Python code, llama.cpp reference."""
from __future__ import annotations

import inspect
import json.decoder

import pytest

from jupyter_codecheck.engine.paths import ModelNotFoundError, default_model_path


def _default_path():
    try:
        return default_model_path()
    except ModelNotFoundError as e:
        pytest.skip(str(e))


@pytest.fixture(scope="session")
def model_path():
    return _default_path()


@pytest.fixture(scope="session")
def model(model_path):
    from jupyter_codecheck.engine import Model
    return Model(model_path)


@pytest.fixture(scope="session")
def code_tokens(model):
    """~300 tokens of real Python (the standard library's JSON decoder)."""
    ids = model.tokenizer.encode(inspect.getsource(json.decoder)).ids
    assert len(ids) > 300
    return ids[:300]


@pytest.fixture(scope="session")
def reference(model_path):
    """llama.cpp on the same GGUF (low-level API), 1 thread for determinism."""
    from jupyter_codecheck.engine.llamacpp import LlamaCppModel
    ref = LlamaCppModel(model_path, n_threads=1, n_ctx=1024)
    yield ref
    ref.close()
