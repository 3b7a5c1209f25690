"""scikit-learn's input validation as one family of facts, whatever made the input: a live object,
a literal written in the call or bound by the cell, or an array the cell makes through known
calls; and an estimator live, or made and fitted in the same cell. The rules are the library's
own (`check_array`: 2-D numbers; `check_consistent_length`: X and y of as many samples;
`n_features_in_`: X as wide as at fit). Each claim is held against scikit-learn: the cell raises
ValueError; the near cell that is right runs and gets no claim."""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

from jupyter_codecheck.facts import kernel_facts

RNG = np.random.default_rng(0)
X = RNG.normal(size=(40, 3))
Y = (X[:, 0] > 0).astype(int)
FRAME = pd.DataFrame(X, columns=["a", "b", "c"]).assign(t=Y)


def namespace(**objects) -> dict:
    return {"np": np, "pd": pd, "X": X, "y": Y, "df": FRAME, "LinearRegression": LinearRegression,
            "LogisticRegression": LogisticRegression, "StandardScaler": StandardScaler,
            "train_test_split": train_test_split, "model": LogisticRegression().fit(X, Y),
            "scaler": StandardScaler().fit(X), **objects}


def claims(cell: str, ns: dict) -> list:
    return [f for f in kernel_facts(cell, ns) if f.kind in ("call", "value")]


def holds(cell: str, ns: dict, says: str):
    """One claim whose message says `says`, and the cell raises ValueError."""
    found = claims(cell, ns)
    assert len(found) == 1 and says in found[0].message, (cell, found)
    with warnings.catch_warnings(), pytest.raises(ValueError):
        warnings.simplefilter("ignore")
        exec(cell, dict(ns))
    return found[0]


def runs_unclaimed(cell: str, ns: dict) -> None:
    assert claims(cell, ns) == [], cell
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(cell, dict(ns))


@pytest.mark.parametrize("call", ["model.predict({})", "model.predict_proba({})", "model.decision_function({})",
                                  "model.score({}, [0])", "scaler.transform({})"])
def test_a_literal_row_of_another_width_than_the_fit(call):
    f = holds(f"p = {call.format('[[1.0, 2.0]]')}\n", namespace(), "has 2 features")
    assert "expecting 3" in f.message
    runs_unclaimed(f"p = {call.format('[[1.0, 2.0, 3.0]]')}\n", namespace())


@pytest.mark.parametrize("x,good", [("np.array([[1, 2, 3, 4]])", "np.array([[1, 2, 3]])"),
                                    ("np.ones((2, 4))", "np.ones((2, 3))"),
                                    ("X[:, :2]", "X[:, :3]")])
def test_an_array_the_cell_makes_of_another_width(x, good):
    holds(f"p = model.predict({x})\n", namespace(), "features")
    runs_unclaimed(f"p = model.predict({good})\n", namespace())


def test_a_literal_the_cell_binds_to_a_name_is_read_as_written():
    holds("row = [[5.1, 3.5]]\np = model.predict(row)\n", namespace(), "has 2 features")
    runs_unclaimed("row = [[5.1, 3.5, 1.4]]\np = model.predict(row)\n", namespace())
    # a list the cell changes before the call is no longer the literal
    assert claims("row = [[5.1, 3.5]]\nrow[0].append(1.4)\np = model.predict(row)\n", namespace()) == []


def test_a_flat_literal_where_two_dimensional_x_is_required():
    f = holds("p = model.predict([1.0, 2.0, 3.0])\n", namespace(), "takes 2-D X only")
    assert f.kind == "value" and f.candidates == []      # one sample or one feature: not for us to say
    runs_unclaimed("p = model.predict([[1.0, 2.0, 3.0]])\n", namespace())


