"""Whole-line repairs as candidate fixes (the `repairs="lines"` option).

At the cell's most suspicious lines (each ranked by its most surprising token as the walk read
it), the model writes the line again (decoding/line_repair.py): from the cell before the line,
sharing the walk's K,V (`prompt="left"`), or given the code before and after it through the
model's fill-in-the-middle tokens (`prompt="fim"`: the walk's K,V of the cell before the line
followed by `<|fim_suffix|>` the code after it `<|fim_middle|>`; `"fim-prefix"`: the model's
own form, `<|fim_prefix|>` first, which no K,V of the walk serves). Each proposal becomes the smallest edit that
turns the written line into it (whole words), a `Candidate` of source "line" that passes the
same gates and is weighed by the same evidence as every other candidate: what the rest of the
cell gains with it (decoding/verify.py). The single-token edits stay as they are, beside it.
"""
from __future__ import annotations

import bisect
import builtins
import keyword
import math
import re
import time
from dataclasses import dataclass

from ..decoding.line_repair import LineProposer, LineTask
from .candidates import Candidate

# the fill-in-the-middle tokens, Qwen2.5-Coder's then StarCoder's spelling
FIM_SPELLINGS = (("<|fim_prefix|>", "<|fim_suffix|>", "<|fim_middle|>"),
                 ("<fim_prefix>", "<fim_suffix>", "<fim_middle>"))
PROMPTS = ("left", "fim", "fim-prefix")
AFTER_TOKENS = 128     # of the code after a line, what a fill-in-the-middle prompt reads
# A fill-in-the-middle proposal's evidence is its own gain: log P(line | before, after) of the
# proposal minus that of the line as written. With the prompt "prefix, suffix, middle" the text
# before and after is scored alike on both sides, so this is the gain of the whole text under
# that reading (entropy-delta, arXiv 2404.15236), both sides of the line included.
FIM_SOURCE = "line:fim"
# its floor, in nats (the `repair_margin` option): a round value set before any measurement, to
# be replaced by the floor `bench/repairs.py --calibrate` finds on DebugBench's calibration half
# once enough of its correct files are measured (docs/measurements.md says how far that got)
FIM_MARGIN = 4.0
MAX_EXTRA = 8          # tokens a proposed line may have beyond the written one


def fim_ids(tok) -> tuple[int, int, int] | None:
    """The model's (prefix, suffix, middle) fill-in-the-middle token ids, or None."""
    for names in FIM_SPELLINGS:
        ids = []
        for name in names:
            enc = tok.encode(name, parse_special=True).ids
            if len(enc) != 1 or tok.piece(enc[0]) != name.encode():
                break
            ids.append(enc[0])
        else:
            return tuple(ids)
    return None


@dataclass
class LineRepairConfig:
    lines: int = 3                 # the most suspicious lines repaired
    # "left": the cell before the line (the walk's K,V); "fim": that, then `<|fim_suffix|>` the
    # code after the line `<|fim_middle|>` (the walk's K,V serve as the prefix); "fim-prefix":
    # the model's own form, `<|fim_prefix|>` first (rows of its own: no K,V of the walk serve)
    prompt: str = "left"
    n_candidates: int = 3          # forks at the first token the model writes otherwise
    draft: bool = True             # the written line as the draft (decoding/line_repair.py)
    shared: bool = True            # "left": the walk's K,V of the cell before the line


def suspicious_lines(records: dict, n: int, free=()) -> list[int]:
    """The `n` lines whose most surprising token (as the walk read it) is the most surprising.
    Not counted: the cell's first token (no context of its own), white space, and tokens in the
    byte spans `free` (`header_spans`: a signature's names can be anything)."""
    worst: dict[int, float] = {}
    for r in records.values():
        if any(a < r.end and r.start < b for a, b in free):
            continue
        if r.prob is not None and r.decision != "masked" and r.text.strip() and r.index > 0:
            nats = -math.log(max(r.prob, 1e-12))
            if nats > worst.get(r.line, -1.0):
                worst[r.line] = nats
    return sorted(worst, key=lambda ln: (-worst[ln], ln))[:n]


