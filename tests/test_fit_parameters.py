"""Parameters a scikit-learn estimator's fit rejects before it reads the data
(facts/parameters.py), of an estimator the cell makes with literal arguments. Each claim is
held against scikit-learn: the cell runs on real data and raises the exception the fact names on
its line; the same cell with parameters scikit-learn takes runs and gets no claim."""
from __future__ import annotations

import traceback
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from jupyter_codecheck.facts import kernel_facts

RAN: list[str] = []


class UserScaler(TransformerMixin, BaseEstimator):
    def __init__(self, k=1):
        RAN.append("UserScaler.__init__")
        self.k = k

    def fit(self, X, y=None):
        RAN.append("UserScaler.fit")
        raise ValueError("the user's own rule")


def namespace() -> dict:
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(20, 3)), columns=["a", "b", "c"])
    return {"X": X, "y": pd.Series([0, 1] * 10), "c": -1.0, "LogisticRegression": LogisticRegression, "SVC": SVC,
            "RandomForestClassifier": RandomForestClassifier, "Pipeline": Pipeline,
            "StandardScaler": StandardScaler, "UserScaler": UserScaler}


def run(cell: str) -> tuple[str, int] | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(cell, "<cell>", "exec"), namespace())
    except Exception as e:  # noqa: BLE001 - whatever scikit-learn raises is compared
        return type(e).__name__, [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.filename == "<cell>"][-1]
    return None


@pytest.mark.parametrize("cell, fitting", [
    ("model = LogisticRegression(max_iter=1000, solver='liblinear', penalty='elasticnet')\nmodel.fit(X, y)\n",
     "model = LogisticRegression(max_iter=1000, solver='liblinear', penalty='l1')\nmodel.fit(X, y)\n"),
    ("forest = RandomForestClassifier(n_estimators=0)\nforest.fit(X, y)\n",
     "forest = RandomForestClassifier(n_estimators=5)\nforest.fit(X, y)\n"),
    ("pred = SVC(kernel='rbff').fit(X, y).predict(X)\n", "pred = SVC(kernel='rbf').fit(X, y).predict(X)\n"),
    ("clf = SVC(C=1.0, gamma='autoo')\nclf.fit(X, y)\n", "clf = SVC(C=1.0, gamma='auto')\nclf.fit(X, y)\n"),
    ("m = LogisticRegression(C=c)\nm.fit(X, y)\n", "m = LogisticRegression(C=-c)\nm.fit(X, y)\n"),   # c: live
    # a later step's, at its own fit inside the pipeline's
    ("p = Pipeline([('s', StandardScaler()), ('m', LogisticRegression(C=-1.0))])\np.fit(X, y)\n",
     "p = Pipeline([('s', StandardScaler()), ('m', LogisticRegression(C=1.0))])\np.fit(X, y)\n"),
])
def test_parameters_scikit_learns_fit_rejects_before_the_data(cell, fitting):
    facts = [f for f in kernel_facts(cell, namespace()) if f.kind == "value"]
    assert len(facts) == 1, (cell, facts)
    assert run(cell) == (facts[0].message.rpartition(": ")[2], facts[0].line), (cell, facts[0].message, run(cell))
    assert "parameters" in facts[0].message
    assert [f for f in kernel_facts(fitting, namespace()) if f.kind == "value"] == [], fitting
    assert run(fitting) is None, fitting


def test_a_later_steps_parameters_are_a_crash_whatever_x_is():
    """An earlier step may refuse X before the refused step's fit: the pipeline's fit raises
    either way, a ValueError (the claim says which step, and that the steps before it run first)."""
    cell = "p = Pipeline([('s', StandardScaler()), ('m', LogisticRegression(C=-1.0))])\np.fit(X_text, y)\n"
    objects = {**namespace(), "X_text": np.array([["a", "b"]] * 20)}
    (fact,) = [f for f in kernel_facts(cell, objects) if f.kind == "value"]
    assert "step 'm', after the steps before it" in fact.message
    with pytest.raises(ValueError, match="could not convert string"):
        exec(compile(cell, "<cell>", "exec"), objects)


