"""Session: one token sequence on a model, its KV cache, and layer stepping with an exit hook.

    session = Model().session()
    result = session.forward(tokens, hook=my_hook, kv_mode="exact")

The hook is called after every layer with a `LayerStep`; it may ask for per-row data (hidden
states, logits statistics through the full or the shortlist head) and returns the rows that stop
there (or None). Stopped rows leave the later layers; `kv_mode` says how the skipped layers' K,V
are kept consistent (see codecheck.h):

    "exact"      the skipped layers are completed before any later token attends to them (a
                 stopped row rides along with the next batch: the next token's logits are the
                 same as at full depth);
    "propagate"  K,V of the skipped layers are computed from the exit hidden state (CALM-style).
"""
from __future__ import annotations

import ctypes as C
import time
from dataclasses import dataclass
from typing import Callable, Iterable, Protocol, Sequence

import numpy as np

from . import _native as N
from .owned import Owned
from .threads import CpuLoad, ThreadGovernor, physical_cores

KV_MODES = {"exact": 0, "propagate": 1}


@dataclass
class HeadResult:
    """Output-head statistics for some rows (natural-log probabilities)."""
    rows: np.ndarray                 # (n,) the rows asked for
    ref_logprob: np.ndarray | None   # (n,) log p(reference token)
    ref_rank: np.ndarray | None      # (n,) tokens with a higher logit (0: argmax)
    topk_ids: np.ndarray             # (n, k)
    topk_logprob: np.ndarray         # (n, k)
    logsumexp: np.ndarray            # (n,)
    logits: np.ndarray | None = None  # (n, n_vocab) when asked for (full head only)

    @property
    def ref_prob(self) -> np.ndarray | None:
        return None if self.ref_logprob is None else np.exp(self.ref_logprob)

    def log_softmax(self) -> np.ndarray:
        if self.logits is None:
            raise ValueError("logits were not requested (head(..., logits=True))")
        return self.logits - self.logsumexp[:, None]


@dataclass
class BatchResult:
    """What a forward pass did."""
    start: int                       # position of the first row
    n_rows: int
    exit_layers: np.ndarray          # (n,) layer after which each row stopped (n_layer-1: full depth)
    rows_per_layer: np.ndarray       # (n_layer,) rows computed in full at each layer
    n_layer: int
    cancelled: bool = False

    @property
    def layers_computed(self) -> int:
        """Row-layers computed, including rows carried for K,V and rows riding along."""
        return int(self.rows_per_layer.sum())

    @property
    def layer_fraction(self) -> float:
        """Mean fraction of the stack each row of this batch went through before it stopped."""
        return float((self.exit_layers + 1).mean() / self.n_layer) if self.n_rows else 0.0


class LayerStep:
    """What the exit hook sees after a layer: valid only during the hook call."""

    def __init__(self, session: "Session"):
        self._s = session
        self.layer = -1
        self.batch_start = 0

    @property
    def n_layer(self) -> int:
        return self._s.n_layer

    @property
    def active(self) -> np.ndarray:
        """Rows still running, ascending (row i is position batch_start + i)."""
        buf = self._s._rows_buf
        n = N.lib.cc_batch_active(self._s._ctx, N.ptr(buf))
        return buf[:n].copy()

    def hidden(self, rows: Sequence[int] | None = None) -> np.ndarray:
        return self._s.hidden(self.active if rows is None else rows)

    def head(self, rows: Sequence[int] | None = None, ref: Sequence[int] | None = None, *,
             top_k: int = 1, shortlist: bool = True, logits: bool = False) -> HeadResult:
        return self._s.head(self.active if rows is None else rows, ref, top_k=top_k,
                            shortlist=shortlist, logits=logits)


Hook = Callable[[LayerStep], "Iterable[int] | None"]


# batch_weights -> ggml type of the converted layer matrices (see cc_context_params)
BATCH_WEIGHT_TYPES = {None: -1, "f32": 0, "f16": 1, "q8_0": 8, "bf16": 30}

