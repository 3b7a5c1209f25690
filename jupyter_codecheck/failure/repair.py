"""When a cell fails: the cause and a repair, each candidate re-checked before it is shown.

    fix = repair_failure(cell, exc, context=earlier_cells, namespace=shell.user_ns)
    fix.cause_text          # "line 1 sets `X`, which line 3 reads (ValueError: Expected 2D array...)"
    fix.repair              # Repair(cell=..., line=1, edit=Edit(...), verified="facts", ...)
    fix.repaired            # the repaired cell's text (None: no repair)

A failure is the moment the model is good for: no threshold decides *whether* to speak, only
*where* and *what*. The places come from the text (failure/cause.py); the candidates, in order:
  the facts' exact fixes   a kernel fact on a place (a column, attribute or keyword the object
                           lacks, with its exact alternatives) and Python's near names for an
                           undefined one
  the failure's offers     the names the exception's own objects take for the attribute or
                           keyword it refused, at the raising line (failure/offered.py)
  the model's line repairs at the first `lines` places: the model writes the line again between
                           the code before and after it (fill-in-the-middle where the model has
                           the tokens, else from the left), with the error named above the failed cell,
                           forking along the written line (decoding/line_repair.py: the written
                           line is the draft, the prompt's K,V shared by every line)
Every candidate is re-checked: the repaired cell must parse and name nothing undefined that the
cell did not, and, beside a kernel, the facts read on it must claim no crash on the raising line
and no new one; a candidate the re-check refuses is never shown. A repair is `verified` when the
facts (or Python's own check) named the failure on the raising line and name nothing there after
it, or ("error") when it writes a name the object or function the error names takes. Where the
nearest exact names tie, the model weighs them. The shown one is the likeliest among the verified ones first, then the others: its model gain
(log P of the new line minus the written one's, both sides read), the smaller edit on a tie.
The objects a re-check reads are the kernel's as they are (after the failed cell ran up to its
error): the cell's own bindings before the use are followed by the facts themselves.
"""
from __future__ import annotations

import ast
import builtins
import keyword
import math
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from ..core.diff import diff_rows
from ..core.repairs import fim_ids, line_tokens, not_a_repair, smallest_edit
from ..core.result import Edit, apply_edits
from ..core.resume import hold
from ..pytext.pycheck import analyse, edit_distance, near_typo, parse
from .cause import SETTERS, Place, statement_at, cause_lines, code_lines, distinct, function_lines
from .failure import Failure, Frame
from .offered import Offer, nearest

ERROR_PROMPTS = ("top", "none")
AFTER_TOKENS = 96          # of the code after a line, what its fill-in-the-middle prompt reads
# places read from both sides at most: a fill-in-the-middle prompt holds the code after its line,
# so reading costs that many rows a place; beyond it the code read from the left (its rows held
# for the prompts anyway) keeps the least likely lines (docs/measurements.md, "both sides")
READ_BOTH = 4
CONTEXT_TOKENS = 128       # of the earlier cells, what the prompt reads before the failed cell
MAX_EXTRA = 8              # tokens a proposed line may have beyond the written one
# draft tokens after a proposal's own row: a failure's line is wrong, so its proposals leave the
# written line more often than a check's do and long drafts are mostly rows no one takes
DRAFT_TOKENS = 2
_QUOTED = re.compile(r"'([^'\n]{1,80})'|\"([^\"\n]{1,80})\"")
_NAME_ERROR = re.compile(r"name '([A-Za-z_]\w*)' is not defined")
_TYPE_QUOTES = re.compile(r"type object '[\w.]+'|'[\w.]+' object|<class '[\w.]+'>|module '[\w.]+'|type\(s\) for [^:]*: '[\w.]+' and '[\w.]+'",
                          re.IGNORECASE)


@dataclass
class Repair:
    """One re-checked candidate: `edit` (byte offsets in cell `cell`'s source) turns line `line`
    into `new_line`."""
    cell: int                   # index in the cells (the failed cell is the last)
    line: int                   # 1-based in that cell
    edit: Edit
    source: str                 # the cell's text with the edit
    origin: str                 # "fact" | "python" | "error" | "message" | "deletion" | "model"
    old_line: str
    new_line: str
    gain: float = float("nan")  # nats: log P(new line) - log P(written line), both sides read
    verified: str | None = None  # "facts" | "python": the re-check named the failure and no longer does
    place: Place | None = None

    def to_dict(self) -> dict:
        return {"cell": self.cell, "line": self.line, "origin": self.origin, "old_line": self.old_line,
                "new_line": self.new_line, "gain": None if math.isnan(self.gain) else round(self.gain, 3),
                "verified": self.verified, "source": self.source,
                "edit": {"start": self.edit.start, "end": self.edit.end, "original": self.edit.original,
                         "replacement": self.edit.replacement, "line": self.edit.line,
                         "column": self.edit.column, "kind": self.edit.kind},
                "why": self.place.why if self.place else None}


