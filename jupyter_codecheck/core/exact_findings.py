"""The exact part of a check, without the model, in milliseconds: Python's own errors and the
kernel's facts on a cell, each with the fixes its exact alternatives allow; and which of them
the cell surely crashes on when it runs (what a guard may stop a cell for).

    exact = exact_check(cell, shell.user_ns, history=cells_run)
    exact.findings        # the errors check() reports, one a line (its fixes not ranked)
    exact.certain         # those the cell reaches whatever runs before them

Which errors are certain is the facts' to say (facts/certainty.py: read from the cell and the
objects, no model); this module makes findings of both, as check() reports them.
"""
from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from ..pytext.automagic import automagic
from .evidence import kernel_finding, syntax_finding, undefined_finding
from ..facts.certainty import Certainty
from ..facts.called_functions import body_loops, called_bodies, kernel_calls
from ..facts.first_pass import first_passes, in_body
from ..pytext.pycheck import analyse, edit_distance, near_typo, parse
from ..pytext.sources import magic_lines_as_python
from .result import Finding
from .silence import Silencer

# a value fact (an array's shape) stops the cell when none of the objects it reads, its
# subjects, may change before the use (facts/certainty.py)
STOPPING_KINDS = ("undefined-name", "attribute", "key", "call", "value")
_IPYTHON_LINE = re.compile(r"^[ \t]*[%!]|=[ \t]*[%!]", re.M)
_SHOWN_FIXES = 3


@dataclass
class ExactCheck:
    findings: list[Finding] = field(default_factory=list)
    certain: list[Finding] = field(default_factory=list)
    facts: list = field(default_factory=list)     # the kernel facts read (KernelFact)


def exact_check(source: str, namespace: Mapping, *, history=None, failed=None, later=None,
                libraries: str = "loaded", ignore=()) -> ExactCheck:
    """The errors Python and the kernel's objects predict for `source` (a cell's Python code) with
    `namespace` as it is now; `history`, `failed`, `later`, `ignore`: as check()'s options of
    those names (a silenced finding is neither shown nor a stop; a comment naming an unknown kind
    says so, in the finding of its line or one of its own)."""
    out = _exact(source, namespace, history, failed, later, libraries)
    silencer = Silencer(source, ignore)
    out.findings = [f for f in out.findings if not silencer.silences(f)]
    out.certain = [f for f in out.certain if not silencer.silences(f)]
    by_line = {f.line: f for f in out.findings}
    for u in silencer.unknown:
        if u.line in by_line:
            by_line[u.line].message += "; " + u.message      # a stop's finding too: the same object
        elif not silencer.silences(u):
            by_line[u.line] = u
    out.findings = [by_line[ln] for ln in sorted(by_line)]
    return out


