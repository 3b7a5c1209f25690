"""What Python's own tokenizer tells about a cell: where names are *defined*, where comments and
string literals are. The checker keeps such tokens whatever the model says (a new name, a comment
or a message text is not predictable and not a bug), but still scores and shows them.

Works on broken code: tokenizing stops at the first error and what was read so far is used.
"""
from __future__ import annotations

import io
import keyword
import re
import tokenize

# An identifier as Python reads it (PEP 3131): a letter or '_', then letters, digits and '_', in
# any script. The one pattern of the gates (pycheck, candidates): `données` is one word for all.
IDENT = re.compile(r"[^\W\d]\w*")
# The same over a cell's UTF-8 bytes. Outside strings and comments a non-ASCII character can
# only be part of a name, so every byte >= 0x80 is a word byte (a character is never split).
IDENT_BYTES_PATTERN = rb"[A-Za-z_\x80-\xff][A-Za-z0-9_\x80-\xff]*"
IDENT_BYTES = re.compile(IDENT_BYTES_PATTERN)


def is_word_byte(b: int) -> bool:
    """Can byte `b` of UTF-8 text be part of an identifier (see IDENT_BYTES)?"""
    return b >= 0x80 or b == 0x5F or 0x30 <= b <= 0x39 or 0x41 <= b <= 0x5A or 0x61 <= b <= 0x7A

_OPENERS = {"(": ")", "[": "]", "{": "}"}


def byte_offsets(source: str):
    """(row, col) in characters -> byte offset."""
    lines = source.splitlines(keepends=True)
    starts, pos = [0], 0
    for ln in lines:
        pos += len(ln.encode("utf-8"))
        starts.append(pos)

    def at(row: int, col: int) -> int:
        if row - 1 >= len(lines):
            return pos
        return starts[row - 1] + len(lines[row - 1][:col].encode("utf-8"))
    return at


def free_spans(source: str) -> list[tuple[int, int]]:
    """Byte spans of defined names (def/class names, parameters, assignment, for, import, as and
    with targets), comments and string literals."""
    at = byte_offsets(source)
    toks = []
    try:
        for t in tokenize.generate_tokens(io.StringIO(source).readline):
            toks.append(t)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    spans = []

    def mark(t):
        spans.append((at(*t.start), at(*t.end)))

    code = [t for t in toks if t.type not in (tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING)]
    for t in toks:
        if t.type in (tokenize.COMMENT, tokenize.STRING) or t.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
            mark(t)
    line_start = True
    for k, t in enumerate(code):
        prev = code[k - 1] if k else None
        if t.type == tokenize.NAME and not keyword.iskeyword(t.string):
            p = prev.string if prev is not None else ""
            if p in ("def", "class", "as", "import", "global", "nonlocal"):
                mark(t)
            elif p == "," and _in_import(code, k):
                mark(t)
            elif _is_target(code, k, line_start):
                mark(t)
            elif _is_parameter(code, k):
                mark(t)
        line_start = t.type in (tokenize.NEWLINE,) or (t.type == tokenize.OP and t.string == ";")
        if t.type == tokenize.NEWLINE:
            line_start = True
    return spans


def _in_import(code, k) -> bool:
    for j in range(k - 1, -1, -1):
        if code[j].type == tokenize.NEWLINE:
            return False
        if code[j].string == "import":
            return True
    return False


def _is_target(code, k, line_start) -> bool:
    """NAME in `a, b = ...` / `x: T = ...` at a statement start, or between `for` and `in`."""
    # for-targets (statements and comprehensions)
    for j in range(k - 1, max(-1, k - 8), -1):
        s = code[j].string
        if s == "for":
            return True
        if keyword.iskeyword(s) or not (code[j].type == tokenize.NAME or s in (",", "(", "[")):
            break
    # assignment targets: walk back over `NAME ,` / `(` to a statement start
    j = k - 1
    while j >= 0 and (code[j].string in (",", "(", "[") or (code[j].type == tokenize.NAME and not keyword.iskeyword(code[j].string))):
        j -= 1
    starts_stmt = j < 0 or code[j].type in (tokenize.NEWLINE,) or code[j].string in (";", ":") and _colon_ends_header(code, j)
    if not starts_stmt:
        return False
    # forward: names, commas and brackets, then `=` (not `==`) or `:` annotation
    j = k + 1
    while j < len(code) and (code[j].string in (",", ")", "]") or code[j].type == tokenize.NAME and not keyword.iskeyword(code[j].string)):
        j += 1
    return j < len(code) and code[j].string in ("=", ":") and not (code[j].string == ":" and k + 1 != j)


def _colon_ends_header(code, j) -> bool:
    """A `:` that ends a compound statement header on one line (`if x: y = 1`)."""
    for m in range(j - 1, -1, -1):
        if code[m].type == tokenize.NEWLINE:
            return False
        if code[m].string in ("if", "else", "elif", "while", "for", "try", "except", "finally", "with", "def", "class"):
            return True
    return False


def _is_parameter(code, k) -> bool:
    """NAME right after `(`, `,`, `*` or `**` inside the parentheses of a def or lambda header."""
    if k > 0 and code[k - 1].string == "lambda":
        return True
    if k == 0 or code[k - 1].string not in ("(", ",", "*", "**"):
        return False
    depth = 0
    for j in range(k - 1, -1, -1):
        s = code[j].string
        if code[j].type == tokenize.NEWLINE:
            return False
        if s == "lambda":
            return depth == 0
        if s in (")", "]", "}"):
            depth += 1
        elif s in _OPENERS:
            if depth == 0:
                return s == "(" and j >= 2 and code[j - 2].string == "def"
            depth -= 1
    return False