def test_no_claim_where_the_data_decides_or_the_users_code_is_in_it():
    RAN.clear()
    for cell in [
        "m = LogisticRegression(C=float(text))\nm.fit(X, y)\n",          # not a literal
        "m = LogisticRegression(C=-1.0)\nm.set_params(C=1.0)\nm.fit(X, y)\n",    # changed before the fit
        "p = Pipeline([('u', UserScaler(k=0)), ('m', LogisticRegression(C=-1.0))])\np.fit(X, y)\n",
        "m = LogisticRegression(C=-1.0)\ntry:\n    m.fit(X, y)\nexcept ValueError:\n    pass\n",
    ]:
        assert [f for f in kernel_facts(cell, {**namespace(), "text": "-1"}) if f.kind == "value"] == [], cell
    assert RAN == []
    # a bound that needs X's width is no parameter rule's: the live X's shape decides it (estimators.size_problem)
    pca = "from sklearn.decomposition import PCA\np = PCA(n_components=50)\np.fit(X)\n"
    (fact,) = [f for f in kernel_facts(pca, namespace()) if f.kind == "value"]
    assert "parameters" not in fact.message and "for X of shape" in fact.message
    assert run(pca) == ("ValueError", 3)
    # beside them, the same estimator made with the literal is claimed
    assert len(kernel_facts("m = LogisticRegression(C=-1.0)\nm.fit(X, y)\n", namespace())) == 1


# -- a scikit-learn function's literal arguments, refused by its own validate_params ----------------

def _function_namespace() -> dict:
    import sklearn.metrics
    import sklearn.model_selection
    rng = np.random.default_rng(1)
    X, y = rng.normal(size=(30, 3)), rng.normal(size=30)
    return {"np": np, "X": X, "y": y, "labels": (y > 0).astype(int), "model": LogisticRegression(),
            "cross_val_score": sklearn.model_selection.cross_val_score,
            "train_test_split": sklearn.model_selection.train_test_split,
            "mean_squared_error": sklearn.metrics.mean_squared_error,
            "accuracy_score": sklearn.metrics.accuracy_score, "f1_score": sklearn.metrics.f1_score,
            "pairwise_distances": sklearn.metrics.pairwise_distances}


@pytest.mark.parametrize("wrong,right,near", [
    ('s = cross_val_score(model, X, labels, scoring="acuracy", cv=3)', 's = cross_val_score(model, X, labels, scoring="accuracy", cv=3)', '"accuracy"'),
    ("a = train_test_split(X, y, test_size=1.5)", "a = train_test_split(X, y, test_size=0.25)", None),
    ("e = mean_squared_error(y, y, multioutput='raw_value')", "e = mean_squared_error(y, y, multioutput='raw_values')", "'raw_values'"),
    ("e = accuracy_score(labels, labels, normalize='yes')", "e = accuracy_score(labels, labels, normalize=False)", None),
    ("e = f1_score(labels, labels, average='macros')", "e = f1_score(labels, labels, average='macro')", "'macro'"),
    ("d = pairwise_distances(X, None, 'euclidian')", "d = pairwise_distances(X, None, 'euclidean')", "'euclidean'"),
])
def test_a_literal_a_functions_validate_params_refuses(wrong, right, near):
    """Claimed where scikit-learn's own wrapper refuses the literal, and the cell raises its
    InvalidParameterError (a ValueError) on that line; a stop under the guard; the nearest options
    of a misspelt text are the fixes; the literal it takes runs and gets no claim."""
    from sklearn.utils._param_validation import InvalidParameterError

    from jupyter_codecheck.core.exact_findings import exact_check
    ns = _function_namespace()
    facts = [f for f in kernel_facts(wrong + "\n", ns) if f.kind == "value"]
    assert len(facts) == 1 and facts[0].message.endswith("ValueError (InvalidParameterError)"), facts
    assert (near in facts[0].candidates) if near else facts[0].candidates == []
    with pytest.raises(InvalidParameterError):
        exec(wrong, dict(ns))
    assert len(exact_check(wrong + "\n", ns).certain) == 1
    assert [f for f in kernel_facts(right + "\n", ns) if f.kind == "value"] == []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(right, dict(ns))


