"""The gates: exact, cheap checks every candidate fix passes before the model weighs it, and
the proposals pass once more before they become fixes.

    gate                 the user's numbers, strings and comments are never rewritten (an
                         integer in code may move by one, never inside a collection literal); a
                         name a fix writes is in scope or a near-typo of the word it replaces; an
                         attribute it writes exists where Python (or the kernel) knows the
                         object, else the code shows it after a dot; an attribute the kernel's
                         object has is never replaced; a cell that parses still parses; a
                         notebook cell's shown value (its last expression) never becomes an
                         assignment
    gate_exact           a kernel fact's own alternatives: they need only keep the cell parsing
    adds_undefined_name  the exact gate on proposals: the fix leaves no new undefined name
    adds_kernel_fact     beside a kernel: the fix makes no new crash on the kernel's objects
    fixes_of_the_whole   a long source's fixes, gated again on the whole source
"""
from __future__ import annotations

import ast
import re
from functools import lru_cache

from .candidates import _KEYWORDS, _METHODS, Candidate
from ..pytext.pycheck import CellFacts, compile_tree, near_typo, parse, syntax_problem, undefined_names
from ..pytext.pysource import IDENT, IDENT_BYTES_PATTERN, is_word_byte
from .result import CheckResult, apply_edits

_IDENT = IDENT
_ATTR_WORD = re.compile(r"\.\s*(" + IDENT.pattern + ")")
_ATTR_AFTER = re.compile(rb"\s*\.\s*(" + IDENT_BYTES_PATTERN + rb")")
_SMALL_INT = re.compile(r"(?<![\w.])\d+(?![\w.])")


def gate(c: Candidate, data: bytes, facts: CellFacts) -> str | None:
    """Why a candidate may not be proposed (None: it may). Cheap checks first; parsing last."""
    original = data[c.start:c.end].decode("utf-8", "replace")
    if c.text == original:
        return "no change"
    if any(q in c.text for q in "\"'#"):
        return "writes a string or comment"
    number_move = c.source.startswith("pattern") and original.isdigit() and c.text.isdigit() \
        and not facts.in_display(c.start, c.end)
    if facts.touches_data(c.start, c.end) and not number_move:
        return "rewrites the user's data"
    if facts.defines(*_word_span(c, data)) and c.source != "typo":
        return "renames what the cell defines"
    if facts.parses and "".join(original.split()) == "".join(c.text.split()):
        return "changes only layout"
    if not number_move and not c.source.startswith("pattern"):
        for lit in _SMALL_INT.findall(c.text):
            if lit not in original and (lit not in ("0", "1") or facts.touches_display(c.start, c.end)):
                return "writes a number"      # 0 and 1 are code (x[0], n - 1); in [...] they are data
    # the words it writes, and the words as they read after the edit, whole: a sub-word edit
    # makes a new word (`hash_info` with 'hash' -> 'float' writes `float_info`, not only `float`)
    ws, we = _word_span(c, data)
    before = data[ws:we].decode("utf-8", "replace")
    after = (data[ws:c.start] + c.text.encode("utf-8") + data[c.end:we]).decode("utf-8", "replace")
    live = _live_base(ws, data, facts)
    missing = _missing_live_attribute(live, ws, after, data)
    if missing:
        return missing
    for words, text in ((set(_IDENT.findall(original)), c.text), (set(_IDENT.findall(before)), after)):
        attrs = set(_ATTR_WORD.findall(text))
        if text is after and data[ws - 1:ws] == b".":
            attrs |= set(_IDENT.findall(after)[:1])
        for w in set(_IDENT.findall(text)) - words - _KEYWORDS:
            if live is not None and w == _after_word(after) and _has(live[1], w) is True:
                continue                  # the kernel's object has it: more than the text shows
            # an attribute only where the code shows one of that name (`x.data`), not a variable
            # `data`: which attributes an object has is not known from the text otherwise
            pool = (facts.attributes | _METHODS) if w in attrs else facts.scope
            if w not in pool and not any(near_typo(o, w) for o in words):
                return f"writes .{w}, an attribute the code never shows" if w in attrs else \
                    f"writes {w!r}, not a name in scope"
    attr = _ATTR_AFTER.match(data, c.end)
    cls = facts.classes.get(c.text.strip())
    attr_name = attr.group(1).decode("utf-8", "replace") if attr else None
    if attr and cls is not None and not hasattr(cls, attr_name):
        return f"{c.text.strip()!r} ({cls.__name__}) has no attribute {attr_name!r}"
    variant = c.apply(data)
    missing = _missing_module_attribute(c, variant, facts)
    if missing:
        return missing
    if facts.shows_last and facts.parses and _hides_shown_value(c, data, variant):
        return "makes the cell's shown value an assignment"
    problem = syntax_problem(variant.decode("utf-8", "replace"))
    if facts.parses:
        if problem is not None:
            return "breaks parsing"
    elif problem is not None and (problem.line, problem.column) <= (facts.syntax.line, facts.syntax.column):
        return "does not get past the syntax error"
    return None


