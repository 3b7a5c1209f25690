"""Does a scikit-learn estimator take a call now? `model.predict(X)` on an estimator never fitted
fails (NotFittedError, or an attribute the fit sets missing); on one fitted with other columns,
or another number of them, it raises ValueError; so does `model.fit(X, y)` with fewer or more
labels than samples. Read as scikit-learn reads them: fitted means an attribute of its own ending in `_`
(`check_is_fitted`), and X must match `n_features_in_` and `feature_names_in_`.

These and values.py's 2-D and numbers-only rules are scikit-learn's input validation as one
family (`validate_data`: `check_array`, then `check_consistent_length` in fit, then
`n_features_in_`/`feature_names_in_` after a fit, in that order), applied to X and y however
they come: live objects, literals written in the call or bound by the cell (read as the array
numpy makes of them, abstract_value.array_like) and arrays the cell makes through known calls;
and to an estimator live, or made in the cell (its class's tags; fitted there: the width of that
fit, facts.py).

Only an estimator whose classes all come from scikit-learn, whose parameters hold no estimator
of the user's and that does not answer `__sklearn_is_fitted__` itself; its tags are scikit-learn's
own code on its own object (some estimators need no fit). Classes whose methods do not check X
are left out (`UNCHECKED_INPUT`, held against the installed library by bench/sklearn_facts.py).
"""
from __future__ import annotations

import abc
import functools
import inspect
import sys

from .abstract_value import Abstract, _nested, shaped
from .read_policy import POLICY

# the methods that check the estimator is fitted and take X first
NEEDS_FIT = frozenset({"predict", "predict_proba", "predict_log_proba", "decision_function",
                       "transform", "score"})
# the methods that take X and y and check that both hold as many samples (not `score`: some
# estimators' scores take a y of another length, bench/sklearn_facts.py)
WITH_Y = frozenset({"fit", "fit_transform", "fit_predict", "partial_fit"})
# a fitted decomposition's way back: X holds its components (`X @ components_`), not the features
INVERTING = frozenset({"inverse_transform"})
# fitted estimators whose methods take any X (bench/sklearn_facts.py finds them), and the one
# that picks X's columns by name (extra columns, or ones it drops, are fine there)
UNCHECKED_INPUT = frozenset({"DummyClassifier", "DummyRegressor", "MultiLabelBinarizer",
                             "ColumnTransformer"})


def estimator_problem(est, method: str, X=None, *, has_x: bool = False, x_name: str = "X") -> str | None:
    """What scikit-learn raises at `est.method(X, ...)`, in a line; None when nothing surely
    does. `has_x`: X is the live value of the call's first argument, written `x_name`."""
    if method not in NEEDS_FIT | INVERTING:
        return None
    try:
        if method in INVERTING:
            return _inverse_problem(est, X, x_name)
        return _problem(est, method, X, has_x, x_name)
    except Exception:  # noqa: BLE001 - an estimator that reads otherwise: no claim
        return None


def _inverse_problem(est, X, x_name: str) -> str | None:
    """`pca.inverse_transform(X)`: a fitted estimator of scikit-learn's own classes with a 2-D
    `components_` (PCA, TruncatedSVD, NMF, FastICA, ...) maps back rows of n_components_ columns;
    X of another width is ValueError."""
    np = sys.modules.get("numpy")
    if np is None or not sklearn_estimator(est, alone=True) or \
            not POLICY.is_library(POLICY.static(type(est), "inverse_transform", None)):
        return None
    components = POLICY.own_dict(est).get("components_")
    if type(components) is not np.ndarray or components.ndim != 2:
        return None
    width = X.shape[1] if type(X) is np.ndarray and X.ndim == 2 or _made_numbers(X) else None
    if width is None or width == components.shape[0]:
        return None
    return (f"{x_name} has {width} columns, but {type(est).__name__} maps back rows of its {components.shape[0]} "
            "components: ValueError")


