"""Value facts (facts/values.py): a library's rule on its inputs' shapes, evaluated on the
live inputs. Each claim is held against the library itself: the fact is made, then the cell runs
and raises the exception the fact names; a near miss runs and gets no claim. No user code runs."""
from __future__ import annotations

import random

import numpy as np
import pandas as pd
import pytest
from numpy.exceptions import AxisError
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.preprocessing import StandardScaler

from jupyter_codecheck.facts import kernel_facts


def namespace(**objects) -> dict:
    return {"np": np, "pd": pd, **objects}


def value_facts(cell: str, ns: dict) -> list:
    return [f for f in kernel_facts(cell, ns) if f.kind == "value"]


def holds(cell: str, ns: dict, exception: type[BaseException]):
    """The cell gets one value fact naming `exception`, and running it raises that exception."""
    facts = value_facts(cell, ns)
    assert len(facts) == 1, facts
    assert exception.__name__ in facts[0].message, facts[0].message
    with pytest.raises(exception):
        exec(cell, dict(ns))
    return facts[0]


def runs_unclaimed(cell: str, ns: dict) -> None:
    assert value_facts(cell, ns) == []
    exec(cell, dict(ns))


A34, B32, B42 = np.ones((3, 4)), np.ones((3, 2)), np.ones((4, 2))


@pytest.mark.parametrize("cell", ["c = a @ b\n", "c = np.dot(a, b)\n", "c = np.matmul(a, b)\n"])
def test_matrix_product_of_disagreeing_inner_dimensions(cell):
    f = holds(cell, namespace(a=A34, b=B32), ValueError)
    assert "4" in f.message and "3" in f.message
    runs_unclaimed(cell, namespace(a=A34, b=B42))
    runs_unclaimed(cell, namespace(a=np.ones(4), b=B42))        # 1-D: a vector


def test_dot_of_a_matrix_and_a_vector_of_another_length():
    holds("v = np.dot(a, x)\n", namespace(a=A34, x=np.ones(3)), ValueError)
    runs_unclaimed("v = np.dot(a, x)\n", namespace(a=A34, x=np.ones(4)))
    runs_unclaimed("v = np.dot(a, 2.0)\n", namespace(a=A34))


@pytest.mark.parametrize("cell", ["b = a.reshape(3, 4)\n", "b = a.reshape((3, -1))\n", "b = np.reshape(a, (4, 3))\n"])
def test_reshape_to_sizes_whose_product_differs(cell):
    f = holds(cell, namespace(a=np.arange(10)), ValueError)
    assert "size 10" in f.message
    runs_unclaimed(cell, namespace(a=np.arange(12)))
    runs_unclaimed("b = a.reshape(-1, 5)\nc = a.reshape(2, -1)\n", namespace(a=np.arange(10)))


@pytest.mark.parametrize("cell, good", [
    ("c = np.concatenate([a, b])\n", "c = np.concatenate([a, b], axis=1)\n"),
    ("c = np.vstack([a, b])\n", "c = np.hstack([a, b])\n"),
    ("c = np.hstack((a, b.T))\n", "c = np.vstack((a, a))\n"),
])
def test_joining_arrays_whose_other_dimensions_disagree(cell, good):
    ns = namespace(a=np.ones((2, 3)), b=np.ones((2, 4)))
    holds(cell, ns, ValueError)
    runs_unclaimed(good, ns)


def test_vstack_of_vectors_of_different_lengths_and_hstack_of_them():
    ns = namespace(u=np.ones(3), w=np.ones(4))
    holds("m = np.vstack([u, w])\n", ns, ValueError)
    runs_unclaimed("m = np.hstack([u, w])\n", ns)


@pytest.mark.parametrize("cell", ["s = a.sum(axis=2)\n", "s = np.mean(a, axis=-3)\n", "i = a.argmax(axis=5)\n"])
def test_axis_beyond_the_array_dimensions(cell):
    f = holds(cell, namespace(a=np.ones((2, 3))), AxisError)
    assert "dimension 2" in f.message
    runs_unclaimed(cell.replace("2)", "1)").replace("-3", "-2").replace("5", "0"), namespace(a=np.ones((2, 3))))


@pytest.mark.parametrize("op", ["+", "-", "*", "/"])
def test_arithmetic_between_shapes_that_do_not_broadcast(op):
    cell = f"c = a {op} b\n"
    holds(cell, namespace(a=np.ones(3), b=np.ones(4)), ValueError)
    runs_unclaimed(cell, namespace(a=np.ones((3, 1)), b=np.ones(4)))


def test_one_dimensional_x_into_a_scikit_learn_estimator():
    df = pd.DataFrame({"area": [50.0, 70.0, 90.0, 120.0], "price": [1.0, 1.5, 2.0, 2.6]})
    ns = namespace(df=df, model=LinearRegression(), scaler=StandardScaler(), x=df["area"].to_numpy())
    f = holds("model.fit(df['area'], df['price'])\n", ns, ValueError)
    assert "Expected 2D array, got 1D array instead" in f.message
    assert (f.line, f.column, f.end_column) == (1, 10, 20)
    assert f.candidates[0] == "df[['area']]"
    f = holds("model.fit(x, df.price)\n", ns, ValueError)
    assert f.candidates == ["x.reshape(-1, 1)"]
    holds("z = scaler.fit_transform(x)\n", ns, ValueError)
    runs_unclaimed("model.fit(df[['area']], df['price'])\nmodel.fit(x.reshape(-1, 1), df.price)\n", ns)


