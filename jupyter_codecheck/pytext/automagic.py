"""Does IPython run a cell as a line magic without its `%` (automagic)? IPython's own rule,
asked of the shell whose namespace the check is given: a cell of one line (after IPython's
static transforms, when they are all IPython's) goes through the prefilter, whose checkers, in
order of priority, hand it to the magic handler when `shell.automagic` is on, the first word is
a magic the shell has and no name of the user's, a builtin or a keyword shadows it
(`prefilter.AutoMagicChecker`). `hist[2]` after `del hist` then runs `%hist [2]`: no NameError.

Only IPython's own checkers are asked, and none past the automagic one; a checker or a prefilter
transformer of anyone else's before it, or no shell: no answer (None).
"""
from __future__ import annotations

import sys
import types
from collections.abc import Mapping


def automagic(source: str, namespace: Mapping) -> str | None:
    """The magic's name if the kernel whose namespace this is runs `source` as that line magic."""
    if not source.strip() or len(source.lstrip().splitlines()) > 1:
        return None                     # IPython's transforms drop leading blank lines, add none
    shell = _shell(namespace)
    if shell is None:
        return None
    try:
        cell = _transformed(source, shell)
        if cell is None or len(cell.splitlines()) != 1:
            return None                 # IPython prefilters a cell of one line only
        return _magic_of_line(cell.rstrip("\n"), shell)
    except Exception:  # noqa: BLE001 - an odd shell: no answer
        return None


def _transformed(source: str, shell) -> str | None:
    """The cell after IPython's static transforms, when they are IPython's own (no one else's
    code runs)."""
    tm = shell.input_transformer_manager
    steps = list(tm.cleanup_transforms) + list(tm.line_transforms) + list(tm.token_transformers)
    if not all(str(getattr(t, "__module__", "")).startswith("IPython.") for t in steps):
        return None
    return tm.transform_cell(source)


def _shell(namespace: Mapping):
    """The InteractiveShell the namespace belongs to: IPython puts its bound `get_ipython` in it."""
    shells = sys.modules.get("IPython.core.interactiveshell")
    try:
        got = namespace.get("get_ipython") if isinstance(namespace, Mapping) else None
    except Exception:  # noqa: BLE001
        return None
    if shells is None or type(got) is not types.MethodType:
        return None
    shell = got.__self__
    if not issubclass(type(shell), shells.InteractiveShell) or shell.user_ns is not namespace and \
            not _same_names(shell.user_ns, namespace):
        return None
    return shell


def _same_names(user_ns, namespace: Mapping) -> bool:
    """A copy of the namespace (the panel's, without its helpers) is the shell's too."""
    try:
        return all(k in user_ns for k in namespace)
    except Exception:  # noqa: BLE001
        return False


def _magic_of_line(line: str, shell) -> str | None:
    from IPython.core import prefilter
    from IPython.core.splitinput import LineInfo
    pm = shell.prefilter_manager
    if any(t.enabled for t in pm.transformers):
        return None                     # a transformer of someone's rewrites the line first
    info = LineInfo(line, False)
    if info.esc or not info.ifun:
        return None                     # `%`, `!`, `?`: IPython's syntax the text already shows
    if prefilter.is_shadowed(info.ifun.split(".", 1)[0], shell):
        return None
    ahead = (prefilter.EmacsChecker, prefilter.MacroChecker, prefilter.IPyAutocallChecker,
             prefilter.AssignmentChecker)
    for checker in pm.checkers:         # in order of priority, as find_handler asks them
        if not checker.enabled:
            continue
        if type(checker) is prefilter.AutoMagicChecker:
            handler = checker.check(info)
            return info.ifun if handler is not None and handler is pm.get_handler_by_name("magic") else None
        if type(checker) not in ahead or checker.check(info) is not None:
            return None                 # someone else's checker, or the line is another kind
    return None