@dataclass
class FailureRepair:
    failure: Failure
    cells: list[str]
    cause: Place | None = None
    repair: Repair | None = None
    candidates: list[Repair] = field(default_factory=list)   # re-checked, best first
    refused: int = 0                                         # candidates the re-check refused
    stats: dict = field(default_factory=dict)

    @property
    def failed_cell(self) -> int:
        return len(self.cells) - 1

    @property
    def cause_text(self) -> str:
        """The cause in one line, as a view shows it."""
        f = self.failure
        first = f.message.strip().splitlines()[0] if f.message.strip() else ""
        said = f"{f.error}: {first}" if first else f.error
        if self.cause is None:
            return said
        where = _cell_name(self.cause.cell, self.failed_cell)
        if self.cause.kind == "raised":
            return f"{said} (line {self.cause.line}{where})"
        return f"{said}: line {self.cause.line}{where} {self.cause.why}"

    @property
    def repaired(self) -> str | None:
        return None if self.repair is None else self.repair.source

    def diff_rows(self):
        """The repair's diff rows on its cell (core/diff.py: what every view draws)."""
        if self.repair is None:
            return []
        return diff_rows(self.cells[self.repair.cell], [self.repair.edit])

    def to_dict(self) -> dict:
        return {"failure": self.failure.to_dict(), "cause": self.cause_text,
                "cause_place": None if self.cause is None else {"cell": self.cause.cell, "line": self.cause.line,
                                                                "why": self.cause.why},
                "repair": None if self.repair is None else self.repair.to_dict(),
                "candidates": [c.to_dict() for c in self.candidates], "refused": self.refused,
                "stats": self.stats}


def _cell_name(cell: int, failed: int) -> str:
    back = failed - cell
    return "" if back == 0 else " of the previous cell" if back == 1 else f" of the cell {back} cells before"


# -- the entry point ----------------------------------------------------------------------------------

def repair_failure(source: str, failure, *, context: Sequence[str] | None = None,
                   namespace: Mapping | None = None, model=None, threads: int | None = None,
                   lines: int = 3, n_candidates: int = 2, forks: int = 2, error_prompt: str = "top",
                   use_model: bool = True, rank_exact: bool = False, shortcuts: bool = True,
                   cancel: Callable[[], bool] | None = None) -> FailureRepair:
    """The cause of `failure` in the cell `source` and a re-checked repair. `failure`: the
    exception (live, with its traceback), a `Failure`, or a traceback's text; `context`: the
    earlier cells in the order they ran (a repair may be in one of them); `namespace`: the
    kernel's objects (the facts' fixes and re-check), else Python's checks alone; `model`: as
    check()'s; `lines`: places the model writes again; `use_model`: False for the exact fixes
    alone (no model is loaded), which is also the case when an exact fix is verified and takes
    away what the error names (the facts' own order ranks those) unless `rank_exact`; `shortcuts` False: the model's rows without the written line as
    the draft, without the exit test and each line's prompt whole (the same repairs, slower: for
    tests and benchmarks)."""
    if not isinstance(source, str):
        raise TypeError(f"source must be a str, got {type(source).__name__}")
    if error_prompt not in ERROR_PROMPTS:
        raise ValueError(f"error_prompt must be one of {', '.join(ERROR_PROMPTS)}, got {error_prompt!r}")
    if namespace is not None and not isinstance(namespace, Mapping):
        objects = getattr(namespace, "objects", None)      # a KernelState
        if objects is None and not hasattr(namespace, "names"):
            raise TypeError(f"namespace: the kernel's objects by name, not {type(namespace).__name__}")
        namespace = objects
    cells = [*(context or ()), source]
    for k, c in enumerate(cells[:-1]):
        if not isinstance(c, str):
            raise TypeError(f"context[{k}]: a cell's source text, not {type(c).__name__}")
    t0 = time.perf_counter()
    f = _as_failure(failure, cells)
    out = FailureRepair(f, cells)
    places = cause_lines(cells, f)
    if not places and use_model and not any(fr.cell == len(cells) - 1 for fr in f.frames):
        # no frame passed through the cell (a test's assertion failed elsewhere): any of its code
        # lines may be the cause, the model reads them all
        places = [Place(len(cells) - 1, ln, "read", "reads least likely to the model") for ln in code_lines(source)]
    out.cause = places[0] if places else None
    if not places:
        out.stats = {"time_s": round(time.perf_counter() - t0, 4), "places": 0}
        return out
    checker = _Recheck(cells, f, namespace)
    exact = checker.exact_candidates(places) + _offered(cells, f, places)
    kept, refused = checker.keep(exact)
    model_stats: dict = {}
    kept.sort(key=lambda c: _rank(c, checker.words))
    # an exact fix settles it unless the nearest names tie (`np.p`: `pi` or `e`; `plt.subplotn`:
    # `subplot` or `subplots`): then the model weighs them in the line's context
    settled = any(c.verified and _takes_away(c, checker.words) for c in kept) and not _tied(kept)
    if use_model and (rank_exact or not settled):
        proposed, model_stats = _model_candidates(cells, f, _for_the_model(cells, places), exact, model=model,
                                                  threads=threads, lines=max(1, lines),
                                                  n_candidates=n_candidates, forks=forks,
                                                  error_prompt=error_prompt, shortcuts=shortcuts, cancel=cancel)
        more, more_refused = checker.keep(proposed, seen=kept)
        kept, refused = kept + more, refused + more_refused
    elif use_model:
        model_stats = {"model": "not asked: an exact fix is verified"}
    kept.sort(key=lambda c: _rank(c, checker.words))
    if _tied(kept) and math.isnan(kept[0].gain):
        # equally near names the model did not weigh: which one is meant is not known
        site = (kept[0].cell, kept[0].edit.start, kept[0].edit.end)
        for c in kept:
            if (c.cell, c.edit.start, c.edit.end) == site and c.origin != "model":
                c.verified = None
        kept.sort(key=lambda c: _rank(c, checker.words))
    out.candidates, out.refused = kept, refused
    if kept:
        out.repair = kept[0]
        out.cause = kept[0].place or out.cause
    out.stats = {"time_s": round(time.perf_counter() - t0, 4), "places": len(places),
                 "candidates": len(kept) + refused, "refused": refused, **model_stats}
    return out


