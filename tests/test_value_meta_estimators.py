"""A 1-D X through scikit-learn's meta-estimators and model-selection helpers: a Pipeline's
first step, a GridSearchCV's or RandomizedSearchCV's estimator (every fit fails: ValueError),
cross_val_score / cross_validate / cross_val_predict, and the meta-estimators that hand X on to
the estimators they hold (CalibratedClassifierCV, OneVsRestClassifier, SelectFromModel,
VotingClassifier, ...). Each claim is held against scikit-learn by running the cell
(NotFittedError is a ValueError, as `except ValueError` sees it); where a grid may swap a step,
the search was never fitted, or something on X's way may take it, no claim."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.calibration import CalibratedClassifierCV
from sklearn.compose import TransformedTargetRegressor
from sklearn.ensemble import RandomForestClassifier, VotingClassifier
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.feature_selection import SelectFromModel
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import (FixedThresholdClassifier, GridSearchCV, RandomizedSearchCV, cross_val_predict,
                                     cross_val_score, cross_validate)
from sklearn.multiclass import OneVsRestClassifier
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import FunctionTransformer, MinMaxScaler, StandardScaler
from sklearn.svm import SVC, LinearSVC

from jupyter_codecheck.facts import kernel_facts
from test_value_propagation import namespace, run, value_facts

RNG = np.random.default_rng(0)
X = RNG.random((40, 3))
Y = np.array([0, 1] * 20)


def fitted(est):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return est.fit(X, Y)


def ns(**objects) -> dict:
    return namespace(X=X, y=Y, SVC=SVC, cross_val_score=cross_val_score, cross_validate=cross_validate,
                     cross_val_predict=cross_val_predict, **objects)


def raised_as_value_error(cell: str, objects: dict) -> None:
    facts = value_facts(cell, objects)
    assert len(facts) == 1 and "takes 2-D X only: ValueError" in facts[0].message, (cell, facts)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(compile(cell, "<cell>", "exec"), dict(objects))
        except ValueError:
            return
    raise AssertionError(f"{cell!r} ran")


@pytest.mark.parametrize("cell, objects", [
    ("grid.fit(X[:, 0], y)\n", {"grid": GridSearchCV(SVC(), {"C": [1, 10], "gamma": [0.1, None]})}),
    ("grid.fit(X[:, 0], y)\n", {"grid": RandomizedSearchCV(LogisticRegression(), {"C": [1, 2]}, n_iter=2)}),
    ("s = grid.score(X[:, 0], y)\n", {"grid": fitted(GridSearchCV(SVC(), {"C": [1, 10]}))}),
    ("pipe.fit(X[:, 0], y)\n", {"pipe": Pipeline([("scaler", MinMaxScaler()), ("svm", SVC())])}),
    ("p = pipe.predict(X[:, 0])\n", {"pipe": fitted(make_pipeline(StandardScaler(), SVC()))}),
    ("s = pipe.score(X[:, 0], y)\n", {"pipe": make_pipeline(StandardScaler(), SVC())}),   # NotFittedError
    ("grid.fit(X[:, 0], y)\n", {"grid": GridSearchCV(make_pipeline(MinMaxScaler(), SVC()), {"svc__C": [1, 2]})}),
    ("s = cross_val_score(SVC(), X[:, 1], y)\n", {}),
    ("r = cross_validate(pipe, X=X[:, 0], y=y, cv=3)\n", {"pipe": Pipeline([("scaler", MinMaxScaler()), ("svm", SVC())])}),
    ("p = cross_val_predict(LogisticRegression(), X[:, 2], y)\n", {"LogisticRegression": LogisticRegression}),
])
def test_a_1d_x_through_a_meta_estimator_or_a_helper(cell, objects):
    raised_as_value_error(cell, ns(**objects))


def test_no_claim_where_scikit_learn_may_take_it_or_fails_otherwise():
    swap = GridSearchCV(Pipeline([("scale", MinMaxScaler()), ("svm", SVC())]), {"scale": [MinMaxScaler(), "passthrough"]})
    cells = [("grid.fit(X[:, 0], y)\n", {"grid": swap}),                           # a grid that swaps a step
             ("s = grid.score(X[:, 0], y)\n", {"grid": GridSearchCV(SVC(), {"C": [1]})}),   # never fitted
             ("grid.fit(X, y)\n", {"grid": GridSearchCV(SVC(), {"C": [1, 2]})}),
             ("pipe.fit(X, y)\n", {"pipe": make_pipeline(MinMaxScaler(), SVC())}),
             ("s = cross_val_score(SVC(), X, y)\n", {})]
    for cell, objects in cells:
        assert value_facts(cell, ns(**objects)) == [], cell
    # the same search over a step's parameter only: claimed
    kept = GridSearchCV(Pipeline([("scale", MinMaxScaler()), ("svm", SVC())]), {"svm__C": [1, 2]})
    raised_as_value_error("grid.fit(X[:, 0], y)\n", ns(grid=kept))
    assert run(cells[1][0], ns(**cells[1][1])) is not None     # not fitted: the search's own error
    # steps scikit-learn refuses before it reads X (an intermediate step without transform)
    bad = Pipeline([("svm", SVC()), ("scale", MinMaxScaler())])
    assert value_facts("bad.fit(X[:, 0], y)\n", ns(bad=bad)) == []
    assert run("bad.fit(X[:, 0], y)\n", ns(bad=bad))[0] == "TypeError"


def recording_estimator(calls: list) -> type:
    """An estimator class of the user's that records every call of its code into `calls`."""
    class Mine(ClassifierMixin, BaseEstimator):
        def fit(self, X, y):
            calls.append("fit")
            return self

        def __sklearn_tags__(self):
            calls.append("tags")
            return super().__sklearn_tags__()
    return Mine


