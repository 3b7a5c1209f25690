"""The engine seen through decoding's `LayerModel` shape, and one `LoadedModel` per model file.

Cheap exit tests read the shortlist head (the most frequent code tokens plus the cell's own
tokens) on the layer's hidden state, mapped by the learned exit lens when one is available.
"""
from __future__ import annotations

import contextlib
import threading
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..engine import Model, Session
from ..engine.session import checker_settings
from ..engine.derived import on_disk
from ..engine.shortlist import code_shortlist
from .resolved_model import ResolvedModel, resolve_model
from .resume import Memory

SHORTLIST_MAX = 8192      # the engine's limit (cc_set_shortlist)


class EngineLayerModel:
    """decoding.scorer.LayerModel over an engine Session."""

    def __init__(self, session: Session, *, kv_mode: str = "exact", lens=None):
        self.session = session
        self.n_layer = session.n_layer
        self.max_batch = session.n_batch
        self.kv_mode = kv_mode
        self.lens = lens
        self._layer = -1
        self.layers_computed = 0     # row-layers computed in full (incl. carried / riding along)
        self.layer_steps = 0         # layers computed for a batch, whatever its number of rows

    @property
    def n_context(self) -> int:
        return self.session.n_past

    @property
    def branch_stops(self) -> bool:
        """Branch rows may stop early (their skipped layers' K,V from the exit state)."""
        return self.kv_mode == "propagate"

    @property
    def last_token(self) -> int:
        return self.session.tokens[-1]

    def begin(self, tokens, parents=None, bases=None):
        self.session.begin(tokens, self.kv_mode, parents, bases)
        self._layer = -1

    def commit(self, nodes):
        self.session.commit(nodes)

    def step(self) -> int:
        self._layer = self.session.step()
        self.layer_steps += self._layer >= 0
        return self._layer

    def active(self):
        return self.session.active()

    def stop(self, rows):
        self.session.stop(rows)

    def end(self):
        self.session.end()
        self.layers_computed += int(self.session.last_rows_per_layer().sum())

    def abort(self):
        self.session.abort()

    def truncate(self, n):
        self.session.truncate(n)

    def layer_stats(self, rows, refs, top_k):
        states = self.session.hidden(rows)
        if self.lens is not None and self._layer < self.n_layer - 1:
            states = self.lens.apply(self._layer, states)
        h = self.session.head_states(states, refs, top_k=top_k, shortlist=True)
        return h.ref_logprob, h.ref_rank, h.topk_ids, h.topk_logprob

    def final_stats(self, rows, refs, top_k):
        h = self.session.head(rows, refs, top_k=top_k)
        return h.ref_logprob, h.ref_rank, h.topk_ids, h.topk_logprob


@dataclass
class LoadedModel:
    """A loaded model, its session (KV cache kept between checks) and what the checks reuse."""
    model: Model
    session: Session
    base_shortlist: np.ndarray
    lock: threading.Lock = field(default_factory=threading.Lock)
    lens: object = None
    lens_tried: bool = False
    memory: Memory = field(default_factory=Memory)   # what the next check may reuse (resume.py)
    _cache: dict = field(default_factory=dict)

    def forget(self) -> None:
        """Keep nothing of earlier checks for the next one (decisions, verdicts): a benchmark's
        check of a cell then costs what a new cell's does."""
        self.memory.forget()

    def cached(self, name, make):
        """Per-model data computed once from the tokenizer (e.g. token classes of the vocabulary)."""
        if name not in self._cache:
            self._cache[name] = on_disk(self.model.path, name, lambda: make(self.tokenizer), source=make)
        return self._cache[name]

    @property
    def tokenizer(self):
        return self.model.tokenizer

    def set_cell_shortlist(self, cell_ids, extra=()) -> bool:
        """The cheap head's shortlist for a cell: the frequent code tokens, the cell's own tokens
        and `extra` ones when they all fit (returns whether `extra` is in)."""
        base = np.unique(np.concatenate([self.base_shortlist, np.asarray(cell_ids, np.int32)]))
        full = np.unique(np.concatenate([base, np.asarray(extra, np.int32)]))
        fits = full.size <= SHORTLIST_MAX
        self.session.set_shortlist(full if fits else base[:SHORTLIST_MAX])
        return fits or len(extra) == 0

    def get_lens(self, progress=None):
        """The model's exit lens, fitted on first use (once per model and machine, cached);
        `progress(text, done)` hears of the fitting, and of a lens that cannot be had."""
        if not self.lens_tried:
            self.lens_tried = True
            try:
                from ..engine.lens import default_lens
                self.lens = default_lens(self.model, progress=_lens_progress(self.model, progress))
            except Exception as e:  # noqa: BLE001 - no lens: plain head, exits happen later
                message = f"no exit lens ({e}); early exits use the plain head"
                if progress is None:
                    warnings.warn(message, RuntimeWarning, stacklevel=2)
                else:
                    progress(message, True)
                self.lens = None
        return self.lens


def _lens_progress(model, progress):
    """The lens fitter's (tokens done, total) as the caller's progress text; the core itself
    prints nothing."""
    def report(done, total):
        if progress is not None:
            done = min(done, total)
            progress(f"fitting the exit lens for {model.path.name} (once per model, cached): "
                     f"{done}/{total} tokens", done >= total)
    return report


_BLAS = None


def single_threaded_blas():
    """A context in which numpy's BLAS runs on the calling thread only.

    The engine's threadpool spins between layer steps, and BLAS threads started for the exit
    lens's small products fight it for the cores, which makes those products far slower
    (bench/reports/constants.md). Limited only while a check runs, so the user's own numpy keeps
    its threads."""
    global _BLAS
    try:
        if _BLAS is None:
            from threadpoolctl import ThreadpoolController
            _BLAS = ThreadpoolController()
        return _BLAS.limit(limits=1, user_api="blas")
    except Exception:  # noqa: BLE001 - an unknown BLAS: run as is, only slower
        return contextlib.nullcontext()


_LOADED: dict[tuple, LoadedModel] = {}
_LOADED_LOCK = threading.Lock()


def loaded_model(model: ResolvedModel | str | Path | None = None, n_threads: int | None = None,
                 n_ctx: int = 4096) -> LoadedModel | None:
    """The engine `load_model` holds for these arguments, or None: nothing is loaded here."""
    try:
        path = (model if isinstance(model, ResolvedModel) else resolve_model(model)).path
    except Exception:  # noqa: BLE001 - a model that cannot be found is not loaded
        return None
    with _LOADED_LOCK:
        return _LOADED.get((str(path), n_threads, n_ctx))


def load_model(model: ResolvedModel | str | Path | None = None, n_threads: int | None = None,
               n_ctx: int = 4096) -> LoadedModel:
    """The engine for a model (as check() resolved it, or named: a path, a short name, None),
    loaded once per process."""
    path = (model if isinstance(model, ResolvedModel) else resolve_model(model)).path
    key = (str(path), n_threads, n_ctx)
    with _LOADED_LOCK:
        eng = _LOADED.get(key)
        if eng is None:
            m = Model(path)
            m.preload_tokenizer()        # the vocabulary loads while the session is set up
            session = m.session(n_threads=n_threads, n_ctx=min(n_ctx, max(m.info.n_ctx_train, 512)),
                                **checker_settings(m.info.layer_type))
            eng = LoadedModel(m, session, code_shortlist(m, 1024))
            _LOADED[key] = eng
        return eng
