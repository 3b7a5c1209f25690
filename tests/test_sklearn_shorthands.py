"""scikit-learn's shorthands for its composites made in the cell (make_pipeline, make_union,
make_column_transformer): the Pipeline, FeatureUnion or ColumnTransformer they make, with the
steps named by scikit-learn's own rule, is read as the class written out would be; and
`set_params` with a name that is no parameter of the estimator's or of a step's (ValueError).
Every cell is also run: a claim is the exception scikit-learn raises on that line; the cells
claimed include an attribute typo on each composite and a step's name of each kind."""
from __future__ import annotations

import itertools
import traceback
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.compose import make_column_transformer
from sklearn.decomposition import PCA
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.pipeline import make_pipeline, make_union
from sklearn.preprocessing import OneHotEncoder, StandardScaler

from jupyter_codecheck.facts import kernel_facts

RNG = np.random.default_rng(0)
X = RNG.random((40, 3))
Y = np.array([0, 1] * 20)
FRAME = pd.DataFrame({"a": RNG.random(40), "b": ["x", "y", "z", "x"] * 10, "c": RNG.random(40)})

MADE = {
    "pipeline": "m = make_pipeline(StandardScaler(), LogisticRegression())",
    "repeated": "m = make_pipeline(StandardScaler(), StandardScaler(), LogisticRegression())",
    "keyword": "m = make_pipeline(PCA(2), LinearRegression(), memory=None)",
    "union": "m = make_union(PCA(1), StandardScaler())",
    "columns": "m = make_column_transformer((OneHotEncoder(), ['b']), (StandardScaler(), ['a', 'c']))",
    "remainder": "m = make_column_transformer((OneHotEncoder(), ['b']), remainder='passthrough')",
}
DATA = {"union": "X", "columns": "D", "remainder": "D"}
USES = [
    "m.fi({x}, y)", "m.fit({x}, y)", "m.fit({x}, y).fit_transfrom({x})", "s = m.named_steps['standardscaler']",
    "s = m.named_steps['standardscaler-2']", "s = m.named_steps['standarscaler']", "m.get_params()['pca']",
    "s = m.named_transformers_['onehotencoder']", "m.set_params(pca__n_components=1)",
    "m.set_params(logisticregression__C=2.0)", "m.fit({x}, y)\nm.steps[-1]", "m.fit_transform({x})",
    "m.set_params(standardscaler__with_mean=False)", "m.set_params(pcaa__n_components=1)",
    "m.set_params(verbose=True)", "m.set_params(verbse=True)",
]


def _run(cell: str, ns: dict):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(cell, "<cell>", "exec"), dict(ns))
    except Exception as e:  # noqa: BLE001 - whatever scikit-learn raises is compared
        return type(e), [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.filename == "<cell>"][-1]
    return None


def _namespace() -> dict:
    return dict(make_pipeline=make_pipeline, make_union=make_union, make_column_transformer=make_column_transformer,
                StandardScaler=StandardScaler, LogisticRegression=LogisticRegression, PCA=PCA,
                LinearRegression=LinearRegression, OneHotEncoder=OneHotEncoder, X=X, y=Y, D=FRAME, np=np)


EXCEPTIONS = {"attribute": AttributeError, "key": KeyError}


def _claimed(fact) -> type:
    if fact.kind in EXCEPTIONS:
        return EXCEPTIONS[fact.kind]
    return getattr(__builtins__ if isinstance(__builtins__, dict) else __builtins__.__dict__, "get", dict.get)(
        fact.message.rsplit(": ", 1)[-1].split(" ")[0], None) or Exception