def test_a_fitted_estimator_predicting_on_a_series():
    df = pd.DataFrame({"a": [0.0, 1.0, 2.0, 3.0], "y": [0, 0, 1, 1]})
    model = LogisticRegression().fit(df[["a"]], df["y"])
    holds("p = model.predict(df['a'])\n", namespace(df=df, model=model), ValueError)


def test_an_estimator_whose_tags_take_one_dimensional_text_gets_no_claim():
    ns = namespace(texts=pd.Series(["red apple", "green pear", "red pear"]), vec=CountVectorizer(),
                   scaler=StandardScaler())
    runs_unclaimed("m = vec.fit_transform(texts)\n", ns)
    holds("m = scaler.fit_transform(texts)\n", ns, ValueError)


def test_no_claim_after_the_cell_rebinds_or_changes_an_operand():
    ns = namespace(a=A34, b=B32, x=np.arange(10), model=LinearRegression(),
                   df=pd.DataFrame({"a": [1.0, 2.0], "y": [1.0, 2.0]}))
    assert len(value_facts("c = a @ b\n", ns)) == 1
    assert value_facts("b = g(b)\nc = a @ b.T\n", ns | {"g": lambda m: m.T.copy()}) == []
    assert value_facts("b.shape = (2, 3)\nc = a @ b\n", ns) == []
    assert value_facts("x = x[:6]\ny = x.reshape(2, 3)\n", ns) == []
    assert value_facts("x = x.reshape(-1, 1)\nmodel.fit(x, np.arange(10))\n", ns) == []
    assert value_facts("try:\n    c = a @ b\nexcept ValueError:\n    pass\n", ns) == []
    assert value_facts("if a.shape[1] == b.shape[0]:\n    c = a @ b\n", ns) == []


RAN: list[str] = []


class UserArray(np.ndarray):
    """An ndarray of the user's whose shape and dtype record themselves."""

    @property
    def shape(self):
        RAN.append("UserArray.shape")
        return np.ndarray.shape.__get__(self)

    @property
    def dtype(self):
        RAN.append("UserArray.dtype")
        return np.ndarray.dtype.__get__(self)

    def __len__(self):
        RAN.append("UserArray.__len__")
        return 3


class Duck:
    """Looks like an array to a careless reader; every hook records itself."""

    @property
    def shape(self):
        RAN.append("Duck.shape")
        return (3,)

    @property
    def ndim(self):
        RAN.append("Duck.ndim")
        return 1

    @property
    def dtype(self):
        RAN.append("Duck.dtype")
        return np.dtype(float)

    def __array__(self, dtype=None, copy=None):
        RAN.append("Duck.__array__")
        return np.ones(3)

    def __len__(self):
        RAN.append("Duck.__len__")
        return 3

    def reshape(self, *shape):
        RAN.append("Duck.reshape")
        return self


class UserSeries(pd.Series):
    @property
    def _constructor(self):
        return UserSeries


USERS_CELLS = ["c = u @ b", "c = d @ b", "c = np.dot(u, b)", "c = np.matmul(d, b)", "c = u + b", "c = d + b",
               "r = u.reshape(5, 5)", "r = d.reshape(5, 5)", "r = np.reshape(d, (5, 5))", "j = np.concatenate([u, b])",
               "j = np.vstack([d, b])", "t = u.sum(axis=4)", "t = np.sum(d, axis=4)", "m.fit(d, y)", "m.fit(s, y)",
               "m.fit(u[0], y)"]


def test_no_user_code_runs_and_no_claim_on_the_users_arrays():
    RAN.clear()
    ns = namespace(u=np.ones((3, 4)).view(UserArray), d=Duck(), a=A34, b=B32, m=LinearRegression(),
                   s=UserSeries([1.0, 2.0, 3.0]), y=[1.0, 2.0, 3.0])
    for cell in USERS_CELLS:
        # numpy's own arrays in the same cell, first: claimed
        assert [f.line for f in value_facts(f"c = a @ b\n{cell}\n", ns)] == [1], cell
    assert RAN == []


SWEEP_CELLS = ["c = a @ b", "c = np.dot(a, b)", "c = np.matmul(a, b)", "c = a + b", "c = a / b",
               "c = np.concatenate([a, b])", "c = np.concatenate((a, b), axis=-1)", "c = np.vstack([a, b])",
               "c = np.hstack((a, b, a))", "c = a.reshape(2, -1)", "c = np.reshape(a, (1, -1, 2))",
               "c = a.sum(axis=2)", "c = np.mean(a, axis=-2)", "c = np.diff(a, axis=1)", "c = np.median(a, axis=1)"]


def test_random_shapes_against_numpy_no_claim_on_a_cell_that_runs_and_the_exception_named():
    rnd = random.Random(7)

    def shape():
        return tuple(rnd.choice([1, 2, 3]) for _ in range(rnd.choice([0, 1, 1, 2, 2, 3])))

    claimed = 0
    for _ in range(1500):
        ns = namespace(a=np.ones(shape(), dtype=rnd.choice([float, int, bool])), b=np.ones(shape()))
        cell = rnd.choice(SWEEP_CELLS)
        facts = value_facts(cell + "\n", ns)
        try:
            exec(cell, dict(ns))
            raised = None
        except Exception as e:  # noqa: BLE001 - whatever numpy raises is compared below
            raised = type(e).__name__
        if facts:
            claimed += 1
            named = facts[0].message.rpartition(": ")[2].split(" ")[0]
            assert raised == named, (cell, ns["a"].shape, ns["b"].shape, raised, facts[0].message)
    assert claimed > 300


