"""The batch copies of the layer matrices kept on disk between processes (a new process's set-up).

A new process maps the file instead of converting the matrices; the numbers must be the very
ones a conversion gives, and a stale or damaged file must be rebuilt, never trusted or crashed on.
"""
from __future__ import annotations

import os

import numpy as np
import pytest

from jupyter_codecheck.engine import Model
from jupyter_codecheck.engine.session import FAST


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path / "jupyter-codecheck" / "weights"


def _score(path, tokens):
    """(where the copies came from, every row's logits) in a model of its own; the model is
    closed on return, which waits for the cache file's writer."""
    with Model(path) as m:
        s = m.session(n_threads=1, **FAST)
        s.forward(tokens)
        logits = s.head(np.arange(len(tokens)), top_k=1, logits=True).logits.copy()
        return m.batch_weights_source("f16"), logits


def _only_file(folder):
    files = list(folder.glob("*.bin"))
    assert len(files) == 1, files
    return files[0]


def test_a_new_process_maps_the_copies_and_scores_the_same(model_path, code_tokens, cache_home):
    tokens = code_tokens[:64]
    source, converted = _score(model_path, tokens)
    assert source == "converted"
    assert not list(cache_home.glob("*.tmp"))
    f = _only_file(cache_home)
    assert f.stat().st_size > 100 << 20                       # two bytes a weight
    source, mapped = _score(model_path, tokens)
    assert source == "cached"
    assert np.array_equal(mapped, converted)                 # bit for bit


def _flip(f, offset):
    with open(f, "r+b") as fh:
        fh.seek(offset)
        b = fh.read(1)
        fh.seek(offset)
        fh.write(bytes([b[0] ^ 0x40]))


@pytest.mark.parametrize("damage", ["payload byte", "header", "layout", "truncated", "empty", "garbage"])
def test_a_damaged_file_is_rebuilt(model_path, code_tokens, cache_home, damage):
    tokens = code_tokens[:32]
    _, want = _score(model_path, tokens)
    f = _only_file(cache_home)
    size = f.stat().st_size
    if damage == "payload byte":
        _flip(f, size - 12345)
    elif damage == "header":
        _flip(f, 17)                                         # the model file's size
    elif damage == "layout":
        _flip(f, 200)                                        # a matrix's shape or offset
    elif damage == "truncated":
        os.truncate(f, size - 4096)
    elif damage == "empty":
        os.truncate(f, 0)
    else:
        f.write_bytes(os.urandom(1 << 16))
    source, got = _score(model_path, tokens)
    assert source == "converted"
    assert np.array_equal(got, want)
    assert _only_file(cache_home).stat().st_size == size     # written again, whole
    assert _score(model_path, tokens)[0] == "cached"


def test_a_changed_model_file_gets_new_copies_and_the_old_ones_go(model_path, code_tokens, cache_home, tmp_path):
    tokens = code_tokens[:16]
    copy = tmp_path / "model.gguf"
    copy.write_bytes(model_path.read_bytes())
    assert _score(copy, tokens)[0] == "converted"
    first = _only_file(cache_home)
    st = copy.stat()
    os.utime(copy, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))    # the file was replaced
    assert _score(copy, tokens)[0] == "converted"
    assert _only_file(cache_home) != first
    assert _score(copy, tokens)[0] == "cached"


def test_no_cache_folder_only_costs_the_conversion(model_path, code_tokens, tmp_path, monkeypatch):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")                               # the cache folder cannot be made
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    for _ in range(2):
        assert _score(model_path, code_tokens[:8])[0] == "converted"


def test_sessions_without_the_cache_convert(model_path, cache_home):
    with Model(model_path) as m:
        m.session(n_threads=1, batch_cache=False, **FAST)
        assert m.batch_weights_source("f16") == "converted"
    assert not cache_home.exists() or not list(cache_home.iterdir())


def test_each_engine_library_keeps_its_own_file(model_path, cache_home, tmp_path):
    from jupyter_codecheck.engine.derived import batch_weights_file
    libs = [tmp_path / "a" / "libcodecheck.so", tmp_path / "b" / "libcodecheck.so"]
    for lib in libs:
        lib.parent.mkdir()
        lib.write_bytes(b"engine")
    files = [batch_weights_file(model_path, "f16", lib) for lib in libs]
    for f in files:
        f.write_bytes(b"copies")
    assert files[0] != files[1]
    assert [batch_weights_file(model_path, "f16", lib) for lib in libs] == files
    assert all(f.exists() for f in files)                    # neither removed the other's
    st = libs[0].stat()
    os.utime(libs[0], ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))   # library a rebuilt
    rebuilt = batch_weights_file(model_path, "f16", libs[0])
    assert rebuilt != files[0] and not files[0].exists() and files[1].exists()
