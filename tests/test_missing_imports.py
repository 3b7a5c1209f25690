"""A name an import of a loaded library module finds missing (facts/modules.missing_import): a
claim exactly where Python raises ImportError, with the module's nearest name as the fix, and
a stop under `auto guard` (facts/certainty.py judges the import itself); none where a submodule,
a library's module `__getattr__`, a handler or a module of another class may answer. And two
rules read again with it: a scikit-learn function's literal argument its `validate_params`
refuses stops too (the function is the fact's subject), and a clusterer's labels are numbers."""
from __future__ import annotations

import sys
import types

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import scipy.stats  # noqa: E402,F401 - loaded, as a kernel that used it has
import sklearn.datasets  # noqa: E402,F401
import sklearn.linear_model  # noqa: E402,F401
from sklearn.cluster import KMeans  # noqa: E402

from jupyter_codecheck.core.exact_findings import exact_check  # noqa: E402
from jupyter_codecheck.facts import kernel_facts  # noqa: E402


def _raised(cell: str, ns: dict):
    try:
        exec(compile(cell, "<cell>", "exec"), dict(ns))
    except Exception as e:  # noqa: BLE001 - compared with the claim
        return e
    return None


MISSING = [
    ("from sklearn.datasets import make_moon\n", "make_moons"),
    ("from sklearn.datasets import make_moon as mm\n", "make_moons as mm"),
    ("from sklearn.linear_model import LogisticRegresion\n", "LogisticRegression"),
    ("from sklearn import model_selections\n", "model_selection"),       # a package: no such submodule
    ("from numpy import arrray\n", "array"),
    ("from numpy import float\n", "float64"),                              # removed: numpy's __getattr__ says so
    ("from scipy.stats import modes\n", "mode"),
    ("from matplotlib.pyplot import subplot2\n", "subplot"),
    ("import numpy as np\nfrom sklearn.datasets import load_iris, make_moon\n", "make_moons"),
]


@pytest.mark.parametrize("cell, meant", MISSING)
def test_a_missing_name_is_claimed_and_stopped_with_the_name_meant(cell, meant):
    got = kernel_facts(cell, {}, libraries="leading")
    raised = _raised(cell, {})
    assert type(raised) is ImportError and len(got) == 1, (got, raised)
    fact = got[0]
    assert fact.message.endswith(": ImportError") and f"'{fact.message.split(chr(39))[1]}'" in str(raised)
    assert fact.candidates[:1] == ([meant] if meant else []), fact.candidates
    if meant:
        line = cell.splitlines()[fact.line - 1]
        fixed = cell.replace(line, line[:fact.column] + meant + line[fact.end_column:])
        assert _raised(fixed, {}) is None and kernel_facts(fixed, {}, libraries="leading") == []
    assert [f.line for f in exact_check(cell, {}, libraries="leading").certain] == [fact.line]


def test_no_claim_where_the_name_is_there_may_be_made_or_the_error_is_handled(tmp_path, monkeypatch):
    cells = ["from sklearn.datasets import make_moons\n",
             "from sklearn import model_selection\n",            # a submodule, imported now
             "from numpy import linalg, fft\n",
             "from sklearn.datasets import load_iris\n",
             "try:\n    from sklearn.datasets import make_moon\nexcept ImportError:\n    pass\n",
             "from . import helpers\n"]
    for cell in cells:
        assert kernel_facts(cell, {}, libraries="leading") == [], cell
        assert _raised(cell, {}) is None or "import helpers" in cell, cell
    # a module of another class (six.moves' kind) finds names its own way: no claim
    odd = types.ModuleType("odd_lazy_module")
    odd.__class__ = type("Lazy", (types.ModuleType,), {"made": property(lambda self: 1)})
    monkeypatch.setitem(sys.modules, "odd_lazy_module", odd)
    assert kernel_facts("from odd_lazy_module import made\n", {}) == []
    # a module beside the notebook (not an installed library) is never read
    (tmp_path / "mine.py").write_text("x = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import mine  # noqa: F401
    assert kernel_facts("from mine import y\n", {}) == []


def test_an_import_after_the_users_code_or_a_first_import_is_shown_not_stopped():
    ns = {"hook": lambda: None}
    for cell in ["hook()\nfrom sklearn.datasets import make_moon\n",
                 "import sklearn.datasets as d\nd.make_moon = 1\nfrom sklearn.datasets import make_moon\n"]:
        result = exact_check(cell, ns, libraries="leading")
        assert result.certain == [], cell
    for cell in ["import sklearn.datasets as d\nd.make_moon = 1\nfrom sklearn.datasets import make_moon\n",
                 "import sklearn.datasets as d\nsetattr(d, 'make_moon', 1)\nfrom sklearn.datasets import make_moon\n"]:
        assert kernel_facts(cell, ns, libraries="leading") == [] and _raised(cell, ns) is None, cell


def test_a_literal_refused_by_validate_params_stops():
    cell = 'from sklearn.datasets import load_sample_image\nchina = load_sample_image("china.jpeg")\n'
    assert type(_raised(cell, {})).__name__ == "InvalidParameterError"
    assert [f.line for f in exact_check(cell, {}, libraries="leading").certain] == [2]


def test_a_clusterers_labels_are_numbers_of_one_row_each():
    X = np.random.default_rng(0).random((40, 2))
    ns = {"np": np, "plt": plt, "KMeans": KMeans, "X": X, "km": KMeans(3, n_init=1).fit(X)}
    for cell, claimed in [("labels = KMeans(4, n_init=1).fit_predict(X)\nlabels.reshape(7)\n", True),
                          ("labels = km.predict(X)\nplt.scatter(X[:, 0], X[:, 1], c=labels, cmap='virdis')\n", True),
                          ("labels = km.fit_predict(X)\nlabels.reshape(8, 5)\n", False)]:
        assert bool(kernel_facts(cell, ns)) == claimed == (_raised(cell, ns) is not None), cell
    plt.close("all")
