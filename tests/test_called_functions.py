"""A function the cell defines and then calls on its top level is read at its call, its
parameters read as what the call gives them (facts/called_functions.py): its body's errors are
the cell's, and a sure one stops the cell. Each case is run against the libraries."""
from __future__ import annotations

import ast
import warnings

import matplotlib
import numpy as np
import pytest
from sklearn.tree import DecisionTreeRegressor

from jupyter_codecheck.core.exact_findings import exact_check
from jupyter_codecheck.facts.called_functions import called_bodies
from test_value_propagation import run

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

X_QUAD = np.linspace(-0.5, 0.5, 40).reshape(-1, 1)


def namespace() -> dict:
    return {"__name__": "__main__", "np": np, "plt": plt, "A": np.arange(4.0), "X_quad": X_QUAD,
            "y_quad": X_QUAD.ravel() ** 2, "tree_reg": DecisionTreeRegressor(max_depth=2).fit(X_QUAD, X_QUAD.ravel())}


def raised_at(cell: str) -> tuple[str, int] | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return run(cell, namespace())


PLOT = ("def plot_predictions(tree_reg, X, y, axes=[-0.5, 0.5, -0.05, 0.25]):\n"
        "    x1 = np.linspace(axes[0], axes[1], 500)\n"
        "    y_pred = tree_reg.predict(x1)\n"
        "    plt.axis(axes)\n"
        "    plt.plot(X, y, 'b.')\n\n"
        "fig, axes = plt.subplots(ncols=2)\n"
        "plt.sca(axes[0])\n")


VISUALIZE = ("def visualize(X, y, ax=None, cmap='rainbow'):\n    ax = ax or plt.gca()\n"
             "    ax.scatter(X[:, 0], X[:, 1], c=y, s=30, cmap=cmap)\n\n")


@pytest.mark.parametrize("cell, line, error", [
    # a parameter's default and a name given to it; the body's own error, where it stands
    (PLOT + "plot_predictions(tree_reg, X_quad, y_quad)\n", 3, "ValueError"),
    ("def shaped(a, n=3):\n    return a.reshape(n, 2)\n\nB = shaped(A)\n", 2, "ValueError"),
    ("def shaped(a, n):\n    b = a * 2\n    return b.reshape(n, 2)\n\nB = shaped(A, n=3)\n", 3, "ValueError"),
    ("def draw(x):\n    plt.plot(x, x, linestlye='-')\n\ndraw(A)\n", 2, "AttributeError"),
    # a literal given in a parameter's places; `ax = ax or plt.gca()` of a parameter given None
    (VISUALIZE + "visualize(np.ones((4, 2)), A, cmap='Rainbow')\n", 3, "ValueError"),
])
def test_a_function_called_on_the_top_level_is_read_at_its_call_and_stops(cell, line, error):
    found = exact_check(cell, namespace())
    assert [(f.line, f.kind in ("value", "call", "attribute")) for f in found.findings] == [(line, True)]
    assert [f.line for f in found.certain] == [line]
    assert raised_at(cell) == (error, line)


@pytest.mark.parametrize("cell", [
    "def shaped(a, n=3):\n    return a.reshape(n, 2)\n\nB = shaped(A, 2)\n",              # given, not its default
    "def shaped(a, n=3):\n    return a.reshape(n, 2)\n\nfor _ in range(0):\n    B = shaped(A)\n",   # never runs
    "def shaped(a, n=3):\n    return a.reshape(n, 2)\n\nif A.size > 9:\n    B = shaped(A)\n",
    "def shaped(a, n=3):\n    n = 2\n    return a.reshape(n, 2)\n\nB = shaped(A)\n",    # the parameter bound again
    "def shaped(a, n=3):\n    return a.reshape(n, 2)\n\nB = shaped(*[A, 2])\n",          # a starred argument
    "def shaped(a):\n    A = np.ones(6)\n    return A.reshape(3, 2)\n\nB = shaped(A)\n",  # given a name it binds
    VISUALIZE + "visualize(np.ones((4, 2)), A)\n",                                   # its default, taken
    VISUALIZE + "f, a = plt.subplots(subplot_kw={'projection': 'polar'})\nvisualize(np.ones((4, 2)), A, ax=a)\n",
])
def test_a_call_the_view_cannot_read_as_python_would_is_no_claim(cell):
    assert [f for f in exact_check(cell, namespace()).findings if f.kind == "value"] == []
    assert raised_at(cell) is None


def test_a_body_that_reads_a_local_before_binding_it_is_not_read():
    """Python reads `A` as the function's own, unbound, name (UnboundLocalError), not the global."""
    cell = "def shaped():\n    b = A.reshape(3, 2)\n    A = 1\n\nshaped()\n"
    assert called_bodies(ast.parse(cell)) == []
    assert raised_at(cell)[0] == "UnboundLocalError"


def test_user_code_before_the_call_is_shown_not_stopped():
    cell = "def refresh():\n    pass\n\ndef shaped(a, n=3):\n    return a.reshape(n, 2)\n\nrefresh()\nB = shaped(A)\n"
    found = exact_check(cell, namespace())
    assert [f.line for f in found.findings] == [5] and found.certain == []
    assert raised_at(cell) == ("ValueError", 5)


