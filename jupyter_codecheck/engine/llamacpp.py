"""llama.cpp, through llama-cpp-python's low-level ctypes API: the reference for our engine.

Tests take reference logits and per-layer hidden states from it; benchmarks take its speed as
the baseline. The high-level `llama_cpp.Llama` class is avoided: its per-call Python overhead
(sampling state, token bookkeeping) slows it well below llama.cpp itself, which would flatter
our engine.
"""
from __future__ import annotations

import ctypes
import os
from pathlib import Path

import numpy as np

from .owned import Owned

try:
    import llama_cpp as _lc
except ImportError:  # optional dependency: tests skip, benchmarks report it missing
    _lc = None

_GGML_TYPE_F32 = 0


def available() -> bool:
    return _lc is not None


def _require() -> None:
    if _lc is None:
        raise ImportError("llama-cpp-python is not installed: pip install llama-cpp-python")


def model_params():
    """llama.cpp's default model parameters on the CPU, without extra buffer types: the AMX one
    segfaults in ggml_backend_amx_mul_mat on the project's Sapphire-Rapids-class Xeons (llama.cpp
    issue #20824); the same switch also turns off CPU weight repacking, which llama.cpp cannot
    disable separately."""
    _require()
    params = _lc.llama_model_default_params()
    params.n_gpu_layers = 0
    params.use_extra_bufts = False
    return params


_log_state: dict = {}


def _set_logging(verbose: bool) -> None:
    # importing llama_cpp installs a callback that prints everything to stderr; replace it with
    # a no-op (kept referenced: llama.cpp holds only the raw function pointer)
    if verbose:
        _lc.llama_log_set(_lc.llama_log_callback(), None)  # NULL: llama.cpp prints to stderr
        return
    if "quiet" not in _log_state:
        _log_state["quiet"] = _lc.llama_log_callback(lambda level, text, data: None)
    _lc.llama_log_set(_log_state["quiet"], None)


_ggml_lib = None


def _ggml():
    """libggml-base, the copy llama_cpp already loaded (found by its soname, or its path).

    Must first be called outside a decode: a dlopen while ggml's worker threads run can crash
    in glibc's TLS bookkeeping (seen as a rare segfault inside the eval callback).
    """
    global _ggml_lib
    if _ggml_lib is None:
        try:    # the copy libllama runs on: our engine's when it was loaded first (same soname)
            lib = ctypes.CDLL("libggml-base.so.0", mode=os.RTLD_NOLOAD)
        except OSError:
            lib = ctypes.CDLL(str(Path(_lc.__file__).parent / "lib" / "libggml-base.so"))
        lib.ggml_get_name.argtypes = [ctypes.c_void_p]
        lib.ggml_get_name.restype = ctypes.c_char_p
        lib.ggml_nelements.argtypes = [ctypes.c_void_p]
        lib.ggml_nelements.restype = ctypes.c_int64
        lib.ggml_nrows.argtypes = [ctypes.c_void_p]
        lib.ggml_nrows.restype = ctypes.c_int64
        lib.ggml_is_contiguous.argtypes = [ctypes.c_void_p]
        lib.ggml_is_contiguous.restype = ctypes.c_bool
        # works whatever backend holds the data, unlike ggml_get_data
        lib.ggml_backend_tensor_get.argtypes = [
            ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t]
        lib.ggml_backend_tensor_get.restype = None
        _ggml_lib = lib
    return _ggml_lib


class _Batch:
    """A llama_batch for seq 0 with numpy views on its token/pos/logits arrays."""

    def __init__(self, size: int):
        self.size = size
        self.raw = _lc.llama_batch_init(size, 0, 1)
        self.token = np.ctypeslib.as_array(self.raw.token, shape=(size,))
        self.pos = np.ctypeslib.as_array(self.raw.pos, shape=(size,))
        self.logits = np.ctypeslib.as_array(self.raw.logits, shape=(size,))
        np.ctypeslib.as_array(self.raw.n_seq_id, shape=(size,))[:] = 1
        for i in range(size):
            self.raw.seq_id[i][0] = 0

    def fill(self, tokens, pos0: int, want_logits) -> None:
        n = len(tokens)
        self.raw.n_tokens = n
        self.token[:n] = tokens
        self.pos[:n] = np.arange(pos0, pos0 + n)
        self.logits[:n] = want_logits

    def free(self) -> None:
        if self.raw is not None:
            _lc.llama_batch_free(self.raw)
            self.raw = None


