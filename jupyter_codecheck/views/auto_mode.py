"""Auto mode (`%codecheck auto on|guard|off`): the exact findings before each cell runs, the
guard that stops a cell that surely crashes, and the model's check after a cell in the background.
The magics (magics.py) own the switch; this module holds what runs on IPython's cell events.
"""
from __future__ import annotations

import ast
import contextlib
import threading
import time
import weakref
from dataclasses import replace
from typing import TYPE_CHECKING

from IPython.core.error import InputRejected
from IPython.display import display

from ..core.exact_findings import ExactCheck, exact_check
from ..core.result import CheckResult
from ..pytext.sources import runs_here
from .failed_cells import HoldJob, RepairJob, pending_view, raised, repair_view, repairable
from .progress import KernelProgress
from .report import cell_place, finding_line
from .user_threads import user_threads
from .worker import CheckJob, Worker

if TYPE_CHECKING:
    from .magics import CodecheckMagics

AUTO_MODES = ("on", "guard", "off")
_REPAIR_CELLS = 200         # the earlier cells a failed cell's repair may place frames in


# how the JupyterLab panel's code in the kernel starts: a call of views/panel_kernel.py's entry
# point (client.ts), or, from a panel of an older release, a helper function's definition
PANEL_CALL = '__import__("jupyter_codecheck.views.panel_kernel"'


def is_panel_code(source: str) -> bool:
    """The code the JupyterLab panel runs in the kernel to read a cell's state or check it: not
    the user's cell."""
    return source.startswith((PANEL_CALL, "def __codecheck_"))


# -- auto mode's report --------------------------------------------------------------------------

def compact_report(result: CheckResult) -> str:
    """Auto mode: one line per finding with its severity, fix or not; nothing for a clean cell."""
    return finding_lines(result.findings)


def finding_lines(findings) -> str:
    return "\n".join(f"codecheck: {finding_line(f, cell_place(f))}" for f in findings)


# -- auto mode ------------------------------------------------------------------------------------

