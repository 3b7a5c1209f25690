"""Model: a GGUF file mapped and validated by the native engine."""
from __future__ import annotations

import os
import threading
from dataclasses import asdict, dataclass
from pathlib import Path

from . import _native as N
from .derived import batch_weights_file
from .owned import Owned
from .paths import resolve_model_path
from .session import BATCH_WEIGHT_TYPES, Session
from .tokenizer import Tokenizer


@dataclass(frozen=True)
class ModelInfo:
    path: str
    arch: str
    name: str
    n_layer: int
    n_embd: int
    n_head: int
    n_head_kv: int
    head_dim: int
    n_ff: int
    n_vocab: int
    n_ctx_train: int
    rope_freq_base: float
    norm_eps: float
    tied_output: bool
    layer_type: str      # the ggml type most of the layer matrices' weights are in ("q4_K")
    n_params: int
    file_size: int

    def to_dict(self) -> dict:
        return asdict(self)


class Model(Owned):
    """A GGUF model (architectures `llama`, `qwen2`). `Model()` loads the default SmolLM2-135M.

    Weights stay in the read-only file mapping: loading copies none of them (a session may add a
    converted copy for batches, `Session(batch_weights=...)`, kept on disk for later processes).
    Problems in the file raise a subclass of `GGUFError` naming the key or tensor and the byte
    offset.
    """

    def __init__(self, path: str | os.PathLike | None = None):
        self.path = resolve_model_path(path)
        err = N.cc_error()
        handle = N.lib.cc_model_load(os.fsencode(self.path), err)
        if not handle:
            N.raise_error(err)
        self._handle = handle
        raw = N.cc_model_info()
        N.lib.cc_model_get_info(handle, raw)
        self.info = ModelInfo(
            path=str(self.path), arch=raw.arch.decode(), name=raw.name.decode("utf-8", "replace"),
            n_layer=raw.n_layer, n_embd=raw.n_embd, n_head=raw.n_head, n_head_kv=raw.n_head_kv,
            head_dim=raw.head_dim, n_ff=raw.n_ff, n_vocab=raw.n_vocab, n_ctx_train=raw.n_ctx_train,
            rope_freq_base=raw.rope_freq_base, norm_eps=raw.norm_eps,
            tied_output=bool(raw.tied_output),
            layer_type=N.lib.ggml_type_name(raw.layer_type).decode() if raw.layer_type >= 0 else "",
            n_params=raw.n_params, file_size=raw.file_size)
        self._tokenizer = None
        self._tokenizer_loading: threading.Thread | None = None
        self._tokenizer_error: BaseException | None = None
        self._lock = threading.Lock()

    @property
    def n_layer(self) -> int:
        return self.info.n_layer

    @property
    def n_vocab(self) -> int:
        return self.info.n_vocab

    @property
    def n_embd(self) -> int:
        return self.info.n_embd

    def preload_tokenizer(self) -> None:
        """Starts loading the tokenizer on another thread, so a new process's set-up (the engine's
        own model load, without the GIL) goes on meanwhile. `tokenizer` waits for it."""
        with self._lock:
            if self._tokenizer is None and self._tokenizer_loading is None:
                self._tokenizer_loading = threading.Thread(target=self._load_tokenizer, daemon=True,
                                                           name="codecheck-tokenizer")
                self._tokenizer_loading.start()

    def _load_tokenizer(self) -> None:
        try:
            self._tokenizer = Tokenizer(self.path)
        except BaseException as e:  # noqa: BLE001 - raised where the tokenizer is wanted
            self._tokenizer_error = e

    @property
    def tokenizer(self):
        """The model's own tokenizer (its GGUF's vocabulary, llama.cpp's ids), created on first use."""
        with self._lock:
            if self._tokenizer_loading is not None:
                self._tokenizer_loading.join()
                self._tokenizer_loading = None
                if self._tokenizer_error is not None:
                    error, self._tokenizer_error = self._tokenizer_error, None
                    raise error
            if self._tokenizer is None:
                self._tokenizer = Tokenizer(self.path)
            return self._tokenizer

    @property
    def handle(self):
        """The native model its sessions are made on (None once closed)."""
        return self._handle

    def keep_batch_weights(self, type_name: str) -> None:
        """The engine keeps its batch copies of this type (a key of `BATCH_WEIGHT_TYPES`) on disk,
        mapped in later processes instead of converted again: the conversion is most of a new
        process's set-up."""
        try:
            path = batch_weights_file(self.path, type_name, N.library_path)
        except OSError:
            path = None
        if path is not None:
            err = N.cc_error()
            N.check(N.lib.cc_model_set_batch_cache(self._handle, BATCH_WEIGHT_TYPES[type_name],
                                                   os.fsencode(path), err), err)

    def batch_weights_source(self, type_name: str) -> str | None:
        """Where the batch copies of a type came from in this process: "converted", "cached"
        (mapped from the cache file) or None (not made yet)."""
        return {0: None, 1: "converted", 2: "cached"}[
            N.lib.cc_model_batch_source(self._handle, BATCH_WEIGHT_TYPES[type_name])]

    @property
    def packed_bytes(self) -> int:
        """Bytes of the layer matrices packed for our own product (0 until a session with
        `packed=True` made them, or where the CPU cannot run it)."""
        return int(N.lib.cc_model_packed_bytes(self._handle))

    MATRICES = ("wq", "wk", "wv", "wo", "ffn_gate", "ffn_up", "ffn_down")

    def matrix_product(self, layer: int | None, matrix: str | None, x, packed: bool | str = False):
        """W x for one matrix (layer None: the output matrix; else one of `MATRICES`) and rows
        x (n, input width), through ggml's product or the packed one (as `Session`'s `packed`),
        on the calling thread: the two products compared one at a time."""
        import numpy as np
        if packed not in (False, True, "avx2"):
            raise ValueError(f"packed must be True, False or 'avx2', got {packed!r}")
        if layer is not None and matrix not in self.MATRICES:
            raise ValueError(f"matrix must be one of {', '.join(self.MATRICES)}, got {matrix!r}")
        x = np.ascontiguousarray(x, dtype=np.float32)
        info = self.info
        shapes = {"wq": (info.n_embd, info.n_embd), "wk": (info.n_embd, info.n_head_kv * info.head_dim),
                  "wv": (info.n_embd, info.n_head_kv * info.head_dim), "wo": (info.n_embd, info.n_embd),
                  "ffn_gate": (info.n_embd, info.n_ff), "ffn_up": (info.n_embd, info.n_ff),
                  "ffn_down": (info.n_ff, info.n_embd)}
        n_in, n_out = (info.n_embd, info.n_vocab) if layer is None else shapes[matrix]
        if x.ndim != 2 or x.shape[1] != n_in:
            raise ValueError(f"x must have shape (n, {n_in}), got {x.shape}")
        out = np.empty((x.shape[0], n_out), dtype=np.float32)
        err = N.cc_error()
        N.check(N.lib.cc_model_product(self._handle, -1 if layer is None else layer,
                                       0 if layer is None else self.MATRICES.index(matrix),
                                       x.ctypes.data, x.shape[0], out.ctypes.data,
                                       2 if packed == "avx2" else int(packed), err), err)
        return out

    def session(self, **kwargs) -> Session:
        """A new `Session` on this model (keywords: see `Session`)."""
        return Session(self, **kwargs)

    def close(self) -> None:
        loading = getattr(self, "_tokenizer_loading", None)
        if loading is not None:
            loading.join()
            self._tokenizer_loading = None
        if getattr(self, "_handle", None):
            N.lib.cc_model_free(self._handle)
            self._handle = None
        if getattr(self, "_tokenizer", None) is not None:
            self._tokenizer.close()
            self._tokenizer = None

    def __repr__(self) -> str:
        i = self.info
        return f"Model({Path(i.path).name!r}, arch={i.arch}, layers={i.n_layer}, vocab={i.n_vocab})"