TEXT_X = pd.DataFrame({"city": ["Oslo", "Lima", "Oslo", "Lima", "Oslo", "Lima"],
                       "age": [30.0, 41.0, 25.0, 33.0, 52.0, 47.0]})


def claims_held_by_every_estimator(X, y, says: str) -> int:
    """`est.fit(X, y)` for every scikit-learn estimator built with its defaults: where a value fact
    is claimed (its message saying `says`), fit raises ValueError. Returns the claims made."""
    import warnings
    from sklearn.utils import all_estimators
    claimed = 0
    for name, cls in all_estimators():
        try:
            est = cls()
        except TypeError:
            continue                      # needs arguments (meta-estimators): no claim is made on them
        facts = value_facts("est.fit(X, y)\n", namespace(est=est, X=X, y=y))
        if not facts:
            continue
        # (an estimator whose defaults its fit refuses, SelfTrainingClassifier's estimator=None: that
        # parameter check comes first, facts.py's _live_parameters)
        first = "'s parameters: " in facts[0].message
        assert says in facts[0].message or first, facts[0].message
        claimed += not first
        with warnings.catch_warnings(), pytest.raises(ValueError) as raised:
            warnings.simplefilter("ignore")
            est.fit(X, y)
        assert not first or facts[0].message.endswith(type(raised.value).__name__), (facts[0].message, raised)
    return claimed


def test_sample_weights_of_another_length_into_every_estimator_whose_fit_takes_them():
    """`est.fit(X, y, sample_weight=w)`, w one weight short, for every scikit-learn estimator built
    with its defaults whose fit takes sample_weight: claimed, and fit raises ValueError; one weight
    per sample, no claim (the fit runs or fails for another reason, never claimed)."""
    import inspect
    import warnings

    from sklearn.base import is_classifier
    from sklearn.utils import all_estimators
    rng = np.random.RandomState(3)
    X, labels, numbers = rng.rand(30, 3), np.array([0, 1, 2] * 10), rng.rand(30)
    claimed = 0
    for name, cls in all_estimators():
        if "sample_weight" not in inspect.signature(cls.fit).parameters:
            continue
        try:
            est = cls()
        except TypeError:
            continue
        ns = namespace(est=est, X=X, y=labels if is_classifier(est) else numbers)
        facts = value_facts("w = np.ones(29)\nest.fit(X, y, sample_weight=w)\n", ns)
        assert len(facts) == 1 and "has 29 values but X=X has 30 samples" in facts[0].message, name
        with warnings.catch_warnings(), pytest.raises(ValueError):
            warnings.simplefilter("ignore")
            est.fit(X, ns["y"], sample_weight=np.ones(29))
        assert value_facts("w = np.ones(30)\nest.fit(X, y, sample_weight=w)\n", ns) == [], name
        claimed += 1
    assert claimed > 60


def test_a_text_column_into_every_estimator_that_takes_numbers_only():
    """Every scikit-learn estimator the fact names for a DataFrame with a text column refuses it
    in fit with ValueError; the encoders and text readers, and numbers written as text, get none."""
    y = np.array([0, 1, 0, 1, 0, 1])
    assert claims_held_by_every_estimator(TEXT_X, y, "could not convert string to float") > 100
    from sklearn.preprocessing import OneHotEncoder
    numbers_as_text = pd.DataFrame({"n": ["1.5", "2", "3"], "m": [1.0, 2.0, 3.0]})
    runs_unclaimed("e = enc.fit(X)\nr = LinearRegression().fit(Z, [1.0, 2.0, 3.0])\n",
                   namespace(enc=OneHotEncoder(), X=TEXT_X, Z=numbers_as_text, LinearRegression=LinearRegression))
    runs_unclaimed("r = model.fit(Z, [1.0, 2.0, 3.0])\n", namespace(model=LinearRegression(), Z=numbers_as_text))


def test_an_array_of_text_into_every_estimator_that_takes_numbers_only():
    """An ndarray of str or bytes (np.column_stack of numbers and a label) is refused by
    scikit-learn's check_array itself: every estimator the fact names raises ValueError in fit;
    the encoders, 1-D and numeric arrays get none."""
    from sklearn.preprocessing import OneHotEncoder
    y = np.array([0, 1, 0, 1, 0, 1])
    text = np.column_stack([np.arange(6.0), np.array(["tr", "te"] * 3)])      # dtype '<U32'
    for X in (text, text.astype("S")):
        assert claims_held_by_every_estimator(X, y, "takes numbers only") > 100
    runs_unclaimed("e = enc.fit(X)\nr = model.fit(N, y)\n",
                   namespace(enc=OneHotEncoder(), X=text, model=LogisticRegression(),
                             N=text[:, :1].astype(float), y=y))


NAN_X = pd.DataFrame({"age": [30.0, np.nan, 25.0, 33.0, 52.0, 47.0], "n": [1, 2, 3, 4, 5, 6]})


