"""A cell run again right after it ran (facts/reruns.py): the labels its first run dropped
from a DataFrame are gone, so the second run raises KeyError. Each claim is held against pandas:
the notebook's cells run in a real namespace, the cell twice, and the second run raises KeyError
on the claimed line; a cell whose second run works gets no claim."""
from __future__ import annotations

import traceback

import pandas as pd
import pytest

from jupyter_codecheck.core.exact_findings import exact_check
from jupyter_codecheck.facts import rerun_facts

pytestmark = pytest.mark.filterwarnings("ignore:The inplace keyword")       # pandas 3.1's deprecation
CSV = "a,b,c\n1,x,2.5\n2,y,3.5\n"
READ = "import io\nimport pandas as pd\ndf = pd.read_csv(io.StringIO(CSV))\n"


def run(cells: list[str]) -> tuple[str, int] | None:
    """The exception the last cell raises and its line, the cells before it run first."""
    ns = {"CSV": CSV}
    for cell in cells[:-1]:
        exec(compile(cell, "<earlier>", "exec"), ns)
    try:
        exec(compile(cells[-1], "<cell>", "exec"), ns)
    except Exception as e:  # noqa: BLE001 - whatever pandas raises is compared
        return type(e).__name__, [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.filename == "<cell>"][-1]
    return None


def facts(cells: list[str]) -> list:
    return rerun_facts(cells[-1], cells[:-1])


RERUNS = [
    "df.drop(columns='b', inplace=True)\n",
    "df.drop(['b', 'c'], axis=1, inplace=True)\n",
    "df = df.drop('c', axis='columns')\n",
    "df.drop([1], inplace=True);\n",
    "df = df.drop(index=0)\nprint(df.shape)\n",
    "del df['b']\n",
    "x = df.pop('c')\n",
    "df['d'] = df['b'] + '!'\ndf = df.drop(['b'], axis=1)\n",          # the read before the drop
    "df['e'] = 1\ndf.drop(columns=['b'], inplace=True)\ndf.drop(columns='c', inplace=True)\nprint(df.head())\n",
    "n = len(df)\nm = df['c'].mean()\ndel df['c']\n",
    "df.set_index('a', inplace=True)\n",
    "df = df.set_index(['a', 'b'])\n",
    "df = pd.get_dummies(df, columns=['b'], drop_first=True)\n",
]


@pytest.mark.parametrize("cell", RERUNS)
def test_a_cell_run_again_raises_key_error_on_the_claimed_line(cell):
    cells = [READ, "df = df.dropna()\n", cell, cell]
    got = facts(cells)
    assert len(got) == 1, (cell, got)
    assert run(cells) == ("KeyError", got[0].line), (cell, got[0].message)
    assert got[0].kind == "key" and "already ran" in got[0].message
    assert run(cells[:-1]) is None and facts(cells[:-1]) == []          # the first run works


@pytest.mark.parametrize("earlier, cell", [
    ([READ], "df.drop(columns='b', inplace=True)\n"),                               # run once
    ([READ, "df.drop(columns='b', inplace=True)\n", "df = pd.read_csv(io.StringIO(CSV))\n"],
     "df.drop(columns='b', inplace=True)\n"),                                         # not just before
    ([READ, "df = pd.read_csv(io.StringIO(CSV))\ndf.drop(columns='b', inplace=True)\n"],
     "df = pd.read_csv(io.StringIO(CSV))\ndf.drop(columns='b', inplace=True)\n"),    # it makes df again
    ([READ, "df['b'] = 0\ndf.drop(columns='b', inplace=True)\n"], "df['b'] = 0\ndf.drop(columns='b', inplace=True)\n"),
    ([READ, "df.drop(columns='b', inplace=True)\ndf['b'] = 1\n"], "df.drop(columns='b', inplace=True)\ndf['b'] = 1\n"),
    ([READ, "df.drop(columns='b', errors='ignore', inplace=True)\n"], "df.drop(columns='b', errors='ignore', inplace=True)\n"),
    ([READ, "df2 = df.drop(columns='b')\n"], "df2 = df.drop(columns='b')\n"),           # df keeps it
    ([READ, "def restore():\n    df['b'] = 1\n", "restore()\ndf.drop(columns='b', inplace=True)\n"],
     "restore()\ndf.drop(columns='b', inplace=True)\n"),                              # a function of the notebook
    ([READ, "df = df.copy()\nif len(df) > 5:\n    df.drop(columns='b', inplace=True)\n"],
     "df = df.copy()\nif len(df) > 5:\n    df.drop(columns='b', inplace=True)\n"),   # not at the top level
    ([READ, "df.set_index('a', drop=False, inplace=True)\n"], "df.set_index('a', drop=False, inplace=True)\n"),
    ([READ, "df = pd.get_dummies(df)\n"], "df = pd.get_dummies(df)\n"),
    ([READ, "df = df.assign(b=1)\ndf.drop(columns='b', inplace=True)\n"],
     "df = df.assign(b=1)\ndf.drop(columns='b', inplace=True)\n"),                   # b made again
])
def test_silence_where_the_second_run_works(earlier, cell):
    cells = [*earlier, cell]
    assert run(cells) is None, cell
    assert facts(cells) == [], cell


