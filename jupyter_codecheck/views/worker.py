"""Worker: one daemon thread that runs the jobs put on its queue, one after the other.

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
