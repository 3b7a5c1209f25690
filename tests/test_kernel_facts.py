"""Kernel facts (facts/) on live objects, without the model: what a cell will crash on,
read without running the user's code, and quiet wherever the cell's own flow may change things."""
from __future__ import annotations

import functools
import traceback
import types
import warnings

import numpy as np
import pandas as pd
import pytest

from jupyter_codecheck.facts import NotebookCells, kernel_facts, undefined_reason

RAN: list[str] = []          # every user hook that runs appends its name: it must stay empty


class Spy:
    """Every hook a careless reader could trigger records itself."""

    def __init__(self):
        self.value = 1

    @property
    def prop(self):
        RAN.append("property")
        return 1

    @functools.cached_property
    def cached(self):
        RAN.append("cached_property")
        return 1

    def __len__(self):
        RAN.append("__len__")
        return 1

    def __eq__(self, other):
        RAN.append("__eq__")
        return False

    __hash__ = object.__hash__

    def method(self, a, b=2):
        return a


class Lazy:
    def __getattr__(self, name):
        RAN.append("__getattr__")
        return 1


class Picky(dict):
    def __getitem__(self, key):
        RAN.append("__getitem__")
        return 1


class Descriptor:
    def __get__(self, obj, owner):
        RAN.append("descriptor")
        return self


class WithDescriptor:
    thing = Descriptor()


class Meta(type):
    def __call__(cls, *args, **kwargs):
        RAN.append("metaclass __call__")
        return super().__call__(*args, **kwargs)


class Made(metaclass=Meta):
    def __init__(self, a):
        self.a = a


def scale(x, *, factor=1.0, offset=0.0):
    return x * factor + offset


@pytest.fixture
def ns():
    RAN.clear()
    df = pd.DataFrame({"price": [1.0, 2.0], "name": ["a", "b"], "Total Sales": [3, 4]})
    yield {"pd": pd, "df": df, "spy": Spy(), "lazy": Lazy(), "picky": Picky(alpha=1),
           "d": {"alpha": 1, "beta": 2, Spy(): 3}, "plain": {"alpha": 1, "beta": 2},
           "wd": WithDescriptor(), "Made": Made, "scale": scale, "functools": functools}
    assert RAN == [], f"user code ran while facts were read: {RAN}"


def facts(cell, ns):
    return [(f.kind, f.line, f.message.split(" (did")[0], f.candidates) for f in kernel_facts(cell, ns)]


def test_column_attribute_and_call_typos_are_facts_with_exact_alternatives(ns):
    cell = ('total = df["pirce"].sum()\n'
            'names = df.loc[:, "nmae"]\n'
            'pair = df[["price", "Total sales"]]\n'
            'spy.vlaue\n'
            'scale(3, factr=2)\n'
            'scale()\n'
            'spy.method(1, c=2)\n'
            'plain["alpah"]\n'
            'df.pirce\n')
    got = facts(cell, ns)
    assert got == [
        ("key", 1, "DataFrame has no column 'pirce'", ['"price"']),
        ("key", 2, "DataFrame has no column 'nmae'", ['"name"']),
        ("key", 3, "DataFrame has no column 'Total sales'", ['"Total Sales"']),
        ("attribute", 4, "'Spy' object has no attribute 'vlaue'", ["value"]),
        ("call", 5, "scale() got an unexpected keyword argument 'factr'", ["factor"]),
        ("call", 6, "scale() missing a required argument: 'x'", []),
        ("call", 7, "spy.method() got an unexpected keyword argument 'c'", []),
        ("key", 8, "dict has no key 'alpah'", ['"alpha"']),
        ("attribute", 9, "'DataFrame' object has no attribute 'pirce'", ["price"]),
    ]
    f = kernel_facts('x = df["pirce"]\n', ns)[0]
    assert 'x = df["pirce"]\n'.split("\n")[0][f.column:f.end_column] == '"pirce"'


def test_user_hooks_never_run_and_unknowable_objects_give_no_fact(ns):
    cell = ("spy.prop.real\nspy.cached.real\nspy.nothing\nlazy.anything\npicky['beta']\n"
            "d['gamma']\nwd.thing.x\nMade(1, 2)\nlen(spy)\nspy == 1\n")
    got = facts(cell, ns)
    # a __getattr__ may answer anything; a dict subclass with its own lookup and a dict with a
    # user object as a key are not read; a metaclass of the user's may take any arguments
    assert [g[:2] for g in got] == [("attribute", 3)]


def test_the_cells_own_flow_silences_what_it_changes_first(ns):
    cell = ('df["new"] = 1\ndf["new"]\n'              # created by the cell
            'spy.vlaue = 2\nspy.vlaue\n'               # set by the cell
            'plain = {"alpah": 1}\nplain["alpah"]\n'   # rebound: the live dict lacks it, the new one holds it
            'lazy2 = spy\n')
    assert facts(cell, ns) == []
    # a method call may change its object (fit sets attributes); pandas without inplace does not
    assert facts("spy.method(1)\nspy.vlaue\n", ns) == []
    assert [g[0] for g in facts('df.head()\ndf["pirce"]\n', ns)] == ["key"]
    assert facts('df.drop(columns=["price"], inplace=True)\ndf["nmae"]\n', ns) == []
    # a function of the user's may change what it reads; a library's leaves its arguments
    assert facts("def fill():\n    df['pirce'] = 0\nfill()\ndf['pirce']\n", ns) == []
    assert [g[0] for g in facts("print(df)\ndf['pirce']\n", ns)] == ["key"]


def test_a_name_unpacked_from_a_value_is_one_of_its_items_never_the_value(ns):
    import numpy as np
    ns = dict(ns, pair=("x", 1), arr=np.zeros((2, 3)))
    for cell in ["a, b = pair\na.upper()\n", "t, (a, b) = 1, pair\na.upper()\n", "[a, b] = pair\na.upper()\n"]:
        assert facts(cell, ns) == [], cell
        exec(cell, dict(ns))
    assert [g[0] for g in facts("a, b = pair\npair.uper()\n", ns)] == ["attribute"]      # the value itself is read


def test_a_written_out_tuple_is_read_whole_before_its_names_are_bound(ns):
    """`df1, df2 = df2, df1` swaps (Python reads the right side first); `a, *rest = [df1, df2]`
    makes rest a new list: neither name is the item written in its place."""
    import pandas as pd
    ns = dict(ns, df1=pd.DataFrame({"a": [1]}), df2=pd.DataFrame({"b": [1]}))
    for cell in ["df1, df2 = df2, df1\ndf1['b']\ndf2['a']\n", "a, *rest = [df1, df2]\nrest[0]['b']\n"]:
        assert facts(cell, ns) == [], cell
        exec(cell, dict(ns))
    assert [g[0] for g in facts("a, b = df2, df1\na['a']\n", ns)] == ["key"]    # written out, no swap: read


def test_guarded_handled_and_deferred_uses_are_not_facts(ns):
    cell = ("if 'pirce' in df:\n    df['pirce']\n"
            "try:\n    spy.vlaue\nexcept AttributeError:\n    pass\n"
            "def later():\n    return df['pirce']\n"
            "f = lambda: spy.vlaue\n"
            "%run other.py\n"
            "df['pirce']\n")
    assert facts(cell, ns) == []