def unfitted_pipeline_problem(pipe, method: str) -> str | None:
    """`pipe.predict(X)` of a scikit-learn Pipeline the cell made and nothing fitted: each of
    NEEDS_FIT's methods of Pipeline begins with `check_is_fitted(self)`, and a Pipeline is fitted
    when its last step other than "passthrough" is (its `__sklearn_is_fitted__`), read by
    scikit-learn's own check on the pipeline; the method must be there (`available_if`: the last
    step has it). None otherwise."""
    pipeline, validation = sys.modules.get("sklearn.pipeline"), sys.modules.get("sklearn.utils.validation")
    if method not in NEEDS_FIT or pipeline is None or validation is None or type(pipe) is not pipeline.Pipeline or \
            not sklearn_classes(pipe):
        return None
    try:
        if not hasattr(pipe, method):
            return None             # AttributeError: not this fact's
        validation.check_is_fitted(pipe)
    except validation.NotFittedError:
        return f"this Pipeline is not fitted yet: {method}() fails until fit is called"
    except Exception:  # noqa: BLE001 - a pipeline that reads otherwise: no claim
        return None
    return None


def sklearn_estimator(est, *, alone: bool = False) -> bool:
    """Is `est` an estimator that may be read: its classes, and those of every estimator it
    holds, scikit-learn's own (then its tags run only scikit-learn's code)? `alone`: and it
    holds no other estimator (a meta-estimator's steps read X their own way)."""
    try:
        params = _readable(est)
        return params is not None and not (alone and any(_estimator_like(v) for v in _values(params)))
    except Exception:  # noqa: BLE001 - an estimator that reads otherwise: no claim
        return False


def _readable(est) -> dict | None:
    """The estimator's parameters when it may be read: its classes, and those of every estimator
    it holds, are scikit-learn's own (its tags then run only scikit-learn's code); else None."""
    if not _plain_class(type(est)):
        return None
    params = estimator_parameters(est)
    return params if params is not None and _all_plain(params) else None


def _problem(est, method: str, X, has_x: bool, x_name: str) -> str | None:
    params = _readable(est)
    if params is None:
        return None
    if any(v == "prefit" or (p == "prefit" and v) for p, v in params.items() if type(v) in (str, bool)):
        return None                 # wraps an estimator fitted elsewhere: no fit needed
    if params.get("vocabulary") is not None:
        return None                 # a vectorizer given its vocabulary transforms without a fit
    own = POLICY.own_dict(est)
    name = type(est).__name__
    if not _requires_fit(est):
        return None
    if not any(k.endswith("_") and not k.startswith("__") for k in own):
        return f"this {name} is not fitted yet: {method}() fails until fit is called"
    nested = any(_estimator_like(v) for v in _values(params))
    if not has_x or name in UNCHECKED_INPUT or nested:
        return None                 # a meta-estimator's steps read X their own way
    return _input_problem(name, own, X, x_name)


def samples_problem(est, method: str, X, y, x_name: str, y_name: str) -> str | None:
    """`model.fit(X_train, y_test)`: X and y of different lengths raise ValueError (scikit-learn's
    `check_consistent_length`) at an estimator that needs y; None when that cannot be told."""
    if method not in WITH_Y and not (method == "score" and _scores_predictions(est)):
        return None
    try:
        if _readable(est) is None or not _requires_y(est) or _refused_first(est, X):
            return None
        nx, ny = _samples(X), _samples(y)
    except Exception:  # noqa: BLE001 - an estimator that reads otherwise: no claim
        return None
    if nx is None or ny is None or nx == ny:
        return None
    return (f"{x_name} has {nx} samples but {y_name} has {ny}: ValueError (inconsistent numbers "
            "of samples)")


# the fits whose size parameter X's shape bounds, as scikit-learn checks it before it computes
# anything: PCA's and TruncatedSVD's n_components, the k-means' n_clusters
SIZED_FITS = frozenset({"fit", "fit_transform", "fit_predict"})


