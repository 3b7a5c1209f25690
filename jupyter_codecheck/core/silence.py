"""Findings a user silenced: a `# codecheck: ignore[kind, ...]` comment on the finding's
statement (bare, `# codecheck: ignore`: every kind there), and the `ignore` option's kinds. A
comment on any line of a statement that spans lines covers all of its lines.

    x = df["colour"]        # codecheck: ignore[key]
    from helpers import *   # codecheck: ignore

check() silences a result before it is streamed or shown, and long_sources.merge the errors it takes
from the whole source, so every view (magics, auto mode, panel, CLI, pytest plugin) sees the
same. A silenced finding goes with its fix (the corrected code keeps the line as written); the
result's `stats["silenced"]` counts them. A comment naming an unknown kind, or none
(`ignore[]`, which silences nothing), says so, in the finding its line has or as one of kind
`ignore`: a misspelt kind must not silence nothing without a word.
"""
from __future__ import annotations

import io
import re
import tokenize

from .result import FINDING_KINDS, CheckResult, Finding

_DIRECTIVE = re.compile(r"#\s*codecheck:\s*ignore(?![\w-])(?:\[([^\]]*)\])?")


class Silencer:
    """What `source`'s comments and the `ignore` kinds silence."""

    def __init__(self, source: str, ignore=()):
        self.ignore = frozenset(ignore)
        # line -> the kinds its comment silences (None: all of them)
        self.lines: dict[int, frozenset[str] | None] = {}
        self.unknown: list[Finding] = []
        for line, column, kinds, covered in _directives(source):
            if kinds == ():
                self.unknown.append(_unknown(line, column, "'# codecheck: ignore[]' names no kind and "
                                                         "silences nothing (a bare '# codecheck: ignore' "
                                                         "silences every kind)"))
                continue
            known = None if kinds is None else frozenset(k for k in kinds if k in FINDING_KINDS)
            for n in covered:
                if self.lines.get(n, frozenset()) is not None:
                    self.lines[n] = None if known is None else self.lines.get(n, frozenset()) | known
            for k in kinds or ():
                if k not in FINDING_KINDS:
                    self.unknown.append(_unknown(line, column, f"'# codecheck: ignore' names an unknown "
                                                               f"kind {k!r}"))

    def silences(self, f: Finding) -> bool:
        if f.kind in self.ignore:
            return True
        if f.line not in self.lines:
            return False
        kinds = self.lines[f.line]
        return kinds is None or f.kind in kinds

    def apply(self, result: CheckResult) -> int:
        """Drops the silenced findings of `result` and the fixes on their lines, adds the unknown
        kinds' findings; returns how many findings were silenced. Call it before the corrected
        code is made from the edits."""
        gone = [f for f in result.findings if self.silences(f)]
        if gone:
            result.findings = [f for f in result.findings if not self.silences(f)]
            kept_lines = {f.line for f in result.findings}
            lines = {f.line for f in gone} - kept_lines
            result.edits = [e for e in result.edits if e.line not in lines]
        # one finding a line: on a line with a finding, the unknown kind is said in its message
        by_line = {f.line: f for f in result.findings}
        for u in self.unknown:
            if u.line in by_line:
                by_line[u.line].message += "; " + u.message
            elif not self.silences(u):
                by_line[u.line] = u
                result.findings = sorted(result.findings + [u], key=lambda f: f.line)
        return len(gone)


def _unknown(line: int, column: int, what: str) -> Finding:
    return Finding(line=line, column=column, score=0.0, kind="ignore", severity="warning",
                   message=f"{what}; kinds: " + ", ".join(k for k in FINDING_KINDS if k != "ignore"),
                   replacement=None)


def _directives(source: str) -> list[tuple[int, int, tuple[str, ...] | None, range]]:
    """(line, column, kinds or None for a bare comment, the lines it covers) of each directive in
    a comment. A cell Python cannot tokenize (a magic, a syntax error) is read line by line."""
    found = []
    try:
        comments = _comments(source)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        comments = [(n, line.index("#"), line[line.index("#"):], range(n, n + 1))
                    for n, line in enumerate(source.split("\n"), 1) if "#" in line]
    for line, column, text, covered in comments:
        m = _DIRECTIVE.search(text)
        if m is None:
            continue
        kinds = None if m.group(1) is None else tuple(k.strip() for k in m.group(1).split(",") if k.strip())
        found.append((line, column + m.start(), kinds, covered))
    return found


def _comments(source: str) -> list[tuple[int, int, str, range]]:
    """Each comment with the lines of the statement (logical line) it is on; a comment on a line
    of its own covers that line."""
    out = []
    pending: list[tuple[int, int, str]] = []
    start = None                        # first line of the logical line being read
    for t in tokenize.generate_tokens(io.StringIO(source).readline):
        if t.type == tokenize.COMMENT:
            if start is None:
                out.append((t.start[0], t.start[1], t.string, range(t.start[0], t.start[0] + 1)))
            else:
                pending.append((t.start[0], t.start[1], t.string))
        elif t.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
            out += [(ln, col, text, range(start, t.start[0] + 1)) for ln, col, text in pending]
            pending, start = [], None
        elif t.type not in (tokenize.NL, tokenize.INDENT, tokenize.DEDENT) and start is None:
            start = t.start[0]
    return out


__all__ = ["Silencer"]
