"""Facts on what the cell itself makes, before it runs: a library class's instance from its
constructor (instances.py), a method of a part of a value the cell made (flow.py: `axes[0].plot`
is matplotlib's), and an estimator the cell makes and fits, then gives X of another width
(estimators.width_problem). Each claim is held against the library: the cell raises what the
fact names; the same cell made right runs and gets no claim."""
from __future__ import annotations

import collections

import matplotlib
import numpy as np
import pandas as pd
import pytest
from sklearn.decomposition import PCA
from sklearn.linear_model import LinearRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer, StandardScaler

from jupyter_codecheck.facts import kernel_facts

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # after the backend is chosen


def namespace(**objects) -> dict:
    return {"np": np, "pd": pd, "plt": plt, "collections": collections, "StandardScaler": StandardScaler,
            "LinearRegression": LinearRegression, "PCA": PCA, "make_pipeline": make_pipeline,
            "FunctionTransformer": FunctionTransformer, **objects}


def claims(cell: str, ns: dict) -> list:
    return [f for f in kernel_facts(cell, ns) if f.kind in ("attribute", "key", "call", "value")]


def holds(cell: str, ns: dict, exception: type[BaseException], kind: str):
    found = claims(cell, ns)
    assert [f.kind for f in found] == [kind], (cell, found)
    with pytest.raises(exception):
        exec(cell, dict(ns))
    plt.close("all")
    return found[0]


def runs_unclaimed(cell: str, ns: dict) -> None:
    exec(cell, dict(ns))
    plt.close("all")
    assert claims(cell, ns) == [], cell


DAYS = pd.DataFrame({"day": [0, 1, 2, 1]})


@pytest.mark.parametrize("cell, good", [
    ("c = pd.Categorical(days['day'], categories=range(7), ordered=True)\nc.cat.rename_categories(list('abcdefg'))\n",
     "c = pd.Categorical(days['day'], categories=range(7), ordered=True)\nc = c.rename_categories(list('abcdefg'))\n"),
    ("counts = collections.Counter(['a', 'b', 'a'])\ntop = counts.most_comon(1)\n",
     "counts = collections.Counter(['a', 'b', 'a'])\ntop = counts.most_common(1)\n"),
    ("x = pd.Categorical(['a', 'b']).codes.tolist()\ny = pd.Categorical(['a']).categorie\n",
     "x = pd.Categorical(['a', 'b']).codes.tolist()\ny = pd.Categorical(['a']).categories\n"),
])
def test_a_library_class_called_makes_its_own_instance_which_lacks_what_the_class_lacks(cell, good):
    f = holds(cell, namespace(days=DAYS), AttributeError, "attribute")
    assert "object has no attribute" in f.message
    runs_unclaimed(good, namespace(days=DAYS))


def test_a_class_of_the_users_or_one_whose_call_may_make_another_class_is_not_judged():
    class Box:
        def __init__(self):
            self.cat = 1
    ns = namespace(Box=Box, Path=__import__("pathlib").Path)
    runs_unclaimed("b = Box()\nv = b.cat\n", ns)
    assert claims("p = Path('.')\nv = p.nothing_here\n", ns) == []     # Path() makes a PosixPath


def test_a_method_of_a_part_of_what_the_cell_made_leaves_its_arguments_as_they_are():
    history = {"loss": [0.5, 0.4], "accuracy": [0.7, 0.8]}
    ns = namespace(history=history)
    f = holds("fig, ax = plt.subplots(2, 1)\nax[0].plot(history['loss'])\nax[1].plot(history['acc'])\n", ns,
              KeyError, "key")
    assert "'acc'" in f.message
    runs_unclaimed("fig, ax = plt.subplots(2, 1)\nax[0].plot(history['loss'])\nax[1].plot(history['accuracy'])\n", ns)


def test_a_function_of_the_users_called_with_a_part_still_may_change_anything():
    history = {"loss": [0.5]}

    def grow(d):
        history["acc"] = d
    ns = namespace(history=history, grow=grow)
    runs_unclaimed("fig, ax = plt.subplots(2, 1)\ngrow(ax[0])\nv = history['acc']\n", ns)


WIDE, NARROW, ROWS = np.ones((12, 5)), pd.DataFrame(np.ones((4, 3)), columns=list("abc")), np.ones((4, 5))
Y = np.arange(12.0)


@pytest.mark.parametrize("cell", [
    "s = StandardScaler()\ntrain = s.fit_transform(wide)\ntest = s.transform({x})\n",
    "m = LinearRegression()\nm.fit(wide, y)\np = m.predict({x})\n",
    "p = PCA(n_components=2)\nw = p.fit_transform(wide)\nn = p.transform({x})\n",
    "s = StandardScaler()\nwide = s.fit_transform(wide)\nn = s.transform({x})\n",
])
def test_an_estimator_the_cell_fits_takes_x_of_the_width_it_was_fitted_on(cell):
    ns = namespace(wide=WIDE, narrow=NARROW, rows=ROWS, y=Y)
    f = holds(cell.format(x="narrow"), ns, ValueError, "call")
    assert "3 features" in f.message and "expecting 5" in f.message
    runs_unclaimed(cell.format(x="rows"), ns)


@pytest.mark.parametrize("make", [StandardScaler, LinearRegression, lambda: make_pipeline(StandardScaler(), PCA(2))])
def test_a_live_estimator_the_cell_fits_takes_x_of_the_width_of_that_fit(make):
    method = "predict" if make is LinearRegression else "transform"
    cell = f"est.fit(wide, y)\nout = est.{method}({{x}})\n"
    f = holds(cell.format(x="narrow"), namespace(est=make(), wide=WIDE, narrow=NARROW, y=Y), ValueError, "call")
    assert "3 features" in f.message and "expecting 5" in f.message
    runs_unclaimed(cell.format(x="rows"), namespace(est=make(), wide=WIDE, narrow=NARROW, rows=ROWS, y=Y))
    # fitted in a branch: on what, if at all, is unknown
    runs_unclaimed(f"if len(y) > 20:\n    est.fit(wide, y)\nout = 1\n", namespace(est=make(), wide=WIDE, y=Y))
    assert claims(f"if len(y) > 20:\n    est.fit(wide, y)\nout = est.{method}(narrow)\n",
                  namespace(est=make().fit(NARROW.to_numpy(), Y[:4]), wide=WIDE, narrow=NARROW, y=Y)) == []


def test_no_width_claim_after_a_fit_the_cell_may_repeat_or_on_what_takes_any_x():
    ns = namespace(wide=WIDE, narrow=NARROW, rows=ROWS, y=Y)
    for cell in ("s = StandardScaler()\ns.fit(wide)\nfor part in [narrow]:\n    s.fit(part)\nn = s.transform(narrow)\n",
                 "f = FunctionTransformer()\nw = f.fit_transform(wide)\nn = f.transform(narrow)\n",
                 "p = make_pipeline(FunctionTransformer(), StandardScaler())\np.fit(wide)\nn = p.transform(rows)\n"):
        runs_unclaimed(cell, ns)