def test_an_estimator_of_the_users_in_a_pipeline_stays_opaque():
    calls = []
    Mine = recording_estimator(calls)

    objects = ns(pipe=Pipeline([("mine", Mine()), ("svm", SVC())]), grid=GridSearchCV(Mine(), {}))
    for cell in ("pipe.fit(X[:, 0], y)\n", "grid.fit(X[:, 0], y)\n", "s = cross_val_score(mine, X[:, 0], y)\n"):
        assert [f for f in kernel_facts(cell, objects | {"mine": Mine()}) if f.kind == "value"] == [], cell
    assert calls == []
    # a user's estimator anywhere in it: no claim; scikit-learn's own in its place: claimed
    assert value_facts("pipe.fit(X[:, 0], y)\n", ns(pipe=Pipeline([("scale", MinMaxScaler()), ("mine", Mine())]))) == []
    raised_as_value_error("pipe.fit(X[:, 0], y)\n", ns(pipe=Pipeline([("scale", MinMaxScaler()), ("svm", SVC())])))
    assert calls == []


@pytest.mark.parametrize("cell", [
    "gs = GridSearchCV(SVC(), grid, cv=3, return_train_score=True)\ngs.fit(X[:, 0], y)\n",
    "pipe = Pipeline([('scale', MinMaxScaler()), ('svm', SVC(C=2))])\npipe.fit(X[:, 0], y)\n",
    "logreg = LogisticRegression(max_iter=1000, C=0.1).fit(X, y)\np = logreg.predict(X_test[:, 0])\n",
])
def test_a_search_pipeline_or_fitted_model_the_cell_makes(cell):
    objects = ns(GridSearchCV=GridSearchCV, Pipeline=Pipeline, MinMaxScaler=MinMaxScaler,
                 LogisticRegression=LogisticRegression, X_test=X[:10],
                 grid=[{"kernel": ["rbf"], "C": [1, 10], "gamma": [0.1, 1]}, {"kernel": ["linear"], "C": [1, 10]}])
    raised_as_value_error(cell, objects)
    fixed = cell.replace("[:, 0]", "")
    assert value_facts(fixed, objects) == [] and run(fixed, objects) is None


