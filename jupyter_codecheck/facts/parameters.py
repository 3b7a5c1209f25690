"""The parameters a scikit-learn estimator's `fit` rejects, as scikit-learn's own `fit` finds them
before it reads the data: `LogisticRegression(solver="liblinear", penalty="elasticnet").fit(X, y)`
(its solver/penalty rule), `RandomForestClassifier(n_estimators=0).fit(X, y)` (the parameter
constraints `fit` validates first), `make_pipeline(PCA(), SVC()).set_params(svc__gama=1)` (a name
that is none of its parameters, nor of a step's; on a live estimator, read on scikit-learn's
`clone` of it: `parameters_copy`). And a scikit-learn function's literal arguments its own
`validate_params` refuses before the function runs: `cross_val_score(m, X, y,
scoring="neg_mean_squared_eror")`, `train_test_split(X, test_size=1.5)` (constraint_claim).

The estimator is the one the cell makes with literal arguments (abstract.py: scikit-learn's
class, and every estimator it holds, made so; only their `__init__` ran). Its method is called on
a new instance with stand-ins for the data that stop the call at their first use (any attribute,
operator, conversion or `isinstance` of them): what scikit-learn raises before that is its rule
on the parameters alone, the same whatever the data. A stand-in reached, or anything else raised,
is no claim. No user code runs: nothing of the user's is in the estimator or its arguments.
"""
from __future__ import annotations

import ast
import difflib
import inspect
import sys
import types
import warnings

from .abstract_value import _literal
from .estimators import estimator_parameters, sklearn_classes, sklearn_estimator
from .namespace import UNRESOLVED, chain_root
from .read_policy import POLICY
from .claims import Text, ValueClaim

# the methods that validate the parameters first (scikit-learn's `_fit_context`), and
# `set_params`, which finds each name among `get_params(deep=True)` before it stores the value
FITTING = frozenset({"fit", "fit_transform", "fit_predict", "partial_fit", "set_params"})


class _DataReached(BaseException):
    """A stand-in was used: scikit-learn went on to the data (a BaseException: no `except
    Exception` of the library's takes it for its own error)."""


def _reached(*args, **kwargs):
    raise _DataReached


class _Unread:
    """X, y or another argument of the call, never read: every use raises _DataReached."""
    __slots__ = ()

    def __getattribute__(self, name):
        raise _DataReached


for _name in ("__len__", "__iter__", "__getitem__", "__setitem__", "__contains__", "__bool__", "__eq__", "__ne__",
              "__lt__", "__le__", "__gt__", "__ge__", "__hash__", "__repr__", "__str__", "__format__", "__array__",
              "__index__", "__int__", "__float__", "__complex__", "__add__", "__radd__", "__sub__", "__rsub__",
              "__mul__", "__rmul__", "__truediv__", "__rtruediv__", "__matmul__", "__rmatmul__", "__neg__",
              "__abs__", "__call__", "__getstate__", "__reduce__", "__reduce_ex__", "__copy__", "__deepcopy__",
              "__sizeof__", "__dir__", "__instancecheck__", "__fspath__", "__buffer__", "__enter__", "__exit__"):
    setattr(_Unread, _name, _reached)


def fit_parameter_problem(est, method: str, positional: int, keywords: list[str]) -> str | None:
    """What scikit-learn's `est.method(...)` raises about `est`'s parameters before it reads any
    argument (`positional` arguments and these `keywords` given), in a line ending with the
    exception's name; None when it reads an argument first, or anything else happens."""
    # set_params runs no fitted-state check: a composite that answers that itself may be read
    readable = sklearn_classes if method == "set_params" else sklearn_estimator
    if method not in FITTING or est is None or not readable(est):
        return None
    function = POLICY.static(type(est), method, None)
    if not inspect.isfunction(function):
        return None
    arguments = [_Unread() for _ in range(positional)]
    named = {k: _Unread() for k in keywords}
    try:
        inspect.signature(function).bind(est, *arguments, **named)
    except TypeError:
        return None                                    # the signature's fact (signatures.py)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            getattr(est, method)(*arguments, **named)
    except _DataReached:
        return None
    except (ValueError, TypeError) as e:
        if _from_the_data(e):
            return None
        message = " ".join(str(e).split()).rstrip(".")       # an estimator's repr spans lines
        return f"{type(est).__name__}'s parameters: {message}: {type(e).__name__}" if message else None
    except Exception:  # noqa: BLE001 - anything else: no claim
        return None
    return None


_TARGETS = (0, 1)


