"""The class of what a library call returns, where the library itself declares exactly one:

    a class called             a library's own class whose instances it makes as they are (its
                               metaclass `type` or `ABCMeta`, no `__new__` of its own): `pd.Series(...)`,
                               `SVC(C=c)`, whatever the arguments
    a documented class         a method whose documentation names one class where an argument is
                               not given (`_DOCUMENTED`: pandas' `rolling` without `win_type`)
    a function or method       a library's Python function whose return annotation names one class
                               (`-> DataFrame`, `-> list[str]`: list), read from its module's
                               globals; `-> Self` of a method: the receiver's class. An annotation
                               promises the class or a subclass (`-> Index` gives a DatetimeIndex),
                               so the class must have no subclass but its library's test helpers',
                               no metaclass (an ABC such as `Hashable`), and not be one of
                               Python's scalars (`-> int` gives numpy's int64)

A union (`DataFrame | None`), a name the module does not bind at run time (an import under
TYPE_CHECKING), an unannotated return, a compiled function, a call with `inplace=` (pandas then
returns None whatever the annotation says) or anything of the user's: None, no class. Nothing is
called: annotations are read as text or as the objects the function holds, names through the
module's dictionary.
"""
from __future__ import annotations

import abc
import ast
import functools
import inspect
import sys
import textwrap
import types
import typing

from .libraries import is_library_path
from .read_policy import POLICY

_METACLASSES = (type, abc.ABCMeta)
# methods whose documentation names exactly one class (where an argument is not given) that the
# annotation leaves open (a union, or a class a groupby's window subclasses): (module, qualname)
# -> (that parameter or None, the class's module and name). pandas' `rolling`: "An instance of
# Window is returned if win_type is passed. Otherwise, an instance of Rolling"
_DOCUMENTED = {("pandas.core.generic", "NDFrame.rolling"): ("win_type", "pandas.core.window.rolling", "Rolling"),
               ("pandas.core.generic", "NDFrame.expanding"): (None, "pandas.core.window.expanding", "Expanding"),
               ("pandas.core.generic", "NDFrame.ewm"): (None, "pandas.core.window.ewm", "ExponentialMovingWindow"),
               # scikit-learn's shorthands: "Returns: p : Pipeline" (a FeatureUnion, a ColumnTransformer)
               ("sklearn.pipeline", "make_pipeline"): (None, "sklearn.pipeline", "Pipeline"),
               ("sklearn.pipeline", "make_union"): (None, "sklearn.pipeline", "FeatureUnion"),
               ("sklearn.compose._column_transformer", "make_column_transformer"):
                   (None, "sklearn.compose._column_transformer", "ColumnTransformer"),
               **{("matplotlib.axes._axes", f"Axes.{m}"): (None, *made) for m, made in (
                   # matplotlib's Axes methods: "Returns: AxesImage", ... (each makes exactly that class)
                   ("imshow", ("matplotlib.image", "AxesImage")), ("scatter", ("matplotlib.collections", "PathCollection")),
                   ("text", ("matplotlib.text", "Text")), ("annotate", ("matplotlib.text", "Annotation")),
                   ("legend", ("matplotlib.legend", "Legend")), ("contour", ("matplotlib.contour", "QuadContourSet")),
                   ("contourf", ("matplotlib.contour", "QuadContourSet")),
                   ("pcolormesh", ("matplotlib.collections", "QuadMesh")),
                   ("pcolor", ("matplotlib.collections", "PolyQuadMesh")), ("axhline", ("matplotlib.lines", "Line2D")),
                   ("axvline", ("matplotlib.lines", "Line2D")), ("axline", ("matplotlib.lines", "AxLine")),
                   ("fill_between", ("matplotlib.collections", "FillBetweenPolyCollection")),
                   ("fill_betweenx", ("matplotlib.collections", "FillBetweenPolyCollection")),
                   ("secondary_xaxis", ("matplotlib.axes._secondary_axes", "SecondaryAxis")),
                   ("secondary_yaxis", ("matplotlib.axes._secondary_axes", "SecondaryAxis")),
                   ("vlines", ("matplotlib.collections", "LineCollection")),
                   ("hlines", ("matplotlib.collections", "LineCollection")),
                   ("axvspan", ("matplotlib.patches", "Rectangle")), ("axhspan", ("matplotlib.patches", "Rectangle")))},
               # a Figure's: "Returns: Colorbar", "Legend" (never `suptitle`, `set_title`, `set_xlabel`:
               # they return the Text the Figure or Axes already holds, which may be of any class)
               ("matplotlib.figure", "FigureBase.colorbar"): (None, "matplotlib.colorbar", "Colorbar"),
               # "Returns: GridSpec" (made there, of the Figure)
               ("matplotlib.figure", "FigureBase.add_gridspec"): (None, "matplotlib.gridspec", "GridSpec"),
               ("matplotlib.figure", "FigureBase.legend"): (None, "matplotlib.legend", "Legend")}