def test_a_literal_of_text_into_an_estimator_that_takes_numbers_only():
    holds("p = model.predict([['a', 'b', 'c']])\n", namespace(), "takes numbers only")
    holds("p = model.predict([[1.0, 'b', 3.0]])\n", namespace(), "takes numbers only")
    # numbers written as text: refused where the check asks for dtype "numeric" (this model), read as
    # floats where it asks for floats (SVC, StandardScaler: a held-out guard trial's wrong stop): no claim
    assert claims("p = model.predict([['5.5', '1.7', '0.2']])\n", namespace()) == []
    from sklearn.svm import SVC
    runs_unclaimed("s = SVC().fit([[0.0, 1.0], [1.0, 0.0]], [0, 1])\np = s.predict([['5.5', '1.7']])\n",
                   namespace(SVC=SVC))
    from sklearn.feature_extraction.text import CountVectorizer
    runs_unclaimed("v = CountVectorizer().fit(['red car', 'blue car'])\nm = v.transform(['red bus'])\n",
                   namespace(CountVectorizer=CountVectorizer))


@pytest.mark.parametrize("make", ["LogisticRegression()", "StandardScaler()", "LinearRegression()"])
def test_an_estimator_made_and_fitted_in_the_cell_takes_the_width_of_that_fit(make):
    method = "transform" if make == "StandardScaler()" else "predict"
    cell = f"m = {make}\nm.fit(X, y)\np = m.{method}({{}})\n"
    holds(cell.format("[[1.0, 2.0]]"), namespace(), "has 2 features")
    runs_unclaimed(cell.format("[[1.0, 2.0, 3.0]]"), namespace())
    holds(f"m = {make}\nm.fit([[1, 2], [3, 4], [5, 6]], [0, 1, 0])\np = m.{method}([[1, 2, 3]])\n", namespace(),
          "has 3 features")


@pytest.mark.parametrize("cell", [
    "m = LinearRegression()\nm.fit(X[:30], y)\n",
    "r = LinearRegression().fit(X[:30], y)\n",
    "X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25)\nm = LogisticRegression()\nm.fit(X_tr, y_te)\n",
    "X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.25)\nr = model.fit(X_tr, y_te)\n",
    "r = LinearRegression().fit([[1, 2], [3, 4]], [1.0, 2.0, 3.0])\n",
    "r = model.fit(X, [0, 1])\n",
])
def test_x_and_y_of_inconsistent_lengths(cell):
    holds(cell, namespace(), "inconsistent numbers of samples")
    right = cell.replace("X[:30], y", "X[:30], y[:30]").replace("y_te)", "y_tr)") \
        .replace("[1.0, 2.0, 3.0]", "[1.0, 2.0]").replace("X, [0, 1]", "X[:2], [0, 1]")
    runs_unclaimed(right, namespace())


def test_a_one_dimensional_x_is_refused_before_the_lengths_are_compared():
    """check_X_y checks X first: a 1-D X with a y of another length is the 1-D error."""
    cell = "m = LinearRegression()\nm.fit(df['a'], y[:10])\n"
    f = holds(cell, namespace(), "takes 2-D X only")
    with pytest.raises(ValueError, match="2D array|2-dimensional"):
        LinearRegression().fit(FRAME["a"], Y[:10])
    assert f.kind == "value"


def test_one_column_carried_through_a_split_into_fit():
    cell = ("Xc = df{}\nX_tr, X_te, y_tr, y_te = train_test_split(Xc, df['t'])\n"
            "m = LogisticRegression()\nm.fit(X_tr, y_tr)\n")
    holds(cell.format("['a']"), namespace(), "takes 2-D X only")
    runs_unclaimed(cell.format("[['a']]"), namespace())


