"""In-cell propagation (abstract.py) through scikit-learn's calls, as scikit-learn documents them:
estimators made and fitted, confusion matrices, transforms, train_test_split, the sample
generators. Functions of the call and of what Propagation reads of its parts, passed to them:
`value` (a node's live object or abstract value) and `shaped` (a node's shape and dtype).
"""
from __future__ import annotations

import ast
import inspect
import sys
from collections.abc import Callable
from dataclasses import replace

from .abstract_value import _SPLIT_OPTIONS, Abstract, Held, Read, _literal, _plain_data, distinct_at_least, numeric, \
    random_state_value
from .abstract_value import shaped as shaped_value
from .estimators import sklearn_class, sklearn_classes, sklearn_estimator
from .namespace import UNRESOLVED, Made
from .read_policy import POLICY

Shaped = Callable[[ast.AST], Abstract | None]       # a node's shape and dtype (Propagation.shaped)


def made_estimator(node: ast.Call, target, value: Read, number: Read | None = None):
    """`StandardScaler()`, `PCA(n_components=2)`, `GridSearchCV(SVC(), grid)`: scikit-learn's own
    class; arguments literal, estimators the cell makes so, or live plain data (a grid); with
    `number` (Propagation.scalar), also Python's arithmetic of known numbers (`alpha=0.1 / m`)."""
    base = sys.modules.get("sklearn.base")
    if base is None or not issubclass(type(target), type) or \
            not str(POLICY.class_module(target)).startswith("sklearn.") or \
            not POLICY.is_library(target) or not issubclass(target, base.BaseEstimator):
        return None
    args = tuple(_argument(a, value, number) for a in node.args)
    keywords = []
    for k in node.keywords:
        if k.arg is not None:
            v = _argument(k.value, value, number)
            if v is UNRESOLVED and _takes_callable(target, k.arg):
                v = Held(v)             # maybe a function of the user's, run in it (SVC's callable kernel skips the X check)
            keywords.append((k.arg, v))
            continue
        expanded = _expanded(k.value, value)        # `KMeans(n_clusters=3, **common_params)`
        if expanded is None:
            return None
        keywords += expanded
    keywords = tuple(keywords)
    if any(v is UNRESOLVED for v in args + tuple(v for _, v in keywords)) or \
            len({k for k, _ in keywords}) < len(keywords):
        return None                     # a keyword given twice: the call raises TypeError
    return Abstract("estimator", estimator=target, arguments=(args, keywords))


def _takes_callable(cls: type, name: str) -> bool:
    """Does the class's parameter `name` take a callable (its `_parameter_constraints`)?"""
    constraints = POLICY.static(cls, "_parameter_constraints", None)
    options = constraints.get(name) if type(constraints) is dict else None
    return type(options) is list and any(o is callable or o == "callable" for o in options)


def _expanded(node: ast.expr, value: Read) -> list[tuple[str, object]] | None:
    """The keywords `**d` gives: a dict of string keys the cell wrote or a live one, each value
    an argument as `_argument` takes one."""
    d = _literal(node)
    d = value(node) if d is UNRESOLVED else d
    if issubclass(type(d), Made):
        d = d.literal()
    if type(d) is not dict or any(type(k) is not str for k in d):
        return None
    out = [(k, v if _parameter_data(v) or (not issubclass(type(v), Made) and sklearn_classes(v)) else UNRESOLVED)
           for k, v in d.items()]
    return None if any(v is UNRESOLVED for _, v in out) else out


# scikit-learn's shorthands for its composites: the class each makes of its positional arguments
# (steps, transformers, or (transformer, columns) pairs), each named by scikit-learn's own rule
SHORTHANDS = {"make_pipeline": ("sklearn.pipeline", "Pipeline"),
              "make_union": ("sklearn.pipeline", "FeatureUnion"),
              "make_column_transformer": ("sklearn.compose", "ColumnTransformer")}


