"""The diff of a source against its edits, as rows every view draws (`CheckResult.diff_rows()`).

The rows come from the edits themselves, not from comparing texts: a change is the lines its
edits touch, and the characters they remove and insert are marked within those lines. Unchanged
lines far from any change fold into one gap row.
"""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Sequence

DIFF_CONTEXT = 2            # unchanged lines shown on each side of a change
ROW_KINDS = ("same", "removed", "added", "gap")


@dataclass
class DiffRow:
    """One row of the diff. `spans` are [start, end) character offsets into `text`: on a removed
    row the characters the edits remove, on an added row those they insert."""
    kind: str                   # same | removed | added | gap (unchanged lines left out)
    old_line: int | None        # 1-based line in the source (same, removed; a gap: its first line)
    new_line: int | None        # 1-based line in the corrected source (same, added; a gap: its first)
    text: str                   # the line without its end ("" for a gap)
    spans: list[tuple[int, int]] = field(default_factory=list)
    lines: int = 1              # a gap: how many unchanged lines it stands for
    # the kinds of the change's edits (change, insert, delete, replace), on its first added row
    # (a change that adds no line: on its last removed row)
    edit_kinds: list[str] = field(default_factory=list)


@dataclass
class _Change:
    first: int                  # 0-based source lines [first, last] the edits touch
    last: int
    edits: list[tuple[int, int, str, str]]      # (char start, char end, replacement, kind)


def diff_rows(source: str, edits: Sequence, context: int = DIFF_CONTEXT) -> list[DiffRow]:
    """`source` against `source` with `edits` applied (objects with byte offsets `start`, `end`,
    and `replacement`, `kind`, as `Edit`): changed lines as removed and added rows, `context`
    unchanged lines around each change, the rest as gap rows. [] without edits."""
    starts = _line_starts(source)
    lines = _split_lines(source)
    rows: list[DiffRow] = []
    shift = 0                   # corrected line number minus source line number so far
    done = 0                    # source lines [0, done) have their rows
    for change in _changes(source, edits, starts):
        old, new = _change_lines(source, starts, change)
        # lines a change keeps unmarked at its edges are unchanged (an inserted whole line)
        while old and new and old[0] == new[0] and not old[0][1]:
            del old[0], new[0]
            change.first += 1
        while old and new and old[-1] == new[-1] and not old[-1][1]:
            del old[-1], new[-1]
        if not old and not new:
            continue
        first = change.first
        _unchanged_rows(rows, lines, done, first, shift, context, head=context if rows else 0)
        rows += [DiffRow("removed", first + k + 1, None, text, spans) for k, (text, spans) in enumerate(old)]
        rows += [DiffRow("added", None, first + shift + k + 1, text, spans) for k, (text, spans) in enumerate(new)]
        labelled = rows[-len(new)] if new else rows[-1]
        labelled.edit_kinds = list(dict.fromkeys(kind for *_, kind in change.edits))
        shift += len(new) - len(old)
        done = first + len(old)
    if rows:
        _unchanged_rows(rows, lines, done, len(lines), shift, context, head=context, tail=0)
    return rows


def _line_starts(source: str) -> list[int]:
    """Character offset of each line's start (an empty source has one, empty line)."""
    return [0] + [i + 1 for i, ch in enumerate(source) if ch == "\n" and i + 1 < len(source)]


def _split_lines(text: str) -> list[str]:
    """`text`'s lines without their ends; a final line end starts no line."""
    parts = text.split("\n")
    if parts[-1] == "":
        parts.pop()
    return parts


def _char_offsets(source: str):
    """byte offset -> character offset; an offset inside a character rounds down to its start."""
    data = source.encode("utf-8")

    def to_char(b: int) -> int:
        b = max(0, min(b, len(data)))
        return len(data[:b].decode("utf-8", "ignore"))
    return to_char