def test_a_literal_of_the_wrong_width_into_every_fitted_estimator():
    """Every scikit-learn estimator that fits on (X, y) with its defaults and then predicts or
    transforms: where a claim is made on a literal row one feature short, scikit-learn raises
    ValueError; a row of the fitted width gets no claim of its width (an encoder that never saw
    its values raises, and is claimed, for them)."""
    from sklearn.utils import all_estimators
    claimed = 0
    for _, cls in all_estimators(type_filter=["classifier", "regressor", "transformer"]):
        try:
            est = cls()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                est.fit(X, Y)
        except Exception:  # noqa: BLE001 - needs arguments or other data: not this rule's case
            continue
        method = next((m for m in ("predict", "transform") if hasattr(est, m)), None)
        if method is None:
            continue
        ns = namespace(est=est)
        found = claims(f"p = est.{method}([[1.0, 2.0]])\n", ns)
        if found:
            claimed += 1
            with warnings.catch_warnings(), pytest.raises(ValueError):
                warnings.simplefilter("ignore")
                getattr(est, method)([[1.0, 2.0]])
        fitted_width = claims(f"p = est.{method}([[1.0, 2.0, 3.0]])\n", ns)
        if fitted_width:        # another rule's: an encoder's categories are the fit's own values
            assert all("features" not in f.message for f in fitted_width), (cls, fitted_width)
            with warnings.catch_warnings(), pytest.raises(ValueError):
                warnings.simplefilter("ignore")
                getattr(est, method)([[1.0, 2.0, 3.0]])
    assert claimed > 100


def test_column_names_of_a_frame_the_cell_makes_against_those_of_the_fit():
    ns = namespace(named=LogisticRegression().fit(FRAME[["a", "b", "c"]], Y))
    holds("Z = df.drop(columns=['a'])\np = named.predict(Z)\n", ns, "not those LogisticRegression was fitted with")
    holds("Z = df.drop(columns=['t'])\np = named.predict(Z[['c', 'b', 'a']])\n", ns, "in another order")
    runs_unclaimed("Z = df.drop(columns=['t'])\np = named.predict(Z)\n", ns)
    # fitted on names, given an array of the same width: scikit-learn only warns
    runs_unclaimed("p = named.predict(df.drop(columns=['t']).to_numpy())\n", ns)


def test_column_names_against_a_fit_in_the_same_cell():
    cell = "m = LogisticRegression()\nm.fit(df[['a', 'b']], y)\np = m.predict(df[{}])\n"
    holds(cell.format("['a', 'c']"), namespace(), "not those LogisticRegression was fitted with")
    holds(cell.format("['b', 'a']"), namespace(), "in another order")
    runs_unclaimed(cell.format("['a', 'b']"), namespace())


@pytest.mark.parametrize("cell", [
    "a, b, c, d = train_test_split(X, y[:30])\n",
    "Xs = df.drop(columns=['t'])\nys = df['t'][:20]\na, b, c, d = train_test_split(Xs, ys, test_size=0.2)\n",
    "a, b, c, d = train_test_split(X[:10], [1, 2, 3])\n",
    "s = cross_val_score(LogisticRegression(), X, y[:30])\n",
])
def test_splitting_and_cross_validating_arrays_of_different_lengths(cell):
    from sklearn.model_selection import cross_val_score
    ns = namespace(cross_val_score=cross_val_score)
    holds(cell, ns, "different numbers of samples")
    right = cell.replace("y[:30]", "y").replace("df['t'][:20]", "df['t']").replace("X[:10]", "X[:3]")
    runs_unclaimed(right, ns)