def made_shorthand(node: ast.Call, target, value: Read):
    """`make_pipeline(StandardScaler(), SVC())`, `make_union(...)`,
    `make_column_transformer((OneHotEncoder(), ["a"]), ...)`: the Pipeline, FeatureUnion or
    ColumnTransformer scikit-learn makes of them, the parts named by its `_name_estimators` (a
    class's name in lower case, numbered where two are alike); keywords that are the class's own."""
    name = next((n for n, (m, _) in SHORTHANDS.items()
                 if m in sys.modules and target is POLICY.static(sys.modules[m], n, None)), None)
    namer = POLICY.static(sys.modules.get("sklearn.pipeline"), "_name_estimators", None)
    if name is None or not callable(namer):
        return None
    cls = POLICY.static(sys.modules[SHORTHANDS[name][0]], SHORTHANDS[name][1], None)
    init = POLICY.signature(cls) if isinstance(cls, type) else None
    keywords = tuple((k.arg, _argument(k.value, value)) for k in node.keywords)
    if init is None or any(k not in init.parameters or v is UNRESOLVED for k, v in keywords):
        return None
    parts = [_argument(a, value) for a in node.args]
    pairs = name == "make_column_transformer"
    if not parts or any(p is UNRESOLVED or pairs and not (type(p) is tuple and len(p) == 2) for p in parts):
        return None
    steps = [p[0] for p in parts] if pairs else parts
    keys = [s if type(s) is str else _class_of(s) for s in steps]
    if any(k is None for k in keys):
        return None
    names = [n for n, _ in namer(keys)]
    made = [(n, *p) for n, p in zip(names, parts)] if pairs else list(zip(names, steps))
    return Abstract("estimator", estimator=cls, arguments=((made,), keywords))


def shorthand_class(target) -> type | None:
    """The class a shorthand of SHORTHANDS makes (`make_pipeline`: Pipeline), where `target` is
    scikit-learn's own function; else None."""
    for name, (module, cls) in SHORTHANDS.items():
        if module in sys.modules and target is POLICY.static(sys.modules[module], name, None):
            return POLICY.static(sys.modules[module], cls, None)
    return None


def given_steps(call: ast.Call, maker) -> list[ast.expr] | None:
    """The steps a call of scikit-learn's own `Pipeline([("s", scaler), ...])` or
    `make_pipeline(scaler, svc)` (`maker`, the callee) is given, as written; None for any other
    call, or steps given otherwise (starred, `**kw`)."""
    mod = sys.modules.get("sklearn.pipeline")
    pipeline = POLICY.static(mod, "Pipeline", None) if mod is not None else None
    if pipeline is None or any(isinstance(a, ast.Starred) for a in call.args) or \
            any(k.arg is None for k in call.keywords):
        return None
    if maker is pipeline:
        given = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "steps"), None)
        return [e.elts[1] for e in given.elts if isinstance(e, ast.Tuple) and len(e.elts) == 2] \
            if isinstance(given, (ast.List, ast.Tuple)) else []
    return list(call.args) if shorthand_class(maker) is pipeline else None


def held_whole(call: ast.Call, maker, names: set[str]) -> bool:
    """Do `names` appear in a pipeline's making (given_steps) only as steps given whole (which
    the Pipeline only stores until it is fitted)?"""
    steps = given_steps(call, maker)
    if steps is None:
        return False
    whole = {id(x) for x in steps if isinstance(x, ast.Name)}
    return all(id(x) in whole for x in ast.walk(call) if isinstance(x, ast.Name) and x.id in names)


def pipeline_steps(made) -> list | None:
    """The (name, step) pairs of a Pipeline the cell makes (`make_pipeline(...)`,
    `Pipeline([...])`), as given: a step made by the cell (an Abstract), a live one, or text
    ("passthrough"); None for anything else."""
    mod = sys.modules.get("sklearn.pipeline")
    if mod is None or not (issubclass(type(made), Abstract) and made.like == "estimator" and
                           made.estimator is POLICY.static(mod, "Pipeline", None)):
        return None
    args, keywords = made.arguments
    steps = args[0] if args else dict(keywords).get("steps")
    if type(steps) not in (list, tuple) or \
            not all(type(s) is tuple and len(s) == 2 and type(s[0]) is str for s in steps):
        return None
    return list(steps)