@pytest.mark.parametrize("X", [NAN_X, NAN_X.to_numpy()], ids=["DataFrame", "ndarray"])
def test_a_nan_in_x_into_every_estimator_that_takes_no_missing_values(X):
    """Every scikit-learn estimator the fact names for X holding a NaN refuses it in fit with
    ValueError; those whose tags take missing values (a tree's boosting, an imputer in front) get
    none and run, as does X with the NaN filled."""
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import make_pipeline
    y = np.array([0, 1, 0, 1, 0, 1])
    assert claims_held_by_every_estimator(X, y, "Input X contains NaN") > 100
    filled = np.nan_to_num(X) if type(X) is np.ndarray else X.fillna(0.0)
    runs_unclaimed("a = boosted.fit(X, y)\nb = imputed.fit(X, y)\nc = model.fit(filled, y)\n",
                   namespace(boosted=HistGradientBoostingClassifier(max_iter=2), X=X, y=y, filled=filled,
                             imputed=make_pipeline(SimpleImputer(), LogisticRegression()), model=LogisticRegression()))


def test_a_nan_in_y_into_every_estimator_that_needs_y():
    """scikit-learn's check_X_y asserts y is finite after X: every estimator the fact names raises
    ValueError in fit, whatever its tags say of missing values in X; y filled runs unclaimed, and
    an estimator that needs no y (KMeans) or checks none (DummyClassifier) gets no claim."""
    from sklearn.cluster import KMeans
    from sklearn.dummy import DummyClassifier
    X = np.arange(24.0).reshape(12, 2)                  # as many samples as KMeans' default clusters and more
    y = np.array([0.0, 1.0, np.nan, 1.0, 0.0, 1.0] * 2)
    for given in (y, pd.Series(y, name="target"), pd.DataFrame({"X0": X[:, 0], "t": y})["t"]):
        assert claims_held_by_every_estimator(X, given, "Input y contains NaN") > 60
    runs_unclaimed("a = KMeans(n_clusters=2).fit(X, y)\nb = DummyClassifier().fit(X, y)\n"
                   "c = LogisticRegression().fit(X, filled)\n",
                   namespace(X=X, y=y, filled=np.nan_to_num(y), KMeans=KMeans, DummyClassifier=DummyClassifier,
                             LogisticRegression=LogisticRegression))
    holds("m = LinearRegression().fit(X, y)\n", namespace(X=X, y=y, LinearRegression=LinearRegression), ValueError)


def test_a_nan_past_the_values_read_or_in_a_column_of_objects_is_no_claim():
    from jupyter_codecheck.facts.values import NAN_SCAN_VALUES
    late = np.ones((NAN_SCAN_VALUES + 10, 1))
    late[-1, 0] = np.nan
    objects = NAN_X.astype({"n": object})
    for X in (late, objects):
        assert value_facts("m = model.fit(X, y)\n", namespace(model=LinearRegression(), X=X, y=np.zeros(len(X)))) == []
        with pytest.raises(ValueError, match="NaN"):
            LinearRegression().fit(X, np.zeros(len(X)))


@pytest.mark.parametrize("accessor,use", [("str", "lower()"), ("dt", "year"), ("cat", "codes")])
def test_an_accessor_on_a_series_whose_dtype_pandas_refuses_for_it(accessor, use):
    df = pd.DataFrame({"n": [1, 2], "f": [0.5, 1.5], "b": [True, False],
                       "t": pd.to_datetime(["2020-01-01", "2021-06-01"]),
                       "s": ["a", "b"], "c": pd.Categorical(["x", "y"])})
    ns = namespace(df=df)
    for column in df.columns:
        cell = f"v = df[{column!r}].{accessor}.{use}\n"
        try:
            exec(cell, dict(ns))
        except AttributeError:
            refused = True
        else:
            refused = False
        numpy_dtype = type(df[column].dtype).__module__.split(".")[0] == "numpy"
        # claimed exactly where pandas refuses a numpy dtype; extension dtypes are pandas' to judge
        assert bool(value_facts(cell, ns)) == (refused and numpy_dtype), cell
    assert value_facts("v = df['n'].str.lower()\n", ns) and value_facts("v = df['s'].dt.year\n", ns) == []


def test_a_text_column_of_the_users_objects_is_not_read():
    seen = []

    class Label:
        def __float__(self):
            seen.append("float")
            return 1.0

        def __repr__(self):
            seen.append("repr")
            return "Label()"

    X = pd.DataFrame({"label": [Label(), "Oslo"], "age": [1.0, 2.0]})
    assert value_facts("m = model.fit(X, [0, 1])\n", namespace(model=LinearRegression(), X=X)) == []
    assert seen == []


def test_a_str_literals_method_leaves_its_arguments_as_they_are():
    """`"{:.2f}".format(model.score(X, y))` calls str's own method: X is still the live array
    on a later line (a user's function given X may change it: no claim)."""
    ns = namespace(X=np.ones((6, 2)), y=np.array([0, 1] * 3), model=LogisticRegression().fit(np.ones((6, 2)),
                                                                                           [0, 1] * 3))
    cell = 'print("score: {:.2f}".format(model.score(X, y)))\n", ".join([str(len(X))])\np = model.predict(X[:, 0])\n'
    holds(cell, ns, ValueError)
    runs_unclaimed(cell.replace("X[:, 0]", "X"), ns)
    ns["shrink"] = lambda a: a.resize((6,), refcheck=False)
    user = 'print("{}".format(shrink(X)))\np = model.predict(X[:, 0])\n'
    assert value_facts(user, ns) == []