def test_modules_answer_from_their_own_names_and_submodules(ns):
    import numpy as np
    ns2 = {**ns, "np": np}
    got = facts("np.float\nnp.random.rand\nnp.linalg\nfunctools.reduc\n", ns2)
    assert [(k, ln) for k, ln, _, _ in got] == [("attribute", 1), ("attribute", 4)]
    assert got[1][3] == ["reduce"]
    kw = facts('pd.read_csv("x.csv", error_bad_lines=False)\n', ns)
    assert kw and kw[0][0] == "call" and "error_bad_lines" in kw[0][2]


def test_a_module_getattr_made_by_matplotlibs_helper_answers_its_properties_alone(ns):
    """matplotlib's own module `__getattr__` (`_api.caching_module_getattr`) answers the
    properties of its class (`__version__`) and raises AttributeError for any other name: a
    misspelt name of the module is claimed, and each line is run to hold the claim to it. A
    module whose `__getattr__` is any other function stays unread."""
    import types
    import matplotlib
    ns2 = {**ns, "matplotlib": matplotlib}
    for line, claimed in (("matplotlib.get_bakcend()", True), ("matplotlib.rcParms['lines.linewidth']", True),
                          ("matplotlib.__version__", False), ("matplotlib.__version_info__", False),
                          ("matplotlib.get_backend()", False), ("matplotlib.colors", False)):
        got = facts(line + "\n", ns2)
        assert bool(got) is claimed, (line, got)
        try:
            exec(line, dict(ns2))
            raised = False
        except AttributeError:
            raised = True
        assert raised is claimed, line
    assert facts("matplotlib.get_bakcend()\n", ns2)[0][3] == ["get_backend"]
    other = types.ModuleType("pandas.fake_lazy")      # a library's name, its own lazy loader
    other.__getattr__ = lambda name: 1
    assert facts("m.get_bakcend\n", {**ns, "m": other}) == []


def test_a_cell_magics_python_body_has_facts_on_the_cells_own_lines(ns):
    """%%time and %%capture run their body in the namespace: its facts, on the cell's lines (the
    command line checks such cells as written); %%bash's body is not Python."""
    assert [(k, ln) for k, ln, _, _ in facts("%%time\nx = 1\nfunctools.reduc\n", ns)] == [("attribute", 3)]
    assert [(k, ln) for k, ln, _, _ in facts("\n%%capture out\nfunctools.reduc\n", ns)] == [("attribute", 3)]
    assert facts("%%bash\nfunctools.reduc\n", ns) == []


def test_facts_round_trip_as_data():
    from jupyter_codecheck.facts import KernelFact
    f = KernelFact("key", 1, 4, 11, "msg", ['"a"'])
    assert KernelFact.from_dict(f.to_dict()) == f


def test_the_notebook_says_why_a_name_is_undefined():
    cells = NotebookCells(earlier=["a = 1\n", "boom = 1 / 0\n", "del a\n"], failed=[False, True, False],
                          later=["x = 2\n", "y = 3\n"])
    assert "deletes it" in undefined_reason("a", cells)
    assert "failed" in undefined_reason("boom", cells)
    assert "only the next code cell defines it" in undefined_reason("x", cells)
    assert "the 2nd code cell below" in undefined_reason("y", cells)
    assert undefined_reason("never", cells) is None


def test_without_a_kernel_the_imported_libraries_are_read_and_the_users_modules_never_imported(
        tmp_path, monkeypatch):
    import sys
    (tmp_path / "mine_with_side_effect.py").write_text("import builtins\nbuiltins.MINE_RAN = True\n"
                                                       "def load(path):\n    return path\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    cell = ("import math\nimport mine_with_side_effect as mine\n"
            "math.isclose(1.0, 1.1, rel_tl=0.2)\nmine.load('x', mode=1)\n")
    before = set(sys.modules)
    got = kernel_facts(cell, {}, libraries="loaded")
    assert [(f.kind, f.line, f.candidates) for f in got] == [("call", 3, ["rel_tol"])]
    assert set(sys.modules) == before                         # "loaded" imports nothing
    got = kernel_facts(cell, {}, libraries="import")
    assert [(f.kind, f.line) for f in got] == [("call", 3)]
    assert "mine_with_side_effect" not in sys.modules and not hasattr(__import__("builtins"), "MINE_RAN")


def test_a_cells_own_import_rebinds_to_the_module_itself(ns):
    # `import pandas as pd` in the cell binds the same module the kernel has: still checked
    got = facts('import pandas as pd\npd.read_csv("x.csv", error_bad_lines=False)\n', {**ns, "pd": 1})
    assert [g[0] for g in got] == ["call"]


def test_calling_a_value_and_dropping_a_missing_column_are_facts(ns):
    import numpy as np
    ns2 = {**ns, "matrix": np.zeros((2, 2)), "k": 3}
    got = facts('matrix(1)\nk(2)\ndf.drop(columns="pirce")\ndf.drop(["nmae"], axis=1)\n'
                'df.drop(columns="gone", errors="ignore")\nspy()\n', ns2)
    assert [(g[0], g[1], g[3]) for g in got] == [("call", 1, []), ("call", 2, []),
                                                  ("key", 3, ['"price"']), ("key", 4, ['"name"'])]
    assert "ndarray, not a function" in got[0][2]


def test_a_fix_that_would_crash_on_the_kernels_objects_is_refused(ns):
    from jupyter_codecheck.core.candidates import Candidate
    from jupyter_codecheck.core.gates import adds_kernel_fact
    from jupyter_codecheck.pytext.pycheck import analyse
    source = "total = scale(3)\n"
    live = {**ns, "k": 3}
    facts_ = analyse(source, None, live)
    data = source.encode()
    at = source.index("scale")
    assert adds_kernel_fact(Candidate(at, at + 5, "k", "name", 1), data, facts_)       # k(3): an int
    assert not adds_kernel_fact(Candidate(at + 6, at + 7, "4", "pattern", 1), data, facts_)


def test_a_classs_metaclass_methods_are_bound_to_the_class(ns):
    import numpy as np
    # `np.float64.mro()` is type.mro bound to the class, not an unbound method missing `self`
    assert facts("np.float64.mro()\nint.mro()\nMade.mro()\nspy.method.__name__\n", {**ns, "np": np}) == []


def test_the_earlier_cells_imports_in_order_a_later_rebinding_drops_the_name():
    import math

    from jupyter_codecheck.facts import module_namespace
    ns = module_namespace(["import math\nimport json as j\n", "j = 3\n", "from math import sqrt as s\n",
                           "s = 1\nimport math as s\n"])
    assert ns == {"math": math, "s": math}


def test_a_dataframe_subclass_with_its_own_columns_is_not_read():
    class Frame(pd.DataFrame):
        @property
        def columns(self):
            RAN.append("columns property")
            return pd.Index(["x"])

    RAN.clear()
    frame = Frame({"price": [1.0]})
    RAN.clear()
    assert facts('frame["pirce"]\nframe.pirce\n', {"frame": frame}) == []
    assert RAN == []