class AutoChecker:
    """Auto mode: before each cell runs (`pre_run_cell`) its exact findings are shown, Python's
    own errors and the kernel's facts, read in milliseconds from the objects as they are before
    it runs. The model's check is off unless asked for (`model=True`; its notebook warnings have
    not been shown to beat chance): then it starts after the cell ran (`post_run_cell`), in a
    worker thread while the kernel is idle, its warnings shown in the cell's output when it ends,
    and the next cell cancels it: no cell ever waits for the model.

    In guard mode a cell that surely crashes on an exact error (core/exact_findings.py: `certain`) is
    stopped before it runs: an AST transformer raises `CellStopped` (IPython's InputRejected), the
    one place where IPython lets a cell be refused. The next execution, if it is the same text,
    runs it. A model warning never stops a cell, and no cell is stopped while a thread of the
    user's runs. A stopped cell is not recorded as run (ExecutedCells).

    A cell that raised (not a guard's stop, not an interrupt) gets a repair after it, in the same
    worker and cancelled the same way (failure/: the cause, and a repair re-checked by Python and
    the kernel's facts), shown in its output with Apply fix, before the model's check of it when
    that is on. A cell that did not fail shows nothing more and waits for nothing.
    """

    def __init__(self, magics: CodecheckMagics):
        self.magics = magics
        self.mode = "off"
        self.model = False                      # the model's check after the cell, in the background
        self._worker = Worker(self._work, name="codecheck-auto")
        self._current: CheckJob | None = None
        self._shown: dict[tuple[int, str], str] = {}     # (line, kind) -> message, shown before
        self._stop: CellStopped | None = None   # for the cell about to run, taken by the guard
        self._stopped: str | None = None        # the last stopped cell: run again unchanged, it runs
        self._guard = _StopTransformer(self)
        self._told = weakref.WeakSet()          # threads the user was told hold the guard back
        self.last: CheckJob | None = None       # the last cell's model check (shown when it ends)
        self.last_repair: RepairJob | None = None   # the last failed cell's repair (the same)
        self.last_hold: HoldJob | None = None       # the context held for the next cell's failure
        self._ran: tuple[str, list[str]] | None = None   # the cell running and the cells before it
        self.last_exact: ExactCheck | None = None
        self.pre_run_s: float | None = None     # what the last cell waited for its exact findings

    @property
    def enabled(self) -> bool:
        return self.mode != "off"

    def set(self, mode: str, *, model: bool = False, progress: KernelProgress | None = None):
        """`on`, `guard` or `off`; `model=True`: the model's check too, after each cell in the
        background (the model loads now); `progress`: where loading the model shows."""
        if mode not in AUTO_MODES:
            raise ValueError(f"auto mode is one of {', '.join(AUTO_MODES)}, not {mode!r}")
        shell = self.magics.shell
        if mode != "off" and model:
            # load now, in the foreground with its status line, not in the first checked cell
            self.magics.ensure_model(self.magics.defaults.options,
                                     progress or KernelProgress(self.magics.in_kernel))
        if mode != "off" and not self.enabled:
            exact_check("pass\n", {})         # its imports now, not in the first cell's wait
            shell.events.register("pre_run_cell", self.pre_run_cell)
            shell.events.register("post_run_cell", self.post_run_cell)
        elif mode == "off" and self.enabled:
            shell.events.unregister("pre_run_cell", self.pre_run_cell)
            shell.events.unregister("post_run_cell", self.post_run_cell)
        # the guard is in IPython's transformers only while it may stop a cell: with auto mode
        # off, no cell's code (nbval, papermill, --run bodies) passes through it
        guarding = self._guard in shell.ast_transformers
        if mode == "guard" and not guarding:
            shell.ast_transformers.append(self._guard)
        elif mode != "guard" and guarding:
            shell.ast_transformers.remove(self._guard)
        self.mode, self.model = mode, model and mode != "off"
        if mode == "off":
            self.cancel_model()

    def cancel_model(self) -> None:
        """Cancels the last cell's model check if it still runs (a new cell, auto mode off)."""
        for job in (self.last, self.last_repair, self.last_hold):
            if job is not None and not job.done.is_set():
                job.cancel.set()

    def close(self):
        """Auto mode off and its worker thread ended."""
        self.set("off")
        self._worker.stop()

    def pre_run_cell(self, info):
        source = info.raw_cell or ""
        m = self.magics
        self._stop = None
        if m.executed._depth <= 1:
            self.cancel_model()                 # the user moved on: the kernel is theirs
        if m._in_body or self._current is not None or m.executed._depth > 1 or is_panel_code(source):
            return                              # a cell run from inside a cell, or the panel's
        # what a repair reads if it fails: the cells that ran before it (frames are placed in them)
        self._ran = (source, list(m.executed.cells))
        again, self._stopped = source == self._stopped, None
        code = runs_here(source)
        if code is None:
            return
        t0 = time.perf_counter()
        body, offset = code
        kernel = m.kernel_options()
        try:
            exact = m.exact(body, kernel)
        except Exception:  # noqa: BLE001 - no exact findings is no claim (and no stop)
            exact = ExactCheck()
        findings = [replace(f, line=f.line + offset) for f in exact.findings]
        certain = [replace(f, line=f.line + offset) for f in exact.certain]
        self.last_exact = exact
        self._shown = {(f.line, f.kind): f.message for f in findings}
        held = self.user_threads() if certain and self.mode == "guard" and not again else []
        if certain and self.mode == "guard" and not again and not held:
            self._stop = CellStopped(certain, findings)
            self._stopped = source
            self.pre_run_s = time.perf_counter() - t0
            return                              # the rejection shows the findings
        if findings:
            text = finding_lines(findings)
            if certain and again:
                text += "\ncodecheck: run as it is (it was stopped before)"
            elif held and not all(t in self._told for t in held):
                self._told.update(held)
                names = ", ".join(repr(t.name) for t in held[:3])
                text += (f"\ncodecheck: not stopped: your thread {names} is running and may define "
                         "names or change objects meanwhile; the guard stops cells again when it ends")
            display({"text/plain": text}, raw=True)
        self.pre_run_s = time.perf_counter() - t0
        if self.model:
            # its facts are read now, of the objects before the cell; it runs after the cell
            context = m.context() if m.defaults.context else None
            facts = [replace(f, line=f.line + offset) for f in exact.facts]
            job = CheckJob(source, context=context,
                           options={**m.defaults.options, **kernel,
                                    "namespace": kernel["namespace"].with_facts(facts, when="before-run")})
            job.shown = dict(self._shown)
            self._current = job

    def user_threads(self) -> list[threading.Thread]:
        """Threads running the user's code now (views/user_threads.py; a library's threads are
        not): one may define a name or change an object while the cell runs, so no stop meanwhile."""
        return user_threads(self.magics.shell.user_ns)

    def post_run_cell(self, result):
        self._stop = None                       # not taken: the cell failed before the guard
        job, self._current = self._current, None
        ran, self._ran = self._ran, None
        exc = raised(result)
        parent = getattr(self.magics.shell, "parent_header", None)
        if repairable(exc) and ran is not None and ran[0] == (result.info.raw_cell or "") \
                and not self.magics._in_body:
            source, before = ran
            repair = RepairJob(source, exc, context=before[-_REPAIR_CELLS:], namespace=self.magics.shell.user_ns,
                               options=self.magics.defaults.options)
            repair.parent = parent
            if self._view() == "widget":
                # shown now, while the cell's request is open: a front end draws no output of
                # a cell that ended, but fills a widget it shows through the widget's messages
                repair.view = pending_view(source, exc)
                if repair.view is not None:
                    repair.cancel = repair.view.cancel_event
                    try:
                        repair.view.show()
                    except Exception:  # noqa: BLE001 - no widget here: the static views after it
                        repair.view = None
            self.last_repair = repair
            self._worker.put(repair)            # first: what the user most wants of a failed cell
        if job is not None:
            # the cell's output is where its warnings go when the check ends (ipykernel's parent)
            job.parent = parent
            self.last = job
            self._worker.put(job)               # not waited for: the cell ends now
        if ran is not None:
            # last: what a failure of the next cell reads first, while the kernel waits for it
            self.last_hold = HoldJob(list(self.magics.executed.cells)[-_REPAIR_CELLS:], self.magics.defaults.options)
            self._worker.put(self.last_hold)

    @staticmethod
    def _new(f, shown: dict) -> bool:
        """Is the model's finding news after the exact ones shown before the cell: a warning, or
        an error shown without a fix that the model found one for?"""
        before = shown.get((f.line, f.kind))
        return before is None or ("; did you mean" not in before and f.message != before)

    def take_stop(self) -> CellStopped | None:
        stop, self._stop = self._stop, None
        return stop

    def _view(self) -> str:
        m = self.magics
        return (m.defaults.view or m.default_view()) if m.in_kernel else "text"

    def _work(self, job: CheckJob | RepairJob | HoldJob):
        if isinstance(job, RepairJob):
            self._repair(job)
            return
        if isinstance(job, HoldJob):
            job.run()
            return
        if job.cancel.is_set():
            job.done.set()                      # a later cell came first: never started
            return
        job.run()
        if job.error is not None:
            self._show_late(job, {"text/plain": f"codecheck: the model's check failed: {job.error}"})
        elif job.result is not None and not job.cancel.is_set():
            text = finding_lines([f for f in job.result.findings if self._new(f, job.shown)])
            if text.strip():
                self._show_late(job, {"text/plain": text.strip("\n")})

    def _repair(self, job: RepairJob) -> None:
        job.run()
        if job.view is not None:
            with self._as_cell_of(job):
                if job.result is not None and not job.cancel.is_set():
                    job.view.show_repair(job.result)
                else:
                    job.view.stopped(f"no repair: {job.error}" if job.error is not None else
                                     "no repair: cancelled (a later cell ran, or Cancel)")
        elif job.error is not None:
            self._show_late(job, {"text/plain": f"codecheck: the repair failed: {job.error}"})
        elif job.result is not None and not job.cancel.is_set():
            self._show_late(job, *repair_view(job.result, self._view()))

    def _show_late(self, job: CheckJob | RepairJob, obj, raw: bool = True) -> None:
        """Shows `obj` (raw: a mimebundle) in the output of the cell the job ran for, after that
        cell ended."""
        with self._as_cell_of(job):
            display(obj, raw=raw)

    @contextlib.contextmanager
    def _as_cell_of(self, job: CheckJob | RepairJob):
        """This thread's outputs belong to the cell the job ran for."""
        pub = getattr(self.magics.shell, "display_pub", None)
        token = None
        if job.parent is not None and hasattr(pub, "set_thread_parent"):
            token = pub.set_thread_parent(job.parent)     # this thread's messages: that cell's
        try:
            yield
        finally:
            if token is not None:
                pub.reset_thread_parent(token)


class CellStopped(InputRejected):
    """A cell the guard stopped before it ran: the errors it surely crashes on, and how to run it
    anyway. IPython shows `_render_traceback_`'s lines in place of a traceback."""

    def __init__(self, certain, findings):
        self.certain, self.findings = certain, findings
        first = certain[0]
        super().__init__(f"codecheck stopped the cell before it ran: line {first.line}: {first.message} "
                         f"(run it again unchanged to run it anyway)")

    def _render_traceback_(self) -> list[str]:
        lines = [f"codecheck stopped this cell before it ran: it would crash at line {self.certain[0].line}"]
        lines += [f"  {finding_line(f, cell_place(f))}" for f in self.findings]
        lines.append("Fix it and run the cell, or run it again unchanged to run it anyway.")
        return lines


class _StopTransformer(ast.NodeTransformer):
    """Guard mode's place in IPython: the first AST transformation of a cell the guard stops
    raises; any other cell's tree passes unchanged (nested runs, %%time's body, --run bodies)."""

    def __init__(self, auto: AutoChecker):
        super().__init__()
        self.auto = auto

    def visit(self, node):
        stop = self.auto.take_stop()
        if stop is not None:
            raise stop
        return node