def line_candidates(*, data: bytes, enc, records: dict, scorer, tok, prefix: list[int],
                    offset: int, cfg: LineRepairConfig, free=(), before: str = "",
                    room: int | None = None) -> tuple[list[tuple[Candidate, float | None]], dict]:
    """Candidates at the cell's most suspicious lines, each with its gain where the prompt gives
    it (fill-in-the-middle: source "line:fim", see `FIM_SOURCE`; None: source "line", to be
    weighed on the rest of the cell), and statistics. The
    context holds the cell as written after `prefix` (its token 0 at position `offset`);
    `room`: branch rows the context can hold (a line whose rows would not fit is left out);
    `free`: byte spans whose tokens do not make a line suspicious (`header_spans`); `before`:
    the text a fill-in-the-middle prompt reads before the cell (the context cells)."""
    t0 = time.perf_counter()
    line_starts = [0] + [i + 1 for i, b in enumerate(data) if b == 0x0A]
    fim = fim_ids(tok) if cfg.prompt != "left" else None
    if cfg.prompt != "left" and fim is None:
        raise ValueError("this model has no fill-in-the-middle tokens: use the 'left' prompt")
    ids = list(enc.ids)
    tasks, spans = [], {}
    for ln in suspicious_lines(records, cfg.lines, free):
        span = line_tokens(enc, data, line_starts, ln)
        if span is None:
            continue
        a, b, line_end = span
        written = ids[a:b + 1]
        if fim is not None:
            after = [fim[1]] + tok.encode(data[line_end + 1:].decode("utf-8", "replace")).ids[:AFTER_TOKENS] + [fim[2]]
            if cfg.prompt == "fim-prefix":
                text = before + data[:enc.starts[a]].decode("utf-8", "replace")
                tasks.append(LineTask(ln, [fim[0]] + tok.encode(text).ids + after, 0, written))
            elif cfg.shared:        # the walk's K,V of the cell before the line is the prefix
                tasks.append(LineTask(ln, after, offset + a, written))
            else:
                tasks.append(LineTask(ln, list(prefix) + ids[:a] + after, 0, written))
        elif cfg.shared:
            lead = ids[a - 1] if a > 0 else prefix[-1]
            tasks.append(LineTask(ln, [lead], offset + a - 1, written))
        else:
            tasks.append(LineTask(ln, list(prefix) + ids[:a], 0, written))
        # its prompt, its draft and every fork written to the longest line allowed
        need = len(tasks[-1].prompt) + 2 * (len(written) + MAX_EXTRA) * (1 + cfg.n_candidates)
        if room is not None and need > room:
            tasks.pop()
            continue
        room = None if room is None else room - need
        spans[ln] = (enc.starts[a], line_end)
    proposer = LineProposer(scorer, ends_line=lambda t: b"\n" in tok.piece(t),
                            stops=lambda t: tok.is_eog(t) or tok.is_control(t),
                            n_candidates=cfg.n_candidates, max_extra=MAX_EXTRA, draft=cfg.draft)
    proposals = proposer.propose(tasks)
    out, seen, dropped = [], set(), 0
    for p in proposals:
        start, end = spans[p.key]
        text = b"".join(tok.piece(t) for t in p.tokens).split(b"\n", 1)[0]
        if not_a_repair(data, start, end, text) is not None:
            dropped += 1
            continue
        c = smallest_edit(data, start, end, text, p.key, FIM_SOURCE if fim is not None else "line")
        if c is not None and (c.start, c.end, c.text) not in seen:
            seen.add((c.start, c.end, c.text))
            out.append((c, p.logprob - p.written_logprob if fim is not None else None))
    stats = {"lines": len(tasks), "proposals": len(proposals), "not_repairs": dropped, "candidates": len(out),
             "batches": proposer.batches, "rows": proposer.rows, "prompt_rows": proposer.prompt_rows,
             "draft_rows": proposer.draft_rows, "time_s": time.perf_counter() - t0}
    return out, stats


_CALLEE = re.compile(r"(?<![\w.])([A-Za-z_]\w*)(?:\s*\.\s*[A-Za-z_]\w*)*\s*\(")
_NOT_CALLEES = frozenset(keyword.kwlist)          # `if (`, `not (`, `in (`: no call