@pytest.mark.parametrize("cell, claimed", [
    ("lr = LinearRegression()\nlr.intercept_, lr.coef_", [("attribute", 2), ("attribute", 2)]),
    ("sgd = SGDRegressor(penalty='l2', alpha=0.01, tol=None, max_iter=10)\ny_new = sgd.predict(X)", [("call", 2)]),
    ("sc = StandardScaler()\nprint(X.shape)\nZ = sc.transform(X)", [("call", 3)]),
    ("sgd = SGDRegressor(alpha=0.1 / m, max_iter=10)\nsgd.predict(X)", [("call", 2)]),   # a number computed
    # fitted, or it may have been: by the cell, another name, a branch, a loop, the user's code
    ("lr = LinearRegression()\nlr.fit(X, y)\nlr.intercept_", []),
    ("lr = LinearRegression()\nm = lr\nm.fit(X, y)\nlr.predict(X)", []),
    ("lr = LinearRegression()\nz = lr.predict(X) if lr.fit(X, y) else 0", []),
    ("lr = LinearRegression()\nfor _ in range(2):\n    lr.fit(X, y)\nlr.coef_", []),
    ("lr = LinearRegression()\nfit_it(lr)\nlr.coef_", []),
    ("lr = LinearRegression()\nsetattr(lr, 'coef_', 1)\nlr.coef_", []),
    ("lr = LinearRegression()\nlr.coef_ = 1\nlr.coef_", []),
    ("lr = LinearRegression()\nrefit()\nlr.coef_", []),
    ("lr = LinearRegression()\nlr.n_jobs", []),                    # a parameter, not learned
    ("lr = LinearRegression().fit(X, y)\nlr.coef_", []),
    # found in review: fitted earlier in the same statement, a vectorizer given its vocabulary,
    # a later pass of a loop
    ("lr = LinearRegression()\nres = ([lr.fit][0](X, y), lr.coef_)", []),
    ("lr = LinearRegression()\nres = (lr.fit.__call__(X, y), lr.coef_)", []),
    ("cv = CountVectorizer(vocabulary=['a', 'b'])\nm = cv.transform(['a b'])", []),
    ("sgd = SGDRegressor()\nfor epoch in range(3):\n    if epoch > 0:\n        print(sgd.score(X, y))\n"
     "    sgd.partial_fit(X, y)", []),
])
def test_an_estimator_the_cell_made_and_nothing_fitted_as_scikit_learn_makes_it(cell, claimed):
    """`lr = LinearRegression()` then `lr.coef_` or `lr.predict(X)`: no fit between them, none
    that can run unseen (the name not read, held or given; no code of the user's run): Python's
    AttributeError, scikit-learn's NotFittedError, as for a live estimator never fitted."""
    np = pytest.importorskip("numpy")
    from sklearn.linear_model import LinearRegression, SGDRegressor
    from sklearn.feature_extraction.text import CountVectorizer
    from sklearn.preprocessing import StandardScaler
    X = np.random.default_rng(0).normal(size=(20, 2))
    live = {"np": np, "X": X, "y": X @ np.ones(2), "LinearRegression": LinearRegression,
            "SGDRegressor": SGDRegressor, "StandardScaler": StandardScaler, "CountVectorizer": CountVectorizer,
            "fit_it": lambda m: m.fit(X, X @ np.ones(2)), "m": 100}
    run = dict(live)
    live["refit"] = run["refit"] = lambda: run["lr"].fit(X, X @ np.ones(2))     # reaches the name itself
    assert [(g[0], g[1]) for g in facts(cell, live)] == claimed
    if claimed:
        with pytest.raises((AttributeError, ValueError)) as raised:       # NotFittedError is both
            exec(compile(cell, "<cell>", "exec"), run)
        lines = [f.lineno for f in traceback.extract_tb(raised.value.__traceback__) if f.filename == "<cell>"]
        assert lines[-1] == claimed[0][1]
    else:
        exec(compile(cell, "<cell>", "exec"), run)


@pytest.mark.parametrize("cell", [
    "lr = LinearRegression()\nlr.predict()",                      # Python's TypeError comes first
    "lr = LinearRegression()\nlr.predict(X, foo=1)",
    "lr = LinearRegression()\nthing = types.SimpleNamespace()\nthing.coef_ = 0\nlr.coef_",   # a class may be patched
    "lr = LinearRegression()\nsetattr(thing, 'predict', len)\nlr.predict(X)",
])
def test_no_unfitted_claim_where_something_else_may_come_first(cell):
    np = pytest.importorskip("numpy")
    from sklearn.linear_model import LinearRegression
    live = {"np": np, "X": np.ones((4, 2)), "LinearRegression": LinearRegression, "types": types,
            "thing": types.SimpleNamespace()}
    assert not [f for f in facts(cell, live) if "not fitted" in f[2] or "fit() sets it" in f[2]]


def test_an_unfitted_estimator_and_other_columns_are_facts_as_scikit_learn_reads_them(ns):
    """`model.predict(X)` on a scikit-learn estimator never fitted, or fitted on other columns;
    not after a `fit` in the cell, nor for an estimator of the user's or one that needs no fit.
    bench/sklearn_facts.py holds the same against every estimator of the installed library."""
    np = pytest.importorskip("numpy")
    pytest.importorskip("sklearn")
    from sklearn.dummy import DummyRegressor
    from sklearn.linear_model import LinearRegression
    from sklearn.preprocessing import Normalizer, StandardScaler

    class Mine(LinearRegression):
        pass

    train = pd.DataFrame({"area": [1.0, 2.0, 3.0], "rooms": [1, 2, 2], "age": [5, 3, 1]})
    y = np.array([1.0, 2.0, 3.0])
    live = {**ns, "train": train, "test": train[["area", "rooms"]], "y": y, "swapped": train[["rooms", "area", "age"]],
            "model": LinearRegression(), "fitted": LinearRegression().fit(train, y),
            "scaler": StandardScaler(), "norm": Normalizer(), "mine": Mine(),
            "dummy": DummyRegressor().fit(train, y), "arr": np.zeros((2, 2))}
    got = facts("a = model.predict(train)\nb = fitted.predict(test)\nc = scaler.transform(train)\n", live)
    assert [(g[0], g[1]) for g in got] == [("call", 1), ("call", 2), ("call", 3)]
    assert "LinearRegression is not fitted yet: predict() fails until fit is called" in got[0][2]
    assert "missing: 'age'" in got[1][2]
    # a method called on the estimator may change it: one claim on `fitted` a cell
    assert "another order" in facts("fitted.score(swapped, y)\n", live)[0][2]
    assert "arr has 2 features, but LinearRegression is expecting 3" in facts("fitted.predict(arr)\n", live)[0][2]
    # what sklearn itself does with each of these calls: all raise
    for cell in ("model.predict(train)", "live['fitted'].predict(live['test'])"):
        with pytest.raises(Exception):
            eval(cell, {"model": live["model"], "train": train, "live": live})
    # fit with the labels of another split: as many samples or a ValueError
    live["y_test"] = y[:2]
    got = facts("model.fit(train, y_test)\n", live)
    assert "train has 3 samples but y_test has 2: ValueError" in got[0][2]
    with pytest.raises(ValueError):
        LinearRegression().fit(train, y[:2])
    assert facts("model.fit(train, y)\nscaler.fit(train, y_test)\n", live) == []   # the scaler needs no y
    # an estimator of the user's, alone or inside scikit-learn's: its tags, properties and
    # methods never run (the fixture checks RAN), and no claim is made
    from sklearn.base import BaseEstimator, RegressorMixin
    from sklearn.compose import ColumnTransformer
    from sklearn.ensemble import VotingRegressor

    class Recording(RegressorMixin, BaseEstimator):
        def fit(self, X, y=None):
            RAN.append("fit")
            return self

        def predict(self, X):
            RAN.append("predict")
            return X

        def transform(self, X):
            RAN.append("transform")
            return X

        def __sklearn_tags__(self):
            RAN.append("__sklearn_tags__")
            return super().__sklearn_tags__()

        @property
        def coef_(self):
            RAN.append("property")
            return 1

    users = {**live, "rec": Recording(), "ct": ColumnTransformer([("r", Recording(), ["area"])]),
             "vote": VotingRegressor([("r", Recording())])}
    assert facts("rec.predict(train)\nct.transform(train)\nvote.predict(train)\n"
                 "rec.fit(train, y_test)\n", users) == []
    assert facts("fitted.predict(train)\nnorm.transform(train)\nmine.predict(train)\n"
                 "dummy.predict(test)\nmodel.fit(train, y)\nmodel.predict(train)\n", live) == []


