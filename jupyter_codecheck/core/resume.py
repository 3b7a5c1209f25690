"""What a check keeps for the next one on the same model: the KV of the context and the cell, the
walk's decisions, and the verification's verdicts. A re-check of an edited cell takes over its
unchanged, accepted beginning; a notebook's next cell finds the earlier cells' KV in the session.

`Memory` lives beside the session whose KV it describes (`LoadedModel.memory`).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..decoding.editor import EditorConfig

VERDICTS_MAX = 50_000          # verdicts kept on one context before the cache starts afresh


@dataclass
class LastRun:
    """What an edited cell's re-check can reuse: the tokens decided in order before any edit."""
    prefix: list
    ids: list
    events: list
    edits: list
    key: tuple


@dataclass
class Memory:
    last_run: LastRun | None = None
    verdicts: tuple | None = None      # (context and options, {candidate key: verdict})

    def forget(self) -> None:
        self.last_run = self.verdicts = None


def resume_key(opts) -> tuple:
    # a change of any of these starts afresh (decisions, or how they were computed, differ)
    return (opts.accept_prob, opts.accept_rank, opts.accept_argmax, opts.accept_combine,
            opts.lenient_tokens, opts.lenient_floor, opts.python, opts.mode, str(opts.exit_policy),
            opts.kv_mode, opts.lens)


def verdict_cache(memory: Memory, prefix, opts) -> dict:
    """The verification's verdicts on this context, kept from check to check (a re-check after
    an edit scores only what the edit reaches)."""
    ident = (tuple(prefix), resume_key(opts))
    held = memory.verdicts
    if held is None or held[0] != ident or len(held[1]) > VERDICTS_MAX:
        held = memory.verdicts = (ident, {})
    return held[1]


def resumable(memory: Memory, session, prefix, ids, opts) -> tuple[int, list, list]:
    """How many leading cell tokens can be taken over from the last check (0: none), with that
    check's decisions and the walk's edits that lie before them."""
    session.sync()          # an interrupted check may have left its bookkeeping behind the KV
    last = memory.last_run
    if last is None or last.prefix != prefix or last.key != resume_key(opts) or not prefix:
        return 0, [], []
    same = 0
    for a, b in zip(last.ids, ids):
        if a != b:
            break
        same += 1
    # the token before the first difference is scored again (its distribution judges the
    # changed token); before it, tokens accepted in order before any edit are kept...
    accepted = decided = 0
    for ev in last.events:
        if ev.index != decided:
            break
        if accepted == decided and ev.decision in ("accept", "masked"):
            accepted += 1
        decided += 1
    first_edit = min((e.start for e in last.edits), default=len(last.ids))
    start = min(same, first_edit, accepted, len(ids) - 1)
    if opts.anchored:
        # ...and, as the walk judges each token in the cell as written, every decision that the
        # changed tokens cannot reach (a correction may rejoin a few tokens ahead)
        reach = opts.max_unsync + EditorConfig.resync_window + 2
        start = max(start, min(same - reach, decided, len(ids) - 1))
    # an edit the cut would split is found again by the walk
    start = min([start] + [e.start for e in last.edits if e.start < start <= e.end])
    if start < 2 or session.tokens[:len(prefix) + start] != list(prefix) + list(ids[:start]):
        return 0, [], []
    return start, last.events, [e for e in last.edits if e.end < start]


def prime(session, prefix) -> tuple[int | None, int]:
    """Puts `prefix` but its last token in the session, reusing the KV of what it already holds;
    returns that last token (its row judges the cell's first; None without a prefix: then
    nothing does) and how many positions were reused."""
    if not prefix:
        session.truncate(0)
        return None, 0
    keep = min(session.common_prefix(prefix), len(prefix) - 1)
    if keep < session.n_past:
        session.truncate(keep)
    if keep < len(prefix) - 1:
        session.forward(prefix[keep:-1])     # no head needed for the context itself
    return prefix[-1], keep


def hold(session, tokens, cancel=None) -> int:
    """Makes the session hold `tokens` (their K,V, no head read), reusing the positions it
    already holds of them; returns how many it reused. A cancel (`cancel()` true) between layers
    raises decoding's Cancelled, the positions complete before it kept."""
    session.flush()                  # K,V a check's exited rows still owe
    keep = session.common_prefix(tokens)
    session.truncate(keep)
    if keep < len(tokens) and session.forward(tokens[keep:], cancel=cancel).cancelled:
        from ..decoding.scorer import Cancelled
        raise Cancelled("cancelled while the context was computed")
    return keep


def hold_cell(session, prefix, ids) -> bool:
    """Makes the context hold the cell as written (verification rows branch off it): after an
    anchored walk it already does; otherwise the written tokens replace the corrected ones."""
    want = list(prefix) + list(ids)
    need = len(want) - 1
    if need < 1:
        return False
    session.flush()
    if session.common_prefix(want) >= need:
        if session.n_past > len(want):
            session.truncate(len(want))
        return True
    hold(session, want[:need])
    return True


__all__ = ["LastRun", "Memory", "hold", "hold_cell", "prime", "resumable", "resume_key", "verdict_cache"]
