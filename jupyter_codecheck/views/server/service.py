"""The server's one checker: a single worker thread fed by a bounded queue.

check() holds one engine per model behind a lock, so checks are serialised anyway; running them on
ONE thread off the event loop keeps the server responsive, and a bounded queue turns overload into
an immediate 429 instead of requests piling up behind a slow model.

Jobs are registered and finished on the event loop only; the worker hands results back through
`loop.call_soon_threadsafe`, so the registry needs no lock.
"""
from __future__ import annotations

import asyncio
import dataclasses
import math
import queue
import threading
import time
import uuid

from traitlets import Bool, Int, Unicode
from traitlets.config import LoggingConfigurable

from ...core.errors import ContextFullError
from ...core.long_sources import Piece
from ...core.result import CheckResult, Edit
from ..worker import CheckJob, Worker
from .requests import CheckRequest, HTTPProblem


FIRST_CHECK_S = 5.0     # before any check has run: the model may still have to load
MEAN_WEIGHT = 0.2       # of the last check in the running mean of check durations


class QueueFull(Exception):
    def __init__(self, message: str, retry_after_s: int):
        super().__init__(message)
        self.retry_after_s = retry_after_s


class ShuttingDown(Exception):
    pass


class DuplicateId(Exception):
    pass


class Job:
    """One check: its request, its cancel Event and the events it streams back to the loop."""

    def __init__(self, request: CheckRequest, loop: asyncio.AbstractEventLoop, stream: bool):
        self.id = request.id or uuid.uuid4().hex
        self.request = request
        self.loop = loop
        self.stream = stream
        self.cancel = threading.Event()
        self.events: asyncio.Queue = asyncio.Queue()   # ("started"|"token"|"edit"|"result"|"error", payload)
        self.done: asyncio.Future = loop.create_future()
        self.submitted = time.monotonic()

    def post(self, kind: str, payload=None):
        """From the worker thread: hand one event to the loop."""
        self.loop.call_soon_threadsafe(self.events.put_nowait, (kind, payload))


class CodecheckServer(LoggingConfigurable):
    """Settings of the checker behind `codecheck/check` (c.CodecheckServer.* in jupyter_server_config)."""

    model = Unicode("", config=True,
                    help="GGUF model every notebook is checked with, loaded once; empty: the default (SmolLM2-135M).")
    n_threads = Int(0, config=True, help="Threads for the model (0: all physical cores or one, chosen per layer step).")
    queue_size = Int(4, config=True,
                     help="Checks that may wait while one runs (at least 1); more are refused at once with "
                          "429 and a Retry-After header: the seconds the waiting checks are expected to take.")
    max_request_bytes = Int(1 << 20, config=True,
                            help="Largest request body accepted (source + context), in bytes; larger gets 413.")
    allow_client_model = Bool(False, config=True,
                              help="Let a request pick another model (each one stays loaded).")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._worker = Worker(self._work, name="codecheck-worker", maxsize=max(self.queue_size, 0) or 1)
        self._jobs: dict[str, Job] = {}
        self._running: Job | None = None
        self._stopped = False
        # seconds a check takes, on average over the recent ones: what a refused caller should wait
        self._mean_check_s = FIRST_CHECK_S

    # -- event-loop side ---------------------------------------------------------------------------

    def submit(self, request: CheckRequest, *, stream: bool = False) -> Job:
        if self._stopped:
            raise ShuttingDown("the server is shutting down")
        loop = asyncio.get_running_loop()
        if request.id is not None and request.id in self._jobs:
            raise DuplicateId(f"a check with id {request.id!r} is already queued or running")
        job = Job(request, loop, stream)
        try:
            self._worker.put(job)
        except queue.Full:
            waiting = self._worker.waiting()
            raise QueueFull(
                f"{waiting} checks are already waiting (c.CodecheckServer.queue_size = "
                f"{self.queue_size}); try again when one has finished",
                retry_after_s=self.retry_after_s(waiting)) from None
        self._jobs[job.id] = job
        job.done.add_done_callback(lambda f: self._forget(job, f))
        return job

    def _forget(self, job: Job, done: asyncio.Future):
        self._jobs.pop(job.id, None)
        if not done.cancelled():
            done.exception()   # a streamed job's failure was reported as an event: mark it seen

    def cancel(self, check_id: str) -> bool:
        job = self._jobs.get(check_id)
        if job is None:
            return False
        job.cancel.set()
        return True

    def retry_after_s(self, waiting: int) -> int:
        """Whole seconds until the running check and `waiting` queued ones are likely done."""
        return max(1, math.ceil((waiting + 1) * self._mean_check_s))

    def status(self) -> dict:
        running = self._running
        return {
            "model": self.model or None,
            "queue_size": self.queue_size,
            "waiting": self._worker.waiting(),
            "running": running.id if running else None,
        }

    def shutdown(self):
        """Cancel what runs, drop what waits, and let the thread end."""
        if self._stopped:
            return
        self._stopped = True
        for job in list(self._jobs.values()):
            job.cancel.set()
        for job in self._worker.drain():
            try:
                job.loop.call_soon_threadsafe(_settle, job, None, (503, "the server is shutting down"))
            except RuntimeError:
                pass  # at interpreter exit the loop is already closed: nobody waits any more
        self._worker.stop(timeout=30)

    # -- worker thread -----------------------------------------------------------------------------

    def _work(self, job: Job):
        self._running = job
        started = time.monotonic()
        result, error = self._run(job)
        self._mean_check_s += MEAN_WEIGHT * (time.monotonic() - started - self._mean_check_s)
        # cleared before the caller hears back, so that status() is current when it does
        self._running = None
        job.loop.call_soon_threadsafe(_settle, job, result, error)

    def _run(self, job: Job) -> tuple[CheckResult | None, tuple[int, str] | None]:
        job.post("started", {"waited_s": round(time.monotonic() - job.submitted, 3)})
        req = job.request
        options = dict(req.options)
        options.setdefault("model", self.model or None)
        if self.n_threads > 0:
            options["n_threads"] = self.n_threads
        options.update(earlier=req.earlier or None)

        def streamed(item):
            if job.stream:
                kind = "piece" if isinstance(item, Piece) else "edit" if isinstance(item, Edit) else "token"
                job.post(kind, dataclasses.asdict(item))

        # a check cancelled while it waited still runs to its first layer step and returns the
        # (empty) partial CheckResult the library defines for cancellation
        check = CheckJob(req.source, context=req.context or None, options=options, on_item=streamed,
                         cancel=job.cancel)
        result = check.run()
        if isinstance(check.error, ContextFullError):   # one line longer than the window: the request's fault
            return None, (413, str(check.error))
        if check.error is not None:   # the worker survives any failed check
            self.log.error("codecheck: check %s failed", job.id, exc_info=check.error)
            return None, (500, f"{type(check.error).__name__}: {check.error}")
        if result is not None and req.context_start is not None:
            result.stats["context_start"] = req.context_start     # for the notebook's next cell
        return result, None


def _settle(job: Job, result: CheckResult | None, error: tuple[int, str] | None):
    """On the loop: the job's last event, then its future."""
    if error is not None:
        job.events.put_nowait(("error", {"status": error[0], "message": error[1]}))
        if not job.done.done():
            job.done.set_exception(CheckFailed(*error))
    else:
        job.events.put_nowait(("result", result))
        if not job.done.done():
            job.done.set_result(result)


class CheckFailed(HTTPProblem):
    """A queued check that failed: 413 for a line longer than the model's window, else 500."""
