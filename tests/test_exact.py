"""The exact part of a check without the model (core/exact_findings.py): real pandas and scikit-learn
objects in a namespace, as a kernel holds them. What a guard may stop a cell for is a crash that
nothing before it in the cell can prevent; anything unsure is shown, never stopped."""
from __future__ import annotations

import builtins
import contextlib
import re
import functools
import types

import matplotlib
import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LinearRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from jupyter_codecheck.core.exact_findings import exact_check
from jupyter_codecheck.facts import NotebookCells, undefined_reason, undefined_reasons
from jupyter_codecheck.pytext.pycheck import analyse
from jupyter_codecheck.views.panel_kernel import read_state

matplotlib.use("Agg")
import matplotlib.pyplot as plt


def prepare(frame):
    frame["bmii"] = 0


def load():
    global data
    data = 1


class Loader:
    def load(self):
        load()


class Settings:
    @property
    def verbose(self):
        prepare(globals()["df"])


@pytest.fixture
def ns():
    df = pd.DataFrame({"age": [50, 60], "bmi": [22.0, 31.5]})
    return {"pd": pd, "df": df, "frames": {"tr": df}, "prepare": prepare, "settings": Settings(),
            "LinearRegression": LinearRegression, "model": LinearRegression(), "parts": [],
            "make_pipeline": make_pipeline, "StandardScaler": StandardScaler, "li": df.loc,
            "p": functools.partial(load), "handlers": {"load": load, "add": prepare},
            "cfg": types.SimpleNamespace(loader=Loader()), "np": np, "plt": plt, "contextlib": contextlib}


def _stops(cell: str, ns) -> list[tuple[int, str]]:
    return [(f.line, f.kind) for f in exact_check(cell, ns).certain]


@pytest.mark.parametrize("cell, stop", [
    ("import time\ntime.sleep(0)\ntotal = df['bmii'].sum()", (3, "key")),
    ("m = LinearRegression()\nm.fit(df[['age']], df['bmi'])\nprint(X_tset)", (3, "undefined-name")),
    ("df.head()\ndf.colums", (2, "attribute")),
    ("model.predict(df[['age']])", (1, "call")),
    ("pritn(df)", (1, "undefined-name")),
    ("print(', '.join(['a', 'b']))\ndf['bmii']", (2, "key")),
    # read-only callees, and a frame's axis or column taken into a name: it stays certain
    ("cols = df.columns\nage = df['age']\nprint(len(df), df.shape)\ndf['bmii']", (4, "key")),
    # a column selected of a grouping the cell makes is a new GroupBy no other name holds
    ("s = df.groupby('age')['bmi']\ns.mena()", (2, "attribute")),
    # a loop over names written in the cell surely runs its body once, on the first name
    ("for part in (df, df.copy()):\n    print(part.shape)\n    part['bmii']", (3, "key")),
    ("for part in [df]:\n    print(undefined_q)", (2, "undefined-name")),
    # ...and one over Python's range of ints the cell writes, holding one at least
    ("for i in range(3):\n    print(undefined_z)", (2, "undefined-name")),
    ("n_epochs = 1000\nfor epoch in range(n_epochs):\n    df.colums", (3, "attribute")),
    # ...and one over literals written in the cell, or bound to a name just before, or enumerated
    ("for c in [0.01, 1]:\n    df.colums", (2, "attribute")),
    # the body of a `with` of a library's context manager whose exit never suppresses
    ("with np.errstate(all='ignore'):\n    df['bmii']", (2, "key")),
    ("with pd.option_context('display.max_rows', 5), open(__file__) as fh:\n    df.colums", (2, "attribute")),
    ("with plt.style.context('classic'):\n    prepare(df, 3)", (2, "call")),
    ("cs = [0.01, 1]\nrows = []\nfor c in cs:\n    df.colums", (4, "attribute")),
    ("for i, w in enumerate(['a', 'b']):\n    df.colums", (2, "attribute")),
    ("for i, part in enumerate([df, df]):\n    part['bmii']", (2, "key")),
    # ...and Python's zip of displays written in the loop, enumerated too
    ("for part, name in zip([df, df], ['a', 'b']):\n    part['bmii']", (2, "key")),
    ("for i, (part, k) in enumerate(zip((df,), [1])):\n    part['bmii']", (2, "key")),
    # ...and a loop on the top level of such a pass's body: its own first pass runs within it
    ("cs = [1, 2]\nks = (3,)\nfor c in cs:\n    for k in ks:\n        df.colums", (5, "attribute")),
    # what runs after the use in its own statement: a callee's name before its arguments, an
    # argument before the call, a keyword refused before the function of theirs runs
    ("grid = GridSearchQV(prepare(df), cv=7)", (1, "undefined-name")),
    ("prepare(undefined_w)", (1, "undefined-name")),
    ("x = undefined_v + prepare(df)", (1, "undefined-name")),
    ("prepare(df, inplace=True)", (1, "call")),
    ("%matplotlib inline\ndf.colums", (2, "attribute")),           # IPython's own: it binds no name
    ("%timeit df.colums", (1, "attribute")),                         # evaluated in the namespace
    ("x = str(2, 3, 1)", (1, "value")),                              # literals alone: nothing can change them
    ("for i in range(1, 4):\n    x = 'n' + i", (2, "value")),       # ...a loop's first pass of a range written
])
def test_a_crash_nothing_can_prevent_is_certain(cell, stop, ns):
    assert _stops(cell, ns) == [stop]


