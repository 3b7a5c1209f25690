"""What a `def` runs: the facts read a function's body as run where the `def` stands. A body may
run in ways the flow cannot see (a callback registered earlier or in the same cell, a live
object's dunder, a string pandas evaluates, `__main__` lookups, a live helper it calls), so a
claim after a `def` whose body may change what the claim reads is never made. Two reviews of a
version that deferred the bodies found each of these cells falsely claimed; each is run here
against the libraries: no claim, and the cell runs."""
from __future__ import annotations

import traceback

import matplotlib
import numpy as np
import pytest

from jupyter_codecheck.facts import kernel_facts

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def namespace() -> dict:
    import pandas as pd
    objects = {"__name__": "__main__", "np": np, "plt": plt, "pd": pd, "a": np.arange(6.0),
               "df": pd.DataFrame({"c": [1.0, 2.0]})}
    exec("def helper():\n    a.resize((2, 3), refcheck=False)\n", objects)     # the kernel's own function
    return objects


def run(cell: str) -> tuple[str, int] | None:
    try:
        exec(compile(cell, "<cell>", "exec"), namespace())
    except Exception as e:  # noqa: BLE001 - whatever the libraries raise is compared
        return type(e).__name__, [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.filename == "<cell>"][-1]
    finally:
        plt.close("all")
    return None


def claims(cell: str) -> list:
    return [f for f in kernel_facts(cell, namespace()) if f.kind == "value"]


GROW = "    a.resize((2, 3), refcheck=False)\n"         # the user's code: a becomes 2-D, in place


@pytest.mark.parametrize("cell", [
    "def grow():\n" + GROW + "grow()\nc = a + np.ones(3)\n",                             # called
    "def grow(_):\n" + GROW + "list(map(grow, [0]))\nc = a + np.ones(3)\n",               # given to a call
    "class Grow:\n    def __init__(self):\n" + GROW.replace("    ", "        ") + "Grow()\nc = a + np.ones(3)\n",
    "class Grow:\n    def go(self):\n" + GROW.replace("    ", "        ") + "g = Grow()\nlist(map(lambda f: f(), [g.go]))\n"
    "c = a + np.ones(3)\n",                                                                # a method, run by a library
    "def now(f):\n    f()\n    return f\n@now\ndef grow():\n" + GROW + "c = a + np.ones(3)\n",   # a decorator runs it
    "class Base:\n    def __init_subclass__(cls):\n        cls.grow()\n"
    "class Grow(Base):\n    @staticmethod\n    def grow():\n" + GROW.replace("    ", "        ") +
    "c = a + np.ones(3)\n",                                                                # a base's hook runs it
    "def grow():\n" + GROW + "fs = [grow]\nfs[0]()\nc = a + np.ones(3)\n",                 # called through a list
    # found in review: each runs the function without a call of its name that the flow saw
    "class Base:\n    def __init_subclass__(cls):\n" + GROW.replace("    ", "        ") +
    "class D(Base):\n    pass\nc = a + np.ones(3)\n",                                     # a base's hook
    "class K:\n    def __class_getitem__(cls, k):\n" + GROW.replace("    ", "        ") +
    "        return cls\nK[0]\nc = a + np.ones(3)\n",                                     # subscripting a class
    "def deco(fn):\n    fn()\n    return fn\n@deco\ndef grow():\n" + GROW + "c = a + np.ones(3)\n",
    "def grow(s):\n" + GROW + "    return 0\nr = sorted([3, 1], **{'key': grow})\nc = a + np.ones(3)\n",
    "def grow(s):\n" + GROW + "    return 0\nr = list(map(*[grow, [1]]))\nc = a + np.ones(3)\n",
    "def grow(s):\n" + GROW + "    return 0\ng = grow\nr = list(map(g, [1]))\nc = a + np.ones(3)\n",
    "def fmt(v):\n" + GROW + "    return str(v)\nnp.set_printoptions(formatter={'float': fmt})\nstr(np.zeros(2))\n"
    "np.set_printoptions(formatter=None)\nc = a + np.ones(3)\n",
    "def grow():\n" + GROW + "    return 0\nr = grow() + (a + np.ones(3))\n",            # earlier in the statement
    "def grow():\n    helper()\ngrow()\nc = a + np.ones(3)\n",                              # a live helper it calls
    "def grow():\n    exec('a.resize((2, 3), refcheck=False)', globals())\ngrow()\nc = a + np.ones(3)\n",
    "np.set_printoptions(formatter={'float': lambda v: fmt(v)})\ndef fmt(v):\n" + GROW + "    return str(v)\n"
    "str(np.zeros(2))\nnp.set_printoptions(formatter=None)\nc = a + np.ones(3)\n",   # named before its def
    "def grow():\n" + GROW + "    return 1\nr = df.eval('c + @grow()')\nc = a + np.ones(3)\n",  # in a string
])
def test_no_claim_after_a_def_whose_body_may_change_what_the_claim_reads(cell):
    assert claims(cell) == [], cell
    assert run(cell) is None, cell