@pytest.mark.parametrize("module, name", __import__(
    "jupyter_codecheck.facts.instances", fromlist=["LIBRARY_CONSTRUCTORS"]).LIBRARY_CONSTRUCTORS)
def test_each_library_constructor_makes_exactly_its_class_holding_no_public_name(module, name):
    import importlib
    cls = getattr(importlib.import_module(module), name)
    made = {"Categorical": lambda: cls([1, 2]), "CategoricalIndex": lambda: cls(["a"]),
            "DatetimeIndex": lambda: cls(["2020-01-01"]), "Interval": lambda: cls(0, 1),
            "Counter": lambda: cls("ab"), "OrderedDict": lambda: cls(a=1), "defaultdict": lambda: cls(list),
            "deque": lambda: cls([1]), "datetime": lambda: cls(2020, 1, 2), "date": lambda: cls(2020, 1, 2),
            "timedelta": lambda: cls(1), "RandomState": lambda: cls(0)}[name]()
    assert type(made) is cls
    assert [k for k in getattr(made, "__dict__", {}) if not k.startswith("_")] == []
    assert "__getattr__" not in {k for c in cls.__mro__ for k in vars(c)}


FRAME = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0], "b": [0.5, 0.1, 0.2, 0.3]})
TARGET = np.array([0.0, 1.0, 1.0, 0.0])


def _user_step(X):
    return X


@pytest.mark.parametrize("cell, good", [
    # numpy: a ufunc of an array the cell made; numpy's legacy RandomState's draws; linspace by keyword
    ("data = np.linspace(0, 30, num=100).reshape(-1, 1)\ntarget = np.sin(data).ravell()\n", "ravel"),
    ("rng = np.random.RandomState(0)\nx = rng.uniform(0, 5, size=20).reeshape(-1, 1)\n", "reshape"),
    ("n = 20\nrng = np.random.RandomState(3)\nx = rng.randint(0, 20, 2 * n).astope(float)\n", "astype"),
    ("x = np.linspace(start=0, stop=10, num=1_000).rshape(-1, 1)\n", "reshape"),
    # matplotlib: Axes unpacked from plt.subplots' array, looped over as written; a Figure made
    ("f, (ax0, ax1) = plt.subplots(1, 2)\nax0.hist([1, 2])\nax1.set__title('t')\n", "set_title"),
    ("fig, ((a, b), (c, d)) = plt.subplots(2, 2)\nd.ploot([1, 2])\n", "plot"),
    ("fig, (ax1, ax2) = plt.subplots(nrows=1, ncols=2)\nfor ax in (ax1, ax2):\n    ax.grbd()\n", "grid"),
    ("f, (ax0, ax1) = plt.subplots(1, 2)\nf.suptiitle('s', y=1.05)\n", "suptitle"),
    ("fig = plt.figure(figsize=(8, 6))\nax = fig.add_subplot(111)\nfig.subplots_adjusst(right=0.7)\n",
     "subplots_adjust"),
    # scikit-learn: what set_output and fit return, make_pipeline's Pipeline, a pipeline's slice and step
    ("scaler = StandardScaler().set_output(transform='pandas')\nout = scaler.fit_trasform(frame)\n", "fit_transform"),
    ("pipe = make_pipeline(FunctionTransformer(step), LinearRegression())\npipe.fit(frame, y).scre(frame, y)\n",
     "score"),
    ("pipe = make_pipeline(FunctionTransformer(step), LinearRegression())\npipe.fyt(frame, y)\n", "fit"),
    ("pipe = make_pipeline(StandardScaler(), PCA(2))\npipe.fit(frame)\nnames = pipe[:-1].get_featurenames_out()\n",
     "get_feature_names_out"),
    ("pipe = make_pipeline(StandardScaler(), LinearRegression())\npipe.fit(frame, y)\nc = pipe[-1].coeff_\n", "coef_"),
    # scikit-learn's Displays: made by from_estimator or the class, plotted
    ("from sklearn.metrics import ConfusionMatrixDisplay\n"
     "disp = ConfusionMatrixDisplay.from_predictions(y, y)\ndisp.ay_.set_title('t')\n", "ax_"),
    ("from sklearn.metrics import PrecisionRecallDisplay\n"
     "display = PrecisionRecallDisplay(precision=np.array([1, 0.5]), recall=np.array([0, 1.0]), average_precision=0.7)\n"
     "display.plot()\nt = display.ax__.set_title('t')\n", "ax_"),
    ("from sklearn.metrics import PrecisionRecallDisplay\n"
     "display = PrecisionRecallDisplay(precision=np.array([1, 0.5]), recall=np.array([0, 1.0]))\ndisplay.pllot()\n", "plot"),
])
def test_a_typo_on_what_the_cell_makes_is_the_attribute_error_it_raises(cell, good):
    ns = namespace(frame=FRAME, y=TARGET, step=_user_step)
    f = holds(cell, ns, AttributeError, "attribute")
    assert good in f.candidates, (cell, f.candidates)
    runs_unclaimed(cell.replace(f.message.split("'")[-2], good), ns)


class _OwnScaler(StandardScaler):
    pass


class _Hooked:
    """A figure hook of the user's (rcParams["figure.hooks"]): it sets a method on each figure."""
    @staticmethod
    def add(fig):
        fig.helper = print


@pytest.mark.parametrize("cell", [
    "s = OwnScaler().set_output(transform='pandas')\ns.helper()\n",         # the user's subclass
    "v = uf1(np.arange(3.0)).ravell()\n",                                       # ufuncs of the user's functions
    "v = uf2.outer(np.arange(3.0), np.arange(2.0)).ravell()\n",
    "fig = plt.figure()\nfig.helper = print\nfig.helper('x')\n",               # set by the cell
    "f, (a, b) = plt.subplots(1, 2)\na.note = print\na.note('x')\n",
    "fig = plt.figure(1)\nfig.extra('x')\n",                                   # an existing figure pyplot holds
    "fig = plt.gcf()\nfig.extra('x')\n",
    "fig, (a, b, c) = plt.subplots(1, 2)\nc.plott([1])\n",                     # two Axes, three names: ValueError
    "from sklearn.ensemble import RandomForestClassifier\n"                   # a documented, conditional attribute
    "rf = RandomForestClassifier(n_estimators=3).fit(frame, y)\ns = rf.oob_score_\n",
    "pipe = make_pipeline(StandardScaler(), LinearRegression())\npipe.fit(frame, y)\nn = pipe[::2].get_featurenames_out()\n",
    "pipe = make_pipeline(held, LinearRegression())\nv = pipe[0].extra\n",    # a live step holds what was set on it
])
def test_no_claim_on_what_the_cell_makes_where_it_may_hold_the_name(cell):
    ran = []
    held = StandardScaler()
    held.extra = 1
    figure = plt.figure(1)
    figure.extra = print
    ns = namespace(frame=FRAME, y=TARGET, OwnScaler=_OwnScaler, held=held,
                   uf1=np.frompyfunc(lambda x: ran.append(x) or x, 1, 1),
                   uf2=np.frompyfunc(lambda a, b: ran.append(a) or a, 2, 1))
    try:
        assert claims(cell, ns) == [], cell
        assert ran == []
    finally:
        plt.close("all")