@pytest.mark.parametrize("cell", [
    "import random\nif random.random() > 2:\n    df['bmii']",        # a branch
    "for i in parts:\n    print(undefined_z)",                       # a loop's body, over what may be empty
    "for i in range(0):\n    print(undefined_z)",                    # ...a range of none
    "n = 3\nn = len(parts)\nfor i in range(n):\n    print(undefined_z)",   # ...of a size not written
    "cs = [1, 2]\nprepare(df)\nfor c in cs:\n    df.colums",           # ...a list the user's code may empty
    "cs = [1, 2]\ncs.clear()\nfor c in cs:\n    df.colums",
    "cs = [1]\ndel cs[0]\nfor c in cs:\n    df.colums",
    "cs = []\nfor c in cs:\n    df.colums",                              # ...none
    "enumerate = lambda x: []\nfor i, c in enumerate([1]):\n    df.colums",   # ...not Python's enumerate
    "for i, c in enumerate(parts):\n    df.colums",                          # ...of what may be empty
    "for part, k in zip([df], []):\n    part['bmii']",                       # ...a zip of an empty one
    "for part, k in zip([df], parts):\n    part['bmii']",                    # ...of what may be empty
    "zip = lambda *a: []\nfor part, k in zip([df], [1]):\n    part['bmii']",   # ...not Python's zip
    "for part, k in zip([df], [1]):\n    df = df.copy()\n    part['bmii']",   # ...its first name bound again
    "for c in [1, 2]:\n    for k in parts:\n        df.colums",             # an inner loop over what may be empty
    "range = lambda n: []\nfor i in range(3):\n    print(undefined_z)",      # ...not Python's range
    "for i in range(3):\n    assert i > 0\n    df.colums",                      # ...whose body may raise first
    "for part in (df, df):\n    if part is df:\n        break\n    part['bmii']",   # ...that may leave
    "for part in (df, df):\n    part = part.copy()\n    part['bmii']",   # ...or rebinds its name
    "for part in (df, df):\n    prepare(part)\n    part['bmii']",     # ...or runs the user's code first
    "for part in (df, df):\n    print(1)\nelse:\n    df['bmii']",       # an else
    "for part in (df, prepare(df)):\n    part['bmii']",                # the display runs their code first
    "try:\n    df['bmii']\nexcept KeyError:\n    pass",               # handled
    "def f():\n    return undefined_x",                              # runs later, if ever
    "x = 1 if df is None else df['bmii']",                           # a lazy part
    "prepare(df)\ndf['bmii']",                                       # the user's code runs first
    "print(prepare(df), undefined_t)",                                # ...in the same statement
    "prepare(df) or df.colums",
    "df.colums.name = prepare(df)",                                  # ...a value before its target
    "settings.verbose + undefined_u",                                # ...a property of theirs, first
    "x = [prepare(df), undefined_s]",
    "@prepare\ndef g():\n    pass\nprint(q)",                        # ...as a decorator
    "settings.verbose\ndf['bmii']",                                  # ...as a property of theirs
    "tmp = df\ntmp['bmii'] = 1\ndf['bmii'].sum()",                   # another name for the object
    "frames['tr']['bmii'] = 1\ndf['bmii'].sum()",                    # a container the kernel holds
    "[df][0]['bmii'] = 1\ndf['bmii'].sum()",                         # ...or the cell makes
    "pd.DataFrame.bmii = 1\ndf.bmii",                                # a library's class patched
    "pd.api.extensions.register_dataframe_accessor('geo')(object)\ndf.geo",   # ...or extended
    "exec('q = 1')\nprint(q)",                                       # the namespace by name
    "import antigravity_not_installed\nprint(q)",                    # a module's first import runs it
    "%store -r q\nprint(q)",                                         # a magic may define it
    "%pylab inline\nprint(q)",
    "%matplotlib inline\n%store -r q\nprint(q)",
    "%timeit -n 1 print(q)",                                          # options: not read
    "%timeit q = 1\nprint(q)",                                        # timeit's own function binds it
    "%timeit _t0",                                                    # ...and its own names
    "%time n = len(undefined_w)",                                     # IPython's releases differ on its errors
    "%matplotlib widget\ndf.colums",                                  # a backend that may fail to load
    "if df is None:\n    x = 'n' + 1",                               # literals alone, in a branch
    # the object handed to a call that may keep or change it
    "pipe = make_pipeline(StandardScaler(), model)\npipe.fit(df[['age']], df['bmi'])\nprint(model.coef_)",
    "d = dict(tr=df)\nd['tr']['bmii'] = 1\ndf['bmii'].sum()",
    "s = df.groupby(prepare)['bmi']\ns.mena()",                      # their function groups the rows
    "fs = list([df])\nfs[0]['bmii'] = 1\ndf['bmii'].sum()",
    "import types\nn = types.SimpleNamespace(df=df)\nn.df['bmii'] = 1\ndf['bmii'].sum()",
    "import contextlib\nwith contextlib.nullcontext(df) as f:\n    f['bmii'] = 1\ndf['bmii'].sum()",
    "import contextlib\nwith contextlib.suppress(KeyError), df['bmii']:\n    pass",   # an earlier item's exit
    "with contextlib.suppress(KeyError):\n    df['bmii']",            # a context manager that suppresses
    "with plt.style.context('classic'), contextlib.suppress(KeyError):\n    df['bmii']",
    "with contextlib.suppress(KeyError), plt.style.context('classic'):\n    df['bmii']",
    "with pd.option_context('mode.copy_on_write', True):\n    df['bmii']",   # an option the facts read under
    "with cfg.loader:\n    df['bmii']",                              # not a library's
    "open = contextlib.suppress\nwith open(KeyError):\n    df['bmii']",   # the name bound again first
    "parts += [df]\nparts[-1]['bmii'] = 1\ndf['bmii'].sum()",
    "import operator\noperator.setitem(df, 'bmii', 1)\ndf['bmii'].sum()",
    "pd.DataFrame.insert(df, 0, 'bmii', 1)\ndf['bmii'].sum()",
    "df.pipe(pd.DataFrame.insert, 0, 'bmii', 1)\ndf['bmii'].sum()",
    "loc = df.loc\nloc[:, 'bmii'] = 1\ndf['bmii'].sum()",          # a bound accessor of it
    "li[:, 'bmii'] = 1\ndf['bmii'].sum()",                           # ...the kernel holds
    # the user's code reached through a library's object
    "p()\nprint(data)",                                               # functools.partial(load)
    "handlers['load']()\nprint(data)",
    "cfg.loader.load()\nprint(data)",
    "df.pipe(handlers['add'])\ndf['bmii']",
    "import asyncio\nawait asyncio.sleep(0)\nprint(q)",                # other tasks run meanwhile
    "print(q)\nimport asyncio\nawait asyncio.sleep(0)",                # ...in any cell with `await`
    # a name made through a module
    "import __main__\n__main__.v = 3\nprint(v)",
    "import sys\nsys.modules['__main__'].v = 3\nprint(v)",
    "import builtins as bb\nbb.f = len\nf([1])",
    # annotations that may never run
    "y: 'Undefinedzz' = 3",
    "y2: list['Fooz'] = []",
    "y3: Undefq = 3",                        # after `from __future__ import annotations`
])
def test_a_crash_something_may_prevent_is_shown_and_not_certain(cell, ns):
    found = exact_check(cell, ns)
    assert found.certain == []
    assert all(f.severity == "error" for f in found.findings)