@pytest.mark.parametrize("cell", [
    # the search the cell makes and fits: its best estimator is of the grid's estimator's class
    "gs = GridSearchCV(SVC(), {'C': [1, 10]}, cv=3)\ngs.fit(X, y)\ns = gs.score(X[:, 0], y)\n",
    "gs = GridSearchCV(SVC(), {'C': [1, 10]}, cv=3)\ngs.fit(X, y)\nd = gs.decision_function(X_text)\n",
    # its grid a literal the cell binds to a name
    "grid = {'C': [1, 10], 'gamma': [0.1, 1]}\ngs = GridSearchCV(SVC(), param_grid=grid, cv=3)\n"
    "gs.fit(X, y)\nprint('{:.2f}'.format(gs.score(X_text, y)))\n",
    # its estimator a live pipeline of scikit-learn's classes: the pipeline's first step reads X
    "gs = GridSearchCV(pipe, param_grid={'svm__C': [1, 10]}, cv=3)\ngs.fit(X, y)\np = gs.predict(X[:, 0])\n",
])
def test_a_search_the_cell_makes_and_fits_then_given_a_1d_or_text_x(cell):
    objects = ns(GridSearchCV=GridSearchCV, X_text=np.column_stack([X, ["train"] * len(X)]),
                 pipe=Pipeline([("scaler", MinMaxScaler()), ("svm", SVC())]))
    facts = value_facts(cell, objects)
    assert len(facts) == 1 and facts[0].line == cell.count("\n") and facts[0].message.endswith(
        ("(Expected 2D array, got 1D array instead)", "(its input check refuses strings)")), facts
    assert run(cell, objects)[0] == "ValueError"
    fixed = cell.replace("X[:, 0]", "X").replace("X_text", "X")
    assert value_facts(fixed, objects) == [] and run(fixed, objects) is None


def test_no_claim_on_a_search_the_cell_made_but_did_not_fit_or_refit():
    objects = ns(GridSearchCV=GridSearchCV)
    unfitted = "gs = GridSearchCV(SVC(), {'C': [1, 10]}, cv=3)\ns = gs.score(X[:, 0], y)\n"
    no_refit = "gs = GridSearchCV(SVC(), {'C': [1, 10]}, cv=3, refit=False)\ngs.fit(X, y)\ns = gs.score(X[:, 0], y)\n"
    in_loop = "gs = GridSearchCV(SVC(), {'C': [1, 10]}, cv=3)\nfor k in range(0):\n    gs.fit(X, y)\ns = gs.score(X[:, 0], y)\n"
    for cell in (unfitted, no_refit, in_loop):
        assert value_facts(cell, objects) == [], cell
    assert run(no_refit, objects)[0] == "AttributeError"        # no best_estimator_: not a ValueError


def test_a_users_estimator_given_to_a_search_the_cell_makes_stays_opaque():
    calls = []
    Mine = recording_estimator(calls)

    cell = "gs = GridSearchCV(mine, {}, cv=3)\ngs.fit(X, y)\ns = gs.score(X[:, 0], y)\n"
    assert value_facts(cell, ns(GridSearchCV=GridSearchCV, mine=Mine())) == []
    assert calls == []


def grow(a):
    """The user's function that makes a 1-D array 2-D before the next step reads it."""
    return a.reshape(-1, 1) if a.ndim == 1 else a


def meta_ns(**objects) -> dict:
    return ns(X_text=np.column_stack([X, ["train"] * len(X)]), CalibratedClassifierCV=CalibratedClassifierCV,
              SelectFromModel=SelectFromModel, OneVsRestClassifier=OneVsRestClassifier,
              LogisticRegression=LogisticRegression, ridge=Ridge(), np=np, **objects)


