"""What a `def` runs: nothing of its body until it is called (facts/flow.py's `deferred`). A
cell that defines a function beside straight-line code keeps its claims on the lines before the
user's code may run; once it may (the function named anywhere but its `def`: called, given to a
call, stored, aliased; a decorator), every name those bodies read may have changed. A class's
methods are read as run where the class stands (a class may run them as it is made).
Each cell is run against the libraries: a claim is the exception its line raises; a cell where
the body ran first gets none."""
from __future__ import annotations

import traceback

import matplotlib
import numpy as np
import pytest

from jupyter_codecheck.facts import kernel_facts

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def namespace() -> dict:
    return {"np": np, "plt": plt, "a": np.arange(6.0)}


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
    # a body that gives the Axes to a call, or changes the live array: defined, never run
    "def show(ax):\n    describe(ax)\nx = np.linspace(0, 1, 10)\nfig, ax = plt.subplots()\nax.plot(x, x[1:])\n",
    "def grow():\n" + GROW + "c = a + np.ones(3)\n",
    "def label(ax):\n    return ax.text(0.7, 0.9, '', transform=ax.transAxes)\n"
    "x = np.arange(0, 1, 0.01)\nfig, ax = plt.subplots()\nax.fill_between(x, 2 * np.pi * x[:-1])\nlabel(ax)\n",
    "for k in range(2):\n    def grow():\n" + GROW.replace("    ", "        ") + "c = a + np.ones(3)\n",
])
def test_a_claim_stands_beside_a_definition_that_has_not_run(cell):
    found = claims(cell)
    assert len(found) == 1, (cell, found)
    assert run(cell) == ("ValueError", found[0].line), (cell, found[0].message, run(cell))


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
])
def test_no_claim_once_the_body_may_have_run(cell):
    assert claims(cell) == [], cell
    assert run(cell) is None, cell
