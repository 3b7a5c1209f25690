"""The class of a value the cell makes, where Python or a library fixes it without anything
running: a literal, a display or comprehension, an f-string, a builtin constructor (`dict(...)`,
`list(...)`, `sorted(...)` is a list, `len(...)` an int), a library class whose call makes exactly
its own instance (`pd.Categorical(...)`, `Counter(...)`: LIBRARY_CONSTRUCTORS), and an abstract
value of a known class (abstract.py: an ndarray, a DataFrame whose columns are known, a
scikit-learn estimator, numpy's random Generator, matplotlib's Axes and Figure). What such a value lacks, its class lacks (`missing_attribute`): read with getattr_static on the class.

A builtin's instance gets no attribute of its own (no `__dict__`, a static type), so what the cell
stores into it changes none (`Instance.fixed`); a DataFrame answers `df.col` from its columns, so
only a frame whose columns are known is judged, never on a name a column could be; an estimator's
instance holds its parameters and what `fit` sets (names ending in `_`), never judged on those. A
value of another library class (returns.py: `pd.Series(...)`, `rng.uniform(...)`) is judged on
an attribute only when its instances hold none of their own; its methods' signatures hold always.
"""
from __future__ import annotations

import ast
import builtins
import functools
import sys
import types
from collections.abc import Callable

from .abstract_matplotlib import (axes_class, axes_names, drawn_class, figure_class, figure_hooks, figure_names,
                                  projection_axes_class, projection_names, spelled_by_matplotlib)
from .abstract_value import ESTIMATOR_KEEPING, Abstract, random_generator_draw
from .dataset_loaders import bunch_class
from .attributes import MISSING, generic_lookup, overrides_lookup, static_type
from .libraries import own_classes, own_function
from .namespace import UNRESOLVED, Made
from .pandas_lookup import instance_names, lookup
from .read_policy import POLICY

_DISPLAYS = {ast.Dict: dict, ast.List: list, ast.Set: set, ast.Tuple: tuple, ast.ListComp: list,
             ast.SetComp: set, ast.DictComp: dict, ast.JoinedStr: str}
# builtins whose result is always of exactly this class, whatever they are given (if they return)
_CONSTRUCTORS = {"dict": dict, "list": list, "set": set, "frozenset": frozenset, "tuple": tuple,
                 "sorted": list, "len": int}
_CONSTANTS = (str, bytes, int, float, complex, bool, type(None))
# library classes whose call returns an instance of exactly that class (or raises), holding no
# public attribute of its own; tests/test_kernel_facts.py holds each against the installed library
LIBRARY_CONSTRUCTORS = (("pandas", "Categorical"), ("pandas", "CategoricalIndex"), ("pandas", "DatetimeIndex"),
                        ("pandas", "Interval"), ("collections", "Counter"), ("collections", "OrderedDict"),
                        ("collections", "defaultdict"), ("collections", "deque"), ("datetime", "datetime"),
                        ("datetime", "date"), ("datetime", "timedelta"), ("numpy.random", "RandomState"))


class Instance(Made):
    """An object the cell makes whose class is known: a builtin's (attributes fixed by it), or
    the class a library call declares it returns (returns.py); of a literal display of plain
    data (`grid = {"C": [1, 10]}`), also its value (an equal copy, read while flow.py finds the
    cell's own object unchanged); of a loader's Bunch, what its keys hold (`parts`)."""
    __slots__ = ("cls", "_value", "_labels", "_parts")

    def __init__(self, cls: type, value=UNRESOLVED, labels: frozenset[str] | None = None, parts: dict | None = None):
        self.cls = cls
        self._value = value
        self._labels = labels
        self._parts = parts

    def literal(self):
        return self._value

    def of_class(self) -> type:
        return self.cls

    def labels(self) -> frozenset[str] | None:
        return self._labels

    def part(self, step: ast.AST):
        if self._parts is None:
            return UNRESOLVED
        key = step.attr if isinstance(step, ast.Attribute) else \
            step.slice.value if isinstance(step, ast.Subscript) and isinstance(step.slice, ast.Constant) else None
        return self._parts.get(key, UNRESOLVED) if type(key) is str else UNRESOLVED

    @property
    def fixed(self) -> bool:
        """Whatever is done to it, it gets no attribute its class lacks."""
        return self.cls in _DISPLAYS.values() or self.cls in _CONSTANTS or self.cls is frozenset or \
            _without_own_attributes(self.cls)

    def keeps(self, method: str, inplace: bool) -> bool:
        """An estimator's own methods leave its class and parameters (what `fit` sets ends in
        `_`); anything else may hold what it is given (flow.py follows that)."""
        return estimator_class(self.cls) and method in ESTIMATOR_KEEPING or \
            display_class(self.cls) and method == "plot" or \
            random_generator_draw(self.cls, method) or \
            drawn_method(self.cls, method)      # (a display's plot sets names ending in `_` alone)