# The settings the checker runs with. Session's own defaults reproduce llama.cpp's arithmetic
# (f16 KV cache, the file's weights, 8-bit activations in every matrix product); these are faster
# and closer to the file's exact f32 function (bench/engine.py --arithmetic):
# - f32 KV cache: ggml's CPU flash attention takes a slow path for small batches with an f16 one;
# - every batch multiplies an f16 copy of the layer matrices: ggml has tiled kernels for it (none
#   for Q4_1), and with 16-bit activations a row's numbers barely depend on the batch it is in,
#   which the verification's gains need (they compare rows scored in different batches).
FAST = {"kv_f32": True, "batch_weights": "f16", "batch_min_rows": 1}
# Layer types ggml's CPU backend multiplies fast as they are (the k-quants' integer dot products
# on the blocks): an f16 copy would only read more bytes per row (2.3x the time for Qwen2.5-Coder
# 1.5B's q4_K, with the same decisions and findings: bench/reports/constants.md). Their Q4_K and
# Q6_K matrices go through our packed product (native/src/packed.h) where the CPU has AVX2 or
# AVX-512 VNNI: ggml's costs a small batch a whole decode per row, or unpacks the matrix per batch.
AS_STORED_TYPES = frozenset({"q4_K", "q5_K", "q6_K"})


PACKED_ISAS = {0: None, 1: "avx2", 2: "avx512", 3: "neon"}


def packed_isa() -> str | None:
    """The instructions the packed product (`Session(packed=True)`) runs on here: "avx512"
    (VNNI), "avx2", "neon" (with the dot product), or None (ggml's products are used); the
    environment variable CODECHECK_PACKED_ISA caps it."""
    return PACKED_ISAS[N.lib.cc_packed_supported()]


# Q4_1 (the default model's) goes through the packed product where x86 runs it (AVX-512, AVX2): a
# row's numbers do not depend on its batch there either, and it reads the file's bytes, not f16
# copies.
PACKED_ON_X86 = frozenset({"q4_1"})


def checker_settings(layer_type: str) -> dict:
    """The Session settings the checker runs a model with, by its layer matrices' ggml type."""
    if layer_type in AS_STORED_TYPES or (layer_type in PACKED_ON_X86 and packed_isa() in ("avx512", "avx2")):
        return {"kv_f32": True, "packed": True}
    return dict(FAST)


class SessionModel(Protocol):
    """What a session uses of its model (a `Model`): the shapes in `info`, the native `handle`
    and `keep_batch_weights`. Named here, not imported: Model.session() makes sessions, so the
    import goes one way (model -> session)."""

    @property
    def info(self): ...

    @property
    def handle(self): ...

    def keep_batch_weights(self, type_name: str) -> None: ...


