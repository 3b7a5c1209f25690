"""Progress, the one way views say how long work goes: a terminal writer and a kernel writer.

Both take `show(text, log=...)` and `clear()`, and both give the core what it reports (the
exit lens being fitted) through `core(text, done)`, the `progress` callable check() takes; the
core itself prints nothing. On a terminal the status is one line on stderr, rewritten in place
and erased before anything else is printed (a report never starts in the middle of it); in a
log or CI output, one line per new item (`log=True`) instead. Stderr, because stdout may carry
a report (JSON, SARIF) or a cell's output. In a kernel, the status is an output of its own,
replaced as it changes and at the end by what the cell shows.
"""
from __future__ import annotations

import sys
import time
from typing import Protocol


class Progress(Protocol):
    def show(self, text: str, *, log: bool = True) -> None: ...
    def clear(self) -> None: ...
    def core(self, text: str, done: bool) -> None: ...


class StatusLine:
    """One line on stderr (a terminal's only), replaced by each `show` and erased by `clear`. With `min_interval`,
    `show(..., force=False)` skips updates that come sooner than that after the last one (a
    redraw per token would cost more than the token)."""

    def __init__(self, min_interval: float = 0.0):
        self.min_interval = min_interval
        self.shown = False
        self._last = 0.0

    def show(self, text: str, *, force: bool = True) -> None:
        if not _is_terminal(sys.stderr):
            return          # a log file or a pipe keeps no redrawn line, only its escape codes
        now = time.monotonic()
        if not force and now - self._last < self.min_interval:
            return
        self._last = now
        sys.stderr.write("\r\033[K" + text)
        sys.stderr.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()
            self.shown = False


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):   # replaced or closed streams
        return False


class TerminalProgress:
    """Progress on stderr: the status line on a terminal, a line per `log=True` step elsewhere.
    With `min_interval`, a terminal's line is redrawn at most that often unless `log`."""

    def __init__(self, *, enabled: bool = True, min_interval: float = 0.0):
        self.enabled = enabled
        self.tty = _is_terminal(sys.stderr)
        self._line = StatusLine(min_interval)
        self._logged_core: set[bool] = set()

    def show(self, text: str, *, log: bool = True) -> None:
        if not self.enabled:
            return
        if self.tty:
            self._line.show(text, force=log)
        elif log:
            sys.stderr.write(text + "\n")
            sys.stderr.flush()

    def core(self, text: str, done: bool) -> None:
        """The core's news, named as ours; in a log only its first and its last line."""
        first = done not in self._logged_core
        self._logged_core.add(done)
        self.show(f"jupyter-codecheck: {text}", log=first)
        if done and self.tty and self.enabled:
            self._line.clear()
            sys.stderr.write(f"jupyter-codecheck: {text}\n")

    def clear(self) -> None:
        self._line.clear()


class KernelProgress:
    """Progress in a kernel: one output of its own (a display handle), replaced as it changes;
    in a terminal IPython, the terminal's status line. A kernel cannot take one output back
    (clear_output empties all of the cell's), so the status output becomes what the cell shows
    next (`replace`), or keeps its last text (`clear`): never an empty output, which a saved
    notebook would keep."""

    def __init__(self, in_kernel: bool):
        self.in_kernel = in_kernel
        self._terminal = TerminalProgress(min_interval=0.25)
        self._handle = None

    def show(self, text: str, *, log: bool = True) -> None:
        if not self.in_kernel:
            self._terminal.show(text, log=log)
            return
        if not log:
            return                       # a kernel's output is not worth a message per token
        from IPython.display import display
        if self._handle is None:
            self._handle = display({"text/plain": text}, raw=True, display_id=True)
        else:
            self._handle.update({"text/plain": text}, raw=True)

    def core(self, text: str, done: bool) -> None:
        self.show(f"codecheck: {text}")

    def replace(self, obj, *, raw: bool = False):
        """Shows `obj` (raw: a mimebundle) in the status output's place, or as a new output when
        none is shown; returns its display handle."""
        from IPython.display import display
        self._terminal.clear()
        handle, self._handle = self._handle, None
        if handle is None:
            return display(obj, raw=raw, display_id=True)
        handle.update(obj, raw=raw)
        return handle

    def clear(self) -> None:
        self._handle = None
        self._terminal.clear()