def test_findings_carry_their_exact_fixes(ns):
    (key,) = exact_check("df['bmii']", ns).findings
    assert key.message == "DataFrame has no column 'bmii'; did you mean 'bmi'?"
    (typo,) = exact_check("pritn(df)", ns).findings
    assert typo.message == "name 'pritn' is not defined; did you mean 'print'?"
    (syntax,) = exact_check("for x in df\n    pass", ns).findings
    assert syntax.kind == "syntax" and exact_check("for x in df\n    pass", ns).certain == []


def test_a_silenced_finding_is_neither_shown_nor_a_stop(ns):
    assert exact_check("df['bmii']  # codecheck: ignore[key]", ns).findings == []
    assert exact_check("df['bmii']", ns, ignore=("key",)).certain == []
    assert [f.kind for f in exact_check("df['bmii']  # codecheck: ignore[call]", ns).certain] == ["key"]


def test_a_comment_on_any_line_of_a_statement_silences_it(ns):
    assert exact_check("x = pd.read_csv('f.csv',  # codecheck: ignore[call]\n    seperator=',')", ns).findings == []
    assert exact_check("x = pd.read_csv('f.csv',\n    seperator=',')  # codecheck: ignore", ns).findings == []
    # a comment line of its own covers only itself
    assert exact_check("# codecheck: ignore\nx = pd.read_csv('f.csv', seperator=',')", ns).certain != []