def test_an_arrays_method_that_reads_it_leaves_it_as_it_is():
    """`arr.mean(axis=1)` then `arr.sum(axis=2)`: the first call made a new array, so the live
    array's dimensions still hold; so they do after one that changes its values in place
    (`arr.sort(axis=0)`: numpy keeps its shape); after one that may change its shape, no claim."""
    for cell in ("arr.mean(axis=1)\narr.sum(axis=2)\n", "arr.repeat([2, 3], axis=0)\narr.repeat([2, 3], axis=2)\n",
                 "b = arr.reshape(4)\narr.cumsum(axis=-3)\n", "arr.sort(axis=0)\narr.sum(axis=2)\n"):
        holds(cell, namespace(arr=np.ones((2, 2))), AxisError)
    for cell in ("arr.resize((2, 2, 1), refcheck=False)\narr.sum(axis=2)\n",
                 "b = arr.reshape(4)\nb.resize((2, 2, 1), refcheck=False)\narr.sum(axis=2)\n"):
        assert value_facts(cell, namespace(arr=np.ones((2, 2)))) == [], cell


def test_a_scikit_learn_bunchs_attribute_is_its_item():
    """`cancer.data[:, 0]` of a Bunch (load_*): Bunch's `__getattr__` is `self[key]`, read as
    the dict's item; a key of another type than str, or a Bunch the cell hands to a function
    of the user's, is no claim."""
    from sklearn.utils import Bunch
    data = Bunch(data=np.ones((5, 3)), target=np.array([0, 1, 0, 1, 0]))
    holds("m = StandardScaler().fit(data.data[:, 0])\n", namespace(data=data, StandardScaler=StandardScaler),
          ValueError)
    runs_unclaimed("m = StandardScaler().fit(data.data[:, :1])\n",
                   namespace(data=data, StandardScaler=StandardScaler))
    odd = Bunch(data=np.ones((5, 3)))
    odd[1] = "one"
    assert value_facts("m = StandardScaler().fit(odd.data[:, 0])\n",
                       namespace(odd=odd, StandardScaler=StandardScaler)) == []
    ns = namespace(data=data, StandardScaler=StandardScaler, grow=lambda b: b.data.resize((5, 3, 1), refcheck=False))
    assert value_facts("grow(data)\nm = data.data.sum(axis=2)\n", ns) == []


def test_an_estimator_made_with_arguments_not_known_takes_its_classs_x():
    """`SVC(**params)`: the class's tags (a default instance) say 2-D X, whatever the
    parameters; a meta-estimator (parameters that hold estimators) or a class whose tags
    read its parameters' values is no claim."""
    from sklearn.ensemble import BaggingClassifier
    from sklearn.svm import SVC
    ns = namespace(SVC=SVC, BaggingClassifier=BaggingClassifier, params={"C": 0.5}, X=np.ones((6, 2)),
                   y=np.array([0, 1] * 3))
    holds("svm = SVC(**params)\nsvm.fit(X[:, 0], y)\n", ns, ValueError)
    runs_unclaimed("svm = SVC(**params)\nsvm.fit(X, y)\n", ns)
    assert value_facts("bag = BaggingClassifier(**params)\nbag.fit(X[:, 0], y)\n", ns) == []


def test_the_parts_train_test_split_makes_are_new_arrays():
    """A function of the user's given a part of train_test_split may change that part, never the
    arrays it was split from (its parts index them by position: copies)."""
    from sklearn.model_selection import train_test_split
    ns = namespace(train_test_split=train_test_split, model=LinearRegression(), X=np.ones((8, 2)),
                   y=np.arange(8.0), shrink=lambda a: a.resize((a.size,), refcheck=False))
    holds("X_tr, X_te = train_test_split(X, random_state=0)\nshrink(X_tr)\nmodel.fit(X[:, 0], y)\n", ns, ValueError)
    assert value_facts("X_tr, X_te = train_test_split(X, random_state=0)\nshrink(X_tr)\nX_tr.sum(axis=1)\n", ns) == []
    holder = [np.ones((8, 2))]
    assert value_facts("a, b = train_test_split(holder[0], [1] * 8)\nshrink(a)\n", namespace(holder=holder, **{
        k: ns[k] for k in ("train_test_split", "shrink")})) == []


class _Recorded(np.ndarray):
    """An array subclass of the user's: reading its values would run its hooks."""

    def __array_finalize__(self, obj):
        _RAN.append("__array_finalize__")


_RAN: list[str] = []


@pytest.mark.parametrize("metric", __import__(
    "jupyter_codecheck.facts.metrics", fromlist=["CLASSIFICATION_METRICS"]).CLASSIFICATION_METRICS)
def test_a_classification_metric_given_a_continuous_target_is_a_valueerror(metric):
    import sklearn.metrics
    ns = namespace(metric=getattr(sklearn.metrics, metric), y=pd.Series([0, 1, 1, 0]), labels=[0, 1, 1, 0],
                   probs=np.array([0.2, 0.9, 0.7, 0.1]), preds=np.array([0, 1, 1, 1]), short=np.array([0.5, 0.2]))
    holds("s = metric(y, probs)\n", ns, ValueError)
    holds("s = metric(probs, labels)\n", ns, ValueError)
    holds("s = metric(y, short)\n", ns, ValueError)          # another length: a ValueError first
    runs_unclaimed("s = metric(y, preds)\n", ns)
    runs_unclaimed("s = metric(labels, (probs > 0.5).astype(int))\n", ns)