@pytest.mark.parametrize("cell, objects", [
    # unfitted, live or made by the cell: the fit hands X to the estimator it holds
    ("cal.fit(X[:, 0], y)\n", {"cal": CalibratedClassifierCV(LogisticRegression(), cv=3)}),
    ("cal = CalibratedClassifierCV(LogisticRegression(), ensemble=False)\ncal.fit(X[:, 0], y)\n", {}),
    ("ovr = OneVsRestClassifier(LogisticRegression()).fit(X[:, 0], y)\n", {}),
    ("sfm = SelectFromModel(ridge, threshold=0.1).fit(X[:, 0], y)\n", {}),
    ("s = cross_val_score(OneVsRestClassifier(LogisticRegression()), X[:, 0], y, cv=3)\n", {}),
    ("sfm = SelectFromModel(ridge, threshold=0.1).fit(X_text, y)\n", {}),
    # fitted: predict-like methods hand X to the estimators the fit made
    ("p = cal.predict_proba(X[:, 0])\n", {"cal": fitted(CalibratedClassifierCV(FrozenEstimator(fitted(LogisticRegression()))))}),
    ("p = ttr.predict(X[:, 0])\n", {"ttr": fitted(TransformedTargetRegressor(Ridge(), func=np.log1p, inverse_func=np.expm1))}),
    ("d = ovr.decision_function(X[:, 0])\n", {"ovr": fitted(OneVsRestClassifier(make_pipeline(StandardScaler(), LinearSVC())))}),
    ("p = vote.predict_proba(X_text)\n", {"vote": fitted(VotingClassifier([("lr", LogisticRegression()), ("svc", SVC(probability=True))],
                                                                          voting="soft"))}),
    # a forest's fitted trees, more than are read one by one: all of one class, made of one template
    ("p = vote.predict(X[:, 0])\n", {"vote": fitted(VotingClassifier([("lr", LogisticRegression()),
                                                                      ("rf", RandomForestClassifier(n_estimators=80))]))}),
])
def test_a_meta_estimator_hands_a_1d_or_text_x_to_what_it_holds(cell, objects):
    objects = meta_ns(**objects)
    facts = value_facts(cell, objects)
    assert len(facts) == 1 and facts[0].line == cell.count("\n") and facts[0].message.endswith(
        ("(Expected 2D array, got 1D array instead)", "(its input check refuses strings)")), facts
    assert run(cell, objects)[0] == "ValueError"
    fixed = cell.replace("X[:, 0]", "X").replace("X_text", "X")
    assert value_facts(fixed, objects) == [] and run(fixed, objects) is None, fixed


@pytest.mark.parametrize("cell, objects, outcome", [
    # a FrozenEstimator's fit leaves X alone, and FixedThresholdClassifier only fits it
    ("f = FixedThresholdClassifier(FrozenEstimator(lr)).fit(X[:, 0], y)\n",
     {"lr": fitted(LogisticRegression()), "FixedThresholdClassifier": FixedThresholdClassifier,
      "FrozenEstimator": FrozenEstimator}, None),
    # a label alone: OneVsRestClassifier fits a stand-in that takes any X
    ("ovr = OneVsRestClassifier(LogisticRegression()).fit(X[:, 0], np.zeros(len(X)))\n", {}, None),
    # a text step on X's way takes a 1-D X of text
    ("ovr = OneVsRestClassifier(make_pipeline(CountVectorizer(), LogisticRegression())).fit(docs, y)\n",
     {"make_pipeline": make_pipeline, "CountVectorizer": CountVectorizer,
      "docs": np.array(["red fox", "blue sky", "red sky"] * 13 + ["fox"])}, None),
    # the user's function sees X first
    ("vote.fit(X[:, 0], y)\n", {"vote": VotingClassifier([("lr", make_pipeline(FunctionTransformer(grow), LogisticRegression()))])},
     None),
    # voting="hard" has no predict_proba: AttributeError, not the input's ValueError
    ("p = vote.predict_proba(X[:, 0])\n", {"vote": fitted(VotingClassifier([("lr", LogisticRegression())]))}, "AttributeError"),
])
def test_no_claim_where_a_meta_estimator_may_take_x_or_fails_otherwise(cell, objects, outcome):
    objects = meta_ns(**objects)
    assert value_facts(cell, objects) == [], cell
    got = run(cell, objects)
    assert (got[0] if got else None) == outcome, (cell, got)