def test_no_constraint_claim_off_scikit_learns_own_validation():
    """No claim where scikit-learn would not validate: its config skips validation; the function
    is the user's (whatever constraints it carries); the argument is no literal."""
    import sklearn
    ns = _function_namespace()
    cell = 's = cross_val_score(model, X, labels, scoring="acuracy", cv=3)\n'
    with sklearn.config_context(skip_parameter_validation=True):
        assert [f for f in kernel_facts(cell, ns) if f.kind == "value"] == []

    def users(model, X, y, scoring=None, cv=None):
        return RAN.append("users")
    users._skl_parameter_constraints = ns["cross_val_score"]._skl_parameter_constraints
    RAN.clear()
    assert [f for f in kernel_facts(cell, dict(ns, cross_val_score=users)) if f.kind == "value"] == [] and RAN == []
    assert [f for f in kernel_facts("s = cross_val_score(model, X, labels, scoring=name, cv=3)\n",
                                    dict(ns, name="acuracy")) if f.kind == "value"] == []


# -- set_params on a live estimator: read on a copy, the user's left as it is ------------------------

def _live_estimators() -> dict:
    from sklearn.linear_model import ElasticNet, LassoLarsIC
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import FunctionTransformer
    ns = namespace()
    ns.update(enet=ElasticNet(alpha=0.5).fit(ns["X"], ns["y"]),
              lasso=make_pipeline(StandardScaler(), LassoLarsIC(criterion="aic")).fit(ns["X"], ns["y"]),
              users=Pipeline([("u", UserScaler()), ("m", LogisticRegression())]),
              held=make_pipeline(FunctionTransformer(func=UserScaler()), LogisticRegression()))
    return ns


def _run_in(cell: str, ns: dict) -> tuple[str, int] | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(cell, "<cell>", "exec"), ns)
    except Exception as e:  # noqa: BLE001 - whatever scikit-learn raises is compared
        return type(e).__name__, [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.filename == "<cell>"][-1]
    return None


@pytest.mark.parametrize("cell, valid", [
    ("enet.set_params(alha=0.1).fit(X, y)\n", "enet.set_params(alpha=0.1).fit(X, y)\n"),
    ("lasso.set_params(lassolarsic_c_riterion='bic').fit(X, y)\n",
     "lasso.set_params(lassolarsic__criterion='bic').fit(X, y)\n"),
    ("lasso.set_params(lassolarsic__criterio='bic')\n", "lasso.set_params(lassolarsic__criterion='bic')\n"),
    ("lasso.set_params(standardscaler__with_mean=False, lassolarsic__c='bic')\n",
     "lasso.set_params(standardscaler__with_mean=False, lassolarsic__criterion='bic')\n"),
])
def test_a_name_set_params_finds_nowhere_on_a_live_estimator(cell, valid):
    ns = _live_estimators()
    before = {k: repr(ns[k].get_params()) for k in ("enet", "lasso")}
    facts = [f for f in kernel_facts(cell, ns) if f.kind == "value"]
    assert len(facts) == 1 and "Invalid parameter" in facts[0].message, (cell, facts)
    assert {k: repr(ns[k].get_params()) for k in ("enet", "lasso")} == before     # the user's left as they were
    assert _run_in(cell, dict(ns)) == ("ValueError", 1)
    ns = _live_estimators()
    assert [f for f in kernel_facts(valid, ns) if f.kind == "value"] == [], valid
    assert _run_in(valid, ns) is None, valid


def test_no_set_params_claim_where_the_users_code_is_in_the_estimator_or_the_cell_changed_it():
    ns = _live_estimators()
    RAN.clear()
    for cell in ["users.set_params(u__kk=1)\n",                     # a step of the user's
                 "held.set_params(functiontransformer__fnc=None)\n",   # a value of the user's a copy would copy
                 "lasso.steps.append(('svc', SVC()))\nlasso.set_params(svc__C=1.0)\n"]:
        assert [f for f in kernel_facts(cell, ns) if f.kind == "value"] == [], cell
    assert RAN == []
    assert _run_in("lasso.steps.append(('svc', SVC()))\nlasso.set_params(svc__C=1.0)\n", dict(ns)) is None


