"""The names a failure itself offers (failure/offered.py): the attribute or keyword its exception
refused, and the names the object or function it names takes, by Python's own suggestion rule;
written at the raising line as a repair where the facts could not know the object before the
cell ran. Each against the library raising for real, and each repaired cell run to see."""
from __future__ import annotations

import contextlib
import math
import io
import sys

import matplotlib
import pytest

matplotlib.use("agg")

from jupyter_codecheck.failure import Failure, repair_failure  # noqa: E402
from jupyter_codecheck.failure.offered import Offer, distance, listed, nearest, offers_in_text, offers_of  # noqa: E402

from test_failure_repair import _run  # noqa: E402


def _pythons_suggestion(exc: BaseException) -> str | None:
    """What CPython suggests ("Did you mean: 'x'?"), as its own excepthook prints the exception
    (Python 3.10 and 3.11 print it in C; 3.12's traceback module formats it too)."""
    out = io.StringIO()
    with contextlib.redirect_stderr(out):
        sys.__excepthook__(type(exc), exc, exc.__traceback__)
    text = out.getvalue()
    return text.split("Did you mean: '")[1].split("'")[0] if "Did you mean" in text else None


class _Thing:
    def colour(self):
        return 1

    def shape(self):
        return 2

    def colourmap(self):
        return 3

    def bins(self):
        return 4


@pytest.mark.parametrize("wrong", ["colur", "colours", "shpae", "Shape", "colourmp", "sape", "xyz", "c", "bnis"])
def test_the_nearest_names_are_pythons_own_suggestion(wrong):
    exc = _run(f"t = _Thing()\nt.{wrong}\n", {"_Thing": _Thing}, f"o-{wrong}")
    python = _pythons_suggestion(exc)
    near = nearest(wrong, ["colour", "shape", "colourmap", "bins"])
    if wrong == "bnis":
        # a swap of two neighbouring letters is one slip here; Python's rule counts two
        assert python is None and near == ("bins",)
    else:
        assert (near[0] if near else None) == python


def test_the_distance_counts_pythons_costs():
    assert distance("pv", "pi", 9) == 2 and distance("Abc", "abc", 9) == 1
    assert distance("bnis", "bins", 9) == 2 and distance("abc", "xyz", 3) == 4
    assert nearest("lo", ["lw", "ls", "loc", "alpha"]) == ("loc", "ls", "lw")       # a tie: all of it
    assert nearest("_x", ["_y", "x"]) == ("_y", "x") and nearest("y", ["_y"]) == ()   # private only for private


def test_an_attribute_of_an_object_the_cell_made_is_offered_from_the_exception():
    earlier = "def load():\n    return {'a': 1, 'b': 2}\n"
    cell = "d = load()\nfor k, v in d.item():\n    print(k, v)\n"
    ns: dict = {}
    assert _run(earlier, ns, "a-1") is None
    exc = _run(cell, ns, "a-2")
    f = Failure.from_exception(exc, [earlier, cell])
    assert f.offers == [Offer("attribute", "item", ("items",))]
    assert Failure.from_dict(f.to_dict()).offers == f.offers
    # no kernel's objects: the facts cannot say what `load()` returns; the exception can
    fix = repair_failure(cell, exc, context=[earlier], use_model=False)
    assert (fix.repair.origin, fix.repair.verified, fix.repair.new_line) == ("error", "error", "for k, v in d.items():")
    assert _run(fix.repaired, dict(ns), "a-3") is None