def test_a_users_estimator_inside_a_meta_estimator_stays_opaque():
    calls = []
    Mine = recording_estimator(calls)

    objects = meta_ns(cal=CalibratedClassifierCV(Mine()), vote=VotingClassifier([("lr", LogisticRegression()), ("mine", Mine())]))
    for cell in ("cal.fit(X[:, 0], y)\n", "vote.fit(X[:, 0], y)\n", "o = OneVsRestClassifier(mine).fit(X[:, 0], y)\n"):
        assert value_facts(cell, objects | {"mine": Mine()}) == [], cell
    assert calls == []


def pipeline_ns() -> dict:
    return ns(Pipeline=Pipeline, make_pipeline=make_pipeline, StandardScaler=StandardScaler, LinearSVC=LinearSVC,
              live=fitted(make_pipeline(StandardScaler(), SVC())))


def held(cell: str, objects: dict, claimed: tuple[str, int] | None) -> None:
    """The cell's one claim (its kind and line) is the exception it raises on that line (a
    NotFittedError or InvalidParameterError is a ValueError, the claim's "call" or "value"), or
    no claim and the cell runs."""
    got = [(f.kind, f.line) for f in kernel_facts(cell, objects, libraries="leading")
           if f.kind in ("attribute", "call", "value")]
    assert got == ([claimed] if claimed else []), (cell, got)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        outcome = run(cell, objects)
    if claimed is None:
        assert outcome is None, (cell, outcome)
    else:
        assert outcome is not None and outcome[1] == claimed[1], (cell, outcome)
        exception = {"AttributeError": (AttributeError,), "call": (ValueError,), "value": (ValueError,)}
        raised = {"AttributeError": AttributeError, "NotFittedError": ValueError, "InvalidParameterError": ValueError,
                  "ValueError": ValueError}
        assert issubclass(raised.get(outcome[0], Exception), exception.get(
            "AttributeError" if claimed[0] == "attribute" else claimed[0])), (cell, outcome)


@pytest.mark.parametrize("cell, claimed", [
    # a step read before the pipeline is fitted: the estimator the cell made, never fitted
    ("pipe = make_pipeline(StandardScaler(), LinearSVC(C=1))\nw = pipe[-1].coef_", ("attribute", 2)),
    ("pipe = make_pipeline(StandardScaler(), LinearSVC(C=1))\nw = pipe.named_steps['linearsvc'].coef_",
     ("attribute", 2)),
    ("pipe = make_pipeline(StandardScaler(), LinearSVC(C=1))\nw = pipe.named_steps.linearsvc.coef_", ("attribute", 2)),
    ("pipe = Pipeline([('s', StandardScaler()), ('m', LinearSVC())])\nw = pipe.steps[-1][1].coef_", ("attribute", 2)),
    ("pipe = Pipeline([('s', StandardScaler()), ('m', LinearSVC())])\nm = pipe['s'].mean_", ("attribute", 2)),
    # the pipeline itself: its methods begin with check_is_fitted(self)
    ("pipe = make_pipeline(StandardScaler(), LinearSVC(C=1))\np = pipe.predict(X)", ("call", 2)),
    ("pipe = Pipeline([('s', StandardScaler()), ('m', SVC())])\nd = pipe.decision_function(X)", ("call", 2)),
    ("pipe = make_pipeline(StandardScaler(), 'passthrough')\nt = pipe.transform(X)", ("call", 2)),
    # an estimator given whole to a pipeline nothing names after: still never fitted
    ("s = StandardScaler()\nm = LinearSVC()\npipe = make_pipeline(s, m)\nw = m.coef_", ("attribute", 4)),
    ("s = StandardScaler()\nm = LinearSVC()\npipe = make_pipeline(s, m)\np = pipe.predict(X)", ("call", 4)),
    # fitted first, or the method not there, or a step fitted through its own name
    ("pipe = make_pipeline(StandardScaler(), LinearSVC())\npipe.fit(X, y)\nw = pipe[-1].coef_", None),
    ("pipe = make_pipeline(StandardScaler(), LinearSVC())\npipe.fit(X, y)\np = pipe.predict(X)", None),
    ("s = StandardScaler()\nm = LinearSVC()\npipe = make_pipeline(s, m)\npipe.fit(X, y)\nw = m.coef_", None),
    ("m = LinearSVC()\npipe = make_pipeline(m)\nm.fit(X, y)\np = pipe.predict(X)", None),
    ("pipe = make_pipeline(StandardScaler(), LinearSVC())\npipe[-1].fit(X, y)\nw = pipe[-1].coef_", None),
    ("pipe = make_pipeline(StandardScaler(), LinearSVC())\nouter = make_pipeline(pipe)\nouter.fit(X, y)\n"
     "w = pipe[-1].coef_", None),
    ("pipe = make_pipeline(StandardScaler(), LinearSVC())\nw = pipe[-1].C", None),
    ("pipe = make_pipeline(StandardScaler(), 'passthrough')\nc = pipe[-1]", None),
])
def test_a_pipeline_the_cell_makes_and_its_steps_unfitted_until_it_is_fitted(cell, claimed):
    held(cell, pipeline_ns(), claimed)


