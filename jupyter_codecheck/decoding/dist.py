"""Dist: what the model said about one position, enough to judge ANY token there.

Keeps the exact statistics of the reference token (the cell's token at that position) and the
model's top-K candidates. For a token outside the top-K only bounds are known (rank >= K,
p <= p_K); that settles every acceptance test whose thresholds lie inside the top-K
(rank <= N with N < K, p >= tau with 1/tau <= K), which `AcceptanceRule` checks.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Dist:
    ref: int | None              # the reference token id (None past the end of the input)
    ref_logprob: float           # log p(ref) (nan when ref is None)
    ref_rank: int                # tokens with a higher logit (-1 when ref is None)
    top_ids: np.ndarray          # (K,) most likely tokens, best first
    top_logprobs: np.ndarray     # (K,)
    exit_layer: int              # layer whose output gave these numbers
    full_depth: bool             # read through the full head at the last layer (not an exit)

    def logprob_of(self, token: int) -> float:
        """log p(token), or an upper bound (the K-th log-prob) when it is outside the top-K."""
        if token == self.ref:
            return self.ref_logprob
        hit = np.flatnonzero(self.top_ids == token)
        if hit.size:
            return float(self.top_logprobs[hit[0]])
        return float(self.top_logprobs[-1]) if self.top_ids.size else -math.inf

    def rank_of(self, token: int) -> int:
        """0-based rank, or a lower bound (K) when it is outside the top-K."""
        if token == self.ref:
            return self.ref_rank
        hit = np.flatnonzero(self.top_ids == token)
        return int(hit[0]) if hit.size else int(self.top_ids.size)

    def known(self, token: int) -> bool:
        return token == self.ref or bool((self.top_ids == token).any())

    @property
    def top1(self) -> int:
        return int(self.top_ids[0])

    @property
    def margin(self) -> float:
        """top1 - top2 log-probability (inf with a single candidate)."""
        if self.top_logprobs.size < 2:
            return math.inf
        return float(self.top_logprobs[0] - self.top_logprobs[1])
