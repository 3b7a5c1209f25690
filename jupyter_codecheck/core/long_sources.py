"""Long sources checked piece by piece, as one result.

The model's window is finite (4k tokens for the default model, ~2.8 characters of code per
token): a source longer than PIECE_CHARS is cut at line starts (preferably where a top-level
statement starts) and each piece is checked with what precedes it as context, the piece and its
context within WINDOW_CHARS. The CLI, the magics and the server all check through here, so a
3,000-line cell is checked the same way everywhere; and every view picks a cell's earlier cells
with `select_context`.

    for item in check_long_iter(source, context=earlier_cells, **options):
        ...   # Piece (a long source only), TokenRecord, Edit: positions in the whole source;
              # the merged CheckResult last
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from .context import select_context
from .options import CONTEXT_CHARS, option
from .result import CheckResult, Edit, TokenRecord, apply_edits
from .silence import Silencer
from ..pytext.sources import Unit, earlier_sources, is_python_cell, later_sources, split_source

WINDOW_CHARS = 9000
PIECE_CHARS = 6000


@dataclass
class Piece:
    """Progress of a long source: piece `index` of `count` (0-based) is being checked."""
    index: int
    count: int
    first_line: int         # 1-based, in the whole source
    last_line: int
    total_lines: int

    def __str__(self) -> str:
        return f"lines {self.first_line}-{self.last_line} of {self.total_lines}"


def check_long_iter(source: str, *, context: Sequence[str] | None = None,
                    **options) -> Iterator[Piece | TokenRecord | Edit | CheckResult]:
    """check_iter() for a source of any length: a short one is checked as it is; a long one piece
    by piece, each piece announced by a `Piece`, its records and edits moved to the whole
    source's positions, then one merged CheckResult. A cancelled piece ends the check."""
    from .check import _defining, check_iter
    from ..engine.errors import ContextFullError

    size = PIECE_CHARS
    todo = split_source(source, size)
    if len(todo) == 1:
        yield from check_iter(source, context=context, **options)
        return
    earlier = list(context or [])
    total = len(source.splitlines())
    parts: list[tuple[int, CheckResult]] = []
    tokens_before = 0
    while todo:
        offset, piece = todo.pop(0)
        first = source.count("\n", 0, offset) + 1
        shift = _Shift(tokens_before, len(source[:offset].encode("utf-8")), first - 1)
        before = earlier + ([source[:offset]] if offset else [])
        ctx = recent(before, WINDOW_CHARS - len(piece))
        checking = check_iter(piece, context=ctx or None, **options)
        try:
            # the window is refused before the first token: dense code (digits, symbols) has
            # fewer characters per token than a piece's size assumes; the rest is cut smaller
            head = next(checking)
        except ContextFullError:
            size = len(piece) // 2
            rest = split_source(source[offset:], size)
            if len(split_source(piece, size)) == 1:     # one line longer than the window
                raise
            todo = [(offset + o, p) for o, p in rest]
            continue
        yield Piece(len(parts), len(parts) + 1 + len(todo), first, first + len(piece.splitlines()) - 1, total)
        result = None
        for item in _chain(head, checking):
            if isinstance(item, CheckResult):
                result = item
            else:
                yield shift.move(item)
        parts.append((offset, result))
        tokens_before += len(result.tokens)
        if result.stats.get("cancelled"):
            break
    state = option("namespace").check(options.get("namespace"))      # a KernelState or None
    yield merge(source, parts, _defining(options.get("earlier"), context),
                None if state is None else state.defined,
                option("ignore").check(options.get("ignore", ())))


def _chain(first, rest):
    yield first
    yield from rest


def check_long(source: str, *, context: Sequence[str] | None = None, on_piece=None,
               **options) -> CheckResult:
    """check() for a source of any length (see check_long_iter); `on_piece(piece)` is called as
    each piece of a long source starts."""
    result = None
    for item in check_long_iter(source, context=context, **options):
        if isinstance(item, Piece) and on_piece is not None:
            on_piece(item)
        elif isinstance(item, CheckResult):
            result = item
    return result