class Session(Owned):
    """One sequence: positions [0, n_past) are in the KV cache; `tokens` lists them."""

    def __init__(self, model: SessionModel, *, n_ctx: int = 0, n_batch: int = 512,
                 n_threads: int | None = None, kv_f32: bool = False,
                 batch_weights: str | None = None, batch_min_rows: int = 8,
                 batch_cache: bool = True, packed: bool | str = False):
        self.model = model
        info = self.model.info
        self.n_layer = info.n_layer
        self.n_vocab = info.n_vocab
        self.n_embd = info.n_embd
        self.n_threads = n_threads or physical_cores()
        # a count the caller chose is kept; otherwise each batch runs on the count measured faster
        self.governor = ThreadGovernor(self.n_threads, load=CpuLoad(self.n_threads)) \
            if n_threads is None else None
        self._batch_tokens = np.zeros(0, dtype=np.int32)
        if batch_weights not in BATCH_WEIGHT_TYPES:
            raise ValueError(f"batch_weights must be one of {', '.join(map(repr, BATCH_WEIGHT_TYPES))}, "
                             f"got {batch_weights!r}")
        if packed not in (False, True, "avx2"):
            raise ValueError(f"packed must be True, False or 'avx2', got {packed!r}")
        params = N.cc_context_params(n_ctx, n_batch, self.n_threads, int(kv_f32),
                                     BATCH_WEIGHT_TYPES[batch_weights], batch_min_rows,
                                     2 if packed == "avx2" else int(packed))
        err = N.cc_error()
        if batch_weights is not None and batch_cache:
            self.model.keep_batch_weights(batch_weights)
        ctx = N.lib.cc_context_new(self.model.handle, params, err)
        if not ctx:
            N.raise_error(err)
        self._ctx = ctx
        self._err = N.cc_error()
        self.n_ctx = N.lib.cc_n_ctx(ctx)
        self.n_batch = n_batch
        self.tokens: list[int] = []
        self._tree_tokens: list[int] = []    # branch rows since the last commit (forward_tree)
        self._batch_is_tree = False
        self._rows_buf = np.zeros(2 * n_batch, dtype=np.int32)

    # -- sequence -----------------------------------------------------------------------------

    @property
    def n_past(self) -> int:
        return N.lib.cc_n_past(self._ctx)

    def set_threads(self, n_threads: int) -> None:
        """Runs every later batch on `n_threads` (no more choosing per batch)."""
        self._use_threads(n_threads)
        self.governor = None

    def _use_threads(self, n_threads: int) -> None:
        if N.lib.cc_set_threads(self._ctx, int(n_threads)) != 0:
            raise ValueError(f"n_threads must be 1..512, got {n_threads}")
        self.n_threads = int(n_threads)

    def truncate(self, n_keep: int) -> None:
        """Roll back to positions [0, n_keep)."""
        N.check(N.lib.cc_truncate(self._ctx, int(n_keep), self._err), self._err)
        del self.tokens[n_keep:]
        self._tree_tokens = []

    def sync(self) -> int:
        """Makes `tokens` and the KV agree again, keeping the shorter, and returns their length.
        An interrupt between a native call and the list's update (a KeyboardInterrupt in a
        check run by user code) leaves them apart; the next batch would then be placed after
        positions the list does not name, or the list name positions the KV dropped. Call it
        between batches (a check does, before it reuses anything)."""
        n = self.n_past
        if len(self.tokens) > n:
            del self.tokens[n:]
        elif n > len(self.tokens):
            N.check(N.lib.cc_truncate(self._ctx, len(self.tokens), self._err), self._err)
        self._tree_tokens = []
        return len(self.tokens)

    def common_prefix(self, tokens: Sequence[int]) -> int:
        """Length of the longest prefix of `tokens` already in the sequence."""
        n = min(len(tokens), len(self.tokens))
        a = np.asarray(self.tokens[:n]); b = np.asarray(tokens[:n])
        diff = np.flatnonzero(a != b)
        return int(diff[0]) if diff.size else n

    def reuse_prefix(self, tokens: Sequence[int]) -> int:
        """Keeps the KV of the longest common prefix with `tokens`, drops the rest; returns its
        length. The caller then evaluates tokens[returned:]."""
        keep = self.common_prefix(tokens)
        if keep < self.n_past:
            self.truncate(keep)
        return keep

    def flush(self) -> int:
        """Completes K,V owed by rows that exited in exact mode (otherwise done by the next batch)."""
        return N.check(N.lib.cc_flush(self._ctx, self._err), self._err)

    # -- evaluation -----------------------------------------------------------------------------

    def forward(self, tokens: Sequence[int], *, hook: Hook | None = None, kv_mode: str = "exact",
                cancel: Callable[[], bool] | None = None) -> BatchResult:
        """Appends `tokens` (split into batches of n_batch) and runs the stack with the hook.

        Row numbers seen by the hook are indices into the current batch (position
        `step.batch_start + row`). `cancel()` is polled after every layer; when it returns True
        the batch in progress is abandoned and the sequence keeps what was complete before it.
        """
        if kv_mode not in KV_MODES:
            raise ValueError(f"kv_mode must be one of {sorted(KV_MODES)}, got {kv_mode!r}")
        toks = np.ascontiguousarray(tokens, dtype=np.int32)
        if toks.ndim != 1 or toks.size == 0:
            raise ValueError("tokens must be a non-empty 1-D sequence of token ids")
        bad = np.flatnonzero((toks < 0) | (toks >= self.n_vocab))
        if bad.size:
            raise ValueError(f"token {int(toks[bad[0]])} at index {int(bad[0])} is outside the "
                             f"vocabulary (0..{self.n_vocab - 1})")
        start = self.n_past
        exits, per_layer = [], np.zeros(self.n_layer, dtype=np.int64)
        for b0 in range(0, toks.size, self.n_batch):
            chunk = toks[b0:b0 + self.n_batch]
            done = self._run_batch(chunk, hook, KV_MODES[kv_mode], cancel, start + b0)
            if done is None:
                return BatchResult(start, b0, np.concatenate(exits) if exits else np.zeros(0, np.int32),
                                   per_layer, self.n_layer, cancelled=True)
            exits.append(done[0])
            per_layer += done[1]
        return BatchResult(start, toks.size, np.concatenate(exits), per_layer, self.n_layer)

    def _run_batch(self, toks, hook, mode, cancel, batch_start, parents=None, bases=None):
        self.begin(toks, mode, parents, bases)
        try:
            if hook is None and cancel is None:
                self._pick_threads(toks.size)
                t0 = time.perf_counter()
                N.check(N.lib.cc_batch_run(self._ctx, self._err), self._err)
                if self.governor is not None:
                    self.governor.record(toks.size, self.n_threads, time.perf_counter() - t0,
                                         int(self.last_rows_per_layer().sum()))
            else:
                step = LayerStep(self)
                step.batch_start = batch_start
                while (layer := self.step()) >= 0:
                    if cancel is not None and cancel():
                        self.abort()
                        return None
                    if hook is not None:
                        step.layer = layer
                        stop = hook(step)
                        if stop is not None:
                            self.stop(stop)
            self.end()
        except BaseException:
            # KeyboardInterrupt or a failing hook: leave the session as before this batch
            self.abort()
            raise
        return self.last_exit_layers(), self.last_rows_per_layer()

    # -- the layer loop, one call at a time (Session.forward and the checker's adapter use these) --

    def begin(self, tokens, kv_mode: "str | int" = "exact", parents=None, bases=None) -> None:
        """Starts a batch of at most n_batch tokens (rows 0..n-1); see `step`, `stop`, `end`.

        With `parents` (and `bases`), the rows are branch rows (see `forward_tree`): they join the
        sequence only through `commit`, and may stop only in "propagate" mode."""
        toks = np.ascontiguousarray(tokens, dtype=np.int32)
        mode = KV_MODES[kv_mode] if isinstance(kv_mode, str) else int(kv_mode)
        if parents is None:
            N.check(N.lib.cc_batch_begin(self._ctx, N.ptr(toks), toks.size, mode, self._err), self._err)
            self._tree_tokens = []
        else:
            par = np.ascontiguousarray(parents, dtype=np.int32)
            if par.shape != toks.shape:
                raise ValueError(f"{toks.size} tokens but {par.size} parents")
            base = None if bases is None else np.ascontiguousarray(bases, dtype=np.int32)
            if base is not None and base.shape != toks.shape:
                raise ValueError(f"{toks.size} tokens but {base.size} bases")
            N.check(N.lib.cc_batch_begin_tree(self._ctx, N.ptr(toks), N.ptr(par),
                                              None if base is None else N.ptr(base), toks.size,
                                              mode, self._err), self._err)
        self._batch_tokens = toks
        self._batch_is_tree = parents is not None

    def forward_tree(self, tokens: Sequence[int], parents: Sequence[int],
                     bases: Sequence[int] | None = None) -> None:
        """Scores alternatives in one batch: row i follows the sequence (parents[i] == -1) or the
        branch row parents[i] (numbered over all branch rows since the last commit, this call's
        included), and sees only the sequence and its own ancestors. With `bases`, a row with
        parents[i] == -1 follows position bases[i] - 1 instead of the last one (an alternative to
        the token at bases[i]) and sees positions [0, bases[i]) only, as do its descendants. The
        sequence is unchanged until `commit` appends one chain (following its last position);
        `head` reads the rows as usual."""
        self._run_batch(np.ascontiguousarray(tokens, dtype=np.int32), None, KV_MODES["exact"], None,
                        self.n_past, parents, bases)

    def commit(self, nodes: Sequence[int]) -> None:
        """Appends the chain of branch rows `nodes` (each the child of the one before, the first
        following the sequence) to the sequence; forgets the other branch rows."""
        idx = np.ascontiguousarray(nodes, dtype=np.int32)
        N.check(N.lib.cc_tree_commit(self._ctx, N.ptr(idx), idx.size, self._err), self._err)
        self.tokens.extend(self._tree_tokens[int(i)] for i in idx)
        self._tree_tokens = []

    def step(self) -> int:
        """Computes the next layer for the active rows; returns it, or -1 when done."""
        rows = self._batch_tokens.size
        self._pick_threads(rows)
        t0 = time.perf_counter()
        layer = N.lib.cc_batch_step(self._ctx, self._err)
        if self.governor is not None:
            self.governor.record(rows, self.n_threads, time.perf_counter() - t0, rows)
        if self._err.code:
            N.raise_error(self._err)
        return layer

    def active(self) -> np.ndarray:
        n = N.lib.cc_batch_active(self._ctx, N.ptr(self._rows_buf))
        return self._rows_buf[:n].copy()

    def stop(self, rows) -> None:
        r = np.ascontiguousarray(rows, dtype=np.int32)
        if r.size:
            N.check(N.lib.cc_batch_stop(self._ctx, N.ptr(r), r.size, self._err), self._err)

    def _pick_threads(self, rows: int) -> None:
        if self.governor is not None:
            n = self.governor.choose(rows)
            if n != self.n_threads:
                self._use_threads(n)

    def end(self) -> None:
        N.check(N.lib.cc_batch_end(self._ctx, self._err), self._err)
        if self._batch_is_tree:
            self._tree_tokens.extend(int(t) for t in self._batch_tokens)
        else:
            self.tokens.extend(int(t) for t in self._batch_tokens)

    def abort(self) -> None:
        N.lib.cc_batch_abort(self._ctx, self._err)

    def last_exit_layers(self) -> np.ndarray:
        exits = np.zeros(len(self._batch_tokens), dtype=np.int32)
        N.lib.cc_batch_exit_layers(self._ctx, N.ptr(exits))
        return exits

    def last_rows_per_layer(self) -> np.ndarray:
        per_layer = np.zeros(self.n_layer, dtype=np.int32)
        N.lib.cc_batch_rows_per_layer(self._ctx, N.ptr(per_layer))
        return per_layer

    # -- per-row data of the current (or last) batch ---------------------------------------------

    def hidden(self, rows: Sequence[int]) -> np.ndarray:
        """(n, n_embd) hidden states: the exit state of stopped rows, else the last layer computed."""
        r = np.ascontiguousarray(rows, dtype=np.int32)
        out = np.empty((r.size, self.n_embd), dtype=np.float32)
        N.check(N.lib.cc_batch_hidden(self._ctx, N.ptr(r), r.size, N.ptr(out), self._err), self._err)
        return out

    def head(self, rows: Sequence[int], ref: Sequence[int] | None = None, *, top_k: int = 5,
             shortlist: bool = False, logits: bool = False) -> HeadResult:
        """Final norm + output matrix on rows' current states (any layer). With `shortlist`, only
        the shortlist and the reference tokens are scored (see `set_shortlist`)."""
        r = np.ascontiguousarray(rows, dtype=np.int32)
        return self._head(r, None, r.size, ref, top_k, shortlist, logits)

    def head_states(self, states: np.ndarray, ref: Sequence[int] | None = None, *, top_k: int = 5,
                    shortlist: bool = False, logits: bool = False) -> HeadResult:
        """The same head on given (n, n_embd) hidden states, e.g. mapped by a learned exit map."""
        x = np.ascontiguousarray(states, dtype=np.float32)
        if x.ndim != 2 or x.shape[1] != self.n_embd:
            raise ValueError(f"states must have shape (n, {self.n_embd}), got {x.shape}")
        return self._head(np.arange(x.shape[0], dtype=np.int32), x, x.shape[0], ref, top_k,
                          shortlist, logits)

    def _head(self, r, states, n, ref, top_k, shortlist, logits) -> HeadResult:
        refs = None if ref is None else np.ascontiguousarray(ref, dtype=np.int32)
        if refs is not None and refs.size != n:
            raise ValueError(f"{n} rows but {refs.size} reference tokens")
        out = HeadResult(
            rows=r, ref_logprob=None if refs is None else np.empty(n, np.float32),
            ref_rank=None if refs is None else np.empty(n, np.int32),
            topk_ids=np.empty((n, top_k), np.int32), topk_logprob=np.empty((n, top_k), np.float32),
            logsumexp=np.empty(n, np.float32),
            logits=np.empty((n, self.n_vocab), np.float32) if logits else None)
        raw = N.cc_head_out(N.ptr(out.logits), N.ptr(out.ref_logprob), N.ptr(out.ref_rank),
                            N.ptr(out.topk_ids), N.ptr(out.topk_logprob), N.ptr(out.logsumexp))
        if states is None:
            rc = N.lib.cc_head(self._ctx, N.ptr(r), n, N.ptr(refs), top_k, int(shortlist),
                               C.byref(raw), self._err)
        else:
            rc = N.lib.cc_head_states(self._ctx, N.ptr(states), n, N.ptr(refs), top_k,
                                      int(shortlist), C.byref(raw), self._err)
        N.check(rc, self._err)
        return out

    def set_shortlist(self, token_ids: Sequence[int]) -> None:
        ids = np.ascontiguousarray(token_ids, dtype=np.int32)
        N.check(N.lib.cc_set_shortlist(self._ctx, N.ptr(ids), ids.size, self._err), self._err)

    # -- lifetime --------------------------------------------------------------------------------

    def close(self) -> None:
        if getattr(self, "_ctx", None):
            N.lib.cc_context_free(self._ctx)
            self._ctx = None
