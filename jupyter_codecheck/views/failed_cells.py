"""A cell that raised, in the magics: whether it gets a repair, the repair as a job (failure/'s
`repair_failure` with the kernel's objects), and how it is shown.

Auto mode runs the job after the cell in its background worker (the next cell cancels it);
`%%codecheck --run` runs it in the cell when the body raised. In a kernel the repair is the live
RepairView (Apply fix); elsewhere, or without anywidget, its static views.
"""
from __future__ import annotations

import threading

from IPython.core.error import InputRejected

from ..failure import hold_context, repair_failure


def repairable(exc: BaseException | None) -> bool:
    """A failure of the cell's own code (a syntax error too): not a guard's stop nor any other
    rejected input, not an interrupt, not an exit."""
    return exc is not None and not isinstance(exc, (InputRejected, KeyboardInterrupt, SystemExit))


def raised(result) -> BaseException | None:
    """What a cell's ExecutionResult raised: its code's exception, or a syntax error met before
    it ran."""
    exc = getattr(result, "error_in_exec", None)
    if exc is None and isinstance(getattr(result, "error_before_exec", None), SyntaxError):
        exc = result.error_before_exec
    return exc


class RepairJob:
    """One failed cell's repair as a view runs it: `run()` on whichever thread, `cancel` (an
    Event) stops the model within a layer step; `result` is the FailureRepair, or None after a
    cancel or a failure (`error`)."""

    def __init__(self, source: str, failure: BaseException, *, context: list[str], namespace,
                 options: dict, cancel: threading.Event | None = None):
        self.source, self.failure, self.context = source, failure, context
        self.namespace = namespace
        self.options = options
        self.cancel = cancel if cancel is not None else threading.Event()
        self.view = None                        # the live view shown while it runs (auto mode)
        self.done = threading.Event()
        self.result = None
        self.error: Exception | None = None
        self.parent = None                      # the failed cell's message (auto mode shows there)

    def run(self):
        if self.cancel.is_set():                # cancelled before it started
            self.failure = None
            self.done.set()
            return None
        try:
            self.result = repair_failure(self.source, self.failure, context=self.context,
                                         namespace=self.namespace, model=self.options.get("model"),
                                         threads=self.options.get("n_threads"), cancel=self.cancel.is_set)
        except Exception as e:  # noqa: BLE001 - a cancel ends the model's walk with an exception
            if not self.cancel.is_set():
                self.error = e
        finally:
            # the traceback holds the cell's frames and their objects: not kept past the repair
            self.failure = None
            self.done.set()
        return self.result


class HoldJob:
    """After a cell, at idle: the K,V a failure of the next cell would read first (the latest
    cells run), computed now so that its repair starts at the failed cell's own code. Nothing
    happens unless a repair or a check has loaded the model; the next cell cancels it."""

    # it starts once the kernel has been idle this long: cells run back to back (Run All) each
    # cancel it at once; computing beside the next cell cost that cell more than its exact check
    # (docs/measurements.md, "auto mode's cost")
    IDLE_S = 0.2

    def __init__(self, cells: list[str], options: dict, cancel: threading.Event | None = None):
        self.cells, self.options = cells, options
        self.cancel = cancel if cancel is not None else threading.Event()
        self.done = threading.Event()
        self.held: int | None = None            # positions held (None: no model loaded, or cancelled)

    def run(self) -> None:
        try:
            if not self.cancel.wait(self.IDLE_S):
                self.held = hold_context(self.cells, model=self.options.get("model"),
                                         threads=self.options.get("n_threads"), cancel=self.cancel.is_set)
        except Exception:  # noqa: BLE001 - a cancel, or a model that fails: the repair computes it then
            self.held = None
        finally:
            self.done.set()


def pending_view(source: str, exc: BaseException):
    """The live view of a failed cell shown while its repair is looked for (None without
    anywidget)."""
    try:
        from .widgets import RepairView
    except ImportError:
        return None
    try:
        said = str(exc).strip()
    except Exception:  # noqa: BLE001 - a user's __str__ that fails: the name alone
        said = ""
    first = said.splitlines()[0] if said else ""
    return RepairView.pending(source, f"{type(exc).__name__}: {first}" if first else type(exc).__name__)


def repair_view(fix, view: str):
    """What `display` shows of a repair, as (object, raw): `view` "widget" (the live view, or its
    static views without anywidget), "html" (the static views) or "text"."""
    from .widgets import repair_bundle
    if view == "widget":
        try:
            from .widgets import RepairView
            return RepairView(fix), False
        except ImportError:             # anywidget missing: the static views still work
            view = "html"
    bundle = repair_bundle(fix)
    return (bundle if view == "html" else {"text/plain": bundle["text/plain"]}), True
