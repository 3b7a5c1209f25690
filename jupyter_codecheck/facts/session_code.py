"""The code the user wrote in this kernel session, as IPython keeps it: its input history (`In`),
read as text, never run. A name written nowhere in it, in a session that loaded no module of the
user's and set no name by a computed string, is set by none of the user's code:

    words = session_words(namespace, cell)     # the identifiers the inputs write; None: not told
    words is not None and "tght_layout" not in words     # no code of the user's can set it

`cell` is the source being checked, which the history may already hold as its last input.
"""
from __future__ import annotations

import ast
import re
import sys
import types
from collections.abc import Mapping

from .libraries import is_library_path
from .read_policy import POLICY

# what sets or reaches a name without writing it: by a computed string, through an object's own
# dict or class, or by running text as code (`%run` runs a file's code, `exec` a string's)
_DYNAMIC = re.compile(r"setattr|__dict__|__setattr__|__class__|\bvars\b|\bexec\b|\beval\b|\bcompile\b|"
                      r"\bglobals\b|\blocals\b|importlib|runpy|execfile|%run|%load|'run'|\"run\"|'load'|\"load\"")
_WORD = re.compile(r"\w+")


def session_words(namespace: Mapping, cell: str) -> frozenset[str] | None:
    """The words (identifiers) the session's inputs write, the cell itself aside, where they are
    all the user's code there is: none sets names dynamically, the history defines every function
    and class of the user's the namespace holds, no module of the user's is reached. None where
    that is not so, or the history is not IPython's list of texts."""
    history = namespace.get("In")
    if type(history) is not list or not all(type(h) is str for h in history):
        return None
    inputs = list(history)
    if inputs and inputs[-1].strip() == cell.strip():
        inputs.pop()                    # the cell being checked, stored before it runs
    if any(_DYNAMIC.search(h) for h in inputs) or not _holds_users_code(inputs, namespace) or \
            _reaches_users_module(inputs, namespace):
        return None
    return frozenset(w for h in inputs for w in _WORD.findall(h))


def _holds_users_code(inputs: list[str], namespace: Mapping) -> bool:
    """Does the history define every function and class of the user's the namespace holds (none
    from a startup file, `%run` or a history switched off)?"""
    text = "\n".join(inputs)
    for key, v in list(namespace.items()):
        if type(key) is str and issubclass(type(v), (type, types.FunctionType)) and \
                POLICY.module_of(v) == "__main__" and \
                not re.search(rf"\b(def|class)\s+{re.escape(key)}\b|\b{re.escape(key)}\s*=", text):
            return False
    return True


def _reaches_users_module(inputs: list[str], namespace: Mapping) -> bool:
    """Does the session reach a module of the user's (a file beside the notebook, whose code the
    history does not hold): imported by an input, or a module, function or class of it bound in
    the namespace?"""
    names = set()
    for text in inputs:
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            return True                 # an input not read: what it imports is not known
        for n in ast.walk(tree):
            if isinstance(n, ast.Import):
                names |= {a.name for a in n.names}
            elif isinstance(n, ast.ImportFrom):
                if n.level or not n.module:
                    return True         # a package's own relative import: the user's
                names.add(n.module)
    names |= {POLICY.module_of(v) for v in namespace.values()
              if issubclass(type(v), (types.ModuleType, type, types.FunctionType))}
    return any(_users_file(m) for m in names if type(m) is str and m != "__main__")


def _users_file(module_name: str) -> bool:
    """Is the module, where loaded, from a file neither Python's nor an installed library's?"""
    module = sys.modules.get(module_name)
    path = POLICY.own_dict(module).get("__file__") if type(module) is types.ModuleType else None
    return type(path) is str and not is_library_path(path)