COLUMN_CALLS = [
    'df.sort_values({c})', 'df.sort_values(by=[{c}, "name"])', 'df.groupby({c})', 'df.groupby(by={c})',
    'df.set_index({c})', 'df.dropna(subset=[{c}])', 'df.drop_duplicates(subset={c})', 'df.duplicated([{c}])',
    'df.nlargest(1, {c})', 'df.nsmallest(1, columns=[{c}])', 'df.explode({c})', 'df.value_counts(subset={c})',
    'df.melt(id_vars=[{c}])', 'df.drop(columns={c})', 'df.drop([{c}], axis=1)', 'df.pop({c})',
]


@pytest.mark.parametrize("call", COLUMN_CALLS)
def test_a_column_a_method_is_given_is_a_fact_exactly_when_pandas_raises(ns, call):
    """Held against the installed pandas: a missing column is a key fact and the call raises
    KeyError; a column the frame has is none; an index level name is a fact exactly where
    pandas refuses it."""
    frame = ns["df"].rename_axis("row")
    live = {**ns, "df": frame}
    got = facts(call.format(c='"pirce"') + "\n", live)
    assert [(g[0], g[3]) for g in got] == [("key", ['"price"'])], got
    for name in ('"pirce"', '"price"', '"row"'):
        cell = call.format(c=name)
        claimed = facts(cell + "\n", live) != []
        try:
            eval(cell, {"df": frame.copy()})
            raised = False
        except KeyError:
            raised = True
        assert claimed == raised, (cell, claimed, raised)


def test_column_arguments_pandas_reads_otherwise_are_not_facts(ns):
    # a list as long as the frame is group keys; another axis; errors="ignore"; a level
    assert facts('df.groupby(["price", "pirce"])\ndf.sort_values(by=0, axis=1)\n'
                 'df.drop(columns="pirce", errors="ignore")\ndf.groupby("pirce", level=0)\n', ns) == []


def test_what_a_loop_or_a_pipeline_changes_through_another_name_is_not_a_fact(ns):
    """A loop variable that is changed changes each object it ran over (`for d in combine:`,
    the Titanic notebooks' way); an estimator handed to a pipeline may be fitted by it."""
    np = pytest.importorskip("numpy")
    pytest.importorskip("sklearn")
    from sklearn.linear_model import LinearRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0], "b": [1.0, 0.0, 1.0]})
    train, test, lr = pd.DataFrame({"Name": ["a", "b"]}), pd.DataFrame({"Name": ["c"]}), LinearRegression()
    live = {**ns, "X": X, "y": np.array([0.0, 1.0, 0.0]), "lr": lr, "models": [("lr", lr)],
            "train": train, "test": test, "combine": [train, test], "make_pipeline": make_pipeline,
            "StandardScaler": StandardScaler}
    assert facts("for d in combine:\n    d['Title'] = d['Name'].str[0]\ntrain['Title']\n", live) == []
    assert facts("for name, m in models:\n    m.fit(X, y)\nlr.score(X, y)\n", live) == []
    assert facts("for m in [lr]:\n    m.fit(X, y)\nlr.predict(X)\n", live) == []
    assert facts("pipe = make_pipeline(StandardScaler(), lr)\npipe.fit(X, y)\nlr.predict(X)\n", live) == []
    assert facts("for i, d in enumerate(combine):\n    d['Title'] = 1\ntrain['Title']\n", live) == []
    assert facts("for k, d in {'a': train}.items():\n    d['Title'] = 1\ntrain['Title']\n", live) == []
    # over what cannot be told, nothing after the loop is claimed
    assert facts("for m in pick(models):\n    m.fit(X, y)\ntrain['Title']\n", live) == []
    # a loop over other objects (a figure's axes) leaves the frame as it is
    grid = np.empty((2, 2), dtype=object)
    grid[:] = [[Spy(), Spy()], [Spy(), Spy()]]
    assert [g[0] for g in facts("for ax in axes.flat:\n    ax.set_title('a')\ntrain['Title']\n",
                                {**live, "axes": grid})] == ["key"]
    # and without the loop, both are facts
    assert [g[0] for g in facts("train['Title']\nlr.predict(X)\n", live)] == ["key", "call"]


class Holder:
    """A user object holding a frame, and a method of its that changes it."""

    def __init__(self, frame):
        self.frame = frame

    def add_column(self):
        self.frame["z"] = 1


def test_a_change_through_an_alias_container_or_attribute_changes_the_object(ns):
    """Facts are about objects: `tmp = df`, `frames["tr"]`, `holder.frame` and a holder's own
    method change the frame the other names see (each cell runs without error)."""
    np = pytest.importorskip("numpy")
    pytest.importorskip("sklearn")
    from sklearn.linear_model import LinearRegression
    from sklearn.pipeline import make_pipeline

    def fresh():
        df, train, lr = pd.DataFrame({"age": [1.0, 2.0], "bmi": [3.0, 4.0]}), pd.DataFrame({"Name": ["a", "b"]}), \
            LinearRegression()
        return {**ns, "df": df, "train": train, "frames": {"tr": train}, "holder": Holder(df), "kept": [],
                "X": pd.DataFrame({"a": [1.0, 2.0, 3.0]}), "y": np.array([1.0, 2.0, 3.0]), "lr": lr,
                "pipe": make_pipeline(lr)}

    def with_reload():
        live = fresh()
        exec("def reload():\n    global df\n    df = pd.DataFrame({'z': [1]})\n"
             "def fill(row):\n    train['z'] = 1\n    return row\n", live)
        return live

    runs = ['tmp = df\ntmp["c"] = tmp["age"] + tmp["bmi"]\ndf["c"].sum()\n',
            'frames = {"tr": train}\nframes["tr"]["z"] = 1\ntrain["z"].sum()\n',
            'frames["tr"]["z"] = 1\ntrain["z"].sum()\n',
            'holder.frame["c"] = 1\ndf["c"]\n',
            'holder.add_column()\ndf["z"]\n',
            'kept.append(df)\nkept[-1]["c"] = 1\ndf["c"]\n',
            'box = []\nbox.append(df)\nbox[0]["c"] = 1\ndf["c"]\n',
            'if len(df):\n    t = df\nt["c"] = 1\ndf["c"]\n',
            'def add(d):\n    d["c"] = 1\nadd(alias := df)\ndf["c"]\n',
            'pipe.fit(X, y)\nlr.predict(X)\n']
    runs += ['reload()\ntmp = df\ntmp["z"]\n',            # the function rebinds df: tmp is the new one
             'df.apply(fill, axis=1)\ntrain["z"]\n',        # a function of the user's the library calls
             'f = lambda r: train.insert(0, "z", 1)\nf(0)\ntrain["z"]\n']
    for cell in runs:
        live = with_reload()
        got = facts(cell, live)
        exec(cell, live)                # the cell runs: any fact on it would be false
        assert got == [], cell