def _for_the_model(cells: list[str], places: list[Place]) -> list[Place]:
    """The places the model reads: a function's `def` among them stands for its body's lines
    (the function the raising line calls is wrong inside); the raising line first."""
    out: list[Place] = []
    for p in places:
        body = function_lines(cells[p.cell], p.line) if p.kind == "sets" else None
        if body is None:
            out.append(p)
            continue
        name = p.names[0] if p.names else "it"
        out += [Place(p.cell, ln, "inside", f"is inside `{name}`, which the failed line calls", p.names)
                for ln in body]
    return distinct(out)


def _as_failure(failure, cells: list[str]) -> Failure:
    if isinstance(failure, Failure):
        f = failure
    elif isinstance(failure, BaseException):
        f = Failure.from_exception(failure, cells)
    elif isinstance(failure, str):
        f = Failure.from_text(failure, cells)
    else:
        raise TypeError(f"failure: an exception, a Failure or a traceback's text, not {type(failure).__name__}")
    if not any(fr.cell == len(cells) - 1 for fr in f.frames):
        # no frame in the failed cell (a traceback without the cell's frames): Python's own
        # view of the cell places a syntax error or the undefined name the message names
        line = _line_from_text(cells, f)
        if line is not None:
            f = Failure(f.error, f.message, [*f.frames, Frame(len(cells) - 1, line)], f.text, f.offers)
    return f


def _line_from_text(cells: list[str], f: Failure) -> int | None:
    facts = analyse(cells[-1], cells[:-1])
    if facts.syntax is not None:
        return facts.syntax.line
    m = _NAME_ERROR.search(f.message)
    if m:
        for u in facts.undefined:
            if u.name == m.group(1):
                return u.line
    # the one line that writes what the error names ('columbs', 'n_estimator')
    words = _error_words(f)
    lines = [k + 1 for k, text in enumerate(cells[-1].split("\n")) if words and _names_word(text, words)]
    return lines[0] if len(lines) == 1 else None


def _error_words(f: Failure) -> set[str]:
    """The words the error message quotes ('Agee', 'n_estimator'): what it says is wrong; not
    the names of types it quotes ("'DataFrame' object has no attribute", "<class 'int'>",
    "for +: 'int' and 'str'"): those say what the object is."""
    message = _TYPE_QUOTES.sub("", f.message)
    words = {a or b for a, b in _QUOTED.findall(message)}
    return {w for w in words if not isinstance(getattr(builtins, w, None), type)}


def _may_take_away(p: Place, text: str, error: str) -> bool:
    """Can the statement at `p` be what took away or spoilt what the raising line reads?"""
    if p.kind == "deletes":
        return True
    if error == "NameError":
        return False
    if p.kind == "changes":
        return True
    return p.kind == "sets" and any(_names_word(text.split("=", 1)[-1], {n}) for n in p.names)


def _names_word(text: str, words: set[str]) -> bool:
    """Does the line name one of the words, whole (an identifier, or a string's text)?"""
    return any(w and re.search(rf"(?<![\w]){re.escape(w)}(?![\w])", text) for w in words)


def _touches(c: Repair, words: set[str]) -> bool:
    """Does the repair take away a word the error names?"""
    return any(w and _names_word(c.old_line, {w}) and not _names_word(c.new_line, {w}) for w in words)


def _takes_away(c: Repair, words: set[str]) -> bool:
    """Does the repair take away what the error says is wrong (a word it names, or the word its
    own objects offer a name for)?"""
    return c.origin in ("error", "message") or _touches(c, words)


def _tied(ranked: list[Repair]) -> bool:
    """Are the first two exact fixes (in `_rank`'s order) the same edit's place, verified, and
    equally near the written word?"""
    if len(ranked) < 2:
        return False
    a, b = ranked[:2]
    return (a.origin != "model" and b.origin != "model" and bool(a.verified) and bool(b.verified)
            and (a.cell, a.edit.start, a.edit.end) == (b.cell, b.edit.start, b.edit.end)
            and edit_distance(a.edit.original, a.edit.replacement, limit=20)
            == edit_distance(b.edit.original, b.edit.replacement, limit=20))


def _rank(c: Repair, words: set[str]) -> tuple:
    """The order candidates are shown in: one that takes away what the error names first; of
    those, one at a statement before the raising line that names it (where it was dropped or
    made wrong) first; then the verified ones; then an alternative the facts, Python or the error
    name before a line the model wrote freely; then the model's gain, the nearer and smaller edit
    on a tie (of exact fixes the model did not weigh: the nearest name)."""
    at_culprit = c.place is not None and c.place.kind in SETTERS and _names_word(c.old_line, words)
    gain = -1e9 if math.isnan(c.gain) else c.gain
    return (not _takes_away(c, words), not at_culprit, c.verified is None, c.origin == "model", -gain,
            edit_distance(c.edit.original, c.edit.replacement, limit=20), len(c.edit.original) + len(c.edit.replacement))


# -- the exact fixes and the re-check ---------------------------------------------------------------