def _changes(source: str, edits: Sequence, starts: list[int]) -> list[_Change]:
    """The edits grouped by the lines they touch: edits on a shared line are one change, and a
    change whose new text joins its last line to the next (a removed line end) takes that line."""
    to_char = _char_offsets(source)

    def line_of(c: int) -> int:
        return bisect_right(starts, c) - 1

    changes: list[_Change] = []
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        cs, ce = to_char(e.start), to_char(e.end)
        first = line_of(cs)
        last = max(first, line_of(max(cs, ce - 1)))
        if changes and first <= changes[-1].last:
            changes[-1].last = max(changes[-1].last, last)
            changes[-1].edits.append((cs, ce, e.replacement, e.kind))
        else:
            changes.append(_Change(first, last, [(cs, ce, e.replacement, e.kind)]))
        while changes[-1].last + 1 < len(starts) and _joins_next(source, starts, changes[-1]):
            changes[-1].last += 1
    return changes


def _joins_next(source: str, starts: list[int], change: _Change) -> bool:
    new = _new_text(source, starts, change)[0]
    return bool(new) and not new.endswith("\n")


def _segment(source: str, starts: list[int], change: _Change) -> tuple[int, int]:
    """The character range of the change's whole lines, line end included."""
    end = starts[change.last + 1] if change.last + 1 < len(starts) else len(source)
    return starts[change.first], end


def _new_text(source: str, starts: list[int], change: _Change) -> tuple[str, list[tuple[int, int]]]:
    """The change's lines with its edits applied, and where the inserted text stands in it."""
    seg_start, seg_end = _segment(source, starts, change)
    parts, inserted, cur, length = [], [], seg_start, 0
    for cs, ce, replacement, _ in change.edits:
        kept = source[cur:cs]               # "" where edits overlap
        parts += [kept, replacement]
        length += len(kept)
        inserted.append((length, length + len(replacement)))
        length += len(replacement)
        cur = max(cur, ce)
    parts.append(source[cur:seg_end])
    return "".join(parts), inserted


def _change_lines(source: str, starts: list[int], change: _Change):
    """The change's source lines and corrected lines, each as (text, marked spans)."""
    seg_start, seg_end = _segment(source, starts, change)
    removed = [(cs - seg_start, ce - seg_start) for cs, ce, _, _ in change.edits]
    new, inserted = _new_text(source, starts, change)
    return _marked_lines(source[seg_start:seg_end], removed), _marked_lines(new, inserted)


def _marked_lines(text: str, marks: list[tuple[int, int]]) -> list[tuple[str, list[tuple[int, int]]]]:
    """`text` as lines, each with the runs of its characters that `marks` cover."""
    marked = [False] * len(text)
    for start, end in marks:
        marked[start:end] = [True] * len(marked[start:end])
    out, pos = [], 0
    for line in _split_lines(text):
        spans, k = [], 0
        while k < len(line):
            if marked[pos + k]:
                j = k
                while j < len(line) and marked[pos + j]:
                    j += 1
                spans.append((k, j))
                k = j
            else:
                k += 1
        out.append((line, spans))
        pos += len(line) + 1
    return out


def _unchanged_rows(rows: list[DiffRow], lines: list[str], begin: int, end: int, shift: int,
                    context: int, *, head: int, tail: int | None = None) -> None:
    """Source lines [begin, end), unchanged: `head` of them after the change before, `tail`
    before the change after (default `context`), one gap row for the rest (a gap of one line
    would take as much room as the line)."""
    tail = context if tail is None else tail
    if end - begin <= head + tail + 1:
        shown, gap = range(begin, end), None
    else:
        shown = [*range(begin, begin + head), *range(end - tail, end)]
        gap = (begin + head, end - tail)
    for k in shown:
        if gap is not None and k >= gap[1]:
            rows.append(DiffRow("gap", gap[0] + 1, gap[0] + shift + 1, "", lines=gap[1] - gap[0]))
            gap = None
        rows.append(DiffRow("same", k + 1, k + shift + 1, lines[k]))
    if gap is not None:
        rows.append(DiffRow("gap", gap[0] + 1, gap[0] + shift + 1, "", lines=gap[1] - gap[0]))
