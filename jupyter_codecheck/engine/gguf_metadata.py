"""The key/value section of a GGUF file, read in Python: what the tokenizer is built from.

Only the metadata is read (the tensors are the engine's, native/src/gguf_reader.cpp), so a
tokenizer needs no native library. The format: magic "GGUF", version, tensor and key counts,
then each key as a string, a type and a value (ggml's gguf.h).
"""
from __future__ import annotations

import mmap
import struct
from pathlib import Path

from .errors import MetadataError

# gguf.h's value types: id -> struct format of one element (strings and arrays are read apart)
_SCALARS = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}
_STRING, _ARRAY = 8, 9


class GGUFMetadataError(MetadataError):
    """The file is no GGUF, or its key/value section is cut short or malformed (a GGUFError, as
    the engine's own reading of the file raises)."""


class _Cursor:
    def __init__(self, data, path: Path):
        self.data, self.pos, self.path = data, 0, path

    def take(self, n: int):
        end = self.pos + n
        if n < 0 or end > len(self.data):
            raise GGUFMetadataError(f"{self.path}: the metadata ends early (at byte {self.pos}, "
                                    f"{n} more bytes wanted)")
        view, self.pos = self.data[self.pos:end], end
        return view

    def scalar(self, fmt: str):
        return struct.unpack("<" + fmt, self.take(struct.calcsize(fmt)))[0]

    def string(self) -> str:
        raw = bytes(self.take(self.scalar("Q")))
        # a vocabulary may hold pieces that are not valid UTF-8 (byte tokens); keep them lossless
        return raw.decode("utf-8", "surrogateescape")

    def strings(self, n: int) -> list[str]:
        # a vocabulary is 50k-150k strings: one tight loop (a tokenizer's load time is mostly this)
        data, pos, size, length = self.data, self.pos, len(self.data), struct.Struct("<Q").unpack_from
        out = []
        for _ in range(n):
            if pos + 8 > size:
                break
            (k,) = length(data, pos)
            if pos + 8 + k > size:
                break
            out.append(str(data[pos + 8:pos + 8 + k], "utf-8", "surrogateescape"))
            pos += 8 + k
        self.pos = pos
        if len(out) != n:
            self.take(8 if pos + 8 > size else 8 + length(data, pos)[0])     # raises: cut short
        return out

    def value(self, kind: int):
        if kind == _STRING:
            return self.string()
        if kind == _ARRAY:
            elem, n = self.scalar("I"), self.scalar("Q")
            if elem == _STRING:
                return self.strings(n)
            if elem not in _SCALARS:
                raise GGUFMetadataError(f"{self.path}: array of unknown type {elem} at byte {self.pos}")
            fmt = _SCALARS[elem]
            return list(struct.unpack(f"<{n}{fmt}", self.take(n * struct.calcsize(fmt))))
        if kind not in _SCALARS:
            raise GGUFMetadataError(f"{self.path}: value of unknown type {kind} at byte {self.pos}")
        return self.scalar(_SCALARS[kind])


def read_metadata(path: str | Path) -> dict[str, object]:
    """Every key of the GGUF at `path` with its value (arrays as lists)."""
    path = Path(path)
    with open(path, "rb") as f:
        try:
            mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except ValueError as exc:       # an empty file cannot be mapped
            raise GGUFMetadataError(f"{path}: not a GGUF file (empty)") from exc
    with mapped, memoryview(mapped) as data:
        cur = _Cursor(data, path)
        if len(data) < 24 or bytes(cur.take(4)) != b"GGUF":
            raise GGUFMetadataError(f"{path}: not a GGUF file (no GGUF magic)")
        version = cur.scalar("I")
        if version not in (2, 3):
            raise GGUFMetadataError(f"{path}: GGUF version {version} is not supported (2 or 3)")
        cur.take(8)                     # the tensor count: the tensors are the engine's
        n_kv = cur.scalar("Q")
        out: dict[str, object] = {}
        for _ in range(n_kv):
            key = cur.string()
            out[key] = cur.value(cur.scalar("I"))
        del cur
        return out