class _Recheck:
    """The facts' and Python's word on the failed cell and on each candidate."""

    def __init__(self, cells: list[str], failure: Failure, namespace: Mapping | None):
        self.cells, self.namespace = cells, namespace
        self.source = cells[-1]
        self.raised = failure.line_in(len(cells) - 1)
        self.failure = failure
        self.words = _error_words(failure)
        self.python = analyse(self.source, cells[:-1], namespace)
        self.undefined = {u.name for u in self.python.undefined}
        self.facts = self._facts(self.source)
        self.fact_keys = {(k.line, k.kind, k.message) for k in self.facts}

    def _facts(self, source: str) -> list:
        """The facts of the failed cell's text (`source`: as written, or repaired), read as every
        check reads them (facts.facts_for): from the kernel's objects, or without a kernel from
        the libraries the earlier cells import."""
        from ..facts import facts_for
        try:
            return facts_for(source, self.namespace, earlier=self.cells[:-1]).facts
        except Exception:  # noqa: BLE001 - no facts is no claim
            return []

    def exact_candidates(self, places: list[Place]) -> list[Repair]:
        """The facts' exact fixes and Python's near names, on the failed cell's places."""
        last = len(self.cells) - 1
        lines = {p.line: p for p in places if p.cell == last}
        out: list[Repair] = []
        text_lines = self.source.split("\n")
        for k in self.facts:
            if k.line in lines and k.candidates:
                for cand in k.candidates[:3]:
                    out.append(_replace(self.source, last, k.line, k.column, k.end_column, cand, "fact", lines[k.line]))
        for u in self.python.undefined:
            if u.line in lines:
                near = sorted((edit_distance(u.name, w), w) for w in self.python.scope if near_typo(u.name, w))
                text = text_lines[u.line - 1].encode("utf-8")
                col = len(text[:u.column].decode("utf-8", "replace"))
                for _, w in near[:3]:
                    out.append(_replace(self.source, last, u.line, col, col + len(u.name), w, "python", lines[u.line]))
        # a statement before the raising line that took away or changed what the error names
        # (`df = df.drop(columns=['c'])`, `del df['c']`, `del t`): deleted. A missing name is
        # taken away only by a `del`; a value by a change in place or a rebinding made of itself
        for p in places:
            text = self.cells[p.cell].split("\n")[p.line - 1]
            if _may_take_away(p, text, self.failure.error) and _names_word(text, self.words):
                    indent = len(text) - len(text.lstrip())
                    out.append(_replace(self.cells[p.cell], p.cell, p.line, indent, len(text), "", "deletion", p))
        return [r for r in out if r is not None]

    def keep(self, cands: list[Repair], seen: list[Repair] = ()) -> tuple[list[Repair], int]:
        """The candidates the re-check passes (each cell's text once, `seen` ones left out),
        marked verified or not, and the number it refused."""
        done = {(c.cell, c.source) for c in seen}
        kept, refused = [], 0
        for c in cands:
            if (c.cell, c.source) in done:
                continue
            done.add((c.cell, c.source))
            verdict = self.recheck(c)
            if verdict is None:
                refused += 1
                continue
            # a name the failed call's own object or function takes, for the word it refused
            c.verified = verdict or ("error" if c.origin == "error" else None)
            kept.append(c)
        return kept, refused

    def recheck(self, c: Repair) -> str | None:
        """None: refused (the repaired cell would fail, or does not parse, or names what the
        cell did not); "facts"/"python": verified; "": passes, not verified."""
        if c.origin == "model" and _unsets(c):
            return None
        if c.cell != len(self.cells) - 1:
            # an earlier cell: Python's checks of it as it ran (its own names)
            before = analyse(self.cells[c.cell], self.cells[:c.cell])
            after = analyse(c.source, self.cells[:c.cell])
            if after.syntax is not None or {u.name for u in after.undefined} - {u.name for u in before.undefined}:
                return None
            # the name the failed cell found undefined is the one the repaired cell now defines
            # (or no longer reads it where it was undefined: a function's body)
            # (or no longer deletes it: `del t`)
            m = _NAME_ERROR.search(self.failure.message) if self.failure.error == "NameError" else None
            if m and ((m.group(1) in after.locals and m.group(1) not in before.locals)
                      or (m.group(1) in {u.name for u in before.undefined} - {u.name for u in after.undefined})
                      or (m.group(1) in _deleted(self.cells[c.cell]) - _deleted(c.source))):
                return "python"
            return ""
        after = analyse(c.source, self.cells[:-1], self.namespace)
        if after.syntax is not None:
            return None
        if after.syntax is None and self.python.syntax is not None:
            return "python"                  # the syntax error is gone
        new_undefined = {u.name for u in after.undefined}
        if new_undefined - self.undefined:
            return None
        verified = ""
        if self.raised is not None and any(u.line == self.raised for u in self.python.undefined):
            if not any(u.line == self.raised for u in after.undefined):
                verified = "python"
        if c.line == self.raised and c.origin == "model" and _drops_the_work(c.old_line, c.new_line, self.words):
            return None
        if c.origin == "model" and _unsets(c):
            return None
        facts = self._facts(c.source)
        if self.raised is not None and any(k.line >= self.raised for k in facts):
            # the raising line still fails, or a line after it, which never ran, will now
            return None
        if any((k.line, k.kind, k.message) not in self.fact_keys for k in facts):
            return None                      # a crash the cell did not have
        if not verified and any(k.line == self.raised for k in self.facts):
            verified = "facts"
        return verified


_CALLED = re.compile(r"([A-Za-z_]\w*)\s*\(")
_KEYWORDS = frozenset(keyword.kwlist) | {"True", "False", "None"}