@dataclass
class _Shift:
    """Where a piece starts in the whole source: tokens, bytes and lines before it."""
    tokens: int
    nbytes: int
    lines: int

    def move(self, item):
        if isinstance(item, TokenRecord):
            return replace(item, index=item.index + self.tokens, start=item.start + self.nbytes,
                           end=item.end + self.nbytes, line=item.line + self.lines)
        return replace(item, start=item.start + self.nbytes, end=item.end + self.nbytes,
                       line=item.line + self.lines)


@dataclass
class UnitCheck:
    """A file or cell with the cells around it that its check reads: `context`, the earlier cells
    the model reads; `before`, earlier cells outside that window (what they define still
    counts); `later`, the cells after it (a name only they define is a run-order error)."""
    unit: Unit
    context: list[str]
    before: list[str]
    later: list[str]

    def options(self) -> dict:
        """check_long's keywords for this unit, beside the caller's options."""
        return {"context": self.context or None,
                **({"earlier": self.before} if self.before else {}),
                **({"later": self.later} if self.later else {}),
                **({"notebook": True} if self.unit.cell is not None else {})}


def unit_checks(units: Sequence[Unit], *, context: bool = True,
                budget: int = CONTEXT_CHARS) -> Iterator[UnitCheck]:
    """Each unit of a file or notebook with the cells its check reads, in order; every view
    that checks a whole notebook takes its units from here. Without `context`, each cell alone
    (still a notebook cell)."""
    start = 0           # the context window's start in this notebook (select_context)
    for unit in units:
        if not context:
            yield UnitCheck(unit, [], [], [])
            continue
        job, start = _in_notebook(unit, earlier_sources(units, unit), later_sources(units, unit),
                                  start, budget)
        yield job


def cell_check(cells: Sequence[str], index: int, start: int = 0,
               budget: int = CONTEXT_CHARS) -> tuple[UnitCheck, int]:
    """Code cell `index` of a notebook given as its code cells' sources in order (those that
    are empty or in another language are left out here, as a notebook file's are), with the
    cells its check reads; and the context window's start to pass for the notebook's next cell.
    The panel, through the server or the kernel, checks one cell at a time from here."""
    if not 0 <= index < len(cells):
        raise IndexError(f"cell index {index} is outside the {len(cells)} cells given")
    kept = [i for i, c in enumerate(cells) if c.strip() and is_python_cell(c)]
    unit = Unit(path="notebook", source=cells[index], cell=index)
    return _in_notebook(unit, [cells[i] for i in kept if i < index],
                        [cells[i] for i in kept if i > index], start, budget)


def _in_notebook(unit: Unit, earlier: list[str], later: list[str], start: int,
                 budget: int) -> tuple[UnitCheck, int]:
    start, context = select_context(earlier, start, budget)
    return UnitCheck(unit, context, earlier[:start], later), start


def recent(sources: list[str], budget: int) -> list[str]:
    """The most recent whole sources within `budget` characters; the last one may be cut to its
    final lines (the piece of a long file just before the one being checked)."""
    kept: list[str] = []
    for src in reversed(sources):
        if len(src) > budget:
            if not kept and budget > 0:
                tail = src[-budget:]
                kept.append(tail[tail.find("\n") + 1:])
            break
        kept.append(src)
        budget -= len(src)
    return kept[::-1]