def test_a_keyword_refused_deep_inside_matplotlib_is_offered_from_the_frames_on_the_way():
    setup = "import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\n"
    ns: dict = {}
    assert _run(setup, ns, "k-0") is None
    cases = {
        "ax.hist([1, 2, 3], bnis=3)\n": "bins",                   # Axes.hist's own parameter
        "ax.imshow([[1, 2], [3, 4]], alxha=0.5)\n": "alpha",       # the AxesImage's property
        "ax.plot([1, 2], label='a')\nax.legend(locc='best')\n": "loc",   # Legend.__init__, by its qualname
        "ax.annotate('a', x=(0.5, 0.5))\n": "xy",                  # the parameter the call lacks
    }
    for k, (cell, meant) in enumerate(cases.items()):
        exc = _run(cell, ns, f"k-{k + 1}")
        assert exc is not None
        f = Failure.from_exception(exc, [setup, cell])
        assert [o.names[0] for o in f.offers] == [meant], (cell, f.offers)
        fix = repair_failure(cell, exc, context=[setup], use_model=False)
        assert fix.repair is not None and f"{meant}=" in fix.repair.new_line, cell
        assert _run(fix.repaired, dict(ns), f"k-{k + 1}r") is None, fix.repaired
    import matplotlib.pyplot as plt
    plt.close("all")


def test_a_scikit_learn_estimators_keyword_is_offered_from_its_signature():
    cell = "from sklearn.linear_model import LogisticRegression\nm = LogisticRegression(max_iters=50)\n"
    exc = _run(cell, {}, "s-1")
    f = Failure.from_exception(exc, [cell])
    assert f.offers == [Offer("keyword", "max_iters", ("max_iter",))]
    fix = repair_failure(cell, exc, use_model=False)
    assert fix.repair.new_line == "m = LogisticRegression(max_iter=50)" and _run(fix.repaired, {}, "s-2") is None


def test_no_repair_where_the_written_word_is_not_one_place_or_the_exception_names_nothing_near():
    ns = {"a": {"x": 1}, "b": {"y": 2}}
    exc = _run("n = len(a.item()) + len(b.item())\n", dict(ns), "n-1")
    f = Failure.from_exception(exc, ["n = len(a.item()) + len(b.item())\n"])
    assert f.offers == [Offer("attribute", "item", ("items",))]
    fix = repair_failure("n = len(a.item()) + len(b.item())\n", exc, use_model=False)
    # Python places the raising instruction: the first `.item`, not the second
    assert (fix.repair.origin, fix.repair.new_line) == ("error", "n = len(a.items()) + len(b.item())")
    # from a traceback's text (no place in the line) the word written twice is not repaired
    text = "Cell In[1], line 1\nAttributeError: 'dict' object has no attribute 'item'. Did you mean: 'items'?\n"
    fix = repair_failure("n = len(a.item()) + len(b.item())\n", text, use_model=False)
    assert fix.failure.offers and (fix.repair is None or fix.repair.origin != "error")
    exc = _run("d = {}\nd.zzzzzz\n", {}, "n-2")
    assert Failure.from_exception(exc, ["d = {}\nd.zzzzzz\n"]).offers == []


def test_reading_the_exception_runs_none_of_the_users_code():
    calls = []

    class Spy:
        def __dir__(self):
            calls.append("dir")
            return ["colour"]

        def __getattr__(self, name):
            calls.append(name)
            raise AttributeError(f"'Spy' object has no attribute {name!r}", name=name, obj=self)

        def colour(self):
            return 1

    exc = _run("s.colur\n", {"s": Spy()}, "r-1")
    calls.clear()
    assert offers_of(exc, str(exc)) == [Offer("attribute", "colur", ("colour",))]
    assert calls == []


def test_a_stored_tracebacks_own_suggestion_is_an_offer():
    message = "'Figure' object has no attribute 'colorbas'. Did you mean: 'colorbar'?"
    assert offers_in_text(message) == [Offer("attribute", "colorbas", ("colorbar",))]
    f = Failure.from_text(f"Cell In[3], line 1\n----> 1 fig.colorbas(im)\nAttributeError: {message}\n",
                          ["fig.colorbas(im)\n"])
    assert f.offers == [Offer("attribute", "colorbas", ("colorbar",))]
    assert offers_in_text("'Figure' object has no attribute 'colorbas'") == []
    with pytest.raises(ValueError, match="offer kind"):
        Offer.from_dict({"kind": "shape", "wrong": "x", "names": []})