def _drops_the_work(old: str, new: str, words: set[str]) -> bool:
    """Does the model's line at the raising line do away with what it did, rather than repair
    it: nothing left but a comment or `pass`, or a call it made gone (other than one the error
    names, as a misspelt method's)? Taking the failing statement out always runs."""
    line = new.strip()
    if not line or line.startswith("#") or line == "pass":
        return True
    # another kind of statement: an `assert` that became a print no longer checks anything
    if _leading_keyword(old) != _leading_keyword(line):
        return True
    if {c for c in _CALLED.findall(old) if c not in words} - set(_CALLED.findall(new)):
        return True
    # a name it read gone (`age = data['agee']` -> `age = 3`): the value no longer comes from it;
    # the name the error names is to be replaced, not dropped (`n / scael` -> `n`)
    before, after = _names(old), _names(new)
    return bool(before - words - after) or bool(before & words - after and not after - before)


def _leading_keyword(line: str) -> str | None:
    word = re.match(r"\s*([A-Za-z_]\w*)", line)
    return word.group(1) if word and word.group(1) in _KEYWORDS else None


def _unsets(c: Repair) -> bool:
    """Does the model's line no longer set a name the written line set (`X = ...` -> `fit(...)`),
    at a place found because it sets what the raising line reads?"""
    if c.place is None or c.place.kind != "sets":
        return False
    return any(not re.match(rf"\s*(?:[\w.\[\], ]*[ ,(])?{re.escape(n)}\b[^=]*=(?!=)", c.new_line) for n in c.place.names)


def _deleted(source: str) -> set[str]:
    """The names a cell's `del` statements delete."""
    tree = parse(source)
    return set() if tree is None else {t.id for n in ast.walk(tree) if isinstance(n, ast.Delete)
                                       for t in n.targets if isinstance(t, ast.Name)}


_STRING = re.compile(r"(?:[rbfuRBFU]{0,2})(?:'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\")")
_NAME = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\b(?!\s*=(?!=))")


def _names(line: str) -> set[str]:
    """The names a line reads (not attributes, keywords, strings' text, or the names it assigns
    to with a plain `=`)."""
    code = _STRING.sub("''", line.split("#", 1)[0])
    if re.match(r"\s*[\w.,\s\[\]]+=(?!=)", code):       # `x = ...`, `a, b = ...`: the targets are written
        code = code.split("=", 1)[1]
    return {n for n in _NAME.findall(code) if n not in _KEYWORDS}


def _replace(source: str, cell: int, line: int, col: int, end_col: int, text: str, origin: str,
             place: Place) -> Repair | None:
    """The repair writing `text` over characters [col, end_col) of `line`."""
    lines = source.split("\n")
    if not 0 < line <= len(lines):
        return None
    old = lines[line - 1]
    new = old[:col] + text + old[end_col:]
    if new == old:
        return None
    start = len("\n".join(lines[:line - 1]).encode("utf-8")) + (1 if line > 1 else 0)
    b0 = start + len(old[:col].encode("utf-8"))
    b1 = start + len(old[:end_col].encode("utf-8"))
    kind = "insert" if col == end_col else "delete" if not text else "change"
    edit = Edit(kind, b0, b1, line, col, old[col:end_col], text)
    repaired = apply_edits(source.encode("utf-8"), [edit]).decode("utf-8")
    return Repair(cell, line, edit, repaired, origin, old, new, place=place)


def _offered(cells: list[str], f: Failure, places: list[Place]) -> list[Repair]:
    """The failure's own offers (failure/offered.py) written at the raising line: the one
    attribute, keyword or quoted value there that the error says is wrong, each offered name in
    its place; for a missing parameter, the one keyword written near its name, renamed to it.
    A value the message quotes beside the ones it takes is a "message" repair, for the model to
    weigh; the others come from the failed call's own objects ("error")."""
    if not f.offers or not places or places[0].kind != "raised":
        return []
    place = places[0]
    source = cells[place.cell]
    tree = parse(source)
    stmt = statement_at(tree, place.line) if tree is not None else None
    if stmt is None:
        return []
    lines = source.split("\n")
    found: list[tuple[Offer, tuple[int, int, str]]] = []
    for offer in f.offers:
        sites = _written(stmt, offer, f.span)
        if len(sites) == 1:             # none, or several: which one is meant is not known
            found.append((offer, sites[0]))
    if len({o.wrong for o, _ in found if o.kind == "value"}) > 1:
        found = [(o, s) for o, s in found if o.kind != "value"]      # the message quotes several written words
    out: list[Repair] = []
    for offer, (line, byte_col, word) in found:
        text = lines[line - 1].encode("utf-8") if 0 < line <= len(lines) else b""
        if text[byte_col:byte_col + len(word.encode("utf-8"))] != word.encode("utf-8"):
            continue
        col = len(text[:byte_col].decode("utf-8", "replace"))
        for name in offer.names:
            r = _replace(source, place.cell, line, col, col + len(word), name,
                         "message" if offer.kind == "value" else "error", place)
            if r is not None:
                out.append(r)
    return out