def merge(source: str, parts: list[tuple[int, CheckResult]], context: Sequence[str] | None = None,
          names=None, ignore=()) -> CheckResult:
    """One CheckResult for a source checked in pieces: positions shifted to the whole source
    (pieces start at line starts, so columns stay), statistics added up. Python's own errors are
    the whole source's (with `context` and `names` as the pieces were checked with), but for
    those its comments or `ignore` silence (the pieces counted them)."""
    merged = CheckResult(source=source)
    for offset, r in parts:
        shift = _Shift(len(merged.tokens), len(source[:offset].encode("utf-8")),
                       source.count("\n", 0, offset))
        merged.tokens += [shift.move(t) for t in r.tokens]
        merged.edits += [shift.move(e) for e in r.edits]
        merged.findings += [replace(f, line=f.line + shift.lines) for f in r.findings]
        merged.evidence += [shift.move(e) for e in r.evidence]
    merged.corrected = "".join(r.corrected for _, r in parts)
    checked = sum(len(r.source) for _, r in parts)
    if checked < len(source):
        merged.corrected += source[checked:]        # cancelled: the rest as it is
    merged.stats = _merge_stats([r.stats for _, r in parts])
    from .gates import fixes_of_the_whole
    from ..pytext.pycheck import analyse
    facts = analyse(merged.source, context, names)
    _errors_of_the_whole(merged, facts, Silencer(source, ignore))
    fixes_of_the_whole(merged, facts)
    return merged


def _errors_of_the_whole(merged: CheckResult, facts, silencer) -> None:
    """Python's verdicts are the whole source's. A piece cut inside a block does not compile
    alone ("unexpected indent"), and a piece sees only the recent text before it, so a name
    defined further up or further down is "not defined" in it. Such errors go, with the fixes
    proposed for them; the whole source's own errors are kept, or added (without a fix)."""
    from .evidence import syntax_finding, undefined_finding
    whole = [syntax_finding(facts.syntax)] if facts.syntax is not None else \
        [undefined_finding(u) for u in facts.undefined]
    real = {_error_key(f) for f in whole}

    def own(f) -> bool:
        if f.kind == "syntax":
            return _error_key(f) in real
        # a source that does not parse has no names verdict: the pieces' stand
        return f.kind != "undefined-name" or facts.syntax is not None or _error_key(f) in real

    cut = {f.line for f in merged.findings if not own(f)}
    if cut:
        merged.findings = [f for f in merged.findings if own(f)]
        kept = {f.line for f in merged.findings}
        merged.edits = [e for e in merged.edits if e.line not in cut or e.line in kept]
        merged.corrected = apply_edits(merged.source.encode("utf-8"), merged.edits).decode("utf-8", "replace")
    have = {_error_key(f) for f in merged.findings}
    added = [f for f in whole if _error_key(f) not in have and not silencer.silences(f)]
    if added:
        merged.findings = sorted(merged.findings + added, key=lambda f: f.line)


def _error_key(f) -> tuple:
    # a syntax error is one per source, at its line; an undefined name is one per use
    return (f.kind, f.line) if f.kind == "syntax" else (f.kind, f.line, f.column)


_ADDITIVE = ("tokens", "rows_scored", "full_heads", "context_tokens", "context_reused",
             "layers_computed", "layers_possible", "time_s", "silenced")


def _merge_stats(all_stats: list[dict]) -> dict:
    out = dict(all_stats[0])
    for key in _ADDITIVE:
        values = [s.get(key) for s in all_stats]
        if all(isinstance(v, (int, float)) for v in values):
            out[key] = sum(values)
    hists = [s.get("exit_histogram") for s in all_stats]
    if all(isinstance(h, list) for h in hists) and len({len(h) for h in hists}) == 1:
        out["exit_histogram"] = [sum(col) for col in zip(*hists)]
    if out.get("time_s"):
        out["tokens_per_s"] = out.get("tokens", 0) / out["time_s"]
    if out.get("layers_possible"):
        out["layer_fraction"] = out.get("layers_computed", 0) / out["layers_possible"]
    depths = [(s.get("decision_depth"), s.get("tokens", 0)) for s in all_stats]
    if all(isinstance(d, (int, float)) for d, _ in depths) and sum(n for _, n in depths):
        out["decision_depth"] = sum(d * n for d, n in depths) / sum(n for _, n in depths)
    out["cancelled"] = any(s.get("cancelled") for s in all_stats)
    out["pieces"] = len(all_stats)
    return out


__all__ = ["PIECE_CHARS", "WINDOW_CHARS", "CONTEXT_CHARS", "Piece", "check_long", "check_long_iter", "merge",
           "recent", "select_context", "UnitCheck", "unit_checks", "cell_check"]
