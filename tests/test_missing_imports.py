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


def test_no_claim_where_a_second_review_found_the_name_may_be_there_or_the_import_not_reached(tmp_path):
    """Found in review: the module object's own names, a package path extended or a module's
    dict written before the import, an import not at the cell's top after imports alone, a
    `__getattr__` that is not the module's own, a validation turned off in the cell."""
    import sklearn
    (tmp_path / "plug39.py").write_text("x = 1\n")
    ns = {"np": np, "sklearn": sklearn, "d": str(tmp_path)}
    for cell in ["from numpy import __dict__\n", "from math import __class__\n",
                 "sklearn.__path__.append(d)\nfrom sklearn import plug39\n",
                 "np.__dict__['foo39'] = 1\nfrom numpy import foo39\n",
                 "import contextlib\nwith contextlib.suppress(ImportError):\n    from numpy import foo\n",
                 "for _ in range(0):\n    from numpy import foo\n",
                 "from __future__ import annotations\n"]:
        assert kernel_facts(cell, ns, libraries="leading") == [], cell
    cell = ("import sklearn\nsklearn.set_config(skip_parameter_validation=True)\n"
            "from sklearn.metrics import accuracy_score\naccuracy_score([0, 1], [0, 1], normalize=1)\n")
    try:
        assert exact_check(cell, ns, libraries="leading").certain == [] and _raised(cell, ns) is None
    finally:
        sklearn.set_config(skip_parameter_validation=False)
    from sklearn.datasets import load_iris
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_score
    parts = {i: [float(i), float(i % 3)] for i in range(10)}
    ns = dict(ns, LogisticRegression=LogisticRegression, cross_val_score=cross_val_score, parts=parts,
              labels=[0, 1] * 5, iris=load_iris())
    for cell in ["cross_val_score(LogisticRegression(), parts, labels, cv=2)\n",    # the helper picks rows first
                 "LogisticRegression().fit(iris)\n"]:                              # y left out: fit's TypeError
        assert [f for f in kernel_facts(cell, ns) if "Bunch" in f.message or "dict" in f.message] == [], cell


def test_a_package_the_cell_imports_first_is_read_for_its_submodule_in_a_fresh_kernel():
    """Found held out: a notebook's first cell (`%matplotlib inline`, then `import matplotlib.pylot`)
    runs before matplotlib is loaded; under "leading" the package the cell imports first is
    imported for the facts (as the cell would), its folders then read for the submodule."""
    import os
    import subprocess
    code = ("import os, sys\nfrom jupyter_codecheck.core.exact_findings import exact_check\n"
            "for src in sys.argv[1:]:\n"
            "    ex = exact_check(src, {'_dh': [os.getcwd()]}, libraries='leading')\n"
            "    print([f.line for f in ex.findings], [f.line for f in ex.certain])\n")
    cells = ["%matplotlib inline\nimport matplotlib.pylot as plt\n", "import numpy as np\nimport matplotlib.pyplt as plt\n",
             "import matplotlib.pyplot as plt\n"]
    import jupyter_codecheck
    here = os.path.dirname(os.path.dirname(jupyter_codecheck.__file__))     # the package these tests import
    out = subprocess.run([sys.executable, "-c", code, *cells], capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, MPLBACKEND="Agg", PYTHONPATH=here))
    assert out.stdout.split("\n")[:3] == ["[2] [2]", "[2] [2]", "[] []"], out.stdout + out.stderr