def test_no_claim_on_a_figure_where_pyplot_runs_the_users_hooks(monkeypatch):
    import sys
    import types
    module = types.ModuleType("_codecheck_test_hooks")
    module.add = _Hooked.add
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setitem(plt.rcParams, "figure.hooks", [f"{module.__name__}:add"])
    runs_unclaimed("fig = plt.figure()\nfig.helper('x')\n", namespace())
    runs_unclaimed("fig, ax = plt.subplots()\nfig.helper('x')\n", namespace())


def test_each_display_holds_its_parameters_and_the_documented_names_ending_in_underscore():
    """What instances.display_class rests on: every `self.name = ...` of a Display's own source
    (its class and its scikit-learn bases) stores a constructor parameter, a private name, or a
    name ending in `_` its "Attributes" section documents."""
    import ast
    import importlib
    import inspect
    import textwrap
    from jupyter_codecheck.facts.instances import display_class, fitted_attributes
    modules = ["sklearn.calibration", "sklearn.metrics", "sklearn.inspection", "sklearn.model_selection"]
    displays = {c for m in modules for c in vars(importlib.import_module(m)).values() if display_class(c)}
    assert len(displays) >= 10
    for cls in displays:
        params = set(inspect.signature(cls).parameters)
        documented = fitted_attributes(cls) or frozenset()
        for klass in cls.__mro__:
            if not klass.__module__.startswith("sklearn."):
                continue
            tree = ast.parse(textwrap.dedent(inspect.getsource(klass)))
            assert not any(isinstance(n, ast.Name) and n.id == "setattr" for n in ast.walk(tree)), klass
            stored = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store)
                      and isinstance(n.value, ast.Name) and n.value.id == "self"}
            odd = {a for a in stored if not a.startswith("_") and a not in params and
                   not (a.endswith("_") and a in documented)}
            assert not odd, (cls.__name__, klass.__name__, odd)


# -- the Axes a Figure the cell made adds, and the twin of an Axes it made ---------------------

@pytest.mark.parametrize("cell, good", [
    ("fig = plt.figure()\nax = fig.add_subplot()\nax.plot([1, 2], [3, 4], coor='r')\n",
     "fig = plt.figure()\nax = fig.add_subplot()\nax.plot([1, 2], [3, 4], color='r')\n"),
    ("fig = plt.figure()\nax = fig.add_subplot(111)\nax.set_yllabel('y')\n",
     "fig = plt.figure()\nax = fig.add_subplot(111)\nax.set_ylabel('y')\n"),
    ("fig, first = plt.subplots()\nax = fig.add_subplot(2, 2, 3)\nax.bar([1], [2], colr='k')\n",
     "fig, first = plt.subplots()\nax = fig.add_subplot(2, 2, 3)\nax.bar([1], [2], color='k')\n"),
    ("fig = plt.figure()\nax = fig.add_axes([0.1, 0.1, 0.8, 0.8])\nax.pqot([1, 2], [3, 4])\n",
     "fig = plt.figure()\nax = fig.add_axes([0.1, 0.1, 0.8, 0.8])\nax.plot([1, 2], [3, 4])\n"),
    ("fig, ax1 = plt.subplots()\nax1.plot([1, 2], [1, 2])\nax2 = ax1.twinx()\nax2.scatter([1], [2])\n"
     "ax1.seet(xlabel='X')\n",
     "fig, ax1 = plt.subplots()\nax1.plot([1, 2], [1, 2])\nax2 = ax1.twinx()\nax2.scatter([1], [2])\n"
     "ax1.set(xlabel='X')\n"),
    ("fig, axs = plt.subplots(1, 2)\nax2 = axs[0].twiny()\nax2.plot([1, 2], [3, 4], lww=2)\n",
     "fig, axs = plt.subplots(1, 2)\nax2 = axs[0].twiny()\nax2.plot([1, 2], [3, 4], lw=2)\n"),
])
def test_an_axes_a_made_figure_adds_or_a_made_axes_twins_is_matplotlibs(cell, good):
    found = claims(cell, namespace())
    assert len(found) == 1, (cell, found)
    with pytest.raises(AttributeError):
        exec(cell, namespace())
    plt.close("all")
    runs_unclaimed(good, namespace())


@pytest.mark.parametrize("cell", [
    "fig = plt.figure()\nax = fig.add_subplot(projection='polar')\nax.plot([1, 2], [3, 4], coor='r')\n",
    "fig = plt.figure()\nax = fig.add_subplot(2, 2, 5)\nax.plot([1, 2], [3, 4], coor='r')\n",       # raises first
    "fig = plt.figure()\nax = fig.add_subplot(xscale='bogus')\nax.plot([1, 2], [3, 4], coor='r')\n",  # raises first
    "fig = plt.figure()\nfig.add_subplot = lambda *a: plt.axes(projection='polar')\nax = fig.add_subplot()\n"
    "ax.plot([1, 2], [3, 4], coor='r')\n",
    "fig = plt.figure()\nax = fig.add_axes([0, 0, 1, 1], polar=True)\nax.plot([1, 2], [3, 4], coor='r')\n",
    "ax1 = plt.axes()\nax2 = ax1.twinx()\nax2.plot([1, 2], [3, 4], coor='r')\n",     # pyplot's current Figure
    "fig, ax1 = plt.subplots()\nax2 = ax1.twinx(axes_class=None, zorder='x')\nax2.plot([1, 2], [3, 4], coor='r')\n",
])
def test_no_claim_on_an_added_axes_where_another_class_or_an_error_may_come_first(cell):
    assert not [f for f in claims(cell, namespace()) if "coor" in f.message], cell
    with pytest.raises((AttributeError, ValueError, TypeError)):
        exec(cell, namespace())
    plt.close("all")


def test_no_added_axes_claim_where_matplotlib_may_make_another_class(monkeypatch):
    """A method set on the Figure class, a projection registered as "rectilinear", or a figure
    hook (it may set the Figure's own methods): the Axes added may be anything."""
    from matplotlib import projections
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    class Mine(Axes):
        name = "rectilinear"

        def plott(self, *args):
            return self.plot(*args)

    cell = "fig = plt.figure()\nax = fig.add_subplot()\nax.plott([1, 2], [3, 4])\n"
    assert claims(cell, namespace())
    original = Figure.add_subplot
    monkeypatch.setattr(Figure, "add_subplot", lambda self, *a, **k: original(self, *a, axes_class=Mine, **k))
    assert claims(cell, namespace()) == []
    exec(cell, namespace())
    plt.close("all")
    monkeypatch.undo()
    monkeypatch.setitem(projections.projection_registry._all_projection_types, "rectilinear", Mine)
    assert claims(cell, namespace()) == []
    exec(cell, namespace())
    plt.close("all")
    monkeypatch.undo()
    monkeypatch.setitem(matplotlib.rcParams, "figure.hooks", ["builtins:print"])
    assert claims(cell, namespace()) == []


