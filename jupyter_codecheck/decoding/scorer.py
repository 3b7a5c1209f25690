"""Scorer: turns a layer-stepping model plus an exit policy into per-position `Dist`s.

The model is anything with the `LayerModel` shape (the engine adapter in
`jupyter_codecheck/core/adapter.py`, or the scripted fake model of the tests). A batch of tokens is run
layer by layer; after the layers the policy wants to test, the cheap head's numbers for the active
rows go to the policy, and the rows it stops leave the stack with a `Dist` read at that layer.

A test at the last layer saves no layer but the full output head (49k rows for SmolLM2, ~8
layers of work; with exact K,V every row runs every layer, so that head is all an exit saves).
The cheap head of the last layer reads the reference token's exact logit and misses only the
mass outside its shortlist, so a reference token the policy finds likely there is likely at full
depth too. Rows that run to the end untested or not stopped get a `Dist` from the full head.
Every Dist not read through the full head has `full_depth` False: the editor confirms a
rejection read from it at full depth.
"""
from __future__ import annotations

import time
from typing import Callable, Protocol, Sequence

import numpy as np

from .dist import Dist
from .exit_policy import ExitPolicy, LayerStats


class Cancelled(Exception):
    """The caller cancelled the check; the model's context is as before the batch."""


class LayerModel(Protocol):
    n_layer: int
    max_batch: int

    @property
    def n_context(self) -> int: ...
    @property
    def last_token(self) -> int: ...
    # parents: branch rows (alternatives, full depth; see Scorer.branch), else ordinary rows
    def begin(self, tokens: Sequence[int], parents: Sequence[int] | None = None,
              bases: Sequence[int] | None = None) -> None: ...
    def commit(self, nodes: Sequence[int]) -> None: ...
    def step(self) -> int: ...                          # layer computed, -1 when done
    def active(self) -> np.ndarray: ...
    def stop(self, rows: np.ndarray) -> None: ...
    def end(self) -> None: ...
    def abort(self) -> None: ...
    def truncate(self, n: int) -> None: ...
    # (ref_logprob, ref_rank, top_ids, top_logprobs) for rows; refs: -1 = none
    def layer_stats(self, rows: np.ndarray, refs: np.ndarray, top_k: int): ...
    def final_stats(self, rows: np.ndarray, refs: np.ndarray, top_k: int): ...


