"""The JupyterLab panel's side in the notebook's kernel: one public entry point, `answer`, that
the panel's TypeScript (labextension/src/client.ts) calls by name, binding no name of its own in
the user's namespace:

    __import__("jupyter_codecheck.views.panel_kernel", fromlist=["answer"]).answer('<request JSON>')

A request asks for one of two things, and the answer is printed after its mark:
- {"ask": "state", "source": ..., "before_run": bool}: the kernel's state for a check on the
  server (STATE_MARK + KernelState.to_dict(): names, facts, which state they describe);
- {"ask": "check", ...the panel's check request}: the check itself, run here when the server
  extension is not enabled (RESULT_MARK + CheckResult JSON).

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
from .auto_mode import PANEL_CALL
from .magics import _LOADED, interrupt_cancels

# the marks the panel finds its answer after, in what the kernel prints (client.ts has the same)
STATE_MARK = "__codecheck_state__"
RESULT_MARK = "__codecheck_result__"
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
    else:
        raise ValueError(f"the panel asked for {req.get('ask')!r}: 'state' or 'check' "
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
    return kernel_state(names, facts=kernel_facts(source, ns), when=when)


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


__all__ = ["PANEL_CALL", "RESULT_MARK", "STATE_MARK", "already_ran", "answer", "check_here", "read_state",
           "user_namespace"]