@pytest.mark.parametrize("cell, claimed", [
    # each step's fit validates its own parameters, in the pipeline's fit, in order
    ("pipe = make_pipeline(StandardScaler(), SVC(kernel='rbff'))\npipe.fit(X, y)", ("value", 2)),
    ("make_pipeline(StandardScaler(), SVC(kernel='rbff')).fit(X, y)", ("value", 1)),
    ("pipe = make_pipeline(StandardScaler(with_mean=3), SVC())\npipe.fit(X, y)", ("value", 2)),
    ("pipe = Pipeline([('s', StandardScaler()), ('m', SVC(C=-1))])\npipe.fit(X, y)", ("value", 2)),
    ("pipe = make_pipeline(StandardScaler(), 'passthrough', SVC(C=-1))\npipe.fit(X)", ("value", 2)),
    ("pipe = make_pipeline(live[0], SVC(C=-1))\npipe.fit(X, y)", ("value", 2)),
    ("s = SVC(C=-1)\npipe = make_pipeline(StandardScaler(), s)\npipe.fit(X, y)", ("value", 3)),
    # a step changed through its own name after the pipeline holds it: the pipeline fits it so
    ("s = SVC(C=-1)\npipe = make_pipeline(StandardScaler(), s)\ns.C = 1.0\npipe.fit(X, y)", None),
    ("s = SVC(C=-1)\npipe = Pipeline([('s', StandardScaler()), ('m', s)])\ns.set_params(C=1.0)\npipe.fit(X, y)", None),
    # valid steps, a method the last step lacks, a cache, fit's own keywords: none of this rule's
    ("pipe = make_pipeline(StandardScaler(), SVC(kernel='rbf', C=2))\npipe.fit(X, y)", None),
    ("pipe = Pipeline([('s', StandardScaler()), ('m', 'passthrough')])\nt = pipe.fit_transform(X, y)", None),
])
def test_a_steps_parameters_are_checked_at_the_pipelines_fit(cell, claimed):
    held(cell, pipeline_ns(), claimed)


def test_no_step_parameter_claim_where_the_pipeline_fails_otherwise_or_caches():
    objects = pipeline_ns()
    for cell in ("pipe = Pipeline([('s', StandardScaler()), ('m', SVC(C=-1))])\npipe.fit_transform(X, y)",
                 "pipe = make_pipeline(StandardScaler(), SVC(C=-1), memory='/nonexistent')\npipe.fit(X, y)",
                 "pipe = make_pipeline(StandardScaler(), SVC(C=-1))\npipe.fit(X, y, svc__sample_weight=None)"):
        assert not [f for f in kernel_facts(cell, objects, libraries="leading") if "parameters" in f.message], cell
        assert run(cell, objects) is not None, cell         # each fails, by another rule or a later one