def _written(stmt: ast.stmt, offer: Offer, span) -> list[tuple[int, int, str]]:
    """Where the raising instruction writes the word the offer replaces: (line, byte column,
    the text). With the instruction's place (`span`, Python 3.11+): an attribute or a literal
    inside it, a keyword of the very call it is; without, an attribute or a literal in the
    statement's own code (not the body of a loop or a `with`), and no keyword (which call raised
    is not known)."""
    nodes = list(_own_nodes(stmt))
    if span is not None:
        # an attribute by its name's own place (Python 3.11 places a lookup on a chain that
        # spans lines at the name alone)
        nodes = [n for n in nodes if _inside(_attribute_name(n) if isinstance(n, ast.Attribute) else n, span)]
    calls = [n for n in nodes if isinstance(n, ast.Call) and _place(n) == tuple(span)] if span is not None else []
    keywords = [k for c in calls for k in c.keywords if k.arg is not None]
    sites = []
    if offer.kind in ("keyword", "value"):
        sites += [(k.lineno, k.col_offset, k.arg) for k in keywords if k.arg == offer.wrong]
    if offer.kind == "missing":
        sites += [(k.lineno, k.col_offset, k.arg) for k in keywords
                  if k.arg not in offer.taken and nearest(k.arg, [offer.wrong])]
    for n in nodes:
        if offer.kind == "attribute" and isinstance(n, ast.Attribute) and n.attr == offer.wrong \
                and n.end_lineno is not None:
            sites.append((n.end_lineno, n.end_col_offset - len(n.attr.encode("utf-8")), n.attr))
        elif offer.kind == "value" and isinstance(n, ast.Constant) and n.value == offer.wrong \
                and type(n.value) is str and n.lineno == n.end_lineno:
            # the text between the quotes of a plain one-line literal
            width = n.end_col_offset - n.col_offset
            if width == len(offer.wrong.encode("utf-8")) + 2:
                sites.append((n.lineno, n.col_offset + 1, offer.wrong))
    return sites


# the fields of a compound statement that hold its body: code that had not run when its header raised
_BODIES = ("body", "orelse", "finalbody", "handlers", "cases")


def _own_nodes(stmt: ast.stmt):
    """The statement's nodes, without the bodies of a compound statement."""
    todo = [stmt]
    while todo:
        n = todo.pop()
        yield n
        for name, value in ast.iter_fields(n):
            if n is stmt and name in _BODIES:
                continue
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, ast.AST):
                    todo.append(child)


class _Named:
    """The place of an attribute's name (after the dot)."""
    def __init__(self, n: ast.Attribute):
        self.lineno = self.end_lineno = n.end_lineno
        self.end_col_offset = n.end_col_offset
        # in characters, as CPython 3.11 places the name it failed to look up
        self.col_offset = n.end_col_offset - len(n.attr)


def _attribute_name(n: ast.Attribute):
    return _Named(n) if n.end_lineno is not None else n


def _place(n) -> tuple | None:
    end = getattr(n, "end_lineno", None)
    return None if end is None else (n.lineno, n.col_offset, end, n.end_col_offset)


def _inside(n, span) -> bool:
    p = _place(n)
    if p is None:
        return False
    line, col, end_line, end_col = span
    return (p[0], p[1]) >= (line, col) and (p[2], p[3]) <= (end_line, end_col)


# -- the model's line repairs ------------------------------------------------------------------------

