"""The JupyterLab panel's side in the notebook's kernel: one public entry point, `answer`, that
the panel's TypeScript (labextension/src/client.ts) calls by name, binding no name of its own in
the user's namespace:

    __import__("jupyter_codecheck.views.panel_kernel", fromlist=["answer"]).answer('<request JSON>')

A request asks for one of three things, and the answer is printed after its mark:
- {"ask": "state", "source": ..., "before_run": bool}: the kernel's state for a check on the
  server (STATE_MARK + KernelState.to_dict(): names, facts, which state they describe);
- {"ask": "check", ...the panel's check request}: the check itself, run here when the server
  extension is not enabled (RESULT_MARK + CheckResult JSON);
- {"ask": "repair", "source": ..., "ename", "evalue", "traceback": [...], "options"}: the repair
  of the cell that just raised (REPAIR_MARK + the repair's JSON, see `repair_here`). It runs here,
  server or not: its candidates are re-checked against the kernel's objects.

Which state the facts describe (`objects` in the answer, KernelState.when):
- "before-run": the panel sent its request just ahead of the cell's own execute request, and the
  kernel handles requests in order: the objects are those the cell runs on.
- "now": the cell's text has not run in this kernel: the objects as they are, those it meets if
  it runs next.
- "ran": the text already ran here. The objects hold the state after it, and after every cell
  run since (a later rename, a drop), so they would judge the cell by its own effects: no facts
  are read (`facts` None; a check then reads only the libraries' functions, which no cell
  changes) and the names only count as defined.
"""
from __future__ import annotations

import builtins
import json
import threading

from ..pytext.automagic import automagic
from ..facts import KernelState, kernel_facts, kernel_state
from .auto_mode import PANEL_CALL, is_panel_code
from .magics import _LOADED, interrupt_cancels

# the marks the panel finds its answer after, in what the kernel prints (client.ts has the same)
STATE_MARK = "__codecheck_state__"
RESULT_MARK = "__codecheck_result__"
REPAIR_MARK = "__codecheck_repair__"
# the panel of older releases defined helper functions named `__codecheck_...` in the namespace
HELPER_PREFIX = "__codecheck"


def answer(request: str) -> None:
    """The panel's one call: runs `request` (JSON, see the module) and prints the answer after
    its mark. A state that cannot be read prints nothing (the server then checks the code alone);
    a check's error is raised, and the panel shows it."""
    from IPython import get_ipython
    req = json.loads(request)
    shell = get_ipython()
    if req.get("ask") == "state":
        try:
            state = read_state(req["source"], shell, before_run=bool(req.get("before_run")))
        except Exception:  # noqa: BLE001 - no state: the server checks the code alone
            return
        print(STATE_MARK + json.dumps(state.to_dict()))
    elif req.get("ask") == "check":
        print(RESULT_MARK + check_here(req, shell).to_json())
    elif req.get("ask") == "repair":
        print(REPAIR_MARK + json.dumps(repair_here(req, shell)))
    else:
        raise ValueError(f"the panel asked for {req.get('ask')!r}: 'state', 'check' or 'repair' "
                         "(reload the page if the panel is older than jupyter-codecheck)")


def already_ran(source: str, shell) -> bool:
    """Has this text run as a cell in this kernel (the cells the extension saw run, else
    IPython's input history of the session)? A cell the guard stopped did not run."""
    loaded = _LOADED.get(id(shell))
    history = loaded.executed.ran if loaded is not None else \
        getattr(getattr(shell, "history_manager", None), "input_hist_raw", None) or ()
    text = source.rstrip()
    return bool(text) and any(isinstance(h, str) and h.rstrip() == text for h in history)


def user_namespace(shell) -> dict:
    """The user's namespace without the panel's own helpers."""
    return {k: v for k, v in shell.user_ns.items() if not (isinstance(k, str) and k.startswith(HELPER_PREFIX))}


