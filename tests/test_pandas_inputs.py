"""pandas' own checks on what a lookup or call is given (facts/pandas_inputs.py), the truth of a
Series or array (values.truth_claim), Python's round of an array, a submodule a loaded library
lacks (modules.missing_module) and a list of another length set as a column: each claim held
against the library running the same cell (the exception it names, on the line it names, and a
stop), and the cell a user means instead runs with no claim."""
from __future__ import annotations

import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")

from jupyter_codecheck.core.exact_findings import exact_check  # noqa: E402
from jupyter_codecheck.facts import kernel_facts  # noqa: E402
from cells import raised_at  # noqa: E402


def namespace() -> dict:
    people = pd.DataFrame({"birthyear": [1985, 1984, 1992], "hobby": ["Biking", "Dancing", None],
                           "weight": [68, 83, 112]}, index=["alice", "bob", "charles"])
    temps = pd.Series([4.4, 5.1, 6.1], index=pd.date_range("2016/10/29 5:30pm", periods=3, freq="h"))
    grades = pd.DataFrame({"sep": [8, 10, 5, 2, 1], "oct": [1, 2, 3, 4, 5]})
    staff = pd.DataFrame({"employee": ["Bob", "Jake", "Lisa"], "group": ["Accounting", "Engineering", "HR"]})
    hires = pd.DataFrame({"employee": ["Lisa", "Bob", "Jake"], "hired": [2004, 2008, 2012]})
    return {"pd": pd, "np": np, "people": people, "temps": temps, "aware": temps.tz_localize("UTC"),
            "staff": staff, "hires": hires, "by_name": hires.set_index("employee"), "x": np.linspace(-2, 2, 50),
            "points": [(1, 2), (3, 4)], "plt": __import__("matplotlib.pyplot").pyplot,
            "grades": grades, "grouped": grades.groupby("sep"), "a": np.arange(5.0), "one": np.arange(1)}


CLAIMED = [
    ('people["birthyear", "hobby"]\n', "KeyError", ['people[["birthyear", "hobby"]]']),
    ('grouped["sep", "oct"].mean()\n', "ValueError", ['grouped[["sep", "oct"]]']),
    ("d = pd.date_range('2016/10/29 5:30pm', periods=12, freq='H')\n", "ValueError", ["'h'"]),
    ("d = pd.date_range('2016-01-01', '2016-12-31', None, '2T')\n", "ValueError", ["'2min'"]),
    ('m = temps.resample("M").mean()\n', "ValueError", ["'ME'"]),
    ('g = people.groupby(pd.Grouper(freq="A"))\n', "ValueError", []),     # pandas offers "Y", also refused
    ('p = pd.period_range("2016-01", periods=3, freq="ME")\n', "ValueError", []),
    ('paris = temps.tz_convert("Europe/Paris")\n', "TypeError", []),
    ('again = aware.tz_localize("Europe/Paris")\n', "TypeError", []),
    ('x = people.tz_localize("UTC")\n', "TypeError", []),
    ('people[people["birthyear"] < 1990 and people["weight"] > 70]\n', "ValueError", []),
    ("if people:\n    pass\n", "ValueError", []),
    ("x = a > 2\nif x:\n    pass\n", "ValueError", []),
    ('w = not people["weight"]\n', "ValueError", []),
    ("r = round(a[:3], 1)\n", "TypeError", ["a[:3].round(1)"]),
    ("from matplotlib.patch import Ellipse\n", "ModuleNotFoundError", []),
    ("import pandas.tseries.offset\n", "ModuleNotFoundError", ["pandas.tseries.offsets"]),
    ('grades["hobby"] = ["Biking", "Dancing", np.nan, "Dancing"]\n', "ValueError", []),
    ('r = people.query("weight > 70 and birthyear = 1985")\n', "SyntaxError", []),
    ('people.eval("heavy = weight > limit", inplace=True)\n', "UndefinedVariableError", []),
    ('t = pd.pivot_table(people, index="birthyear")\n', "TypeError", []),       # the mean of a text column
    ('t = people.pivot_table(index="weight")\n', "TypeError", []),
    ("y = x^2\n", "TypeError", []),                                      # numpy's bitwise xor of floats
    ('t = people[people.weight > 70 & people.hobby == "Biking"]\n', "TypeError", []),   # & before ==
    ("fig, ax1, ax2 = plt.subplots(2, 1)\n", "ValueError", []),
    ("a, b, c = np.random.rand(100, 3)\n", "ValueError", []),
    ("people.dropna(inplace=True).head()\n", "AttributeError", []),
    ('w = people.sort_values("weight", inplace=True)["weight"]\n', "TypeError", []),
    ("m = pd.merge(staff, hires, how='full')\n", "ValueError", []),
    ("m = staff.merge(hires, 'employee')\n", "ValueError", []),             # the key read as how=
    ('m = pd.merge(staff, by_name, left_index="employee", right_index=True)\n', "ValueError", []),
    ('m = pd.merge(staff, hires["hired"], on="employee")\n', "KeyError", []),  # a Series without the key
    ('m = pd.merge(staff, hires, on="employee", suffixes={"_l", "_r"})\n', "TypeError", []),
    ('px = 0.8\nt = "x = %0.2f, y = %0.2f" % (px)\n', "TypeError", []),   # Python's % of known values
    ("s = staff.reset_index('employee')\n", "KeyError", []),             # a column, not an index level
    ("t = pd.merge(staff, hires, on='employee').drop(columns='hired', axis=1)\n", "ValueError", []),
    ("d = pd.DataFrame({'name': ['Peter', 'Paul', 'Mary'], 'food': ['fish', 'beans', 'bread']}, index=['a', 'b'])\n",
     "ValueError", []),
    ("d = pd.DataFrame({'a': [1, 2, 3], 'b': [1, 2]})\n", "ValueError", []),
    ("plt.subplot(2, 2)\n", "TypeError", []),                              # 1 or 3 numbers
]


