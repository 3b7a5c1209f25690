"""Broken model files: each must raise a specific Python exception naming the problem, never crash.

Run once more under AddressSanitizer with `make asan`.
"""
from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

from gguf_files import GGUF_FLOAT32, GGUF_STRING, GGUF_UINT32, GGUF_UINT64, Tensor, tiny_model
from jupyter_codecheck.engine import Model, errors


def _write(tmp_path, data: bytes, name="model.gguf"):
    p = tmp_path / name
    p.write_bytes(data)
    return p


def _valid() -> bytes:
    return tiny_model().to_bytes()


def _with(mutate):
    g = tiny_model()
    mutate(g)
    return g.to_bytes()


def _set_kv(g, key, type_, value):
    g.kv = [(k, t, v) if k != key else (k, type_, value) for k, t, v in g.kv]


def _tensor(g, name) -> Tensor:
    return next(t for t in g.tensors if t.name == name)


CASES = {
    "empty file": (lambda: b"", errors.EmptyFileError, "empty"),
    "wrong magic": (lambda: b"GGML" + _valid()[4:], errors.BadMagicError, "magic"),
    "text file": (lambda: b"print('hello')\n" * 10, errors.BadMagicError, "not a GGUF"),
    "version 1": (lambda: _valid()[:4] + struct.pack("<I", 1) + _valid()[8:], errors.UnsupportedVersionError, "version"),
    "truncated header": (lambda: _valid()[:10], errors.TruncatedFileError, "truncated"),
    "truncated metadata": (lambda: _valid()[:200], errors.TruncatedFileError, "truncated"),
    "truncated data": (lambda: _valid()[:-5000], errors.TensorOffsetError, "past the end"),
    "absurd tensor count": (lambda: _with(lambda g: setattr(g, "n_tensors", 1 << 40)), errors.TensorInfoError, "tensor count"),
    "absurd metadata count": (lambda: _with(lambda g: setattr(g, "n_kv", 1 << 50)), errors.MetadataError, "metadata count"),
    "absurd shape": (lambda: _with(lambda g: setattr(_tensor(g, "blk.0.attn_q.weight"), "shape", (64, 1 << 62))),
                     errors.TensorInfoError, "absurd shape"),
    "zero dimension": (lambda: _with(lambda g: setattr(_tensor(g, "blk.0.attn_q.weight"), "shape", (64, 0))),
                       errors.TensorInfoError, "absurd shape"),
    "too many dims": (lambda: _with(lambda g: setattr(_tensor(g, "output_norm.weight"), "shape", (1, 1, 1, 1, 64))),
                      errors.TensorInfoError, "dimensions"),
    "unknown tensor type": (lambda: _with(lambda g: setattr(_tensor(g, "output_norm.weight"), "type", 999)),
                            errors.TensorInfoError, "unknown ggml type"),
    "absurd offset": (lambda: _with(lambda g: setattr(_tensor(g, "output_norm.weight"), "offset", 1 << 60)),
                      errors.TensorOffsetError, "past the end"),
    "misaligned offset": (lambda: _with(lambda g: setattr(_tensor(g, "output_norm.weight"), "offset", 3)),
                          errors.TensorOffsetError, "alignment"),
    "overlapping tensors": (lambda: _with(lambda g: setattr(_tensor(g, "output_norm.weight"), "offset", 0)),
                            errors.TensorOffsetError, "overlaps"),
    "unknown architecture": (lambda: _with(lambda g: _set_kv(g, "general.architecture", GGUF_STRING, "mamba9")),
                             errors.UnsupportedArchitectureError, "mamba9"),
    "architecture not a string": (lambda: _with(lambda g: _set_kv(g, "general.architecture", GGUF_UINT32, 7)),
                                  errors.MetadataError, "general.architecture"),
    "missing hyper-parameter": (lambda: _with(lambda g: setattr(g, "kv", [kv for kv in g.kv if kv[0] != "llama.block_count"])),
                                errors.MetadataError, "llama.block_count"),
    "absurd hyper-parameter": (lambda: _with(lambda g: _set_kv(g, "llama.attention.head_count_kv", GGUF_UINT32, 3)),
                               errors.MetadataError, "head_count_kv"),
    "missing tensor": (lambda: _with(lambda g: g.tensors.remove(_tensor(g, "blk.1.ffn_up.weight"))),
                       errors.MissingTensorError, "blk.1.ffn_up.weight"),
    "wrong tensor shape": (lambda: _with(lambda g: setattr(_tensor(g, "blk.0.attn_k.weight"), "data", np.zeros((8, 64), np.float32))),
                           errors.TensorShapeError, "blk.0.attn_k.weight"),
    "duplicate tensor": (lambda: _with(lambda g: g.tensors.append(Tensor("output_norm.weight", np.ones(64, np.float32)))),
                         errors.TensorInfoError, "duplicate"),
    "string length past end": (lambda: _valid()[:24] + struct.pack("<Q", 1 << 40) + _valid()[32:], errors.MetadataError, "absurd"),
    # found by the fuzzer (native/fuzz): names a C string cannot hold, refusals that named nothing
    "NUL in a key": (lambda: _with(lambda g: g.kv.insert(0, ("general.\0name", GGUF_UINT32, 1))), errors.MetadataError,
                     "metadata entry 0: its key has a NUL byte at position 8"),
    "NUL first in a key": (lambda: _with(lambda g: g.kv.extend([("\0general.name", GGUF_UINT32, 1)] * 2)),
                           errors.MetadataError, "its key has a NUL byte at position 0"),
    "NUL in a tensor name": (lambda: _with(lambda g: setattr(_tensor(g, "output_norm.weight"), "name", "output\0norm")),
                             errors.TensorInfoError, "tensor info 1: its name has a NUL byte at position 6"),
    "empty tensor name": (lambda: _with(lambda g: setattr(_tensor(g, "output_norm.weight"), "name", "")),
                          errors.TensorInfoError, "tensor info 1 has an invalid name"),
    "counts beyond the file": (lambda: _with(lambda g: setattr(g, "n_tensors", 1 << 19)), errors.TruncatedFileError,
                               "the header counts 524288 tensors"),
    "hyper-parameter names its key": (lambda: _with(lambda g: _set_kv(g, "llama.attention.head_count_kv", GGUF_UINT32, 3)),
                                      errors.MetadataError, "hyper-parameter 'llama.attention.head_count_kv' = 3"),
    "alignment not a power of two": (lambda: _with(lambda g: g.add("general.alignment", GGUF_UINT32, 24)), errors.MetadataError,
                                     "metadata 'general.alignment' must be a power of two uint32 (has value type 4, value 24)"),
    # found in review: a NaN epsilon was cast to an integer for the message (undefined behaviour)
    "NaN epsilon": (lambda: _with(lambda g: _set_kv(g, "llama.attention.layer_norm_rms_epsilon", GGUF_FLOAT32, float("nan"))),
                    errors.MetadataError, "'llama.attention.layer_norm_rms_epsilon' = nan"),
    # found in review: a 64-bit count was cut to 32 bits (2^32 + 2 layers loaded as 2)
    "count beyond 32 bits": (lambda: _with(lambda g: _set_kv(g, "llama.block_count", GGUF_UINT64, (1 << 32) + 2)),
                             errors.MetadataError, "'llama.block_count' = 4294967298 is out of the 32-bit range"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_broken_file_raises(tmp_path, case):
    make, exc, needle = CASES[case]
    path = _write(tmp_path, make())
    with pytest.raises(exc) as info:
        Model(path)
    assert isinstance(info.value, errors.GGUFError)
    text = f"{info.value} {info.value.key or ''}"
    assert needle.lower() in text.lower(), text


def test_float_metadata_beyond_int64_loads(tmp_path):
    """A float value far outside the int64 range is read as a float only (the fuzzer's first find:
    converting it to an integer was undefined behaviour)."""
    path = _write(tmp_path, _with(lambda g: _set_kv(g, "llama.rope.freq_base", GGUF_FLOAT32, 4.37e24)))
    assert Model(path).info.rope_freq_base == pytest.approx(4.37e24, rel=1e-6)


def test_fuzz_regressions_refused_by_place():
    """The fuzzer's saved findings (native/fuzz/regressions): each loads or is a GGUF error that
    names its key or tensor, or its section and offset (as the harness checks)."""
    found = sorted((Path(__file__).resolve().parents[1] / "native" / "fuzz" / "regressions").glob("*.gguf"))
    assert found
    for path in found:
        try:
            Model(path)
        except errors.GGUFError as e:
            # a name longer than the C error's key buffer (128 bytes) is cut there; the message
            # quotes it whole
            cut = bool(e.key) and len(e.key.encode("utf-8", "replace")) >= 127
            quoted = f"'{e.key}" if cut else f"'{e.key}'"
            assert (quoted in str(e)) if e.key else (e.offset is not None and e.offset >= 0), (path.name, e)


def test_error_carries_offset_and_key(tmp_path):
    path = _write(tmp_path, _with(lambda g: setattr(_tensor(g, "output_norm.weight"), "offset", 1 << 60)))
    with pytest.raises(errors.TensorOffsetError) as info:
        Model(path)
    assert info.value.key == "output_norm.weight"
    assert info.value.offset is not None and info.value.offset > 24


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(FileNotFoundError):
        Model(tmp_path / "nope.gguf")


@pytest.mark.parametrize("arch", ["llama", "qwen2"])
def test_tiny_valid_model_runs(tmp_path, arch):
    """The handcrafted models are valid: both architectures load and evaluate finite logits."""
    model = Model(_write(tmp_path, tiny_model(arch).to_bytes()))
    assert (model.info.arch, model.info.n_layer, model.info.n_vocab) == (arch, 2, 100)
    s = model.session(n_threads=1, n_ctx=64)
    s.forward([1, 5, 7, 9])
    h = s.head([0, 1, 2, 3], [5, 7, 9, 0], top_k=3, logits=True)
    assert np.isfinite(h.logits).all()
    np.testing.assert_allclose(np.exp(h.log_softmax()).sum(1), 1.0, rtol=1e-4)
    assert (h.topk_ids[:, 0] == h.logits.argmax(1)).all()
