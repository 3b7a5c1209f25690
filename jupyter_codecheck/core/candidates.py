"""Candidate fixes for a cell, generated broadly and gated by Python's own checks.

The model's walk marks *places*: tokens it rejected or flagged, edits it proposed, names Python
cannot resolve, a syntax error. At each place many candidate edits are tried, because the one
edit the walk found is rarely the real fix:

    walk         the walk's own edit
    alternative  the model's top choices at a rejected token: change it, insert before it, delete it
    typo         a misspelt word (split into several model tokens) -> a near name in scope or keyword
    pattern      bug-pattern rewrites of the place's statement: comparisons and arithmetic swapped,
                 integers +-1, and/or, True/False, negation, range ends +-1, two arguments swapped
    name         another name in scope where the model expected it (variable misuse)

Every candidate passes the gates (core/gates.py) before the model weighs it: the user's numbers, strings
and comments are never rewritten (an integer in code may move by one, never inside a collection
literal), a name a fix writes is in scope or a near-typo of the word it replaces, and a cell that
parses still parses. Which candidate wins is then the model's evidence (decoding/verify.py).
"""
from __future__ import annotations

import io
import keyword
import tokenize
from dataclasses import dataclass

from ..pytext.pycheck import CellFacts, edit_distance, near_typo
from ..pytext.pysource import IDENT_BYTES, byte_offsets

# identifiers as Python reads them, Unicode ones included (pysource.IDENT, as pycheck's)
_WORD = IDENT_BYTES
# methods of the builtin types: attribute names a typo fix may write
_METHODS = frozenset(n for t in (str, bytes, list, dict, set, tuple, int, float, complex, object)
                     for n in dir(t) if not n.startswith("_"))
_KEYWORDS = frozenset(keyword.kwlist)

SWAPS = {
    "<": ("<=", ">"), "<=": ("<", ">="), ">": (">=", "<"), ">=": (">", "<="),
    "==": ("!=",), "!=": ("==",), "+": ("-",), "-": ("+",), "*": ("/", "+"), "/": ("//", "*"),
    "//": ("/",), "%": ("//",), "+=": ("-=",), "-=": ("+=",), "and": ("or",), "or": ("and",),
    "True": ("False",), "False": ("True",), "is": ("is not",), "in": ("not in",),
    "max": ("min",), "min": ("max",),
}
_NEGATE_AFTER = ("if", "elif", "while", "return")
_SWAP_KIND = {**{op: "comparison" for op in ("<", "<=", ">", ">=", "==", "!=", "is", "in")},
              **{op: "boolean" for op in ("and", "or", "True", "False")},
              "max": "function", "min": "function"}
# argument order does not matter to these
_COMMUTATIVE = frozenset({"max", "min", "sum", "set", "print", "zip", "isinstance"})


@dataclass(frozen=True)
class Candidate:
    start: int                   # byte span of the cell's text replaced (start == end: insertion)
    end: int
    text: str                    # the replacement
    source: str                  # walk | alternative | typo | pattern | name
    site: int                    # the place it answers: a 1-based line

    def apply(self, data: bytes) -> bytes:
        return data[:self.start] + self.text.encode("utf-8") + data[self.end:]


@dataclass
class Token:
    """A Python token with byte offsets."""
    type: int
    string: str
    start: int
    end: int
    line: int


def python_tokens(source: str) -> list[Token]:
    at = byte_offsets(source)
    out = []
    try:
        for t in tokenize.generate_tokens(io.StringIO(source).readline):
            if t.type in (tokenize.NAME, tokenize.OP, tokenize.NUMBER):
                out.append(Token(t.type, t.string, at(*t.start), at(*t.end), t.start[0]))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return out


# -- generators ------------------------------------------------------------------------------------

def from_walk(edits, site_of) -> list[Candidate]:
    return [Candidate(e.start, e.end, e.replacement, "walk", site_of(e.start)) for e in edits]