def mapping_x_problem(est, method: str, mapping: type) -> str | None:
    """The exception scikit-learn's fit-like `method` raises for an X that is a dict (or a
    dataset's Bunch) rather than data: asked of a new copy of `est` (parameters_copy) given an
    empty object of X's class and two labels for y (X is checked before y is read). The estimator's own
    input check converts X (a 0-d object array, never its items): TypeError or ValueError, as its
    dtype rule says. None where the check reads anything else first."""
    if method not in ("fit", "fit_predict", "fit_transform"):
        return None                     # a fitted estimator's methods check its fit first
    copy = parameters_copy(est)
    if copy is None:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            getattr(copy, method)(mapping(), _TARGETS)
    except _DataReached:
        return None
    except (ValueError, TypeError) as e:
        return type(e).__name__
    except Exception:  # noqa: BLE001 - anything else: no claim
        return None
    return None


# what Pipeline's fit, fit_transform and fit_predict call on each step before the last (its
# `_fit_transform_one`: fit_transform) and on the last
_STEP_FITS = {"fit": "fit", "fit_transform": "fit_transform", "fit_predict": "fit_predict"}


def step_parameter_problem(pipe, method: str, positional: int, keywords: list[str]) -> str | None:
    """`make_pipeline(StandardScaler(), SVC(kernel="rbff")).fit(X, y)`: Pipeline's fit fits its
    steps in order, and each step's own fit validates that step's parameters first (its
    `_fit_context`), so a step whose parameters its fit rejects makes the pipeline's fit raise
    (an earlier step may refuse X first: it raises either way). `pipe` is a Pipeline the cell
    made, of scikit-learn's own classes, given X (and y) alone and no cache (`memory`); each
    step is read by fit_parameter_problem on a new instance of its class and parameters (a live
    step is left as it is)."""
    pipeline, base = sys.modules.get("sklearn.pipeline"), sys.modules.get("sklearn.base")
    if method not in _STEP_FITS or keywords or not 1 <= positional <= 2 or pipeline is None or base is None or \
            type(pipe) is not pipeline.Pipeline or not sklearn_classes(pipe):
        return None
    own = POLICY.own_dict(pipe)
    steps = own.get("steps")
    if own.get("memory") is not None or type(steps) is not list or not steps:
        return None
    try:
        if not hasattr(pipe, method):
            return None                 # `available_if`: the last step has no such method
    except Exception:  # noqa: BLE001 - a pipeline that reads otherwise: no claim
        return None
    for i, step in enumerate(steps):
        if type(step) is not tuple or len(step) != 2:
            return None
        est = step[1]
        if est is None or type(est) is str:
            continue                    # "passthrough" (or None): nothing fitted there
        last = i == len(steps) - 1
        fit = _STEP_FITS[method] if last else "fit_transform"
        if POLICY.static(type(est), fit, None) is None:
            if last:
                return None
            fit = "fit"                 # fit, then transform
        copy = parameters_copy(est)
        problem = fit_parameter_problem(copy, fit, 2, []) if copy is not None else None
        if problem is not None:
            after = ", after the steps before it" if any(type(e) is not str and e is not None for _, e in steps[:i]) \
                else ""
            return f"step {step[0]!r}{after}: {problem}"
    return None


def missing_target_problem(est, method: str, positional: int, keywords: list[str]) -> str | None:
    """`SVC(kernel="poly").fit(X)`, `make_pipeline(StandardScaler(), SVC()).fit(X)`: y left out
    (None) where the estimator that fits last needs it (its tags' `target_tags.required`):
    scikit-learn's `validate_data` raises ValueError ("requires y to be passed") before it checks
    X. Read by that estimator's own fit, on a new copy (parameters_copy), given a small array of
    zeros for X and no y: claimed where it raises that error (a Pipeline's earlier steps run
    first, on X: the fit raises either way)."""
    np, pipeline = sys.modules.get("numpy"), sys.modules.get("sklearn.pipeline")
    if method != "fit" or positional != 1 or keywords or np is None or est is None:
        return None
    final, after = est, ""
    if pipeline is not None and type(est) is pipeline.Pipeline:
        steps = POLICY.own_dict(est).get("steps")
        if type(steps) is not list or POLICY.own_dict(est).get("memory") is not None or \
                not all(type(s) is tuple and len(s) == 2 for s in steps):
            return None
        fitted = [e for _, e in steps if e is not None and type(e) is not str]
        final = fitted[-1] if fitted else None
        after = ", after the steps before it" if len(fitted) > 1 else ""
    if final is None or not sklearn_estimator(final, alone=True) or not sklearn_classes(est):
        return None
    try:                                # Python's TypeError first where fit's y has no default
        inspect.signature(POLICY.static(type(est), "fit")).bind(est, None)
    except (TypeError, ValueError, AttributeError):
        return None
    copy = parameters_copy(final)
    if copy is None:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            copy.fit(np.zeros((2, 1)), None)
    except ValueError as e:
        said = " ".join(str(e).split())
        if "requires y to be passed" in said:
            return f"y left out{after}: {said.rstrip('.')}: ValueError"
    except Exception:  # noqa: BLE001 - anything else: not this rule's
        return None
    return None