def size_problem(est, method: str, X) -> str | None:
    """`PCA(n_components=5).fit(X)` with X of 3 columns, `KMeans(n_clusters=8).fit(X)` with 5
    rows: ValueError. `X` is X's shape and kind (abstract_value.Abstract: 2-D, both sizes
    known); `est` of scikit-learn's own class."""
    if method not in SIZED_FITS or X is None or not X.is_data() or X.ndim != 2 or \
            not all(type(d) is int and d > 0 for d in X.shape):
        return None
    decomposition, cluster = sys.modules.get("sklearn.decomposition"), sys.modules.get("sklearn.cluster")
    own, cls = POLICY.own_dict(est), type(est)
    n, p = X.shape
    if decomposition is not None and cls in (decomposition.PCA, decomposition.TruncatedSVD):
        k = own.get("n_components")
        if type(k) is not int:
            return None             # "mle", a share of the variance, None: no bound of this kind
        if cls is decomposition.PCA:
            arpack = own.get("svd_solver") == "arpack"
            limit, bound = min(n, p), "min(n_samples, n_features)"
        else:
            arpack = own.get("algorithm") == "arpack"
            limit, bound = (min(n, p), "min(n_samples, n_features)") if arpack else (p, "n_features")
        if k > limit or (arpack and k >= limit):
            return (f"n_components={k} is {'not less than' if arpack and k == limit else 'more than'} {bound}={limit} "
                    f"for X of shape ({n}, {p}){' with arpack' if arpack else ''}: ValueError")
        return None
    kmeans = tuple(getattr(cluster, c) for c in ("KMeans", "MiniBatchKMeans") if cluster is not None)
    if cls in kmeans and type(own.get("n_clusters")) is int and own["n_clusters"] > n:
        return f"n_clusters={own['n_clusters']} is more than X's {n} samples: ValueError (n_samples should be >= n_clusters)"
    return None


def _scores_predictions(est) -> bool:
    """Is `est` a fitted classifier or regressor of scikit-learn's own, holding no other
    estimator, whose `score` is scikit-learn's (a metric of its predictions on X against y: the
    lengths must agree), not a clusterer's or a density's that ignores y?"""
    try:
        from sklearn.utils import get_tags
        score = POLICY.static(type(est), "score", None)
        own = POLICY.own_dict(est)
        return _mixin_score(score) and sklearn_estimator(est, alone=True) and \
            get_tags(est).estimator_type in ("classifier", "regressor") and \
            any(k.endswith("_") and not k.startswith("__") for k in own)
    except Exception:  # noqa: BLE001 - an estimator that reads otherwise: no claim
        return False


@functools.lru_cache(maxsize=256)
def _mixin_score(score) -> bool:
    """Is `score` scikit-learn's ClassifierMixin's or RegressorMixin's, or an override that only
    hands on to it (`return super().score(X, y, sample_weight)`)? A score of its own (a GLM's
    deviance) may check its inputs otherwise."""
    module = getattr(score, "__module__", "") or ""
    if module == "sklearn.base":
        return True
    if not module.startswith("sklearn."):
        return False
    try:
        body = [ln.strip() for ln in inspect.getsource(score).split('"""')[-1].splitlines() if ln.strip()]
    except (OSError, TypeError):
        return False
    return len(body) == 1 and body[0].startswith("return super().score(")