def from_alternatives(index: int, starts, ends, data: bytes, alternatives, site: int) -> list[Candidate]:
    """The model's preferred tokens at a rejected token: instead of it, before it, or without it."""
    s, e = starts[index], ends[index]
    out = []
    for piece in alternatives:
        text = piece.decode("utf-8", "replace")
        if "\ufffd" in text:
            continue
        out.append(Candidate(s, e, text, "alternative", site))
        out.append(Candidate(s, s, text, "alternative", site))
    if data[s:e].strip():
        out.append(Candidate(s, e, "", "alternative", site))
    return out


def word_at(data: bytes, pos: int) -> tuple[int, int] | None:
    """Byte span of the identifier-like word around `pos`."""
    for m in _WORD.finditer(data, max(0, pos - 64), pos + 64):
        if m.start() <= pos < m.end():
            return m.start(), m.end()
    return None


def typos(word: str, start: int, end: int, facts: CellFacts, site: int, attribute: bool) -> list[Candidate]:
    """Near names for a misspelt word: names in scope and keywords (methods after a dot)."""
    pool = (facts.identifiers | _METHODS) if attribute else (facts.scope | _KEYWORDS)
    found = sorted((edit_distance(word, w), w) for w in pool if near_typo(word, w))
    return [Candidate(start, end, w, "typo", site) for _, w in found[:4]]


def patterns(tokens: list[Token], line: int, facts: CellFacts) -> list[Candidate]:
    """Bug-pattern rewrites of one line's code."""
    out = []
    toks = [t for t in tokens if t.line == line]
    for k, t in enumerate(toks):
        for new in SWAPS.get(t.string, ()):
            if t.string in ("max", "min") and (k + 1 >= len(toks) or toks[k + 1].string != "("):
                continue
            out.append(Candidate(t.start, t.end, new, f"pattern:{_SWAP_KIND.get(t.string, 'operator')}", line))
        if t.type == tokenize.NUMBER and t.string.isdigit() and not facts.in_display(t.start, t.end):
            v = int(t.string)
            for new in (v + 1, v - 1):
                if new >= 0:
                    out.append(Candidate(t.start, t.end, str(new), "pattern:constant", line))
        if t.string == "not" and k + 1 < len(toks) and toks[k + 1].string != "in":
            nxt = toks[k + 1]
            out.append(Candidate(t.start, nxt.start, "", "pattern:negation", line))
        if t.string in _NEGATE_AFTER and k + 1 < len(toks) and toks[k + 1].string != "not":
            out.append(Candidate(toks[k + 1].start, toks[k + 1].start, "not ", "pattern:negation", line))
        if t.string == "range" and k + 1 < len(toks) and toks[k + 1].string == "(":
            close = _closing(toks, k + 1)
            if close is not None:
                at = toks[close].start
                out.append(Candidate(at, at, " + 1", "pattern:range", line))
                out.append(Candidate(at, at, " - 1", "pattern:range", line))
        if t.string == "(" and k > 0 and toks[k - 1].type == tokenize.NAME and \
                toks[k - 1].string not in _COMMUTATIVE:
            close = _closing(toks, k)
            # f(a, b) -> f(b, a) for two plain names
            if close == k + 4 and toks[k + 2].string == "," and \
                    toks[k + 1].type == tokenize.NAME and toks[k + 3].type == tokenize.NAME:
                a, b = toks[k + 1], toks[k + 3]
                out.append(Candidate(a.start, b.end, f"{b.string}, {a.string}", "pattern:arguments", line))
    return out


def _closing(toks: list[Token], open_k: int) -> int | None:
    depth = 0
    for j in range(open_k, len(toks)):
        s = toks[j].string
        if s in "([{":
            depth += 1
        elif s in ")]}":
            depth -= 1
            if depth == 0:
                return j
    return None


def names(token: Token, preferred: list[str], facts: CellFacts) -> list[Candidate]:
    """Other names in scope the model would start writing where `token` is (variable misuse)."""
    out = []
    for piece in preferred:
        head = piece.strip()
        if len(head) < 2 or not head.isidentifier():
            continue
        for name in sorted(facts.locals):
            if name != token.string and name.startswith(head):
                out.append(Candidate(token.start, token.end, name, "name", token.line))
    return out[:4]


# -- gates -----------------------------------------------------------------------------------------

__all__ = ["Candidate", "python_tokens", "from_walk", "from_alternatives", "typos", "patterns",
           "names", "word_at", "SWAPS"]
