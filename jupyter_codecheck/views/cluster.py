"""`--dask ADDRESS`: files checked on a running Dask distributed cluster, reported in order.

Each file is one task (`files.check_file`), sent with its text, so a worker needs the package
and the model but not the files. A worker loads the model with its first task and keeps it
(check() caches it per process). A worker lost mid-run has its tasks run again elsewhere by
Dask's scheduler; each file's result is taken once, from its one future, so none is lost or
doubled. Dask is an optional extra: `pip install 'jupyter-codecheck[dask]'`.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence

from ..pytext.sources import SourceError, read_source
from .files import FatalError, FileOutcome, check_file, in_order


def check_on_cluster(address, files: Sequence[tuple[str, str | None]], options: dict, *,
                     context: bool, on_done=None) -> Iterator[FileOutcome]:
    """One FileOutcome per `(name, text)` in `files` (text None: read here), in their order,
    checked on the cluster at `address` (a scheduler address, or a Cluster object)."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise FatalError("--dask needs Dask's distributed package: pip install "
                         "'jupyter-codecheck[dask]'") from None
    try:
        client = Client(address, timeout="20s")
    except (OSError, TimeoutError) as e:
        raise FatalError(f"cannot reach the Dask scheduler at {address} ({e}); start one with "
                         "`dask scheduler` and workers with `dask worker ADDRESS --nthreads 1`") from None
    futures = {}
    early: list[tuple[int, FileOutcome]] = []        # files that cannot be read here: no task
    try:
        for i, (name, text) in enumerate(files):
            if text is None:
                try:
                    text = read_source(name)
                except SourceError as e:
                    early.append((i, FileOutcome(name, errors=[(name, str(e))])))
                    continue
            futures[client.submit(check_file, name, text, options, context, pure=False,
                                  key=f"codecheck-{i}-{name}")] = i

        def completed():
            yield from early
            for future in as_completed(futures):
                i = futures[future]
                try:
                    yield i, future.result()
                except Exception as e:    # noqa: BLE001 - the task's workers kept dying (KilledWorker)
                    name = files[i][0]
                    yield i, FileOutcome(name, errors=[(name, f"{name}: the cluster could not check "
                                                              f"it ({type(e).__name__}: {e})")])

        yield from in_order(completed(), len(files), on_done)
    finally:
        client.cancel(list(futures))
        client.close()