def test_where_the_nearest_names_tie_the_model_weighs_them(model_path):
    setup = "import matplotlib.pyplot as plt\n"
    cell = "fig, ax = plt.subplotn()\nax.plot([1, 2])\n"
    ns: dict = {}
    assert _run(setup, ns, "t-0") is None
    exc = _run(cell, ns, "t-1")
    fix = repair_failure(cell, exc, context=[setup], model=model_path, threads=1)
    # `subplot` and `subplots` are equally near `subplotn`, and the facts settle neither (unpacking
    # the one Axes `subplot()` makes fails only when it runs): the model was asked, and the choice
    # is the one that runs
    assert {c.new_line for c in fix.candidates[:2]} == {"fig, ax = plt.subplots()", "fig, ax = plt.subplot()"}
    assert fix.stats["model"] == model_path.name
    assert fix.repair.new_line == "fig, ax = plt.subplots()"
    assert _run(fix.repaired, dict(ns), "t-2") is None
    import matplotlib.pyplot as plt
    plt.close("all")


def test_an_attribute_a_library_looked_up_further_in_is_not_offered():
    """shlex reads `.read` of the int it was given: the int has `real`, but the user's code wrote
    no `.read`; only a lookup in the user's own code (or a module's __getattr__) is offered."""
    exc = _run("import shlex\nparts = shlex.split(3)\n", {}, "l-1")
    assert isinstance(exc, AttributeError) and exc.name == "read" and exc.obj == 3
    assert offers_of(exc, str(exc)) == []
    exc = _run("import numpy as np\nx = np.pv\n", {}, "l-2")          # numpy's module __getattr__
    assert offers_of(exc, str(exc)) == [Offer("attribute", "pv", ("pi",))]


def test_a_value_the_message_quotes_beside_the_ones_it_takes_is_offered_for_the_model_to_weigh(model_path):
    assert listed("Got 'ginni'; must be among {'gini', 'entropy'}") == [
        Offer("value", "ginni", ("gini",)), Offer("value", "gini", ("ginni",))]
    assert listed("unsupported operand type(s) for +: 'int' and 'str'") == []     # nothing near
    setup = "import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nax.plot([1, 2], label='a')\n"
    cell = "ax.legend(loc='uper right')\n"
    ns: dict = {}
    assert _run(setup, ns, "v-0") is None
    exc = _run(cell, ns, "v-1")
    f = Failure.from_exception(exc, [setup, cell])
    assert Offer("value", "uper right", ("upper right",)) in f.offers
    fix = repair_failure(cell, exc, context=[setup], model=model_path, threads=1)
    # the library's own alternative before a line the model wrote freely (`ax.legend()`)
    assert (fix.repair.origin, fix.repair.new_line) == ("message", "ax.legend(loc='upper right')")
    assert fix.repair.verified is None and not math.isnan(fix.repair.gain)          # weighed, not verified
    assert _run(fix.repaired, dict(ns), "v-2") is None
    # two quoted words written in the line: which one is wrong is not known
    cell = "ax.legend(loc='uper right', title='lower right')\n"
    exc = _run(cell, ns, "v-3")
    fix = repair_failure(cell, exc, context=[setup], use_model=False)
    assert fix.repair is None or fix.repair.origin != "message"
    import matplotlib.pyplot as plt
    plt.close("all")


# -- a review's cases: no offer where which word or which function is not known ---------------------

def _repair_of(cells: list[str], ns: dict, name: str):
    for k, c in enumerate(cells[:-1]):
        assert _run(c, ns, f"{name}-{k}") is None
    exc = _run(cells[-1], ns, f"{name}-x")
    assert exc is not None
    return Failure.from_exception(exc, cells), repair_failure(cells[-1], exc, context=cells[:-1], use_model=False)


