"""StatusLine: the progress line a terminal view keeps on stderr.

It is rewritten in place and erased before anything else is printed, so the terminal shows only
the latest step and a report never starts in the middle of a status line. Stderr, because stdout
may carry a report (JSON, SARIF) or a cell's output.
"""
from __future__ import annotations

import sys
import time


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
