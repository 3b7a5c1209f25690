"""A deterministic fake of the engine's layer stepping, for the pure decoding tests.

The fake model "knows" a target token sequence. Given a context it finds the longest suffix of
the context that occurs in the target and predicts the target's next token with probability
`confidence(layer)` (growing with depth, so exit policies have something to decide), the rest of
the mass spread over the vocabulary. Token 0 is the stop token (predicted after the whole target);
tokens 1..10 are fillers that take the rest of the mass.
"""
from __future__ import annotations

import numpy as np

STOP = 0


class FakeLayerModel:
    def __init__(self, target, *, vocab=60, n_layer=8, max_batch=16, confidence=None, n_ctx=None):
        self.target = list(target)
        self.n_ctx = n_ctx            # positions the context holds, branch rows included (None: any)
        self.vocab = vocab
        self.n_layer = n_layer
        self.max_batch = max_batch
        self.confidence = confidence or (lambda layer: 0.3 + 0.6 * (layer + 1) / n_layer)
        self.context: list[int] = []
        self.tree: list[tuple[int, int, int]] = []   # branch rows (token, parent, base) since the last commit
        self.batches = 0
        self.batch_log: list[tuple[int, list | None]] = []   # (rows, parents or None) per batch
        self.base_log: list[tuple[list, list]] = []          # (tokens, bases) per branch batch
        self.layer_calls = 0
        self.on_layer = None          # hook for tests (e.g. cancellation)

    # -- the model's belief -------------------------------------------------------------------
    def predict(self, ctx) -> int:
        best_k, best_next = 0, 9     # no suffix of the context in the target: a filler
        for j in range(len(self.target) + 1):
            k = 0
            while k < len(ctx) and k < j and ctx[-1 - k] == self.target[j - 1 - k]:
                k += 1
            if k > best_k or (k == best_k and k > 0):
                best_k = k
                best_next = self.target[j] if j < len(self.target) else STOP
        return best_next

    def logprobs(self, ctx, layer) -> np.ndarray:
        top = self.predict(ctx)
        conf = self.confidence(layer)
        # the rest of the mass goes mostly to "filler" tokens 1..10 (never used by the tests), so
        # every other token ranks >= 10 with a tiny probability: clearly rejected
        p = np.full(self.vocab, 1e-4)
        p[1:11] = 0.5 ** np.arange(1, 11)
        p[top] = 0.0
        p *= (1 - conf) / p.sum()
        p[top] = conf
        return np.log(p)

    # -- LayerModel ---------------------------------------------------------------------------
    @property
    def n_context(self):
        return len(self.context)

    @property
    def last_token(self):
        return self.context[-1]

    def begin(self, tokens, parents=None, bases=None):
        if self.n_ctx is not None:      # as the engine: branch rows take cells after the sequence
            held = len(self.context) + (len(self.tree) if parents is not None else 0) + len(tokens)
            assert held <= self.n_ctx, f"context full: {held} positions > {self.n_ctx}"
        self.rows = list(tokens)
        self.before = list(self.context)   # rows are read after end() appended them
        self.parents = None if parents is None else list(parents)
        self.bases = None
        if parents is not None:
            tree = self.tree
            self.bases = []
            for k, p in enumerate(self.parents):   # a root's base, or its parent's
                b = (len(self.context) if bases is None else bases[k]) if p < 0 else \
                    (tree[p][2] if p < len(tree) else self.bases[p - len(tree)])
                assert 0 <= b <= len(self.context)
                self.bases.append(b)
        self.batch_log.append((len(tokens), self.parents))
        if parents is not None:
            self.base_log.append((list(tokens), list(self.bases)))
        if parents is None:
            self.tree = []
        self.layer = -1
        self.stopped = {}
        self.batches += 1

    def step(self):
        if self.layer + 1 >= self.n_layer or len(self.stopped) == len(self.rows):
            return -1
        self.layer += 1
        self.layer_calls += 1
        if self.on_layer:
            self.on_layer(self.layer)
        return self.layer

    def active(self):
        return np.array([r for r in range(len(self.rows)) if r not in self.stopped], dtype=np.int32)

    def stop(self, rows):
        for r in rows:
            self.stopped[int(r)] = self.layer

    def end(self):
        if self.parents is None:
            self.context += self.rows
        else:   # branch rows: (token, parent, base) kept apart until a chain is committed
            self.tree += list(zip(self.rows, self.parents, self.bases))

    def commit(self, nodes):
        for j, n in enumerate(nodes):
            assert self.tree[n][1] == (nodes[j - 1] if j else -1), "not a chain"
        assert self.tree[nodes[0]][2] == len(self.context), "does not follow the end"
        self.context += [self.tree[n][0] for n in nodes]
        self.tree = []

    def _row_context(self, r):
        if self.parents is None:
            return self.before + self.rows[:r + 1]
        tree = self.tree + list(zip(self.rows, self.parents, self.bases))
        path, t = [], len(self.tree) + r
        base = tree[t][2]
        while t >= 0:
            path.append(tree[t][0])
            t = tree[t][1]
        return self.context[:base] + path[::-1]

    def abort(self):
        pass

    def truncate(self, n):
        del self.context[n:]
        self.tree = []

    def _stats(self, rows, refs, top_k, layer_of):
        lp, rank, ids, lps = [], [], [], []
        for r, ref in zip(rows, refs):
            ctx = self._row_context(int(r))
            v = self.logprobs(ctx, layer_of(int(r)))
            order = np.lexsort((np.arange(self.vocab), -v))
            ids.append(order[:top_k])
            lps.append(v[order[:top_k]])
            lp.append(v[ref] if ref >= 0 else np.nan)
            rank.append(int((v > v[ref]).sum()) if ref >= 0 else -1)
        return (np.array(lp, np.float32), np.array(rank, np.int32), np.array(ids, np.int32),
                np.array(lps, np.float32))

    def layer_stats(self, rows, refs, top_k):
        return self._stats(rows, refs, top_k, lambda r: self.layer)

    def final_stats(self, rows, refs, top_k):
        return self._stats(rows, refs, top_k, lambda r: self.stopped.get(r, self.n_layer - 1))
