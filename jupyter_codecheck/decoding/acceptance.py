"""When is the cell's own token plausible enough to keep?

The rule combines tests (any or all must hold): probability >= `prob`, rank <= `rank` (0-based:
rank 0 is the argmax), is the argmax. The first `lenient_tokens` tokens of the input have little
context, so there a token is kept unless its probability is below `lenient_floor`; the first
token of all is always kept (nothing predicts it).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .dist import Dist


@dataclass(frozen=True)
class AcceptanceRule:
    prob: float | None = 0.2          # accept if p >= prob
    rank: int | None = 9              # accept if rank <= rank (top-10)
    argmax: bool = False              # accept if the token is the argmax
    combine: str = "any"              # "any" or "all" of the enabled tests
    lenient_tokens: int = 3           # the first tokens of the input...
    lenient_floor: float = 0.001      # ...are kept unless p < this

    def __post_init__(self):
        if self.combine not in ("any", "all"):
            raise ValueError(f"combine must be 'any' or 'all', got {self.combine!r}")
        if self.prob is not None and not 0.0 < self.prob <= 1.0:
            raise ValueError(f"prob must be in (0, 1], got {self.prob}")
        if self.rank is not None and self.rank < 0:
            raise ValueError(f"rank must be >= 0, got {self.rank}")
        if self.prob is None and self.rank is None and not self.argmax:
            raise ValueError("enable at least one test (prob, rank or argmax)")
        if not 0.0 <= self.lenient_floor < 1.0:
            raise ValueError(f"lenient_floor must be in [0, 1), got {self.lenient_floor}")

    def top_k_needed(self) -> int:
        """Candidates a Dist must carry for this rule to judge any token exactly."""
        k = 2
        if self.rank is not None:
            k = max(k, self.rank + 2)
        if self.prob is not None:
            k = max(k, int(math.ceil(1.0 / self.prob)) + 1)
        return k

    def accepts(self, dist: Dist, token: int, index: int) -> bool:
        """Is `token` kept at input position `index` (0-based) given the model's `dist`?"""
        if index == 0:
            return True
        logp = dist.logprob_of(token)
        if index < self.lenient_tokens:
            return logp >= math.log(self.lenient_floor) if self.lenient_floor > 0 else True
        tests = []
        if self.prob is not None:
            tests.append(dist.known(token) and logp >= math.log(self.prob))
        if self.rank is not None:
            tests.append(dist.rank_of(token) <= self.rank)
        if self.argmax:
            tests.append(dist.rank_of(token) == 0)
        return any(tests) if self.combine == "any" else all(tests)