def grid_key_problem(est, grids: list[list[str]]) -> str | None:
    """`GridSearchCV(make_pipeline(..., SVC()), {"svc__gama": [...]}).fit(X, y)`: the search fits
    every candidate of its grid (RandomizedSearchCV: of its one dict) on a clone of `est` given
    the candidate's parameters by `set_params` (its `_fit_and_score`, outside the part that
    `error_score` guards), and set_params refuses a name none of `get_params(deep=True)` holds
    (ValueError). A key is claimed only where no other key of its sub-grid may replace what its
    path goes through (an estimator or a list of steps: then the name may be valid after it),
    and scikit-learn's own set_params, on a copy of `est` (parameters_copy), refuses it."""
    base = sys.modules.get("sklearn.base")
    copy = parameters_copy(est) if base is not None else None
    if copy is None:
        return None
    try:
        params = copy.get_params(deep=True)
    except Exception:  # noqa: BLE001 - an estimator that reads otherwise: no claim
        return None
    for keys in grids:
        if any(k in params and (type(params[k]) in (list, tuple) or sklearn_classes(params[k])) for k in keys):
            continue                    # a step or estimator replaced: what the other names mean may change
        for key in sorted(keys):
            if key in params:
                continue
            problem = fit_parameter_problem(base.clone(copy), "set_params", 0, [key])
            if problem is not None:
                return f"the grid's {key!r}: {problem}"
    return None


def parameters_copy(est):
    """A new estimator of a live one's class and parameters, not fitted (scikit-learn's own
    `clone`), for `set_params` to be read on without changing the user's: only where its class
    and every estimator it holds are scikit-learn's, none holding a callable or a name of its
    class's members in its own dict (`enet.set_params = ...`, an own `get_params` or
    `__sklearn_clone__`: the live one's would run, not the class's), and every other parameter
    value is plain data (`clone` deep-copies those: nothing of the user's runs); None otherwise."""
    base = sys.modules.get("sklearn.base")
    if base is None or not sklearn_classes(est) or not _plain_parameters(est):
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return base.clone(est)
    except Exception:  # noqa: BLE001 - an estimator clone refuses: no claim
        return None


def _plain_parameters(est, depth: int = 0) -> bool:
    """Are the estimator's parameter values, at any depth, numbers, text, None, numpy's arrays
    and scalars of plain numbers, text or dates, a library's classes, containers of them, or
    scikit-learn's estimators of such, none holding in its own dict a callable or a name its
    class defines (the class's methods, as scikit-learn wrote them, are the ones that run)?"""
    try:
        own = POLICY.own_dict(est)
    except AttributeError:
        return False
    if not _library_methods(type(est)) or \
            any(callable(v) or _shadows_a_method(type(est), k) for k, v in own.items()):
        return False
    params = estimator_parameters(est)
    return depth < 5 and params is not None and all(_plain_value(v, depth) for v in params.values())


def _shadows_a_method(cls: type, name: str) -> bool:
    """Is `name`, set on an instance of `cls`, special or a method, property or other descriptor
    of the class (`enet.get_params = 5`: the instance's would be looked up, not the class's)?"""
    member = POLICY.static(cls, name, _ABSENT)
    return name.startswith("__") or (member is not _ABSENT and
                                     POLICY.static(type(member), "__get__", None) is not None)


def _library_methods(cls: type) -> bool:
    """Are the methods, properties and class or static methods of `cls` and its bases the
    library's own, none set on the class by the user (`ElasticNet.set_params = ...`)?"""
    for k in POLICY.mro(cls):
        for member in POLICY.class_members(k).values():
            kind = type(member)
            if kind in (classmethod, staticmethod):
                member = member.__func__        # exactly these classes: a C member, nothing runs
            elif kind is property:
                member = POLICY.property_getter(member)
            if type(member) is types.FunctionType and not POLICY.is_library(member):
                return False
    return True


_ABSENT = object()
# numpy's kinds of plain data: bools, integers, floats, complex numbers, text, bytes, dates and
# time spans (no object or structured fields: a copy or repr of those runs their objects' code)
_PLAIN_KINDS = frozenset("biufcUSMm")


def _plain_value(v, depth: int) -> bool:
    np = sys.modules.get("numpy")
    if v is None or type(v) in (bool, int, float, complex, str, bytes, range):
        return True
    if type(v) is type:             # `dtype=np.float64`: a library's class, looked up by clone
        return POLICY.is_library(v)
    if type(v) in (list, tuple, set, frozenset):
        return all(_plain_value(x, depth) for x in v)
    if type(v) is dict:
        return all(_plain_value(k, depth) and _plain_value(x, depth) for k, x in v.items())
    if np is not None and (type(v) is np.ndarray or issubclass(type(v), np.generic)):
        return POLICY.is_library(type(v)) and v.dtype.kind in _PLAIN_KINDS and not v.dtype.hasobject
    return sklearn_classes(v) and _plain_parameters(v, depth + 1)


