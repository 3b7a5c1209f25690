"""What a library's call leaves as it was, so a later claim of the cell still stands: a method
chained on an estimator's `fit` (scikit-learn's estimators return themselves from it), a loop's
variable over a list of a library's functions or classes called in its body, a loop's variable
over a live list or dict of scikit-learn's estimators (its methods' claims too: every item's),
and a live random generator given to an estimator the cell makes. Each cell is run: a claim is the exception the
line raises, and a cell where the rule must not hold (the user's class or function in the
place of the library's) gets none."""
from __future__ import annotations

import copy
import traceback
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.calibration import CalibratedClassifierCV
from sklearn.covariance import LedoitWolf
from sklearn.frozen import FrozenEstimator
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.metrics import accuracy_score, f1_score
from sklearn.model_selection import KFold, ShuffleSplit
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer, StandardScaler
from sklearn.svm import LinearSVC

from jupyter_codecheck.facts import kernel_facts

RNG = np.random.default_rng(0)
X = RNG.normal(size=(30, 3))
Y = (X[:, 0] > 0).astype(int)


class Odd(LedoitWolf):
    """A user's estimator whose fit breaks scikit-learn's rule: it returns X."""
    def fit(self, X, y=None):
        return X


class Lenient(LedoitWolf):
    """A user's estimator that takes any X (and grows a 1-D one into 2-D, in place)."""
    def fit(self, X, y=None):
        grow(X)
        return self