def _metrics_of_two_targets():
    import inspect

    import sklearn.metrics
    from jupyter_codecheck.facts.metrics import _TARGETS
    for name in sorted(sklearn.metrics.__all__):
        f = getattr(sklearn.metrics, name)
        if inspect.isfunction(f) and tuple(inspect.signature(f).parameters)[:2] in _TARGETS:
            yield name, f


@pytest.mark.parametrize("targets", [(np.array([0, 1] * 10), np.array([1, 0, 1] * 5)),
                                     (np.linspace(0.1, 0.9, 20), np.linspace(0.2, 0.8, 15)),
                                     (pd.Series([0, 1, 2, 1] * 5), [0, 1, 2] * 5)], ids=["labels", "numbers", "series"])
def test_every_metric_given_targets_of_different_lengths_refuses_them(targets):
    """A metric of scikit-learn's given targets of 20 and 15 samples: where the fact is claimed
    (the metric checks the lengths first, asked of the installed library), it raises ValueError;
    the same targets cut to one length get no lengths claim."""
    import warnings
    y_true, y_short = targets
    claimed = 0
    for name, metric in _metrics_of_two_targets():
        ns = namespace(metric=metric, y_true=y_true, y_short=y_short, y_cut=y_true[:15])
        facts = [f for f in value_facts("s = metric(y_true, y_short)\n", ns) if "inconsistent numbers" in f.message]
        assert not [f for f in value_facts("s = metric(y_true[:15], y_short)\ns = metric(y_cut, y_short)\n", ns)
                    if "inconsistent numbers" in f.message], name
        if not facts:
            continue
        claimed += 1
        with warnings.catch_warnings(), pytest.raises(ValueError):
            warnings.simplefilter("ignore")
            metric(y_true, y_short)
    assert claimed > 30


def test_a_metric_of_predictions_on_other_rows_than_its_targets():
    """`model.predict(X_train)` holds X_train's rows (scikit-learn's documented shape, whatever
    the fit's targets): scored against y_test, the metric refuses the lengths."""
    from sklearn.metrics import accuracy_score, mean_squared_error
    rng = np.random.RandomState(0)
    X_train, X_test, y_train, y_test = rng.rand(40, 3), rng.rand(10, 3), rng.randint(0, 2, 40), rng.randint(0, 2, 10)
    ns = namespace(model=LogisticRegression().fit(X_train, y_train), X_train=X_train, X_test=X_test, y_test=y_test,
                   accuracy_score=accuracy_score, mean_squared_error=mean_squared_error, LinearRegression=LinearRegression,
                   y_train=y_train)
    assert "y_pred=preds has 40 samples" in holds("preds = model.predict(X_train)\ns = accuracy_score(y_test, preds)\n",
                                                  ns, ValueError).message
    holds("s = mean_squared_error(y_test, LinearRegression().fit(X_train, y_train).predict(X_train))\n", ns, ValueError)
    runs_unclaimed("preds = model.predict(X_test)\ns = accuracy_score(y_test, preds)\n"
                   "p = model.predict_proba(X_test)[:, 1]\nr = mean_squared_error(y_test, p)\n", ns)


SIZED = ["PCA(n_components={k})", "PCA(n_components={k}, svd_solver='arpack')",
         "PCA(n_components={k}, svd_solver='randomized')", "TruncatedSVD(n_components={k})",
         "TruncatedSVD(n_components={k}, algorithm='arpack')", "KMeans(n_clusters={k}, n_init=1)",
         "MiniBatchKMeans(n_clusters={k}, n_init=1)"]


def _size_refusal(cell: str, ns: dict, name: str, made: str) -> tuple[str | None, bool]:
    """Run the cell with `name` a new estimator `made`: the ValueError it raises (None: it ran),
    and whether that is the size parameter's."""
    import warnings
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(cell, dict(ns, **{name: eval(made, dict(ns))}))
    except ValueError as e:
        said = str(e)
        return said, any(w in said for w in ("n_components", "n_clusters", "`k`"))
    return None, False


def test_a_size_parameter_beyond_what_x_holds_against_scikit_learn():
    """PCA's and TruncatedSVD's n_components and the k-means' n_clusters against X's shape, over
    random shapes, solvers and sizes: wherever the fit refuses that parameter (ValueError naming
    it) a claim, and every claim a fit that raises ValueError; made in the cell or live."""
    from sklearn.cluster import KMeans, MiniBatchKMeans
    from sklearn.decomposition import PCA, TruncatedSVD
    rnd, rng = random.Random(5), np.random.RandomState(5)
    claimed = 0
    for _ in range(120):
        n, p, k = rnd.randint(1, 6), rnd.randint(1, 6), rnd.randint(1, 8)
        made = rnd.choice(SIZED).format(k=k)
        ns = namespace(X=rng.rand(n, p) + 1.0, PCA=PCA, TruncatedSVD=TruncatedSVD, KMeans=KMeans,
                       MiniBatchKMeans=MiniBatchKMeans)
        ns["est"] = eval(made, dict(ns))
        for cell in (f"m = {made}.fit(X)\n", "t = est.fit_transform(X)\n" if "KMeans" not in made else
                     "t = est.fit_predict(X)\n"):
            facts = value_facts(cell, ns)
            # claimed: the fit raises ValueError (a check of X's own may come first); refused for
            # that parameter: claimed
            said, refused = _size_refusal(cell, ns, "est", made)
            assert (said is not None if facts else not refused), (cell, n, p, said, facts)
            claimed += bool(facts)
    assert claimed > 40


