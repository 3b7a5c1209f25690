"""The model's own tokenizer, with byte spans that map every token back onto the source.

The ids must be the ids llama.cpp gives (the model was converted for it, and llama.cpp is the
reference our tests compare against): the vocabulary, merges and pre-tokenizer are read from the
GGUF by llama.cpp's rules (`bpe_vocab`) and run by Hugging Face `tokenizers`, so a tokenizer needs
neither libllama nor a compiler, and `tests/test_tokenizer_reference.py` holds the ids to llama.cpp's.

Spans are byte offsets because byte-level BPE may split a multibyte UTF-8 character across two
tokens; character offsets cannot express such a boundary.
"""
from __future__ import annotations

import bisect
import codecs
import threading
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Iterable

from .bpe_vocab import CONTROL, piece, read_bpe_vocab
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
    """A GGUF's vocabulary: encode/decode with exact byte spans."""

    def __init__(self, model_path: str | Path):
        path = Path(model_path)
        if not path.is_file():
            raise FileNotFoundError(f"model file not found: {path}")
        self._vocab = read_bpe_vocab(path)
        self.model_path = path
        self.n_vocab: int = self._vocab.n_vocab
        self.bos_id: int = self._vocab.bos_id
        self.eos_id: int = self._vocab.eos_id
        self.add_bos: bool = self._vocab.add_bos
        self._pieces: list[bytes | None] | None = None
        self._encoding = threading.Lock()      # `encode_special_tokens` is the tokenizer's state

    # -- lifetime ---------------------------------------------------------------------------

    def close(self) -> None:
        self._vocab = None

    def _live_vocab(self):
        if self._vocab is None:
            raise ValueError("tokenizer is closed")
        return self._vocab

    def _check_id(self, token_id: int) -> int:
        if not 0 <= token_id < self.n_vocab:
            raise IndexError(f"token id {token_id} out of range [0, {self.n_vocab})")
        return token_id

    # -- vocabulary -------------------------------------------------------------------------

    def is_eog(self, token_id: int) -> bool:
        return self._check_id(token_id) in self._live_vocab().eog_ids

    def is_control(self, token_id: int) -> bool:
        return self._live_vocab().kinds[self._check_id(token_id)] == CONTROL

    def piece(self, token_id: int) -> bytes:
        """Raw bytes of a token; special tokens render as their text (b"<|im_end|>")."""
        self._check_id(token_id)
        if self._pieces is None:
            self._pieces = [None] * self.n_vocab
        got = self._pieces[token_id]
        if got is None:        # filled on demand: a new process reads a few dozen, not the vocabulary
            vocab = self._live_vocab()
            got = self._pieces[token_id] = piece(vocab.tokens[token_id], vocab.kinds[token_id])
        return got

    # -- text <-> ids -----------------------------------------------------------------------

    def _tokenize(self, data: bytes, parse_special: bool) -> list[int]:
        hf = self._live_vocab().hf
        with self._encoding:
            hf.encode_special_tokens = not parse_special
            return hf.encode(data.decode("utf-8"), add_special_tokens=False).ids

    def encode(self, source: str, *, add_bos: bool = False,
               parse_special: bool = False) -> Encoding:
        """Tokenize `source`; raise ValueError if the pieces do not reproduce it byte for byte.

        BOS is prepended only when the caller asks (never by the model's configuration), so
        its span is known: (0, 0).
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
