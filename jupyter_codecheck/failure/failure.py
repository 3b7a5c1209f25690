"""A failure as the repair reads it: what Python raised, and where in the notebook's own code.

    failure = Failure.from_exception(exc, cells=[*earlier, cell])   # a live exception
    failure = Failure.from_text(traceback_text, cells=...)          # a stored or pasted traceback
    failure.error, failure.message      # "KeyError", "'Agee'"
    failure.frames                      # [Frame(cell=2, line=3, function="<module>")], outermost first
    failure.offers                      # [Offer("attribute", "colorbas", ("colorbar",))]: failure/offered.py

A frame is in the notebook's code when its file's text is one of the cells (IPython compiles each
cell under a file name of its own and keeps its text in `linecache`), or, in a traceback's text,
when it names a cell the way IPython prints one (`Cell In[5], line 3`, `<ipython-input-5-...>`);
frames in libraries are left out: the repair edits only the notebook's own code.
"""
from __future__ import annotations

import linecache
import re
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field

from .offered import Offer, offers_in_text, offers_of

# ANSI colour codes, as a kernel's traceback carries them
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
# the ways a traceback names a frame: IPython 8's "Cell In[5], line 3", "File <path>:3, in f",
# and Python's 'File "<path>", line 3, in f'
_CELL_IN = re.compile(r"Cell In\s*\[\s*(\d*)\s*\]\s*,\s*line\s+(\d+)(?:,\s*in\s+([A-Za-z_]\w*))?")
_FILE_COLON = re.compile(r"File\s+([^\s,\"]+):(\d+)(?:,\s*in\s+(\S+))?")
_FILE_QUOTED = re.compile(r'File\s+"([^"]+)",\s*line\s+(\d+)(?:,\s*in\s+(\S+))?')
_IPYTHON_INPUT = re.compile(r"<ipython-input-(\d+)-[0-9a-f]+>")
# the last line of a traceback: "KeyError: 'x'", "ValueError", "pandas.errors.ParserError: ..."
_ERROR_LINE = re.compile(r"^([A-Za-z_][\w.]*(?:Error|Exception|Warning|Interrupt|Exit|Iteration)|[A-Z]\w*Error)"
                         r"(?::\s?(.*))?$")
_MESSAGE_MAX = 2000


@dataclass(frozen=True)
class Frame:
    """A frame in the notebook's code: `cell` indexes the cells given (the failed cell is the
    last); `line` is 1-based in that cell."""
    cell: int
    line: int
    function: str = "<module>"