@pytest.mark.parametrize("cell, exception, fixes", CLAIMED)
def test_a_claim_is_the_librarys_own_error_and_a_stop(cell, exception, fixes):
    import matplotlib.patches  # noqa: F401 - loaded, as in a kernel that drew
    ns = namespace()
    facts = [f for f in kernel_facts(cell, ns) if f.kind == "value"]
    raised = raised_at(cell, namespace())
    assert raised is not None and raised[0] == exception, (cell, raised)
    assert [f.line for f in facts] == [raised[1]] and f": {exception}" in facts[0].message, (cell, facts)
    assert all(fix in facts[0].candidates for fix in fixes), facts[0].candidates
    assert [f.line for f in exact_check(cell, ns).certain] == [raised[1]], cell


MEANT = [
    'people[["birthyear", "hobby"]]\n', 'grouped[["oct"]].mean()\n',
    "d = pd.date_range('2016/10/29 5:30pm', periods=12, freq='h')\n", 'm = temps.resample("ME").mean()\n',
    'p = pd.period_range("2016-01", periods=3, freq="M")\n', 'g = temps.groupby(pd.Grouper(freq="YE"))\n',
    'paris = aware.tz_convert("Europe/Paris")\n', 'local = temps.tz_localize("Europe/Paris")\n',
    'people[(people["birthyear"] < 1990) & (people["weight"] > 70)]\n', "if one:\n    pass\n",
    "b = a.sum() > 3 and 1\n", "if len(people):\n    pass\n", "r = np.round(a[:3], 1)\n",
    "r = round(people['weight'], 1)\n", "r = round(a[0], 1)\n", "from matplotlib.patches import Ellipse\n",
    "import pandas.tseries.offsets\n", 'grades["hobby"] = ["Biking", "Dancing", np.nan, "Dancing", "x"]\n',
    'r = people.query("weight > 70 and birthyear == 1985")\n', 'limit = 70\npeople.eval("heavy = weight > @limit", inplace=True)\n',
    'limit = 70\nr = people.query("weight > @limit")\n',
    't = pd.pivot_table(people, index="birthyear", values="weight")\n', 't = people.pivot_table(index="hobby", aggfunc="max")\n',
    "y = x**2\n", "y = np.arange(5) ^ 2\n", 't = people[(people.weight > 70) & (people.hobby == "Biking")]\n',
    "fig, (ax1, ax2) = plt.subplots(2, 1)\n", "a, b, c = np.random.rand(3, 100)\n", "a, b = points\n",
    "people.dropna().head()\n", "m = pd.merge(staff, hires, how='outer')\n", "m = staff.merge(hires, on='employee')\n",
    'm = pd.merge(staff, by_name, left_on="employee", right_index=True)\n',
    'px = 0.8\nt = "x = %0.2f, y = %0.2f" % (px, px ** 2)\n', "s = by_name.reset_index('employee')\n",
    "t = pd.merge(staff, hires, on='employee').drop(columns='hired')\n",
    "d = pd.DataFrame({'name': ['Peter', 'Paul'], 'food': ['fish', 'beans']}, index=['a', 'b'])\n",
    "d = pd.DataFrame({'a': [1, 2, 3], 'b': 5})\n", "plt.subplot(2, 2, 1)\n",
]


