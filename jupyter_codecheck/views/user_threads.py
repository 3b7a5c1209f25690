"""Whose code a thread runs: the guard holds back its stops only for threads of the user's.

A thread is the user's when the code it was started with is (its target, or the `run` of its
Thread subclass; a callable among the target's arguments counts too: `Thread(target=lib.loop,
args=(my_callback,))`), or when its stack holds a frame of the user's right now (an executor's
worker running a task of theirs). The user's code is what runs in the notebook's namespace (a
cell's functions, lambdas and classes) or in a module that is no library's (a file beside the
notebook); a library's threads (pyzmq's garbage collector, ipykernel's, matplotlib's, tqdm's
monitor, joblib/loky's, threadpoolctl's) run only library code and are not.

Read through the thread's own attributes and the interpreter's frames: no code of the user's runs.
"""
from __future__ import annotations

import functools
import sys
import threading
import types
from collections.abc import Mapping

from ..facts import is_library_module, is_library_path

_OURS = "jupyter_codecheck"


def user_threads(namespace: Mapping) -> list[threading.Thread]:
    """The live threads other than the main one that run the user's code (see the module)."""
    frames = sys._current_frames()
    main = threading.main_thread()
    return [t for t in threading.enumerate()
            if t is not main and t.is_alive() and not t.name.startswith("codecheck")
            and runs_user_code(t, namespace, frames.get(t.ident))]


def runs_user_code(thread: threading.Thread, namespace: Mapping, frame=None) -> bool:
    """Was `thread` started with the user's code, or is it in the user's code now (`frame`: its
    current frame, from `sys._current_frames()`)?"""
    start = _started_with(thread)
    if any(_users_callable(c, namespace) for c in start):
        return True
    while frame is not None:
        if _users_globals(frame.f_globals, frame.f_code.co_filename, namespace):
            return True
        frame = frame.f_back
    return False


def _started_with(thread: threading.Thread) -> list:
    """The callables the thread was started with: its target and the callables among its
    arguments (Thread deletes these when its target returns), else its class's own `run`."""
    d = object.__getattribute__(thread, "__dict__")
    target = d.get("_target")
    if target is not None:
        args = [*(d.get("_args") or ()), *(d.get("_kwargs") or {}).values()]
        return [target, *(a for a in args if callable(a) and not isinstance(a, type))]
    run = None
    for klass in type(thread).__mro__:
        run = klass.__dict__.get("run")
        if run is not None:
            break
    return [] if run is threading.Thread.run else [run]


def _users_callable(obj, namespace: Mapping, depth: int = 3) -> bool:
    """Is `obj` a function, method, class or partial whose code is the user's?"""
    if depth == 0:
        return False
    if type(obj) is functools.partial:
        return _users_callable(functools.partial.func.__get__(obj), namespace, depth - 1)
    if type(obj) is types.MethodType:
        return _users_callable(obj.__func__, namespace, depth - 1)
    if type(obj) is types.FunctionType:
        return _users_globals(obj.__globals__, obj.__code__.co_filename, namespace)
    if issubclass(type(obj), type):
        module = type.__dict__["__module__"].__get__(obj, type)
        return module == "__main__" or (isinstance(module, str) and not _library_or_ours(module))
    return False        # a builtin or a C callable: a library's


def _users_globals(globals_: dict, filename: str, namespace: Mapping) -> bool:
    """Does code with these globals and file run as the user's?"""
    if globals_ is namespace:
        return True
    name = globals_.get("__name__")
    if name == "__main__":
        return True
    if isinstance(name, str) and _library_or_ours(name):
        return False
    if filename.startswith("<frozen") or is_library_path(filename):
        return False
    return True


def _library_or_ours(module: str) -> bool:
    return module.split(".")[0] == _OURS or is_library_module(module)
