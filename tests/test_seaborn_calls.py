"""facts/seaborn_calls.py: a variable named by text that is no column of seaborn's data,
held against seaborn running: every function and variable of its table, both ways."""
from __future__ import annotations

import warnings

import matplotlib
import pandas as pd
import pytest

from jupyter_codecheck.facts import kernel_facts
from jupyter_codecheck.facts.seaborn_calls import KEYWORDS, VARIABLES

matplotlib.use("Agg")
sns = pytest.importorskip("seaborn")
import matplotlib.pyplot as plt  # noqa: E402


def frame() -> pd.DataFrame:
    return pd.DataFrame({"a": [1.0, 2, 3, 4, 5, 6], "b": [4.0, 5, 6, 7, 1, 2], "c": list("xyxyxy"),
                         "d": list("ppqqpq"), "w": [1.0] * 6})


def raised(cell: str, ns: dict) -> str | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(compile(cell, "<cell>", "exec"), dict(ns))
        except Exception as e:  # noqa: BLE001 - what the library raises is compared
            return type(e).__name__
        finally:
            plt.close("all")
    return None


def _base(name: str) -> str:
    """Variables that make a plot of each function (the regressions need both x and y)."""
    return "x='a', y='b'" if name in ("regplot", "residplot", "lmplot") else "x='c', y='a'" \
        if name == "lineplot" else "x='a'"


CASES = [(name, v) for name, (names, _) in VARIABLES.items() for v in names]


@pytest.mark.parametrize("name, variable", CASES)
def test_a_variable_naming_no_column_is_what_seaborn_raises(name, variable):
    ns = {"sns": sns, "df": frame()}
    base = _base(name)
    given = ", ".join(p for p in base.split(", ") if not p.startswith(f"{variable}="))
    cell = f"sns.{name}(data=df, {given + ', ' if given else ''}{variable}='zz')\n"
    if name == "countplot" and variable == "y":
        cell = "sns.countplot(data=df, y='zz')\n"
    facts = kernel_facts(cell, ns)
    assert [(f.kind, f.message.rsplit(": ", 1)[1]) for f in facts] == [("value", VARIABLES[name][1])], (cell, facts)
    assert raised(cell, ns) == VARIABLES[name][1], cell
    named = cell.replace("'zz'", "'w'" if variable in ("weights", "size") else "'d'")
    assert kernel_facts(named, ns) == [], named


def test_no_claim_where_the_name_is_an_index_level_the_frame_changed_or_another_check_comes_first():
    indexed = frame().set_index("d")
    ns = {"sns": sns, "df": frame(), "indexed": indexed}
    cells = ["sns.scatterplot(data=indexed, x='a', y='b', hue='d')\n",          # an index level's name
             "df['e'] = df['a']\nsns.scatterplot(data=df, x='a', y='e')\n",      # a column the cell adds
             "sns.countplot(data=df, x='c', y='zz')\n",                          # TypeError: both x and y
             "sns.scatterplot(data=df[df.a > 1], x='a', y='zz')\n"]             # data not read
    for cell in cells:
        assert kernel_facts(cell, ns) == [], cell
    assert raised(cells[0], ns) is None and raised(cells[1], ns) is None
    assert raised(cells[2], ns) == "TypeError"


def test_text_with_no_data_at_all():
    ns = {"sns": sns}
    cell = "sns.histplot(x='a')\n"
    assert [f.message.rsplit(": ", 1)[1] for f in kernel_facts(cell, ns)] == ["ValueError"]
    assert raised(cell, ns) == "ValueError"


def test_a_frame_of_the_users_labels_is_not_read():
    class Label(str):
        def __eq__(self, other):
            raise AssertionError("the user's label was compared")

        __hash__ = str.__hash__

    df = pd.DataFrame({Label("a"): [1.0, 2.0]})
    assert kernel_facts("sns.histplot(data=df, x='zz')\n", {"sns": sns, "df": df}) == []


def _drawn(name: str) -> str:
    """Variables each function of KEYWORDS draws with: columns of `df`."""
    return {"countplot": "x='c'", "histplot": "x='a'", "rugplot": "x='a'"}.get(name, "x='c', y='a'")


@pytest.mark.parametrize("name", sorted(KEYWORDS))
def test_a_keyword_the_artist_refuses_is_what_seaborn_raises_and_a_property_is_taken(name):
    ns = {"sns": sns, "df": frame(), "empty": frame().iloc[:0]}
    plt.close("all")
    cell = f"sns.{name}(data=df, {_drawn(name)}, colr='r')\n"
    facts = kernel_facts(cell, ns)
    assert [(f.kind, f.message.rsplit(": ", 1)[1]) for f in facts] == [("value", "AttributeError")], (cell, facts)
    assert raised(cell, ns) == "AttributeError"
    assert facts[0].candidates == ["color='r'"]
    fixed = cell.replace("colr=", "alpha=0.5, color=")
    assert kernel_facts(fixed, ns) == [] and raised(fixed, ns) is None, fixed
    # no row: no artist, nothing refuses the keyword
    none = cell.replace("data=df", "data=empty")
    assert kernel_facts(none, ns) == []
    if name not in ("histplot", "scatterplot", "lineplot", "rugplot"):
        assert raised(none, ns) is None


@pytest.mark.parametrize("cell", [
    "sns.lineplot(data=df, x='a', colr='r')\n",               # lineplot needs y: KeyError first
    "sns.scatterplot(data=df, hue='c', colr='r')\n",          # hue alone: ValueError first
    "sns.histplot(data=df, x='a', element='step', colr='r')\n",   # another artist
    "sns.countplot(data=df, x='c', ax=ax, colr='r')\n",       # an Axes given: not read
    "sns.countplot(data=df, x=df['c'], colr='r')\n",          # a vector, not a column's name
    "sns.histplot(data=df, x='a', y='b', shading='auto')\n",  # both: a QuadMesh, which takes it
    "sns.countplot(data=nan, x='d', hue='c', colr='r')\n",    # no row with every variable: nothing drawn
    "sns.lineplot(data=df, x='c', y='a', units='d', colr='r')\n",   # units need estimator=None first
])
def test_no_keyword_claim_where_another_check_or_artist_may_come_first(cell):
    fig, ax = plt.subplots()
    nan = frame().assign(c=float("nan"))
    ns = {"sns": sns, "df": frame(), "ax": ax, "nan": nan}
    assert kernel_facts(cell, ns) == [], cell
    plt.close("all")


def test_no_keyword_claim_on_a_current_axes_of_the_users_class():
    from matplotlib.axes import Axes

    class Mine(Axes):
        def bar(self, *args, **kwargs):
            kwargs.pop("colr", None)
            return super().bar(*args, **kwargs)

    fig = plt.figure()
    fig.add_axes(Mine(fig, (0, 0, 1, 1)))
    cell = "sns.countplot(data=df, x='c', colr='r')\n"
    ns = {"sns": sns, "df": frame()}
    assert kernel_facts(cell, ns) == []
    plt.close("all")
