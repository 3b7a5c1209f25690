"""What gets checked: Python files and the code cells of notebooks, as `Unit`s.

    for unit in read_units("analysis.ipynb"):       # or a .py file: one unit, cell None
        result = check(unit.source)
        for f in result.findings:
            print(unit.location(f.line, f.column))   # analysis.ipynb:cell_4:12:5

- `find_files(paths)` expands directories (recursively, `.py` and `.ipynb`, hidden folders,
  `__pycache__`, `node_modules` and `.ipynb_checkpoints` skipped); files named explicitly are
  always taken (a name without `.ipynb` is read as Python).
- `read_units(path)` reads one file: a Python file is one unit (none when empty). A notebook gives one unit per code cell worth checking, in
  notebook order: empty cells and cells in another language (`%%bash`, `%%html`, ...) are left
  out; IPython syntax inside Python cells (`%timeit`, `!ls`) stays in the source, the checker
  masks it. Unreadable files and broken notebooks raise `SourceError` with a message that says
  what to do.
- `split_source(source, max_chars)` cuts a long source into pieces at statement starts (the
  model's window is finite; the CLI checks long files piece by piece).
- `Unit.cell` is the index of the cell in the notebook's `cells` list (0-based, counting markdown
  and raw cells too, so `nb["cells"][unit.cell]` is the cell); None for a Python file. The JSON
  and SARIF reports carry it as it is.
- `Unit.cell_name`: `cell_N` with N counted from 1 over every cell (markdown and raw too), the
  number people read (as editors number cells); every name a user sees uses it.
- `Unit.location(line, column)`: `path:line:col` or `path:cell_N:line:col`, line and column
  1-based for people (the column argument is 0-based, as in `Finding.column`).
- `Unit.file_position(line, column)`: where that character is in the file on disk (1-based line
  and column): for a notebook, inside the JSON string that holds the cell's source, so that
  code-scanning UIs which show the raw file point at the right place.
"""
from __future__ import annotations

import ast
import functools
import io
import json
import json.decoder
import json.scanner
import os
import re
import tokenize
from dataclasses import dataclass, field


class NotTextError(UnicodeError):
    """A source that holds a lone surrogate (a str from bytes decoded with 'surrogateescape', or
    a JSON escape such as "\\ud800"): no tokenizer, and no Python file, can hold it."""

    @classmethod
    def check(cls, text: str, what: str) -> None:
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as e:
            line = text.count("\n", 0, e.start) + 1
            column = e.start - (text.rfind("\n", 0, e.start) + 1) + 1
            raise cls(f"{what} holds a lone surrogate ({text[e.start]!r}) at line {line}, column "
                      f"{column}, which is not text: decode the file as UTF-8 with errors='replace', "
                      "or fix its encoding") from None


__all__ = ["NotTextError", "SourceError", "Unit", "earlier_sources", "find_files", "is_notebook", "read_units",
           "split_source"]

SKIP_DIRS = frozenset({"__pycache__", "node_modules", ".ipynb_checkpoints"})

# Cell magics whose body is Python; any other cell magic (%%bash, %%html, %%sql, ...) makes the
# cell another language, which a Python model must not judge.
PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "python", "python3",
                                "codecheck", "debug", "ipython", "px"})


# Cell magics that run their body as Python in the kernel's own namespace (PYTHON_CELL_MAGICS also
# has %%python, which runs in another process, and %%codecheck itself)
RUNS_BODY_HERE = frozenset({"time", "timeit", "capture", "prun", "debug"})
# IPython's own `%matplotlib inline` selects the inline backend and binds no name (another backend
# may fail to load: a GUI's toolkit, ipympl)
_BACKEND_LINE = re.compile(r"^%matplotlib[ \t]+inline[ \t]*$", re.MULTILINE)
# `%timeit EXPRESSION` evaluates it in the namespace, its first run raising what it raises (`%time`'s
# handling of an error differs between IPython's releases: not read)
_IPYTHON_LINES = re.compile(r"^[ \t]*[%!]", re.MULTILINE)
_TIMED_LINE = re.compile(r"^(%timeit[ \t]+)([^-\s].*)$", re.MULTILINE)


class SourceError(ValueError):
    """A file that cannot be checked; the message names the file and what to do."""

    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}")
        self.path = path