# annotations a library writes for values of other classes: numpy's scalars for `-> bool`, `-> int`
_LOOSE = frozenset({object, bool, int, float, complex, str, bytes})


def called_class(callee, receiver: type | None, keywords: list[str], n_args: int | None = None) -> type | None:
    """The class of `callee(...)`'s result (`receiver`: the class of the object a method is
    called on, for `-> Self`; `n_args`: the call's positional arguments, None if not known);
    None when the library does not declare exactly one."""
    if "inplace" in keywords or (receiver is not None and not POLICY.is_library(receiver)):
        return None                 # a subclass of the user's may return or take anything
    if issubclass(type(callee), type):
        return _instances_of(callee)
    func = callee.__func__ if type(callee) is types.MethodType else callee
    if type(func) is not types.FunctionType or not POLICY.is_library(func):
        return None
    documented = _DOCUMENTED.get((func.__module__, func.__qualname__))
    if documented is not None:
        return _documented(func, *documented, keywords, n_args)
    annotations = _annotations(func)
    if type(annotations) is not dict or "return" not in annotations:
        return None
    if receiver is not None and not any(k.__qualname__ == func.__qualname__.rpartition(".")[0]
                                        for k in POLICY.mro(receiver)):
        receiver = None             # a function of another class's, delegated (`s.dt.normalize`): not its Self
    return _annotated_class(annotations["return"], _defining_globals(func), receiver)


def _defining_globals(func: types.FunctionType) -> dict:
    """The globals of the module that defines `func`: a decorator's wrapper (functools.wraps)
    carries the wrapped function's `__module__` and annotations, not its globals."""
    module = sys.modules.get(func.__module__) if type(func.__module__) is str else None
    if isinstance(module, types.ModuleType) and func.__globals__.get("__name__") != func.__module__:
        return POLICY.module_members(module)
    return func.__globals__


def method_class(cls: type, name: str, keywords: list[str], n_args: int | None = None) -> type | None:
    """The class `obj.name(...)` returns for an `obj` of library class `cls`."""
    if not POLICY.is_library(cls):
        return None
    method = POLICY.static(cls, name, None)
    if type(method) is not types.FunctionType:
        return None                 # a property, a static or class method, a compiled method: not read
    return called_class(method, cls, keywords, n_args)


def _documented(func: types.FunctionType, parameter: str | None, module: str, name: str, keywords: list[str],
                n_args: int | None) -> type | None:
    """The class the documentation names for a call that does not give `parameter`, one the
    function surely accepts (its signature binds the arguments: `make_pipeline(*steps)` or
    `make_pipeline(a, b, nonsense=1)` may raise before it returns anything)."""
    if n_args is None:
        return None
    receiver = [None] if "." in func.__qualname__ else []       # a method's self
    try:
        inspect.signature(func).bind(*receiver, *[None] * n_args, **dict.fromkeys(keywords))
    except TypeError:
        return None
    if parameter is not None:
        if parameter in keywords:
            return None
        names = list(inspect.signature(func).parameters)[1:]       # after self
        if parameter not in names or n_args > names.index(parameter):
            return None
    mod = sys.modules.get(module)
    cls = POLICY.module_members(mod).get(name) if isinstance(mod, types.ModuleType) else None
    return cls if issubclass(type(cls), type) and POLICY.is_library(cls) else None