@pytest.mark.parametrize("made", [
    "RidgeCV(alphas=np.logspace(-6, 6, num=5))", "LogisticRegressionCV(Cs=np.logspace(-3, 3, 7), max_iter=200)",
    "Ridge(**params)", "KMeans(n_clusters=3, **common)", "Ridge(alpha=alphas[2])",
    "Lasso(alpha=0.1, **{'max_iter': 50})",
])
def test_an_estimator_made_of_numpy_grids_or_a_dict_of_keywords(made):
    """numpy's grids of literal numbers (made here: numpy alone runs) and `**d` of a dict of plain
    keywords make the estimator as written out would; a 1-D X into its fit is then refused."""
    from sklearn.cluster import KMeans
    from sklearn.linear_model import Lasso, LogisticRegressionCV, Ridge, RidgeCV
    from sklearn.model_selection import GridSearchCV
    ns = namespace(RidgeCV=RidgeCV, LogisticRegressionCV=LogisticRegressionCV, Ridge=Ridge, KMeans=KMeans,
                   GridSearchCV=GridSearchCV,
                   Lasso=Lasso, params={"alpha": 0.5, "fit_intercept": False}, common={"n_init": "auto"},
                   alphas=np.logspace(-2, 2, 5))
    holds(f"m = {made}.fit(X[:, 0], y)\n", ns, "1-D")
    runs_unclaimed(f"m = {made}.fit(X, y)\n", ns)


def test_no_estimator_where_a_keyword_is_given_twice_or_not_plain():
    from sklearn.linear_model import Ridge
    ns = namespace(Ridge=Ridge, params={"alpha": 0.5}, odd={"alpha": object()})
    assert claims("m = Ridge(alpha=1.0, **params).fit(X[:, 0], y)\n", ns) == []      # TypeError first
    assert claims("m = Ridge(**odd).fit(X[:, 0], y)\n", ns) == []
    assert claims("m = Ridge(alpha=np.logspace(-3, 3, 10**6)[0]).fit(X[:, 0], y)\n", ns) == []   # too large to make


@pytest.mark.parametrize("cell, good", [
    # an argument the facts cannot value (a library's result): the class's own input check still
    # refuses a 1-D X, and a refused value raises ValueError (InvalidParameterError) first
    ("from sklearn.cluster import MeanShift, estimate_bandwidth\nbw = estimate_bandwidth(X, quantile=0.3)\n"
     "ms = MeanShift(bandwidth=bw)\nms.fit(X[:, 0])\n",
     "from sklearn.cluster import MeanShift, estimate_bandwidth\nbw = estimate_bandwidth(X, quantile=0.3)\n"
     "ms = MeanShift(bandwidth=bw)\nms.fit(X)\n"),
    ("c = float(np.abs(X).max())\nm = LogisticRegression(C=c)\nm.fit(X[:, 0], y)\n",
     "c = float(np.abs(X).max())\nm = LogisticRegression(C=c)\nm.fit(X, y)\n"),
])
def test_an_estimator_made_of_arguments_not_known_takes_its_class_input_check(cell, good):
    holds(cell, namespace(), "takes 2-D X only")
    runs_unclaimed(good, namespace())


def test_an_argument_not_known_is_never_taken_for_an_estimator_of_scikit_learns():
    """An unknown argument once passed for an object of scikit-learn's class (held, never made):
    it is unknown, and the estimator made of it is known by its class alone."""
    from jupyter_codecheck.facts.abstract_sklearn import made_estimator
    import ast
    from jupyter_codecheck.facts.namespace import UNRESOLVED
    call = ast.parse("LogisticRegression(C=c)", mode="eval").body
    assert made_estimator(call, LogisticRegression, lambda n: UNRESOLVED) is None


def test_a_display_of_numbers_the_cell_names_is_read_as_numpy_makes_it():
    """`[[x1, 1]]`, x1 a number the cell bound (or the kernel holds): the array numpy makes."""
    holds("x1 = 1\np = model.predict([[x1, 2.0]])\n", namespace(), "has 2 features")
    holds("p = model.predict([[k, 2.0]])\n", namespace(k=3), "has 2 features")
    holds("from sklearn.pipeline import make_pipeline\npipe = make_pipeline(StandardScaler(), LinearRegression())\n"
          "pipe.fit(X, y)\nx1 = 1\np = pipe.predict([[x1, 1]])\n", namespace(), "has 2 features")
    runs_unclaimed("x1 = 1\np = model.predict([[x1, 2.0, -x1]])\n", namespace())
    runs_unclaimed("x1 = 1\nx1 = [1, 2]\np = model.predict([x1 + [3]])\n", namespace())
    # a name of anything but a Python number is not read so
    assert claims("p = model.predict([[k, 2.0]])\n", namespace(k=np.float64(1.0))) == []
    assert claims("x1 = [1.0]\np = model.predict([[x1, 2.0]])\n", namespace()) == []


