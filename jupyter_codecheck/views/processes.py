"""`--jobs N`: files checked by N worker processes on this machine, reported in the given order.

Each worker is a process of its own with its own session; the model's weights are the GGUF
file's pages, which the engine maps read-only and shared, so N workers hold them once in memory
(bench/scale.py measures PSS). Workers are started with `spawn` (ggml's thread pool does not
survive a fork), ignore Ctrl+C (the parent stops them all) and die with the parent (Linux's
parent-death signal), so an interrupted or killed run leaves no orphan.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

from .files import FileOutcome, check_file, in_order


def jobs_for(requested: str | int, n_files: int) -> int:
    """The worker count for `--jobs`: a number as given, `auto` the physical cores that other
    processes leave free now (at least 1); never more than there are files."""
    if requested == "auto":
        from ..core.machine import free_cores        # reads the load (and loads the engine)
        n = free_cores()
    else:
        try:
            n = int(requested)
        except ValueError:
            n = 0
        if n < 1:
            raise ValueError(f"--jobs must be a number >= 1 or 'auto', got {requested}")
    return max(1, min(n, n_files))


def threads_per_worker(jobs: int) -> int:
    """Each worker's engine threads: the physical cores shared out, so workers do not fight."""
    from ..core.machine import physical_cores
    return max(1, physical_cores() // jobs)


def _start_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:                                   # end with the parent, however it ends (Linux only)
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() == 1:              # the parent ended before the signal was armed
            os._exit(1)
    except (OSError, AttributeError):
        pass


def check_in_processes(files: Sequence[tuple[str, str | None]], options: dict, *, context: bool,
                       jobs: int, on_done=None) -> Iterator[FileOutcome]:
    """One FileOutcome per `(name, text)` in `files`, in their order, checked by `jobs` worker
    processes; `on_done(count, outcome)` as each file finishes, in any order (progress). On
    Ctrl+C (or an error) every worker is stopped before this returns."""
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_start_worker)
    try:
        futures = {pool.submit(check_file, name, text, options, context): i
                   for i, (name, text) in enumerate(files)}
        yield from in_order(_completed(futures, files), len(files), on_done)
    except BaseException:
        _stop(pool)
        raise
    else:
        pool.shutdown(wait=True)


def _completed(futures: dict, files) -> Iterator[tuple[int, FileOutcome]]:
    pending = set(futures)
    while pending:
        # a timeout, so that Ctrl+C reaches this thread between waits
        done, pending = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
        for f in done:
            i = futures[f]
            try:
                yield i, f.result()
            except BrokenProcessPool:
                name = files[i][0]
                yield i, FileOutcome(name, fatal=f"a worker process died while checking {name}; "
                                                 "run with --jobs 1 to see the error")
            except Exception as e:        # noqa: BLE001 - a worker's own failure, said as the run's
                name = files[i][0]
                yield i, FileOutcome(name, fatal=f"checking {name} failed in a worker process: "
                                                 f"{type(e).__name__}: {e}")


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancels what has not started and ends every worker, running or not."""
    pool.shutdown(wait=False, cancel_futures=True)
    children = multiprocessing.active_children()
    for p in children:
        p.terminate()
    deadline = time.monotonic() + 5
    for p in children:
        p.join(max(0.0, deadline - time.monotonic()))
        if p.is_alive():
            p.kill()
            p.join()