def pipeline_step(made, key):
    """`pipe[-1]`, `pipe["svc"]`: the step of a Pipeline the cell makes at that place, or of that
    name (the last so named: Pipeline's `__getitem__` looks a name up in `named_steps`, a dict of
    the steps), as pipeline_steps gives it; None where there is none."""
    steps = pipeline_steps(made)
    if steps is None or type(key) not in (int, str):
        return None
    if type(key) is int:
        return steps[key][1] if -len(steps) <= key < len(steps) else None
    named = [step for name, step in steps if name == key]
    return named[-1] if named else None


def _class_of(step) -> str | None:
    """The lower-case class name `_name_estimators` gives a step (made in the cell or live)."""
    if issubclass(type(step), Abstract):
        return step.estimator.__name__.lower() if step.like == "estimator" and step.estimator else None
    obj = step.obj if type(step) is Held else step
    return type(obj).__name__.lower() if sklearn_class(obj) else None


def confusion(node: ast.Call, target, value: Read, shaped: Shaped):
    """`confusion_matrix(y_true, y_pred)`: an (n, n) array of ints, n the labels of both (at
    least the distinct values either holds, `labels=` literal: exactly those);
    `ConfusionMatrixDisplay(matrix, display_labels=...)`: the matrix's size and the labels' count."""
    metrics = sys.modules.get("sklearn.metrics")
    if metrics is None:
        return None
    given = dict(zip(("y_true", "y_pred"), node.args)) | {k.arg: k.value for k in node.keywords}
    if target is getattr(metrics, "confusion_matrix", None) and len(node.args) <= 2 and \
            {"y_true", "y_pred"} <= set(given) <= {"y_true", "y_pred", "labels", "sample_weight"}:
        if "labels" in given:
            labels = _literal(given["labels"])
            if type(labels) not in (list, tuple) or not labels or len(set(labels)) != len(labels):
                return None
            return Abstract("ndarray", (len(labels), len(labels)), "i")
        least = max(distinct_at_least(value(given["y_true"])), distinct_at_least(value(given["y_pred"])))
        return Abstract("ndarray", (None, None), "i", least=(least, least))
    if target is getattr(metrics, "ConfusionMatrixDisplay", None) and len(node.args) <= 2:
        given = dict(zip(("confusion_matrix", "display_labels"), node.args)) | {k.arg: k.value for k in node.keywords}
        if set(given) != {"confusion_matrix", "display_labels"}:
            return None
        matrix = shaped(given["confusion_matrix"])
        labels = label_count(given["display_labels"], value)
        if matrix is None or matrix.like != "ndarray" or matrix.ndim != 2 or labels is None:
            return None
        return Abstract("ConfusionMatrixDisplay", matrix.shape, matrix.kind, least=matrix.least, labels=labels)
    return None


def label_count(node: ast.expr, value: Read) -> int | None:
    """How many labels a literal list or tuple, or a live list, tuple or 1-D array, holds."""
    if isinstance(node, (ast.List, ast.Tuple)):
        return None if any(isinstance(e, ast.Starred) for e in node.elts) else len(node.elts)
    v = value(node)
    if type(v) in (list, tuple):
        return len(v)
    a = shaped_value(v)
    return a.shape[0] if a is not None and a.like == "ndarray" and a.ndim == 1 else None


