"""An attribute of a pandas object the cell makes (facts/pandas_lookup.py): a Series or
DataFrame pandas' constructor makes, a GroupBy or a rolling window of a frame or Series: pandas'
`__getattr__` answers its labels, so a name its class lacks is an AttributeError only where the
labels are known exactly. Each claim is held against pandas by running the cell."""
from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pandas as pd
import pytest

from jupyter_codecheck.facts import kernel_facts


FRAME = pd.DataFrame(np.arange(12).reshape((4, 3)), index=[["a", "a", "b", "b"], [1, 2, 1, 2]],
                     columns=[["Ohio", "Ohio", "Colorado"], ["Green", "Red", "Green"]])


def namespace(**objects) -> dict:
    return {"pd": pd, "np": np, "values": np.arange(4.0), "data": {"state": ["Ohio"], "pop": [1.5]}, "frame": FRAME,
            "df": pd.DataFrame({"key1": ["a", "b", "a"], "data1": [1.0, 2.0, 3.0]}),
            "deck": pd.Series([1, 2], index=["AH", "2H"]), **objects}


def raised(cell: str, ns: dict) -> str | None:
    try:
        exec(compile(cell, "<cell>", "exec"), dict(ns))
    except Exception as e:  # noqa: BLE001 - what pandas raises is compared
        return type(e).__name__
    return None


@pytest.mark.parametrize("cell, attribute", [
    ("s = pd.Series([1.0, np.nan, 3.5])\ns.fillla(0)\n", "fillla"),                # a RangeIndex
    ("s = pd.Series(values)\nr = s.rolling(3).men()\n", "men"),                      # Rolling of it
    ("obj = pd.Series(np.arange(5.), index=['a', 'b', 'c', 'd', 'e'])\nobj.dxop('c')\n", "dxop"),
    ("obj = pd.Series(['blue', 'red'], index=[0, 2])\nobj.rnindex(np.arange(6))\n", "rnindex"),
    ("frame = pd.DataFrame({'state': ['Ohio'], 'year': [2000]})\nframe.yaer\n", "yaer"),
    ("n = df.groupby(['key1']).siize()\n", "siize"),                                  # of a live frame
    ("m = df['data1'].groupby(df['key1']).maen()\n", "maen"),
    ("d = deck.groupby(len, group_keys=False).appply(len)\n", "appply"),              # a Series' index
    ("e = df.expanding().smu()\n", "smu"),
    ("perf = pd.DataFrame(data)\nperf.haed()\n", "haed"),                            # a live dict's keys
    ("d = pd.DataFrame(np.random.standard_normal((7, 3)))\nd.ilo[:4, 1] = np.nan\n", "ilo"),
    ("x = df.fillna(0).head(2).key11\n", "key11"),                                   # labels kept, none added
])
def test_a_name_neither_the_class_nor_the_labels_answer(cell, attribute):
    ns = namespace()
    facts = [f for f in kernel_facts(cell, ns) if f.kind == "attribute"]
    assert [f.message.rpartition(" ")[2] for f in facts] == [repr(attribute)], facts
    assert raised(cell, ns) == "AttributeError"


GROUPED = {"grouped": pd.DataFrame({"key1": ["a", "b", "a"], "data1": [1.0, 2.0, 3.0]}).groupby("key1")}


@pytest.mark.parametrize("cell, kind, raises", [
    ("grouped['dtaa1'].nsmallest(2)\n", "key", "KeyError"),                      # a grouping the kernel holds
    ("g = df.groupby('key1')\ng[['data1', 'dat2']].mean()\n", "key", "KeyError"),   # one the cell made
    ("s = df.groupby(['key1'])['data1']\ns.mena()\n", "attribute", "AttributeError"),   # its column's SeriesGroupBy
    ("x = df.groupby('key1')['data1'].smu()\n", "attribute", "AttributeError"),
    ("x = grouped['data1'].nsmalest(2)\n", "attribute", "AttributeError"),
    ("x = grouped[['data1']].maen()\n", "attribute", "AttributeError"),
])
def test_a_column_selected_of_a_grouping(cell, kind, raises):
    """`g["col"]` selects among the grouped frame's columns (else KeyError) and is a SeriesGroupBy
    answering attributes from the frame's index; `g[[...]]` a DataFrameGroupBy of the frame."""
    ns = namespace(**GROUPED)
    assert [f.kind for f in kernel_facts(cell, ns)] == [kind], kernel_facts(cell, ns)
    assert raised(cell, ns) == raises