def read_state(source: str, shell, *, before_run: bool = False) -> KernelState:
    """The names, the facts on `source` and which state they describe (see the module)."""
    ns = user_namespace(shell)
    names = [k for k in ns if isinstance(k, str) and not k.startswith("_")]
    # a name a cell added to builtins (`builtins.f = len`) is defined in this kernel too
    names += [k for k in vars(builtins) if not k.startswith("_") and k not in ns]
    when = "before-run" if before_run else "now"
    if not before_run and already_ran(source, shell):
        return kernel_state(names, when="ran")
    if (magic := automagic(source, ns)) is not None:       # run as `%magic`: its name is no Python's
        return kernel_state(names + [magic], facts=[], when=when)
    # about to run: the libraries the cell begins by importing are read too (facts/modules.py)
    return kernel_state(names, facts=kernel_facts(source, ns, libraries="leading" if before_run else "loaded"),
                        when=when)


def check_here(req: dict, shell):
    """The panel's check run in this kernel (no server extension): the cell with the context
    every view picks, a long one piece by piece, against the state the facts come from: sent
    with the request (read before the cell ran); the kernel's objects (its names are defined, its
    objects read for facts, a fix may name only attributes they have); or, for a cell that
    already ran, the names alone (the objects hold the state after it). An interrupt (Cancel)
    ends the check with its partial result."""
    from ..core.long_sources import cell_check, check_long
    job, start = cell_check(req["cells"], req["index"], req["context_start"], req["context_chars"])
    ns = user_namespace(shell)
    if "names" in req:
        state = kernel_state(req["names"], facts=req.get("facts"), when="before-run")
    elif already_ran(job.unit.source, shell):
        state = kernel_state([k for k in ns if not k.startswith("_")], when="ran")
    else:
        state = kernel_state(ns, when="now")
    cancel = threading.Event()
    with interrupt_cancels(cancel):
        result = check_long(job.unit.source, **{**job.options(), "namespace": state, "cancel": cancel,
                                                **req["options"]})
    result.stats["context_start"] = start
    result.stats["kernel_objects"] = state.when
    return result


def ran_before(source: str, shell) -> list[str]:
    """The cells that ran in this kernel before the last run of `source`, in order (the
    extension's record, else IPython's input history; the panel's own calls are in neither)."""
    loaded = _LOADED.get(id(shell))
    history = list(loaded.executed.ran if loaded is not None else
                   (getattr(getattr(shell, "history_manager", None), "input_hist_raw", None) or [])[1:])
    text = source.rstrip()
    last = max((k for k, h in enumerate(history) if isinstance(h, str) and h.rstrip() == text), default=len(history))
    return [h for h in history[:last] if isinstance(h, str) and h.strip() and not is_panel_code(h)]


def repair_here(req: dict, shell) -> dict:
    """The repair of the cell `req["source"]` that just raised: from the live exception when it
    is the one the panel saw (its frames are placed in the cells by their text), else from the
    traceback's text; re-checked against the kernel's objects. The answer: the repair's JSON
    (FailureRepair.to_dict without the other candidates), its `diff_rows`, `summary` (where it is
    and whether it was verified), `cells_before`, `target_source` (the text of the cell it edits)
    and `repaired` (that cell repaired, or None). An interrupt (Cancel) stops it: `cancelled`."""
    import sys

    from ..failure import Failure
    from .failed_cells import RepairJob
    from .report import cells_before, repair_summary, shown_repair
    source = req["source"]
    cells = ran_before(source, shell)
    live = getattr(sys, "last_value", None)
    if isinstance(live, BaseException) and type(live).__name__ == req.get("ename") \
            and str(live) == req.get("evalue", ""):
        failure = live
    else:
        failure = Failure.from_output({"output_type": "error", "ename": req.get("ename"), "evalue": req.get("evalue"),
                                       "traceback": req.get("traceback") or []}, [*cells, source])
    job = RepairJob(source, failure, context=cells, namespace=user_namespace(shell), options=req.get("options") or {})
    with interrupt_cancels(job.cancel):
        fix = job.run()
    if job.error is not None:
        raise job.error
    if fix is None:
        return {"cancelled": True}
    from dataclasses import asdict
    r = fix.repair
    return {**shown_repair(fix), "diff_rows": [asdict(row) for row in fix.diff_rows()],
            "summary": repair_summary(fix), "cells_before": cells_before(fix),
            "target_source": fix.cells[r.cell] if r is not None else source,
            "repaired": None if r is None else r.source, "cancelled": False}


__all__ = ["PANEL_CALL", "REPAIR_MARK", "RESULT_MARK", "STATE_MARK", "already_ran", "answer", "check_here",
           "ran_before", "read_state", "repair_here", "user_namespace"]
