"""A minimal GGUF writer for handcrafted test models (valid and deliberately broken).

Writes the container byte by byte (no dependency on the `gguf` package) so a test can place any
field, count, shape, type or offset where it wants.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field

import numpy as np

GGML_F32 = 0
GGUF_UINT32, GGUF_INT32, GGUF_FLOAT32, GGUF_STRING, GGUF_ARRAY, GGUF_UINT64 = 4, 5, 6, 8, 9, 10


def _str(s: str | bytes) -> bytes:
    b = s.encode() if isinstance(s, str) else s
    return struct.pack("<Q", len(b)) + b


@dataclass
class Tensor:
    name: str
    data: np.ndarray            # float32; ggml shape is the reverse of numpy's
    type: int = GGML_F32
    shape: tuple | None = None  # ggml order (ne0, ne1, ...); default from data
    offset: int | None = None   # relative to the data section; default: packed, aligned


@dataclass
class GGUF:
    kv: list = field(default_factory=list)        # (key, type, value)
    tensors: list = field(default_factory=list)
    magic: bytes = b"GGUF"
    version: int = 3
    n_tensors: int | None = None                  # override the count written in the header
    n_kv: int | None = None
    alignment: int = 32

    def add(self, key, type_, value):
        self.kv.append((key, type_, value))
        return self

    def to_bytes(self) -> bytes:
        out = bytearray(self.magic + struct.pack("<I", self.version))
        out += struct.pack("<QQ", len(self.tensors) if self.n_tensors is None else self.n_tensors,
                           len(self.kv) if self.n_kv is None else self.n_kv)
        for key, t, v in self.kv:
            out += _str(key) + struct.pack("<I", t)
            if t == GGUF_STRING:
                out += _str(v)
            elif t == GGUF_UINT32:
                out += struct.pack("<I", v)
            elif t == GGUF_INT32:
                out += struct.pack("<i", v)
            elif t == GGUF_UINT64:
                out += struct.pack("<Q", v)
            elif t == GGUF_FLOAT32:
                out += struct.pack("<f", v)
            elif t == GGUF_ARRAY:
                elem_type, items = v
                out += struct.pack("<IQ", elem_type, len(items))
                for it in items:
                    out += _str(it) if elem_type == GGUF_STRING else struct.pack("<i", it)
            else:
                raise ValueError(t)
        offsets, pos = [], 0
        for t in self.tensors:
            pos = (pos + self.alignment - 1) // self.alignment * self.alignment
            offsets.append(pos if t.offset is None else t.offset)
            pos += t.data.nbytes
        for t, off in zip(self.tensors, offsets):
            shape = t.shape or tuple(reversed(t.data.shape))
            out += _str(t.name) + struct.pack("<I", len(shape))
            out += b"".join(struct.pack("<Q", d) for d in shape)
            out += struct.pack("<IQ", t.type, off)
        data_start = (len(out) + self.alignment - 1) // self.alignment * self.alignment
        out += b"\0" * (data_start - len(out))
        # tensors placed by hand (offset given) are not written: their offset may be absurd on purpose
        blob = bytearray(max([o + t.data.nbytes for t, o in zip(self.tensors, offsets) if t.offset is None], default=0))
        for t, off in zip(self.tensors, offsets):
            if t.offset is None:
                blob[off:off + t.data.nbytes] = t.data.astype(np.float32).tobytes()
        return bytes(out + blob)


def tiny_model(arch: str = "llama", *, n_layer=2, n_embd=64, n_head=4, n_head_kv=2, n_ff=128,
               n_vocab=100, seed=0) -> GGUF:
    """A small random model of the given architecture, valid in every respect."""
    rng = np.random.default_rng(seed)
    g = GGUF()
    g.add("general.architecture", GGUF_STRING, arch)
    g.add("general.name", GGUF_STRING, f"tiny-{arch}")
    for k, v in [("block_count", n_layer), ("embedding_length", n_embd), ("context_length", 256),
                 ("feed_forward_length", n_ff), ("attention.head_count", n_head),
                 ("attention.head_count_kv", n_head_kv)]:
        g.add(f"{arch}.{k}", GGUF_UINT32, v)
    g.add(f"{arch}.attention.layer_norm_rms_epsilon", GGUF_FLOAT32, 1e-5)
    g.add(f"{arch}.rope.freq_base", GGUF_FLOAT32, 10000.0)
    g.add("tokenizer.ggml.tokens", GGUF_ARRAY, (GGUF_STRING, [f"t{i}" for i in range(n_vocab)]))
    kv = n_embd // n_head * n_head_kv

    def w(*shape):  # numpy shape (out, in) == ggml (in, out)
        return (rng.standard_normal(shape) * 0.1).astype(np.float32)

    g.tensors.append(Tensor("token_embd.weight", w(n_vocab, n_embd)))
    g.tensors.append(Tensor("output_norm.weight", np.ones(n_embd, np.float32)))
    for il in range(n_layer):
        p = f"blk.{il}."
        g.tensors += [Tensor(p + "attn_norm.weight", np.ones(n_embd, np.float32)),
                      Tensor(p + "attn_q.weight", w(n_embd, n_embd)),
                      Tensor(p + "attn_k.weight", w(kv, n_embd)),
                      Tensor(p + "attn_v.weight", w(kv, n_embd)),
                      Tensor(p + "attn_output.weight", w(n_embd, n_embd)),
                      Tensor(p + "ffn_norm.weight", np.ones(n_embd, np.float32)),
                      Tensor(p + "ffn_gate.weight", w(n_ff, n_embd)),
                      Tensor(p + "ffn_up.weight", w(n_ff, n_embd)),
                      Tensor(p + "ffn_down.weight", w(n_embd, n_ff))]
        if arch == "qwen2":
            g.tensors += [Tensor(p + "attn_q.bias", w(n_embd)), Tensor(p + "attn_k.bias", w(kv)),
                          Tensor(p + "attn_v.bias", w(kv))]
    return g
