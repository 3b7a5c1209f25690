"""Writes the GGUF fuzzer's seed corpus (native/fuzz/corpus/): real headers, small files.

  smollm2-header.gguf   the default model's own header (every key, type and tensor info of
                        SmolLM2-135M Q4_1) with its three tokenizer arrays cut to their first
                        entries and no tensor data: the reader's paths up to the bounds check
  tiny-llama.gguf       tests/gguf_files.py's tiny models, f32, which load and compute
  tiny-qwen2.gguf
  tiny-llama-q4_1.gguf  the tiny llama with SmolLM2's types (Q8_0 embedding, Q4_1 matrices)

and the handcrafted twins of the harness's findings in native/fuzz/regressions/ (the fuzzer's own
minimized inputs sit beside them), each the tiny Q4_1 llama with one defect: every fuzz run
replays them under the sanitizers and the harness's refusal check.

Run: PYTHONPATH=. .venv/bin/python native/fuzz/make_seeds.py [model.gguf]
"""
from __future__ import annotations

import struct
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from gguf_files import GGUF, GGUF_FLOAT32, GGUF_UINT32, GGUF_UINT64, tiny_model  # noqa: E402

OUT = Path(__file__).resolve().parent / "corpus"
REGRESSIONS = Path(__file__).resolve().parent / "regressions"
ARRAY_KEEP = 64  # entries kept of each metadata array
GGML_Q4_1, GGML_Q8_0 = 3, 8
SCALAR_SIZE = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}
TINY = dict(n_layer=2, n_embd=32, n_head=2, n_head_kv=1, n_ff=32, n_vocab=16)


class _Reader:
    def __init__(self, data: bytes):
        self.data, self.pos = data, 0

    def take(self, n: int) -> bytes:
        b = self.data[self.pos:self.pos + n]
        if len(b) != n:
            raise ValueError("the model's header is truncated")
        self.pos += n
        return b

    def unpack(self, fmt: str):
        return struct.unpack("<" + fmt, self.take(struct.calcsize("<" + fmt)))

    def string(self) -> bytes:
        (n,) = self.unpack("Q")
        return struct.pack("<Q", n) + self.take(n)


def smollm2_header(path: Path) -> bytes:
    """The model's header, arrays cut to ARRAY_KEEP entries, padded to the alignment."""
    with open(path, "rb") as f:
        r = _Reader(f.read(4 << 20))  # SmolLM2's header is ~1.8 MB
    magic, version, n_tensors, n_kv = r.take(4), *r.unpack("IQQ")
    out = bytearray(magic + struct.pack("<IQQ", version, n_tensors, n_kv))
    for _ in range(n_kv):
        out += r.string()
        (t,) = r.unpack("I")
        out += struct.pack("<I", t)
        if t == 8:
            out += r.string()
        elif t == 9:
            at, n = r.unpack("IQ")
            items = [r.string() if at == 8 else r.take(SCALAR_SIZE[at]) for _ in range(n)]
            out += struct.pack("<IQ", at, min(n, ARRAY_KEEP)) + b"".join(items[:ARRAY_KEEP])
        else:
            out += r.take(SCALAR_SIZE[t])
    for _ in range(n_tensors):  # name, n_dims, ne[n_dims], type, offset
        out += r.string()
        (n_dims,) = r.unpack("I")
        out += struct.pack("<I", n_dims) + r.take(8 * n_dims + 4 + 8)
    return bytes(out + b"\0" * (-len(out) % 32))


def tiny_quantized() -> GGUF:
    """The tiny llama with the default model's types: zero blocks of the right byte size."""
    g = tiny_model("llama", **TINY)
    for t in g.tensors:
        if t.data.ndim == 2:
            qtype, block_bytes = (GGML_Q8_0, 34) if t.name == "token_embd.weight" else (GGML_Q4_1, 20)
            rows, ne0 = t.data.shape
            t.shape, t.type = (ne0, rows), qtype
            t.data = np.zeros(rows * ne0 // 32 * block_bytes // 4, np.float32)
    return g


def _defect(change) -> bytes:
    g = tiny_quantized()
    change(g)
    return g.to_bytes()


def _set(key, type_, value):
    return lambda g: setattr(g, "kv", [(k, type_, value) if k == key else (k, t, v) for k, t, v in g.kv])


def _rename(old, new):
    return lambda g: setattr(next(t for t in g.tensors if t.name == old), "name", new)


def _shape(old, new, shape):
    def change(g):
        t = next(t for t in g.tensors if t.name == old)
        t.name, t.shape = new, shape
    return change


# refusals that named no key, tensor, section or offset before the reader's fixes
REGRESSION_CASES = {
    "nul-in-key.gguf": lambda g: g.kv.extend([("\0general.name", GGUF_UINT32, 1)] * 2),  # was "duplicate key ''"
    "nul-in-tensor-name.gguf": lambda g: _shape("output_norm.weight", "\0output_norm", (1, 1, 1, 1, 32))(g),
    "empty-tensor-name.gguf": _rename("output_norm.weight", ""),
    "header-counts-beyond-file.gguf": lambda g: setattr(g, "n_tensors", 1 << 19),
    "hyper-parameter-key.gguf": _set("llama.attention.head_count_kv", GGUF_UINT32, 3),
    "nan-epsilon.gguf": _set("llama.attention.layer_norm_rms_epsilon", GGUF_FLOAT32, float("nan")),
    # accepted before: 2^32 + 2 layers read as 2
    "block-count-beyond-32-bits.gguf": _set("llama.block_count", GGUF_UINT64, (1 << 32) + 2),
}


def main(argv: list[str]) -> None:
    if len(argv) > 1:
        model = Path(argv[1])
    else:
        from jupyter_codecheck.engine.paths import default_model_path
        model = Path(default_model_path())
    OUT.mkdir(exist_ok=True)
    seeds = {
        "smollm2-header.gguf": smollm2_header(model),
        "tiny-llama.gguf": tiny_model("llama", **TINY).to_bytes(),
        "tiny-qwen2.gguf": tiny_model("qwen2", **TINY).to_bytes(),
        "tiny-llama-q4_1.gguf": tiny_quantized().to_bytes(),
    }
    for name, data in seeds.items():
        (OUT / name).write_bytes(data)
        print(f"{name}: {len(data)} bytes")
    for name, change in REGRESSION_CASES.items():
        (REGRESSIONS / name).write_bytes(_defect(change))
        print(f"regressions/{name}")


if __name__ == "__main__":
    main(sys.argv)