def width_problem(est, method: str, fitted: int, width: int, x_name: str, *,
                  fitted_names: tuple | None = None, names: tuple | None = None, frame: bool = False) -> str | None:
    """`scaler.fit_transform(A)` then `scaler.transform(B)` in the cell, B `width` columns wide
    and A `fitted`: scikit-learn's contract (its `check_n_features_in_after_fitting`) is that a
    method that takes X after a fit raises ValueError on another number of features, for an
    estimator that validates 2-D X (its tags); `est` is the estimator as the cell made it. Both
    frames with string column names (`fitted_names`, `names`): the names must be the same, in
    order (`_check_feature_names`, before the width). A Pipeline hands X to its first step
    first; a ColumnTransformer takes a frame's columns by name (`frame`: B is a DataFrame) and
    checks the width of anything else."""
    other_names = fitted_names is not None and names is not None and names != fitted_names and \
        all(type(c) is str for c in fitted_names + names)
    if method not in NEEDS_FIT or (width == fitted and not other_names):
        return None
    first = _first_step(est)
    if first is not None:
        return width_problem(first, "transform", fitted, width, x_name, fitted_names=fitted_names, names=names,
                             frame=frame)
    compose = sys.modules.get("sklearn.compose")
    if compose is not None and type(est) is compose.ColumnTransformer:
        return selection_width_problem(fitted, width, x_name, frame=frame)
    try:
        if _readable(est) is None or not sklearn_estimator(est, alone=True) or type(est).__name__ in UNCHECKED_INPUT:
            return None
        from sklearn.utils import get_tags
        tags = get_tags(est)
        if tags.no_validation or not tags.input_tags.two_d_array or tags.input_tags.pairwise or \
                not tags.requires_fit:
            return None
    except Exception:  # noqa: BLE001 - an estimator that reads otherwise: no claim
        return None
    name = type(est).__name__
    if other_names:
        return _names_problem(name, list(names), list(fitted_names), x_name) + " (fitted above in the cell)"
    return (f"{x_name} has {width} features, but {name} is expecting {fitted} features as input "
            "(fitted above in the cell): ValueError")


def selection_width_problem(fitted: int, width: int, x_name: str, *, frame: bool) -> str | None:
    """A ColumnTransformer fitted in the cell on `fitted` columns: a frame's columns it takes by
    name, anything else must be as wide (its `_check_n_features`, before any transformer runs)."""
    if frame or width == fitted:
        return None
    return (f"{x_name} has {width} features, but ColumnTransformer is expecting {fitted} features as input "
            "(fitted above in the cell): ValueError")


def _first_step(est):
    """The step a scikit-learn Pipeline hands X to first (its own classes throughout), else None."""
    pipeline = sys.modules.get("sklearn.pipeline")
    if pipeline is None or type(est) is not pipeline.Pipeline or not _plain_class(type(est), fit_check=True):
        return None
    steps = POLICY.own_dict(est).get("steps")
    if type(steps) is not list or not steps or type(steps[0]) is not tuple or len(steps[0]) != 2:
        return None
    step = steps[0][1]
    return None if step is None or type(step) is str else step


def _refused_first(est, X) -> bool:
    """Does scikit-learn's `check_array` refuse X before the lengths are compared (`check_X_y`
    validates X first): X 1-D, or of text, where the estimator's tags take 2-D numbers only?
    Then that is the error (values.py says it); when X's shape is not known, neither is this."""
    from sklearn.utils import get_tags
    tags = get_tags(est).input_tags
    a = shaped(X)
    if a is None and type(X) is list:
        nested = _nested(X, text=True)          # a live list: the array numpy makes of it
        a = Abstract("ndarray", *nested) if nested is not None else None
    if a is None:
        return True
    return (a.ndim != 2 and tags.two_d_array and not tags.one_d_array) or \
        (a.kind in ("U", "S") and not tags.string)


def _samples(v) -> int | None:
    """How many samples a plain array, DataFrame, Series or list holds, or an array a literal or
    the cell makes (abstract_value.Abstract) where its first size is known (None: none of those)."""
    if issubclass(type(v), Abstract):
        return v.shape[0] if v.is_data() and v.ndim >= 1 and type(v.shape[0]) is int else None
    np, pd = sys.modules.get("numpy"), sys.modules.get("pandas")
    if np is not None and type(v) is np.ndarray:
        return int(v.shape[0]) if v.ndim >= 1 else None
    if pd is not None and type(v) in (pd.DataFrame, pd.Series):
        return int(v.shape[0])
    if type(v) is list:
        return len(v)
    return None


def _requires_y(est) -> bool:
    from sklearn.utils import get_tags
    return bool(get_tags(est).target_tags.required)