def test_a_size_parameter_of_a_pipelines_step_after_its_scalers_against_scikit_learn():
    """The same bound on a Pipeline's step X reaches through scalers alone (they keep its shape),
    the Pipeline and its steps made in the cell: a claim wherever the fit refuses that parameter,
    every claim a fit that raises ValueError; a step that changes X's shape before it
    (PolynomialFeatures) leaves the bound unread; a live Pipeline is not read (its step may be
    changed through another name: `pca.n_components = 2`)."""
    from sklearn.cluster import KMeans, MiniBatchKMeans
    from sklearn.decomposition import PCA, TruncatedSVD
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import MaxAbsScaler, MinMaxScaler, PolynomialFeatures, RobustScaler, StandardScaler
    rnd, rng = random.Random(7), np.random.RandomState(7)
    claimed = 0
    for _ in range(80):
        n, p, k = rnd.randint(2, 6), rnd.randint(1, 4), rnd.randint(1, 8)
        before = rnd.sample(["StandardScaler()", "MinMaxScaler()", "RobustScaler()", "MaxAbsScaler()",
                             "PolynomialFeatures(2)"], rnd.randint(0, 2))
        made = f"make_pipeline({', '.join(before + [rnd.choice(SIZED).format(k=k)])})"
        ns = namespace(X=rng.rand(n, p) + 1.0, PCA=PCA, TruncatedSVD=TruncatedSVD, KMeans=KMeans,
                       MiniBatchKMeans=MiniBatchKMeans, make_pipeline=make_pipeline, MaxAbsScaler=MaxAbsScaler,
                       RobustScaler=RobustScaler, PolynomialFeatures=PolynomialFeatures, MinMaxScaler=MinMaxScaler,
                       StandardScaler=StandardScaler)
        ns["pipe"] = eval(made, dict(ns))
        for cell in (f"m = {made}.fit(X)\n", "t = pipe.fit_transform(X)\n"):
            facts = value_facts(cell, ns)
            said, refused = _size_refusal(cell, ns, "pipe", made)
            if cell.startswith("t = pipe"):     # a live Pipeline: a step may be changed by another name
                assert facts == [], (cell, made)
                continue
            assert (said is not None if facts else not refused or "PolynomialFeatures" in made), (cell, made, n, p, said)
            claimed += bool(facts)
    assert claimed > 10


@pytest.mark.parametrize("make", ["LabelEncoder", "OneHotEncoder", "OrdinalEncoder"])
def test_an_encoder_given_a_label_it_was_not_fitted_on(make):
    """The fitted encoder's own transform, on the first rows, finds the unknown label: claimed,
    and the cell raises ValueError; labels it knows, or an encoder told to ignore unknown ones,
    run unclaimed; an unknown label past the rows read is no claim."""
    import sklearn.preprocessing

    from jupyter_codecheck.facts.encoders import SAMPLE_ROWS
    cls = getattr(sklearn.preprocessing, make)
    train = pd.DataFrame({"city": ["Oslo", "Lima", "Rome"]})
    test = pd.DataFrame({"city": ["Oslo", "Paris", "Rome"]})
    late = pd.DataFrame({"city": ["Oslo"] * SAMPLE_ROWS + ["Paris"]})
    one = make == "LabelEncoder"
    pick = "['city']" if one else "[['city']]"
    enc = cls().fit(train["city"] if one else train[["city"]])
    ns = namespace(enc=enc, train=train, test=test, late=late)
    f = holds(f"t = enc.transform(test{pick})\n", ns, ValueError)
    assert "Paris" in f.message
    runs_unclaimed(f"t = enc.transform(train{pick})\n", ns)
    assert value_facts(f"t = enc.transform(late{pick})\n", ns) == []
    with pytest.raises(ValueError):
        enc.transform(late["city"] if one else late[["city"]])
    if not one:
        ns["enc"] = cls(handle_unknown="ignore" if make == "OneHotEncoder" else "use_encoded_value",
                        **({} if make == "OneHotEncoder" else {"unknown_value": -1})).fit(train[["city"]])
        runs_unclaimed("t = enc.transform(test[['city']])\n", ns)
    else:
        holds("t = enc.transform(['Oslo', 'Bern'])\n", ns, ValueError)


@pytest.mark.parametrize("make", ["OneHotEncoder", "OrdinalEncoder"])
def test_a_2d_encoder_given_rows_written_in_the_call(make):
    """The 2-D encoders take X as rows: a list of rows written in the call is judged by the
    encoder's own transform as a live input is: an unknown label claimed and the cell raises,
    known labels and handle_unknown that takes them run unclaimed; a row holding anything but
    plain values is not read."""
    import sklearn.preprocessing
    cls = getattr(sklearn.preprocessing, make)
    train = pd.DataFrame({"city": ["Oslo", "Lima"], "kind": ["a", "b"]})
    ns = namespace(enc=cls().fit(train))
    f = holds("t = enc.transform([['Oslo', 'a'], ['NEAR_OCEAN', 'b']])\n", ns, ValueError)
    assert "NEAR_OCEAN" in f.message
    holds("t = enc.transform([('Lima', 'c')])\n", ns, ValueError)
    runs_unclaimed("t = enc.transform([['Oslo', 'a'], ['Lima', 'b']])\n", ns)
    ns["enc"] = cls(handle_unknown="ignore" if make == "OneHotEncoder" else "use_encoded_value",
                    **({} if make == "OneHotEncoder" else {"unknown_value": -1})).fit(train)
    runs_unclaimed("t = enc.transform([['Oslo', 'a'], ['NEAR_OCEAN', 'b']])\n", ns)
    ns["enc"] = cls().fit(train)
    assert value_facts("t = enc.transform([['Oslo', 'a'], ['Rome', ('b',)]])\n", ns) == []


