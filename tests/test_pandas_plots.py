"""facts/pandas_plots.py: a keyword pandas' plotting hands on to a matplotlib artist that refuses
it, held against pandas running: each claimed cell raises AttributeError, its fix runs unclaimed."""
from __future__ import annotations

import matplotlib
import numpy as np
import pandas as pd
import pytest

from jupyter_codecheck.facts import kernel_facts
from test_seaborn_calls import raised  # the cell run as a kernel would, its exception's name

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


@pytest.fixture
def ns():
    plt.close("all")
    df = pd.DataFrame({"a": [1.0, 2, 3, 4], "b": [4, 5, 6, 7], "c": list("xyxy")})
    yield {"pd": pd, "plt": plt, "df": df, "s": df["a"], "text": df[["c"]], "empty": df.iloc[:0],
           "flags": pd.Series([True, False]), "nothing": pd.Series([np.nan, np.nan])}
    plt.close("all")


@pytest.mark.parametrize("cell", [
    "df.plot(colr='r')\n", "df.plot(kind='bar', colr='r')\n", "df.plot(kind='barh', stacked=True, colr='r')\n",
    "s.plot(kind='hist', bins=3, colr='r')\n", "df['a'].plot(figsize=(3, 3), titel='x')\n",
    "df.plot.bar(colr='r')\n", "s.plot.line(lw=2, colr='r')\n", "df.plot(subplots=True, layout=(1, 2), colr='r')\n",
    "df.plot(kind='area', colr='r')\n", "df.hist(bins=3, colr='r')\n", "s.hist(bins=3, colr='r')\n",
    "df['c'].value_counts().plot(kind='bar', colr='r')\n",
    "df['c'].value_counts(normalize=True).plot.barh(colr='r')\n",
])
def test_a_keyword_the_artist_refuses_is_claimed_and_its_fix_runs(cell, ns):
    facts = kernel_facts(cell, ns)
    assert [(f.kind, f.message.rsplit(": ", 1)[1]) for f in facts] == [("value", "AttributeError")], (cell, facts)
    assert raised(cell, ns) == "AttributeError"
    fixed = cell.replace("colr=", "color=").replace("titel=", "title=")
    assert kernel_facts(fixed, ns) == [] and raised(fixed, ns) is None, fixed


@pytest.mark.parametrize("cell", [
    "df.plot(kind='bar', title='t', grid=True, legend=False, rot=45, fontsize=8, alpha=0.5, color='r')\n",
    "s.plot(kind='hist', bins=3, edgecolor='k', density=True, cumulative=True)\n",
    "df.plot(style='--', logy=True, xlim=(0, 3), secondary_y=['b'], mark_right=False)\n",
    "empty.plot(kind='bar', colr='r')\n",            # no row: no bar
    "text.plot(colr='r')\n",                         # no numbers: TypeError first
    "flags.plot(colr='r')\n",                        # booleans: not plotted either
    "df.plot(kind='kde', colr='r')\n",               # a kind not read
    "df.plot(kind=k, colr='r')\n",                   # a kind not written
    "df.plot(ax=ax, colr='r')\n",                    # an Axes given
    "pd.set_option('plotting.backend', 'matplotlib')\ndf.plot(colr='r')\n",   # options the cell sets
    "nothing.value_counts().plot(kind='bar', colr='r')\n",     # no value counted: no bar
    "df.plot(x='zz', colr='r')\n",                             # a column named: pandas looks it up first
    "df.plot(y='c', colr='r')\n",                              # ...or plots it (text: TypeError)
])
def test_no_claim_where_pandas_takes_the_keyword_or_may_fail_otherwise(cell, ns):
    fig, ax = plt.subplots()
    objects = dict(ns, k="kde", ax=ax)
    assert [f for f in kernel_facts(cell, objects) if f.message.endswith("AttributeError")] == [], cell
    if "colr" not in cell:
        assert raised(cell, objects) is None, cell


def test_no_claim_where_pandas_plotting_is_the_users():
    class Frame(pd.DataFrame):
        def plot(self, **kwargs):
            return None

    objects = {"df": Frame({"a": [1.0, 2.0]})}
    assert kernel_facts("df.plot(colr='r')\n", objects) == []
    assert raised("df.plot(colr='r')\n", objects) is None


def test_the_words_of_a_module_not_yet_imported_are_read_from_its_file():
    from jupyter_codecheck.facts.matplotlib_properties import _module_source
    source = _module_source("pandas.plotting._matplotlib.core")
    assert source is not None and "class MPLPlot" in source
    assert _module_source("pandas.no_such_module_here") is None
    np.testing.assert_equal(_module_source("json") is not None, True)


def test_reading_a_frame_of_an_array_of_the_users_class_runs_none_of_its_code():
    from pandas.api.extensions import ExtensionArray, ExtensionDtype
    ran = []

    class Kind(ExtensionDtype):
        name, type, na_value = "kind37", float, np.nan

        @property
        def kind(self):
            ran.append("kind")
            return "f"

        @classmethod
        def construct_array_type(cls):
            return Values

    class Values(ExtensionArray):
        def __init__(self, values):
            self._v = np.asarray(values, dtype=float)

        @classmethod
        def _from_sequence(cls, scalars, dtype=None, copy=False):
            return cls(scalars)

        def __getitem__(self, i):
            r = self._v[i]
            return type(self)(r) if isinstance(r, np.ndarray) else r

        def __len__(self):
            ran.append("len")
            return len(self._v)

        @property
        def dtype(self):
            return Kind()

        def isna(self):
            ran.append("isna")
            return np.isnan(self._v)

        def copy(self):
            return type(self)(self._v.copy())

    s = pd.Series(Values([1.0, 2.0, 2.0]))
    ran.clear()
    for cell in ("s.plot(colr='r')\n", "s.value_counts().plot(kind='bar', colr='r')\n", "s.hist(colr='r')\n"):
        assert kernel_facts(cell, {"s": s}) == [], cell
    assert ran == []