class Scorer:
    def __init__(self, model: LayerModel, policy: ExitPolicy | None, *, top_k: int = 32,
                 cancel: Callable[[], bool] | None = None):
        self.model = model
        self.policy = policy
        self.top_k = top_k
        self.cancel = cancel
        self._test_layers = policy.test_layers(model.n_layer) if policy else set()
        self._branch_tokens: list[int] = []   # branch rows since the last commit
        self.batches = 0                      # batches run: the last one's rows can be re-read
        # accounting for the run statistics
        self.rows_scored = 0
        self.full_heads = 0                   # rows read through the full output head
        self.exit_histogram = np.zeros(model.n_layer, dtype=np.int64)
        # branch batches by purpose (what the walk scores besides the input itself): batches,
        # rows, seconds. Says where drafting could save batches (the unsynchronised search)
        self.branch_stats: dict[str, list] = {}

    @property
    def n_context(self) -> int:
        return self.model.n_context

    @property
    def next_branch_row(self) -> int:
        """The number the next branch row will get (parents may name rows of the same batch)."""
        return len(self._branch_tokens)

    def truncate(self, n: int) -> None:
        self.model.truncate(n)
        self._branch_tokens = []

    def extend(self, tokens: Sequence[int], refs: Sequence[int | None], *,
               prev_accepted: bool = True, allow_exit: bool = True,
               exit_ok: Sequence[bool] | None = None,
               last_ok: Sequence[bool] | None = None) -> list[Dist]:
        """Appends tokens to the context; dist k judges the token after tokens[k] (refs[k]).
        Rows with exit_ok[k] False run to the last layer whatever the policy says; there, rows
        with last_ok[k] False (default: exit_ok[k]) are read through the full head."""
        out: list[Dist] = []
        self._branch_tokens = []      # an ordinary batch takes the branch rows' place
        step = self.model.max_batch
        if last_ok is None:
            last_ok = exit_ok
        for b in range(0, len(tokens), step):
            ok = None if exit_ok is None else np.asarray(exit_ok[b:b + step], bool)
            ok_last = None if last_ok is None else np.asarray(last_ok[b:b + step], bool)
            out += self._batch(list(tokens[b:b + step]), list(refs[b:b + step]),
                               prev_accepted if b == 0 else True, allow_exit, ok, ok_last)
        return out

    def branch(self, tokens: Sequence[int], parents: Sequence[int], refs: Sequence[int | None],
               base: "int | Sequence[int] | None" = None, purpose: str = "branch",
               exit_at_last: bool = False, early: ExitPolicy | None = None,
               early_ok: Sequence[bool] | None = None,
               read: Sequence[bool] | None = None) -> tuple[list[Dist | None], list[int]]:
        """Scores alternatives in one batch without adding them to the context (tree attention):
        token k follows the context (parents[k] == -1) or the branch row parents[k]. With `base`
        (one for all, or one per row), a row with parents[k] == -1 follows context position
        base - 1 instead of the last one (it and its descendants see the context's first `base`
        tokens only). Branch rows are numbered from 0 since the last commit; returns the Dists and
        the rows' numbers. They run at full depth: they judge corrections, which are never read
        at an early exit; with `exit_at_last`, the policy's test at the last layer may settle a
        row through the cheap head (verification rows, whose sums tolerate its bound). With
        `early`, where the model lets branch rows stop (`branch_stops`: K,V from the exit state),
        that policy may stop rows (those with `early_ok`, default all) before the last layer:
        rows thrown away after scoring only. `purpose` names the batch in `branch_stats`. With
        `read`, a row whose flag is False is run for its K,V alone: no head reads it and its
        Dist is None (a prompt's rows before its last one)."""
        if len(tokens) > self.model.max_batch:
            raise ValueError(f"{len(tokens)} branch rows exceed the batch size {self.model.max_batch}")
        first = self.next_branch_row
        bases = None if base is None else [base] * len(tokens) if isinstance(base, int) else list(base)
        t0 = time.perf_counter()
        if not getattr(self.model, "branch_stops", False):
            early = None
        dists = self._batch(list(tokens), list(refs), False, exit_at_last, parents=list(parents),
                            bases=bases, last_only=True, early=early,
                            early_ok=None if early_ok is None else np.asarray(early_ok, bool),
                            read=None if read is None else np.asarray(read, bool))
        acc = self.branch_stats.setdefault(purpose, [0, 0, 0.0])
        acc[0] += 1
        acc[1] += len(tokens)
        acc[2] += time.perf_counter() - t0
        self._branch_tokens += [int(t) for t in tokens]
        return dists, list(range(first, first + len(tokens)))

    def reread(self, rows: Sequence[int], refs: Sequence[int | None]) -> list[Dist]:
        """Rows of the LAST batch judged against other reference tokens: their Dists again from
        the same states (full-depth rows only), for the price of the head alone."""
        return self._final_dists(np.asarray(rows, np.int32), list(refs))

    def commit(self, nodes: Sequence[int]) -> list[int]:
        """Appends a chain of branch rows (each the child of the one before) to the context;
        returns their tokens. The other branch rows are forgotten."""
        tokens = [self._branch_tokens[n] for n in nodes]
        self.model.commit(list(nodes))
        self._branch_tokens = []
        return tokens

    def confirm(self, ref: int | None) -> Dist:
        """The last context token scored again at full depth (a rejection read at an early exit
        is confirmed before it becomes an edit)."""
        last = self.model.last_token
        self.model.truncate(self.model.n_context - 1)
        return self.extend([last], [ref], allow_exit=False)[0]

    def _batch(self, tokens, refs, prev_accepted_first, allow_exit, exit_ok=None, last_ok=None,
               parents=None, bases=None, last_only=False, early=None, early_ok=None, read=None) -> list[Dist]:
        model, n = self.model, len(tokens)
        last = model.n_layer - 1
        ref_arr = _ref_array(refs)
        may_stop = (exit_ok is None or exit_ok.any()) or (last_ok is None or last_ok.any())
        policy = self.policy if allow_exit and may_stop else None
        if policy is not None:
            policy.start(n)
        early_layers = None
        if early is not None:
            early.start(n)
            early_layers = early.test_layers(model.n_layer)
        prev_ok = np.ones(n, bool)
        prev_ok[0] = prev_accepted_first
        dists: list[Dist | None] = [None] * n
        if parents is None:
            model.begin(tokens)
        else:
            model.begin(tokens, parents, bases)
        try:
            while True:
                layer = model.step()
                if layer < 0:
                    break
                if self.cancel is not None and self.cancel():
                    raise Cancelled()
                test, ok = policy, (exit_ok if layer < last else last_ok)
                if early is not None and layer < last:
                    if early_layers is not None and layer not in early_layers:
                        continue
                    test, ok = early, early_ok
                else:
                    if policy is None:
                        continue
                    if self._test_layers is not None and layer not in self._test_layers:
                        continue
                    if last_only and layer < last:
                        continue
                rows = model.active()
                if ok is not None:
                    rows = rows[ok[rows]]
                if rows.size == 0:
                    continue
                # one head call serves the test and, for the rows that stop, their Dist (top-K
                # at the exit layer); the policies read the first two candidates
                lp, rank, ids, lps = model.layer_stats(rows, ref_arr[rows], self.top_k)
                stats = LayerStats(layer, model.n_layer, rows, lp, rank, ids, lps, prev_ok[rows])
                stop = np.asarray(test.decide(stats), bool)
                if stop.any():
                    for j in np.flatnonzero(stop).tolist():
                        r = int(rows[j])
                        dists[r] = self._dist(refs[r], lp[j], rank[j], ids[j], lps[j], layer,
                                              full_head=False)
                    if parents is None or layer < last:     # after the last layer nothing is left to skip
                        model.stop(rows[stop])
            model.end()
        except BaseException:
            model.abort()
            raise
        rest = np.array([r for r in range(n) if dists[r] is None and (read is None or read[r])], dtype=np.int32)
        if rest.size:
            for r, d in zip(rest.tolist(), self._final_dists(rest, [refs[r] for r in rest.tolist()])):
                dists[r] = d
        self.rows_scored += n
        self.batches += 1
        for d in dists:
            if d is not None:
                self.exit_histogram[d.exit_layer] += 1
        return dists  # type: ignore[return-value]

    def _final_dists(self, rows: np.ndarray, refs: list) -> list[Dist]:
        """Full-depth Dists of rows of the last batch, each judging its reference token."""
        lp, rank, ids, lps = self.model.final_stats(rows, _ref_array(refs), self.top_k)
        self.full_heads += len(refs)
        return [self._dist(r, lp[j], rank[j], ids[j], lps[j], self.model.n_layer - 1)
                for j, r in enumerate(refs)]

    def _dist(self, ref, lp, rank, ids, lps, layer, full_head=True) -> Dist:
        return Dist(ref=ref, ref_logprob=float(lp) if ref is not None else float("nan"),
                    ref_rank=int(rank) if ref is not None else -1,
                    top_ids=np.asarray(ids).copy(), top_logprobs=np.asarray(lps).copy(),
                    exit_layer=int(layer), full_depth=full_head)


def _ref_array(refs) -> np.ndarray:
    """Reference tokens for the model (-1: none, past the end of the input)."""
    return np.array([-1 if r is None else r for r in refs], dtype=np.int32)
