"""What the JupyterLab panel reads in the notebook's kernel for a check: the names the kernel
defines and the kernel facts on the cell, each said of the state they come from.

    kernel_state(source, get_ipython(), before_run=True)
    # {"names": ["df", ...], "facts": [{"kind": "key", ...}], "objects": "before-run"}

`objects` names that state:
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
import sys

from ..core.automagic import automagic
from ..core.kernel import kernel_facts

# the panel's helper functions in the kernel's namespace while they run
HELPER_PREFIX = "__codecheck"


def already_ran(source: str, shell) -> bool:
    """Has this text run as a cell in this kernel (the cells the extension saw run, else
    IPython's input history of the session)? A cell the guard stopped did not run."""
    magics = sys.modules.get("jupyter_codecheck.views.magics")
    loaded = magics._LOADED.get(id(shell)) if magics is not None else None
    history = loaded.executed.ran if loaded is not None else \
        getattr(getattr(shell, "history_manager", None), "input_hist_raw", None) or ()
    text = source.rstrip()
    return bool(text) and any(isinstance(h, str) and h.rstrip() == text for h in history)


def user_namespace(shell) -> dict:
    """The user's namespace without the panel's own helpers."""
    return {k: v for k, v in shell.user_ns.items() if not (isinstance(k, str) and k.startswith(HELPER_PREFIX))}


def kernel_state(source: str, shell, *, before_run: bool = False) -> dict:
    """The names, the facts on `source` and which state they describe (see the module)."""
    ns = user_namespace(shell)
    names = [k for k in ns if isinstance(k, str) and not k.startswith("_")]
    # a name a cell added to builtins (`builtins.f = len`) is defined in this kernel too
    names += [k for k in vars(builtins) if not k.startswith("_") and k not in ns]
    if not before_run and already_ran(source, shell):
        return {"names": names, "facts": None, "objects": "ran"}
    if (magic := automagic(source, ns)) is not None:       # run as `%magic`: its name is no Python's
        return {"names": names + [magic], "facts": [], "objects": "before-run" if before_run else "now"}
    facts = [f.to_dict() for f in kernel_facts(source, ns)]
    return {"names": names, "facts": facts, "objects": "before-run" if before_run else "now"}