def _model_candidates(cells: list[str], f: Failure, places: list[Place], exact: list[Repair], *, model,
                      threads, lines: int, n_candidates: int, forks: int, error_prompt: str, shortcuts: bool,
                      cancel):
    """The model's lines at the first `lines` of `places` (and its gain for each exact fix
    there), as Repairs. With more places than that (a function's body, a cell no frame passed
    through), the model first reads every one of them from both sides and keeps the `lines`
    whose least likely token is the least likely (the raising line, when it is one, stays)."""
    from ..core.adapter import EngineLayerModel, load_model, single_threaded_blas
    from ..core.resolved_model import resolve_model
    from ..decoding.exit_policy import PRESETS, make_policy
    from ..decoding.line_repair import LineProposer, LineTask
    from ..decoding.scorer import Scorer

    t0 = time.perf_counter()
    resolved = resolve_model(model)
    engine = load_model(resolved, threads)
    tok = engine.tokenizer
    fim = fim_ids(tok)
    # the document the model reads: the earlier cells (the latest that fit), the error named
    # above the first of them that holds a place (else above the failed cell), the rest. The
    # cells before the error come first whatever it is: their K,V may be in the session already
    # (hold_context, at idle after the cell before)
    header = f"# {f.summary.splitlines()[0][:200]}\n" if error_prompt == "top" and f.summary.strip() else ""
    keep = _cells_in_view(tok, cells)
    headed = min([p.cell for p in places if p.cell in keep] + [len(cells) - 1])
    doc, offsets = "", {}
    for k in keep:
        doc += header if k == headed else ""
        offsets[k] = len(doc.encode("utf-8"))
        doc += _in_prompt(cells[k], last=k == len(cells) - 1)
    enc = tok.encode(doc)
    data = enc.data
    line_starts = [0] + [i + 1 for i, b in enumerate(data) if b == 0x0A]
    ids = list(enc.ids)
    spans, opening = {}, set()         # opening: places on the first line of the code in view
    by_place: dict[int, list[Repair]] = {}
    for r in exact:
        for i, p in enumerate(places):
            if (p.cell, p.line) == (r.cell, r.line):
                by_place.setdefault(i, []).append(r)
    for i, p in enumerate(places):
        if p.cell not in offsets:
            continue
        doc_line = data.count(b"\n", 0, offsets[p.cell]) + p.line     # 1-based in the document
        span = line_tokens(enc, data, line_starts, doc_line)
        if span is None:
            continue
        a, b, line_end = span
        if not data[offsets[keep[0]]:line_starts[doc_line - 1]].strip():
            opening.add(i)
        tail = data[line_end:enc.ends[b]]          # the newline and what its token holds after it
        # each exact fix there, as the tokens the line would be: its gain is weighed too
        indent = data[line_starts[doc_line - 1]:enc.starts[a]]
        by_place[i] = [r for r in by_place.get(i, []) if r.new_line.encode("utf-8").startswith(indent)]
        extra = [tok.encode((r.new_line.encode("utf-8")[len(indent):] + tail).decode("utf-8")).ids
                 for r in by_place[i]]
        spans[i] = (a, b, line_end, extra)
    if not spans:
        return [], {"model": resolved.path.name, "model_s": round(time.perf_counter() - t0, 4)}
    a_max = max(a for a, _, _, _ in spans.values())
    # the suffix of a line before the raising one reads on through the raising line
    raised = f.line_in(len(cells) - 1)
    raised_end = line_starts[min(len(line_starts) - 1, data.count(b"\n", 0, offsets[len(cells) - 1]) + raised)] \
        if raised is not None else 0
    stats = {"model": resolved.path.name, "fim": fim is not None, "rows": 0, "batches": 0}
    with engine.lock, single_threaded_blas():
        session = engine.session
        engine.forget()                 # the session's decisions are no check's now
        layer_model = EngineLayerModel(session, kv_mode="exact")
        # the context's rows may leave at the last layer's cheap test (their K,V are whole: only
        # the full head is saved); branch rows always run to the full head
        policy = make_policy(PRESETS["head"]) if shortcuts else None
        scorer = Scorer(layer_model, policy, top_k=max(8, n_candidates + 2), cancel=cancel)
        engine.set_cell_shortlist(ids or [0])
        lead = _lead(tok)
        context = lead + ids[:a_max]
        left: dict[int, float] = {}
        if fim is not None and len(spans) > READ_BOTH:
            # the places' lines read from the left (each line's least likely token), the rows
            # through the last of them held for the prompts
            a_min = min(a for a, _, _, _ in spans.values())
            b_max = max(b for _, b, _, _ in spans.values())
            context = lead + ids[:b_max + 1]
            start = len(lead) + a_min - 1 if shortcuts else 0     # its row judges the first token read
            stats["context_reused"] = hold(session, context[:start], cancel) if shortcuts else 0
            if not shortcuts:
                scorer.truncate(0)
            dists = scorer.extend(context[start:], [*context[start + 1:], None], allow_exit=False)
            stats["rows"], stats["batches"] = len(context) - stats["context_reused"], 2
            for i, (a, b, _, _) in spans.items():
                left[i] = _read_from_the_left(min(d.ref_logprob for d in
                                                  dists[len(lead) + a - 1 - start:len(lead) + b - start]), i in opening)
            if not shortcuts:
                scorer.truncate(0)
        elif shortcuts:
            # the code before every line, once (each line's prompt follows it), no head read: what
            # the session already holds of it (the same failure's repair asked again) is kept
            stats["context_reused"] = hold(session, context, cancel)
            stats["rows"], stats["batches"] = len(context) - stats["context_reused"], 1
        else:
            scorer.truncate(0)

        def task(i: int) -> LineTask:
            a, _, line_end, extra = spans[i]
            if fim is not None:
                after = tok.encode(data[line_end + 1:].decode("utf-8", "replace")).ids
                after = after[:max(AFTER_TOKENS, _through(enc, raised_end) - spans[i][1])]
                prompt, base = [fim[1]] + after + [fim[2]], len(lead) + a
            else:
                prompt, base = [context[len(lead) + a - 1]], len(lead) + a - 1
            if not shortcuts:
                prompt, base = context[:base] + prompt, 0
            return LineTask(i, prompt, base, ids[a:spans[i][1] + 1], extra)

        def proposer(n: int) -> LineProposer:
            return LineProposer(scorer, ends_line=lambda t: b"\n" in tok.piece(t),
                                stops=lambda t: tok.is_eog(t) or tok.is_control(t),
                                n_candidates=n, max_extra=MAX_EXTRA, draft=shortcuts, draft_max=DRAFT_TOKENS,
                                forks=forks, force=True)

        def fitting(keys, n_written: int) -> list[LineTask]:
            """The tasks of `keys` whose rows fit the context, in that order, with room kept
            for `n_written` of them to be written again (the largest such)."""
            tasks = [task(i) for i in keys]
            writes = sorted((2 * (len(t.written) + MAX_EXTRA) * (1 + n_candidates * forks) for t in tasks),
                            reverse=True)
            out, room = [], session.n_ctx - session.n_past - sum(writes[:n_written])
            for t in tasks:
                need = len(t.prompt) + len(t.written) + sum(map(len, t.extra))
                if need <= room:
                    room -= need
                    out.append(t)
            return out

        def least_likely(worst: dict) -> list:
            """The raising line (when it is a place) and the places whose written line's least
            likely token is the least likely, `lines` in all."""
            first = [i for i in chosen if places[i].kind == "raised"][:1]
            rest = sorted((i for i in chosen if i not in first and i in worst),
                          key=lambda i: (_read_from_the_left(worst[i], i in opening) if fim is None else worst[i], i))
            return (first + rest)[:lines]

        try:
            chosen = sorted(spans)
            if left:
                # the raising line and the lines with an exact fix stay; the least likely from
                # the left fill the rest
                first = [i for i in chosen if places[i].kind == "raised" or spans[i][3]]
                rest = sorted((i for i in chosen if i not in first), key=lambda i: (left[i], i))
                chosen = sorted((first + rest)[:max(READ_BOTH, len(first))])
                stats["read_left"] = len(left)
            writer = proposer(n_candidates)
            if len(chosen) <= lines:
                line_tasks = fitting(chosen, len(chosen))
                proposals = writer.propose(line_tasks)
                written = [t.key for t in line_tasks]
            elif shortcuts:
                # every place read from both sides in the batch that holds the prompts of the
                # lines then written again (the least likely ones)
                line_tasks = fitting(sorted(chosen, key=lambda i: places[i].kind != "raised"), lines)
                proposals = writer.propose(line_tasks, write=least_likely)
                stats["read"] = len(writer.written_worst)
                written = least_likely(writer.written_worst)
            else:
                reader = proposer(0)
                reader.propose(fitting(chosen, 0))
                stats["rows"] += reader.rows
                stats["batches"] += reader.batches
                stats["read"] = len(reader.written_worst)
                line_tasks = fitting(least_likely(reader.written_worst), lines)
                proposals = writer.propose(line_tasks)
                written = [t.key for t in line_tasks]
            stats["rows"] += writer.rows
            stats["batches"] += writer.batches
            stats["write_rows"] = writer.rows
        finally:
            scorer.truncate(len(context) if shortcuts and session.n_past >= len(context) else 0)
    out: list[Repair] = []
    for i in spans:
        written_lp = writer.written_logprobs.get(i)
        for k, r in enumerate(by_place.get(i, [])):
            lp = writer.extra_logprobs.get((i, k))
            if lp is not None and written_lp is not None:
                r.gain = lp - written_lp
    dropped = 0
    for p in proposals:
        place = places[p.key]
        a, b, line_end, _ = spans[p.key]
        text = b"".join(tok.piece(t) for t in p.tokens).split(b"\n", 1)[0]
        base = offsets[place.cell]
        cell_data = cells[place.cell].encode("utf-8")
        start, end = enc.starts[a] - base, line_end - base
        if not_a_repair(cell_data, start, end, text) is not None:
            dropped += 1
            continue
        c = smallest_edit(cell_data, start, end, text, place.line, "model")
        if c is None:
            continue
        r = _from_candidate(cells[place.cell], place, c)
        if r is not None:
            r.gain = p.logprob - p.written_logprob
            out.append(r)
    written = sorted(set(written) | {p.key for p in proposals})
    stats.update({"lines": len(written), "written": [[places[i].cell, places[i].line] for i in written],
                  "proposals": len(proposals), "not_repairs": dropped,
                  "context_tokens": len(context), "model_s": round(time.perf_counter() - t0, 4)})
    return out, stats