def _from_the_data(e: BaseException) -> bool:
    """Was a stand-in reached on the way to `e` (an error the library raised while handling it)?"""
    seen = set()
    while e is not None and id(e) not in seen:
        if isinstance(e, _DataReached):
            return True
        seen.add(id(e))
        e = e.__cause__ or e.__context__
    return False


def constraint_claim(n: ast.Call, target, text: Text) -> ValueClaim | None:
    """A literal argument of a scikit-learn function that its `validate_params` wrapper refuses:
    the wrapper checks every argument against the function's `_skl_parameter_constraints` before
    the function runs and raises InvalidParameterError (a ValueError) on the first it refuses, so
    one literal refused is a certain crash whatever the other arguments are. Judged by
    scikit-learn's own `validate_parameter_constraints` on that literal alone (no user code: the
    literal is Python's plain data); a refused text among the options gets the nearest options."""
    validation, sklearn = sys.modules.get("sklearn.utils._param_validation"), sys.modules.get("sklearn")
    if validation is None or sklearn is None or type(target) is not types.FunctionType or \
            not POLICY.is_library(target) or not str(POLICY.module_of(target) or "").startswith("sklearn.") or \
            any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg is None for k in n.keywords):
        return None
    constraints = POLICY.static(target, "_skl_parameter_constraints", None)
    signature = POLICY.signature(target)
    if type(constraints) is not dict or signature is None or sklearn.get_config().get("skip_parameter_validation"):
        return None
    try:
        bound = signature.bind(*n.args, **{k.arg: k.value for k in n.keywords})
    except TypeError:
        return None                                    # the signature's fact (signatures.py)
    for name, node in bound.arguments.items():
        kind = signature.parameters[name].kind
        value = _literal(node) if isinstance(node, ast.expr) else UNRESOLVED
        if name not in constraints or kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD) or \
                value is UNRESOLVED:
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                validation.validate_parameter_constraints({name: constraints[name]}, {name: value},
                                                          caller_name=ast.unparse(n.func))
        except validation.InvalidParameterError as e:
            said = str(e).splitlines()[0]
            said = said if len(said) <= 160 else said[:157] + "..."
            root = chain_root(n.func)       # the function read: its literal argument has no other name
            return ValueClaim(node, f"{ast.unparse(n.func)}(): {said}: ValueError (InvalidParameterError)",
                              "ValueError", _nearest(value, constraints[name], text(node), validation),
                              subjects=(root,) if root is not None else None)
        except Exception:  # noqa: BLE001 - anything else: not this rule's
            continue
    return None


def _nearest(value, constraints, written: str | None, validation) -> list[str]:
    """The options of a text constraint (scikit-learn's StrOptions) nearest a refused text, quoted
    as it was written."""
    if type(value) is not str or written is None or type(constraints) is not list:
        return []
    options = sorted({o for c in constraints if type(c) is validation.StrOptions for o in c.options if type(o) is str})
    quote = '"' if written.startswith('"') else "'"
    return [f"{quote}{o}{quote}" for o in difflib.get_close_matches(value, options, n=3, cutoff=0.8)]


def constructor_claim(n: ast.Call, target) -> ValueClaim | None:
    """`KFold(n_splits=5, random_state=0)`, `KFold(1)`: a scikit-learn class whose own `__init__`
    checks its arguments (the cross-validation splitters; an estimator's only stores them), made
    with literal arguments alone: asked of the class itself with them (its `__init__` is
    scikit-learn's code on Python's plain data): the ValueError it raises."""
    if not issubclass(type(target), type) or not POLICY.is_library(target) or \
            not str(POLICY.module_of(target) or "").startswith("sklearn.") or \
            any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg is None for k in n.keywords):
        return None
    given = [_literal(a) for a in n.args]
    options = {k.arg: _literal(k.value) for k in n.keywords}
    if any(v is UNRESOLVED for v in [*given, *options.values()]):
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            target(*given, **options)
    except ValueError as e:
        if type(e) is not ValueError:
            return None                 # (InvalidParameterError and the like: what the fit says)
        return ValueClaim(n.func, f"{ast.unparse(n.func)}(): {str(e).splitlines()[0]}: ValueError", "ValueError",
                          callee=True, literal=True)
    except Exception:  # noqa: BLE001 - another refusal (a keyword it lacks: the signature's fact)
        return None
    return None
