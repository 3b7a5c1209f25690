"""pytest plugin: `pytest --codecheck path/` checks every code cell of the collected notebooks.

Each code cell becomes a test item (`nb.ipynb::codecheck[cell_4]`) that fails with its findings
at cell-aware locations (`nb.ipynb:cell_4:12:5: error[syntax]: ...`) and the proposed correction
as a diff. With `--codecheck-py`, each Python file is one item too. The items sit beside nbval's
(`--nbval`) for the same notebook, so a CI run can execute and check notebooks at once.

Findings are errors (Python's own checks: a syntax error, an undefined name) or warnings (an edit
the model verified). As with the command line's `--fail-on`, `--codecheck-fail-on warning` (the
default) fails an item on any finding; `--codecheck-fail-on error` fails it only on errors, and a
cell with warnings alone passes with a `CodecheckWarning` in pytest's warnings summary.

With pytest-xdist (`pytest --codecheck -n N`), each worker loads the model once and checks its
share of the cells on its share of the cores; `--dist loadfile` keeps a notebook's cells on one
worker, which reuses the model's reading of the earlier cells.

A cell whose source contains the comment `# codecheck: skip` is reported as skipped. Earlier
cells of the same notebook are the model's context (`--codecheck-no-context` to check cells on
their own).

Beside nbval (`--nbval --codecheck`), a cell that raised when nbval ran it gets the cause and a
repair (failure/: from the traceback's text and the cells nbval ran before it; no kernel objects,
so Python's own checks re-check it) in a "codecheck repair" section of its failure report. A
cell whose saved outputs hold an error gets the same section in its codecheck item's report
(shown with its failure, or with `-rP`), as the command line reports it.
"""
from __future__ import annotations

import os
import re
import warnings

import pytest

from ..core.options import OptionError, add_flags, from_flags, validate
from ..core import long_sources
from ..core.long_sources import unit_checks
from ..core.result import severity_counts
from ..pytext.sources import SourceError, read_source, read_units
from ..failure import Failure, Frame, repair_failure
from .report import failing, finding_line
from .stored_failures import repair_stored, stored_cells
from .widgets.repair import repair_text

SKIP_MARKER = "# codecheck: skip"


def pytest_addoption(parser):
    group = parser.getgroup("codecheck", "check notebook code with a small language model")
    group.addoption("--codecheck", action="store_true",
                    help="collect every code cell of .ipynb files as a test that fails on findings")
    group.addoption("--codecheck-py", action="store_true",
                    help="with --codecheck: check .py files too (one test per file)")
    add_flags(group.addoption, "codecheck-")
    group.addoption("--codecheck-no-context", action="store_true",
                    help="check each cell on its own, without the notebook's earlier cells")
    group.addoption("--codecheck-fail-on", choices=["error", "warning"], default="warning",
                    help="fail a cell on findings of this severity or above: 'warning' (default) "
                         "any finding, 'error' only errors (Python's own checks; a cell with "
                         "warnings alone passes and reports them as pytest warnings)")


def pytest_configure(config):
    if not config.getoption("codecheck"):
        return
    # bad options fail the run at once, not once per cell
    try:
        opts = validate(from_flags(vars(config.option), "codecheck_"), scope="view")
    except OptionError as e:
        raise pytest.UsageError(f"codecheck: {e}") from None
    workers = os.environ.get("PYTEST_XDIST_WORKER_COUNT")
    if workers and "n_threads" not in opts:      # `pytest -n N`: each worker gets its share of the cores
        from .processes import threads_per_worker
        opts = {**opts, "n_threads": threads_per_worker(int(workers))}
    config.stash[_OPTIONS] = opts
    config.addinivalue_line("markers", "codecheck: a notebook cell or file checked by the model")


_OPTIONS = pytest.StashKey[dict]()


def pytest_collect_file(file_path, parent):
    config = parent.config
    if not config.getoption("codecheck"):
        return None
    if file_path.suffix == ".ipynb" or (file_path.suffix == ".py" and config.getoption("codecheck_py")):
        return CodecheckFile.from_parent(parent, path=file_path)
    return None


def _shown_path(path, config) -> str:
    """The file as the user sees it from where pytest was started (reports print this)."""
    shown = os.path.relpath(path, config.invocation_params.dir)
    try:
        if not shown.startswith("..") and os.path.samefile(shown, path):
            return shown
    except OSError:
        pass
    return str(path)


class CodecheckFile(pytest.File):
    def collect(self):
        shown = _shown_path(self.path, self.config)
        try:
            text = read_source(shown)
            units = read_units(shown, text=text)
        except SourceError as e:
            raise self.CollectError(str(e)) from None
        stored = stored_cells(shown, text)
        counts = {k: count for k, (_, count) in stored.items()}
        use_context = not self.config.getoption("codecheck_no_context")
        for job in unit_checks(units, context=use_context):
            name = "codecheck" if job.unit.cell is None else f"codecheck[{job.unit.cell_name}]"
            error = stored.get(job.unit.cell, (None, None))[0] if job.unit.cell is not None else None
            yield CodecheckItem.from_parent(self, name=name, job=job,
                                            stored_error=None if error is None else (error, units, counts))