@pytest.mark.parametrize("earlier", [
    ["import io\nd = {'a': 1}\ndf = d\n"],                                       # a dict, not a frame
    ["import io\nimport pandas as pd\ndf = pd.read_csv(io.StringIO(CSV), chunksize=1)\n"],    # a reader
    [READ, "df = load(df)\n"],                                                   # rebound by an unknown call
    [READ, "for df in [df]:\n    pass\n"],
    [READ, "%run other.py\n"],
])
def test_no_claim_where_the_text_does_not_prove_a_data_frame(earlier):
    cell = "del df['a']\n"
    assert rerun_facts(cell, [*earlier, cell]) == []


def test_with_a_kernel_the_live_frame_must_agree():
    cell = "df.drop(columns='b', inplace=True)\n"
    cells = [READ, cell]
    kept = pd.DataFrame({"a": [1], "b": ["x"]})              # the kernel says b is still there
    assert rerun_facts(cell, cells, {"df": kept}) == []
    assert rerun_facts(cell, cells, {"df": {"b": 1}}) == []   # not a DataFrame
    assert len(rerun_facts(cell, cells, {"df": kept.drop(columns="b")})) == 1
    assert rerun_facts(cell, cells, {"df": kept.drop(columns="b")}, failed=[cell]) == []   # the first run failed


def test_auto_mode_reads_the_kernels_history():
    cell = "df.drop([5], inplace=True)\n"          # a row label the live frame lacks too
    ns = {"df": pd.DataFrame({"a": [1]})}
    out = exact_check(cell, ns, history=[READ, cell])
    assert [f.kind for f in out.findings] == ["key"] and "already ran" in out.findings[0].message
    (live,) = exact_check(cell, ns, history=[READ]).findings     # the live index's own fact, no story
    assert "no row label 5" in live.message and "already ran" not in live.message


def test_auto_mode_says_the_cells_first_run_removed_a_column_the_live_frame_lacks():
    """The live frame lacks the column too (a key fact of its own); the re-run's fact says why,
    so it is the one shown (the trial: auto mode said only that the column was missing)."""
    cell = "df.drop(columns='b', inplace=True)\n"
    ns = {"df": pd.DataFrame({"a": [1], "bb": [2]})}
    (live,) = exact_check(cell, ns, history=[READ]).findings
    assert live.kind == "key" and "already ran" not in live.message
    (rerun,) = exact_check(cell, ns, history=[READ, cell]).findings
    assert rerun.kind == "key" and "already ran" in rerun.message and "drop" in rerun.message


@pytest.mark.parametrize("magic", ["%matplotlib inline", "%codecheck auto on", "%load_ext autoreload"])
def test_a_quiet_magic_in_an_earlier_cell_keeps_the_rule(magic):
    """A magic is IPython's `get_ipython().run_line_magic(...)`: its own get_ipython() call is
    not one of the user's reaching any name (the trial: any magic turned the rule off, and auto
    mode offered `'price'` for a column `'prices'` the cell's first run had dropped)."""
    cell = "df.drop(columns=['prices'], inplace=True)\n"
    ns = {"df": pd.DataFrame({"price": [1], "name": ["x"]})}
    (fact,) = rerun_facts(cell, [magic, READ, cell], ns)
    assert "already ran" in fact.message and fact.candidates == []
    (finding,) = exact_check(cell, ns, history=[magic, READ, cell]).findings
    assert "already ran" in finding.message and "'price'" not in finding.message