@pytest.mark.parametrize("cell", [
    # a parameter that takes a callable, given one the facts cannot value: a function of the
    # user's may run there (SVC's callable kernel skips the X check, a 1-D X runs)
    "k = lambda a, b: np.ones((len(a), len(b)))\nm = SVC(kernel=k)\nm.fit(X[:, 0], y)\n",
    "m = SVC(kernel=make_kernel())\nm.fit(X[:, 0], y)\n",
    "m = SVC(kernel=kern)\nm.fit(X[:, 0], y)\n",
])
def test_no_class_input_check_where_a_callable_parameter_is_not_known(cell):
    from sklearn.svm import SVC

    def kern(a, b):
        return np.ones((len(a), len(b)))

    runs_unclaimed(cell, namespace(SVC=SVC, kern=kern, make_kernel=lambda: kern))


def test_a_datasets_bunch_or_a_dict_for_x_and_its_data_meant():
    """Found held out: `kmeans.fit_predict(digits)`, the Bunch load_digits returns for its
    `data`. check_array reads a dict as one object: TypeError; `digits.data` runs."""
    from sklearn.cluster import KMeans
    from sklearn.datasets import load_digits
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.feature_extraction.text import CountVectorizer
    digits = load_digits()
    ns = namespace(digits=digits, KMeans=KMeans, parts={"a": [1, 2]}, docs={"a": "x y", "b": "y z"},
                   CountVectorizer=CountVectorizer, DictVectorizer=DictVectorizer)
    for cell in ["KMeans(n_clusters=10, n_init=1).fit_predict(digits)\n",
                 "LogisticRegression().fit(digits, digits.target)\n",
                 "StandardScaler().fit_transform(parts)\n"]:
        (claim,) = claims(cell, ns)
        try:
            exec(cell, dict(ns))
        except (TypeError, ValueError) as e:
            assert claim.message.endswith(f": {type(e).__name__}"), (claim, e)
        else:
            raise AssertionError(cell)
        if claim.candidates:
            runs_unclaimed(cell.replace("(digits", "(digits.data", 1), ns)
    for cell in ["KMeans(n_clusters=3, n_init=1).fit(digits.data)\n", "DictVectorizer().fit([parts])\n",
                 "model.predict(parts)\n",                 # a fitted one's own rule: not asked
                 "CountVectorizer().fit(docs)\n"]:           # text and dict estimators read a dict otherwise
        assert claims(cell, ns) == [], cell


@pytest.mark.parametrize("name", ["PCA", "IncrementalPCA", "TruncatedSVD", "NMF", "FastICA", "SparsePCA",
                                  "GaussianRandomProjection"])
def test_a_decompositions_way_back_takes_its_components_not_the_features(name):
    """`pca.inverse_transform(X)` (found held out): X of the components' width is taken, X of the
    features' width is ValueError, for each of scikit-learn's classes with a 2-D `components_`."""
    from sklearn import decomposition, random_projection
    cls = getattr(decomposition, name, None) or getattr(random_projection, name)
    X = np.abs(np.random.RandomState(0).rand(30, 5))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est = cls(n_components=2).fit(X)
        ns = {"est": est, "X": X, "Z": est.transform(X)}
        for cell, fails in [("r = est.inverse_transform(X)\n", True), ("r = est.inverse_transform(Z)\n", False)]:
            facts = [f for f in kernel_facts(cell, ns) if "inverse_transform" in f.message]
            try:
                exec(cell, dict(ns))
                raised = False
            except ValueError:
                raised = True
            assert raised == fails and bool(facts) == fails, (name, cell, facts)