def test_facts_about_the_other_keys_of_an_aliased_object_are_still_made(ns):
    """Setting a key on an object changes only that key: the others are still read, through
    whichever name, and a name the cell binds to a live object is checked as that object."""
    df = pd.DataFrame({"age": [1.0, 2.0], "bmi": [3.0, 4.0]})
    train = pd.DataFrame({"Name": ["a", "b"]})
    live = {**ns, "df": df, "train": train, "frames": {"tr": train}}
    assert facts('tmp = df\ntmp["total"] = 1\ndf["d"]\ndf["totl"]\n', live) == \
        [("key", 3, "DataFrame has no column 'd'", []), ("key", 4, "DataFrame has no column 'totl'", ['"total"'])]
    assert [g[:2] for g in facts('frames["tr"]["z"] = 1\ntrain["z"]\ntrain["Nmae"]\n', live)] == [("key", 3)]
    assert [g[:2] for g in facts('df["c"] = 1\ndf["c"]\ndf["bmii"]\n', live)] == [("key", 3)]
    assert [g[:2] for g in facts('tmp = df\ntmp["agee"]\n', live)] == [("key", 2)]
    # a new object made from the frame is not the frame: changing it leaves df's facts
    assert [g[:2] for g in facts('Xn = df.drop(columns=["age"])\nXn["new"] = 1\ndf["new"]\n', live)] == [("key", 3)]
    assert [g[:2] for g in facts('g = df.groupby("age").sum()\ng["r"] = 1\ndf["r"]\n', live)] == [("key", 3)]
    # a list's own method changes the list, not what it holds, nor anything else
    big = {**live, "rows": [{"k": i} for i in range(20_000)]}
    assert [g[:2] for g in facts('rows.append(1)\nrows.sort(key=len)\ndf["bmii"]\n', big)] == [("key", 3)]


@pytest.mark.parametrize("cell, claimed", [
    ('s.name = "population"\ns.inedx.name = "state"', True),      # an attribute store makes that name
    ('del frame["east"]\nframe.columbs', True),                     # a deletion makes none
    ('frame.index.name = "year"\nframe.coolumns', True),            # an index's name is no label
    ('frame.columns.names = ["a"]\nframe.cloumns', True),
    ('s[["Ohio", "Texas"]] = 0.0\ns.grooupby(level=0)', True),     # the keys set, and only those
    ('s.inedx = 1\ns.inedx', False),
    ('frame[["columbs"]] = 1\nframe.columbs', False),
    ('frame.columns = ["columbs", "year"]\nframe.columbs', False),
    ('k = "columbs"\nframe[k] = 1\nframe.columbs', False),
    ('frame.index.name = "x"\nframe["columbs"] = 1\nframe.columbs', False),
    ('frame.insert(0, "columbs", 1)\nframe.columbs', False),
    ('frame.loc[:, "columbs"] = 1\nframe.columbs', False),
    ('del frame["east"]\nframe.year', False),
    ('s.index.name = "state"\ns.Ohio', False),
    # a frame the cell made, changed so: its columns and the names stored
    ('f = frame.copy()\nf["new"] = 1\nf.nwe', True),
    ('f = frame.copy()\nf["new"] = 1\nf.new', False),
    ('f = frame.copy()\nf.note = "x"\nf.note', False),
    ('f = pd.DataFrame({"x": [1, 2]})\nf.x.mena()', True),            # a column on a range index
    ('f = pd.DataFrame({"x": [1, 2]}, index=["mena", "b"])\nf.x.mena', False),
    ('f = frame.reset_index(drop=True)\nf["year"].mena()', True),
])
def test_a_frame_the_cell_changes_keeps_the_attributes_pandas_rules_say_it_keeps(cell, claimed):
    """pandas answers `df.name` from its own members, its instance dict and its labels (columns,
    a series' index): a store that can make only known names leaves the others' facts, each held
    against pandas running the cell."""
    def objects():
        return {"pd": pd, "np": np, "s": pd.Series([1.0, 2.0], index=["Ohio", "Texas"]),
                "frame": pd.DataFrame({"east": [1], "year": [2]})}
    got = [f for f in kernel_facts(cell, objects()) if f.kind == "attribute"]
    assert bool(got) == claimed, (cell, got)
    try:
        exec(cell, objects())
        raised = None
    except AttributeError as e:
        raised = e
    assert (raised is not None) == claimed, (cell, raised)


def test_a_series_on_a_long_range_index_answers_no_label_as_an_attribute():
    """pandas looks a name up only in an index of objects, strings or categories: a series of
    millions of rows on a range, numbers or dates is read, however long."""
    for index in (None, pd.date_range("2020", periods=2_000_000, freq="s"), np.arange(2_000_000) * 2):
        labels = pd.Series(np.zeros(2_000_000), index=index)
        assert [f.candidates for f in kernel_facts("labels.asstype(int)", {"labels": labels})] == [["astype"]]
    words = pd.Series(np.zeros(200_001), index=[f"w{i}" for i in range(200_001)])
    assert kernel_facts("words.asstype(int)", {"words": words}) == []     # too many labels to look up


def test_a_library_call_that_changes_its_argument_or_keeps_it_is_followed(ns):
    """operator.setitem, an unbound method (through pipe too) and a holder a library builds all
    change or hold the frame: what they add is no missing column."""
    import operator  # noqa: F401 - the cells' own imports
    import types
    df = pd.DataFrame({"age": [1.0, 2.0]})
    live = {**ns, "df": df, "pd": pd, "operator": operator, "types": types}
    for cell in ('operator.setitem(df, "z", 1)\ndf["z"]\n',
                 'pd.DataFrame.insert(df, 0, "z", 1)\ndf["z"]\n',
                 'df.pipe(pd.DataFrame.insert, 0, "z", 1)\ndf["z"]\n',
                 'h = types.SimpleNamespace(frame=df)\nh.frame["z"] = 1\ndf["z"]\n'):
        assert facts(cell, live) == [], cell
    # reading calls leave the facts
    assert [g[:2] for g in facts('print(df)\npd.concat([df, df])\ndf["z"]\n', live)] == [("key", 3)]


def test_a_method_of_a_library_class_called_right_there_leaves_its_arguments(ns):
    """`LinearRegression().fit(X, y)`: the method is scikit-learn's, as a live estimator's is, so
    X is as it was for the next line; a class of the user's called so may change what it is given."""
    from sklearn.linear_model import LinearRegression

    class Mine:
        def fit(self, X, y):
            X.resize((X.shape[0] * X.shape[1],), refcheck=False)
            return self

    live = {**ns, "X": np.ones((6, 2)), "y": np.arange(6.0), "LinearRegression": LinearRegression, "Mine": Mine}
    cell = "m = {}().fit(X, y)\nb = LinearRegression().fit(X[:, 0], y)\n"
    got = kernel_facts(cell.format("LinearRegression"), dict(live))
    assert [(f.line, "1-D" in f.message) for f in got] == [(2, True)]
    try:
        exec(cell.format("LinearRegression"), dict(live))
        raised = None
    except ValueError as e:
        raised = e
    assert raised is not None
    assert kernel_facts(cell.format("Mine"), dict(live)) == []


