"""CheckView: the live notebook view of a check (anywidget; its front end is static/check_view.js).

Why the check runs in a worker thread: the view fills in as tokens are decided while the walk
runs, and the Cancel click sets `cancel_event`, which the walk polls every layer. Widget
messages share the kernel's shell channel, which a running cell keeps busy: `run()` returns at
once so the click is heard, or, with `block=True` (what `%%codecheck` does, so that the notebook
keeps the final result), the Cancel button interrupts the kernel and the waiting cell turns the
interrupt into a cancel.
"""
from __future__ import annotations

import contextvars
import pathlib
import threading
import time
import uuid

import anywidget
import traitlets as t

from ...core.result import CheckResult, Edit, TokenRecord
from . import render

_STATIC = pathlib.Path(__file__).parent / "static"

_SYNC_INTERVAL_S = 0.1      # batch streamed tokens: each sync re-sends the whole token list
_LATE_INTERRUPT_S = 0.25    # how long a blocking run stays ready for an interrupt sent as it ended


def token_state(tok: TokenRecord) -> dict:
    """A token as the front end shows it: the record plus its heat-map colours."""
    bg = render.prob_colour(tok.prob)
    return {"index": tok.index, "text": tok.text, "start": tok.start, "end": tok.end,
            "line": tok.line, "column": tok.column, "prob": tok.prob, "rank": tok.rank,
            "alternatives": [{"text": a.text, "prob": a.prob} for a in tok.alternatives[:5]],
            "exit_layer": tok.exit_layer, "decision": tok.decision, "color": bg,
            "ink": render.ink_for(bg)}