def drawn_method(cls: type, method: str) -> bool:
    """Is `method` matplotlib's own function on `cls`, a class of matplotlib's drawn objects (an
    Artist's, or a Colorbar's), every function of whose classes is matplotlib's own? Its code
    changes that object and what it draws, never the names of its Axes or Figure nor anything the
    cell holds (a function of the user's given to it is the flow's callback)."""
    artist = sys.modules.get("matplotlib.artist")
    colorbar = sys.modules.get("matplotlib.colorbar")
    bases = [POLICY.static(m, n, None) for m, n in ((artist, "Artist"), (colorbar, "Colorbar")) if m is not None]
    if not POLICY.is_library(cls) or not any(isinstance(b, type) and b in POLICY.mro(cls) for b in bases):
        return False
    return own_function(POLICY.static(cls, method, None), "matplotlib") and own_classes(cls, "matplotlib")


def _without_own_attributes(cls: type) -> bool:
    """A library class whose instances hold no attribute of their own (no instance `__dict__`,
    Python's generic lookup): a compiled class such as numpy's Generator or re's Pattern."""
    if not POLICY.is_library(cls) or not generic_lookup(cls):
        return False
    try:
        return not any("__dict__" in POLICY.class_members(k)
                       for k in POLICY.mro(cls) if k is not object)
    except Exception:  # noqa: BLE001
        return False


def estimator_class(cls: type) -> bool:
    base = sys.modules.get("sklearn.base")
    return base is not None and issubclass(type(cls), type) and issubclass(cls, base.BaseEstimator) and \
        POLICY.is_library(cls)


def display_class(cls: type) -> bool:
    """One of scikit-learn's own plotting Displays (a `...Display` class of its own with a `plot`):
    its instance holds its constructor's parameters and what `plot` sets, names ending in `_`
    (tests/test_cell_made_facts.py holds every Display's source to it)."""
    return issubclass(type(cls), type) and POLICY.is_library(cls) and \
        str(POLICY.class_module(cls)).startswith("sklearn.") and cls.__name__.endswith("Display") and \
        type(POLICY.static(cls, "plot", None)) is types.FunctionType


def made_display(callee) -> type | None:
    """`XDisplay.from_estimator(...)`, `from_predictions`, `from_cv_results`: each of scikit-learn's
    Displays makes an instance of the class it is called on and returns its `plot()`, the
    instance itself ("Returns: display")."""
    if type(callee) is not types.MethodType or not display_class(callee.__self__):
        return None
    name = callee.__func__.__name__ if type(callee.__func__) is types.FunctionType else None
    return callee.__self__ if type(name) is str and name.startswith("from_") else None


def returns_itself(cls: type, method: str) -> bool:
    """Does `method` of a scikit-learn estimator class of its own return the estimator itself
    (flow.RETURNS_SELF: its estimator checks hold every estimator's `fit` to it, `set_params` and
    `set_output` document it)? `set_output` exists only where the class wraps `transform` and
    has `get_feature_names_out` (its `available_if`); elsewhere it raises AttributeError itself."""
    from .flow import RETURNS_SELF
    if method == "plot" and display_class(cls):
        return True                     # a Display's plot: "Returns: display"
    if method not in RETURNS_SELF or not estimator_class(cls) or POLICY.static(cls, method, None) is None:
        return False
    if method != "set_output":           # a plain function: no `available_if` that may refuse it
        return type(POLICY.static(cls, method, None)) is types.FunctionType
    keys = POLICY.static(cls, "_sklearn_auto_wrap_output_keys", None)
    return type(keys) in (set, frozenset) and "transform" in keys and \
        type(POLICY.static(cls, "get_feature_names_out", None)) is types.FunctionType


