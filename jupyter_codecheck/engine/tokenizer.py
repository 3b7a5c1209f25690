"""llama.cpp's own tokenizer, with byte spans that map every token back onto the source.

We use the tokenizer of the inference engine itself (not a Python re-implementation) so that the
ids we score are exactly the ids the model sees. Only the vocabulary is loaded (no weight memory),
by our engine library (native/src/vocab.cpp), so a new process need not import llama_cpp.

Spans are byte offsets because byte-level BPE may split a multibyte UTF-8 character across two
tokens; character offsets cannot express such a boundary.
"""
from __future__ import annotations

import bisect
import codecs
import ctypes
import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Iterable

from ._native import lib as _lib
from .owned import Owned


@dataclass(frozen=True)
class Encoding:
    """Token ids with the byte span `data[starts[i]:ends[i]]` each one covers."""

    ids: list[int]
    starts: list[int]
    ends: list[int]
    data: bytes

    def __len__(self) -> int:
        return len(self.ids)

    def text_of(self, i: int) -> str:
        """Source text of token i; a split multibyte character shows up as U+FFFD."""
        return self.data[self.starts[i]:self.ends[i]].decode("utf-8", errors="replace")

    @cached_property
    def _line_starts(self) -> list[int]:
        starts = [0]
        pos = self.data.find(b"\n")
        while pos != -1:
            starts.append(pos + 1)
            pos = self.data.find(b"\n", pos + 1)
        return starts

    def line_col(self, i: int) -> tuple[int, int]:
        """1-based line and 0-based character column where token i starts.

        A token starting inside a multibyte character reports that character's column.
        """
        start = self.starts[i]
        line = bisect.bisect_right(self._line_starts, start)
        prefix = self.data[self._line_starts[line - 1]:start]
        # Counting UTF-8 lead bytes counts characters without decoding partial sequences.
        col = sum(1 for b in prefix if b & 0xC0 != 0x80)
        if start < len(self.data) and self.data[start] & 0xC0 == 0x80:
            col -= 1
        return line, col


class Tokenizer(Owned):
    """Vocabulary-only llama.cpp model: encode/decode with exact byte spans."""

    def __init__(self, model_path: str | Path):
        path = Path(model_path)
        if not path.is_file():
            raise FileNotFoundError(f"model file not found: {path}")
        self._model = _lib.cc_vocab_load(os.fsencode(path))
        if not self._model:
            self._model = None
            raise ValueError(f"llama.cpp could not load a vocabulary from {path}")
        self._vocab = _lib.llama_model_get_vocab(self._model)
        self.model_path = path
        self.n_vocab: int = _lib.llama_vocab_n_tokens(self._vocab)
        self.bos_id: int = _lib.llama_vocab_bos(self._vocab)
        self.eos_id: int = _lib.llama_vocab_eos(self._vocab)
        self.add_bos: bool = bool(_lib.llama_vocab_get_add_bos(self._vocab))
        self._pieces: list[bytes | None] | None = None

    # -- lifetime ---------------------------------------------------------------------------

    def close(self) -> None:
        model, self._model = getattr(self, "_model", None), None
        self._vocab = None
        # at interpreter shutdown the module's globals may already be torn down
        if model is not None and _lib is not None:
            _lib.cc_vocab_free(model)

    def _live_vocab(self):
        if self._model is None:
            raise ValueError("tokenizer is closed")
        return self._vocab

    def _check_id(self, token_id: int) -> int:
        # llama.cpp indexes its token table with .at(): a bad id would abort the process.
        if not 0 <= token_id < self.n_vocab:
            raise IndexError(f"token id {token_id} out of range [0, {self.n_vocab})")
        return token_id

    # -- vocabulary -------------------------------------------------------------------------

    def is_eog(self, token_id: int) -> bool:
        return bool(_lib.llama_vocab_is_eog(self._live_vocab(), self._check_id(token_id)))

    def is_control(self, token_id: int) -> bool:
        return bool(_lib.llama_vocab_is_control(self._live_vocab(), self._check_id(token_id)))

    def _piece_uncached(self, vocab, token_id: int, buf) -> bytes:
        n = _lib.llama_token_to_piece(vocab, token_id, buf, len(buf), 0, True)
        if n < 0:  # buffer too small; -n is the size needed
            buf = ctypes.create_string_buffer(-n)
            n = _lib.llama_token_to_piece(vocab, token_id, buf, len(buf), 0, True)
        return buf.raw[:n]

    def piece(self, token_id: int) -> bytes:
        """Raw bytes of a token; special tokens render as their text (b"<|im_end|>")."""
        self._check_id(token_id)
        if self._pieces is None:
            self._pieces = [None] * self.n_vocab
        piece = self._pieces[token_id]
        if piece is None:      # filled on demand: a new process reads a few dozen, not the vocabulary
            piece = self._pieces[token_id] = self._piece_uncached(self._live_vocab(), token_id,
                                                                  ctypes.create_string_buffer(256))
        return piece

    # -- text <-> ids -----------------------------------------------------------------------

    def _tokenize(self, data: bytes, parse_special: bool) -> list[int]:
        vocab = self._live_vocab()
        # Every non-special token covers at least one byte, so this is nearly always enough.
        cap = len(data) + 8
        for _ in range(2):
            tokens = (ctypes.c_int32 * cap)()
            n = _lib.llama_tokenize(vocab, data, len(data), tokens, cap, False, parse_special)
            if n >= 0:
                return list(tokens[:n])
            cap = -n
        raise RuntimeError("llama_tokenize kept asking for a larger buffer")

    def encode(self, source: str, *, add_bos: bool = False,
               parse_special: bool = False) -> Encoding:
        """Tokenize `source`; raise ValueError if the pieces do not reproduce it byte for byte.

        BOS is prepended here rather than via llama.cpp's `add_special`, so that only what the
        caller asked for is added (no model-configured EOS/SEP) and its span is known: (0, 0).
        """
        data = source.encode("utf-8")
        ids = self._tokenize(data, parse_special)
        starts, ends = [], []
        pos = 0
        for t in ids:
            piece = self.piece(t)
            if data[pos:pos + len(piece)] != piece:
                got = b"".join(self.piece(u) for u in ids)
                bad = next((k for k, (a, b) in enumerate(zip(got, data)) if a != b),
                           min(len(got), len(data)))
                raise ValueError(
                    f"token pieces do not reproduce the source: first mismatch at byte {bad} "
                    f"(source {data[bad:bad + 12]!r}, pieces {got[bad:bad + 12]!r})")
            starts.append(pos)
            pos += len(piece)
            ends.append(pos)
        if pos != len(data):
            raise ValueError(f"token pieces do not reproduce the source: they stop at byte {pos} "
                             f"of {len(data)}")
        if add_bos:
            if self.bos_id < 0:
                raise ValueError("this vocabulary has no BOS token")
            ids, starts, ends = [self.bos_id, *ids], [0, *starts], [0, *ends]
        return Encoding(ids=ids, starts=starts, ends=ends, data=data)

    def decode(self, ids: Iterable[int]) -> str:
        return b"".join(self.piece(t) for t in ids).decode("utf-8", errors="replace")


class Utf8Stream:
    """Turn a stream of token bytes into text without ever emitting half a character."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def push(self, token_bytes: bytes) -> str:
        return self._decoder.decode(token_bytes, final=False)

    def flush(self) -> str:
        """The buffered remainder (U+FFFD for an incomplete sequence); the stream is reusable."""
        rest = self._decoder.decode(b"", final=True)
        self._decoder.reset()
        return rest
