"""The mutation operators of bench/notebook_mutations.py on a small real notebook state (pandas,
numpy, scikit-learn): each makes a mutant that crashes, when run, with the exception its kind
stands for; and the benchmark's forked copies of a real shell give each mutant's truth."""
from __future__ import annotations

import random
from types import SimpleNamespace

import pytest
from bench_modules import bench_module

mutations = bench_module("mutations")

STATE = """
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
df = pd.DataFrame({"price": [1.0, 2.0, 3.0, 4.0], "rooms": [1, 2, 3, 4], "city": ["Oslo", "Rome", "Oslo", "Lima"]})
y = np.array([0, 1, 0, 1])
A = np.ones((4, 3))
B = np.ones((3, 2))
X = df[["price", "rooms"]]
model = LogisticRegression()
"""

# (kind, cell, the exception every mutant of that kind raises)
CASES = [
    ("column-typo", 'total = df["price"].sum()\n', "KeyError"),
    ("attribute-typo", "n = df.price.count()\n", "AttributeError"),
    ("keyword-typo", 'top = df.sort_values(by="price", ascending=False)\n', "TypeError"),
    ("1d-slice", 'model.fit(df[["price"]], y)\n', "ValueError"),
    ("1d-slice", "model.fit(X, y)\n", "ValueError"),
    ("text-column", 'model.fit(df[["price", "rooms"]], y)\n', "ValueError"),
    ("text-column", "model.fit(X, y)\n", "ValueError"),
    ("shape-mismatch", "C = A @ B\n", "ValueError"),
    ("shape-mismatch", "D = A * A\n", "ValueError"),
    ("shape-mismatch", "D = A - A.mean(axis=0)\n", "ValueError"),
    ("axis-range", "s = A.sum(axis=1)\n", "AxisError"),
    ("axis-range", "s = np.vstack([A, A]).sum(axis=1)\n", "AxisError"),
    ("dropped-column", 'm = df["rooms"].mean()\n', "KeyError"),
    ("dropped-column-in-cell", 'print(1)\nm = df["rooms"].mean()\n', "KeyError"),
    ("skipped-definition", "z = y + 1\n", "NameError"),
]


def state() -> dict:
    ns: dict = {}
    exec(STATE, ns)
    return ns


def outcome(m) -> list[str]:
    """The names of the classes of what the mutant raises, run in a fresh copy of the state."""
    ns = state()
    try:
        exec(m.prelude + m.source, ns)
    except Exception as e:  # noqa: BLE001 - what it raises is the point
        return [k.__name__ for k in type(e).__mro__]
    return []


@pytest.mark.parametrize(("kind", "cell", "raises"), CASES)
def test_each_operator_makes_mutants_that_crash_as_their_kind_says(kind, cell, raises):
    ns = state()
    assert outcome(SimpleNamespace(prelude="", source=cell)) == []          # the original runs
    made = mutations.OPERATORS[kind](mutations._Cell.read(cell, ns, ()), random.Random(0))
    assert made, kind
    for m in made:
        assert m.kind == kind
        assert (m.source, m.prelude) != (cell, "")
        assert raises in outcome(m), (m.change, m.prelude + m.source)


def test_a_text_column_into_a_model_where_no_frame_holds_text():
    ns = state()
    ns.update(Z=ns["X"].astype(float), y=ns["y"][:2])
    ns["Z"] = ns["Z"].iloc[:2]
    made = mutations.text_column(mutations._Cell.read("model.fit(Z, y)\n", ns, ()), random.Random(0))
    assert [m.prelude for m in made] == ["Z = Z.assign(split='train')\n"]
    try:
        exec(made[0].prelude + made[0].source, ns)
    except ValueError as e:
        assert "could not convert string to float: 'train'" in str(e)
    else:
        raise AssertionError("ran")


def test_a_text_column_stacked_onto_an_array_x():
    ns = state()
    exec("model.fit(A, y)\n", dict(ns))                # runs as written
    made = mutations.text_column(mutations._Cell.read("model.fit(A, y)\n", ns, ()), random.Random(0))
    assert len(made) == 1 and "column_stack" in made[0].prelude
    assert outcome(made[0])[0] == "ValueError"          # scikit-learn's input check refuses text