def _input_problem(name: str, own: dict, X, x_name: str) -> str | None:
    n = own.get("n_features_in_")
    if type(n) is not int:
        return None
    pd = sys.modules.get("pandas")
    np = sys.modules.get("numpy")
    made_frame = issubclass(type(X), Abstract) and X.like == "DataFrame" and X.columns is not None
    if pd is not None and type(X) is pd.DataFrame or made_frame:
        columns = [c for c, _ in X.columns] if made_frame else list(X.columns)
        fitted = own.get("feature_names_in_")
        if fitted is not None and columns and all(type(c) is str for c in columns):
            fitted = [str(c) for c in fitted]
            return None if columns == fitted else _names_problem(name, columns, fitted, x_name)
        width = len(columns)
    elif np is not None and type(X) is np.ndarray and X.ndim == 2:
        width = X.shape[1]
    elif _made_numbers(X):
        width = X.shape[1]          # a literal or an array the cell makes, 2-D numbers: check_array takes it
    else:
        return None
    if width == n:
        return None
    return f"{x_name} has {width} features, but {name} is expecting {n} features as input: ValueError"


def _names_problem(name: str, columns: list[str], fitted: list[str], x_name: str) -> str:
    """scikit-learn's `_check_feature_names`: X's column names not those of the fit, in order."""
    unseen = [c for c in columns if c not in fitted]
    missing = [c for c in fitted if c not in columns]
    if not unseen and not missing:
        return f"{x_name} has the columns {name} was fitted with, in another order: ValueError"
    return (f"{x_name}'s columns are not those {name} was fitted with: ValueError"
            + (f"; not seen at fit: {_few(unseen)}" if unseen else "")
            + (f"; missing: {_few(missing)}" if missing else ""))


def _made_numbers(X) -> bool:
    """Is X an array a literal or the cell makes (abstract_value.Abstract), 2-D, of real numbers,
    its width known?"""
    return issubclass(type(X), Abstract) and X.like == "ndarray" and X.ndim == 2 and \
        type(X.shape[1]) is int and X.kind is not None and X.kind in "biuf"


def _few(labels: list[str], most: int = 3) -> str:
    shown = ", ".join(repr(x) for x in labels[:most])
    return shown + (f" and {len(labels) - most} more" if len(labels) > most else "")


# the methods through which a meta-estimator hands X on to the estimators it holds as they are
# held to scikit-learn's common checks of a 1-D X (fit, and predict-like methods after a fit)
HANDED_ON = frozenset({"fit", "fit_transform", "fit_predict", "predict", "predict_proba", "predict_log_proba",
                       "decision_function", "transform", "score"})
# at most this many estimators read inside a meta-estimator (a larger one: no claim)
_MOST_HELD = 50


def holds_2d_only(est, method: str, labels: int = 0) -> bool:
    """Does X reach, at `est.method(X)`, only estimators that refuse a 1-D X and text, where `est`
    is a meta-estimator of scikit-learn's own (CalibratedClassifierCV, OneVsRestClassifier,
    SelectFromModel, VotingClassifier, TransformedTargetRegressor, ...)? scikit-learn holds every
    estimator whose tags validate its input to raising ValueError on a 1-D X in fit and in
    predict, transform, decision_function and predict_proba after a fit (its common checks
    `check_fit1d`, `check_fit2d_predict1d`); a meta-estimator validates X itself or hands it, or
    rows of it, to the estimators it holds. So when it and every estimator it holds at any depth
    (its parameters; after a fit, the estimators it fitted) are scikit-learn's public classes
    whose tags take 2-D numbers only (no text, no category, no 1-D X, validation on), whichever
    reads X refuses it.

    Not claimed: a search (its grid may set any parameter), a Pipeline or ColumnTransformer (their
    steps read X in turn, values._x_reader), a FrozenEstimator in a fit (its fit ignores X), any
    `prefit`, a callable of the user's among the parameters (it may be handed X), a method the
    estimator does not have now (scikit-learn's `available_if`: AttributeError first), a fit of
    `sklearn.multiclass`'s unless y holds two labels at least (`labels`: how many it surely
    holds; for a label alone it fits a stand-in that takes any X)."""
    if method not in HANDED_ON:
        return False
    try:
        if not sklearn_classes(est) or _routes_x(type(est)):
            return False
        held = _held_estimators(est, fitted=method not in WITH_Y)
        if held is None or len(held) < 2 or not all(_refuses_1d(e, method) for e in held):
            return False
        bound = POLICY.attribute(est, method)       # scikit-learn's `available_if` asks what it holds
        if bound is POLICY.MISSING or bound is POLICY.UNKNOWN:
            return False
        return method not in WITH_Y or labels >= 2 or \
            all(POLICY.class_module(type(e)) != "sklearn.multiclass" for e in held)
    except Exception:  # noqa: BLE001 - an estimator that reads otherwise: no claim
        return False