@pytest.mark.parametrize("cell", [
    "counts = {}\npd.Series([{'x': 1}]).map(counts.update)\ncounts['x']\n",
    "seen = {}\npd.Series(['x']).map(seen.setdefault)\nseen['x']\n",
    "seen = {}\ns.map(seen.setdefault)\nseen['x']\n",
])
def test_a_bound_method_given_to_a_call_may_change_its_object(cell):
    live = {"pd": pd, "s": pd.Series(["x"])}
    assert kernel_facts(cell, dict(live)) == []
    exec(cell, dict(live))


def test_an_attribute_given_to_a_call_is_no_method_of_a_value_the_cell_made():
    """`"{}".format(grid.best_params_)`: a fitted attribute handed on changes nothing, so the
    next line's misspelt name is still read."""
    from sklearn.model_selection import GridSearchCV
    from sklearn.svm import SVC
    live = {"GridSearchCV": GridSearchCV, "SVC": SVC, "X": np.random.default_rng(0).random((30, 3)),
            "y": np.array([0, 1] * 15)}
    cell = ("grid = GridSearchCV(SVC(), {'C': [1, 10]}, cv=3)\ngrid.fit(X, y)\n"
            "print('{}'.format(grid.best_params_))\nprint(grid.bestt_score_)\n")
    assert [(f.kind, f.line) for f in kernel_facts(cell, dict(live))] == [("attribute", 4)]
    with pytest.raises(AttributeError):
        exec(cell, dict(live))


def test_a_call_of_a_calls_result_is_read_as_unknown(ns):
    """`Layer(...)(x)`: the callee is itself a call's result (a Keras idiom); no crash, and
    what it returns may be anything."""
    class Layer:
        def __init__(self, *args):
            self.args = args

        def __call__(self, x):
            return x

    cell = "x = TimeDistributed(Dense(3))(i)\nx.anything\ny = fs[0](df)\ny.whatever\n"
    live = {**ns, "TimeDistributed": Layer, "Dense": Layer, "i": 1, "fs": [len]}
    assert facts(cell, live) == []


def test_the_flow_reads_no_attribute_of_a_users_object():
    """The flow's type tests and function reads run no `__class__` property or `__getattribute__`."""
    seen = []

    class Proxy:
        def __getattribute__(self, name):
            seen.append(name)
            return object.__getattribute__(self, name)

    p = Proxy()
    live = {"p": p, "df": pd.DataFrame({"a": [1]})}
    kernel_facts("p.run(df)\nq = p\nq(df)\nx = [p]\nx[0].go()\ndf['b']\n", live)
    assert seen == []


def _installed(path):
    """The object a renamed entry names, importing its library (None if it is not installed)."""
    import importlib
    parts = path.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for name in parts[i:]:
            obj = getattr(obj, name, None)     # a module that needs a package not here (jinja2)
        return obj
    return None


# entries of a base class whose replacement another class defines (a subclass, the canvas' manager)
WHERE_THE_NEW_NAME_IS = {"sklearn.base.BaseEstimator": "sklearn.preprocessing.OneHotEncoder",
                         "matplotlib.backend_bases.FigureCanvasBase": "matplotlib.backend_bases.FigureManagerBase"}


def _removed_in(r) -> tuple[int, ...] | None:
    """The release an entry says removed its old name (`removed in pandas 3.0`, `the old name
    removed in 1.4`), or None where it names none."""
    import re
    m = re.search(r"removed in (?:[A-Za-z-]+ )?(\d+)\.(\d+)", r.change)
    return (int(m.group(1)), int(m.group(2))) if m else None


def _version(module: str) -> tuple[int, int]:
    import importlib
    import re
    text = importlib.import_module(module.split(".")[0]).__version__
    major, minor = re.match(r"(\d+)\.(\d+)", text).groups()
    return int(major), int(minor)


@pytest.mark.filterwarnings("ignore::FutureWarning")       # numpy's note on reading `np.object`
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_every_renamed_entry_holds_for_the_installed_libraries():
    """The old name is absent (an attribute) or rejected (a keyword) by an installed release at
    or past the one the entry says removed it, and the new one is there; before that release the
    old name is still there (so no fact is made of it: the table holds for the oldest supported
    releases too). Every entry says where it comes from."""
    import inspect

    from jupyter_codecheck.facts.renamed import ATTRIBUTES, KEYWORDS
    from jupyter_codecheck.facts.signatures import bind_error
    checked = set()
    for r in ATTRIBUTES + KEYWORDS:
        assert r.source and r.change and r.instead, r
        if _installed(r.owner.split(".")[0]) is None:
            continue
        owner = _installed(r.owner)
        if owner is None:
            continue                    # its module needs a package not installed here
        checked.add(r.owner.split(".")[0])
        removed = _removed_in(r)
        if removed is not None and _version(r.owner) < removed:     # an older release: still there
            if r in ATTRIBUTES:
                assert hasattr(owner, r.old), r
            else:
                assert r.old in inspect.signature(owner).parameters, r
            continue
        if r in ATTRIBUTES:
            assert not hasattr(owner, r.old), r
            if r.new and r.owner in WHERE_THE_NEW_NAME_IS:
                assert hasattr(_installed(WHERE_THE_NEW_NAME_IS[r.owner]), r.new.split(".")[-1]), r
            elif r.new:
                obj = owner
                for name in r.new.split("."):
                    obj = getattr(obj, name)
        else:
            err = bind_error(owner, 0, [r.old])
            assert err is not None and err.keyword == r.old, r
            if r.new:
                assert r.new.split("=")[0] in inspect.signature(owner).parameters, r
    assert {"pandas", "numpy", "sklearn"} <= checked


RENAMED_CELLS = [
    ('x = pd.read_csv("f.csv", seperator=",")\n', "seperator", ["sep"]),
    ('df2 = df.append(other, ignore_index=True)\n', "df.append(other, ignore_index=True)",
     ["pd.concat([df, other], ignore_index=True)"]),
    ("enc = OneHotEncoder(sparse=False)\n", "sparse", ["sparse_output"]),
    ("rmse = mean_squared_error(y, p, squared=False)\n", "mean_squared_error(y, p, squared=False)",
     ["root_mean_squared_error(y, p)"]),
    ('t = pd.read_csv("f.csv", error_bad_lines=False)\n', "error_bad_lines=False", ['on_bad_lines="skip"']),
    ('f = df.fillna(method="ffill")\n', 'df.fillna(method="ffill")', ["df.ffill()"]),
    ("m = df.applymap(str)\n", "applymap", ["map"]),
    ("v = np.float_(1.5)\n", "float_", ["float64"]),
    ("v = np.Infinity\n", "Infinity", ["inf"]),
    ("v = np.product([1, 2])\n", "product", ["prod"]),
]


@pytest.mark.parametrize("cell,place,fixes", RENAMED_CELLS)
def test_a_renamed_or_removed_name_is_a_fact_whose_fix_is_the_replacement(ns, cell, place, fixes):
    """The call fails on the installed libraries (checked by running it), and the fact's first
    fix, in its place, is the replacement the release notes name."""
    np = pytest.importorskip("numpy")
    pytest.importorskip("sklearn")
    from sklearn.metrics import mean_squared_error
    from sklearn.preprocessing import OneHotEncoder
    df = pd.DataFrame({"a": [1.0, None]})
    live = {**ns, "np": np, "df": df, "other": df, "mean_squared_error": mean_squared_error,
            "OneHotEncoder": OneHotEncoder, "y": [1.0, 2.0], "p": [1.0, 2.5]}
    got = kernel_facts(cell, live)
    assert len(got) == 1, got
    f = got[0]
    assert cell[f.column:f.end_column] == place and f.candidates[:len(fixes)] == fixes, f
    with pytest.raises((TypeError, AttributeError)):
        exec(cell, dict(live))
    fixed = cell[:f.column] + f.candidates[0] + cell[f.end_column:]
    assert kernel_facts(fixed, live) == []