# -- what matplotlib's documented methods return, on what the cell made ------------------------

def test_each_documented_matplotlib_return_is_exactly_that_class():
    """returns.py's matplotlib rows, held against matplotlib running: each method, called on an
    Axes or a Figure as a cell calls it, returns an instance of exactly the class written."""
    import importlib

    from jupyter_codecheck.facts.returns import _DOCUMENTED
    z = np.arange(16.0).reshape(4, 4)
    given = {"imshow": (z,), "scatter": ([1], [2]), "text": (0, 0, "a"), "annotate": ("a", (0, 0)), "legend": (),
             "contour": (z,), "contourf": (z,), "pcolormesh": (z,), "pcolor": (z,), "axhline": (), "axvline": (),
             "axline": ((0, 0), (1, 1)), "fill_between": ([1, 2], [1, 2]), "vlines": (1, 0, 1), "hlines": (1, 0, 1),
             "axvspan": (0, 1), "axhspan": (0, 1), "fill_betweenx": ([1, 2], [1, 2]), "secondary_xaxis": ("top",),
             "secondary_yaxis": (0,), "add_gridspec": (2, 2)}
    rows = {k: v for k, v in _DOCUMENTED.items() if k[0].startswith("matplotlib.")}
    assert len(rows) >= 18
    for (module, qualname), (parameter, cls_module, cls_name) in rows.items():
        fig, ax = plt.subplots()
        name = qualname.rpartition(".")[2]
        owner = fig if qualname.startswith("FigureBase.") else ax
        args = (ax.imshow(z),) if name == "colorbar" else given[name]
        with pytest.warns(UserWarning) if name == "legend" else _nothing():
            made = getattr(owner, name)(*args)
        plt.close("all")
        assert parameter is None
        assert type(made) is getattr(importlib.import_module(cls_module), cls_name), qualname
        assert getattr(type(owner), name).__qualname__ == qualname or name in ("colorbar", "legend")


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@pytest.mark.parametrize("cell, good", [
    ("fig, ax = plt.subplots()\nt = ax.text(0, 0, 'a')\nt.set(colr='r')\n",
     "fig, ax = plt.subplots()\nt = ax.text(0, 0, 'a')\nt.set(color='r')\n"),
    ("fig, ax = plt.subplots()\nax.text(0, 0, 'a').set(fontsiz=3)\n",
     "fig, ax = plt.subplots()\nax.text(0, 0, 'a').set(fontsize=3)\n"),
    ("fig, ax = plt.subplots()\ncs = ax.contour(np.arange(16.0).reshape(4, 4))\ncs.clabel(fontsiz=9)\n",
     "fig, ax = plt.subplots()\ncs = ax.contour(np.arange(16.0).reshape(4, 4))\ncs.clabel(fontsize=9)\n"),
    ("fig = plt.figure()\ngs = fig.add_gridspec(3, hspace=0)\naxs = gs.subplots(sharex=True, shareyy=True)\n",
     "fig = plt.figure()\ngs = fig.add_gridspec(3, hspace=0)\naxs = gs.subplots(sharex=True, sharey=True)\n"),
    ("fig = plt.figure()\ngs = fig.add_gridspec(2, 2)\nax = fig.add_subplot(gs[0, :])\ngs.update(lefft=0.1)\n",
     "fig = plt.figure()\ngs = fig.add_gridspec(2, 2)\nax = fig.add_subplot(gs[0, :])\ngs.update(left=0.1)\n"),
    ("fig, ax = plt.subplots()\nsecax = ax.secondary_xaxis('top')\nsecax.set(xlabl='x')\n",
     "fig, ax = plt.subplots()\nsecax = ax.secondary_xaxis('top')\nsecax.set(xlabel='x')\n"),
    ("fig, ax = plt.subplots()\nsecax = ax.secondary_yaxis('left')\nsecax.set_ylabel('y')\nax.plto([1, 2])\n",
     "fig, ax = plt.subplots()\nsecax = ax.secondary_yaxis('left')\nsecax.set_ylabel('y')\nax.plot([1, 2])\n"),
    ("fig, ax = plt.subplots()\nim = ax.imshow([[1, 2], [3, 4]])\nim.set_interpolation('bilinear')\n"
     "t = ax.annotate('a', (0, 0))\nt.set_color('r')\nax.plto([1, 2])\n",
     "fig, ax = plt.subplots()\nim = ax.imshow([[1, 2], [3, 4]])\nim.set_interpolation('bilinear')\n"
     "t = ax.annotate('a', (0, 0))\nt.set_color('r')\nax.plot([1, 2])\n"),
])
def test_what_a_made_axes_documented_method_returns_is_that_class(cell, good):
    found = claims(cell, namespace())
    assert len(found) == 1, (cell, found)
    with pytest.raises((AttributeError, TypeError)) as raised:
        exec(cell, namespace())
    plt.close("all")
    assert type(raised.value).__name__ in found[0].message or found[0].kind in ("attribute", "call"), found[0].message
    runs_unclaimed(good, namespace())


def test_an_artist_method_of_the_users_or_given_the_users_code_may_change_anything(monkeypatch):
    """A function of the user's set on an artist's class runs in the cell (it may set `plto` on
    the Axes); so may one given to an artist's method; a store on the class in the cell."""
    from matplotlib.image import AxesImage

    def evil(self, value):
        plt.gca().plto = lambda *a: None

    cell = "fig, ax = plt.subplots()\nim = ax.imshow([[1, 2], [3, 4]])\nim.set_interpolation('bilinear')\nax.plto(1)\n"
    monkeypatch.setattr(AxesImage, "set_interpolation", evil, raising=False)
    runs_unclaimed(cell, namespace())
    monkeypatch.undo()
    assert claims(cell, namespace())
    given = "fig, ax = plt.subplots()\nt = ax.text(0, 0, 'a')\nt.set_picker(lambda *a: None)\nax.plto(1)\n"
    assert claims(given, namespace()) == []
    stored = "fig, ax = plt.subplots()\nt = ax.text(0, 0, 'a')\nt.set(colr='r')\n"
    assert claims("import matplotlib.text\nmatplotlib.text.Text.set_colr = lambda s, v: None\n" + stored, namespace()) == []


# -- a method called on an artist or a colorbar a matplotlib call of the cell made -------------

_IMAGE = "fig, ax = plt.subplots()\nim = ax.imshow([[1, 2], [3, 4]])\n"


@pytest.mark.parametrize("cell, good", [
    (_IMAGE + "cbar = fig.colorbar(im)\ncbar.set_label('z')\ncbar.sec_ticks([1, 2])\n",
     _IMAGE + "cbar = fig.colorbar(im)\ncbar.set_label('z')\ncbar.set_ticks([1, 2])\n"),
    ("fig, ax = plt.subplots()\nax.plot([1, 2], label='a')\nleg = ax.legend()\nleg.set_inulayout(False)\n",
     "fig, ax = plt.subplots()\nax.plot([1, 2], label='a')\nleg = ax.legend()\nleg.set_in_layout(False)\n"),
    (_IMAGE + "im.set_clim(1, 4)\nim.set_clm(1, 4)\n", _IMAGE + "im.set_clim(1, 4)\nim.set_cmap('gray')\n"),
    ("fig, ax = plt.subplots()\nt = ax.text(0, 0, 'a')\nt.set_fontsise(3)\n",
     "fig, ax = plt.subplots()\nt = ax.text(0, 0, 'a')\nt.set_fontsize(3)\n"),
])
def test_a_method_an_artist_the_cell_made_lacks_is_claimed_where_it_is_called(cell, good):
    holds(cell, namespace(), AttributeError, "attribute")
    runs_unclaimed(good, namespace())