@pytest.mark.parametrize("cell", [
    "grouped['key1'].count()\n",                     # the grouping column itself is selectable
    "g = df.groupby('key1')\ng[['data1']].sum()\n",
    "x = grouped['data1'].mean()\n",
    "x = df.groupby('key1')['data1'].max().idxmax()\n",
    # the grouping answers from its frame: a column the cell adds to that frame first is there
    "df['new'] = 1.0\nx = grouped['new'].sum()\n",
    "df['new'] = 1.0\nx = grouped.new.sum()\n",
    "df.insert(0, 'new', 1.0)\nx = grouped['new'].sum()\n",
])
def test_a_column_selected_of_a_grouping_that_runs(cell):
    frame = pd.DataFrame({"key1": ["a", "b", "a"], "data1": [1.0, 2.0, 3.0]})
    ns = namespace(df=frame, grouped=frame.groupby("key1"))        # the grouping of that very frame
    assert kernel_facts(cell, ns) == []
    assert raised(cell, ns) is None


def test_a_selected_column_answers_the_frames_index_labels():
    """pandas' lookup finds "AH" in the column's index and selects it (failing otherwise than
    with AttributeError): no attribute claim there."""
    cell = "x = deck.to_frame('v').groupby(len)['v'].AH\n"
    assert kernel_facts(cell, namespace()) == []
    assert raised(cell, namespace()) not in (None, "AttributeError")


def test_a_multiindex_first_level_answers_through_a_method_annotated_to_return_a_frame():
    """`swaplevel` is annotated `-> DataFrame`: its result is of that class only while DataFrame
    has no subclass in the process (returns._leaf), and other tests here define some (a user's
    subclass turns the rule off, as in a kernel): so a fresh interpreter holds it."""
    code = textwrap.dedent('''
        import numpy as np, pandas as pd
        from jupyter_codecheck.facts import kernel_facts
        frame = pd.DataFrame(np.arange(12).reshape((4, 3)), index=[["a", "a", "b", "b"], [1, 2, 1, 2]],
                             columns=[["Ohio", "Ohio", "Colorado"], ["Green", "Red", "Green"]])
        cell = "frame.swaplevel(0, 1).sort_inyex(level=0)\\n"
        facts = [f.message.rpartition(" ")[2] for f in kernel_facts(cell, {"pd": pd, "frame": frame})
                 if f.kind == "attribute"]
        try:
            exec(cell, {"frame": frame})
            raised = None
        except AttributeError:
            raised = "AttributeError"
        print(facts, raised)
    ''')
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["[\"'sort_inyex'\"]", "AttributeError"], out


@pytest.mark.parametrize("cell", [
    "x = pd.DataFrame({'price': [1]}).price\n",                 # a column: pandas answers it
    "s = pd.Series({'a': 1, 'b': 2})\nx = s.a\n",               # an index label
    "obj = pd.Series([1, 2], index=['fillla', 'b'])\nx = obj.fillla\n",
    "g = df.groupby('key1').data1\n",                           # a column of the grouped frame
    "r = df.rolling(2).data1\n",
    "k = df.groupby('key1').keys\n",                            # what pandas' __init__ sets on it
    "w = pd.Series(values).rolling(2).window\n",
    "perf = pd.DataFrame(data)\nx = perf.pop\n",               # a method of the class
    "x = frame.head().Colorado\n",
    "x = frame.swaplevel(0, 1).Ohio\n",
    "x = frame.swaplevel(0, 1, axis=1).Green\n",                # the columns' levels swapped
    "x = frame.rename(columns={'Ohio': 'Texas'}).Texas\n",      # labels another method adds
])
def test_a_label_or_an_instances_own_name_is_no_claim(cell):
    ns = namespace()
    assert [f for f in kernel_facts(cell, ns) if f.kind == "attribute"] == [], cell
    assert raised(cell, ns) is None


@pytest.mark.parametrize("cell", [
    "s = pd.Series(data)\nx = s.fillla\n",                      # labels of data not known
    "s = pd.Series([1.0], index=labels)\nx = s.fillla\n",
    "s = pd.Series(values).rename(lambda k: 'fillla')\nx = s.fillla\n",   # another method's result
    "g = frame.groupby('k').fillla\n",                          # a DataFrame of the user's class
    "s = pd.Series(values, index=pd.date_range('2020', periods=4))\nx = s.now\n",
])
def test_no_claim_where_the_labels_are_not_known(cell):
    class Frame(pd.DataFrame):
        pass

    ns = namespace(data={"fillla": 1}, labels=["fillla"], frame=Frame({"k": [1], "fillla": [2]}))
    assert [f for f in kernel_facts(cell, ns) if f.kind == "attribute"] == [], cell