class _Listed(list):
    """A list of the user's: Python's own lookup, plus what the instance holds."""

    def __init__(self):
        super().__init__([1])
        self.note = "n"


class _Answering(list):
    def __getattr__(self, name):
        RAN.append("__getattr__")
        return 1


def _lookup_namespace():
    import numpy as np
    from sklearn.datasets import load_iris
    frame = pd.DataFrame({"key": ["a", "b"], "val": [1.0, 2.0]})
    return {"np": np, "pd": pd, "d": {"a": 1}, "items": [3, 1], "tags": {1, 2}, "text": "a,b", "pair": (1, 2),
            "n": 3, "arr": np.zeros((2, 3)), "period": pd.Period("2020-01"), "iris": load_iris(),
            "grouped": frame.groupby("key"), "column": frame.groupby("key")["val"], "listed": _Listed(),
            "answering": _Answering(), "f": len}


LOOKUP_CELLS = ["d.itms()", "d.items()", "items.anpend(1)", "items.append", "tags.uncon({3})", "tags.union",
                "text.spplit(',')", "text.split", "pair.cuont(1)", "n.bit_lenght()", "np.multiply.otuer(arr, arr)",
                "np.add.reduce", "arr.repdat(2)", "period.asfrea('D')", "period.asfreq", "iris.dat", "iris.data",
                "iris.keyi()", "pd.options.dispaly", "pd.options.display", "grouped.mena()", "grouped.val",
                "grouped.mean", "column.mena()", "column.mean", "listed.note", "listed.nots", "listed.appendd",
                "answering.anything", "f.x", "f.__name__"]


@pytest.mark.parametrize("cell", LOOKUP_CELLS)
def test_a_builtins_or_librarys_own_lookup_answers_exactly_when_python_raises(cell):
    """A class whose lookup is Python's generic one (`list`, `dict`, numpy's `ufunc`, whatever
    names its slot wrapper in `__dict__`), or a library's `__getattr__` answering from what it
    holds (scikit-learn's Bunch, pandas' options and groupby): a fact exactly when running the
    cell raises AttributeError (pandas' OptionError is one), with the near names as fixes."""
    ns = _lookup_namespace()
    RAN.clear()
    facts = kernel_facts(cell, ns)
    assert not RAN
    try:
        exec(cell, dict(ns))
        raised = None
    except Exception as e:  # noqa: BLE001
        raised = e
    RAN.clear()
    assert bool(facts) == isinstance(raised, AttributeError), (cell, facts, raised)
    for fact in facts:
        assert fact.kind == "attribute" and (fact.candidates or cell == "f.x"), (cell, fact)


@pytest.mark.parametrize("cell", ["d[5] = 1\nd.poj('a')", "d.update(b=2)\nd.itms()", "items.append(2)\nitems.anpend(1)",
                                  "arr[0] = 1\narr.sor()", "for k in range(2):\n    d[k] = k\nd.itms()",
                                  "d = text\nd.itms()", "listed.note = 2\nlisted.nots", "if n:\n    d = []\nd.itms()",
                                  "d.clear()\nd.items"])
def test_what_a_cell_stores_into_a_builtin_adds_no_attribute(cell):
    """A dict, list or array the cell fills is still its class's: an attribute typo on it is a
    fact; a rebinding, a branch or an object of the user's class stays unknown."""
    ns = _lookup_namespace()
    facts = kernel_facts(cell, ns)
    try:
        exec(cell, dict(ns))
        raised = None
    except Exception as e:  # noqa: BLE001
        raised = e
    expected = isinstance(raised, AttributeError) and cell not in ("listed.note = 2\nlisted.nots",
                                                                  "if n:\n    d = []\nd.itms()")
    assert bool(facts) == expected, (cell, facts, raised)


def test_a_compiled_library_functions_signature_is_read():
    """numpy.random's `default_rng` is a compiled (Cython) function of a library: its signature
    is its own, so a keyword it lacks is a call fact; a right one is none."""
    np = pytest.importorskip("numpy")
    ns = {"np": np, "rng_module": np.random}
    (fact,) = kernel_facts("rng = np.random.default_rng(seef=12345)\n", ns)
    assert fact.kind == "call" and fact.candidates[0] == "seed"
    with pytest.raises(TypeError):
        exec("rng = np.random.default_rng(seef=12345)\n", dict(ns))
    assert kernel_facts("rng = np.random.default_rng(seed=12345)\n", ns) == []


def _not_loaded_stdlib_module() -> str:
    import sys
    return next(m for m in ("wave", "colorsys", "netrc", "mailbox", "sndhdr") if m not in sys.modules)


def test_an_import_of_a_library_not_yet_loaded_and_its_calls_change_nothing_of_the_users(tmp_path, monkeypatch):
    """A library the cell imports and calls before a typo (`import matplotlib.pyplot as plt;
    plt.rc(...)`): its module and calls are the library's, so later facts stand; a module of the
    user's, called the same way, may change anything, and does here."""
    import sys
    lib = _not_loaded_stdlib_module()
    cell = f"import logging\nimport {lib} as lib\nlib.__name__.upper()\nlogging.FileeHandler('x.log')\n"
    assert [(f.kind, f.line, f.candidates) for f in kernel_facts(cell, {}, libraries="loaded")] == \
        [("attribute", 4, ["FileHandler"])]
    with pytest.raises(AttributeError, match="FileeHandler"):
        exec(cell, {})
    (tmp_path / "mine_patches_logging.py").write_text(
        "import logging\ndef setup():\n    logging.FileeHandler = logging.FileHandler\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    cell = ("import logging\nimport mine_patches_logging as mine\nmine.setup()\n"
            "logging.FileeHandler('%s')\n" % (tmp_path / "x.log"))
    assert kernel_facts(cell, {}, libraries="loaded") == []
    assert "mine_patches_logging" not in sys.modules          # read, never imported
    try:
        exec(cell, {})                                          # the user's setup() made it exist
    finally:
        import logging
        logging.__dict__.pop("FileeHandler", None)
        sys.modules.pop("mine_patches_logging", None)


def test_a_library_modules_value_given_to_a_call_leaves_the_module_readable():
    cell = ("import logging\nlogger = logging.getLogger('codecheck-test')\nlogger.setLevel(logging.ERROR)\n"
            "logging.Formater('%(message)s')\n")
    assert [(f.kind, f.line, f.candidates) for f in kernel_facts(cell, {}, libraries="loaded")] == \
        [("attribute", 4, ["Formatter"])]
    with pytest.raises(AttributeError, match="Formater"):
        exec(cell, {})