def test_objects_the_cell_binds_itself_are_read_from_a_run_of_it():
    ns, cell = state(), "arr = np.ones((2, 3))\nout = arr * arr\n"
    assert mutations.uses_own_bindings(cell) == ["arr"]
    assert mutations.shape_mismatch(mutations._Cell.read(cell, ns, ()), random.Random(0)) == []
    made = mutations.shape_mismatch(mutations._Cell.read(cell, ns, (), bound={"arr": ns["np"].ones((2, 3))}),
                                    random.Random(0))
    assert made and all(m.reach == "derived" and "ValueError" in outcome(m) for m in made)


def test_a_mutant_says_whether_the_cell_changes_or_computes_the_object_first():
    ns, cell = state(), 'k = df.shape\ndf["price"] = 0\nn = df.rooms.count()\nd = df.copy()\nm = d.rooms.count()\n'
    made = mutations.attribute_typo(mutations._Cell.read(cell, ns, (), bound={"d": ns["df"].copy()}),
                                    random.Random(0))
    assert {(m.line, m.reach) for m in made} >= {(1, "live"), (3, "changed"), (5, "derived")}


def test_a_column_being_made_and_code_in_a_function_are_not_mutated():
    ns = state()
    made = mutations._Cell.read('df.loc[:, "price"] = 0\ndf["rooms"] = 1\n', ns, ())
    assert mutations.column_typo(made, random.Random(0)) == []
    deferred = mutations._Cell.read('def f():\n    return df["price"].sum(axis=0)\n', ns, ())
    assert not any(op(deferred, random.Random(0)) for op in mutations.OPERATORS.values())


def test_mutants_of_a_cell_are_of_different_kinds_and_follow_the_seed():
    ns, cell = state(), 'model.fit(df[["price", "rooms"]], y)\nprint(A.sum(axis=0))\n'
    first = mutations.mutants(cell, ns, random.Random(7), per_cell=4)
    assert len(first) == 4 and len({m.kind for m in first}) == 4
    assert [m.to_dict() for m in first] == [m.to_dict() for m in mutations.mutants(cell, ns, random.Random(7), 4)]


def test_each_mutant_runs_in_a_forked_copy_of_a_real_shell_and_the_notebook_goes_on(tmp_path):
    bench = bench_module("notebook_mutations")
    cells = ["import pandas as pd\ndf = pd.DataFrame({'price': [1.0, 2.0], 'rooms': [1, 2]})\n",
             "total = df['price'].sum()\nhalf = total / 2\n",
             "assert total == 3.0 and 'rooms' in df.columns\n",
             "open('missing.csv')\n"]
    args = SimpleNamespace(seed=0, per_cell=3, cell_timeout=20)
    recs = bench.run_notebook("tiny", cells, args)
    assert [r["error"] and r["error"][0] for r in recs] == [None, None, None, "FileNotFoundError"]
    # the copies' changes (a name deleted, a column dropped) never reached the shell: cell 3 ran
    assert recs[1]["mutants"] and recs[2]["mutants"]
    assert recs[3]["mutants"] == []                     # the original failed: no mutant counted
    for m in recs[1]["mutants"] + recs[2]["mutants"]:
        assert m["error"] is not None, m                # each of these crashes
        assert bench.verdict(m) in ("predicted", "other kind", "missed"), m
        if m["kind"] == "skipped-definition":
            assert m["error"][0] == "NameError" and bench.verdict(m) == "predicted", m


def test_a_worker_that_breaks_is_said_not_silent(capsys):
    """A notebook's worker that ends early (a code tree that does not import, a crash) is named on
    stderr with its reason and the cells it recorded, not left to show as fewer cells run."""
    shell = bench_module("notebook_shell")
    assert shell.run_worker("raise SystemExit('cannot import the checker')", ["nb.ipynb"], ["a = 1"], 30) == []
    said = capsys.readouterr().err
    assert "nb.ipynb ended early" in said and "cannot import the checker" in said and "0 of 1 cells" in said