def _argument(node: ast.expr, value: Read, number: Read | None = None):
    """An estimator's argument: a literal, an estimator made as above or a live one of
    scikit-learn's own classes (`GridSearchCV(pipe, ...)`), or plain data (live, or a literal
    the cell bound to a name); with `number`, a Python number + - * / makes of known ones."""
    v = _literal(node)
    if v is not UNRESOLVED:
        return v
    if number is not None and isinstance(node, (ast.BinOp, ast.UnaryOp)) and \
            type(n := number(node)) in (int, float):
        return n
    if isinstance(node, (ast.List, ast.Tuple)):
        parts = [_argument(e, value) for e in node.elts]
        return UNRESOLVED if any(p is UNRESOLVED for p in parts) else \
            (list if isinstance(node, ast.List) else tuple)(parts)
    if isinstance(node, ast.Dict):              # a grid: `{"C": np.logspace(-3, 3, 7)}`
        keys = [_literal(k) if k is not None else UNRESOLVED for k in node.keys]
        values = [_argument(x, value) for x in node.values]
        return UNRESOLVED if any(type(k) is not str for k in keys) or any(x is UNRESOLVED for x in values) \
            else dict(zip(keys, values))
    twin = library_twin(node, value)
    if twin is not None:
        return twin
    v = value(node)
    if v is UNRESOLVED:
        return UNRESOLVED                       # not known: never taken for an object of scikit-learn's class
    if issubclass(type(v), Abstract) and v.like == "estimator" or _parameter_data(v) or _random_source(v) or \
            _plain_twin(v):
        return v
    if not issubclass(type(v), Made) and sklearn_classes(v):
        return v                               # a live estimator of scikit-learn's classes only
    if not issubclass(type(v), Made) and sklearn_class(v):
        return Held(v)                         # ...of theirs, holding the user's: never made
    if issubclass(type(v), Made) and _plain_data(v.literal()):
        return v.literal()                     # a literal the cell wrote (`grid = {"C": [1, 10]}`)
    return UNRESOLVED


def _parameter_data(v) -> bool:
    """Plain data, or numpy's own numbers: an array of numbers (up to 10,000 of them: a grid of
    values to try) or a scalar."""
    if _plain_data(v):
        return True
    np = sys.modules.get("numpy")
    if np is None:
        return False
    if type(v) is np.ndarray:
        return v.dtype.kind in "biuf" and v.size <= _GRID_MAX
    return type(v) in (np.float64, np.float32, np.int64, np.int32, np.bool_)


def _random_source(v) -> bool:
    """A live `np.random.RandomState` or `Generator` of numpy's own classes (`random_state=rng`):
    an estimator's `__init__` only stores it, and nothing here draws from it."""
    np = sys.modules.get("numpy")
    return np is not None and type(v) in (np.random.RandomState, np.random.Generator)


# numpy's functions that make a grid of numbers from literal numbers, and the keywords they take
_GRIDS = {"linspace": {"num", "endpoint"}, "logspace": {"num", "endpoint", "base"},
          "geomspace": {"num", "endpoint"}, "arange": set()}
_GRID_MAX = 10_000


def _numpy_grid(node: ast.expr, value: Read):
    """`np.logspace(-3, 3, 7)`, `np.linspace(0.1, 1, 5)`, `np.arange(1, 10)`: numpy's own function
    on literal numbers, made here (numpy's code alone runs) where it holds at most 10,000 values."""
    np = sys.modules.get("numpy")
    if np is None or not isinstance(node, ast.Call) or not isinstance(node.func, (ast.Name, ast.Attribute)):
        return None
    target = value(node.func)
    name = next((n for n in _GRIDS if POLICY.module_members(np).get(n) is target), None)
    if name is None or any(k.arg not in _GRIDS[name] for k in node.keywords):
        return None
    args = [_literal(a) for a in node.args]
    keywords = {k.arg: _literal(k.value) for k in node.keywords}
    if any(type(a) not in (int, float) for a in args) or \
            any(type(v) not in (int, float, bool) for v in keywords.values()) or not 1 <= len(args) <= 3:
        return None
    if name == "arange":
        start, stop, step = (0, args[0], 1) if len(args) == 1 else (*args[:2], args[2] if len(args) == 3 else 1)
        if step == 0 or (stop - start) / step > _GRID_MAX:
            return None
    elif len(args) < 2 or (args[2] if len(args) == 3 else keywords.get("num", 50)) > _GRID_MAX:
        return None
    try:
        return getattr(np, name)(*args, **keywords)
    except (ValueError, TypeError, ZeroDivisionError, OverflowError):
        return None