class LlamaCppModel(Owned):
    """A llama.cpp model with one context (sequence 0), CPU only.

    `flash_attn`: None keeps llama.cpp's default (auto), True/False force it on/off.
    """

    def __init__(self, path: str | os.PathLike, *, n_ctx: int = 2048, n_batch: int = 512,
                 n_threads: int = 2, flash_attn: bool | None = None, verbose: bool = False):
        _require()
        _set_logging(verbose)
        _lc.llama_backend_init()
        self.path = Path(path)
        self._model = self._ctx = self._hctx = None
        self._batch = self._one = None
        self._model = _lc.llama_model_load_from_file(os.fsencode(self.path), model_params())
        if not self._model:
            raise RuntimeError(f"llama.cpp could not load {self.path}")
        self._vocab = _lc.llama_model_get_vocab(self._model)
        self.n_ctx, self.n_batch, self.n_threads = n_ctx, n_batch, n_threads
        self.flash_attn = flash_attn
        self._ctx = self._new_context()
        self._batch = _Batch(n_batch)
        self._one = _Batch(1)
        self._one.logits[0] = 1
        self._one.raw.n_tokens = 1
        self._hidden_cb = None
        self._captured: dict[bytes, list[np.ndarray]] = {}
        self._capture_error: BaseException | None = None

    def _new_context(self, cb_eval=None):
        p = _lc.llama_context_default_params()
        p.n_ctx = self.n_ctx
        p.n_batch = self.n_batch
        # one physical batch per logical batch: prompt timing covers a single graph per call
        p.n_ubatch = self.n_batch
        p.n_seq_max = 1
        p.n_threads = p.n_threads_batch = self.n_threads
        if self.flash_attn is not None:
            p.flash_attn_type = (_lc.LLAMA_FLASH_ATTN_TYPE_ENABLED if self.flash_attn
                                 else _lc.LLAMA_FLASH_ATTN_TYPE_DISABLED)
        p.embeddings = False
        if cb_eval is not None:
            p.cb_eval = cb_eval
            p.cb_eval_user_data = None
        ctx = _lc.llama_init_from_model(self._model, p)
        if not ctx:
            raise RuntimeError("llama.cpp could not create a context")
        return ctx

    @property
    def n_layer(self) -> int:
        return _lc.llama_model_n_layer(self._model)

    @property
    def n_embd(self) -> int:
        return _lc.llama_model_n_embd(self._model)

    @property
    def n_vocab(self) -> int:
        return _lc.llama_vocab_n_tokens(self._vocab)

    def tokenize(self, text: str, add_bos: bool = False) -> list[int]:
        data = text.encode("utf-8")
        cap = len(data) + 8
        buf = (_lc.llama_token * cap)()
        n = _lc.llama_tokenize(self._vocab, data, len(data), buf, cap, add_bos, False)
        if n < 0:  # cannot happen with cap > bytes, but the API allows it
            buf = (_lc.llama_token * -n)()
            n = _lc.llama_tokenize(self._vocab, data, len(data), buf, -n, add_bos, False)
        return list(buf[:n])

    def clear(self) -> None:
        _lc.llama_memory_clear(_lc.llama_get_memory(self._ctx), True)

    def _decode(self, ctx, batch: _Batch) -> None:
        rc = _lc.llama_decode(ctx, batch.raw)
        if rc != 0:
            raise RuntimeError(f"llama_decode failed with code {rc}")

    def _run(self, ctx, tokens, all_logits: bool) -> np.ndarray:
        """Decode `tokens` from position 0 in a fresh KV cache; logits of the flagged rows."""
        tokens = np.asarray(tokens, dtype=np.int32)
        if tokens.ndim != 1 or len(tokens) == 0:
            raise ValueError("tokens must be a non-empty 1-D sequence")
        if len(tokens) > self.n_ctx:
            raise ValueError(f"{len(tokens)} tokens exceed n_ctx={self.n_ctx}")
        _lc.llama_memory_clear(_lc.llama_get_memory(ctx), True)
        n_vocab, out = self.n_vocab, []
        for start in range(0, len(tokens), self.n_batch):
            chunk = tokens[start:start + self.n_batch]
            last = start + len(chunk) == len(tokens)
            if all_logits:
                flags = 1
            else:
                flags = np.zeros(len(chunk), np.int8)
                flags[-1] = last
            self._batch.fill(chunk, start, flags)
            self._decode(ctx, self._batch)
            rows = len(chunk) if all_logits else int(last)
            if rows:
                ptr = _lc.llama_get_logits(ctx)
                out.append(np.ctypeslib.as_array(ptr, shape=(rows, n_vocab)).copy())
        return out[0] if len(out) == 1 else np.concatenate(out)

    def score(self, tokens, *, all_logits: bool = True) -> np.ndarray:
        """Logits (float32) for every token, or (1, n_vocab) for the last one, from position 0."""
        return self._run(self._ctx, tokens, all_logits)

    def decode_one(self, token: int, pos: int) -> np.ndarray:
        """Append one token at `pos` to the KV cache; its logits (n_vocab,)."""
        self._one.token[0] = token
        self._one.pos[0] = pos
        self._decode(self._ctx, self._one)
        ptr = _lc.llama_get_logits_ith(self._ctx, 0)
        return np.ctypeslib.as_array(ptr, shape=(self.n_vocab,)).copy()

    def _on_tensor(self, tensor, ask, _user_data) -> bool:
        # exceptions in a ctypes callback would return False and abort the decode silently,
        # so failures are recorded and raised after llama_decode
        try:
            g = _ggml_lib
            name = g.ggml_get_name(tensor)
            if name not in self._captured:
                return not ask
            if ask:
                return True
            if ctypes.c_int.from_address(tensor).value != _GGML_TYPE_F32 \
                    or not g.ggml_is_contiguous(tensor):
                raise TypeError(f"{name!r} is not a contiguous F32 tensor")
            rows = g.ggml_nrows(tensor)
            arr = np.empty((rows, g.ggml_nelements(tensor) // rows), np.float32)
            g.ggml_backend_tensor_get(tensor, arr.ctypes.data, 0, arr.nbytes)
            self._captured[name].append(arr)
            return True
        except BaseException as exc:  # noqa: BLE001 - re-raised by hidden_states
            self._capture_error = exc
            return False

    def hidden_states(self, tokens, layers: list[int] | None = None) -> dict[int, np.ndarray]:
        """Output of transformer layer k (`l_out-k`), shape (n_tokens, n_embd), per layer.

        Uses a second context whose eval callback copies the tensors out, so `score` keeps
        running without the callback's graph splits.
        """
        layers = list(range(self.n_layer)) if layers is None else list(layers)
        if any(not 0 <= k < self.n_layer for k in layers):
            raise ValueError(f"layers must be in [0, {self.n_layer})")
        if self._hctx is None:
            _ggml()
            self._hidden_cb = _lc.ggml_backend_sched_eval_callback(self._on_tensor)
            self._hctx = self._new_context(self._hidden_cb)
        self._captured = {f"l_out-{k}".encode(): [] for k in layers}
        self._capture_error = None
        try:
            # all rows flagged: otherwise the last layer keeps only the output rows
            self._run(self._hctx, tokens, all_logits=True)
        except RuntimeError:
            if self._capture_error is None:
                raise
        if self._capture_error is not None:
            raise RuntimeError("reading a hidden state failed") from self._capture_error
        out = {k: np.concatenate(self._captured[f"l_out-{k}".encode()]) for k in layers}
        self._captured = {}
        n = len(tokens)
        for k, arr in out.items():
            if arr.shape != (n, self.n_embd):
                raise RuntimeError(f"layer {k}: captured shape {arr.shape}, "
                                   f"expected {(n, self.n_embd)}")
        return out

    def close(self) -> None:
        for batch in (self._batch, self._one):
            if batch is not None:
                batch.free()
        for ctx in (self._ctx, self._hctx):
            if ctx:
                _lc.llama_free(ctx)
        if self._model:
            _lc.llama_model_free(self._model)
        self._model = self._ctx = self._hctx = self._batch = self._one = None


class LlamaCppVocab(Owned):
    """llama.cpp's tokenizer alone (a vocabulary-only load): the reference for ours."""

    def __init__(self, path: str | os.PathLike):
        _require()
        _set_logging(False)
        _lc.llama_backend_init()
        params = model_params()
        params.vocab_only = True
        self._model = _lc.llama_model_load_from_file(os.fsencode(Path(path)), params)
        if not self._model:
            raise RuntimeError(f"llama.cpp could not load a vocabulary from {path}")
        self._vocab = _lc.llama_model_get_vocab(self._model)
        self.n_vocab = _lc.llama_vocab_n_tokens(self._vocab)
        self.bos_id = _lc.llama_vocab_bos(self._vocab)
        self.eos_id = _lc.llama_vocab_eos(self._vocab)
        self.add_bos = bool(_lc.llama_vocab_get_add_bos(self._vocab))
        self._buf = ctypes.create_string_buffer(1024)

    def tokenize(self, text: str, parse_special: bool = False) -> list[int]:
        data = text.encode("utf-8")
        cap = len(data) + 8
        buf = (_lc.llama_token * cap)()
        n = _lc.llama_tokenize(self._vocab, data, len(data), buf, cap, False, parse_special)
        if n < 0:
            buf = (_lc.llama_token * -n)()
            n = _lc.llama_tokenize(self._vocab, data, len(data), buf, -n, False, parse_special)
        return list(buf[:n])

    def piece(self, token_id: int) -> bytes:
        n = _lc.llama_token_to_piece(self._vocab, token_id, self._buf, len(self._buf), 0, True)
        return self._buf.raw[:n]

    def is_control(self, token_id: int) -> bool:
        return bool(_lc.llama_vocab_is_control(self._vocab, token_id))

    def is_eog(self, token_id: int) -> bool:
        return bool(_lc.llama_vocab_is_eog(self._vocab, token_id))

    def close(self) -> None:
        if getattr(self, "_model", None):
            _lc.llama_model_free(self._model)
        self._model = self._vocab = None


def vocab_differences(tokenizer, reference: LlamaCppVocab) -> dict[str, list[int]]:
    """The token ids whose bytes, control flag or end-of-generation flag differ between a
    tokenizer and llama.cpp's; and `sizes` holds [n_vocab, bos, eos, add_bos] where they differ."""
    ours = [tokenizer.n_vocab, tokenizer.bos_id, tokenizer.eos_id, int(tokenizer.add_bos)]
    theirs = [reference.n_vocab, reference.bos_id, reference.eos_id, int(reference.add_bos)]
    ids = range(min(tokenizer.n_vocab, reference.n_vocab))
    return {"sizes": [] if ours == theirs else ours + theirs,
            "piece": [i for i in ids if tokenizer.piece(i) != reference.piece(i)],
            "control": [i for i in ids if tokenizer.is_control(i) != reference.is_control(i)],
            "eog": [i for i in ids if tokenizer.is_eog(i) != reference.is_eog(i)]}


def token_agreement(tokenizer, reference: LlamaCppVocab, texts) -> dict:
    """Texts tokenized by both, with special tokens parsed and not: how many texts and tokens,
    which texts differ (index, parse_special, first differing token) for the first few."""
    n_texts = n_tokens = 0
    differing, first = 0, []
    for k, text in enumerate(texts):
        for special in (False, True):
            ours = tokenizer.encode(text, parse_special=special).ids
            theirs = reference.tokenize(text, parse_special=special)
            n_texts += 1
            n_tokens += len(theirs)
            if ours != theirs:
                differing += 1
                at = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b),
                          min(len(ours), len(theirs)))
                if len(first) < 10:
                    first.append({"text": k, "parse_special": special, "token": at,
                                  "ours": ours[max(0, at - 2):at + 3], "llama_cpp": theirs[max(0, at - 2):at + 3]})
    return {"texts": n_texts, "tokens": n_tokens, "differing_texts": differing, "first": first}