@pytest.mark.parametrize("cell", [
    # set on it by the cell, by a function of the user's, or by name; a name matplotlib's code spells
    "fig, ax = plt.subplots()\nt = ax.text(0, 0, 'a')\nt.set_fontsise = print\nt.set_fontsise(3)\n",
    "def f(o):\n    o.set_fontsise = print\nfig, ax = plt.subplots()\nt = ax.text(0, 0, 'a')\nf(t)\nt.set_fontsise(3)\n",
    "fig, ax = plt.subplots()\nt = ax.text(0, 0, 'a')\nsetattr(t, 'set_font' + 'sise', print)\nt.set_fontsise(3)\n",
    "def f():\n    plt.gca().texts[0].set_fontsise = print\nfig, ax = plt.subplots()\nt = ax.text(0, 0, 'a')\n"
    "f()\nt.set_fontsise(3)\n",
    "fig, ax = plt.subplots()\nline = ax.axhline(1)\nline.stale_callback = print\nline.stale_callback(line, True)\n",
    # read, not called; guarded
    "fig, ax = plt.subplots()\nt = ax.text(0, 0, 'a')\nprint(getattr(t, 'set_fontsise', None))\n",
    "fig, ax = plt.subplots()\nt = ax.text(0, 0, 'a')\nhasattr(t, 'set_fontsise') and t.set_fontsise(3)\n",
])
def test_no_claim_on_an_artist_the_cell_made_where_it_may_hold_the_name(cell):
    runs_unclaimed(cell, namespace())


def test_no_drawn_method_claim_where_matplotlibs_source_spells_the_name_or_is_not_read(monkeypatch):
    """Every public name matplotlib's code may set on an object it made is a word of its source
    (`stale_callback`, set when an artist is added to an Axes); one of a package whose files
    cannot be read may be any."""
    from jupyter_codecheck.facts import abstract_matplotlib

    assert abstract_matplotlib.spelled_by_matplotlib("stale_callback")
    assert not abstract_matplotlib.spelled_by_matplotlib("set_fontsise")
    cell = "fig, ax = plt.subplots()\nt = ax.text(0, 0, 'a')\nt.set_fontsise(3)\n"
    monkeypatch.setitem(abstract_matplotlib._SPELLED, "mpl_toolkits", None)
    assert claims(cell, namespace()) == []


# -- a name missing from a made Axes, read but not called --------------------------------------

@pytest.mark.parametrize("cell, good", [
    ("fig, ax = plt.subplots()\nax.spines['top'].set_visible(False)\nax.xaxis.set_ticks_position('bottom')\n"
     "ax.sipnes['right'].set_visible(False)\n",
     "fig, ax = plt.subplots()\nax.spines['top'].set_visible(False)\nax.xaxis.set_ticks_position('bottom')\n"
     "ax.spines['right'].set_visible(False)\n"),
    ("fig, ax = plt.subplots()\nax.plot(x, np.sin(x))\nprint(ax.xaxis.get_scale())\nprint(ax.yaxiss.get_scale())\n",
     "fig, ax = plt.subplots()\nax.plot(x, np.sin(x))\nprint(ax.xaxis.get_scale())\nprint(ax.yaxis.get_scale())\n"),
    ("fig = plt.figure()\nax = fig.add_subplot()\nax.text(0.5, 0.5, 'a', transform=ax.transAxse)\n",
     "fig = plt.figure()\nax = fig.add_subplot()\nax.text(0.5, 0.5, 'a', transform=ax.transAxes)\n"),
])
def test_a_name_a_made_axes_lacks_is_claimed_where_only_matplotlib_numpy_and_python_run(cell, good):
    ns = namespace(x=np.linspace(0, 1, 5))
    found = claims(cell, ns)
    assert len(found) == 1 and found[0].kind == "attribute", (cell, found)
    with pytest.raises(AttributeError):
        exec(cell, dict(ns))
    plt.close("all")
    runs_unclaimed(good, ns)


class _Data:
    def __array__(self, dtype=None, copy=None):
        plt.gca().right_ax = 1
        return np.arange(3.0)


@pytest.mark.parametrize("cell", [
    "fig, ax = plt.subplots()\npd.Series([1, 2]).plot(secondary_y=True)\nprint(ax.right_ax)\n",   # pandas sets it
    "fig, ax = plt.subplots()\nax.plot(data)\nprint(ax.right_ax)\n",          # the user's object, read by numpy
    "def f(a):\n    a.right_ax = 1\nfig, ax = plt.subplots()\nf(ax)\nprint(ax.right_ax)\n",
    "fig, ax = plt.subplots()\nsetattr(ax, 'right' + '_ax', 1)\nprint(ax.right_ax)\n",
    "fig, ax = plt.subplots()\nax.__dict__['right_ax'] = 1\nprint(ax.right_ax)\n",
    "fig, ax = plt.subplots()\nlabel = ax.set_title('a')\nlabel.set_picker(lambda *a: None)\nprint(ax.right_ax)\n",
])
def test_no_claim_on_a_name_read_from_a_made_axes_where_other_code_may_set_it(cell):
    ns = namespace(data=_Data())
    assert claims(cell, ns) == [], cell
    exec(cell, dict(ns)) if "lambda" not in cell else None
    plt.close("all")


# -- a review's cases (thirty-fourth session): none is a claim, and each runs as the review saw --

class _Sets:
    """An object of the user's whose dunders set a name on pyplot's current Axes when read."""
    def __str__(self):
        plt.gca().plto = print
        return "x"

    __repr__ = __str__

    def __float__(self):
        plt.gca().plto = print
        return 1.0


