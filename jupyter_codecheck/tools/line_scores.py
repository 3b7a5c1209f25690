"""How suspicious is a line? Scores that rank a check's finding lines (higher = look here first).

A finding's line is scored from the token records of that line (the model's probability and rank
of each of the cell's own tokens, and its top-5 alternatives). Only *judged* tokens count: the
first token of the cell, magics, and names being defined / comments / strings (which the checker
keeps whatever the model says) are left out, so a new variable name cannot outrank a wrong
operator.

Methods (measured on HumanEvalFix and DebugBench by bench/quality.py, see bench/reports/):
    finding    the score check() gives the finding (surprisal of the token where the edit starts)
    worst      the largest surprisal -log p of a judged token on the line
    mean       the mean surprisal of the line's judged tokens
    sum        the total surprisal of the line's judged tokens
    relative   the largest surprisal minus the model's expected surprisal (entropy) at that
               position: a rare token where the model was sure counts more than one where many
               tokens were possible. The entropy is estimated from the top-5 alternatives, the
               remaining mass counted at the 5th probability (a lower bound).
    rank       the largest log(1 + rank) of a judged token on the line
"""
from __future__ import annotations

import math
from typing import Callable

from ..core.masking import masked_spans
from ..pytext.pysource import free_spans
from ..core.result import CheckResult, TokenRecord

_FLOOR = 1e-12
METHODS = ("finding", "worst", "mean", "sum", "relative", "rank")


def judged_tokens(result: CheckResult) -> list[TokenRecord]:
    """The tokens the acceptance rule decides on (see module docstring), with a probability."""
    data = result.source.encode("utf-8")
    skip = masked_spans(data) + free_spans(result.source)
    out = []
    for t in result.tokens:
        if t.index == 0 or t.prob is None or t.decision == "masked":
            continue
        if any(t.start < b and t.end > a for a, b in skip):
            continue
        out.append(t)
    return out


def surprisal(t: TokenRecord) -> float:
    return -math.log(max(t.prob, _FLOOR))


def entropy_estimate(t: TokenRecord) -> float:
    """Entropy (nats) of the model's distribution at `t`'s position from its top-5 alternatives."""
    alts = [a.prob for a in t.alternatives if a.prob > 0]
    if not alts:
        return 0.0
    h = -sum(p * math.log(p) for p in alts)
    rest = max(0.0, 1.0 - sum(alts))
    return h + rest * -math.log(max(min(alts), _FLOOR))


_TOKEN_SCORES: dict[str, Callable[[TokenRecord], float]] = {
    "worst": surprisal,
    "relative": lambda t: surprisal(t) - entropy_estimate(t),
    "rank": lambda t: math.log1p(t.rank if t.rank is not None else 0),
}


def line_scores(result: CheckResult, method: str = "worst", lines=None) -> dict[int, float]:
    """Score of each finding line (or of each line in `lines`) by `method`. A line without a
    judged token keeps its finding score (e.g. an insertion at the end of the cell)."""
    if method not in METHODS:
        raise ValueError(f"unknown scoring method {method!r}; choose one of {', '.join(METHODS)}")
    finding = {f.line: f.score for f in result.findings}
    wanted = sorted(finding) if lines is None else sorted(lines)
    if method == "finding":
        return {ln: finding.get(ln, 0.0) for ln in wanted}
    by_line: dict[int, list[TokenRecord]] = {}
    for t in judged_tokens(result):
        by_line.setdefault(t.line, []).append(t)
    out = {}
    for ln in wanted:
        toks = by_line.get(ln)
        if not toks:
            out[ln] = finding.get(ln, 0.0)
        elif method == "mean":
            out[ln] = sum(surprisal(t) for t in toks) / len(toks)
        elif method == "sum":
            out[ln] = sum(surprisal(t) for t in toks)
        else:
            out[ln] = max(_TOKEN_SCORES[method](t) for t in toks)
    return out


def ranked_lines(result: CheckResult, method: str = "worst") -> list[int]:
    """The finding lines, most suspicious first (ties: earlier line first)."""
    scores = line_scores(result, method)
    return sorted(scores, key=lambda ln: (-scores[ln], ln))


__all__ = ["METHODS", "judged_tokens", "surprisal", "entropy_estimate", "line_scores", "ranked_lines"]