def test_setting_a_pandas_option_leaves_pandas_and_its_options_readable():
    cell = ("import pandas as pd\npd.options.display.max_columns = 20\n"
            "pd.options.disply.max_rows = 20\npd.read_csvv('x.csv')\n")
    got = [(f.kind, f.line) for f in kernel_facts(cell, {}, libraries="loaded")]
    assert got == [("attribute", 3), ("attribute", 4)]
    before = pd.get_option("display.max_columns")
    try:
        with pytest.raises(AttributeError, match="No such option"):     # pandas' OptionError
            exec(cell, {})
        with pytest.raises(AttributeError, match="read_csvv"):
            exec(cell.replace("disply", "display"), {})
    finally:
        pd.set_option("display.max_columns", before)
    # a store on the module itself may rebind its names: no fact after it
    assert kernel_facts("import pandas as pd\npd.read_csvv = print\npd.read_csvv('x')\n", {},
                        libraries="loaded") == []


@pytest.mark.parametrize("cell", [
    "model.fit(X, y)\ny_model = model.predcit(X)",      # a method's name: fitting adds none
    "model.fit(X, y)\nmodel.classes",
    "model.fit(X, y)\nmodel.classes_",                  # what it learns ends with "_"
    "model.fit(X, y)\nmodel._fit_X",                    # private state starts with one
    "model.fit(X, y)\nmodel.predict(X)",
    "model.fit(X, y)\nmodel.predcit = model.predict\nmodel.predcit(X)",     # the cell stores it
])
def test_a_plain_name_a_fit_cannot_add_is_read_on_an_estimator_the_cell_fits(cell):
    from sklearn.base import clone
    from sklearn.neighbors import KNeighborsClassifier

    X, y = np.arange(12.0).reshape(6, 2), np.array([0, 1] * 3)
    model = KNeighborsClassifier(n_neighbors=1)
    got = kernel_facts(cell, {"model": model, "X": X, "y": y})
    try:
        exec(cell, {"model": clone(model), "X": X, "y": y})
        raised = None
    except AttributeError as e:
        raised = e
    assert bool(got) == (raised is not None), (got, raised)
    if got:
        assert got[0].kind == "attribute" and got[0].line == 2


def test_a_learned_name_no_fit_sets_is_one_scikit_learn_does_not_document():
    """scikit-learn documents each attribute a fit sets in the class's "Attributes" section: fit
    every estimator it lists that fits on small numbers, and no name the fit set is said to be
    one no fit sets; a typo of one, on an estimator the cell fits, is claimed and raises."""
    from sklearn.datasets import make_classification
    from sklearn.utils import all_estimators

    from jupyter_codecheck.facts.instances import never_learned
    X, y = make_classification(n_samples=30, n_features=4, n_redundant=0, random_state=2)
    X = np.abs(X)
    fitted = 0
    for name, cls in all_estimators(type_filter=["classifier", "regressor", "transformer", "cluster"]):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                est = cls()
                if "max_iter" in est.get_params():
                    est.set_params(max_iter=5)
                est.fit(X, y)
            except Exception:  # noqa: BLE001 - an estimator that needs other data or parameters
                continue
        fitted += 1
        learned = [a for a in vars(est) if a.endswith("_") and not a.startswith("_")]
        assert not [a for a in learned if never_learned(cls, a)], name
    assert fitted > 100
    from sklearn.model_selection import GridSearchCV
    from sklearn.svm import SVC
    grid = GridSearchCV(SVC(), {"C": [1, 10]}, cv=3)
    ns = {"X": X, "y": y, "grid": grid, "GridSearchCV": GridSearchCV, "SVC": SVC}
    for cell in ("grid.fit(X, y)\ngrid.bestt_score_\n",
                 "g = GridSearchCV(SVC(), {'C': [1, 10]}, cv=3)\ng.fit(X, y)\ng.bestt_score_\n"):
        (fact,) = kernel_facts(cell, dict(ns))
        assert fact.candidates == ["best_score_"], fact
        with pytest.raises(AttributeError):
            exec(cell, dict(ns))
    assert kernel_facts("grid.fit(X, y)\ngrid.best_score_\n", dict(ns)) == []


@pytest.mark.parametrize("cell, claimed", [
    ('d = {"a": 1, "b": 2}\nd["c"]', True),
    ('d = {"a": 1}\nd["b"] = 1\nd["bb"]', True),
    ('d = {1: 2}\nd["x"]', True),
    ('d = {"a": 1, "b": 2}\nd["c"] = 3\nd["c"]', False),
    ('d = {"a": 1}\nd.update(c=1)\nd["c"]', False),
    ('d = {"a": 1}\nd.setdefault("b", 1)\nd["b"]', False),
    ('d = {"a": 1}\ne = d\ne["b"] = 2\nd["b"]', False),
    ('d = {"a": 1}\nfor k in "bc":\n    d[k] = 1\nd["b"]', False),
    ('d = {"a": 1}\nrows = [d]\nrows[0]["b"] = 1\nd["b"]', False),
    ('d = {"a": 1}\nfill(d)\nd["b"]', False),
])
def test_a_dict_the_cell_writes_lacks_the_keys_it_neither_holds_nor_is_given(cell, claimed):
    """A dict display of plain data the cell binds: a string key it lacks is a KeyError unless
    the cell gives it that key first (however, through whichever name); held against Python."""
    def fill(d):
        d["b"] = 1
    got = [f for f in kernel_facts(cell, {"fill": fill}) if f.kind == "key"]
    assert bool(got) == claimed, (cell, got)
    try:
        exec(cell, {"fill": fill})
        raised = None
    except KeyError as e:
        raised = e
    assert (raised is not None) == claimed, cell


@pytest.mark.parametrize("cell, claimed", [
    ('data.iloc[2] = 5\ndata["four"]', True),                   # positions never enlarge a frame
    ('data.loc[:, "one"] = 1\ndata.iloc[2] = 5\ndata.loc[data["four"] > 5] = 3', True),
    ('data.loc["x"] = 1\ndata["four"]', True),                  # a row, not a column
    ('data.iloc[0, 0] = 7\ndata.sort_values("four")', True),
    ('s.iloc[0] = 3\ns["d"]', True),
    ('s.loc["c"] = 1\ns["d"]', True),
    ('data.loc[:, "four"] = 1\ndata["four"]', False),
    ('data.at["Ohio", "four"] = 1\ndata["four"]', False),
    ('data.loc[:, ["five", "four"]] = 1\ndata["four"]', False),
    ('data.loc[:, k] = 1\ndata["four"]', False),
    ('s.loc["c"] = 1\ns["c"]', False),
    ('data.loc["x"] = 1\ng = data.groupby(["one", "two", "three", "four", "five"]).size()', False),
])
def test_a_store_through_an_indexer_adds_only_the_labels_it_names(cell, claimed):
    """pandas' `iloc` never enlarges a frame, `loc[rows] = v` adds rows, `loc[:, "c"] = v` the
    column it names: a column neither the frame had nor a store named is still missing after
    them, held against pandas; one a store may have made is not claimed."""
    def objects():
        frame = pd.DataFrame(np.arange(16).reshape((4, 4)), index=["Ohio", "Colorado", "Utah", "New York"],
                             columns=["one", "two", "three", "four"]).drop(columns=["four"])
        return {"pd": pd, "np": np, "data": frame, "s": pd.Series([1.0, 2.0], index=["a", "b"]), "k": "four"}
    got = [f for f in kernel_facts(cell, objects()) if f.kind in ("key", "attribute")]
    assert bool(got) == claimed, (cell, got)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")       # pandas' upcast of a column set to another dtype
            exec(cell, objects())
        raised = None
    except KeyError as e:
        raised = e
    assert (raised is not None) == claimed, cell