@pytest.mark.parametrize("cell", [
    "fig, ax = plt.subplots()\nt = ax.text(0, 0, 'a')\nt.set_text(label)\nax.plto(1)\n",
    "fig, ax = plt.subplots()\nt = ax.text(0, 0, 'a')\nt.set_text(held['k'])\nax.plto(1)\n",
    "fig, ax = plt.subplots()\nax.set_title(label)\nax.plto(1)\n",
    "fig, ax = plt.subplots()\nprint(held)\nprint(ax.plto)\n",
    "fig, axs = plt.subplots(1, 2)\naxs[1].remove()\nax2 = axs[1].twinx()\nax2.plott(2)\n",
    "fig = plt.figure()\nax = fig.add_axes([0.1, 0.1, -0.5, 0.8])\nax.plott([1, 2])\n",
    "fig, ax = plt.subplots()\nx = ax.right_ax if hasattr(ax, 'right_ax') else ax\n",
    "fig, ax = plt.subplots()\nright = hasattr(ax, 'right_ax') and ax.right_ax\n",
    "fig, ax = plt.subplots()\nif False:\n    print(ax.spings)\n",
    "fig, ax = plt.subplots()\nnames = [ax.spings for _ in range(0)]\n",
    "plt.rcParams['figure.hooks'] = []\nfig = plt.figure()\nax = fig.add_subplot()\nax.plott(2)\n",
    "plt.rc('figure', hooks=[])\nfig, ax = plt.subplots()\nax.plott(2)\n",
    "import matplotlib as m\nm.__dict__['x4'] = 2\nprint(m.x4)\n",
    "for m in [matplotlib]:\n    m.x9 = 1\nprint(matplotlib.x9)\n",
    "object.__setattr__(matplotlib, 'x11', 1)\nprint(matplotlib.x11)\n",
    "matplotlib.__sizeof__()\n",
])
def test_no_claim_where_a_review_found_the_users_code_an_earlier_error_or_a_guard(cell):
    ns = namespace(label=_Sets(), held={"k": _Sets()}, matplotlib=matplotlib)
    assert [f.message for f in claims(cell, ns) if f.kind in ("attribute", "call")] == [], cell
    try:
        exec(cell, dict(ns))
    except (AttributeError, ValueError, TypeError) as e:       # an earlier line's, or the guarded name's
        assert "plto" not in str(e) and "x4" not in str(e) and "x9" not in str(e), (cell, e)
    finally:
        plt.close("all")
        for name in ("x4", "x9", "x11"):
            matplotlib.__dict__.pop(name, None)


def test_no_claim_where_a_wrapper_or_a_method_of_the_users_is_on_matplotlibs_classes(monkeypatch):
    """functools.wraps copies `__module__`: a wrapper of the user's over matplotlib's methods is
    the user's code; so is a method replaced that matplotlib's own call (`Artist.pchanged` in
    every setter, `_make_twin_axes` in `twinx`)."""
    import functools

    from matplotlib.artist import Artist
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    polar = "fig = plt.figure()\nax = fig.add_subplot()\nax.set_rmax(2)\n"
    plain = "fig, ax = plt.subplots()\nim = ax.imshow([[1, 2], [3, 4]])\nim.set_visible(False)\nax.plto(1)\n"
    twin = "fig, ax = plt.subplots()\nax2 = ax.twinx()\nax2.set_rmax(2)\n"
    assert claims(polar, namespace()) and claims(plain, namespace()) and claims(twin, namespace())
    original = Figure.add_subplot
    monkeypatch.setattr(Figure, "add_subplot", functools.wraps(original)(
        lambda self, *a, **k: original(self, *a, **{"projection": "polar", **k})))
    runs_unclaimed(polar, namespace())
    monkeypatch.undo()
    monkeypatch.setattr(Artist, "pchanged", lambda self: setattr(self.axes, "plto", print) if self.axes else None)
    runs_unclaimed(plain, namespace())
    monkeypatch.undo()
    made = Axes._make_twin_axes
    monkeypatch.setattr(Axes, "_make_twin_axes", lambda self, *a, **k: made(self, *a, **{**k, "projection": "polar"}))
    assert claims(twin, namespace()) == []


def test_reading_what_a_new_axes_holds_runs_no_method_of_the_users(monkeypatch):
    from jupyter_codecheck.facts.abstract_matplotlib import _STAND_INS
    from matplotlib.axes import Axes
    ran = []
    original = Axes.__init__

    def mine(self, *args, **kwargs):
        ran.append(1)
        original(self, *args, **kwargs)
        self.plott = self.plot

    monkeypatch.setattr(Axes, "__init__", mine)
    _STAND_INS.clear()
    cell = "fig = plt.figure()\nax = fig.add_subplot()\nax.plott([1, 2])\n"
    assert claims(cell, namespace()) == [] and ran == []
    runs_unclaimed(cell, namespace())


@pytest.mark.parametrize("cell, good", [
    ("fig, ax = plt.subplots(2, 1)\npcm = ax[1].pcolormesh(np.ones((3, 3)))\nfig.colorbar(pcm, ax=ax[1], exted='max')\n",
     "fig, ax = plt.subplots(2, 1)\npcm = ax[1].pcolormesh(np.ones((3, 3)))\nfig.colorbar(pcm, ax=ax[1], extend='max')\n"),
    ("fig, axs = plt.subplots(1, 2)\nim = axs[0].imshow([[1, 2]])\nfig.colorbar(im, ax=axs, shriink=0.8)\n",
     "fig, axs = plt.subplots(1, 2)\nim = axs[0].imshow([[1, 2]])\nfig.colorbar(im, ax=axs, shrink=0.8)\n"),
    ("fig, axs = plt.subplots(2, 1)\nim = axs[0].imshow([[1, 2]])\nim.set(clim=(0, 1), interpolaton='none')\n",
     "fig, axs = plt.subplots(2, 1)\nim = axs[0].imshow([[1, 2]])\nim.set(clim=(0, 1), interpolation='none')\n"),
])
def test_a_mappable_the_cell_made_on_a_known_axes_takes_colorbars_rule(cell, good):
    found = claims(cell, namespace())
    assert len(found) == 1, (cell, found)
    with pytest.raises((TypeError, AttributeError)):
        exec(cell, namespace())
    plt.close("all")
    runs_unclaimed(good, namespace())


# -- a second review's cases (thirty-fourth session) ---------------------------------------------

def _second_review_namespace():
    import types as _types
    label = _Sets()
    fig0, ax0 = plt.subplots()
    t0 = ax0.text(0, 0, "a")
    t0.add_callback(lambda artist: setattr(plt.gca(), "spings", 1))

    class Odd:
        def __getattr__(self, name):
            raise AttributeError(name)

        def __call__(self, *args, **kwargs):
            return None

    return namespace(label=label, ser=pd.Series([label, label], dtype=object), t0=t0, fig0=fig0,
                     odd=_types.MethodType(Odd(), fig0), matplotlib=matplotlib)


@pytest.mark.parametrize("cell", [
    "odd('f.png', di=1)\n",                                                     # a method of the user's object
    "fig0.savefig(path, bbox_inches='tight', di=200)\n",                       # the figure drawn first
    "fig0.savefig(path, dpi='high', di=200)\n",                                # a value refused first
    "plt.rcParams['savefig.format'] = 'eps'\nfig0.savefig(path0, papertype='a4')\n",
    "p = plt.rcParams\np['figure.hooks'] = []\nfig = plt.figure()\nax = fig.add_subplot()\nax.plott(1)\n",
    "fig, ax = plt.subplots()\nax.set_title(ser)\nax.plto(1)\n",              # objects in a pandas Series
    "fig, ax = plt.subplots()\nplt.title(label)\nax.plto(1)\n",                # pyplot reads it
    "fig, ax = plt.subplots()\nprint(label)\nax.plto(1)\n",                    # print reads it
    "fig, ax = plt.subplots()\nt0.set_visible(False)\nprint(ax.spings)\n",     # a live artist's callback
    "fig, ax = plt.subplots()\nassert ax, ax.spings\n",
    "fig, ax = plt.subplots()\nx = 1 > 2 > ax.spings\n",
    "fig, ax = plt.subplots()\nx = ax.right_ax() if hasattr(ax, 'right_ax') else ax\n",
])
def test_no_claim_where_a_second_review_found_a_draw_a_setting_or_the_users_code(cell, tmp_path):
    ns = _second_review_namespace()
    cell = cell.replace("path0", repr(str(tmp_path / "f"))).replace("path", repr(str(tmp_path / "f.png")))
    try:
        assert [f.message for f in claims(cell, ns)] == [], cell
    finally:
        plt.close("all")