def _hides_shown_value(c: Candidate, data: bytes, variant: bytes) -> bool:
    """Does the fix turn a notebook cell's last expression, the value the cell shows, into an
    assignment (`obj.index is labels` -> `obj.index = labels`)? The expression is not dead code
    there: its output is what it is for."""
    last = _last_expression_start(data)
    if last is None or c.end < last:
        return False
    tree = _quiet_parse(variant)
    return tree is not None and bool(tree.body) and isinstance(tree.body[-1], (ast.Assign, ast.AugAssign,
                                                                               ast.AnnAssign))


def _quiet_parse(data: bytes) -> ast.Module | None:
    """The tree of a cell or of a candidate fix's text as written, or None (compile_tree keeps the
    SyntaxWarnings a model's candidate provokes, `1if x`, from being printed)."""
    try:
        return compile_tree(data)
    except (SyntaxError, ValueError):
        return None


@lru_cache(maxsize=64)
def _last_expression_start(data: bytes) -> int | None:
    """The byte offset where the cell's last statement starts, when it is an expression."""
    tree = _quiet_parse(data)
    if tree is None or not tree.body or not isinstance(tree.body[-1], ast.Expr):
        return None
    last = tree.body[-1]
    lines = data.splitlines(keepends=True)
    return sum(len(line) for line in lines[:last.lineno - 1]) + last.col_offset


def gate_exact(c: Candidate, data: bytes, facts: CellFacts) -> str | None:
    """The gate of a kernel fact's own alternatives (a column the DataFrame has, a parameter the
    function takes): exact already, they need only leave a parsing cell parsing."""
    if c.text == data[c.start:c.end].decode("utf-8", "replace"):
        return "no change"
    if facts.parses and syntax_problem(c.apply(data).decode("utf-8", "replace")) is not None:
        return "breaks parsing"
    return None


def adds_undefined_name(c: Candidate, data: bytes, facts: CellFacts) -> bool:
    """The exact gate, run on proposals only (pyflakes): does the fix leave a name undefined that
    the cell did not have (a broken cell: any undefined name on the edited line)?"""
    tree = parse(c.apply(data).decode("utf-8", "replace"))
    if tree is None:
        return False                    # still broken further on: gate() judged that
    if facts.parses:
        # with only what is defined outside the cell given, pyflakes scopes the cell's own names
        # as Python does (`self` of one method is not another's); the cell as written is read
        # the same way, so only what the fix adds counts
        known = facts.scope if facts.outside is None else facts.outside
        found = undefined_names(tree, known)
        if found is None:
            return False
        before = _undefined_as_written(facts.source, known)
        return not {u.name for u in found} <= before
    # a broken cell's scope is every word in it: here only words written off the edited lines,
    # and what the earlier cells define
    a = data.rfind(b"\n", 0, c.start) + 1
    b = data.find(b"\n", c.end)
    b = len(data) if b < 0 else b
    elsewhere = set(_IDENT.findall((data[:a] + data[b:]).decode("utf-8", "replace")))
    own = set(_IDENT.findall(data.decode("utf-8", "replace")))
    known = frozenset(w for w in facts.scope if w in elsewhere or w not in own) | (facts.outside or frozenset())
    found = undefined_names(tree, known)
    line = data[:c.start].count(b"\n") + 1
    last = line + c.text.count("\n")
    if found is None:
        return False
    written = set(_IDENT.findall(c.text))
    # a name the fix writes; or one the user wrote that is a slip for a keyword or a name in
    # scope (`retrun x` -> `retrun`: the line parses, the slip stays). A name merely unknown
    # here (`for v in x` + ':', x from elsewhere) is its own finding, not the fix's fault
    return any(line <= u.line <= last and (u.name in written or any(
        near_typo(u.name, w) for w in (*_KEYWORDS, *facts.scope))) for u in found)


_DOTTED = re.compile(IDENT_BYTES_PATTERN + rb"(?:\." + IDENT_BYTES_PATTERN + rb")+")