@dataclass(frozen=True)
class Unit:
    path: str                       # as the user gave it (reports show this)
    source: str
    cell: int | None = None         # index into the notebook's cells; None for a Python file
    # where each piece of the source starts in the file's text (notebooks; see file_position)
    _pieces: tuple = field(default=(), repr=False, compare=False)
    _file_text: str | None = field(default=None, repr=False, compare=False)

    @property
    def cell_name(self) -> str | None:
        """`cell_N`, N from 1 (the first cell of the notebook is cell_1); None for a file."""
        return None if self.cell is None else f"cell_{self.cell + 1}"

    @property
    def name(self) -> str:
        """`path` or `path:cell_N`: how reports name this unit."""
        return self.path if self.cell is None else f"{self.path}:{self.cell_name}"

    def location(self, line: int, column: int) -> str:
        return f"{self.name}:{line}:{column + 1}"

    def file_position(self, line: int, column: int) -> tuple[int, int]:
        """1-based (line, column) in the file itself for a 1-based `line` and 0-based `column`
        of the unit's source. For a Python file that is (line, column + 1)."""
        if self.cell is None or self._file_text is None or not self._pieces:
            return line, column + 1
        offset = _char_offset(self.source, line, column)
        # the piece (JSON string) holding that character; pieces are (source offset, quote offset)
        start, quote = self._pieces[0]
        for s, q in self._pieces:
            if s > offset:
                break
            start, quote = s, q
        raw = _raw_offset(self._file_text, quote + 1, offset - start)
        text = self._file_text
        return text.count("\n", 0, raw) + 1, raw - (text.rfind("\n", 0, raw) + 1) + 1


def is_notebook(path: str | os.PathLike) -> bool:
    return str(path).endswith(".ipynb")


def find_files(paths, *, skip_dirs=SKIP_DIRS) -> list[str]:
    """The files to check, in a stable order: explicit files as given, directories walked for
    `.py` and `.ipynb` (sorted). A missing path raises SourceError."""
    out: list[str] = []
    seen: set[str] = set()

    def add(p: str):
        key = os.path.normpath(p)
        if key not in seen:
            seen.add(key)
            out.append(p)

    for p in paths:
        p = os.fspath(p)
        if p == "-":
            add(p)
        elif os.path.isdir(p):
            for root, dirs, files in os.walk(p):
                # a virtual environment (any name: venv/, env/) is installed code, not the project's
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in skip_dirs
                                 and not os.path.isfile(os.path.join(root, d, "pyvenv.cfg")))
                for f in sorted(files):
                    if f.endswith((".py", ".ipynb")) and not f.startswith("."):
                        add(os.path.normpath(os.path.join(root, f)))   # "./x.py" -> "x.py"
        elif os.path.exists(p):
            add(p)
        else:
            raise SourceError(p, "no such file or directory")
    return out


def read_source(path: str | os.PathLike) -> str:
    """A file's text as read_units reads it (a notebook's JSON, a Python file's decoded source),
    for a check that runs where the file is not (SourceError as read_units)."""
    path = os.fspath(path)
    return _read_text(path) if is_notebook(path) else _read_python(path)


def read_units(path: str | os.PathLike, *, text: str | None = None) -> list[Unit]:
    """The checkable units of one file (`text`: its content, if already read, e.g. stdin)."""
    path = os.fspath(path)
    if text is None:
        text = read_source(path)
    if is_notebook(path):
        return _notebook_units(path, text)
    # an empty file (a package's __init__.py) has nothing to check
    return [Unit(path=path, source=text)] if text.strip() else []


def later_sources(units: list[Unit], unit: Unit) -> list[str]:
    """The sources of the cells after `unit` in the same notebook, in order: a name only they
    define fails when the notebook runs top to bottom (the checker says so)."""
    if unit.cell is None:
        return []
    return [u.source for u in units if u.path == unit.path and u.cell is not None and u.cell > unit.cell]


def earlier_sources(units: list[Unit], unit: Unit, *, max_chars: int | None = None) -> list[str]:
    """The sources of the cells before `unit` in the same notebook (the checker's `context`),
    oldest first; with `max_chars`, only the most recent whole cells that fit (the model's
    context window is finite, and nearby cells matter most)."""
    if unit.cell is None:
        return []
    earlier = [u.source for u in units if u.path == unit.path and u.cell is not None and u.cell < unit.cell]
    if max_chars is None:
        return earlier
    kept, size = [], 0
    for src in reversed(earlier):
        size += len(src)
        if size > max_chars:
            break
        kept.append(src)
    return kept[::-1]