class CheckView(anywidget.AnyWidget):
    """Live view of one check: heat map growing as tokens are decided, then the inline diff with
    **Apply fix**, hover/click token details, the layer-exit histogram and a stats line.

    Running a check (what `%%codecheck` does)::

        view = CheckView(source=cell, title="cell 3")
        view.show()                                # display, so the final result updates the output
        view.run(context=earlier_cells, **options) # worker thread; returns at once
        result = view.wait()                       # or: view.on_finish(callback)
        view.run(block=True, **options)            # or wait in the cell; a kernel interrupt cancels

    Streaming a check yourself::

        for item in check_iter(source, cancel=view.cancel_event):
            if isinstance(item, CheckResult):
                view.finish(item)
            else:
                view.add(item)                     # TokenRecord or Edit

    `cancel_event` is set by the Cancel button; while the cell itself runs the walk, the click only
    arrives once the cell returns, so prefer `run()`. `error(message)` shows a failure.

    Apply fix happens in the browser: the view finds the notebook cell that holds it, and replaces
    the checked text (the cell body below a `%%codecheck` line) inside the cell's editor with
    `corrected`, one undoable edit (Ctrl+Z restores the original). If the cell cannot be found or
    no longer contains the checked text, the corrected code is shown for copying instead.

    State (synced, assertable in tests): `status` (ready|running|cancelling|cancelled|done|error),
    `tokens` (records as dicts, with heat-map `color`/`ink`), `edits`, `findings` (Finding dicts:
    `severity` error|warning, a warning's `gain`), `corrected`, `diff_text` (unified diff),
    `diff_html` (the diff, then every finding with its severity, fix or not), `exit_counts`
    (tokens per exit layer), `n_layer`, `depth_text`, `stats_text`, `histogram_svg`. `result` is
    the final CheckResult (None before).
    """

    _esm = _STATIC / "check_view.js"
    _css = _STATIC / "check_view.css"

    title = t.Unicode("").tag(sync=True)
    source = t.Unicode("").tag(sync=True)
    status = t.Unicode("ready").tag(sync=True)
    message = t.Unicode("").tag(sync=True)
    piece = t.Unicode("").tag(sync=True)          # a long cell: "lines 120-240 of 3000"
    # the cell waits for the check (run(block=True)): Cancel interrupts the kernel, because the
    # waiting cell reads the widget's messages only once it ends
    waiting = t.Bool(False).tag(sync=True)
    tokens = t.List(t.Dict()).tag(sync=True)
    edits = t.List(t.Dict()).tag(sync=True)
    findings = t.List(t.Dict()).tag(sync=True)
    corrected = t.Unicode("").tag(sync=True)
    diff_text = t.Unicode("").tag(sync=True)
    diff_html = t.Unicode("").tag(sync=True)
    n_layer = t.Int(0).tag(sync=True)
    exit_counts = t.List(t.Int()).tag(sync=True)
    depth_text = t.Unicode("").tag(sync=True)
    stats_text = t.Unicode("").tag(sync=True)
    histogram_svg = t.Unicode("").tag(sync=True)
    legend_svg = t.Unicode(render.legend_svg()).tag(sync=True)

    def __init__(self, source: str = "", title: str = "", **kwargs):
        super().__init__(source=source, title=title, **kwargs)
        self.cancel_event = threading.Event()
        self.result: CheckResult | None = None
        self.applied: dict | None = None      # the front end's report of the last Apply fix
        self._pending_tokens: dict[int, TokenRecord] = {}
        self._pending_edits: list[Edit] = []
        self._last_sync = 0.0
        self._done = threading.Event()
        self._callbacks: list = []
        self._thread: threading.Thread | None = None
        self._display_id: str | None = None
        self._lock = threading.Lock()
        self.on_msg(self._on_front_end_msg)

    # -- messages from the browser --------------------------------------------------------------

    def _on_front_end_msg(self, _widget, content, _buffers):
        event = content.get("event") if isinstance(content, dict) else None
        if event == "cancel":
            self.cancel()
        elif event == "applied":
            self.applied = {k: content.get(k) for k in ("ok", "how", "message")}

    def cancel(self) -> None:
        """What the Cancel button does: the running walk stops within one layer step."""
        self.cancel_event.set()
        if self.status == "running":
            self.status = "cancelling"

    # -- streaming ------------------------------------------------------------------------------

    def add(self, item: TokenRecord | Edit) -> None:
        """One streamed item; the front end is updated at most every 0.1 s (and on finish)."""
        with self._lock:
            if self.status == "ready":
                self.status = "running"
            if isinstance(item, TokenRecord):
                self._pending_tokens[item.index] = item
            elif isinstance(item, Edit):
                self._pending_edits.append(item)
            else:
                raise TypeError(f"CheckView.add takes TokenRecord or Edit, got {type(item).__name__}")
            if time.monotonic() - self._last_sync >= _SYNC_INTERVAL_S:
                self._sync_stream()

    def _sync_stream(self) -> None:
        tokens = {tok["index"]: tok for tok in self.tokens}
        tokens.update({i: token_state(r) for i, r in self._pending_tokens.items()})
        partial = CheckResult(source=self.source, edits=self._edits_so_far())
        # the layer count arrives with the result; until then the deepest exit seen bounds it
        deepest = max((tok["exit_layer"] for tok in tokens.values() if tok["exit_layer"] is not None),
                      default=-1)
        with self.hold_sync():
            self.tokens = [tokens[i] for i in sorted(tokens)]
            if self._pending_edits:
                self.edits = [_edit_state(e) for e in partial.edits]
                self.diff_html = render.diff_html(partial)
            n_layer = max(self.n_layer, deepest + 1)
            if n_layer:
                self.n_layer = n_layer
                self._sync_histogram(n_layer, {})
        self._pending_tokens.clear()
        self._pending_edits.clear()
        self._last_sync = time.monotonic()

    def _edits_so_far(self) -> list[Edit]:
        return [Edit(**e) for e in self.edits] + list(self._pending_edits)

    def _sync_histogram(self, n_layer: int, stats: dict) -> None:
        counts = render.exit_counts(self.tokens, n_layer)
        self.exit_counts = counts
        self.histogram_svg = render.histogram_svg(counts)
        self.depth_text = render.depth_summary(counts, stats)

    def finish(self, result: CheckResult) -> None:
        """Show the final (or, after a cancel, partial) result; `text/plain`/`text/html` follow."""
        with self._lock:
            self._pending_tokens.clear()
            self._pending_edits.clear()
            self.result = result
            n_layer = render.n_layer_of(result)
            with self.hold_sync():
                if not self.source:
                    self.source = result.source
                self.n_layer = n_layer
                self.tokens = [token_state(tok) for tok in sorted(result.tokens, key=lambda r: r.index)]
                self.edits = [_edit_state(e) for e in result.edits]
                self.findings = [dict(vars(f)) for f in result.findings]
                self.corrected = result.corrected
                self.diff_text = render.unified_diff(result)
                self.diff_html = render.diff_html(result)
                self._sync_histogram(n_layer, result.stats)
                self.stats_text = _stats_text(result.stats, len(result.tokens))
                self.status = "cancelled" if result.stats.get("cancelled") else "done"
        self._finished()

    def error(self, message: str) -> None:
        """A check that failed: the message stays in the view (and its text fallback)."""
        with self._lock:
            self.message = message
            self.status = "error"
        self._finished()

    def _finished(self) -> None:
        self._done.set()
        if self._display_id is not None:
            from IPython.display import update_display
            update_display(self, display_id=self._display_id)
        for callback in self._callbacks:
            callback(self)

    # -- running a check -----------------------------------------------------------------------

    def run(self, *, context=None, block: bool = False, **options) -> CheckView:
        """Check `self.source` with `check_iter`, streaming into this view (see the class doc).

        The walk runs in a worker thread so that the Cancel button is heard while it runs.
        `block=True` waits for it; a KeyboardInterrupt (the kernel's interrupt) cancels it and
        the partial result is shown. Options are those of `jupyter_codecheck.core.check`; `cancel`
        is this view's `cancel_event`.
        """
        if self._thread is not None:
            raise RuntimeError("this view already ran a check; make a new CheckView")
        if "cancel" in options:
            raise TypeError("CheckView.run cancels through its own cancel_event; drop cancel=")
        from ...core.long_sources import Piece
        from ..worker import CheckJob
        self.status = "running"

        def shown(item):
            if isinstance(item, Piece):
                self.piece = str(item)
            else:
                self.add(item)

        job = CheckJob(self.source, context=context, options=options, on_item=shown,
                       cancel=self.cancel_event)

        def walk():
            result = job.run()
            try:
                if job.error is not None:
                    raise job.error
                self.finish(result)
            except Exception as exc:   # shown in the view: the worker has no one else to tell
                self.error(f"{type(exc).__name__}: {exc}")

        # the worker carries the cell's context so its widget messages belong to this cell
        ctx = contextvars.copy_context()
        self._thread = threading.Thread(target=ctx.run, args=(walk,), name="codecheck-view", daemon=True)
        self._thread.start()
        if block:
            self.waiting = True
            try:
                self.wait()
                # a Cancel clicked as the check ended interrupts the kernel here, not the next cell
                time.sleep(_LATE_INTERRUPT_S)
            except KeyboardInterrupt:
                pass
            finally:
                self.waiting = False
        return self

    def wait(self, timeout: float | None = None) -> CheckResult | None:
        """Block until the check ends and return its result (None after an error or a timeout).
        A KeyboardInterrupt while waiting cancels the check and returns the partial result."""
        try:
            self._done.wait(timeout)
        except KeyboardInterrupt:
            self.cancel()
            self._done.wait()
        return self.result

    def on_finish(self, callback) -> None:
        """`callback(view)` once the check ended (done, cancelled or failed), in the worker."""
        self._callbacks.append(callback)
        if self._done.is_set():
            callback(self)

    @property
    def running(self) -> bool:
        return self._thread is not None and not self._done.is_set()

    # -- display --------------------------------------------------------------------------------

    def show(self) -> None:
        """Display the view with a display id, so that its static fallback (what nbconvert and
        terminals show) is replaced by the final result when the check ends."""
        from IPython.display import display
        self._display_id = uuid.uuid4().hex
        display(self, display_id=self._display_id)

    def _repr_mimebundle_(self, **kwargs):
        bundle = super()._repr_mimebundle_(**kwargs)
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
        data = dict(data)
        data.update(self.static_bundle())
        return data, metadata

    def static_bundle(self) -> dict:
        """The widget's current state for front ends without widgets (text/plain, text/html)."""
        if self.result is not None:
            return render.mimebundle(self.result, title=self.title or None)
        if self.status == "error":
            return {"text/plain": f"codecheck: error: {self.message}",
                    "text/html": f'<div class="jupyter-codecheck" style="color:#d1242f">codecheck: '
                                 f'{render._esc(self.message)}</div>'}
        n = len(self.tokens) + len(self._pending_tokens)
        text = f"codecheck: checking ({n} tokens decided so far)" if self.status != "ready" \
            else "codecheck: not run yet"
        return {"text/plain": text, "text/html": f'<div class="jupyter-codecheck">{render._esc(text)}</div>'}


def _edit_state(e: Edit) -> dict:
    return {"kind": e.kind, "start": e.start, "end": e.end, "line": e.line, "column": e.column,
            "original": e.original, "replacement": e.replacement}


def _stats_text(stats: dict, n_tokens: int) -> str:
    return " \u00b7 ".join(text for _, text in render.stats_parts(stats, n_tokens))
