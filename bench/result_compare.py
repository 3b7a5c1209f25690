"""Whether a check's result is the one a serial (or fresh) run of the same cell gives: what a
loaded server or an interrupted kernel must not change."""
from __future__ import annotations

import math

# what the stats say about the outcome; the rest counts effort (rows scored, layers computed,
# seconds), which depends on how much the last check left in the KV for this one to reuse
OUTCOME_STATS = ("tokens", "cancelled", "model", "arch", "exit_policy", "mode", "pieces")
# a token's place and decision; its probability is compared within the tolerance. Its rank among
# the vocabulary, its runners-up and its exit layer are left out: computed in a batch of another
# shape (a check that resumes another's KV, or a fresh one) the probabilities differ in the 4th
# decimal, which reorders near-equal runners-up, and gains (sums of log-probabilities over many
# tokens) by up to a few hundredths of a nat; the findings and edits they lead to must not differ
TOKEN_FIELDS = ("index", "text", "start", "end", "line", "column", "decision", "prob")
ABS_TOLERANCE, REL_TOLERANCE = 1e-2, 5e-2


def _outcome(result: dict) -> dict:
    return {**result, "tokens": _tokens(result["tokens"]),
            "stats": {k: result.get("stats", {}).get(k) for k in OUTCOME_STATS}}


def _tokens(tokens: list[dict]) -> list[dict]:
    return [{k: t[k] for k in TOKEN_FIELDS} for t in tokens]


def differences(a, b, path="", drift=None) -> list[str]:
    """Where two results' JSON differ (numbers: beyond the tolerances); `drift` collects the
    numbers' differences."""
    if isinstance(a, dict) and isinstance(b, dict):
        keys = sorted(set(a) | set(b))
        return [d for k in keys for d in differences(a.get(k), b.get(k), f"{path}.{k}".lstrip("."), drift)]
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{path}: {len(a)} items, not {len(b)}"]
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f"{path}[{i}]", drift)]
    if isinstance(a, float) and isinstance(b, float) and not isinstance(a, bool):
        if drift is not None:
            drift.append(abs(a - b))
        close = math.isclose(a, b, rel_tol=REL_TOLERANCE, abs_tol=ABS_TOLERANCE)
        return [] if close else [f"{path}: {a!r}, not {b!r}"]
    return [] if a == b else [f"{path}: {str(a)[:40]!r}, not {str(b)[:40]!r}"]


def compare(result: dict, reference: dict, cancelled: bool, drift: list) -> tuple[str, str] | None:
    """('cross_talk' | 'mismatch', why) when `result` is not the serial `reference` (None: it is).
    Cross-talk: the result is another request's (other text). Mismatch: the same cell checked
    otherwise. A cancelled result holds the tokens decided so far: the reference's first ones."""
    texts = [t["text"] for t in result["tokens"]]
    if result.get("source") != reference.get("source") or \
            texts != [t["text"] for t in reference["tokens"]][:len(texts)]:
        return "cross_talk", f"another text: {result.get('source', '')[:60]!r}"
    if cancelled:
        found = differences(_tokens(result["tokens"]), _tokens(reference["tokens"][:len(texts)]), "tokens", drift)
    else:
        found = differences(_outcome(result), _outcome(reference), "", drift)
    return ("mismatch", "; ".join(found[:3])) if found else None