def split_source(source: str, max_chars: int) -> list[tuple[int, str]]:
    """Cuts a long source into pieces of at most about `max_chars` characters, each starting at a
    line start and preferably where a top-level statement starts (a function or class stays
    whole when it fits). Returns (character offset, text) pairs whose texts join to `source`.
    The model's window is finite: a long file is checked piece by piece."""
    if len(source) <= max_chars:
        return [(0, source)]
    lines = source.splitlines(keepends=True)
    starts, pos = [], 0
    for ln in lines:
        starts.append(pos)
        pos += len(ln)
    inside = _lines_inside_strings(source)
    n = len(lines)

    def size(a: int, b: int) -> int:          # characters of lines[a:b]
        return (starts[b] if b < n else len(source)) - starts[a]

    def statement(i: int) -> bool:
        return i not in inside and _starts_statement(lines, i)

    pieces, begin = [], 0
    while begin < n:
        end = begin + 1                         # lines[begin:end] is the longest piece that fits
        while end < n and size(begin, end + 1) <= max_chars:
            end += 1
        if end >= n:
            cut = n
        else:
            fits = range(end, begin, -1)         # cut = first line of the next piece
            stretch = [i for i in range(end + 1, n) if size(begin, i) <= max_chars * 3 // 2]
            cut = (next((i for i in fits if statement(i)), None)
                   or next((i for i in fits if not lines[i].strip() and i not in inside), None)
                   # one long block: let the piece grow a little to keep a statement whole
                   or next((i for i in stretch if statement(i)), None)
                   or next((i for i in fits if i not in inside), None)
                   or end)
        pieces.append((starts[begin], "".join(lines[begin:cut])))
        begin = cut
    return pieces


def _lines_inside_strings(source: str) -> set[int]:
    """0-based indices of lines that begin inside a multi-line string (no cut there)."""
    inside: set[int] = set()
    try:
        for t in tokenize.generate_tokens(io.StringIO(source).readline):
            if t.type == tokenize.STRING and t.end[0] > t.start[0]:
                inside.update(range(t.start[0], t.end[0]))    # rows are 1-based: next lines
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass          # broken code: what was read so far is used
    return inside


def _starts_statement(lines: list[str], i: int) -> bool:
    line = lines[i]
    if not line.strip() or line[0] in " \t#)]}" or line.startswith(("else", "elif", "except", "finally")):
        return False
    prev = next((p.rstrip() for p in reversed(lines[:i]) if p.strip()), "")
    return not prev.endswith(("\\", ",", "(", "[", "{"))


# -- reading ------------------------------------------------------------------------------------------

def _read_python(path: str) -> str:
    try:
        # honours a PEP 263 coding line and a BOM, like Python itself
        with tokenize.open(path) as f:
            return f.read()
    except OSError as e:
        raise SourceError(path, f"cannot read it ({e.strerror or e})") from None
    except (UnicodeDecodeError, SyntaxError) as e:
        raise SourceError(path, f"is not UTF-8 text and declares no other encoding ({e}); "
                                "save it as UTF-8 or add a '# -*- coding: ... -*-' line") from None


def _read_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8-sig") as f:
            return f.read()
    except OSError as e:
        raise SourceError(path, f"cannot read it ({e.strerror or e})") from None
    except UnicodeDecodeError as e:
        raise SourceError(path, f"is not UTF-8 ({e}); a notebook file must be UTF-8 JSON") from None


def _notebook_units(path: str, text: str) -> list[Unit]:
    try:
        nb = _LocatingDecoder().decode(text)
    except json.JSONDecodeError as e:
        raise SourceError(path, f"is not a valid notebook: bad JSON at line {e.lineno} column "
                                f"{e.colno} ({e.msg}); fix the file or re-save it from Jupyter") from None
    except RecursionError:
        raise SourceError(path, "is not a valid notebook: its JSON is nested too deeply") from None
    if not isinstance(nb, dict):
        raise SourceError(path, "is not a valid notebook: the JSON is not an object")
    if "cells" in nb:
        cells = nb["cells"]
        key = "source"
    elif "worksheets" in nb:    # nbformat 3: one worksheet in practice, code in "input"
        sheets = nb["worksheets"] or []
        if not isinstance(sheets, list) or not all(
                isinstance(ws, dict) and isinstance(ws.get("cells") or [], list) for ws in sheets):
            raise SourceError(path, "is not a valid notebook: 'worksheets' is not a list of "
                                    "worksheets with a 'cells' list")
        cells = [c for ws in sheets for c in (ws.get("cells") or [])]
        key = "input"
    else:
        raise SourceError(path, "is not a valid notebook: no 'cells' list "
                                "(is it a Jupyter notebook saved by Jupyter?)")
    if not isinstance(cells, list):
        raise SourceError(path, "is not a valid notebook: 'cells' is not a list")
    language = _language(nb)
    if language is not None and language != "python":
        return []    # an R or Julia notebook: nothing for a Python model to check
    units = []
    for index, cell in enumerate(cells):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        raw = cell.get(key, "")
        if isinstance(raw, list) and all(isinstance(s, str) for s in raw):
            source = "".join(raw)
            quotes = getattr(raw, "offsets", None)
        elif isinstance(raw, str):
            source = raw
            quotes = [cell.string_offsets[key]] if isinstance(cell, _LocatedDict) and key in cell.string_offsets else None
            raw = [raw]
        else:
            raise SourceError(path, f"is not a valid notebook: cell {index} has a {key!r} that is "
                                    "neither a string nor a list of strings")
        try:
            source.encode("utf-8")
        except UnicodeEncodeError as e:     # a JSON escape such as "\ud800": not text
            raise SourceError(path, f"is not a valid notebook: cell {index} holds a lone surrogate "
                                    f"({source[e.start]!r}), which is not text") from None
        if not source.strip() or not is_python_cell(source):
            continue
        pieces: tuple = ()
        if quotes is not None and len(quotes) == len(raw):
            starts, pos = [], 0
            for piece in raw:
                starts.append(pos)
                pos += len(piece)
            pieces = tuple(zip(starts, quotes))
        units.append(Unit(path=path, source=source, cell=index, _pieces=pieces,
                          _file_text=text if pieces else None))
    return units


def _language(nb: dict) -> str | None:
    meta = nb.get("metadata")
    meta = meta if isinstance(meta, dict) else {}
    for section, key in (("language_info", "name"), ("kernelspec", "language")):
        v = meta.get(section)
        v = v.get(key) if isinstance(v, dict) else None
        if isinstance(v, str) and v:
            return v.lower()
    return None


def is_python_cell(source: str) -> bool:
    """Is the cell Python (no cell magic, or one whose body is Python: %%time, %%capture, ...)?"""
    first = source.lstrip().split("\n", 1)[0].strip()
    if not first.startswith("%%"):
        return True
    name = first[2:].split(None, 1)
    if not name:
        return False
    magic = name[0]
    if magic == "writefile":    # Python only when it writes a .py file
        args = name[1].split() if len(name) > 1 else []
        return bool(args) and args[-1].endswith(".py")
    return magic in PYTHON_CELL_MAGICS


def runs_here(source: str) -> tuple[str, int] | None:
    """The Python a cell runs in this kernel's namespace, and the lines before it in the cell: a
    code cell itself; the body of a cell magic that runs its body here (%%time, %%capture, ...);
    None for other cells (%%bash, %%html, %%writefile, magic-only cells)."""
    if is_code_cell(source):
        return magic_lines_as_python(source), 0
    python = magic_lines_as_python(source)
    if is_code_cell(python) and not _IPYTHON_LINES.search(python):
        return python, 0            # a cell of `%timeit EXPR` lines alone, no other magic: that Python
    first, _, body = source.lstrip("\n").partition("\n")
    words = first.strip()[2:].split() if first.strip().startswith("%%") else []
    if not words or words[0] not in RUNS_BODY_HERE or not is_code_cell(body):
        return None
    if words[0] == "timeit" and any(not w.startswith("-") for w in words[1:]):
        return None         # a setup statement (or an option's value): what it binds is not read
    return body, source.count("\n", 0, len(source) - len(body))


def magic_lines_as_python(source: str) -> str:
    """The cell with the line magics whose Python is known read as that Python, lines and columns
    as they are: `%matplotlib inline` (a notebook's usual first line selects a backend and binds no
    name; where matplotlib is installed) as `pass`, and `%timeit min(big)` (an expression naming
    none of timeit's own `_` names, binding nothing: it runs in timeit's own function) as
    `pass;   min(big)`. Any other magic may define anything: left as it is."""
    def timed(m: re.Match) -> str:
        magic, statement = m.group(1), m.group(2)
        try:
            tree = ast.parse(statement)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return m.group(0)
        if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr) or \
                any(isinstance(n, ast.NamedExpr) or isinstance(n, ast.Name) and n.id.startswith("_")
                    for n in ast.walk(tree)):
            return m.group(0)
        return "pass;".ljust(len(magic)) + statement
    if _matplotlib_installed():
        source = _BACKEND_LINE.sub("pass", source)
    return _TIMED_LINE.sub(timed, source)