def _numpy_literal(node: ast.expr, value: Read):
    """`np.array([0, 0, 1, 1])`: numpy's array of a literal list of Python numbers (nested lists
    too), made here as numpy makes it (numpy's code alone runs), of at most 10,000 values."""
    np = sys.modules.get("numpy")
    if np is None or not isinstance(node, ast.Call) or not isinstance(node.func, (ast.Name, ast.Attribute)) or \
            len(node.args) != 1 or node.keywords or not isinstance(node.args[0], (ast.List, ast.Tuple)):
        return None
    if value(node.func) not in (POLICY.module_members(np).get("array"), POLICY.module_members(np).get("asarray")):
        return None
    data = _literal(node.args[0])
    if not _numbers_only(data) or sum(1 for n in ast.walk(node.args[0]) if isinstance(n, ast.Constant)) > _GRID_MAX:
        return None
    try:
        made = np.array(data)
    except (ValueError, TypeError):
        return None                     # ragged: numpy refuses it
    return made if made.dtype.kind in "biuf" else None


def _numbers_only(data) -> bool:
    if type(data) in (list, tuple):
        return bool(data) and all(_numbers_only(x) for x in data)
    return type(data) in (int, float, bool)


# scikit-learn's objects that are no estimators but are given to one, whose `__init__` only
# stores its arguments: the cross-validation splitters and the Gaussian process kernels
_TWIN_MODULES = ("sklearn.model_selection._split", "sklearn.gaussian_process.kernels")
_KERNEL_OPERATORS = {ast.Add: "__add__", ast.Mult: "__mul__", ast.Pow: "__pow__"}


def library_twin(node: ast.expr, value: Read):
    """The object the cell makes at `node`, made here as the library makes it, where only the
    library's code runs and nothing of the user's goes in: numpy's grid of literal numbers,
    `KFold(5, shuffle=True)`, `1.0 * RBF(length_scale=1.0) + WhiteKernel()` (literal arguments,
    the kernels' own operators). None otherwise."""
    grid = _numpy_grid(node, value)
    if grid is None:
        grid = _numpy_literal(node, value)
    if grid is not None:
        return grid
    if isinstance(node, ast.BinOp) and type(node.op) in _KERNEL_OPERATORS:
        left, right = (_twin_part(x, value) for x in (node.left, node.right))
        kernels = sys.modules.get("sklearn.gaussian_process.kernels")
        # each side a kernel of ours or a plain number: another operand (an array) has operators of its own
        if kernels is None or not all(type(x) in (int, float) or isinstance(x, kernels.Kernel) for x in (left, right)) or \
                not any(isinstance(x, kernels.Kernel) for x in (left, right)):
            return None
        op = _KERNEL_OPERATORS[type(node.op)]
        try:                            # the class's operator, as Python looks it up
            if isinstance(left, kernels.Kernel):
                return POLICY.static(type(left), op, None)(left, right)
            return POLICY.static(type(right), "__r" + op[2:], None)(right, left) if type(node.op) is not ast.Pow else None
        except Exception:  # noqa: BLE001 - refused: the cell raises there
            return None
    if not isinstance(node, ast.Call) or any(isinstance(a, ast.Starred) for a in node.args) or \
            any(k.arg is None for k in node.keywords):
        return None
    cls = value(node.func)
    if not _twin_class(cls):
        return None
    args = [_twin_part(a, value) for a in node.args]
    keywords = {k.arg: _twin_part(k.value, value) for k in node.keywords}
    if any(a is None for a in args) or any(v is None for v in keywords.values()):
        return None
    try:
        return cls(*args, **keywords)
    except Exception:  # noqa: BLE001 - refused arguments: the cell raises there
        return None


def _twin_part(node: ast.expr, value: Read):
    """A literal of plain data, a twin made as above (written there or bound by the cell), or
    None."""
    v = _literal(node)
    if v is not UNRESOLVED:
        return v if _plain_data(v) else None
    twin = library_twin(node, value)
    if twin is not None:
        return twin
    v = value(node)
    return v if _plain_twin(v) else None