@pytest.mark.parametrize("cell, claimed", [
    # a live pipeline's step by place or name: its `__getitem__` and `named_steps` give the step
    ("c = live[-1].c", ("attribute", 1)),
    ("c = live['svc'].c", ("attribute", 1)),
    ("c = live.named_steps['svc'].c", ("attribute", 1)),
    ("m = live[0].mean", ("attribute", 1)),
    ("c = live[-1].C", None),
    ("m = live[0].mean_", None),
    ("c = live.named_steps['svc'].C", None),
])
def test_a_live_pipelines_step(cell, claimed):
    held(cell, pipeline_ns(), claimed)


def search_ns() -> dict:
    from scipy.stats import loguniform, uniform
    return ns(Pipeline=Pipeline, make_pipeline=make_pipeline, StandardScaler=StandardScaler, LinearSVC=LinearSVC,
              GridSearchCV=GridSearchCV, RandomizedSearchCV=RandomizedSearchCV, loguniform=loguniform,
              uniform=uniform, pipe=make_pipeline(StandardScaler(), SVC()),
              live_grid=GridSearchCV(SVC(), {"gama": [1.0]}, cv=2), good_grid=GridSearchCV(SVC(), {"C": [1.0]}, cv=2))


@pytest.mark.parametrize("cell, claimed", [
    # every candidate is set on a clone of the estimator by set_params, which refuses the name
    ("GridSearchCV(make_pipeline(StandardScaler(), SVC()), {'svc__gama': [0.1, 1]}, cv=2).fit(X, y)", ("value", 1)),
    ("d = {'svc__gama': loguniform(0.001, 0.1), 'svc__C': uniform(1, 10)}\n"
     "r = RandomizedSearchCV(pipe, d, n_iter=3, cv=2, random_state=0)\nr.fit(X, y)", ("value", 3)),
    ("g = GridSearchCV(SVC(), [{'C': [1]}, {'gama': [1]}], cv=2)\ng.fit(X, y)", ("value", 2)),
    ("g = GridSearchCV(estimator=pipe, param_grid={'svc__C': [1], 'svm__C': [1]}, cv=2)\ng.fit(X, y)", ("value", 2)),
    ("live_grid.fit(X, y)", ("value", 1)),
    # the names the estimator has, a step replaced by the grid, the grid or search changed first,
    # RandomizedSearchCV's list of dicts (it draws from one of them)
    ("GridSearchCV(make_pipeline(StandardScaler(), SVC()), {'svc__gamma': [0.1, 1]}, cv=2).fit(X, y)", None),
    ("g = GridSearchCV(pipe, {'svc': [SVC(kernel='poly')], 'svc__degree': [2]}, cv=2)\ng.fit(X, y)", None),
    ("d = {'svc__gama': [1]}\nd['svc__gamma'] = d.pop('svc__gama')\ng = GridSearchCV(pipe, d, cv=2)\ng.fit(X, y)",
     None),
    ("d = {'svc__gama': [1]}\ng = GridSearchCV(pipe, d, cv=2)\ndel d['svc__gama']\ng.fit(X, y)", None),
    ("g = GridSearchCV(pipe, {'svc__gama': [1]}, cv=2)\ng.set_params(param_grid={'svc__C': [1]})\ng.fit(X, y)",
     None),
    ("r = RandomizedSearchCV(pipe, [{'svc__C': [1]}, {'svc__gama': [1]}], n_iter=1, cv=2, random_state=1)\n"
     "r.fit(X, y)", None),
    ("good_grid.fit(X, y)", None),
    # the grid handed to a function of the user's first, which may rename the key
    ("d = {'svc__gama': [1]}\nfixed = fix(d)\ng = GridSearchCV(pipe, d, cv=2)\ng.fit(X, y)", None),
])
def test_a_searchs_grid_against_its_estimators_parameters(cell, claimed):
    held(cell, search_ns() | {"fix": _renamed}, claimed)