@functools.lru_cache(maxsize=1)
def _matplotlib_installed() -> bool:
    import importlib.util
    try:
        return importlib.util.find_spec("matplotlib") is not None
    except (ImportError, ValueError):
        return False


def is_code_cell(source: str) -> bool:
    """False for empty cells, cell magics and cells of only magics/shell lines/comments."""
    lines = [ln.strip() for ln in source.splitlines() if ln.strip()]
    if not lines or lines[0].startswith("%%"):
        return False
    return any(not ln.startswith(("%", "!", "#")) for ln in lines)


# -- positions in the notebook's JSON text ------------------------------------------------------------

class _LocatedList(list):
    """A JSON array of strings that remembers where each string's opening quote is."""
    offsets: list[int]


class _LocatedDict(dict):
    """A JSON object that remembers where its string values' opening quotes are."""
    string_offsets: dict


class _LocatingDecoder(json.JSONDecoder):
    """json.loads that records where strings start, using the pure-Python scanner's hooks.
    Each array/object gets a frame collecting the quote offsets of its direct string children
    (keys are scanned apart from values, so only values are recorded)."""

    def __init__(self):
        super().__init__()
        frames: list[list[int]] = [[]]
        base_string, base_array, base_object = self.parse_string, self.parse_array, self.parse_object

        def parse_string(s, end, strict):
            frames[-1].append(end - 1)
            return base_string(s, end, strict)

        def parse_array(s_and_end, scan_once):
            frames.append([])
            try:
                values, end = base_array(s_and_end, scan_once)
            finally:
                quotes = frames.pop()
            if values and len(quotes) == len(values) and all(isinstance(v, str) for v in values):
                values = _LocatedList(values)
                values.offsets = quotes
            return values, end

        def parse_object(s_and_end, strict, scan_once, object_hook, object_pairs_hook, memo=None):
            frames.append([])
            try:
                obj, end = base_object(s_and_end, strict, scan_once, object_hook, object_pairs_hook, memo)
            finally:
                quotes = frames.pop()
            keys = [k for k, v in obj.items() if isinstance(v, str)]
            located = _LocatedDict(obj)
            # duplicate keys would break the pairing; then no positions (reports fall back)
            located.string_offsets = dict(zip(keys, quotes)) if len(keys) == len(quotes) else {}
            return located, end

        self.parse_string = parse_string
        self.parse_array = parse_array
        self.parse_object = parse_object
        self.memo = {}
        self.scan_once = json.scanner.py_make_scanner(self)


def _char_offset(source: str, line: int, column: int) -> int:
    pos = 0
    for _ in range(line - 1):
        nl = source.find("\n", pos)
        if nl < 0:
            return len(source)
        pos = nl + 1
    return min(pos + column, len(source))


def _raw_offset(text: str, pos: int, chars: int) -> int:
    """Offset in `text` of the `chars`-th decoded character of the JSON string body at `pos`."""
    while chars > 0 and pos < len(text) and text[pos] != '"':
        if text[pos] == "\\":
            if text[pos + 1:pos + 2] == "u":
                code = int(text[pos + 2:pos + 6], 16)
                pos += 6
                if 0xD800 <= code < 0xDC00 and text[pos:pos + 2] == "\\u":
                    pos += 6    # a surrogate pair is one character
            else:
                pos += 2
        else:
            pos += 1
        chars -= 1
    return pos