@pytest.mark.parametrize("cells", [
    # the missing parameter's near keyword is one the function takes too
    ["def load(data, date):\n    return data, date\n", "rows = load(date='2020-01-01')\n"],
    # a lambda pandas calls lacks `b`: pandas' own `by=` is no slip for it
    ["import pandas as pd\ndf = pd.DataFrame({'a': [2, 1]})\n", "out = df.sort_values(by='a', key=lambda s, b: s)\n"],
    # a class cell run again: `Model` is bound to another class than the object's
    ["class Model:\n    def fit(self, X, n_iter=10):\n        return X\nm = Model()\n",
     "class Model:\n    def fit(self, X, max_iter=10):\n        return X\n", "m.fit([1, 2], max_iters=5)\n"],
    # matplotlib's private parameters (`_process_plot_var_args.__call__(self, axes, ...)`), and
    # ones the library passes itself (`AxesImage.__init__(self, ax, ...)`)
    ["import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\n", "ax.plot([1, 2], axis='off')\n"],
    ["import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\n", "ax.imshow([[1, 2], [3, 4]], a=0.5)\n"],
    # a KeyError quotes only the labels it did not find
    ["import pandas as pd\ndf = pd.DataFrame({'age': [1, 2]})\nfeatures = ['x1', 'x2']\n", "sub = df[features + ['x3']]\n"],
    # the refused keyword came through **style; the same word is written in another call
    ["import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nstyle = dict(lw=2, colr='r')\n"
     "def caption(text, colr):\n    return text\n", "ax.plot([1, 2], label=caption('speed', colr='red'), **style)\n"],
    # a user's function named like one of a library's (scipy's `fit`), and a C function
    # (`np.linalg.det`) named like another library's (scipy.linalg.det): neither is looked up
    ["import scipy.stats\ndef fit(model, data, date=None):\n    return model\n", "m = fit('net', [1, 2], optimizr='sgd')\n"],
    ["import scipy.stats\ndef fit(model, data, date=None):\n    return model\n", "r = fit('net', date='2024-01-01')\n"],
    ["import numpy as np\nimport scipy.linalg\nA = np.eye(2)\n", "d = np.linalg.det(A, check_finit=False)\n"],
    # the loop's header raised (attrgetter's string): its body, which never ran, is not repaired
    ["from operator import attrgetter\nclass Person:\n    def __init__(self, name):\n        self.name = name\n"
     "people = [Person('bob')]\n", "for p in sorted(people, key=attrgetter('nme')):\n    print(p.nme)\n"],
], ids=["taken", "lambda", "rebound-class", "private-parameter", "passed-by-library", "key-error", "other-call",
        "user-function-named-like-a-librarys", "missing-beside-a-librarys-namesake", "c-function", "loop-body"])
def test_no_offered_repair_where_the_word_or_the_function_is_not_known(cells):
    f, fix = _repair_of(cells, {}, f"rv-{len(cells[-1])}")
    assert fix.repair is None or fix.repair.origin not in ("error", "message"), (f.offers, fix.repair.new_line)
    import matplotlib.pyplot as plt
    plt.close("all")


def test_equally_near_names_no_model_weighed_are_not_verified():
    cells = ["import pandas as pd\ndf = pd.DataFrame({'name': ['ann']}, index=[10])\n",
             "label = df.loc[10].nme.upper()\n"]
    f, fix = _repair_of(cells, {}, "tie")
    assert f.offers[0].names == ("name", "ne")
    assert fix.repair is not None and fix.repair.verified is None


def test_a_chained_tracebacks_earlier_suggestion_is_not_the_last_errors():
    cell = "try:\n    n = totl\nexcept NameError:\n    n = cart.tot\n"
    text = ("Cell In[3], line 2\n----> 2     n = totl\nNameError: name 'totl' is not defined. Did you mean: 'total'?\n\n"
            "During handling of the above exception, another exception occurred:\n\n"
            "Cell In[3], line 4\n----> 4     n = cart.tot\nAttributeError: 'Cart' object has no attribute 'tot'\n")
    assert Failure.from_text(text, [cell]).offers == []


