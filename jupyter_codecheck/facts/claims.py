"""What a value rule says of a call or operation the library will reject (the rules' one type,
read by facts.py; values.py and the rule modules make them)."""
from __future__ import annotations

import ast
import functools
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class ValueClaim:
    """A call or operation the library will reject: the node to place it on (a callee: on its
    name), the message (it ends with the exception's name) and exact replacements of the node's text."""
    node: ast.AST
    message: str
    exception: str
    candidates: list[str] = field(default_factory=list)
    callee: bool = False
    # the names whose objects the rule reads, where they are not the use's (facts._subjects)
    subjects: tuple[str, ...] | None = None
    # the rule reads the cell's literals alone (and Python's own types): nothing can change it
    literal: bool = False


Live = Callable[[ast.AST], object]
Text = Callable[[ast.AST], "str | None"]       # a node's own text in the cell (None: not on one line)


def read_otherwise_no_claim(rule):
    """A rule whose reading fails (an object unlike what it looked) makes no claim."""
    @functools.wraps(rule)
    def guarded(*args, **keywords):
        try:
            return rule(*args, **keywords)
        except Exception:  # noqa: BLE001 - read otherwise: no claim
            return None
    return guarded
