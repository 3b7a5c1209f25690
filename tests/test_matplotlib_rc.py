"""matplotlib's settings by name (facts/matplotlib_rc.py): a claim exactly where matplotlib
raises, on `rc`'s keys, `style.use`'s names and rcParams' keys (also in an update), and the
replacements offered run."""
from __future__ import annotations

import matplotlib
import pytest

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from jupyter_codecheck.facts import kernel_facts  # noqa: E402

CELLS = [
    'plt.rc("figure", figisze=(10, 6))\n',                   # a keyword of no key in the group
    "plt.rc('figure', figsize=(10, 6))\n",
    "plt.rc('lines', lw=2, c='r')\n",                        # rc's abbreviations
    "plt.rc('lines', lw=2, markersze=3)\n",
    "matplotlib.rc(('xtick', 'ytick'), labelsize=8)\n",      # several groups
    "matplotlib.rc(('xtick', 'ytik'), labelsize=8)\n",       # a group no key has
    "plt.rc('font', size=9)\n",
    "plt.style.use('seaborn-whitegrid')\n",                  # renamed in 3.6, removed in 3.8
    "plt.style.use(['dark_background', 'seaborn'])\n",
    "plt.style.use('seaborn-v0_8-whitegrid')\n",
    "plt.style.use('ggplot')\n",
    "plt.style.use('default')\n",
    "plt.style.use('mpl20')\n",                              # use's own alias of 'default'
    "with plt.style.context('fivethirtyeigth'):\n    pass\n",  # entering the context uses the style
    "with plt.style.context('fivethirtyeight'):\n    pass\n",
    "c = plt.style.context('fivethirtyeigth')\n",             # not entered: nothing used yet
    'plt.rcParams["figure.figsze"] = (8, 4)\n',             # rcParams refuses a key it lacks
    "plt.rcParams['figure.figsize'] = (8, 4)\n",
    "size = matplotlib.rcParams['font.sze']\n",
    "size = matplotlib.rcParams['font.size']\n",
    'plt.rcParams.update({"figure.figsize": (8, 4), "font.sze": 9})\n',   # update sets each key
    'plt.rcParams.update({"figure.figsize": (8, 4), "font.size": 9})\n',
]


@pytest.fixture
def settings_kept():
    with matplotlib.rc_context():
        yield


def _run(cell: str):
    try:
        exec(cell, {"plt": plt, "matplotlib": matplotlib})
    except (KeyError, OSError) as e:
        return e
    return None


@pytest.mark.parametrize("cell", CELLS)
def test_a_setting_is_a_claim_exactly_when_matplotlib_raises_and_its_fixes_run(cell, settings_kept, tmp_path,
                                                                              monkeypatch):
    monkeypatch.chdir(tmp_path)             # style.use reads a file of the name where there is one
    ns = {"plt": plt, "matplotlib": matplotlib}
    got = kernel_facts(cell, ns)
    raised = _run(cell)
    assert bool(got) == (raised is not None), (got, raised)
    if not got:
        return
    (fact,) = got
    assert fact.kind == "value" and fact.message.endswith(f": {type(raised).__name__}") and fact.candidates
    line = cell.splitlines()[fact.line - 1]
    written = line[fact.column:fact.end_column].split("=")[0].strip("'\"")
    assert written in str(raised) and written in fact.message
    for fix in fact.candidates:
        fixed = cell.replace(line, line[:fact.column] + fix + line[fact.end_column:])
        assert _run(fixed) is None, fixed                       # each replacement runs
        assert kernel_facts(fixed, ns) == []


def test_a_style_file_of_that_name_is_a_style(settings_kept, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cell = "plt.style.use('house')\n"
    assert [f.message.endswith(": OSError") for f in kernel_facts(cell, {"plt": plt})] == [True]
    (tmp_path / "house").write_text("lines.linewidth: 3\n")
    assert kernel_facts(cell, {"plt": plt}) == [] and _run(cell) is None


def test_settings_the_cell_does_not_write_are_not_read():
    ns = {"plt": plt, "matplotlib": matplotlib}
    assert kernel_facts("g = 'figure'\nplt.rc(g, figisze=(3, 3))\n", ns) == []
    assert kernel_facts("plt.rc('figure', **{'figisze': (3, 3)})\n", ns) == []
    assert kernel_facts("name = 'seaborn'\nplt.style.use(name)\n", ns) == []
    assert kernel_facts("key = 'font.sze'\nplt.rcParams[key] = 3\n", ns) == []
    assert kernel_facts("d = {}\nd['font.sze'] = 3\n", ns) == []
    assert kernel_facts("extra = {'font.sze': 3}\nplt.rcParams.update(extra)\n", ns) == []
    # a dotted name is a package's style or a file: matplotlib imports or opens it, never read here
    assert kernel_facts("plt.style.use('matplotlib.ggplot')\n", ns) == []


def test_a_bad_setting_stops_the_cell_only_where_nothing_of_the_users_runs_first():
    from jupyter_codecheck.core.exact_findings import exact_check

    def setup():
        pass

    cell = "plt.rc('figure', figisze=(10, 6))\n"
    assert [f.line for f in exact_check(cell, {"plt": plt}).certain] == [1]
    assert [f.line for f in exact_check("import matplotlib.pyplot as plt\n" + cell, {}).certain] == [2]
    later = exact_check("setup()\n" + cell, {"plt": plt, "setup": setup})
    assert [f.line for f in later.findings] == [2] and later.certain == []


def test_no_style_stop_where_an_earlier_item_may_suppress_or_the_cell_may_add_the_style(settings_kept, tmp_path,
                                                                                        monkeypatch):
    """(a second review's) `with suppress(OSError), plt.style.context(...)`: the first item's exit
    catches the second's error; `style.reload_library()` first may add the style."""
    from jupyter_codecheck.core.exact_findings import exact_check
    monkeypatch.chdir(tmp_path)
    ns = {"plt": plt, "matplotlib": matplotlib}
    cell = "from contextlib import suppress\nwith suppress(OSError), plt.style.context('nope'):\n    pass\n"
    assert kernel_facts(cell, ns) == [] and _run(cell) is None
    assert exact_check("plt.style.reload_library()\nplt.style.use('mine3')\n", ns).findings == []


@pytest.mark.parametrize("cell, refused", [
    ("matplotlib.rc('animation', html='js_html')\n", True),     # the key's validator refuses the value
    ("plt.rc('lines', linewidth='thick')\n", True),
    ("plt.rc('axes', grid='sometimes')\n", True),
    ("matplotlib.rc('animation', html='jshtml')\n", False),
    ("plt.rc('lines', linewidth=2.5)\n", False),
    ("plt.rc('axes', grid=True)\n", False),
    ("w = 2.5\nplt.rc('lines', linewidth=w)\n", False),
])
def test_a_settings_value_its_validator_refuses_is_the_valueerror_rc_raises(cell, refused, settings_kept):
    ns = {"plt": plt, "matplotlib": matplotlib}
    got = kernel_facts(cell, ns)
    try:
        exec(cell, dict(ns))
    except ValueError as e:
        raised = e
    else:
        raised = None
    assert (raised is not None) == refused
    if refused:
        (fact,) = got
        assert fact.message.endswith(": ValueError") and str(raised).split(": ", 1)[1] in fact.message
    else:
        assert got == []