class _Copied:
    """A value whose deep copy is the user's code."""
    def __deepcopy__(self, memo):
        RAN.append("_Copied.__deepcopy__")
        return self


def _user_hooked_estimators() -> dict:
    """Live estimators whose own dicts, or whose parameter values, hold the user's code that
    `clone` or `set_params` would run on them: no copy is made, nothing is claimed."""
    from sklearn.linear_model import ElasticNet, LassoLarsIC
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import FunctionTransformer
    ns = namespace()
    own_set = ElasticNet()
    own_set.set_params = lambda **k: own_set                      # the instance's set_params runs, takes anything
    nested = make_pipeline(StandardScaler(), LassoLarsIC())
    nested.steps[1][1].set_params = lambda **k: None              # a step's own, reached by `lassolarsic__...`
    own_get = ElasticNet()

    def get_params(deep=True):
        RAN.append("get_params")
        return {"alpha": 1.0}
    own_get.get_params = get_params

    def double(x):
        return 2 * x
    double.__sklearn_clone__ = lambda: RAN.append("__sklearn_clone__") or double
    ns.update(own_set=own_set, nested=nested, own_get=own_get,
              hooked=make_pipeline(FunctionTransformer(func=double), LogisticRegression()),
              structured=ElasticNet(alpha=np.array([(_Copied(),)], dtype=[("a", "O")])),
              void=ElasticNet(alpha=np.array([(_Copied(),)], dtype=[("a", "O")])[0]))
    return ns


@pytest.mark.parametrize("cell", [
    "own_set.set_params(alha=0.1)\n", "nested.set_params(lassolarsic__alha=0.1)\n",
    "own_get.set_params(alha=0.1)\n", "hooked.set_params(functiontransformer__fnc=None)\n",
    "structured.set_params(alha=0.1)\n", "void.set_params(alha=0.1)\n",
])
def test_no_set_params_claim_where_the_estimator_or_a_value_it_holds_has_the_users_hooks(cell):
    ns = _user_hooked_estimators()
    RAN.clear()
    assert [f for f in kernel_facts(cell, ns) if f.kind == "value"] == [], cell
    assert RAN == []
    if cell.startswith(("own_set", "nested")):
        assert _run_in(cell, ns) is None            # the instance's own set_params takes the name


def test_no_set_params_claim_where_the_user_set_a_method_on_scikit_learns_class(monkeypatch):
    from sklearn.linear_model import ElasticNet
    monkeypatch.setattr(ElasticNet, "set_params", lambda self, **k: RAN.append("ElasticNet.set_params") or self)
    ns = dict(namespace(), enet=ElasticNet())
    RAN.clear()
    assert [f for f in kernel_facts("enet.set_params(alha=0.1)\n", ns) if f.kind == "value"] == []
    assert RAN == []
    assert _run_in("enet.set_params(alha=0.1)\n", ns) is None


def test_no_set_params_claim_where_the_cell_may_have_changed_the_estimator_through_what_it_holds():
    """`steps = pipe.steps` in an earlier cell: the cell's `steps.append(...)`, a function of the
    user's that appends to it, or an earlier part of the same line, adds the step set_params names."""
    from sklearn.pipeline import make_pipeline
    ns = namespace()
    ns["pipe"] = make_pipeline(StandardScaler(), SVC())
    ns["steps"] = ns["pipe"].steps
    exec("def add_lr():\n    steps.append(('lr', LogisticRegression()))\n", ns)
    for cell in ["steps.append(('lr', LogisticRegression()))\npipe.set_params(lr__C=2)\n",
                 "add_lr()\npipe.set_params(lr__C=2)\n",
                 "pipe.set_params(lr__C=2) if steps.append(('lr', LogisticRegression())) is None else 0\n"]:
        run_ns = dict(ns)
        run_ns["pipe"] = make_pipeline(StandardScaler(), SVC())
        run_ns["steps"] = run_ns["pipe"].steps
        exec("def add_lr():\n    steps.append(('lr', LogisticRegression()))\n", run_ns)
        assert [f for f in kernel_facts(cell, ns) if f.kind == "value"] == [], cell
        assert _run_in(cell, run_ns) is None, cell
    assert [f.line for f in kernel_facts("steps.append(('lr', LogisticRegression()))\npipe.set_params(svc__gama=2)\n",
                                         ns) if f.kind == "value"] == []        # changed: not read at all
    assert [f.line for f in kernel_facts("x = steps[0]\npipe.set_params(svc__gama=2)\n", ns)
            if f.kind == "value"] == [2]                                        # only read: still claimed