def runs_library_code_only(est) -> bool:
    """Are `est` and every estimator it holds at any depth of scikit-learn's classes, no callable
    of the user's among their parameters? Then its methods run scikit-learn's code alone."""
    try:
        return _held_estimators(est, fitted=False) is not None
    except Exception:  # noqa: BLE001 - an estimator that reads otherwise: no
        return False


def _routes_x(cls) -> bool:
    """A search, a Pipeline or a ColumnTransformer: X goes where its steps or its grid say."""
    pipeline, compose, search = (sys.modules.get(m) for m in ("sklearn.pipeline", "sklearn.compose",
                                                                "sklearn.model_selection._search"))
    routed = [getattr(pipeline, "Pipeline", None), getattr(compose, "ColumnTransformer", None),
              getattr(search, "BaseSearchCV", None)]
    return any(r is not None and r in POLICY.mro(cls) for r in routed)


def _held_estimators(est, fitted: bool) -> list | None:
    """`est` and every estimator it holds at any depth: in its parameters (through lists, tuples
    and dicts) and, with `fitted`, in its own attributes a fit sets (`estimators_`; not a label
    encoder of y); None where a parameter holds a callable of the user's or too many."""
    found, todo = [], [est]
    while todo:
        e = todo.pop()
        if any(e is f for f in found):
            continue
        found.append(e)
        if len(found) > _MOST_HELD or not _plain_class(type(e), fit_check=True):
            return None                 # a class of the user's: nothing of it is read, or run
        params = estimator_parameters(e)
        if params is None:
            return None
        made = [v for k, v in POLICY.own_dict(e).items() if k.endswith("_") and not k.startswith("_")] if fitted else []
        for v, by_fit in [(v, False) for v in params.values()] + [(v, True) for v in made]:
            inner = _estimators_in(_one_of_each_class(v) if by_fit else v)
            if inner is None:
                return None
            # the label encoders a fit makes of y never see X
            todo += [x for x in inner if not by_fit or POLICY.class_module(type(x)) != "sklearn.preprocessing._label"]
    return found


def _one_of_each_class(v):
    """A fit's list of estimators all of one class (a forest's 100 trees, made of one template
    by one fit), read as its first: its class's tags and that template's parameters are theirs."""
    if type(v) in (list, tuple) and len(v) > 1 and _estimator_like(v[0]) and all(type(x) is type(v[0]) for x in v):
        return v[:1]
    return v


def _estimators_in(v, depth: int = 0) -> list | None:
    """The estimators a parameter's value holds (through lists, tuples and dicts of them); None
    when it holds a callable that is not a library's."""
    if v is None or type(v) in (str, int, float, bool):
        return []
    if type(v) in (list, tuple, dict):
        if depth > 3 or len(v) > _MOST_HELD:
            return None
        out = []
        for x in (list(v.keys()) + list(v.values()) if type(v) is dict else v):
            inner = _estimators_in(x, depth + 1)
            if inner is None:
                return None
            out += inner
        return out
    if _estimator_like(v):
        return [v]
    if callable(v) and not POLICY.is_library(v):
        return None
    return []