def test_each_claim_on_a_shorthands_composite_is_what_scikit_learn_raises():
    ns = _namespace()
    claimed = set()
    for (kind, made), use in itertools.product(MADE.items(), USES):
        cell = made + "\n" + use.format(x=DATA.get(kind, "X")) + "\n"
        facts = kernel_facts(cell, ns)
        raised = _run(cell, ns)
        if not facts:
            continue
        assert raised is not None, (cell, facts[0].message)
        error, line = raised
        assert line == facts[0].line and issubclass(error, Exception), (cell, facts[0].message, raised)
        if facts[0].kind in EXCEPTIONS:
            assert issubclass(error, EXCEPTIONS[facts[0].kind]), (cell, facts[0].message, error)
        claimed.add((kind, use))
    # the composite's class is known: its attributes and its steps' names are scikit-learn's
    for kind in MADE:
        assert (kind, "m.fi({x}, y)") in claimed, kind
        assert (kind, "m.set_params(pcaa__n_components=1)") in claimed, kind
    # the steps' names: numbered where two are alike (-1 and -2), none of another composite's
    assert ("repeated", "m.set_params(standardscaler__with_mean=False)") in claimed
    assert ("keyword", "m.set_params(standardscaler__with_mean=False)") in claimed
    assert ("pipeline", "m.set_params(verbse=True)") in claimed
    assert not {(k, "m.set_params(verbose=True)") for k in MADE} & claimed


def test_set_params_on_an_estimator_the_cell_makes():
    ns = _namespace()
    cell = "m = LogisticRegression(C=2.0)\nm.set_params(c=1.0)\n"
    facts = kernel_facts(cell, ns)
    assert [(f.line, "Invalid parameter 'c'" in f.message) for f in facts] == [(2, True)]
    assert _run(cell, ns) == (ValueError, 2)
    assert kernel_facts(cell.replace("c=", "C="), ns) == [] and _run(cell.replace("c=", "C="), ns) is None


@pytest.mark.parametrize("cell", [
    # steps the cell cannot tell, or a keyword the class does not take: the shorthand is not read
    "m = make_pipeline(*steps)\nm.fi(X, y)\n",
    "m = make_pipeline(StandardScaler(), LogisticRegression(), nonsense=1)\nm.fi(X, y)\n",
    # a step of the user's class: the Pipeline is one, but its parameters are the user's to answer
    "m = make_pipeline(Mine(), LogisticRegression())\nm.set_params(mine__anything=1)\n",
])
def test_no_claim_where_the_composite_is_not_known(cell):
    class Mine(StandardScaler):
        def set_params(self, **params):
            return self
    ns = _namespace() | {"Mine": Mine, "steps": [StandardScaler()]}
    assert [f for f in kernel_facts(cell, ns) if f.line == 2] == []


@pytest.mark.parametrize("cell", [
    "m = make_pipeline(StandardScaler(), **options)\nm.fi(X, y)\n",
    "m = make_union(*parts)\nm.fi(X, y)\n",          # parts is no iterable
])
def test_a_shorthand_that_may_refuse_its_arguments_is_not_read(cell):
    """`**options` or `*parts` the signature may refuse: the call raises first, line 1 (TypeError)."""
    ns = _namespace() | {"options": {"nonsense": 1}, "parts": 5}
    assert [f for f in kernel_facts(cell, ns) if f.line == 2] == []
    assert _run(cell, ns) == (TypeError, 1)


def test_reading_set_params_changes_no_estimator_of_the_kernel():
    """A composite holding the kernel's own estimators is not asked (set_params would store into
    them): the facts leave every live estimator as it was, and claim nothing there."""
    from sklearn.model_selection import GridSearchCV
    from sklearn.svm import SVC
    scaler, svc = StandardScaler(), SVC()
    ns = _namespace() | {"sc": scaler, "svc": svc, "SVC": SVC, "GridSearchCV": GridSearchCV}
    for cell in ("p = make_pipeline(sc, SVC())\np.set_params(standardscaler__with_mean=False)\n",
                 "p = make_pipeline(sc, SVC())\np.set_params(standardscalr__with_mean=False)\n",
                 "g = GridSearchCV(svc, {'C': [1, 10]})\ng.set_params(estimator__C=5)\n"):
        assert kernel_facts(cell, ns) == [], cell
    assert scaler.get_params() == StandardScaler().get_params() and svc.get_params() == SVC().get_params()