def _plain_twin(v, depth: int = 0) -> bool:
    """A live splitter or kernel of `_TWIN_MODULES`' classes holding only plain data and such
    objects (a kernel of kernels): nothing of the user's runs when it is used or copied."""
    if depth > 20 or not _twin_class(type(v)):
        return False
    own = POLICY.own_dict(v)
    return all(type(k) is str and not k.startswith("__") and
               (_plain_data(x) or _parameter_data(x) or _random_source(x) or _plain_twin(x, depth + 1))
               for k, x in own.items())


def _twin_class(cls) -> bool:
    """A class of `_TWIN_MODULES`, every base scikit-learn's own."""
    from .estimators import _plain_class
    return issubclass(type(cls), type) and POLICY.class_module(cls) in _TWIN_MODULES and \
        POLICY.is_library(cls) and _plain_class(cls)


def transformed(node: ast.Call, owner, method: str, shaped: Shaped):
    """`fit_transform(X)` of StandardScaler, MinMaxScaler (X's shape) and PCA ((n, k)); their
    `transform(X)` when the live estimator was fitted on X's number of columns."""
    if method not in ("fit_transform", "transform") or not node.args or len(node.args) > 2 or \
            set(k.arg for k in node.keywords) - {"y"}:
        return None
    sklearn, pre, dec = (sys.modules.get(m) for m in ("sklearn", "sklearn.preprocessing", "sklearn.decomposition"))
    if sklearn is None or pre is None or sklearn.get_config().get("transform_output") != "default":
        return None
    live = not issubclass(type(owner), Abstract)
    est = owner if live else owner.instance()
    kinds = (pre.StandardScaler, pre.MinMaxScaler, getattr(dec, "PCA", None))
    if est is None or not any(type(est) is k for k in kinds):
        return None
    own = POLICY.own_dict(est)
    if "_sklearn_output_config" in own:
        return None                       # set_output(...): another container
    x = shaped(node.args[0])
    if x is None or x.like not in ("ndarray", "DataFrame") or x.ndim != 2:
        return None
    if not (numeric(x.kind) if x.like == "ndarray" else
            x.columns is not None and all(numeric(k) for _, k in x.columns)) or x.kind == "c":
        return None                       # numbers only, or scikit-learn may refuse X
    n, p = x.shape
    if method == "transform":
        if not live or type(own.get("n_features_in_")) is not int or own["n_features_in_"] != p or \
                (x.like == "DataFrame" and "feature_names_in_" in own and
                 list(own["feature_names_in_"]) != [c for c, _ in x.columns]):
            return None
        width = own.get("n_components_") if type(est) is kinds[2] else p
        return Abstract("ndarray", (n, width), "f") if type(width) is int else None
    if type(est) is kinds[2]:
        k, solver = own.get("n_components"), own.get("svd_solver")
        if n is None or p is None or type(solver) is not str or solver != "auto":
            return None
        k = min(n, p) if k is None else k
        return Abstract("ndarray", (n, k), "f") if type(k) is int and 1 <= k <= min(n, p) else None
    return Abstract("ndarray", (n, p), "f")


# the methods whose result scikit-learn documents as of shape (n_samples, ...): one row per X's row
PREDICTING = frozenset({"predict", "predict_proba", "predict_log_proba", "decision_function", "fit_predict"})


def predicted(node: ast.Call, owner, shaped: Shaped):
    """`model.predict(X)` (and PREDICTING's others) of an estimator of scikit-learn's own, live
    or made by the cell, X's rows known: the result's rows, and no more of it (`predictions`:
    1-D or 2-D as the fit's targets were, which the estimator does not always say)."""
    if len(node.args) != 1 or node.keywords:
        return None                     # return_std=True and the like: a tuple
    est = owner.instance() if issubclass(type(owner), Abstract) else owner
    if est is None or est is UNRESOLVED or not sklearn_estimator(est):
        return None
    x = shaped(node.args[0])
    if x is None or not x.is_data() or x.ndim not in (1, 2) or type(x.shape[0]) is not int:
        return None
    single = _single_output(est, node.func.attr) if est is owner else None
    if single is None and node.func.attr in ("fit_predict", "predict") and _clusters(est, node.func.attr):
        return Abstract("ndarray", (x.shape[0],), "i")
    return single(x.shape[0]) if single is not None else Abstract("predictions", (x.shape[0],))