class CodecheckWarning(UserWarning):
    """A warning the model found in a cell that `--codecheck-fail-on error` lets pass."""


class CodecheckFailure(Exception):
    def __init__(self, unit, result):
        super().__init__(severity_counts(result.findings))
        self.unit = unit
        self.result = result


class CodecheckItem(pytest.Item):
    def __init__(self, *, job, stored_error=None, **kwargs):
        super().__init__(**kwargs)
        self.job = job                  # the unit and the cells its check reads
        # the notebook's saved outputs say this cell raised: (error output, units, their counts)
        self.stored_error = stored_error
        self.unit = job.unit
        self.add_marker("codecheck")

    def runtest(self):
        if any(line.strip() == SKIP_MARKER for line in self.unit.source.splitlines()):
            pytest.skip(f"'{SKIP_MARKER}' in the cell")
        # a long cell or file is checked piece by piece (looked up here: tests replace it)
        result = long_sources.check_long(self.unit.source, **self.job.options(), **self.config.stash.get(_OPTIONS, {}))
        if self.stored_error is not None:
            self.add_report_section("call", "codecheck repair", self._stored_repair())
        errors = failing(result, "error")
        self.user_properties.append(("codecheck_findings", len(result.findings)))
        self.user_properties.append(("codecheck_errors", len(errors)))
        self.user_properties.append(("codecheck_warnings", len(result.findings) - len(errors)))
        if failing(result, self.config.getoption("codecheck_fail_on", "warning")):
            raise CodecheckFailure(self.unit, result)
        for f in result.findings:     # warnings that --codecheck-fail-on error lets pass
            text = finding_line(f, self.unit.location(f.line, f.column))
            if f.replacement is not None:
                text += f" (suggested: {f.replacement.strip()!r})"
            # at the finding's place in the file, not in this plugin's code
            line, _ = self.unit.file_position(f.line, f.column)
            warnings.warn_explicit(CodecheckWarning(text), CodecheckWarning,
                                   _shown_path(self.path, self.config), line)

    def _stored_repair(self) -> str:
        """The cause and repair of the error the notebook's saved outputs hold for this cell."""
        error, units, counts = self.stored_error
        try:
            done = repair_stored(units, self.unit, error, counts, self.config.stash.get(_OPTIONS, {}))
        except ValueError as e:
            return f"codecheck: its stored error output cannot be read: {e}"
        return repair_text(done.fix, done.names)

    def repr_failure(self, excinfo, style=None):
        if not isinstance(excinfo.value, CodecheckFailure):
            return super().repr_failure(excinfo, style=style)
        unit, result = excinfo.value.unit, excinfo.value.result
        lines = [finding_line(f, unit.location(f.line, f.column)) for f in result.findings]
        if result.corrected != result.source:
            lines.append("")
            lines.extend(result.diff_lines(unit.name, f"{unit.name} (corrected)"))
        return "\n".join(lines)

    def reportinfo(self):
        return self.path, None, self.unit.name


# -- a cell that raised under nbval --------------------------------------------------------------



@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if call.when != "call" or not report.failed or call.excinfo is None \
            or not item.config.getoption("codecheck", False):
        return
    traceback = getattr(call.excinfo.value, "inner_traceback", None)
    if not traceback or not hasattr(item, "cell_num") or not hasattr(item, "cell"):
        return                          # not a cell nbval ran that raised
    try:
        text = nbval_repair(item, traceback)
    except Exception as e:  # noqa: BLE001 - the cell's own failure report stays what it was
        text = f"codecheck: no repair: {type(e).__name__}: {e}"
    report.sections.append(("codecheck repair", text))


def nbval_repair(item, traceback: str) -> str:
    """The cause and repair of the failure nbval reports for `item`, as text. The cells before it
    are those nbval ran in this notebook, in order. nbval runs cells without storing history, so
    every cell is `Cell In[N]` with one N: a frame in a function is placed in the latest cell
    that defines it."""
    earlier = [i for i in item.session.items
               if i.parent is item.parent and type(i) is type(item) and i.cell_num < item.cell_num]
    cells = [i.cell.source for i in earlier] + [item.cell.source]
    failure = Failure.from_text(traceback, cells)
    failure.frames = [Frame(_defining_cell(cells, f), f.line, f.function) for f in failure.frames]
    opts = item.config.stash.get(_OPTIONS, {})
    fix = repair_failure(item.cell.source, failure, context=cells[:-1], model=opts.get("model"),
                         threads=opts.get("n_threads"))
    return repair_text(fix, [f"Cell {i.cell_num}" for i in earlier] + [f"Cell {item.cell_num}"])


def _defining_cell(cells: list[str], frame: Frame) -> int:
    """The cell a frame of function `frame.function` is in: the latest that defines it (the frame's
    own cell when none does, or for module code)."""
    if frame.function == "<module>":
        return frame.cell
    define = re.compile(rf"^[ \t]*(?:async[ \t]+)?def[ \t]+{re.escape(frame.function)}[ \t]*\(", re.M)
    defining = [k for k, c in enumerate(cells) if define.search(c) and frame.line <= c.count("\n") + 1]
    return defining[-1] if defining else frame.cell