@pytest.mark.parametrize("cell", MEANT)
def test_no_claim_where_the_library_takes_it(cell):
    assert [f for f in kernel_facts(cell, namespace()) if f.kind == "value"] == [], cell
    assert raised_at(cell, namespace()) is None, cell


def test_no_claim_where_the_class_or_the_object_is_the_users(monkeypatch):
    class Frame(pd.DataFrame):
        pass
    ns = dict(namespace(), sub=Frame({"a": [1, 2]}))
    assert kernel_facts('sub["a", "b"]\n', ns) == []
    monkeypatch.setattr(pd.Series, "__bool__", lambda self: True)       # the user's truth on pandas' class
    assert [f for f in kernel_facts('w = not people["weight"]\n', namespace()) if f.kind == "value"] == []


def test_a_row_label_missing_from_a_multiindexs_first_level():
    d5 = pd.DataFrame({("public", "birthyear"): {("Paris", "alice"): 1985, ("London", "charles"): 1992},
                       ("private", "weight"): {("Paris", "alice"): 68, ("London", "charles"): 112}})
    later = d5.loc[["Paris"]]             # "London" stays among the levels' values, unused by its rows
    for cell, ns in [('d5.loc["public"]\n', {"d5": d5}), ('d5.loc["Pariss", "public"]\n', {"d5": d5}),
                     ('later.loc["London"]\n', {"later": later})]:
        facts = kernel_facts(cell, ns)
        assert [(f.kind, f.line) for f in facts] == [("key", 1)], (cell, facts)
        assert raised_at(cell, dict(ns)) == ("KeyError", 1), cell
    for cell in ['d5.loc["Paris"]\n', 'd5["public"]\n', 'd5.loc["Paris", "alice"]\n']:
        assert kernel_facts(cell, {"d5": d5}) == [], cell
        assert raised_at(cell, {"d5": d5}) is None, cell
    # a slice of the rows: the second part is the columns' (a list of a level's labels)
    assert [f.kind for f in kernel_facts('d5.loc[:, ["public", "weight"]]\n', {"d5": d5})] == ["key"]
    assert raised_at('d5.loc[:, ["public", "weight"]]\n', {"d5": d5}) == ("KeyError", 1)


def test_a_writer_into_a_folder_that_does_not_exist_or_a_reader_of_a_file_that_does_not(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "made").mkdir()
    (tmp_path / "made" / "there.csv").write_text("a,b\n1,2\n")
    kernel = {"_dh": [str(tmp_path)]}          # IPython's directory history: a kernel's namespace
    for cell, raised in [('people.to_csv("out/people.csv")\n', ("OSError", 1)),
                         ('people["weight"].to_json(path_or_buf="out/w.json")\n', ("OSError", 1)),
                         ('people.to_csv("made/people.csv")\n', None), ('people.to_csv("people.csv")\n', None),
                         ('import os\nos.makedirs("out")\npeople.to_csv("out/people.csv")\n', None),
                         ('t = pd.read_csv("state-population.csv")\n', ("FileNotFoundError", 1)),
                         ('t = pd.read_csv("data/there.csv")\n', ("FileNotFoundError", 1)),
                         ('a = np.loadtxt("made/none.txt")\n', ("FileNotFoundError", 1)),
                         ('t = pd.read_csv("made/there.csv")\n', None),
                         ('people.to_csv("again.csv")\nt = pd.read_csv("again.csv")\n', None)]:
        facts = [f.line for f in kernel_facts(cell, dict(namespace(), **kernel)) if f.kind == "value"]
        assert facts == ([raised[1]] if raised else []), (cell, facts)
        assert [f.line for f in exact_check(cell, dict(namespace(), **kernel)).certain] == facts, cell
        assert raised_at(cell, namespace()) == raised, cell
        if raised:          # no kernel's namespace (the command line): the path is not read here
            assert [f for f in kernel_facts(cell, namespace()) if f.kind == "value"] == [], cell