def _refuses_1d(est, method: str) -> bool:
    """Is `est` (of scikit-learn's classes, _held_estimators) of a public one, held to the common
    checks, its tags validating X as 2-D numbers only, with nothing fitted elsewhere (`prefit`)?"""
    from sklearn.utils import get_tags
    cls = type(est)
    if cls.__name__.startswith("_") or cls.__name__ in UNCHECKED_INPUT:
        return False
    params = estimator_parameters(est)
    if params is None or any(v == "prefit" or (p == "prefit" and v) for p, v in params.items()
                             if type(v) in (str, bool)):
        return False
    tags = get_tags(est)
    if tags.no_validation or (tags._skip_test and method in WITH_Y):
        return False                    # a FrozenEstimator's fit leaves X alone
    inputs = tags.input_tags
    return bool(inputs.two_d_array and not inputs.one_d_array and not inputs.string and not inputs.dict and
                not inputs.categorical)


def sklearn_class(est) -> bool:
    """Is the class of `est` itself scikit-learn's (what it holds may be anyone's)?"""
    try:
        return _plain_class(type(est), fit_check=True)
    except Exception:  # noqa: BLE001 - a class that reads otherwise: no
        return False


def sklearn_classes(est) -> bool:
    """Are the classes of `est` and of every estimator it holds, at any depth, scikit-learn's own
    (a meta-estimator's too, whose fitted state it answers itself)? Then what its methods do
    with X is the library's."""
    if not sklearn_class(est):
        return False
    try:
        params = estimator_parameters(est)
        return params is not None and _all_plain(params, fit_check=True)
    except Exception:  # noqa: BLE001 - an estimator that reads otherwise: no
        return False


def _plain_class(cls, fit_check: bool = False) -> bool:
    """Are the class's bases all scikit-learn's (or `abc.ABC`), none answering
    `__sklearn_is_fitted__` itself (with `fit_check`, one may)? Read from the classes' own
    dicts: nothing of theirs runs."""
    if "sklearn" not in sys.modules:
        return False
    for k in POLICY.mro(cls):
        module = POLICY.module_of(k)
        if k not in (object, abc.ABC) and not (isinstance(module, str) and module.split(".")[0] == "sklearn"):
            return False
        if not fit_check and "__sklearn_is_fitted__" in POLICY.class_members(k):
            return False
    return True


def estimator_parameters(est) -> dict | None:
    """The estimator's constructor parameters and their values, read from its own attributes
    (None: no signature to read)."""
    own = POLICY.own_dict(est)
    try:
        names = [p for p in inspect.signature(type(est).__init__).parameters if p != "self"]
    except (TypeError, ValueError):
        return None
    return {p: own.get(p) for p in names}


def _all_plain(params: dict, depth: int = 0, fit_check: bool = False) -> bool:
    """Is every estimator the parameters hold, at any depth, scikit-learn's own? (its tags ask
    theirs: a class of the user's would run)"""
    for v in _values(params):
        if not _estimator_like(v):
            continue
        if depth > 4 or not _plain_class(type(v), fit_check):
            return False
        inner = estimator_parameters(v)
        if inner is None or not _all_plain(inner, depth + 1, fit_check):
            return False
    return True


def _values(params: dict) -> list:
    """Every value of the parameters, and each element of a list or tuple of them (a pipeline's
    `(name, step)` pairs, a ColumnTransformer's `(name, transformer, columns)`)."""
    out = []
    for v in params.values():
        out.append(v)
        if type(v) in (list, tuple):
            for x in v:
                out.append(x)
                if type(x) is tuple:
                    out.extend(x)
    return out


def _estimator_like(v) -> bool:
    """Has the value's class a `fit` (read from the classes' own dicts)?"""
    if v is None or type(v) in (str, int, float, bool, dict, list, tuple):
        return False
    return any("fit" in POLICY.class_members(k) for k in POLICY.mro(type(v)))


def _requires_fit(est) -> bool:
    try:
        from sklearn.utils import get_tags
        return bool(get_tags(est).requires_fit)
    except Exception:  # noqa: BLE001 - a library's tags failing: no claim
        return False


