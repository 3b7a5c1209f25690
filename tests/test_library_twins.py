"""What the cell makes of literals through a library's own constructor, made here as the cell
will make it (abstract_sklearn.library_twin): numpy's grids, scikit-learn's cross-validation
splitters and Gaussian process kernels (their operators too), given to an estimator the cell
makes or bound to a name. Each cell is run: a claim is the exception the line raises, and the
near cell that is right runs and gets none."""
from __future__ import annotations

import traceback
import warnings

import numpy as np
import pytest
import sklearn.gaussian_process  # noqa: F401 - the cells import from these: loaded, as a kernel has them
import sklearn.kernel_ridge  # noqa: F401
import sklearn.linear_model  # noqa: F401
import sklearn.model_selection  # noqa: F401
import sklearn.svm  # noqa: F401

from jupyter_codecheck.facts import kernel_facts

RNG = np.random.default_rng(1)
X = RNG.normal(size=(40, 3))
Y = (X[:, 0] > 0).astype(int)

KERNEL = "from sklearn.gaussian_process.kernels import ExpSineSquared\nfrom sklearn.kernel_ridge import KernelRidge\n"
GPR = ("from sklearn.gaussian_process import GaussianProcessRegressor\n"
       "from sklearn.gaussian_process.kernels import RBF, WhiteKernel\n"
       "kernel = 1.0 * RBF(length_scale=1e1, length_scale_bounds=(1e-2, 1e3)) + WhiteKernel(noise_level=1)\n"
       "gpr = GaussianProcessRegressor(kernel=kernel, alpha=0.0)\n")
SEARCH = ("from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold\nfrom sklearn.svm import SVC\n"
          "cv = RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=0)\n"
          "search = GridSearchCV(estimator=SVC(), param_grid=[{'kernel': ['linear']}], cv=cv)\n")
GRID = "from sklearn.linear_model import LogisticRegressionCV\nCs = np.logspace(-3, 3, 4)\nclf = LogisticRegressionCV(Cs=Cs)\n"

CASES = [
    (KERNEL + "kr = KernelRidge(kernel=ExpSineSquared())\nkr.fit(X[:, 0], y)", ValueError),
    (KERNEL + "kr = KernelRidge(kernel=ExpSineSquared())\nkr.fit(X, y)", None),
    (GPR + "gpr.fit(X[:, 0], y)", ValueError),
    (GPR + "gpr.fit(X, y)", None),
    (SEARCH + "search.fit(X[:, 0], y)", ValueError),
    (SEARCH + "search.fit(X, y)", None),
    (GRID + "clf.fit(X[:, 0], y)", ValueError),
    (GRID + "clf.fit(X, y)", None),
    ("from sklearn.model_selection import KFold\ncv = KFold(4, shuffle=True, random_state=0)\ncv.n_splitz", AttributeError),
    ("from sklearn.model_selection import KFold\ncv = KFold(4, shuffle=True, random_state=0)\ncv.n_splits", None),
    # the cell changes the twin: what it then is, is not known here
    ("from sklearn.model_selection import KFold\ncv = KFold(4)\ncv.__dict__['n_splitz'] = 2\ncv.n_splitz", None),
    # an array's own operator runs first: no kernel is made
    ("from sklearn.gaussian_process.kernels import RBF\nk2 = np.linspace(0, 1, 5) * RBF()\nk2.shape", None),
    ("from sklearn.gaussian_process.kernels import RBF\nk2 = 2.0 * RBF()\nk2.shape", AttributeError),
    # refused by the constructor: the cell raises there (the constructor's own claim, parameters.constructor_claim),
    # and no twin stands for it (no attribute claim after it)
    ("from sklearn.model_selection import KFold\ncv = KFold(1)\ncv.n_splitz", ValueError),
]


def _raised(cell: str):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(cell, "<cell>", "exec"), {"np": np, "X": X, "y": Y})
    except Exception as e:  # noqa: BLE001 - whatever the libraries raise is compared
        return type(e), [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.filename == "<cell>"][-1]
    return None


@pytest.mark.parametrize("cell, raises", CASES)
def test_a_claim_on_what_the_cell_makes_of_literals_is_what_it_raises(cell, raises):
    facts = [f for f in kernel_facts(cell, {"np": np, "X": X, "y": Y}) if f.kind in ("attribute", "value", "call")]
    outcome = _raised(cell)
    assert (outcome[0] if outcome else None) is raises, (cell, outcome)
    if raises is None:
        assert facts == [], (cell, facts)
    else:
        assert [f.line for f in facts] == [outcome[1]], (cell, facts, outcome)


class Spy:
    """The user's object: any of its methods that runs says so."""
    ran: list = []

    def __deepcopy__(self, memo):
        Spy.ran.append("__deepcopy__")
        return self


def test_nothing_of_the_users_runs_in_a_kernel_they_hold_or_changed():
    from sklearn.gaussian_process.kernels import RBF
    k = RBF()
    k.__add__ = lambda other: Spy.ran.append("__add__") or 5
    ns = {"np": np, "X": X, "y": Y, "k": k, "kspy": RBF(length_scale=Spy())}
    Spy.ran.clear()
    for cell in ("from sklearn.gaussian_process.kernels import WhiteKernel\nk2 = k + WhiteKernel()\nk2.k1",
                 "from sklearn.gaussian_process import GaussianProcessRegressor\n"
                 "from sklearn.gaussian_process.kernels import WhiteKernel\n"
                 "gpr = GaussianProcessRegressor(kernel=kspy + WhiteKernel())\ngpr.fit(X, y)"):
        facts = [f for f in kernel_facts(cell, ns) if f.kind in ("attribute", "value", "call")]
        assert Spy.ran == [] and facts == [], (cell, Spy.ran, facts)
