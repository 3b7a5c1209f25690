"""Stand-ins for a kernel's namespace, built from a published summary of its variables.

JunoBench (bench/notebook_crashes.py) publishes, for each crash, a summary of the kernel's
variables before the crashing cell: type, shape, columns with their kinds, a dict's keys, ...
(`runtime`). `build_namespace(earlier, target, runtime)` turns it into a dict name -> object for
`check(..., namespace=...)`. Every stand-in is faithful or opaque, never invented: a false fact
(a column, an attribute, a signature the real object does not have, or lacks one it has) makes a
false alarm.

- modules: the real installed module the earlier cells' import binds (`import numpy as np`,
  `from matplotlib import pyplot as plt`); opaque when not importable here
- classes and functions imported by the earlier cells: the real ones, if importable; defined by
  the earlier cells: built from their `def`/`class` source when that is safe to execute (a def
  runs only its defaults and decorators: non-literal defaults become opaque, decorators make it
  opaque; a class body only if it holds defs and literal assignments, its bases real classes)
- DataFrame with known columns: a real 3-row DataFrame with exactly those columns and dtypes
  from their kinds (values from the published ranges/examples; the rows are not the kernel's,
  and its row labels are objects no key can be told from); without column names: of its shape and its one dtype, each label an object no
  name can be told from (else opaque). Series: real, dtype as published or as its
  values say; else opaque. numpy arrays: a real array of that shape and dtype that costs one
  element (zero strides), the least published value (else 0); one whose distinct values
  are published, of at most a million elements: those values in turn. list/tuple: of that length, every element opaque. dict: real when the
  summary lists every key (values opaque unless a literal). str/int/float/bool: the value.
- a scikit-learn estimator the summary says is not fitted (`is_fitted: false`): an instance of
  that class built with its defaults, unfitted as the real one and with the same attributes
  (its parameters' values are not the kernel's)
- other instances of library classes (fitted estimators, models, tensors) and of the notebook's
  own classes: opaque (an unfitted or uninitialised stand-in lacks attributes the real one has)
- names the target uses that the earlier cells define but the summary does not list: opaque.
  A name the earlier cells do not define is never in the namespace.

`Opaque` is an instance of a class with `__getattr__` (and every operator): the checker knows it
may have any attribute, item or call.
"""
from __future__ import annotations

import ast
import builtins
import re
import types
from dataclasses import dataclass, field

from standin_cells import (Binding, _parse, _resolve_binding, bindings, build_class, build_function, comment_magics,
                           python_source, used_names)
from standin_values import (Described, Opaque, UnknownLabel, _container, _dataframe, _ndarray, _scalar, _series,
                            _type_name, _unfitted_estimator, parse_runtime)

__all__ = ["Opaque", "Standins", "build_namespace", "bindings", "parse_runtime", "python_source",
           "used_names", "comment_magics"]


# -- the namespace ----------------------------------------------------------------------------------

@dataclass
class Standins:
    namespace: dict = field(default_factory=dict)
    described: dict = field(default_factory=dict)     # name -> JSON-able description (cache key, report)
    needs: set = field(default_factory=set)           # top-level packages a faithful stand-in needs, missing here
    skipped: dict = field(default_factory=dict)       # runtime names left out -> why
    unparsed: bool = False


_MODULE_TYPES = {"module"}
_FUNCTION_TYPES = {"function", "builtin_function_or_method", "numpy._ArrayFunctionDispatcher", "numpy.ufunc",
                   "functools.partial", "method", "builtin_function", "cython_function_or_method"}


