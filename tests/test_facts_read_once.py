"""What a read of the kernel's objects may keep from one read to the next: the signature of a
library's callable (it cannot change), never one of the user's (its code may be replaced)."""
from __future__ import annotations

import inspect
import types

import pandas as pd

from jupyter_codecheck.facts import kernel_facts, signatures

CELL = """n = len(df)
print(n)
print(df.head(3))
print(df.head(nn=3))
total = pd.to_numeric(df["a"]).sum()
print(total, n)
r = mine(b=1)
"""


def _owner(f):
    return f.__func__ if type(f) is types.MethodType else f


def test_a_library_callables_signature_is_read_once_a_users_at_every_read(monkeypatch):
    def mine(a):
        return a

    ns = {"df": pd.DataFrame({"a": ["1", "2"]}), "pd": pd, "mine": mine}
    monkeypatch.setattr(signatures, "_FIXED", {}, raising=False)     # as in a new process
    read = []
    signature = inspect.signature
    monkeypatch.setattr(inspect, "signature", lambda f, *a, **k: read.append(_owner(f)) or signature(f, *a, **k))

    first = kernel_facts(CELL, ns)
    mine.__code__ = (lambda b: b).__code__          # the user's function now takes `b`
    second = kernel_facts(CELL, ns)

    assert [(f.kind, f.line) for f in first] == [("call", 4), ("call", 7)], first
    assert [(f.kind, f.line) for f in second] == [("call", 4)], second
    library = [f for f in read if f is not mine]
    assert print in library and pd.DataFrame.head in library
    assert len(library) == len(set(library)), library          # each once, over both reads
    assert read.count(mine) == 2
