"""llama.cpp-style sampler chain that picks the correction token for a rejected token.

Works on the CANDIDATES ONLY (the model's top-k alternatives: token ids plus natural-log
probabilities relative to the full vocabulary), in the order of llama.cpp's common sampler:
exclude -> top-k -> top-p -> min-p -> temperature -> draw.  Pure numpy on purpose: this module
must never import ggml, llama_cpp or ``jupyter_codecheck.engine``.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Iterable

import numpy as np

__all__ = ["DEFAULT_SEED", "NoCandidateError", "SamplerChain", "SamplerConfig"]

# Fixed rather than entropy-seeded: a checker that suggests different corrections on every
# run of the same notebook is confusing, so reproducibility is the default.
DEFAULT_SEED = 0


class NoCandidateError(ValueError):
    """No candidate left to choose from (empty input, or every candidate excluded)."""


@dataclass(frozen=True)
class SamplerConfig:
    temperature: float = 0.0   # <= 0: greedy (argmax), the default
    top_k: int = 0             # 0: off
    top_p: float = 1.0         # 1.0: off
    min_p: float = 0.0         # 0.0: off
    seed: int | None = None    # None: DEFAULT_SEED (results are reproducible by default)

    def __post_init__(self):
        # Written as `not (ok)` so that NaN fails every check instead of slipping through.
        if not (isinstance(self.temperature, (int, float)) and 0 <= self.temperature < math.inf):
            raise ValueError(f"temperature must be a finite number >= 0, got {self.temperature!r}")
        if not (isinstance(self.top_k, (int, np.integer)) and not isinstance(self.top_k, bool) and self.top_k >= 0):
            raise ValueError(f"top_k must be an integer >= 0 (0 = off), got {self.top_k!r}")
        if not (isinstance(self.top_p, (int, float)) and 0 < self.top_p <= 1):
            raise ValueError(f"top_p must be in (0, 1] (1 = off), got {self.top_p!r}")
        if not (isinstance(self.min_p, (int, float)) and 0 <= self.min_p < 1):
            raise ValueError(f"min_p must be in [0, 1) (0 = off), got {self.min_p!r}")
        if self.seed is not None and not (
                isinstance(self.seed, (int, np.integer)) and not isinstance(self.seed, bool) and self.seed >= 0):
            raise ValueError(f"seed must be None or an integer >= 0, got {self.seed!r}")

    @property
    def greedy(self) -> bool:
        return self.temperature <= 0


class SamplerChain:
    """Stateful sampler: owns a PCG64 generator so a sequence of draws is reproducible."""

    def __init__(self, config: SamplerConfig | None = None, **overrides):
        if config is None:
            config = SamplerConfig(**overrides)
        elif overrides:
            config = dataclasses.replace(config, **overrides)  # re-runs validation
        self._config = config
        self.reset()

    @property
    def config(self) -> SamplerConfig:
        # Read-only: swapping the config under a live RNG would make runs hard to reproduce.
        return self._config

    def reset(self) -> None:
        """Return to the seed's initial RNG state, so the same calls give the same tokens again."""
        self._rng = None     # made at the first draw: greedy checks never import numpy.random

    def _generator(self):
        if self._rng is None:
            seed = DEFAULT_SEED if self._config.seed is None else int(self._config.seed)
            self._rng = np.random.Generator(np.random.PCG64(seed))
        return self._rng

    def describe(self) -> str:
        c = self._config
        if c.greedy:
            return "greedy"  # the filters always keep the argmax, so they change nothing here
        parts = []
        if c.top_k > 0:
            parts.append(f"top-k {c.top_k}")
        if c.top_p < 1:
            parts.append(f"top-p {c.top_p:g}")
        if c.min_p > 0:
            parts.append(f"min-p {c.min_p:g}")
        parts.append(f"temp {c.temperature:g}")
        if c.seed is not None:
            parts.append(f"seed {c.seed}")
        return " | ".join(parts)

    def sample(self, token_ids, logprobs, *, exclude: Iterable[int] = ()) -> int:
        ids, lp = _validate(token_ids, logprobs)
        c = self._config

        # 1. drop excluded ids (e.g. the rejected token itself).
        excl = np.fromiter((int(t) for t in exclude), dtype=np.int64)
        if excl.size:
            keep = ~np.isin(ids, excl)
            ids, lp = ids[keep], lp[keep]
        if ids.size == 0:
            raise NoCandidateError("every candidate token was excluded")

        # Canonical order: descending log-prob, ties by smaller id.  The filters below need a
        # sorted list, and sorting here also makes the result independent of the input order.
        order = np.lexsort((ids, -lp))
        ids, lp = ids[order], lp[order]
        if not np.isfinite(lp[0]):
            lp = np.zeros_like(lp)  # all -inf (p = 0 everywhere): treat as uniform, not NaN

        # 2. top-k.
        n = ids.size if c.top_k <= 0 else min(c.top_k, ids.size)
        # 3. top-p: smallest prefix whose mass, renormalised over the survivors, reaches top_p.
        if c.top_p < 1:
            cum = np.cumsum(_softmax(lp[:n]))
            n = min(n, int(np.searchsorted(cum, c.top_p, side="left")) + 1)  # >= 1 by construction
        # 4. min-p: p >= min_p * p_max, done in log space (ratio, so renormalisation is moot).
        if c.min_p > 0:
            n = max(1, int(np.count_nonzero(lp[:n] >= lp[0] + math.log(c.min_p))))
        ids, lp = ids[:n], lp[:n]

        if c.greedy:
            return int(ids[0])  # sorted, so this is the argmax with ties -> smaller id; no RNG use
        # 5. temperature, then 6. draw.  Always consume exactly one uniform per call, so the RNG
        # stream advances identically however many candidates survived.
        p = _softmax(lp / c.temperature)
        u = self._generator().random()
        i = int(np.searchsorted(np.cumsum(p), u * p.sum(), side="right"))
        return int(ids[min(i, n - 1)])  # clamp guards against float round-off at the top end


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max())
    return e / e.sum()


def _validate(token_ids, logprobs) -> tuple[np.ndarray, np.ndarray]:
    """Copy the inputs into fresh arrays (never mutate the caller's) and check them."""
    ids = np.array(token_ids)
    lp = np.array(logprobs, dtype=np.float64)
    if ids.ndim != 1 or lp.ndim != 1 or ids.shape != lp.shape:
        raise ValueError(f"token_ids and logprobs must be 1-D arrays of equal length, "
                         f"got shapes {ids.shape} and {lp.shape}")
    if ids.size == 0:
        raise NoCandidateError("no candidate tokens given")
    if ids.dtype.kind not in "iu":
        raise ValueError(f"token_ids must be integers, got dtype {ids.dtype}")
    ids = ids.astype(np.int64)
    if np.unique(ids).size != ids.size:
        raise ValueError("token_ids contains duplicates")
    if np.isnan(lp).any() or (lp == np.inf).any():
        raise ValueError("logprobs must not be NaN or +inf")
    return ids, lp