def _renamed(grid: dict) -> dict:
    grid["svc__gamma"] = grid.pop("svc__gama")
    return grid


def test_a_users_estimator_in_a_pipeline_or_search_the_cell_makes_stays_opaque():
    calls = []
    Mine = recording_estimator(calls)
    objects = search_ns() | {"Mine": Mine, "mine": Mine()}
    for cell in ("g = GridSearchCV(mine, {'gama': [1]}, cv=2)\ng.fit(X, y)",
                 "g = GridSearchCV(make_pipeline(mine), {'mine__gama': [1]}, cv=2)\ng.fit(X, y)",
                 "p = make_pipeline(mine, SVC(C=-1))\np.fit(X, y)",
                 "p = make_pipeline(StandardScaler(), mine)\nq = p.predict(X)"):
        assert [f for f in kernel_facts(cell, objects, libraries="leading") if f.kind != "undefined-name"] == [], cell
    assert calls == []


@pytest.mark.parametrize("cell, claimed", [
    # the last step's validate_data refuses y=None where its tags need a target
    ("pipe = make_pipeline(StandardScaler(), SVC(kernel='poly', degree=3, coef0=1, C=5))\npipe.fit(X)", ("value", 2)),
    ("pipe = Pipeline([('s', StandardScaler()), ('m', LinearSVC())])\npipe.fit(X)", ("value", 2)),
    ("make_pipeline(MinMaxScaler(), LogisticRegression()).fit(X)", ("value", 1)),
    # y given, or a last step that needs none, or none at all
    ("pipe = make_pipeline(StandardScaler(), SVC())\npipe.fit(X, y)", None),
    ("pipe = make_pipeline(StandardScaler(), SVC())\npipe.fit(X, y=y)", None),
    ("pipe = make_pipeline(StandardScaler(), MinMaxScaler())\npipe.fit(X)", None),
    ("pipe = make_pipeline(StandardScaler(), 'passthrough')\npipe.fit(X)", None),
])
def test_y_left_out_of_a_pipelines_fit_whose_last_step_needs_it(cell, claimed):
    held(cell, pipeline_ns() | {"MinMaxScaler": MinMaxScaler, "LogisticRegression": LogisticRegression}, claimed)


@pytest.mark.parametrize("grid", [{"C": [1, 10]}, {"C": [1.0, 10.0], "gamma": np.logspace(-2, 2, 3)}])
def test_a_live_search_the_cell_fits_then_given_a_1d_or_text_x(grid):
    """A kernel's unfitted search fitted on the cell's top level predicts with its best_estimator_,
    a clone of its estimator (a grid of numbers, numpy's arrays of them too, swaps no step)."""
    for x in ("X[:, 0]", "X_text"):
        cell = f"gs.fit(X, y)\np = gs.predict({x})\n"
        objects = ns(gs=GridSearchCV(SVC(), grid, cv=3), X_text=np.column_stack([X, ["train"] * len(X)]))
        facts = value_facts(cell, objects)
        assert [f.line for f in facts] == [2] and run(cell, objects)[0] == "ValueError", (cell, facts)
        fixed = "gs.fit(X, y)\np = gs.predict(X)\n"
        assert value_facts(fixed, objects) == [] and run(fixed, objects) is None
    # a fit that may not run, or a grid that may set an estimator: no claim
    for cell, search in [("if y[0] > 5:\n    gs.fit(X, y)\np = gs.predict(X[:, 0])\n", GridSearchCV(SVC(), grid)),
                         ("gs.fit(X, y)\np = gs.predict(X[:, 0])\n",
                          GridSearchCV(make_pipeline(MinMaxScaler(), SVC()),
                                       {"minmaxscaler": [MinMaxScaler(), "passthrough"]}))]:
        assert value_facts(cell, ns(gs=search)) == [], cell