def _read_from_the_left(worst: float, opening: bool) -> float:
    """A line's least likely token read from the left, as evidence that the line is wrong: none
    for the first line of the code in view (ranked last), whose tokens the model reads with
    nothing before them: it says how a document begins, not whether the line is wrong."""
    return 0.0 if opening else worst


def _through(enc, end: int) -> int:
    """The number of tokens that start before byte `end`."""
    import bisect
    return bisect.bisect_left(enc.starts, end)


def _from_candidate(source: str, place: Place, c) -> Repair | None:
    """The model's candidate `c` (byte offsets in the cell, within one line) as a Repair."""
    data = source.encode("utf-8")
    if b"\n" in data[c.start:c.end] or "\n" in c.text:
        return None
    line_start = data.rfind(b"\n", 0, c.start) + 1
    col = len(data[line_start:c.start].decode("utf-8", "replace"))
    end_col = len(data[line_start:c.end].decode("utf-8", "replace"))
    return _replace(source, place.cell, data.count(b"\n", 0, c.start) + 1, col, end_col, c.text, "model", place)


def hold_context(cells: Sequence[str], *, model=None, threads: int | None = None,
                 cancel: Callable[[], bool] | None = None) -> int | None:
    """Computes now the K,V a repair of the next cell would read first: the latest of `cells`
    (the cells run so far) within CONTEXT_TOKENS. Auto mode calls it at idle after a cell, so a
    failure of the next one starts at its own code. Only with the model loaded (None: it is not;
    nothing is loaded for this); returns the positions the session holds for it."""
    from ..core.adapter import loaded_model, single_threaded_blas
    engine = loaded_model(model, threads)
    if engine is None:
        return None
    tok = engine.tokenizer
    cells = [*cells, ""]
    text = "".join(_in_prompt(cells[k], last=False) for k in _cells_in_view(tok, cells)[:-1])
    # the last token may merge with the error's line that follows it: left to the repair
    context = _lead(tok) + tok.encode(text).ids[:-1]
    with engine.lock, single_threaded_blas():
        engine.forget()
        hold(engine.session, context, cancel)
    return len(context)


def _lead(tok) -> list[int]:
    """What the repair's prompt begins with: fill-in-the-middle's prefix token where the model has
    the tokens, else the document start (hold_context's K,V must begin the same)."""
    from ..core.vocab import document_start
    fim = fim_ids(tok)
    return [fim[0]] if fim is not None else document_start(tok)


def _in_prompt(cell: str, *, last: bool) -> str:
    """A cell as the prompt holds it: an earlier one followed by a blank line."""
    return cell.rstrip("\n") + ("\n" if last else "\n\n")


def _cells_in_view(tok, cells: list[str]) -> list[int]:
    """The cells the prompt reads: the failed cell and the latest earlier cells within
    CONTEXT_TOKENS (a place in a cell before them is left to the exact fixes: the model's lines
    there were mostly changes to code the failure never touched; docs/measurements.md)."""
    last = len(cells) - 1
    keep = [last]
    used = 0
    for k in range(last - 1, -1, -1):
        n = len(tok.encode(cells[k]).ids)
        if used + n > CONTEXT_TOKENS:
            break
        used += n
        keep.append(k)
    return sorted(keep)


__all__ = ["ERROR_PROMPTS", "FailureRepair", "Repair", "hold_context", "repair_failure"]