def not_a_repair(data: bytes, start: int, end: int, new: bytes) -> str | None:
    """Why the model's line is no repair of the written one (None: it may be), whatever its gain.
    The model writes these where it cannot know the code it reads, not where the line is wrong:
      an import in place of a statement   an import computes nothing (a name the cell lacks is
                                          Python's own undefined-name error)
      a neighbour copied                  the line before or after it, again: filling the middle
                                          with the suffix's first line is how the model writes
                                          a line it cannot tell
      a call dropped for a built-in's     the line calls a function the code defines or imports
                                          (whose body the model never reads) and the model's
                                          line calls none of it, only built-ins or nothing"""
    old = data[start:end].decode("utf-8", "replace").strip()
    line = new.decode("utf-8", "replace").strip()
    if _is_import(line) and not _is_import(old):
        return "an import in place of a statement"
    lines = [x.strip() for x in data.split(b"\n")]
    at = data.count(b"\n", 0, start)
    neighbours = [next((x for x in lines[at - 1::-1] if x), b"") if at > 0 else b"",
                  next((x for x in lines[at + 1:] if x), b"")]
    if line and any(line == n.decode("utf-8", "replace") for n in neighbours):
        return "a neighbour copied"
    calls_old, calls_new = _callees(old), _callees(line)
    dropped = {c for c in calls_old - calls_new if not hasattr(builtins, c)}
    if dropped and all(hasattr(builtins, c) for c in calls_new - calls_old):
        return "a call dropped for a built-in's"
    return None


def _is_import(line: str) -> bool:
    return line.startswith("import ") or (line.startswith("from ") and " import " in line)


def _callees(line: str) -> set[str]:
    """The first names of what a line calls (`np.max(x)`: np)."""
    return {m.group(1) for m in _CALLEE.finditer(line) if m.group(1) not in _NOT_CALLEES}


def header_spans(data: bytes) -> list[tuple[int, int]]:
    """Byte spans of the lines that open a function or class (and decorators): the names they
    define are the author's choice, the most surprising tokens of a file and no bug of its."""
    out, at = [], 0
    for line in data.split(b"\n"):
        head = line.lstrip()
        if head.startswith((b"def ", b"async def ", b"class ", b"@")):
            out.append((at, at + len(line)))
        at += len(line) + 1
    return out


def line_tokens(enc, data: bytes, line_starts: list[int], ln: int) -> tuple[int, int, int] | None:
    """(first token, token holding the line's newline, byte of that newline) of line `ln`: the
    first token is the first one that starts on the line (the indentation before it is read as
    the context's); None for a line without a newline or without a token of its own."""
    if ln >= len(line_starts):
        return None                      # the last line, with no newline after it
    line_end = line_starts[ln] - 1       # the newline's byte
    a = bisect.bisect_left(enc.starts, line_starts[ln - 1])
    b = bisect.bisect_right(enc.starts, line_end) - 1
    if a >= len(enc.starts) or a > b or enc.starts[a] >= line_end:
        return None
    return a, b, line_end


def smallest_edit(data: bytes, start: int, end: int, new: bytes, site: int,
                  source: str = "line") -> Candidate | None:
    """The edit of data[start:end] into `new` that leaves the most of it alone: the common
    beginning and end are kept, each cut back to a word's or operator's boundary (None: no
    change)."""
    old = data[start:end]
    if old == new:
        return None
    p = 0
    while p < min(len(old), len(new)) and old[p] == new[p]:
        p += 1
    s = 0
    while s < min(len(old), len(new)) - p and old[len(old) - 1 - s] == new[len(new) - 1 - s]:
        s += 1
    while p > 0 and _joined(old[p - 1:p], old[p:p + 1], new[p:p + 1]):
        p -= 1
    while s > 0 and _joined(old[len(old) - s:len(old) - s + 1], old[len(old) - s - 1:len(old) - s],
                            new[len(new) - s - 1:len(new) - s]):
        s -= 1
    text = new[p:len(new) - s].decode("utf-8", "replace")
    if "\ufffd" in text:
        return None
    return Candidate(start + p, end - s, text, source, site)


_OPERATOR = frozenset(b"<>=!+-*/%&|^~")


def _kind(b: bytes) -> str | None:
    """A byte's run: a word's or an operator's (None: a boundary on its own)."""
    if not b:
        return None
    if b.isalnum() or b == b"_" or b[0] >= 0x80:
        return "word"
    return "operator" if b[0] in _OPERATOR else None


def _joined(kept: bytes, old: bytes, new: bytes) -> bool:
    """Would a cut beside the kept byte split a word or an operator, in the old or new text?"""
    k = _kind(kept)
    return k is not None and (_kind(old) == k or _kind(new) == k)


__all__ = ["FIM_SOURCE", "LineRepairConfig", "PROMPTS", "fim_ids", "header_spans", "line_candidates", "line_tokens",
           "not_a_repair",
           "smallest_edit", "suspicious_lines"]