def build_namespace(earlier: list[str], target: str, runtime: dict) -> Standins:
    """Stand-ins for the kernel's namespace before `target` ran, from its `runtime` summary and
    the `earlier` cells (executed before it, in order)."""
    summary, unparsed = parse_runtime(runtime or {})
    binds, stars, unreadable = bindings(earlier)
    out = Standins(unparsed=unparsed)
    built_classes: dict[str, type] = {}

    def resolve_dotted(dotted: str):
        head, _, rest = dotted.partition(".")
        if head in built_classes:
            obj = built_classes[head]
        elif head in binds and binds[head].kind in ("import", "from"):
            obj, why = _resolve_binding(binds[head])
            if obj is None:
                return None, why
        elif head in binds and binds[head].kind == "class":
            obj, why = build_class(binds[head].node, resolve_dotted)
            if obj is None:
                return None, why
            built_classes[head] = obj
        elif head not in binds and hasattr(builtins, head):
            obj = getattr(builtins, head)
        else:
            return None, f"{head} is not a known class"
        for part in rest.split(".") if rest else ():
            if not hasattr(obj, part):
                return None, f"{dotted} not found"
            obj = getattr(obj, part)
        return obj, None

    def note_missing(why: str | None):
        for top in re.findall(r"missing:([\w]+)", why or ""):
            out.needs.add(top)

    def opaque(name, why):
        out.namespace[name] = Opaque(name)
        out.described[name] = {"standin": "opaque", "why": why}

    for name, entry in summary.items():
        if name.startswith("__method__") or not isinstance(entry, dict):
            continue
        if name not in binds:
            if name.startswith("__") or hasattr(builtins, name):
                continue
            if stars:
                opaque(name, "star import")
            else:
                out.skipped[name] = "not defined by the earlier cells"
            continue
        b = binds[name]
        tname = _type_name(entry)
        raw_type = str(entry.get("type", ""))
        obj, why, how = None, None, None
        if tname in _MODULE_TYPES:
            if b.kind in ("import", "from"):
                obj, why = _resolve_binding(b)
                note_missing(why)
                if obj is not None and not isinstance(obj, types.ModuleType):
                    obj, why = None, f"{b.module} binds no module"
                how = "module"
            else:
                why = f"module bound by {b.kind}"
        elif b.kind in ("import", "from") and (tname in _FUNCTION_TYPES or raw_type.startswith("<class") and
                                                 (tname == "type" or tname.endswith("Meta"))):
            obj, why = _resolve_binding(b)
            note_missing(why)
            if obj is not None and str(type(obj)) != raw_type and not (isinstance(obj, type) and
                                                                    (tname == "type" or tname.endswith("Meta"))):
                obj, why = None, f"imported {type(obj).__name__}, kernel had {tname}"
            how = "class (import)" if isinstance(obj, type) else "function (import)"
        elif b.kind == "def" and tname in ("function",):
            obj, why = build_function(b.node)
            how = "function (def)"
        elif b.kind == "class" and (tname == "type" or tname.endswith("Meta")):
            obj, why = resolve_dotted(name)
            note_missing(why)
            how = "class (def)"
        elif tname == "pandas.core.frame.DataFrame":
            obj, why = _dataframe(entry)
            how = "DataFrame"
        elif tname == "pandas.core.series.Series":
            obj, why = _series(entry)
            how = "Series"
        elif tname == "numpy.ndarray":
            obj, why = _ndarray(entry)
            how = "ndarray"
        elif tname in ("list", "tuple", "dict"):
            obj, why = _container(entry, tname, name)
            how = tname
        elif tname in ("str", "int", "float", "bool"):
            obj, why = _scalar(entry, tname)
            how = tname
        elif tname.startswith("sklearn.") and entry.get("is_fitted") is False:
            obj, why = _unfitted_estimator(tname)
            how = "unfitted estimator"
        elif tname.startswith("sklearn.") and entry.get("is_fitted") is True:
            obj, why = _fitted_estimator(tname, entry, name, target)
            how = "fitted estimator"
        elif tname.startswith("__main__."):
            why = "instance of a notebook class"
        elif tname in ("type",) or tname.endswith("Meta"):
            why = f"class bound by {b.kind}"
        elif tname in _FUNCTION_TYPES:
            why = f"function bound by {b.kind}"
        else:
            why = f"instance of {tname}"
        if obj is None:
            opaque(name, why)
        else:
            out.namespace[name] = obj
            out.described[name] = _describe(obj, how, b)

    _publish_attributes(out, summary, target)
    for name in sorted(used_names(target) - set(out.namespace) - set(out.skipped)):
        if name in binds:
            opaque(name, "defined by the earlier cells, not in the summary")
    if unreadable:
        out.described["__unreadable_earlier_cell__"] = {"standin": "note"}
    return out


def _fitted_estimator(tname: str, entry: dict, name: str, target: str):
    """A fitted estimator holding the fitted attributes the summary publishes
    (`n_features_in_`, ...): faithful for its class's methods and those attributes only, so
    built only when the target reads no other attribute of it."""
    fitted = entry.get("fitted_attributes")
    if not isinstance(fitted, dict) or not fitted or \
            any(not k.endswith("_") or type(v) not in (int, float, str, bool) for k, v in fitted.items()):
        return None, "fitted attributes not published as numbers"
    obj, why = _unfitted_estimator(tname)
    if obj is None:
        return None, why
    for owner, attr in _attribute_reads(target):
        if owner == name and attr not in fitted and (attr.endswith("_") or not callable(getattr(type(obj), attr, None))):
            return None, f"the target reads {name}.{attr}, not published"
    for k, v in fitted.items():
        object.__setattr__(obj, k, v)
    return obj, None