def _missing_module_attribute(c: Candidate, variant: bytes, facts: CellFacts) -> str | None:
    """`sys.hash_info.modulus` -> `sys.float_info.modulus`: a dotted name on a standard-library
    module the cell imports must still exist in the edited cell, `variant` (looked up on the
    module, never the user's code, and nothing called)."""
    lo, hi = c.start, c.start + len(c.text.encode("utf-8"))
    for m in _DOTTED.finditer(variant, max(0, lo - 200), min(len(variant), hi + 200)):
        if m.start() > hi or m.end() < lo:
            continue
        parts = m.group().decode("utf-8", "replace").split(".")
        obj = facts.module_of(parts[0])
        for k, part in enumerate(parts[1:], 1):
            if obj is None:
                break
            if not hasattr(obj, part):
                return f"{'.'.join(parts[:k])!r} has no attribute {part!r}"
            obj = getattr(obj, part, None)
    return None


_NAME_BEFORE_DOT = re.compile(rb"(" + IDENT_BYTES_PATTERN + rb")\s*\.\s*$")


def _live_base(ws: int, data: bytes, facts: CellFacts):
    """(name, object) before the dot of the word at `ws`, where a kernel holds it (and the cell
    does not rebind the name first); else None."""
    base = _NAME_BEFORE_DOT.search(data, max(0, ws - 80), ws)
    if base is None:
        return None
    name = base.group(1).decode("utf-8", "replace")
    if facts.live is None or name in facts.locals or name not in facts.live:
        return None
    return name, facts.live[name]


def _has(obj, attr: str) -> bool | None:
    from ..facts.attributes import has_attribute
    return has_attribute(obj, attr)


def _after_word(text: str) -> str | None:
    m = _IDENT.match(text)
    return m.group() if m else None


def _missing_live_attribute(live, ws: int, after: str, data: bytes) -> str | None:
    """`result.corrected` -> `result.text`: in a kernel, the object `result` is there to ask; and
    an attribute it has is not what fails (`data.frame` -> `data.data`)."""
    word = _after_word(after)
    if live is None or word is None:
        return None
    name, obj = live
    if _has(obj, word) is False:
        return f"{name!r} ({type(obj).__name__}) has no attribute {word!r}"
    replaced = _after_word(data[ws:ws + 200].decode("utf-8", "replace"))
    if replaced and replaced != word and _has(obj, replaced) is True:
        return f"{name!r} ({type(obj).__name__}) has {replaced!r}: it is not what fails"
    return None


def _word_span(c: Candidate, data: bytes) -> tuple[int, int]:
    """The span an edit changes, widened to the word it extends (`class Disjoint` + 'Set' renames
    `Disjoint`, though the insertion lies outside it)."""
    start, end = c.start, c.end
    if c.text[:1].isidentifier() or c.text[:1].isdigit():
        while start > 0 and is_word_byte(data[start - 1]):
            start -= 1
    if c.text[-1:].isalnum() or c.text[-1:] == "_":
        while end < len(data) and is_word_byte(data[end]):
            end += 1
    return start, end


@lru_cache(maxsize=8)
def _undefined_as_written(source: str, known: frozenset[str]) -> frozenset[str]:
    found = undefined_names(parse(source), known)
    return frozenset(u.name for u in found or ())


def adds_kernel_fact(c: Candidate, data: bytes, facts: CellFacts) -> bool:
    """Beside a kernel: does the fix make the cell crash on the kernel's objects where it did not
    (an attribute, a column or a parameter they lack; calling an int)? Compared as kinds and
    messages, so that a fix moving text does not count as new."""
    if facts.live is None:
        return False
    from collections import Counter
    from ..facts import kernel_facts
    if facts.live_facts is None:
        facts.live_facts = tuple(kernel_facts(facts.source, facts.live))
    before = Counter((f.kind, f.message) for f in facts.live_facts)
    after = Counter((f.kind, f.message) for f in kernel_facts(c.apply(data).decode("utf-8", "replace"),
                                                              facts.live))
    return bool(after - before)


def fixes_of_the_whole(merged: CheckResult, facts) -> None:
    """A warning's fix passes the exact gates on the whole source too: a piece cut inside a
    class does not parse alone, so its own gate could not see that `self` is not defined in the
    method the fix edits. A fix the whole source refuses goes, with its finding."""
    if not facts.parses:
        return          # no verdict on names or parsing to hold a fix to: the pieces' stand
    data = merged.source.encode("utf-8")
    refused = set()
    for e in merged.edits:
        c = Candidate(e.start, e.end, e.replacement, "walk", e.line)
        if syntax_problem(c.apply(data).decode("utf-8", "replace")) is not None \
                or adds_undefined_name(c, data, facts):
            refused.add(e.line)
    refused -= {f.line for f in merged.findings if f.severity == "error"}
    if refused:
        merged.findings = [f for f in merged.findings if f.line not in refused]
        merged.edits = [e for e in merged.edits if e.line not in refused]
        merged.corrected = apply_edits(data, merged.edits).decode("utf-8", "replace")


__all__ = ["gate", "gate_exact", "adds_undefined_name", "adds_kernel_fact", "fixes_of_the_whole"]