def test_an_encoder_reads_no_users_label():
    from sklearn.preprocessing import LabelEncoder

    class City(str):
        def __eq__(self, other):
            _RAN.append("City.__eq__")
            return str.__eq__(self, other)

        __hash__ = str.__hash__

    _RAN.clear()
    ns = namespace(enc=LabelEncoder().fit(["Oslo", "Lima"]), test=pd.Series([City("Oslo"), City("Paris")], dtype=object))
    assert value_facts("t = enc.transform(test)\n", ns) == [] and _RAN == []


def test_no_metric_claim_on_the_users_array_or_where_a_target_is_no_sequence():
    from sklearn.metrics import accuracy_score
    users = np.array([0.2, 0.9]).view(_Recorded)
    ns = namespace(accuracy_score=accuracy_score, users=users, y=np.array([0, 1]), probs=np.array([0.2, 0.9]))
    holds("s = accuracy_score(y_pred=probs, y_true=y)\n", ns, ValueError)
    assert value_facts("s = accuracy_score(y1=y, y2=probs)\n", ns) == []     # a TypeError, not this rule's
    _RAN.clear()
    assert value_facts("s = accuracy_score(y, users)\n", ns) == []
    # not this rule's: scikit-learn's validate_params refuses None (InvalidParameterError, a ValueError)
    assert [f.message.endswith("(InvalidParameterError)") for f in value_facts("s = accuracy_score(None, probs)\n", ns)] \
        == [True]
    with pytest.raises(ValueError):
        exec("s = accuracy_score(None, probs)\n", dict(ns))
    assert _RAN == []


def test_a_3d_x_into_every_estimator_that_takes_2d_x_only():
    """check_array refuses more than two dimensions (allow_nd off) as it refuses one: every
    estimator the fact names for a 3-D array of numbers raises ValueError in fit; the same
    numbers reshaped to 2-D get no claim."""
    rng = np.random.RandomState(6)
    X3, y = rng.rand(12, 3, 2), np.array([0, 1] * 6)
    assert claims_held_by_every_estimator(X3, y, "takes 2-D X only: ValueError (Found array with dim 3)") > 100
    runs_unclaimed("m = LinearRegression().fit(X3.reshape(12, -1), y)\n",
                   namespace(LinearRegression=LinearRegression, X3=X3, y=y))


@pytest.mark.parametrize("cell, claimed", [
    ("q = np.quantile(x, 95)\n", True), ("q = np.nanquantile(x, [0.5, 1.5])\n", True),
    ("q = np.percentile(x, 150)\n", True), ("q = np.nanpercentile(x, -1)\n", True),
    ("p = 95\nq = np.quantile(x, p)\n", True),
    ("q = np.quantile(x, 0.95)\n", False), ("q = np.percentile(x, [5, 95])\n", False),
    ("q = np.quantile(z, 95)\n", TypeError),       # a complex array: numpy's TypeError first
])
def test_a_quantile_outside_its_range(cell, claimed):
    ns = namespace(x=np.arange(10.0), z=np.arange(10.0) * 1j)
    facts = value_facts(cell, ns)
    if claimed:
        holds(cell, ns, ValueError if claimed is True else claimed)
    else:
        assert facts == [], facts


def test_make_blobs_cluster_std_of_another_count_than_its_centers():
    """Random counts of centers (an int, or points written or made) and of stds: a claim exactly
    where scikit-learn's make_blobs raises ValueError, and that ValueError; n_samples given per
    center is not read."""
    import warnings

    from sklearn.datasets import make_blobs
    rnd = random.Random(8)
    claimed = 0
    for _ in range(60):
        k, s = rnd.randint(1, 4), rnd.randint(1, 4)
        points = [[rnd.random(), rnd.random()] for _ in range(k)]
        centers = rnd.choice([str(k), repr(points), "np.array(" + repr(points) + ")"])
        std = rnd.choice([repr([0.5] * s), "np.full(" + str(s) + ", 0.5)"])
        cell = f"c = {centers}\nsd = {std}\nX, y = make_blobs(n_samples=60, centers=c, cluster_std=sd, random_state=0)\n"
        ns = namespace(make_blobs=make_blobs)
        facts = value_facts(cell, ns)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec(cell, dict(ns))
            raised = False
        except ValueError:
            raised = True
        assert bool(facts) == raised == (k != s), (cell, facts)
        claimed += bool(facts)
    assert claimed > 20
    assert value_facts("X, y = make_blobs(n_samples=[20, 30], cluster_std=[0.5, 0.5, 0.5])\n",
                       namespace(make_blobs=make_blobs)) == []