def _annotations(func: types.FunctionType) -> dict | None:
    """A function's annotations as Python stores them (a C member; on Python >= 3.14 the
    library's own annotate function runs)."""
    try:
        return POLICY.annotations(func)
    except Exception:  # noqa: BLE001 - annotations that cannot be read: no class
        return None


def _instances_of(cls: type) -> type | None:
    """`cls` when calling it makes an instance of exactly `cls`: a library's class whose
    metaclass calls `__new__` and `__init__` as Python does and whose `__new__` is object's."""
    if type(cls) not in _METACLASSES or not POLICY.is_library(cls):
        return None
    try:
        new = POLICY.static(cls, "__new__")
    except AttributeError:
        return None
    return cls if new is object.__new__ else None


def _annotated_class(annotation, namespace: dict, receiver: type | None) -> type | None:
    if type(annotation) is str:
        try:
            node = ast.parse(annotation, mode="eval").body
        except SyntaxError:
            return None
        if isinstance(node, ast.Name) and node.id == "Self":
            return receiver
        if isinstance(node, ast.Subscript):
            node = node.value           # `list[str]`: a list
        value = _named(node, namespace)
    else:
        if annotation is getattr(typing, "Self", None) and annotation is not None:   # 3.11+
            return receiver
        value = annotation.__origin__ if type(annotation) is types.GenericAlias else annotation
    if not issubclass(type(value), type) or not POLICY.is_library(value) or value in _LOOSE or \
            type(value) is not type or not _leaf(value):
        return None
    return value


def _leaf(cls: type, depth: int = 0) -> bool:
    """Has `cls` no subclass but its library's test helpers' (`pandas._testing`'s)?"""
    for sub in type.__subclasses__(cls):
        module = str(POLICY.class_module(sub))
        if depth > 4 or not {"_testing", "testing"} & set(module.split(".")) or not _leaf(sub, depth + 1):
            return False
    return True


def _named(node: ast.expr, namespace: dict):
    """`DataFrame`, `np.ndarray`: the object a dotted name stands for in a module's globals,
    through modules' own dictionaries only; a name the module imports only for type checkers
    (`if TYPE_CHECKING: from pandas.core.groupby.generic import DataFrameGroupBy`), from the
    module it names when that is loaded."""
    if isinstance(node, ast.Name):
        if node.id in namespace:
            return namespace[node.id]
        where = _type_checking_imports(namespace.get("__file__")).get(node.id)
        if where is not None:
            module = sys.modules.get(where[0])
            return POLICY.module_members(module).get(where[1]) if isinstance(module, types.ModuleType) else None
        return POLICY.module_members(sys.modules["builtins"]).get(node.id)
    if isinstance(node, ast.Attribute):
        base = _named(node.value, namespace)
        if issubclass(type(base), types.ModuleType):
            return POLICY.module_members(base).get(node.attr)
    return None


@functools.lru_cache(maxsize=256)
def _type_checking_imports(path) -> dict[str, tuple[str, str]]:
    """name -> (module, name) of the absolute `from ... import` statements in a library module's
    top-level `if TYPE_CHECKING:` blocks, read from its source file."""
    if type(path) is not str or not path.endswith(".py") or not is_library_path(path):
        return {}
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except (OSError, UnicodeDecodeError):
        return {}
    out: dict[str, tuple[str, str]] = {}
    for i, line in enumerate(lines):
        if line.rstrip() not in ("if TYPE_CHECKING:", "if typing.TYPE_CHECKING:"):
            continue
        block = []
        for body in lines[i + 1:]:
            if body.strip() and not body[:1].isspace():
                break
            block.append(body)
        try:
            tree = ast.parse(textwrap.dedent("\n".join(block)))
        except SyntaxError:
            continue
        for stmt in tree.body:
            if isinstance(stmt, ast.ImportFrom) and stmt.module and not stmt.level:
                out.update({a.asname or a.name: (stmt.module, a.name) for a in stmt.names if a.name != "*"})
    return out
