"""Checking files: every unit of a file with the cells its check reads, as the command line
reports it. The same work runs in the CLI's own process, in its worker processes (`--jobs`,
`views/processes.py`) and on a Dask cluster (`--dask`, `views/cluster.py`); the latter two get
one `FileOutcome` per file, which pickles, so results are the same wherever they were made.
"""
from __future__ import annotations

import os
import socket
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace

from ..core.long_sources import check_long, unit_checks
from ..pytext.sources import SourceError, is_notebook, read_source, read_units
from .report import Checked, Run
from .stored_failures import repair_stored, stored_cells


class FatalError(Exception):
    """Stops the whole run: the model or the options are unusable, so every file would fail."""


def check_units(name: str, options: dict, *, context: bool, run: Run, text: str | None = None,
                on_unit: Callable[[str, bool], None] | None = None,
                on_error: Callable[[str], None] | None = None) -> Iterator[Checked]:
    """Checks every unit of the file `name` (its `text` when given, e.g. stdin or a file sent to
    another machine), yielding each `Checked` as it is done and adding it to `run`. A file that
    cannot be read or a unit too long for the model goes to `run.errors` (and `on_error`); a
    cancelled check sets `run.interrupted` and ends; a model or option error raises FatalError.
    `on_unit(progress_text, is_piece)` is called as each cell and each piece of a long unit
    starts."""
    from ..core.errors import ContextFullError, EngineError, GGUFError, ModelNotFoundError

    def record(path: str, message: str) -> None:
        run.errors.append((path, message))
        if on_error is not None:
            on_error(message)

    try:
        if text is None and is_notebook(name):
            text = read_source(name)    # read once: its units, and its stored errors
        units = read_units(name, text=text)
    except SourceError as e:
        record(name, str(e))
        return
    stored = stored_cells(name, text) if text is not None else {}
    counts = {k: count for k, (_, count) in stored.items()}
    for job in unit_checks(units, context=context):
        unit = job.unit
        if unit.cell is not None and on_unit is not None:
            on_unit(f"{name} ({unit.cell_name})", False)
        try:
            result = check_long(unit.source, **{**job.options(), **options},
                                on_piece=None if on_unit is None else
                                (lambda piece, unit_name=unit.name: on_unit(f"{unit_name} ({piece})", True)))
        except ModelNotFoundError as e:
            raise FatalError(f"{e}; pass --model PATH to a GGUF file") from None
        except GGUFError as e:
            raise FatalError(f"the model file cannot be used: {e}; pass --model PATH to a "
                             "working GGUF file (architecture llama or qwen2, a byte-level BPE "
                             "vocabulary: the README's Models)") from None
        except ContextFullError:
            record(unit.path, f"{unit.name}: too long for the model's context window; split it "
                              "into smaller cells or files")
            continue
        except ValueError as e:       # the options (an unknown exit policy, ...)
            raise FatalError(str(e)) from None
        except EngineError as e:      # the engine itself failed: nothing later can be trusted
            raise FatalError(f"the engine failed on {unit.name}: {e}; please report this "
                             "with that file") from None
        if result.stats.get("cancelled"):
            run.interrupted = True
            return
        # the reports read the findings, the edits, the correction and the stats; the token
        # records and evidence (most of a result's memory) are not kept to the end of a long run
        done = Checked(unit, replace(result, tokens=[], evidence=[]))
        error = stored.get(unit.cell, (None, None))[0] if unit.cell is not None else None
        if error is not None:
            # the notebook's saved outputs say this cell raised: the failure's cause and repair
            if on_unit is not None:
                on_unit(f"{unit.name} (repairing its stored error)", True)
            try:
                done.repair = repair_stored(units, unit, error, counts, options)
            except ValueError as e:
                record(unit.path, f"{unit.name}: its stored error output cannot be read: {e}")
        run.checked.append(done)
        yield done


@dataclass
class FileOutcome:
    """One file checked away from the CLI's process: its units' results, the errors of the file
    (as `Run.errors`), or `fatal` (a FatalError's message: the whole run stops). `worker` says
    where it ran (host:pid)."""
    name: str
    checked: list[Checked] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)
    fatal: str | None = None
    worker: str = ""


def check_file(name: str, text: str | None, options: dict, context: bool) -> FileOutcome:
    """Every unit of one file, as one picklable outcome: the task a worker process or a Dask
    worker runs. The model is loaded once per process (check() keeps it), so a worker pays the
    load with its first file only."""
    run = Run()
    outcome = FileOutcome(name, worker=f"{socket.gethostname()}:{os.getpid()}")
    try:
        outcome.checked = list(check_units(name, options, context=context, run=run, text=text))
    except FatalError as e:
        outcome.fatal = str(e)
    outcome.errors = run.errors
    return outcome


def in_order(completed: Iterable[tuple[int, FileOutcome]], count: int,
             on_done: Callable[[int, FileOutcome], None] | None = None) -> Iterator[FileOutcome]:
    """Outcomes that finish in any order (`(index, outcome)` pairs), given back in index order as
    soon as each one's predecessors are in: a report in the files' order that still streams.
    Interrupted, it gives what finished and lets the KeyboardInterrupt go on.
    `on_done(finished_so_far, outcome)` as each finishes (progress)."""
    ready: dict[int, FileOutcome] = {}
    finished = next_out = 0
    try:
        for i, outcome in completed:
            ready[i] = outcome
            finished += 1
            if on_done is not None:
                on_done(finished, outcome)
            while next_out in ready:
                yield ready.pop(next_out)
                next_out += 1
    except KeyboardInterrupt:
        # what finished is still reported (in order, with gaps), then the interrupt goes on
        for i in sorted(ready):
            yield ready.pop(i)
        raise
    if next_out != count:
        raise RuntimeError(f"{count - next_out} of {count} files got no result")