def never_learned(cls: type, attr: str) -> bool:
    """A public name ending in `_` that no fit of a scikit-learn estimator class of its own sets:
    scikit-learn documents every attribute a fit sets in its class's "Attributes" section (its
    test_fit_docstring_attributes holds each estimator to it); a class member is none of these.
    A Display's `plot` sets what its "Attributes" section names too."""
    if attr.startswith("_") or not attr.endswith("_") or not (estimator_class(cls) or display_class(cls)):
        return False
    documented = fitted_attributes(cls)
    return documented is not None and attr not in documented and POLICY.static(cls, attr, MISSING) is MISSING


def learned_names(cls: type) -> frozenset[str]:
    """What a fit of a scikit-learn estimator class may set (a fix may name one); none for others."""
    return (fitted_attributes(cls) or frozenset()) if estimator_class(cls) or display_class(cls) else frozenset()


@functools.lru_cache(maxsize=256)
def fitted_attributes(cls: type) -> frozenset[str] | None:
    """The names in a numpydoc "Attributes" section of the class's own docstring (`name : type`
    lines at the section's indent); None when it has none."""
    doc = POLICY.static(cls, "__doc__", None)
    if type(doc) is not str:
        return None
    lines = doc.expandtabs().splitlines()
    for k in range(len(lines) - 1):
        if lines[k].strip() == "Attributes" and set(lines[k + 1].strip()) == {"-"}:
            indent = len(lines[k]) - len(lines[k].lstrip())
            break
    else:
        return None
    names = set()
    for k in range(k + 2, len(lines)):
        line = lines[k]
        if not line.strip() or len(line) - len(line.lstrip()) > indent:
            continue
        if len(line) - len(line.lstrip()) < indent or \
                (k + 1 < len(lines) and set(lines[k + 1].strip()) == {"-"}):
            break                       # the docstring's end, or the next section's title
        head = line.split(" : ")[0].strip()
        names |= {n.strip() for n in head.split(",")}
    return frozenset(names) if names else None


def made_class(node: ast.AST, builtin: Callable[[ast.expr], object]) -> type | None:
    """The class of what `node` evaluates to, when Python fixes it (`builtin(func)`: the object a
    called name stands for, Python's builtin only where neither the kernel nor the cell rebinds it)."""
    if isinstance(node, ast.Constant):
        return type(node.value) if isinstance(node.value, _CONSTANTS) else None
    if type(node) in _DISPLAYS:
        return _DISPLAYS[type(node)]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _CONSTRUCTORS:
        name = node.func.id
        if builtin(node.func) is getattr(builtins, name):
            return _CONSTRUCTORS[name]
    if isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute)):
        return library_constructor(builtin(node.func))
    return None


def library_constructor(target) -> type | None:
    """`target` when it is one of LIBRARY_CONSTRUCTORS itself (the module's own object)."""
    if not issubclass(type(target), type):
        return None
    for module, name in LIBRARY_CONSTRUCTORS:
        mod = sys.modules.get(module)
        if mod is not None and POLICY.module_members(mod).get(name) is target:
            return target
    return None