def grow(a):
    """The user's function that makes a 1-D array 2-D, in place."""
    if a.ndim == 1:
        a.resize((a.size // 2, 2), refcheck=False)
    return a


def namespace(**more) -> dict:
    xn = X.copy()
    xn[0, 0] = np.nan
    return {"np": np, "pd": pd, "X": X.copy(), "X1": X[:, :2].ravel().copy(), "Xn": xn, "grow": grow,
            "df": pd.DataFrame({"a": [1, 2]}), "SimpleImputer": SimpleImputer, "LinearRegression": LinearRegression,
            "FunctionTransformer": FunctionTransformer, "X_test": X[:5].copy(), "y": Y, "LedoitWolf": LedoitWolf,
            "LogisticRegression": LogisticRegression, "LinearSVC": LinearSVC, "f1_score": f1_score,
            "accuracy_score": accuracy_score, "KFold": KFold, "ShuffleSplit": ShuffleSplit, "Odd": Odd,
            "make_pipeline": make_pipeline, "StandardScaler": StandardScaler, **more}


def raised(cell: str, ns: dict):
    """The exception's class and the cell's line that raised it, or None."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(cell, "<cell>", "exec"), ns)
    except Exception as e:  # noqa: BLE001 - whatever the libraries raise is compared
        return type(e), [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.filename == "<cell>"][-1]
    return None


def claimed(cell: str, ns: dict):
    facts = [f for f in kernel_facts(cell, ns) if f.kind in ("attribute", "value", "call")]
    return {(f.kind, f.line) for f in facts}


KIND = {ValueError: "value", AttributeError: "attribute"}

CASES = [
    # a method chained on fit: the estimator's own, so X as the cell found it
    ("lw = LedoitWolf()\ns = lw.fit(X).score(X_test)\nLedoitWolf().fit(X[:, 0])", True),
    ("s = LedoitWolf().fit(X).score(X_test)\nLedoitWolf().fit(X[:, 0])", True),
    ("m = LogisticRegression().set_params(C=2).fit(X, y).predict(X_test)\nLogisticRegression().fit(X[:, 0], y)", True),
    ("lw = LedoitWolf()\ns = lw.fit(X).score(X_test)\nLedoitWolf().fit(X)", False),
    # the user's class breaks the rule: its result may be X, and resize changes X
    ("X = X[:, 0].copy()\nOdd().fit(X).resize((15, 2), refcheck=False)\nLedoitWolf().fit(X)", False),
    # a loop over a library's functions: their calls leave the cell's names as they were
    ("scores = []\npred = y[::-1]\nfor metric in [f1_score, accuracy_score]:\n    scores.append(metric(y, pred))\n"
     "    t = pd.DataFame(scores)", True),
    ("scores = []\npred = y[::-1]\nfor metric in [f1_score, accuracy_score]:\n    scores.append(metric(y, pred))\n"
     "    t = pd.DataFrame(scores)", False),
    ("for cv in cvs:\n    splitter = cv(n_splits=3)\n    parts = list(splitter.split(X))\n    pd.DataFame(parts)", True),
    # the user's function among them may do anything (here: what makes the line run)
    ("scores = []\npred = y[::-1]\nfor metric in [sneaky, f1_score]:\n    scores.append(metric(y, pred))\n"
     "    t = pd.DataFame(scores)", False),
    ("scores = []\nfor metric in [f1_score, sneaky]:\n    scores.append(metric(y, y))\n    pd.DataFame([1])", True),
    ("scores = []\nfor metric in metrics:\n    scores.append(metric(y, y))\n    pd.DataFame([1])", False),
    ("for metric in [f1_score, accuracy_score]:\n    metric = sneaky\n    metric(y, y)\n    pd.DataFame([1])", False),
    # a method of pandas' class, unbound: its first argument is the frame it changes
    ("for f in [pd.DataFrame.insert]:\n    f(df, 0, 'z', 1)\ndf['z']", False),
    ("for f in [pd.DataFrame.rename]:\n    f(df, columns={'a': 'z'}, inplace=True)\ndf.z", False),
    # an estimator that writes into its input (copy=False) or calls the user's function
    ("SimpleImputer(copy=False).fit(Xn).transform(Xn)\nLinearRegression().fit(Xn, y)", False),
    ("imp = SimpleImputer(copy=False)\nimp.fit(Xn)\nimp.transform(Xn)\nLinearRegression().fit(Xn, y)", False),
    ("SimpleImputer(copy=False).fit_transform(Xn)\nLinearRegression().fit(Xn, y)", False),
    ("SimpleImputer().fit(Xn).transform(Xn)\nLinearRegression().fit(Xn, y)", True),
    ("FunctionTransformer(grow, check_inverse=False).fit(X).transform(X1)\nLedoitWolf().fit(X1)", False),
    ("FunctionTransformer(check_inverse=False).set_params(func=grow).transform(X1)\nLedoitWolf().fit(X1)", False),
    # a loop's variable over a live list or dict of scikit-learn's estimators: each item's claim,
    # and their methods leave the cell's arrays as they were
    ("for name, clf in models:\n    clf.fit(X[:, 0], y)", True),
    ("for name, clf in models:\n    clf.fit(X, y)", False),
    ("for name, clf in models:\n    label = name.upper()\n    clf.fit(X[:, 0], y)", True),
    ("for i, (name, clf) in enumerate(models):\n    p = clf.fit(X, y).predict(X_test)\n    clf.predict(X_test[:, 0])", True),
    ("for i, (name, clf) in enumerate(models):\n    p = clf.fit(X, y).predict(X_test)\n    clf.predict(X_test)", False),
    ("for name, est in scalers.items():\n    est.fit(X)\n    est.transform(X1)", True),
    ("for est in scalers.values():\n    est.fit(X1.reshape(-1, 2))\nLedoitWolf().fit(X1)", True),
    ("for est in scalers.values():\n    est.fit(X1.reshape(-1, 2))\nLedoitWolf().fit(X1.reshape(-1, 2))", False),
    # ...in order (`sorted` by the dict's own keys, `reversed`), or as a list of them
    ("for name, est in sorted(scalers.items()):\n    est.fit(X)\n    est.transform(X1)", True),
    ("for name, est in sorted(scalers.items()):\n    est.fit(X)\n    est.transform(X)", False),
    ("for est in reversed(list(scalers.values())):\n    est.fit(X)\n    est.transform(X1)", True),
    ("for name, clf in sorted(models):\n    clf.fit(X[:, 0], y)", True),
    # the user's estimator among them: it may take X and change it; the variable bound again;
    # the list changed by the cell before the loop
    ("for est in lenient:\n    est.fit(X1)\nLedoitWolf().fit(X1)", False),
    ("for est in lenient:\n    est.fit(X1)", False),
    ("for name, clf in models:\n    clf = FunctionTransformer()\n    clf.fit(X[:, 0], y)", False),
    ("models.clear()\nfor name, clf in models:\n    clf.fit(X[:, 0], y)", False),
    # a live random generator given to an estimator the cell makes
    ("clf = make_pipeline(StandardScaler(), LinearSVC(random_state=rng))\nclf.fit(X[:, 0], y)", True),
    ("clf = make_pipeline(StandardScaler(), LinearSVC(random_state=rng))\nclf.fit(X, y)", False),
]


def sneaky(a, b):
    pd.DataFame = pd.DataFrame
    return 0.0


@pytest.mark.parametrize("cell, raises", CASES)
def test_a_claim_after_a_library_call_is_what_the_cell_raises(cell, raises):
    extra = {"cvs": [KFold, ShuffleSplit], "rng": np.random.RandomState(0), "sneaky": sneaky, "metrics": [sneaky, f1_score],
             "models": [("lr", LogisticRegression()), ("svc", LinearSVC())],
             "scalers": {"std": StandardScaler(), "imp": SimpleImputer()}, "lenient": [Lenient()]}
    ns = namespace(**extra)
    state = ns["rng"].get_state()[1].copy()
    got = claimed(cell, ns)
    assert np.array_equal(ns["rng"].get_state()[1], state)       # nothing drew from the user's generator
    try:
        outcome = raised(cell, namespace(**copy.copy(extra)))
    finally:
        if hasattr(pd, "DataFame"):
            del pd.DataFame
    if raises:
        assert outcome is not None and got == {(KIND[outcome[0]], outcome[1])}, (cell, got, outcome)
    else:
        assert got == set(), (cell, got, outcome)
        if "sneaky" not in cell:
            assert outcome is None, cell


class Reshaping(KNeighborsClassifier):
    """A user's estimator whose predict makes the X it was fitted on 1-D, in place."""
    def predict(self, X):
        self._fit_X.shape = (-1,)
        return np.zeros(len(X))


def test_a_predict_or_a_new_estimators_fit_leaves_what_scikit_learns_estimators_hold():
    """scikit-learn's common checks hold its estimators' predict-like methods to leaving their
    attributes as they were (`check_dict_unchanged`) and a fit to leaving their parameters so
    (`check_estimators_overwrite_params`): a claim on what they hold, or on what is given to the
    fit of one made right there, still stands after such a call; not after a method of the user's."""
    ns = namespace(KNeighborsClassifier=KNeighborsClassifier, CalibratedClassifierCV=CalibratedClassifierCV,
                   FrozenEstimator=FrozenEstimator)
    ns["knn"] = KNeighborsClassifier(3).fit(ns["X"], ns["y"])
    ns["mine"] = Reshaping(3).fit(ns["X"], ns["y"])
    ns["lr"] = LogisticRegression().fit(ns["X"], ns["y"])
    assert ns["knn"]._fit_X is ns["X"] and ns["mine"]._fit_X is ns["X"]      # both hold X itself
    for cell in ("p = knn.predict(X_test)\nLedoitWolf().fit(X[:, 0])",
                 "c = CalibratedClassifierCV(FrozenEstimator(lr)).fit(X1.reshape(-1, 3), y[:20])\nLedoitWolf().fit(X1)",
                 "clf = LogisticRegression().fit(X, y)\nsig = CalibratedClassifierCV(clf).fit(X, y)\n"
                 "ts = CalibratedClassifierCV(clf, ensemble=False).fit(X[:, 0], y)"):
        line = cell.count("\n") + 1
        assert claimed(cell, ns) == {("value", line)}, cell
        assert raised(cell, dict(ns)) == (ValueError, line), cell
        fixed = cell.replace("X[:, 0]", "X").replace("fit(X1)", "fit(X1.reshape(-1, 3))")
        assert claimed(fixed, ns) == set() and raised(fixed, dict(ns)) is None, fixed
    cell = "p = mine.predict(X_test)\nLedoitWolf().fit(X[:, 0])"
    assert claimed(cell, ns) == set()
    assert raised(cell, dict(ns)) == (IndexError, 2)


# -- a method of what numpy's function makes of plain data ---------------------------------------

class _Adds:
    """An object of the user's whose `__add__` puts a name on pyplot's current Axes."""
    def __add__(self, other):
        import matplotlib.pyplot as plt
        plt.gca().plott = print
        return self

    __radd__ = __add__


def test_a_method_of_numpys_result_of_plain_data_is_numpys_and_one_of_objects_is_not():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    t = np.linspace(0, 1, 5)
    ns = {"np": np, "plt": plt, "t": t, "A": np.array([[2.0], [8.0]]), "objs": [_Adds(), _Adds()]}
    cell = "xn = (A * np.exp(2j * np.pi * t)).sum(axis=0) + np.exp(t).mean()\nfig, ax = plt.subplots()\nax.plott(1)\n"
    try:
        assert [f.kind for f in kernel_facts(cell, ns)] == ["attribute"]
        with pytest.raises(AttributeError):
            exec(cell, dict(ns))
        objects = "fig, ax = plt.subplots()\ns = np.array(objs, dtype=object).sum()\nax.plott(1)\n"
        assert kernel_facts(objects, ns) == []
        exec(objects, dict(ns))                 # the objects' __add__ gave the Axes that name
        sorted_ = "a = np.asarray(t).sort()\nb = t.reshape(5, 1) @ t.reshape(1, 5)\n"
        assert kernel_facts(sorted_, ns) == []
    finally:
        plt.close("all")