@dataclass
class Failure:
    error: str                          # the exception's class name ("KeyError")
    message: str                        # str(exception), as Python prints it after the name
    frames: list[Frame] = field(default_factory=list)    # the notebook's own, outermost first
    text: str = ""                      # the traceback as text (no colour codes)
    # the names the exception's own objects take for the word it says is wrong (failure/offered.py)
    offers: list[Offer] = field(default_factory=list)
    # where in the innermost frame of the notebook's code the raising instruction is: (line,
    # byte column, end line, end byte column), as Python 3.11+ places it; None where unknown
    span: tuple[int, int, int, int] | None = None

    @property
    def summary(self) -> str:
        """"KeyError: 'Agee'", as the traceback's last line says it."""
        return f"{self.error}: {self.message}" if self.message else self.error

    def line_in(self, cell: int) -> int | None:
        """The innermost line of cell `cell` in the traceback (None: the failure passed no line
        of it)."""
        for f in reversed(self.frames):
            if f.cell == cell:
                return f.line
        return None

    def to_dict(self) -> dict:
        return {"error": self.error, "message": self.message,
                "frames": [{"cell": f.cell, "line": f.line, "function": f.function} for f in self.frames],
                "offers": [o.to_dict() for o in self.offers],
                "span": None if self.span is None else list(self.span)}

    @classmethod
    def from_dict(cls, d: dict) -> "Failure":
        """The failure `to_dict()` wrote (as a benchmark keeps it)."""
        return cls(str(d["error"]), str(d.get("message", "")),
                   [Frame(int(f["cell"]), int(f["line"]), str(f.get("function", "<module>"))) for f in d.get("frames", ())],
                   offers=[Offer.from_dict(o) for o in d.get("offers", ())],
                   span=_span(d.get("span")))

    @classmethod
    def from_exception(cls, exc: BaseException, cells: Sequence[str] = ()) -> Failure:
        """The failure of a live exception. `cells`: the notebook's cells the traceback may pass
        through, the failed cell last (a frame is placed by its file's text). A SyntaxError's
        place is its own line in the failed cell."""
        if not isinstance(exc, BaseException):
            raise TypeError(f"exc: an exception, not {type(exc).__name__}")
        cells = _cells(cells)
        frames: list[Frame] = []
        span = None
        for fs in traceback.extract_tb(exc.__traceback__):
            k = _cell_of_file(fs.filename, cells)
            if k is not None and fs.lineno:
                frames.append(Frame(k, fs.lineno, fs.name))
                span = _span([fs.lineno, getattr(fs, "colno", None), getattr(fs, "end_lineno", None),
                              getattr(fs, "end_colno", None)])
        if isinstance(exc, SyntaxError) and exc.lineno and cells:
            k = _cell_of_file(exc.filename or "", cells)
            frames.append(Frame(len(cells) - 1 if k is None else k, exc.lineno))
        text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        message = _message(exc)
        if isinstance(exc, SyntaxError):
            span = None
        return cls(type(exc).__name__, message, frames, text, offers_of(exc, message), span)

    @classmethod
    def from_text(cls, text: str, cells: Sequence[str] = (), *, error: str | None = None,
                  message: str | None = None, counts: Sequence[int | None] | None = None) -> Failure:
        """The failure a traceback's text tells (colour codes allowed), as a notebook's stored
        error output or a pasted traceback holds it; `error`, `message`: the exception's name
        and text where they are known apart (a notebook's `ename`, `evalue`). A frame is in the
        failed cell (the last of `cells`) when it names a cell, or when its file's text is a
        cell; with `counts` (each cell's execution count, as a notebook stores it) a frame naming
        `In[N]` is in the cell that ran as N."""
        if not isinstance(text, str):
            raise TypeError(f"text: a traceback's text, not {type(text).__name__}")
        cells = _cells(cells)
        plain = _ANSI.sub("", text)
        frames: list[Frame] = []
        last = len(cells) - 1 if cells else 0
        by_count = {n: k for k, n in enumerate(counts or ()) if n is not None}
        for line in plain.splitlines():
            m = _CELL_IN.search(line)
            if m:
                n = int(m.group(1)) if m.group(1) else None
                frames.append(Frame(by_count.get(n, last), int(m.group(2)), m.group(3) or "<module>"))
                continue
            m = _FILE_QUOTED.search(line) or _FILE_COLON.search(line)
            if m:
                path, no, func = m.group(1), int(m.group(2)), m.group(3) or "<module>"
                k = last if _IPYTHON_INPUT.search(path) else _cell_of_file(path, cells)
                if k is not None:
                    frames.append(Frame(k, no, func))
        if error is None:
            error, told = _last_error(plain)
            message = told if message is None else message
        if not error:
            raise ValueError("text: no exception named in it (its last line should read like "
                             "\"KeyError: 'x'\"); pass error= and message=")
        message = (message or "")[:_MESSAGE_MAX]
        return cls(error, message, frames, plain, offers_in_text(message, plain, error))

    @classmethod
    def from_output(cls, output: dict, cells: Sequence[str] = (),
                    counts: Sequence[int | None] | None = None) -> Failure:
        """The failure a notebook's stored error output holds (nbformat: `ename`, `evalue`,
        `traceback` lines); `counts`: the cells' execution counts (see from_text)."""
        if output.get("output_type") != "error":
            raise ValueError(f"output: not an error output (output_type {output.get('output_type')!r})")
        lines = output.get("traceback") or ()
        text = "\n".join(x for x in lines if isinstance(x, str)) if isinstance(lines, list) else str(lines)
        return cls.from_text(text, cells,
                             error=str(output.get("ename") or "Exception"), message=str(output.get("evalue") or ""),
                             counts=counts)


def _span(v) -> tuple[int, int, int, int] | None:
    """(line, column, end line, end column) when all four are known, else None."""
    if not isinstance(v, (list, tuple)) or len(v) != 4 or not all(type(x) is int for x in v):
        return None
    return tuple(v)


def _cells(cells) -> list[str]:
    if isinstance(cells, str):
        raise TypeError("cells: a list of the notebook's cell sources, the failed cell last, not one str")
    out = list(cells)
    for k, c in enumerate(out):
        if not isinstance(c, str):
            raise TypeError(f"cells[{k}]: a cell's source text, not {type(c).__name__}")
    return out


def _cell_of_file(filename: str, cells: list[str]) -> int | None:
    """The cell whose text is the file's (the latest such cell: a cell run again is the same
    text), by what `linecache` holds of it (IPython keeps every cell it compiled there)."""
    if not cells or not filename:
        return None
    text = "".join(linecache.getlines(filename))
    if not text:
        return None
    for k in range(len(cells) - 1, -1, -1):
        if _same_text(text, cells[k]):
            return k
    # IPython compiles (and keeps) a cell with magics as the Python its transformer makes of it
    from ..pytext.pycheck import python_code
    for k in range(len(cells) - 1, -1, -1):
        if _same_text(text, python_code(cells[k])):
            return k
    return None


def _same_text(a: str, b: str) -> bool:
    return a.rstrip("\n") == b.rstrip("\n")


def _message(exc: BaseException) -> str:
    try:
        text = str(exc)
    except Exception:  # noqa: BLE001 - a user's __str__ that fails: the name alone
        return ""
    return text[:_MESSAGE_MAX]


def _last_error(plain: str) -> tuple[str | None, str | None]:
    """(name, message) from the traceback's last line naming an exception."""
    lines = [x.rstrip() for x in plain.splitlines() if x.strip()]
    for k in range(len(lines) - 1, -1, -1):
        m = _ERROR_LINE.match(lines[k].strip())
        if m:
            name = m.group(1).rsplit(".", 1)[-1]
            rest = [m.group(2) or ""] + lines[k + 1:]
            return name, "\n".join(rest).strip()
    return None, None


__all__ = ["Failure", "Frame"]