def _clusters(est, method: str) -> bool:
    """A clusterer of scikit-learn's own (ClusterMixin), live or made by the cell, whose `method`
    (`fit_predict`, `predict`) is scikit-learn's: "labels : ndarray of shape (n_samples,)", the
    cluster of each row, ints."""
    base = sys.modules.get("sklearn.base")
    mixin = POLICY.static(base, "ClusterMixin", None) if base is not None else None
    function = POLICY.static(type(est), method, None)
    return isinstance(mixin, type) and issubclass(type(est), mixin) and POLICY.is_library(type(est)) and \
        function is not None and POLICY.is_library(function) and \
        str(POLICY.module_of(function) or "").startswith("sklearn.")


def _single_output(est, method: str):
    """A live fitted estimator's predictions of one target, as scikit-learn documents them: a
    classifier's `predict` of shape (n_samples,) of its classes' dtype where its `classes_` is one
    array (a list for several targets), its `predict_proba` (n_samples, n_classes); a regressor's
    `predict` (n_samples,) where its own `n_outputs_` says 1. Else None (n_samples, ...) is all."""
    np, base = sys.modules.get("numpy"), sys.modules.get("sklearn.base")
    if np is None or base is None:
        return None
    own = POLICY.own_dict(est)
    classes, outputs = own.get("classes_"), own.get("n_outputs_")
    if not sklearn_estimator(est, alone=True) or POLICY.attribute(est, method) in (POLICY.MISSING, POLICY.UNKNOWN) \
            or any(_multilabel(v) for v in own.values()):
        return None                     # (`SVC().predict_proba`: AttributeError; labels of several targets)
    if type(classes) is np.ndarray and classes.ndim == 1 and classes.dtype.kind in "biuf" and \
            issubclass(type(est), base.ClassifierMixin) and outputs in (None, 1):
        if method == "predict":
            return lambda n: Abstract("ndarray", (n,), classes.dtype.kind)
        if method in ("predict_proba", "predict_log_proba"):
            return lambda n: Abstract("ndarray", (n, len(classes)), "f")
    if issubclass(type(est), base.RegressorMixin) and type(outputs) is int and outputs == 1 and method == "predict":
        return lambda n: Abstract("ndarray", (n,), "f")
    # a Gaussian mixture: "labels : array, shape (n_samples,)" of its components, and their
    # "probabilities : array, shape (n_samples, n_components)", one component per weight
    weights = own.get("weights_")
    if issubclass(type(est), base.DensityMixin) and POLICY.class_module(type(est)).startswith("sklearn.mixture.") and \
            type(weights) is np.ndarray and weights.ndim == 1:
        if method == "predict":
            return lambda n: Abstract("ndarray", (n,), "i")
        if method in ("predict_proba",):
            return lambda n: Abstract("ndarray", (n, len(weights)), "f")
    return None


def _multilabel(v) -> bool:
    """A label binarizer a fit made of targets of several labels a row (`y_type_` multilabel):
    the classifier predicts (n_samples, n_labels)."""
    preprocessing = sys.modules.get("sklearn.preprocessing")
    if preprocessing is None or type(v) is not preprocessing.LabelBinarizer:
        return False
    kind = POLICY.own_dict(v).get("y_type_")
    return type(kind) is not str or kind.startswith("multilabel")