def test_no_claim_where_matplotlibs_classes_hold_a_descriptor_of_the_users(monkeypatch):
    """A setter of the user's in a property, a partialmethod, any descriptor object or a
    function made by exec, set on Artist: it runs in every setter (and making a stand-in)."""
    import functools

    from matplotlib.artist import Artist
    cell = "fig, ax = plt.subplots()\nim = ax.imshow([[1, 2], [3, 4]])\nim.set_visible(False)\nax.plto(1)\n"
    assert claims(cell, namespace())
    ran = []

    class Descriptor:
        def __get__(self, obj, cls=None):
            ran.append(1)
            return lambda *a: None

    made = {}
    exec("def pchanged(self):\n    pass\n", made)
    original = Artist.stale
    for patch in (property(original.fget, lambda self, v: ran.append(v)),
                  functools.partialmethod(lambda self: ran.append(1)), Descriptor(), made["pchanged"]):
        name = "stale" if isinstance(patch, property) else "pchanged"
        monkeypatch.setattr(Artist, name, patch)
        ran.clear()
        assert claims(cell, namespace()) == [] and ran == [], patch
        monkeypatch.undo()


def test_no_claim_where_pyplot_is_wrapped_by_the_user(monkeypatch):
    import functools
    original = plt.subplots
    monkeypatch.setattr(plt, "subplots", functools.wraps(original)(
        lambda *a, **k: original(*a, subplot_kw={"projection": "polar"}, **k)))
    runs_unclaimed("fig, ax = plt.subplots()\nax.set_rmax(2)\n", namespace())


# -- what runs before a read, and matplotlib's classes named (thirty-sixth session) ---------------

def _sets_xaaxis():
    plt.gca().xaaxis = plt.gca().xaxis


@pytest.mark.parametrize("cell, good", [
    # only the statements before a read run before it: the user's code after it changes nothing
    ("fig, ax = plt.subplots()\nax.xaaxis.set_tick_params(rotation=40)\nlater()\n",
     "fig, ax = plt.subplots()\nax.xaxis.set_tick_params(rotation=40)\nlater()\n"),
    # a class of matplotlib's named in the cell runs matplotlib's code when called
    ("fig, ax = plt.subplots()\nax.xaxiz.set_minor_locator(AutoMinorLocator())\n",
     "fig, ax = plt.subplots()\nax.xaxis.set_minor_locator(AutoMinorLocator())\n"),
    ("fig, ax = plt.subplots()\nax.yaxis.set_major_formatter(FuncFormatter(np.sqrt))\nprint(ax.yaxiss)\n",
     "fig, ax = plt.subplots()\nax.yaxis.set_major_formatter(FuncFormatter(np.sqrt))\nprint(ax.yaxis)\n"),
])
def test_a_drawing_read_before_the_users_code_or_with_matplotlibs_classes_named(cell, good):
    from matplotlib.ticker import AutoMinorLocator, FuncFormatter
    ns = namespace(later=lambda: None, AutoMinorLocator=AutoMinorLocator, FuncFormatter=FuncFormatter)
    holds(cell, ns, AttributeError, "attribute")
    runs_unclaimed(good, ns)


@pytest.mark.parametrize("cell", [
    "fig, ax = plt.subplots()\nsets()\nax.xaaxis.set_tick_params(rotation=40)\n",       # the user's code before
    "fig, ax = plt.subplots()\nax.set_title(Mine())\nprint(ax.xaaxis)\n",              # the user's class named
    "fig, ax = plt.subplots()\nax.xaxis.set_major_formatter(FuncFormatter(sets))\nfig.canvas.draw()\nprint(ax.xaaxis)\n",
])
def test_no_drawing_read_claimed_where_the_users_code_runs_before(cell):
    from matplotlib.ticker import FuncFormatter

    class Mine(str):
        def __str__(self):
            _sets_xaaxis()
            return "t"

    def sets(*args):
        _sets_xaaxis()
        return ""

    ns = namespace(sets=sets, Mine=Mine, FuncFormatter=FuncFormatter)
    assert claims(cell, ns) == [], cell
    exec(cell, dict(ns))
    plt.close("all")


# -- a made Axes given to the user's code, a method of it called (thirty-sixth session) ----------

_PLOT_HELPER = "def example_plot(ax):\n    ax.plot([1, 2])\n    ax.set_title('Title')\n"


def _session(*inputs: str, **objects) -> dict:
    """A namespace as IPython's: the inputs run, and kept in `In` as its history."""
    ns = namespace(**objects, __name__="__main__")
    ns["In"] = ["", *inputs]
    for text in inputs:
        exec(text, ns)
    return ns


@pytest.mark.parametrize("cell", [
    "fig, ax = plt.subplots()\nexample_plot(ax)\nax.set_titel('x')\n",
    "fig, (ax1, ax2) = plt.subplots(2, 1)\nexample_plot(ax1)\nfig.tght_layout()\n",
])
def test_a_method_no_code_of_the_session_writes_is_missing_after_the_users_code(cell):
    holds(cell, _session(_PLOT_HELPER), AttributeError, "attribute")


@pytest.mark.parametrize("helper", [
    "def example_plot(ax):\n    ax.set_titel = ax.set_title\n    ax.figure.tght_layout = ax.figure.tight_layout\n",
    "def example_plot(ax):\n    for name in ('set_', 'tght_'):\n        setattr(ax, name + 'titel', ax.set_title)\n"
    "        setattr(ax.figure, name + 'layout', ax.figure.tight_layout)\n",
    "def example_plot(ax):\n    global fig\n    fig = types.SimpleNamespace(tght_layout=print)\n    ax.__class__ = Titled\n",
])
def test_no_method_claimed_where_the_sessions_code_may_set_it(helper):
    class Titled(matplotlib.axes.Axes):
        def set_titel(self, *args):
            pass

    import types
    ns = _session(helper, Titled=Titled, types=types, matplotlib=matplotlib)
    for cell in ("fig, ax = plt.subplots()\nexample_plot(ax)\nax.set_titel('x')\n",
                 "fig, ax = plt.subplots()\nexample_plot(ax)\nfig.tght_layout()\n"):
        if "tght" in cell and "__class__" in helper:
            cell = cell.replace("fig, ax", "f, ax")
        assert claims(cell, ns) == [], (helper, cell)
        exec(cell, dict(ns))
        plt.close("all")