def _exact(source: str, namespace: Mapping, history, failed, later, libraries) -> ExactCheck:
    from ..facts import facts_for
    source = magic_lines_as_python(source)      # lines and columns as they are
    facts = analyse(source, None, namespace)
    out = ExactCheck()
    if facts.syntax is not None:
        out.findings.append(syntax_finding(facts.syntax))
        return out                          # Python refuses the cell itself
    if automagic(source, namespace) is not None:
        return out                          # the kernel runs it as a line magic, not as Python
    got = facts_for(source, namespace, analysed=facts, history=history, failed=failed, later=later,
                    libraries=libraries)
    out.facts, reasons = got.facts, got.reasons
    by_line: dict[int, Finding] = {}
    lines = source.split("\n")
    places: dict[int, int] = {}             # line -> the finding's UTF-8 column (as the AST's)
    subjects: dict[int, tuple] = {}         # line -> a value fact's subjects
    literal: set[int] = set()               # lines of value facts of the cell's literals alone
    within: dict[int, tuple] = {}           # line -> where a kernel function's fact stands in its call's view
    for u in facts.undefined:
        if u.line not in by_line:
            f = undefined_finding(u, reasons.get(u.name))
            if u.name not in reasons:           # the notebook's reason is the story, not a slip
                f.message += _did_you_mean([repr(w) for w in _near_names(u.name, facts.scope)])
            by_line[u.line] = f
            places[u.line] = u.column           # pyflakes gives the node's own (byte) column
    for k in out.facts:
        if k.line not in by_line:
            f = kernel_finding(k)
            f.message += _did_you_mean(k.candidates)
            by_line[k.line] = f
            places[k.line] = _byte_col(lines, k.line, k.column)
            if k.kind == "value":
                subjects[k.line] = tuple(k.subjects)
                if k.literal:
                    literal.add(k.line)
            if k.within is not None:
                within[k.line] = k.within
    out.findings = [by_line[ln] for ln in sorted(by_line)]
    tree = parse(source)
    if tree is not None and not (_IPYTHON_LINE.search(source) and _needs_ipython(source)):
        try:
            undefined = {u.name for u in facts.undefined}
            sure = Certainty(tree, namespace, undefined)
            # a finding in a loop's sure first pass is judged in that pass's view (facts/first_pass.py)
            views = [(loop, Certainty(view, namespace, undefined)) for loop, view in first_passes(tree, namespace)]
            # and a function the cell defines, in the view of its call (facts/called_functions.py)
            for fn, view in called_bodies(tree):     # (a loop of its body first: the narrower view)
                views += [(loop, Certainty(inner, namespace, undefined)) for loop, inner in body_loops(fn, view, namespace)]
                views.append((fn, Certainty(view, namespace, undefined)))
            calls = kernel_calls(tree, source, namespace) if within else []
            out.certain = [f for f in out.findings if f.kind in STOPPING_KINDS and (
                _sure_in_call(calls, f, within[f.line], namespace, undefined, subjects.get(f.line), f.line in literal)
                if f.line in within else
                next((v for loop, v in views if in_body(loop, f.line)), sure).crashes(
                    f.line, places[f.line], object_fact=f.kind != "undefined-name", subjects=subjects.get(f.line),
                    literal=f.line in literal))]
        except Exception:  # noqa: BLE001 - in doubt, no stop
            out.certain = []
    return out


def _needs_ipython(source: str) -> bool:
    """Does the cell need IPython's transformer to be Python (a magic, a shell line)? A cell
    Python parses as it is has none: `= %` inside a string (`"x = %0.2f" % x`) is text."""
    import warnings
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(source, "<cell>", "exec", ast.PyCF_ONLY_AST)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return True
    return False


def _sure_in_call(calls, f: Finding, at: tuple[int, int], namespace, undefined, subjects, literal) -> bool:
    """Does the cell surely reach a kernel function's fact, judged in its call's view (the call on
    the finding's line, the fact at `at` there)?"""
    call = next((c for c in calls if c.call.lineno <= f.line <= c.call.end_lineno), None)
    if call is None:
        return False
    line, column = at
    view = next((inner for loop, inner in body_loops(call.function, call.view, namespace) if in_body(loop, line)),
                call.view)
    return Certainty(view, namespace, undefined).crashes(
        line, _byte_col(call.text.split("\n"), line, column), object_fact=True, subjects=subjects, literal=literal)


def _near_names(name: str, scope) -> list[str]:
    """Defined names `name` could be a slip for, closest first."""
    return [w for _, w in sorted((edit_distance(name, w), w) for w in scope if near_typo(name, w))]


def _did_you_mean(options: list[str]) -> str:
    if not options:
        return ""
    shown = options[:_SHOWN_FIXES]
    return f"; did you mean {shown[0]}?" if len(shown) == 1 else \
        f"; did you mean {', '.join(shown[:-1])} or {shown[-1]}?"



def _byte_col(lines: list[str], line: int, column: int) -> int:
    """The UTF-8 column (the AST's) of a character column."""
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return len(text[:column].encode("utf-8"))


__all__ = ["ExactCheck", "exact_check", "STOPPING_KINDS"]