REVIEWED = [   # a review's cells that run: no claim (each was one, or a stop, before it was mended)
    ("df.fillna(0, inplace=True).head()\n", {}),                 # pandas 3 returns the object there
    ("c = df.dropna(inplace=True).__class__\n", {}),
    ("x = df.drop(columns='a', axis='columns')\n", {}), ("x = df.drop(index=0, axis=0)\n", {}),
    ("q = ps.asfreq('Q')\n", {}), ("q = ps.resample('Y').sum()\n", {}),    # a PeriodIndex: a period's rule
    ("d = pd.DataFrame({'a': [1, 2, 3], 'a': [1, 2]})\n", {}),   # the last value of a key written twice
    ("dup['a'] = [1, 2]\n", {}),                                 # one value for each column of that name
    ("df.index.set_names('zz', inplace=True)\nr = df.reset_index('zz')\n", {}),
    ("i = df.index\ni.name = 'zz'\nr = df.query('zz >= 0')\n", {}),
    ("p = empty ** -1\n", {}), ("m = pd.merge(a, b, on='k')\n", {}),  # object keys: inferred from all rows
    ("x = np.arange(3.0)\nx.tofile('a.bin')\ny = np.fromfile('a.bin')\n", {"_dh": []}),
    ("import os\nlist(map(os.mkdir, ['out']))\npeople.to_csv('out/x.csv')\n", {"_dh": []}),
    ("import os\nd = {}\nd[people.to_csv('out/x.csv')] = os.makedirs('out')\n", {"_dh": []}),   # the value runs first
    ("c = df.dropna(inplace=True).__doc__\n", {}),
]


@pytest.mark.parametrize("cell, extra", REVIEWED)
def test_no_claim_where_a_review_found_the_cell_runs(cell, extra, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def ns():
        a = pd.DataFrame({"k": np.arange(100, dtype=float)})
        b = pd.DataFrame({"k": pd.Series([None] * 60 + list(range(40)), dtype=object), "w": 1})
        return dict(namespace(), df=pd.DataFrame({"a": [1.0, np.nan], "b": [3, 4]}),
                    ps=pd.Series(range(24), index=pd.period_range("2020-01", periods=24, freq="M")),
                    dup=pd.DataFrame(np.zeros((3, 2)), columns=["a", "a"]), empty=np.arange(0), a=a, b=b, **extra)
    assert [f for f in kernel_facts(cell, ns()) if f.kind in ("value", "key")] == [], cell
    assert raised_at(cell, ns()) is None, cell


def test_no_rule_runs_the_users_code_or_their_replacement_of_a_library_function(monkeypatch):
    ran = []

    class K:
        def __init__(self, v):
            self.v = v

        def __hash__(self):
            ran.append("K.__hash__")
            return hash(self.v)

        def __eq__(self, other):
            ran.append("K.__eq__")
            return isinstance(other, K) and self.v == other.v

        def __lt__(self, other):
            ran.append("K.__lt__")
            return self.v < other.v
    a = pd.DataFrame({"k": [K(1), K(2)], "v": [1, 2]})
    b = pd.DataFrame({"k": [K(2), K(1)], "v": [3, 4]})
    assert kernel_facts("m = pd.merge(a, b, on='k', how='full')\n", dict(namespace(), a=a, b=b)) == [] and ran == []
    monkeypatch.setattr(math_module(), "sin", lambda x: ran.append("sin") or 0.0)
    assert kernel_facts("s = math.sin(x)\n", dict(namespace(), math=math_module())) == [] and ran == []
    monkeypatch.setattr(pd.Series, "__and__", lambda self, other: ran.append("__and__") or self)
    assert [f for f in kernel_facts('t = people.hobby & 1\n', namespace()) if f.kind == "value"] == [] and ran == []
    astype = pd.Series.astype
    monkeypatch.setattr(pd.Series, "astype", lambda self, *a, **k: ran.append("astype") or astype(self, *a, **k))
    assert [f for f in kernel_facts('r = people["hobby"].astype(int)\n', namespace()) if f.kind == "value"] == []
    assert ran == []


def test_a_query_naming_the_cells_functions_is_the_users_code_no_stop_after_it():
    ns = dict(namespace(), mk=lambda: 1)
    assert exact_check('r = people.query("@mk() + weight > 0")\nq = people["zz"]\n', ns).certain == []


def math_module():
    import math
    return math