def split(node: ast.Call, shaped: Shaped, value: Read):
    """train_test_split(*arrays, test_size=..., ...): each array's train and test parts, of
    the same kind and columns, with the rows scikit-learn's own arithmetic gives. Its options
    are literals; `random_state` also numpy's RandomState (live, or the cell's: it
    draws the rows, never their count; a Generator scikit-learn refuses)."""
    keywords = {k.arg: _literal(k.value) for k in node.keywords}
    if "random_state" in keywords and keywords["random_state"] is UNRESOLVED and \
            random_state_value(value(next(k.value for k in node.keywords if k.arg == "random_state"))):
        keywords["random_state"] = None         # (scikit-learn's check_random_state refuses a Generator)
    if not node.args or set(keywords) - _SPLIT_OPTIONS or any(v is UNRESOLVED for v in keywords.values()) or \
            type(keywords.get("random_state")) not in (int, type(None)):
        return None                             # (check_random_state refuses any other literal)
    parts = [shaped(a) for a in node.args]
    if any(p is None or p.like not in ("ndarray", "Series", "DataFrame") or not p.ndim for p in parts):
        return None
    rows = {p.shape[0] for p in parts}
    if len(rows) != 1 or None in rows:
        return None
    from sklearn.model_selection._split import _validate_shuffle_split
    n_train, n_test = _validate_shuffle_split(rows.pop(), keywords.get("test_size"), keywords.get("train_size"),
                                              default_test_size=0.25)
    return tuple(replace(p, shape=(n,) + p.shape[1:]) for p in parts for n in (n_train, n_test))



def generated(name: str, target, node: ast.Call, value: Read, number: Read) -> tuple | None:
    """scikit-learn's sample generators, their arguments (literals, or plain data and numbers the
    cell or the kernel holds: _argument) bound to their signature: (X of shape (n_samples,
    n_features), y of (n_samples,)) as their documentation gives them (n_samples a sequence: its
    sum; make_moons and make_circles: 2 features; make_blobs' centers given as points: as many
    features as each point has, one point for each count of a sequence n_samples); anything that
    changes what they return (coef=True, several targets) is unknown. `random_state` may be any
    expression: it draws the values, never the shapes."""
    if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        return None
    given = [_argument(a, value, number) for a in node.args]
    named = {k.arg: None if k.arg == "random_state" else _argument(k.value, value, number) for k in node.keywords}
    if any(v is UNRESOLVED for v in [*given, *named.values()]):
        return None
    try:
        bound = inspect.signature(target).bind(*given, **named)
    except TypeError:
        return None
    bound.apply_defaults()
    arguments = bound.arguments
    n, centers = arguments["n_samples"], arguments.get("centers")
    points = _points(centers) if name == "make_blobs" and centers is not None and type(centers) is not int else None
    if points is not None and (type(n) is int or type(n) in (list, tuple) and len(n) == points[0]):
        centers = None                         # the points: their count and width
    if type(n) in (list, tuple) and name in ("make_blobs", "make_moons", "make_circles") and \
            all(type(k) is int for k in n) and (name != "make_blobs" or centers is None) and \
            (name == "make_blobs" or len(n) == 2):
        n = sum(n)
    features = 2 if name in ("make_moons", "make_circles") else points[1] if points is not None else \
        arguments["n_features"]
    spread = arguments.get("cluster_std")
    if name == "make_blobs" and type(spread) in (list, tuple):
        given_n = arguments["n_samples"]
        count = points[0] if points is not None else len(given_n) if type(given_n) in (list, tuple) else \
            arguments.get("centers") if type(arguments.get("centers")) is int else 3
        if len(spread) != count:
            return None                         # scikit-learn refuses a cluster_std of another count
    if type(n) is not int or type(features) is not int or n < 1 or features < 1 or \
            type(centers) not in (int, type(None)) or arguments.get("return_centers") or \
            arguments.get("return_X_y", True) is not True or arguments.get("coef") or arguments.get("n_targets", 1) != 1:
        return None
    return Abstract("ndarray", (n, features), "f"), Abstract("ndarray", (n,), "f" if name == "make_regression" else "i")


def _points(centers) -> tuple[int, int] | None:
    """make_blobs' centers given as points (a list or tuple of equal-length lists or tuples of
    numbers, at least one of at least one): how many, and their width."""
    if type(centers) not in (list, tuple) or not centers or \
            any(type(c) not in (list, tuple) or not c or any(type(x) not in (int, float) for x in c) for c in centers):
        return None
    widths = {len(c) for c in centers}
    return (len(centers), widths.pop()) if len(widths) == 1 else None