def test_an_unknown_or_empty_kind_is_said_in_the_stop(ns):
    (stop,) = exact_check("df['bmii']  # codecheck: ignore[keys]", ns).certain
    assert "names an unknown kind 'keys'" in stop.message
    (stop,) = exact_check("df['bmii']  # codecheck: ignore[]", ns).certain     # silences nothing
    assert "names no kind" in stop.message


def test_a_submodule_imported_for_the_first_time_is_not_certain(ns, tmp_path, monkeypatch):
    (tmp_path / "pkg_guard").mkdir()
    (tmp_path / "pkg_guard" / "__init__.py").write_text("")
    (tmp_path / "pkg_guard" / "acc.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    import pkg_guard  # noqa: F401 - the package is imported, its submodule is not
    assert exact_check("from pkg_guard import acc\ndf.geo", ns).certain == []


def test_a_string_annotation_is_never_run_so_its_names_are_no_finding(ns):
    for cell in ("y: 'Undefinedzz' = 3", "y2: list['Fooz'] = []", "def f(a: 'Qq') -> 'Rr':\n    pass"):
        assert exact_check(cell, ns).findings == []
    assert [f.kind for f in exact_check("y3: Undefq = 3", ns).findings] == ["undefined-name"]   # it runs


def test_a_name_added_to_builtins_is_defined(ns):
    ns["__builtins__"] = {**vars(builtins), "myfn": len}
    assert exact_check("print(myfn([1]))", ns).findings == []


def test_a_wrappers_stricter_signature_makes_no_positional_claim(ns):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ns["ax"] = plt.subplots()
    assert exact_check("ax.hist([0.5], 10, (0, 1))", ns).findings == []    # runs, with a warning
    (call,) = exact_check("df.head(1, 2)", ns).findings          # a plain function: the claim stays
    assert "too many positional" in call.message
    plt.close(fig)


def test_a_functools_wraps_wrapper_passes_the_arguments_on_and_is_claimed(ns):
    """scikit-learn's `validate_params` wraps with functools.wraps only: the function it shows
    rejects positional arguments past its keyword-only marker (JunoBench's sklearn_1)."""
    import numpy as np
    from sklearn.utils.class_weight import compute_class_weight
    ns.update(compute_class_weight=compute_class_weight, classes=np.array([0, 1]), y=np.array([0, 1, 1]))
    cell = "w = compute_class_weight('balanced', classes, y)"
    (call,) = exact_check(cell, ns).findings
    assert "too many positional" in call.message
    with pytest.raises(TypeError):
        exec(cell, dict(ns))


def test_no_code_of_the_objects_runs_while_they_are_read(ns):
    log = []

    class Proxy:
        def __getattribute__(self, name):
            log.append(name)
            return object.__getattribute__(self, name)

    ns.update(p=Proxy(), holder=[Proxy()])
    shell = types.SimpleNamespace(user_ns=ns, history_manager=None)
    for cell in ["p.foo", "p['a']", "print([p], df['nope'])", "holder[0]['z'] = 1\ndf['z']", "x = p.x\ndf['q']"]:
        exact_check(cell, ns)
        read_state(cell, shell)
    assert log == []


def test_a_kernels_history_explains_what_no_cell_run_defined():
    history = NotebookCells(["a = 1", "del a"], [False, False], history=True)
    assert undefined_reason("a", history) == "the cell run just before deletes it (del a)"
    assert undefined_reason("later", history) == "no cell run in this kernel defines it"
    starred = NotebookCells(["from helpers import *"], [True], history=True)
    assert undefined_reason("later", starred) is None          # it may have, had it worked
    facts = analyse("print(pritn, later)", None, {})
    assert undefined_reasons(facts, [], history=["a = 1"]) == {"later": "no cell run in this kernel defines it"}
    # a notebook's cells without a kernel: their order, and only what a later cell says
    assert undefined_reason("later", NotebookCells(["a = 1"], [False])) is None


AUTOMAGIC_CELLS = ["hist[2]", "hist", "hist + 1", "\n\nhist[2]\n", "hist[2]\n\n", "hist[2]\nx = 1", "hist.x",
                   "hist -n 5", "x = hist[2]", "hist(2)", "hist == 2", "  hist[2]", "hist[2]  # c", "hist, 2",
                   "hist += 1", "never_defined[2]", "time[0]", "who"]


@pytest.mark.parametrize("automagic", [True, False])
def test_a_line_ipython_runs_as_an_automagic_is_no_undefined_name(automagic):
    """IPython's prefilter runs a one-line cell whose first word is a magic (`hist[2]` after `del
    hist`) as `%hist [2]` when automagic is on: an undefined-name claim there would be false. Each
    cell's claim is held to what a real shell raises when it runs it, automagic on and off."""
    import contextlib
    import io
    from IPython.core.interactiveshell import InteractiveShell
    shell = InteractiveShell.instance()
    was = shell.automagic
    shell.automagic = automagic
    try:
        for cell in AUTOMAGIC_CELLS:
            for name in ("hist", "x", "time", "who"):
                shell.user_ns.pop(name, None)
            exact = exact_check(cell, shell.user_ns)
            claimed = any(f.kind == "undefined-name" for f in exact.findings)
            stopped = any(f.kind == "undefined-name" for f in exact.certain)
            undefined = analyse(cell, None, shell.user_ns).undefined
            panel = read_state(cell, shell)
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                ran = shell.run_cell(cell, silent=True)
            raised = type(ran.error_in_exec) is NameError
            assert claimed == raised == bool(undefined), (automagic, cell, ran.error_in_exec, ran.error_before_exec)
            assert not stopped or raised, cell
            first = re.match(r"\s*(\w+)", cell).group(1)
            ran_as_magic = not raised and ran.error_before_exec is None
            assert (first in panel.names) == ran_as_magic, cell      # the panel's server sees the same
    finally:
        shell.automagic = was


LEADING_IMPORTS = r'''
import json, sys
from jupyter_codecheck.core.exact_findings import exact_check

sys.path.insert(0, sys.argv[1])
import userpkg                                  # the user's own package, loaded
out = {"before": "sklearn" in sys.modules}
late = exact_check("x = 1\nfrom sklearn.ensemble import RandomForestRegressor\n"
                   "RandomForestRegressor(n_estimator=3)", {}, libraries="leading")
out["late"] = [f.message for f in late.findings]
out["late_imported"] = "sklearn.ensemble" in sys.modules
checked = exact_check("from sklearn.ensemble import RandomForestRegressor\n"
                      "RandomForestRegressor(n_estimator=3)", {})       # only checked: nothing imported
out["checked_imported"] = "sklearn.ensemble" in sys.modules
first = exact_check("from sklearn.ensemble import RandomForestRegressor\n"
                    "RandomForestRegressor(n_estimator=3)", {}, libraries="leading")
out["first"] = [(f.kind, f.line) for f in first.certain]
out["first_imported"] = "sklearn.ensemble" in sys.modules
exact_check("from userpkg.side import f\nimport userpkg2\nf()", {}, libraries="leading")
out["user_imported"] = "userpkg.side" in sys.modules or "userpkg2" in sys.modules
print(json.dumps(out))
'''


def test_a_cells_leading_import_of_a_library_is_read_and_the_users_never(tmp_path):
    """The first thing a cell about to run runs is `from sklearn.ensemble import ...` (scikit-learn
    not loaded yet): importing it a moment early runs nothing the cell would not, so a keyword
    its class lacks stops the cell; a cell only checked imports nothing. Behind another statement it stays unread, and a package of the user's
    (loaded, or beside the notebook) is never imported."""
    import json
    import subprocess
    import sys
    pkg = tmp_path / "userpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "side.py").write_text("def f():\n    pass\n")
    (tmp_path / "userpkg2.py").write_text("")
    from pathlib import Path
    import os
    root = str(Path(__file__).resolve().parents[1])      # this source tree's package
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
    proc = subprocess.run([sys.executable, "-c", LEADING_IMPORTS, str(tmp_path)], capture_output=True,
                          text=True, timeout=120, cwd=str(tmp_path), env=env)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["before"] is False
    assert out["late"] == [] and out["late_imported"] is False and out["checked_imported"] is False
    assert out["first"] == [["call", 2]] and out["first_imported"] is True
    assert out["user_imported"] is False


def _drops_b():
    cols.remove("bmii")       # noqa: F821 - the global list of the namespace below


@pytest.mark.parametrize("cell, stop", [
    # a loop over a list the kernel holds, nothing able to change it: every pass, one after the other
    ("for c in cols:\n    print(df[c].mean())", (2, "key")),
    ("n = 3\nfor c in cols:\n    df[c] = df[c] * 2", (3, "key")),          # a pass sees the keys set before it
])
def test_a_loop_over_a_kernels_list_reads_every_pass(cell, stop, ns):
    ns["cols"] = ["age", "bmii"]
    assert _stops(cell, ns) == [stop]
    with pytest.raises(KeyError):
        exec(cell, dict(ns))


@pytest.mark.parametrize("cell", [
    "for c in cols:\n    drops_b()\n    print(df[c].mean())",             # the user's code may change the list
    "cols.remove('bmii')\nfor c in cols:\n    print(df[c].mean())",       # ...or the cell before the loop
    "for c in cols:\n    print(df[c].mean())\n    cols.pop()",            # ...or the body
    "for c in cols:\n    df[c] = 0\n    print(df[c].mean())",             # a pass adds what a later one reads
])
def test_no_pass_of_a_loop_over_a_kernels_list_claimed_where_it_may_change(cell, ns):
    ns["cols"] = ["age", "bmii"]
    ns["drops_b"] = _drops_b
    globals()["cols"] = ns["cols"]
    assert [f for f in exact_check(cell, ns).findings if f.kind == "key"] == [], cell
    exec(cell, dict(ns))


class _MyArray(__import__("numpy").ndarray):
    """The user's subclass of numpy's array: its operators may be theirs."""


@pytest.fixture
def arrays_ns():
    import numpy as np
    return {"np": np, "a": np.arange(5), "b": np.arange(5).view(_MyArray), "load": load, "pd": pd}


@pytest.mark.parametrize("cell, stop", [
    ("f = np.linspace\nf.shape", (2, "attribute")),           # a library's function, not called
    ("from json import dumps\nd = dumps\nd.indent", (3, "attribute")),
    ("x = np.zeros[10]", (1, "value")),                       # a module's function written with brackets
    ("(a < 3).count_nonzero()", (1, "attribute")),            # a new array numpy's operator made
])
def test_a_library_function_or_a_new_library_object_is_certain(cell, stop, arrays_ns):
    assert _stops(cell, arrays_ns) == [stop]


@pytest.mark.parametrize("cell", [
    "f = load\nf.data",                                       # the user's function
    "g = np.linspace\ng.shape = (1,)\nf = np.linspace\nf.shape",     # an attribute stored on it before
    "np.linspace.shape = (1,)\nf = np.linspace\nf.shape",            # ...through its module
    "(b < 3).count_nonzero()",                                # the user's array class
    "np = load()\nx = np.zeros[10]",                          # the name bound again by their code
])
def test_a_function_or_object_something_may_change_is_not_certain(cell, arrays_ns):
    assert exact_check(cell, arrays_ns).certain == []


def test_iterating_a_kernel_generator_may_run_the_users_code():
    """(a review's) a generator, `map` or `iter(f, sentinel)` of the kernel's runs the user's code when
    a call iterates it: what it changes is unknown."""
    import numpy as np
    a = np.arange(3)

    def grow():
        a.resize(20, refcheck=False)
        yield 1

    for lazy in (grow(), map(lambda _: a.resize(20, refcheck=False), [1])):
        assert exact_check("list(lazy)\nb = a[10]\n", {"np": np, "a": a, "lazy": lazy}).certain == []


@pytest.mark.parametrize("cell, certain", [
    ("m = LinearRegression\nm.fit(df[['age']], df['bmi'])", True),
    ("LinearRegression.fit(df[['age']], df['bmi'])", True),
    ("from sklearn.linear_model import LinearRegression\nm = LinearRegression\nm.predict(df[['age']])", True),
    ("m = LinearRegression\nm.score(df[['age']], df['bmi'])", True),
    ("m = LinearRegression\nif df is None:\n    m.fit(df[['age']], df['bmi'])", False),
])
def test_an_estimators_method_called_on_its_class_is_the_error_scikit_learn_raises(cell, certain, ns):
    found = exact_check(cell, ns)
    try:
        exec(compile(cell, "<cell>", "exec"), dict(ns))
    except Exception as e:  # noqa: BLE001 - whatever scikit-learn raises is compared
        raised = e
    else:
        raised = None
    if not certain:
        assert found.certain == []
        return
    (fact,) = [f for f in found.findings if "is the class, not an estimator" in f.message]
    assert raised is not None and fact.message.endswith(f": {type(raised).__name__}"), (fact.message, raised)
    assert [f.line for f in found.certain] == [fact.line]


@pytest.mark.parametrize("cell", [
    "m = LinearRegression()\nLinearRegression.fit(m, df[['age']], df['bmi'])",   # an estimator given for self
    "LinearRegression.fit(model, df[['age']], df['bmi'])",
    "m = LinearRegression\nm.fit = lambda *a: None\nm.fit(df[['age']], df['bmi'])",   # its method replaced
    "LinearRegression._get_param_names()",                        # a class method
])
def test_no_claim_where_the_class_is_given_an_estimator_or_its_method_is_not_scikit_learns(cell, ns):
    assert not any("is the class" in f.message for f in exact_check(cell, ns).findings)
    exec(compile(cell, "<cell>", "exec"), dict(ns))