def test_reading_the_functions_and_names_runs_no_metaclass_str_subclass_or_instance_code():
    calls: list = []
    earlier = [
        # a metaclass that logs reads on the class the message names
        "class Meta(type):\n    def __getattribute__(cls, name):\n        calls.append(name)\n"
        "        return super().__getattribute__(name)\nclass Model(metaclass=Meta):\n"
        "    def fit(self, X, max_iter=10):\n        return X\nm = Model.__new__(Model)\n",
        # attribute names of a str subclass that logs hashing and comparing
        "class Name(str):\n    def __hash__(self):\n        calls.append('hash')\n        return str.__hash__(self)\n"
        "    def __eq__(self, other):\n        calls.append('eq')\n        return str.__eq__(self, other)\n"
        "class Record:\n    pass\nr = Record()\nsetattr(r, Name('colour'), 1)\n",
        # a global named as the message's class that is an instance logging its reads
        "def singleton(cls):\n    return cls()\n@singleton\nclass Config:\n    def __getattribute__(self, name):\n"
        "        calls.append(name)\n        return object.__getattribute__(self, name)\n"
        "    def update(self, alpha=1):\n        return alpha\n",
    ]
    for k, (setup, cell) in enumerate(zip(earlier, ["m.fit([1], max_iters=5)\n", "print(r.colur)\n",
                                                   "Config.update(alfa=2)\n"])):
        ns = {"calls": calls}
        assert _run(setup, ns, f"spy-{k}") is None
        exc = _run(cell, ns, f"spy-{k}x")
        calls.clear()
        Failure.from_exception(exc, [setup, cell])
        assert calls == [], (cell, calls)


@pytest.mark.parametrize("setup, cell, meant", [
    # a class's attribute: "type object 'X'" says what the object is, the import is no culprit
    ("from matplotlib.colors import LinearSegmentedColormap\n",
     "cmap = LinearSegmentedColormap.from_lisx('c', ['r', 'b'])\n", "from_list"),
    # a method chain over lines: Python places the failed lookup at the name alone
    ("import pandas as pd\ndf = pd.DataFrame({'a': [1, 2]})\n",
     "out = (df.assign(b=1)\n       .rename(columns={'a': 'c'})\n       .sor_values('c'))\n", "sort_values"),
    # a non-ASCII name on a chain over lines (CPython places it by characters)
    ("class B:\n    def dépôt(self, n):\n        return n\nb = B()\n", "r = (b\n     .dépô(1))\n", "dépôt"),
    # a refused keyword the message names without quotes; `which` is Axis.set_tick_params' own
    ("import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\n", "ax.tick_params(whcih='both', width=2)\n", "which"),
], ids=["type-object", "chain-over-lines", "non-ascii-chain", "unquoted-keyword"])
def test_more_places_a_failure_names_its_word(setup, cell, meant):
    f, fix = _repair_of([setup, cell], {}, f"m-{meant}")
    assert fix.repair is not None and fix.repair.origin in ("error", "message", "fact"), (f.offers, fix.candidates)
    assert meant in fix.repair.new_line
    ns: dict = {}
    assert _run(setup, ns, f"m-{meant}-s") is None and _run(fix.repaired, ns, f"m-{meant}-r") is None
    import matplotlib.pyplot as plt
    plt.close("all")


def test_an_attribute_the_class_documents_is_no_slip():
    """`estimators_` is a fitted attribute (scikit-learn's docstring lists it): before `fit` the
    cause is the missing fit, not a near name such as `estimator`."""
    cell = "from sklearn.ensemble import RandomForestRegressor\nm = RandomForestRegressor()\nn = len(m.estimators_)\n"
    exc = _run(cell, {}, "doc-1")
    assert isinstance(exc, AttributeError)
    assert Failure.from_exception(exc, [cell]).offers == []
    cell = "from sklearn.ensemble import RandomForestRegressor\nm = RandomForestRegressor()\nn = m.n_estimator\n"
    exc = _run(cell, {}, "doc-2")
    assert Failure.from_exception(exc, [cell]).offers == [Offer("attribute", "n_estimator", ("n_estimators",))]