def unbound_method_claim(n, receiver, value):
    """`model = GaussianNB` then `model.fit(X, y)`: a scikit-learn estimator's method called on its
    class, not on an estimator, so the first argument takes the place of `self`. What scikit-learn
    raises then (its fit's wrapper reads `self` first: AttributeError; a method Python binds
    first: TypeError) is asked of the method with small arrays in the arguments' places."""
    import ast

    from .claims import ValueClaim
    if not isinstance(n.func, ast.Attribute) or not issubclass(type(receiver), type) or n.keywords or \
            n.func.attr not in NEEDS_FIT | WITH_Y or any(isinstance(a, ast.Starred) for a in n.args) or \
            not _plain_class(receiver, fit_check=True) or not issubclass(receiver, _base_estimator()):
        return None
    member = POLICY.static(receiver, n.func.attr, None)
    if type(member).__name__ != "function" or not str(POLICY.module_of(member) or "").startswith("sklearn."):
        return None                         # a static or class method takes no `self`; one of the user's is not run
    first = value(n.args[0]) if n.args else None
    if n.args and not _is_data(first):
        return None                         # `GaussianNB.fit(model, X, y)`: an estimator may be given for self
    from sklearn import get_config
    refused = _unbound_refusal(member, _kind_of(first), len(n.args),
                               bool(get_config().get("skip_parameter_validation")))
    if refused is None:
        return None
    name = POLICY.class_name(receiver)
    return ValueClaim(n.func, f"{ast.unparse(n.func)}(): {name} is the class, not an estimator: the first argument "
                              f"takes the place of self ({refused[1]}): {refused[0]}", refused[0],
                      [f"{name}()"] if isinstance(n.func.value, ast.Name) and n.func.value.id == name else [],
                      callee=True, subjects=tuple(x.id for x in ast.walk(n.func.value) if isinstance(x, ast.Name)))


def _is_data(v) -> bool:
    """numpy's array, pandas' frame or series, a Python list or tuple, or data the cell makes
    (abstract_value.Abstract): never an estimator."""
    if issubclass(type(v), Abstract):
        return v.is_data()
    np, pd = sys.modules.get("numpy"), sys.modules.get("pandas")
    return type(v) in (list, tuple) or np is not None and type(v) is np.ndarray or \
        pd is not None and type(v) in (pd.DataFrame, pd.Series)


def _base_estimator():
    from sklearn.base import BaseEstimator
    return BaseEstimator


def _kind_of(v) -> str:
    """Which stand-in the probe gives for self: the first argument's kind (a frame answers
    attribute reads otherwise than an array)."""
    if issubclass(type(v), Abstract):
        return v.like
    return type(v).__name__ if type(v).__name__ in ("DataFrame", "Series", "list", "tuple") else "ndarray"


@functools.lru_cache(maxsize=256)
def _unbound_refusal(method, kind: str, n_args: int, unchecked: bool) -> tuple[str, str] | None:
    """(exception, message) of scikit-learn's `method` (its function, so a method replaced since
    is asked anew) called with a stand-in of `kind` for self and small arrays after it; `unchecked`:
    scikit-learn's parameter validation is off (part of the key: its wrapper reads self otherwise)."""
    np, pd = sys.modules.get("numpy"), sys.modules.get("pandas")
    if np is None:
        return None
    stand_in = {"ndarray": np.zeros((2, 2)), "list": [[0.0, 0.0]], "tuple": ((0.0, 0.0),)}.get(kind)
    if pd is not None and kind in ("DataFrame", "Series"):
        stand_in = pd.DataFrame({"a": [0.0, 0.0]}) if kind == "DataFrame" else pd.Series([0.0, 0.0])
    if stand_in is None:
        return None
    try:
        method(*([stand_in] + [np.zeros((2, 2)) for _ in range(n_args - 1)] if n_args else []))
    except (AttributeError, TypeError) as e:
        return type(e).__name__, str(e).splitlines()[0][:120] if str(e) else type(e).__name__
    except Exception:  # noqa: BLE001 - another refusal: no claim
        return None
    return None
