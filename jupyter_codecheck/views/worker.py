"""Worker: one daemon thread that runs the jobs put on its queue, one after the other; and
CheckJob, one check as every view runs it (the magics, auto mode, the widget, the server).

check() holds one engine per model behind a lock, so checks run one at a time anyway; a view that
checks in the background (auto mode, the server) puts them on one thread off the caller's. The
thread starts with the first job, so a view that never checks never holds one.
"""
from __future__ import annotations

import queue
import threading
from collections.abc import Callable

_STOP = object()


class Worker:
    """`handle(job)` for each job, in order, on one daemon thread named `name`. With `maxsize`,
    `put` raises `queue.Full` instead of letting jobs pile up."""

    def __init__(self, handle: Callable[[object], None], *, name: str, maxsize: int = 0):
        self._handle = handle
        self._name = name
        self._queue: queue.Queue = queue.Queue(maxsize)
        self._thread: threading.Thread | None = None

    def put(self, job) -> None:
        """Queue `job` (queue.Full when bounded and full), starting the thread if none runs:
        a job that raised out of `handle` ended the last one."""
        self._queue.put_nowait(job)
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
            self._thread.start()

    def waiting(self) -> int:
        """Jobs queued and not yet started."""
        return self._queue.qsize()

    def drain(self) -> list:
        """Takes every job that has not started off the queue, for the caller to settle."""
        jobs = []
        while True:
            try:
                job = self._queue.get_nowait()
            except queue.Empty:
                return jobs
            if job is not _STOP:
                jobs.append(job)

    def stop(self, timeout: float | None = None) -> None:
        """Lets the thread end once the jobs queued before this one are done; waits up to
        `timeout` seconds for it. Without a running thread there is nothing to stop (a stop
        left queued would end the thread the next `put` starts, before its job)."""
        if self._thread is None or not self._thread.is_alive():
            return
        self._queue.put_nowait(_STOP)
        self._thread.join(timeout=timeout)

    def _run(self) -> None:
        while True:
            job = self._queue.get()
            if job is _STOP:
                return
            try:
                self._handle(job)
            finally:
                self._queue.task_done()


class CheckJob:
    """One check as a view runs it: the source, its context and options, a cancel Event, and
    what came of it. `run()`, on whichever thread the view chose, drives `check_long_iter` (a
    long source piece by piece), hands every item but the result to `on_item` (a Piece, a
    TokenRecord, an Edit) and keeps the result, or the exception that ended it. `wait()` blocks
    until it ended; an interrupt meanwhile (Ctrl+C, the kernel's Interrupt) cancels it, and the
    partial result comes back."""

    def __init__(self, source: str, *, context=None, options: dict | None = None,
                 on_item: Callable[[object], None] | None = None,
                 cancel: threading.Event | None = None):
        self.source = source
        self.context = context
        self.options = dict(options or {})
        self.on_item = on_item
        self.cancel = cancel if cancel is not None else threading.Event()
        self.done = threading.Event()
        self.result = None                       # the CheckResult (partial when cancelled)
        self.error: Exception | None = None

    def run(self):
        """Runs the check here; returns its result (None when it failed: see `error`)."""
        from ..core.long_sources import check_long_iter
        from ..core.result import CheckResult
        items = check_long_iter(self.source, context=self.context, cancel=self.cancel, **self.options)
        try:
            for item in items:
                if isinstance(item, CheckResult):
                    self.result = item
                elif self.on_item is not None:
                    self.on_item(item)
        except Exception as e:  # noqa: BLE001 - the view says it; its thread goes on
            self.error = e
        finally:
            # a suspended check holds the model's lock: one kept alive by a traceback would stop
            # every later check in this process
            items.close()
            self.done.set()
        return self.result

    def wait(self, timeout: float | None = None):
        """The result once the check ended (None after a failure or a timeout)."""
        try:
            self.done.wait(timeout)
        except KeyboardInterrupt:
            self.cancel.set()
            self.done.wait()
        return self.result