def _attribute_reads(target: str) -> set[tuple[str, str]]:
    """The (name, attribute) pairs `name.attr` the target reads."""
    tree = _parse(target)
    if tree is None:
        return set()
    return {(n.value.id, n.attr) for n in ast.walk(tree)
            if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)}


def _standin(entry: dict, name: str):
    """A stand-in for a published value (not a name the cells bind): (object, how) or (None, why)."""
    tname = _type_name(entry)
    if tname == "pandas.core.frame.DataFrame":
        return _dataframe(entry)[0], "DataFrame"
    if tname == "pandas.core.series.Series":
        return _series(entry)[0], "Series"
    if tname == "numpy.ndarray":
        return _ndarray(entry)[0], "ndarray"
    if tname == "dict" and entry.get("detected") == "training_history_dict":
        keys = entry.get("metrics")
        if isinstance(keys, list) and len(keys) == entry.get("length") and all(type(k) is str for k in keys):
            return {k: Opaque(f"{name}[{k!r}]") for k in keys}, "dict"     # every key listed
        return None, "dict"
    if tname in ("list", "tuple", "dict"):
        return _container(entry, tname, name)[0], tname
    if tname in ("str", "int", "float", "bool"):
        return _scalar(entry, tname)[0], tname
    return None, tname


def _publish_attributes(out: Standins, summary: dict, target: str) -> None:
    """Opaque stand-ins given the attributes the summary publishes for them and the target
    reads (`__method__test_generator_classes`: `test_generator.classes`, an ndarray)."""
    reads = _attribute_reads(target)
    opaque = {n for n, d in out.described.items() if d.get("standin") == "opaque"}
    for key, entry in summary.items():
        if not key.startswith("__method__") or not isinstance(entry, dict):
            continue
        rest = key[len("__method__"):]
        owners = [n for n in opaque if rest.startswith(n + "_") and (n, rest[len(n) + 1:]) in reads]
        if len(owners) != 1:
            continue                     # no such read, or the name's split is ambiguous
        owner = owners[0]
        attr = rest[len(owner) + 1:]
        value, how = _standin(entry, f"{owner}.{attr}")
        if value is None:
            continue
        held = out.namespace[owner]
        if type(held) is not Described:
            held = out.namespace[owner] = Described(owner)
            out.described[owner] = dict(out.described[owner], standin="opaque with attributes", attributes={})
        object.__setattr__(held, attr, value)
        out.described[owner]["attributes"][attr] = _describe(value, how, None)


def _describe(obj, how: str, b: Binding) -> dict:
    """What a stand-in is, in JSON: enough to tell two namespaces apart (the checks' cache key)."""
    d: dict = {"standin": how}
    if isinstance(obj, types.ModuleType):
        d["module"] = obj.__name__
    elif how.endswith("(import)"):
        d["object"] = f"{getattr(obj, '__module__', '?')}.{getattr(obj, '__qualname__', getattr(obj, '__name__', '?'))}"
    elif how.endswith("(def)"):
        d["source"] = ast.unparse(b.node)
    elif how == "DataFrame" and len(obj.columns) and type(obj.columns[0]) is UnknownLabel:
        d["shape"], d["dtype"] = list(obj.shape), str(obj.dtypes.iloc[0])
    elif how == "DataFrame":
        d["columns"] = {str(c): str(t) for c, t in obj.dtypes.items()}
    elif how == "Series":
        d["dtype"], d["name"], d["index"] = str(obj.dtype), obj.name, "unknown"
    elif how == "fitted estimator":
        d["class"] = type(obj).__qualname__
        d["fitted"] = {k: v for k, v in vars(obj).items() if k.endswith("_")}
    elif how == "ndarray":
        d["shape"], d["dtype"] = list(obj.shape), str(obj.dtype)
    elif how in ("list", "tuple"):
        d["length"] = len(obj)
    elif how == "dict":
        d["keys"] = [repr(k) for k in obj]
        d["values"] = [repr(v) if not isinstance(v, Opaque) else "opaque" for v in obj.values()]
    else:
        d["value"] = repr(obj)
    return d