def test_no_method_claimed_without_the_history_or_with_a_module_of_the_users(tmp_path, monkeypatch):
    ns = _session(_PLOT_HELPER)
    cell = "fig, ax = plt.subplots()\nexample_plot(ax)\nax.set_titel('x')\n"
    del ns["In"]
    assert claims(cell, ns) == []
    (tmp_path / "helpers_of_mine.py").write_text(
        "def example_plot(ax):\n    name = 'set_' + 'titel'\n    ax.__dict__[name] = ax.set_title\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    ns = _session("from helpers_of_mine import example_plot")
    assert claims(cell, ns) == []
    exec(cell, dict(ns))
    plt.close("all")


def test_a_librarys_function_no_code_of_the_session_writes_is_missing_after_the_users_code():
    helper = "def scale(v):\n    return np.log(v)\n"
    cell = "x = scale(2.0)\ni = np.flatnonzdro(np.arange(3) == 1)[0]\n"
    holds(cell, _session(helper), AttributeError, "attribute")
    runs_unclaimed(cell.replace("flatnonzdro", "flatnonzero"), _session(helper))
    for helper in ("def scale(v):\n    np.flatnonzdro = np.flatnonzero\n    return v\n",
                   # the name written nowhere, but `np` bound again by the user's code
                   "def scale(v):\n    global np\n    np = types.SimpleNamespace(**{'flatnonz' + 'dro': lambda a: [0]})\n"
                   "    return v\n",
                   "def scale(v):\n    globals()['np'] = types.SimpleNamespace(flatnonzdro=lambda a: [0])\n"):
        import types
        ns = _session("import types", helper)
        assert claims(cell, ns) == [], helper
        exec(cell, dict(ns))


def test_a_live_estimators_method_no_code_of_the_session_writes_is_missing_after_it_was_given_away():
    from sklearn.linear_model import LinearRegression
    objects = dict(model=LinearRegression(), X=np.ones((4, 2)), y=np.arange(4.0))
    cell = "prepare(model)\nmodel.fitt(X, y)\n"
    holds(cell, _session("def prepare(m):\n    m.set_params(fit_intercept=False)\n", **objects), AttributeError,
          "attribute")
    runs_unclaimed(cell.replace("fitt", "fit"), _session("def prepare(m):\n    m.set_params(fit_intercept=False)\n",
                                                        **objects))
    ns = _session("def prepare(m):\n    m.fitt = m.fit\n", **objects)
    assert claims(cell, ns) == []
    exec(cell, dict(ns))
    # a frame answers its columns as attributes: whatever the user's code adds stays unknown
    ns = _session("def prepare(d):\n    d[''.join(['he', 'sd'])] = 1\n", df=pd.DataFrame({"a": [1]}))
    assert claims("prepare(df)\nprint(df.hesd)\n", ns) == []


def test_no_method_claimed_where_the_history_lacks_a_function_of_the_users():
    """A function the namespace holds that no input defines (a startup file's, a history
    switched off): the session's code is not all in the history."""
    ns = _session(_PLOT_HELPER)
    cell = "fig, ax = plt.subplots()\nexample_plot(ax)\nax.set_titel('x')\n"
    assert claims(cell, ns)
    ns["In"] = [""]
    assert claims(cell, ns) == []


def test_a_drawing_read_where_the_cell_binds_again_a_name_the_kernel_holds_an_artist_by():
    """The cell's own `ax` is read after it binds it: the kernel's Axes by that name (an artist,
    whose callbacks run in its setters) is not what the cell reads."""
    fig0, ax0 = plt.subplots()
    ns = namespace(ax=ax0, fig=fig0)
    holds("fig, ax = plt.subplots()\nax.plot([1, 2])\nax.xaxiz.set_minor_locator(None)\n", ns, AttributeError, "attribute")
    assert claims("ax.plot([1, 2])\nfig, ax = plt.subplots()\nax.xaxiz.set_minor_locator(None)\n", ns) == []
    plt.close("all")


_ANSWERS_ALL = "class Any:\n    def __getattr__(self, n):\n        return lambda *a, **k: None\n"


@pytest.mark.parametrize("inputs, cell", [
    # the function given the Axes calls another of the user's, which binds `fig` again
    ((_ANSWERS_ALL, "def _inner():\n    global fig\n    fig = Any()\n",
      "def example_plot(ax):\n    ax.plot([1, 2])\n    _inner()\n"),
     "fig, ax = plt.subplots()\nexample_plot(ax)\nfig.tght_layout()\n"),
    # a method of the user's class binds it again
    ((_ANSWERS_ALL, "class Styler:\n    def __init__(self, ax):\n        self.ax = ax\n"
      "    def apply(self):\n        global fig\n        fig = Any()\n"),
     "fig, ax = plt.subplots()\nStyler(ax).apply()\nfig.tght_layout()\n"),
    # a module's name bound again by a function the user's function calls
    ((_ANSWERS_ALL, "def _inner():\n    global np\n    np = Any()\n", "def scale(v):\n    _inner()\n    return v\n"),
     "x = scale(2.0)\ni = np.flatnonzdro(np.arange(3) == 1)\n"),
])
def test_no_method_claimed_where_the_users_code_binds_the_name_again_out_of_sight(inputs, cell):
    ns = _session(*inputs)
    assert claims(cell, ns) == [], cell
    exec(cell, ns)          # the functions' own globals: the namespace itself
    plt.close("all")


def test_reading_the_sessions_code_runs_none_of_the_users():
    """The history and the namespace read for the missing-method rule: no property, `__getattr__`,
    `__class__`, `__eq__`, `__hash__` or `__iter__` of the user's runs."""
    ran = []

    class Loud:
        def __getattribute__(self, name):
            ran.append(name)
            return object.__getattribute__(self, name)

        def __getattr__(self, name):
            ran.append(name)
            raise AttributeError(name)

        @property
        def __class__(self):
            ran.append("__class__")
            return Loud

        def __eq__(self, other):
            ran.append("__eq__")
            return False

        def __hash__(self):
            ran.append("__hash__")
            return 0

        def __iter__(self):
            ran.append("__iter__")
            return iter(())

    ns = _session(_PLOT_HELPER, loud=Loud(), other=[Loud()])
    ran.clear()
    found = claims("fig, ax = plt.subplots()\nexample_plot(ax)\nax.set_titel('x')\n", ns)
    plt.close("all")
    assert [f.kind for f in found] == ["attribute"] and ran == []


def test_what_a_users_class_may_bind_is_read_without_its_metaclass():
    """`_stored_globals` reads a class's mro and members through type's own slots: a metaclass
    property of the user's (`__dict__`, `__mro__`) never runs."""
    ran = []

    class Meta(type):
        @property
        def __dict__(cls):
            ran.append("__dict__")
            return {}

    helper = "class Styler(metaclass=Meta):\n    def __init__(self, ax):\n        self.ax = ax\n"
    ns = _session(helper, Meta=Meta)
    ran.clear()
    claims("fig, ax = plt.subplots()\nStyler(ax)\nax.set_titel('x')\n", ns)
    plt.close("all")
    assert ran == []