def _estimators_to_fit() -> dict:
    """Live estimators, one made with a parameter its fit refuses (in an earlier cell), one held
    by a pipeline, and a function of the user's that sets a parameter."""
    from sklearn.ensemble import VotingClassifier
    from sklearn.pipeline import make_pipeline
    ns = namespace()
    lr = LogisticRegression()
    ns.update(svc=SVC(C=-1), lr=lr, pipe=make_pipeline(StandardScaler(), lr), ss=StandardScaler(with_mean="no"),
              voting=VotingClassifier([("lr", LogisticRegression()), ("svc", SVC())]))
    exec("def fix(m):\n    m.penalty = 'l2'\n", ns)
    return ns


@pytest.mark.parametrize("cell, line", [
    ("svc.fit(X, y)\n", 1),                                          # made so in an earlier cell
    ('lr.penalty = "l3"\nlr.fit(X, y)\n', 2),                        # stored by the cell
    ('voting.voting = "sotf"\nvoting.fit(X, y)\n', 2),
    ('lr.C = 0.5\nlr.penalty = "l3"\nlr.fit(X, y)\n', 3),
    ('m = lr\nm.solver = "sag"\nm.penalty = "l1"\nlr.fit(X, y)\n', 4),   # through another name: one object
    ('svc.C = 2.0\nsvc.kernel = "rfb"\nsvc.fit(X, y)\n', 3),
])
def test_a_live_estimators_parameters_its_fit_refuses(cell, line):
    facts = [f for f in kernel_facts(cell, _estimators_to_fit()) if f.kind == "value"]
    assert [f.line for f in facts] == [line] and "parameters" in facts[0].message, (cell, facts)
    ns = _estimators_to_fit()
    before = {k: repr(ns[k].get_params()) for k in ("svc", "lr", "voting")}
    kernel_facts(cell, ns)
    assert {k: repr(ns[k].get_params()) for k in ("svc", "lr", "voting")} == before    # read on a copy
    raised = _run_in(cell, ns)
    assert raised == (raised[0], line) and facts[0].message.endswith(raised[0]), (raised, facts[0].message)


@pytest.mark.parametrize("cell", [
    'svc.C = 1.0\nsvc.fit(X, y)\n',                                  # the cell mends it
    'lr.penalty = "l3"\nlr.penalty = "l2"\nlr.fit(X, y)\n',          # the last store is the one read
    'lr.penalty = "l3"\nif len(X):\n    lr.penalty = "l2"\nlr.fit(X, y)\n',     # may be mended: not read
    'lr.penalty = "l3"\nfix(lr)\nlr.fit(X, y)\n',                    # the user's code mends it
    'lr.penalty = "l3"\nlr.set_params(penalty="l2")\nlr.fit(X, y)\n',
    'lr.penalty = "l3"\npipe.set_params(logisticregression__penalty="l2")\nlr.fit(X, y)\n',
    'svc.C += 2\nsvc.fit(X, y)\n',
    'voting.voting = "soft"\nvoting.fit(X, y)\n',
    'lr.C = -1\nlist(map(setattr, [lr], ["C"], [1.0]))\nlr.fit(X, y)\n',   # set again by name
    'import sklearn\nwith sklearn.config_context(skip_parameter_validation=True):\n    ss.fit(X, y)\n',
])
def test_no_live_fit_claim_where_the_cell_may_mend_the_parameters_or_they_hold(cell):
    assert [f for f in kernel_facts(cell, _estimators_to_fit()) if f.kind == "value"] == [], cell
    assert _run_in(cell, _estimators_to_fit()) is None, cell