def instance_class(v) -> tuple[type, frozenset[str]] | None:
    """For a value the cell made: its class and the names its instance may hold beyond the class's
    (a frame's columns, an estimator's parameters); None when neither is known."""
    if type(v) is Instance:
        if estimator_class(v.cls):
            return _estimator_names(v.cls)
        if display_class(v.cls):
            return _display_names(v.cls)
        if v.cls in (axes_class(), figure_class()) or projection_axes_class(v.cls):
            return None                         # `plt.gcf()`: one pyplot holds may hold anything set on it
        if v.cls is bunch_class():             # a loader's Bunch: its keys, where its source names them
            return (v.cls, v.labels()) if v.labels() is not None else None
        if lookup(v.cls) is not None:           # pandas answers labels: known only where they are
            names, labels = instance_names(v.cls), v.labels()
            return None if names is None or labels is None else (v.cls, labels | names)
        return v.cls, frozenset()
    if not issubclass(type(v), Abstract):
        return None
    if v.like == "ndarray" and v.ndim >= 1:       # never a numpy scalar (its class has more)
        np = sys.modules.get("numpy")
        return (np.ndarray, frozenset()) if np is not None else None
    if v.like == "Generator":                   # numpy's, a compiled class: no attribute of its own
        np = sys.modules.get("numpy")
        return (np.random.Generator, frozenset()) if np is not None else None
    if v.like == "DataFrame" and v.columns is not None:
        pd = sys.modules.get("pandas")
        return (pd.DataFrame, frozenset(str(c) for c, _ in v.columns)) if pd is not None else None
    if v.like == "Series" and (v.index_words is False or v.index_labels is not None):
        pd = sys.modules.get("pandas")            # its index answers no name, or the labels written
        words = frozenset(x for x in v.index_labels or () if type(x) is str)
        return (pd.Series, frozenset() if v.index_words is False else words) if pd is not None else None
    if v.like == "estimator" and v.estimator is not None:
        return _estimator_names(v.estimator)
    if v.like == "ConfusionMatrixDisplay":
        metrics = sys.modules.get("sklearn.metrics")
        cls = POLICY.static(metrics, "ConfusionMatrixDisplay", None) if metrics is not None else None
        return _display_names(cls) if cls is not None and display_class(cls) else None
    if v.like == "Axes":                        # matplotlib's own class, no projection's
        return axes_names()
    if v.like == "projection" and v.axes is not None:
        return projection_names(v.axes)
    if v.like == "Figure" and not figure_hooks():   # matplotlib's own class, nothing of the user's run on it
        return figure_names()
    return None


def _estimator_names(cls: type) -> tuple[type, frozenset[str]] | None:
    """An estimator's class and its parameters' names (its instance holds those)."""
    try:
        return cls, frozenset(cls._get_param_names())
    except Exception:  # noqa: BLE001
        return None


def _display_names(cls: type) -> tuple[type, frozenset[str]] | None:
    """A Display's class and its constructor's parameters (its instance holds those)."""
    init = POLICY.signature(cls)
    return None if init is None else (cls, frozenset(init.parameters))


def missing_attribute(cls: type, held: frozenset[str], attr: str) -> bool:
    """Does an instance of `cls` (holding at most `held` of its own) surely lack `attr`?"""
    if attr.startswith("_") or attr in held:
        return False                    # pandas' and scikit-learn's instances hold private names
    try:
        if POLICY.static(cls, attr, MISSING) is not MISSING:
            return False
    except Exception:  # noqa: BLE001
        return False
    pd, np = sys.modules.get("pandas"), sys.modules.get("numpy")
    if pd is not None and cls is pd.DataFrame or lookup(cls) is not None:
        return True                     # its `__getattr__` answers its labels only (in `held`)
    if np is not None and cls in (np.ndarray, np.random.Generator) or cls in _CONSTRUCTORS.values() or \
            cls in _CONSTANTS:
        return static_type(cls) and generic_lookup(cls)
    if library_constructor(cls) is not None:
        return not overrides_lookup(cls)      # its instance holds no public name of its own
    if cls is bunch_class():           # its `__getattr__` answers its keys (in `held`) alone
        return True
    if cls is axes_class() or cls is figure_class() or projection_axes_class(cls):   # its instance's own names in `held`
        return not overrides_lookup(cls)
    if estimator_class(cls) or display_class(cls):     # `fit`, `plot` set names ending in `_`, each documented
        return (not attr.endswith("_") or never_learned(cls, attr)) and not overrides_lookup(cls)
    if drawn_class(cls):                # what matplotlib sets on it, its source spells
        return not spelled_by_matplotlib(attr) and not overrides_lookup(cls)
    return _without_own_attributes(cls)