@pytest.mark.parametrize("cell", [
    "def f(a):\n    return a\n\ng = f\nf(A)\n",                                 # named again before the call
    "def f(a):\n    if a.size:\n        return a\n    return None\n\nf(A)\n",   # returns early
    "@staticmethod\ndef f(a):\n    return a\n\nf(A)\n",
    "def f(*a):\n    return a\n\nf(A)\n",
    "def f(a):\n    def g():\n        return a\n    return g\n\nf(A)\n",
])
def test_functions_that_are_not_plain_straight_code_are_not_read(cell):
    assert called_bodies(ast.parse(cell)) == []


# -- a function of the kernel's, defined in an earlier cell ---------------------------------------

EARLIER = ("import numpy as np\nimport matplotlib.pyplot as plt\nfrom sklearn.tree import DecisionTreeClassifier\n"
           "Xk = np.linspace(0, 1, 40).reshape(20, 2)\nyk = np.array([0, 1] * 10)\nyk_short = yk[:15]\n"
           "clfk = DecisionTreeClassifier().fit(Xk, yk)\n")
HELPERS = ("def plot_classes(clf, X, y, alpha=1.0):\n    axes = [0, 1, 0, 1]\n    for idx in (0, 1):\n"
           "        plt.plot(X[:, 0][y == idx], X[:, 1][y == idx], 'o', alpha=alpha)\n    plt.axis(axes)\n\n"
           "def predict_line(model, lo, hi, n=50):\n    x1 = np.linspace(lo, hi, n)\n    return model.predict(x1)\n")


@pytest.fixture(scope="module")
def shell():
    from IPython.core.interactiveshell import InteractiveShell
    sh = InteractiveShell.instance()
    for cell in (EARLIER, HELPERS):
        assert sh.run_cell(cell, store_history=True).success
    yield sh
    plt.close("all")


@pytest.mark.parametrize("cell, said", [
    ("plot_classes(clfk, Xk, yk_short)\n", "in plot_classes() (line 4 of its cell): "),       # a loop of its body
    ("p = predict_line(clfk, 0, 1)\n", "in predict_line() (line 9 of its cell): "),
    ("fig = plt.figure()\np = predict_line(clfk, 0, 1, n=10)\n", "in predict_line() (line 9 of its cell): "),
])
def test_a_function_of_the_kernels_is_read_at_the_cells_call_and_stops(shell, cell, said):
    found = exact_check(cell, shell.user_ns)
    line = cell.count("\n")
    assert [(f.line, f.message.startswith(said)) for f in found.findings] == [(line, True)], found.findings
    assert [f.line for f in found.certain] == [line]
    ran = shell.run_cell(cell)
    assert isinstance(ran.error_in_exec, (ValueError, IndexError))


def test_a_kernel_function_whose_text_is_not_its_code_is_not_read(shell):
    """Its defaults changed since, a closure, code made by exec from a string IPython never kept,
    and a call that gives what the body takes: no claim."""
    ns = shell.user_ns
    shell.run_cell("def predict_far(model, lo, hi, n=50):\n    x1 = np.linspace(lo, hi, n)\n    return model.predict(x1)\n"
                   "predict_far.__defaults__ = (2,)\n")
    exec("def predict_exec(model, n=50):\n    return model.predict(np.ones(n))\n", ns)
    shell.run_cell("def maker(k):\n    def predict_closed(model):\n        return model.predict(np.ones(k))\n"
                   "    return predict_closed\npredict_closed = maker(5)\n")
    for cell in ("p = predict_far(clfk, 0, 1)\n", "p = predict_exec(clfk)\n", "p = predict_closed(clfk)\n",
                 "plot_classes(clfk, Xk, yk)\n"):
        assert exact_check(cell, ns).findings == [], cell


def test_a_kernel_function_is_read_in_the_objects_copied_from_the_notebook(shell):
    """The guard reads a copy of the notebook's names (magics.defined_names): the function's globals
    hold the same objects, so it is read; a copy that differs in a name the body reads is not."""
    ns = dict(shell.user_ns)
    assert len(exact_check("p = predict_line(clfk, 0, 1)\n", ns).certain) == 1
    ns["np"] = None
    assert exact_check("p = predict_line(clfk, 0, 1)\n", ns).findings == []


@pytest.mark.parametrize("cell, line", [
    # a branch the call's literal arguments decide runs as straight code
    ("def draw(x, legend=True):\n    if legend:\n        plt.plot(x, x, linestlye='-')\n\ndraw(A)\n", 3),
    ("def draw(x, label=None, data_label=None):\n    if label or data_label:\n        plt.plot(x, x, linestlye='-')\n"
     "\ndraw(A, label='h')\n", 3),
    ("def draw(x, title=None):\n    if title is None:\n        plt.plot(x, x, linestlye='-')\n    else:\n"
     "        plt.title(title)\n\ndraw(A)\n", 3),
])
def test_a_branch_the_literal_arguments_decide_is_read_as_taken(cell, line):
    found = exact_check(cell, namespace())
    assert [f.line for f in found.findings] == [line] and [f.line for f in found.certain] == [line], found.findings
    assert raised_at(cell)[1] == line


@pytest.mark.parametrize("cell", [
    "def draw(x, legend=False):\n    if legend:\n        plt.plot(x, x, linestlye='-')\n\ndraw(A)\n",     # not taken
    "def draw(x, legend):\n    if legend:\n        plt.plot(x, x, linestlye='-')\n\ndraw(A, A.size > 9)\n",  # not a literal
    "def draw(x, legend=True):\n    if legend and x.size:\n        plt.plot(x, x, linestlye='-')\n\ndraw(A[:0])\n",
])
def test_a_branch_not_decided_by_literals_is_not_read(cell):
    assert [f for f in exact_check(cell, namespace()).certain] == []
    assert raised_at(cell) is None
