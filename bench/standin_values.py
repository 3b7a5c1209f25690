"""The stand-in objects of bench/notebook_standins.py: `Opaque` (any attribute, item, call or
operator) and the real values built from a runtime summary's entries (frames with their columns
and dtypes, Series, arrays, containers, scalars, unfitted estimators). See notebook_standins.py
for which are faithful and which opaque.
"""
from __future__ import annotations

import ast
import importlib
import importlib.util
import re


# -- opaque -----------------------------------------------------------------------------------------

class Opaque:
    """A kernel object nothing is known about: any attribute, item, call or operation."""
    __slots__ = ("_standin_for",)

    def __init__(self, what: str = "?"):
        object.__setattr__(self, "_standin_for", what)

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)        # copy/pickle/inspect probes: behave as a plain object
        return Opaque(f"{self._standin_for}.{name}")

    def __setattr__(self, name, value):
        pass

    def __delattr__(self, name):
        pass

    def __call__(self, *args, **kwargs):
        return Opaque(f"{self._standin_for}()")

    def __getitem__(self, key):
        return Opaque(f"{self._standin_for}[]")

    def __setitem__(self, key, value):
        pass

    def __delitem__(self, key):
        pass

    def __iter__(self):
        return iter(())

    def __len__(self):
        return 0

    def __contains__(self, item):
        return False

    def __bool__(self):
        return True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __repr__(self):
        return f"<opaque stand-in for {self._standin_for}>"

    def __hash__(self):
        return id(self)

    def __eq__(self, other):
        return self is other


class Described(Opaque):
    """An opaque object whose attributes the summary publishes (`__method__<name>_<attr>`
    entries: an attribute's shape and dtype, a dict's keys): those are its own, read as any
    instance's; every other attribute, item or call stays unknown."""
    __slots__ = ("__dict__",)


def _opaque_op(name):
    def op(self, *args):
        return Opaque(f"({self._standin_for} {name})")
    op.__name__ = name
    return op


for _name in ("add sub mul matmul truediv floordiv mod divmod pow lshift rshift and xor or "
              "lt le gt ge neg pos abs invert").split():
    for _dunder in ({f"__{_name}__", f"__r{_name}__", f"__i{_name}__"}
                    if _name not in ("lt", "le", "gt", "ge", "neg", "pos", "abs", "invert")
                    else {f"__{_name}__"}):
        setattr(Opaque, _dunder, _opaque_op(_dunder))
for _dunder in ("__int__", "__index__"):
    setattr(Opaque, _dunder, lambda self: 0)
setattr(Opaque, "__float__", lambda self: 0.0)


# -- the runtime summary ----------------------------------------------------------------------------

def parse_runtime(runtime: dict) -> tuple[dict, bool]:
    """The summary as a dict; `{"_unparsed": text}` read tolerantly (reprs such as `<AUC
    name=auc>` and calls such as `torch.Size([3])` become None). Returns (summary, was_unparsed)."""
    if set(runtime) != {"_unparsed"}:
        return runtime, False
    text = runtime["_unparsed"]
    out, k, quote = [], 0, None
    while k < len(text):
        c = text[k]
        if quote:
            out.append(c)
            if c == "\\":
                out.append(text[k + 1:k + 2])
                k += 1
            elif c == quote:
                quote = None
        elif c in "'\"":
            quote = c
            out.append(c)
        elif c == "<" and k + 1 < len(text) and text[k + 1].isalpha():
            depth, j = 0, k
            while j < len(text):
                if text[j] == "<":
                    depth += 1
                elif text[j] == ">":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            out.append("None")
            k = j
        else:
            out.append(c)
        k += 1
    try:
        tree = ast.parse("".join(out), mode="eval")
    except SyntaxError:
        return {}, True

    def value(n):
        if isinstance(n, ast.Constant):
            return n.value
        if isinstance(n, ast.Dict):
            return {value(a): value(b) for a, b in zip(n.keys, n.values)
                    if isinstance(value(a), (str, int, float, bool, type(None)))}
        if isinstance(n, (ast.List, ast.Tuple, ast.Set)):
            return [value(x) for x in n.elts]
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
            v = value(n.operand)
            return -v if isinstance(v, (int, float)) else None
        return None
    got = value(tree.body)
    return (got if isinstance(got, dict) else {}), True


_CLASS_TYPE = re.compile(r"^<class '([\w.]+)'>$")


def _type_name(entry: dict) -> str:
    t = str(entry.get("type", ""))
    m = _CLASS_TYPE.match(t)
    return m.group(1) if m else t


def _np_dtype(text):
    import numpy as np
    try:
        return np.dtype(str(text).replace("torch.", ""))
    except TypeError:
        return None


def _kind_of_values(values) -> str | None:
    """A pandas dtype for published values: all ints int64, any float float64, all bools bool,
    else object (strings: object, as the pandas of the notebooks stored them)."""
    vals = [v for v in values if v is not None]
    if not vals:
        return None
    if all(isinstance(v, bool) for v in vals):
        return "bool"
    if all(isinstance(v, int) and not isinstance(v, bool) for v in vals):
        return "int64"
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vals):
        return "float64"
    return "object"


def _column(spec: dict, n: int):
    """n values and a dtype for one published column, or (None, why)."""
    import pandas as pd
    kind = spec.get("type")
    vr = spec.get("value_range")
    examples = spec.get("example_values") or spec.get("unique_values")
    dtype = spec.get("dtype")
    if vr and len(vr) == 2:
        values = [vr[k % 2] for k in range(n)]
    elif examples:
        values = [examples[k % len(examples)] for k in range(n)]
    else:
        return None, f"column kind {kind} without values"
    if dtype is None:
        dtype = _kind_of_values(vr if vr else examples)
    if dtype is None:
        return None, "column without a dtype"
    try:
        if dtype == "category":
            return pd.Series(pd.Categorical(values, categories=list(dict.fromkeys(examples or values)))), None
        if dtype == "object":
            return pd.Series(values, dtype=object), None
        return pd.Series(values).astype(dtype), None
    except Exception as e:       # noqa: BLE001
        return None, f"column dtype {dtype}: {type(e).__name__}"


def _dataframe(entry: dict):
    import pandas as pd
    cols = entry.get("per_column")
    if not cols:
        return _unlabelled_frame(entry)
    shape = entry.get("shape")
    if shape and len(shape) == 2 and shape[1] != len(cols):
        return None, "DataFrame columns published in part"
    n = 3
    data = {}
    for name, spec in cols.items():
        s, why = _column(spec, n)
        if s is None:
            return None, f"column {name!r}: {why}"
        data[name] = s.reset_index(drop=True)
    # the summary gives no row labels: labels no reader can tell from any key, as for columns
    rows = pd.Index([UnknownLabel(k) for k in range(n)], dtype=object)
    return pd.DataFrame(data).set_axis(rows, axis=0), None


class UnknownLabel:
    """A column or row label the summary does not give: a reader must not tell it from any name."""
    __slots__ = ("position",)

    def __init__(self, position: int):
        self.position = position

    def __repr__(self):
        return f"<unknown label {self.position}>"


_MOST_COLUMNS = 100_000


def _unlabelled_frame(entry: dict):
    """A DataFrame whose shape and one dtype the summary gives, not its column names: that shape,
    every column of that dtype, each label an `UnknownLabel` (no key or attribute can be told)."""
    import numpy as np
    import pandas as pd
    shape, dtypes = entry.get("shape"), entry.get("dtypes")
    if not (isinstance(shape, list) and len(shape) == 2 and all(type(k) is int and k >= 0 for k in shape)):
        return None, "DataFrame without column names"
    if not isinstance(dtypes, list) or len(dtypes) != 1 or _np_dtype(dtypes[0]) is None or \
            _np_dtype(dtypes[0]).kind not in "biuf":
        return None, "DataFrame without column names, of several dtypes"
    if shape[1] > _MOST_COLUMNS:
        return None, "DataFrame without column names, too wide to stand in"
    labels = pd.Index([UnknownLabel(k) for k in range(shape[1])], dtype=object)
    one = np.zeros(1, dtype=_np_dtype(dtypes[0]))           # one element for every cell (zero strides)
    values = np.lib.stride_tricks.as_strided(one, shape=tuple(shape), strides=(0, 0))
    return pd.DataFrame(values, columns=labels, copy=False), None


def _series(entry: dict):
    import pandas as pd
    info = entry.get("value_info") or {}
    vals = info.get("unique_values") or entry.get("unique_values")
    vr = info.get("value_range") or entry.get("value_range")
    dtype = entry.get("dtype") or _kind_of_values(vr if vr else (vals or []))
    if dtype is None:
        return None, "Series without dtype or values"
    values = list(vals or vr or [0])[:3] or [0]
    try:
        s = pd.Series(values, dtype=object) if dtype == "object" else pd.Series(values).astype(dtype)
    except Exception as e:       # noqa: BLE001
        return None, f"Series dtype {dtype}: {type(e).__name__}"
    s = _series_class()(s)
    if "name" in entry:
        s.name = entry["name"]
    return s, None


_SERIES_CLASS = None


def _series_class():
    """pandas.Series whose index is not known: the summary never gives a Series' labels, so
    `s.label` and `s["label"]` must stay unknowable (its own `__getattr__` says so to a reader of
    the class), while its methods, dtype and name are pandas' own."""
    global _SERIES_CLASS
    if _SERIES_CLASS is None:
        import pandas as pd

        class StandinSeries(pd.Series):
            def __getattr__(self, name):
                return pd.Series.__getattr__(self, name)

            @property
            def _constructor(self):
                return pd.Series
        _SERIES_CLASS = StandinSeries
    return _SERIES_CLASS


_MOST_FILLED = 1_000_000          # elements of an array filled with its published values


def _ndarray(entry: dict):
    import numpy as np
    shape, dtype = entry.get("shape"), entry.get("dtype")
    if shape is None or dtype is None:
        return None, "ndarray without shape or dtype"
    dt = _np_dtype(dtype)
    if dt is None:
        return None, f"ndarray dtype {dtype!r} unknown here"
    shape = tuple(int(x) for x in shape)
    info = entry.get("value_info") or {}
    published = entry.get("unique_values") or info.get("unique_values")
    if published and 0 < int(np.prod(shape)) <= _MOST_FILLED:
        try:
            values = np.array(published, dtype=dt)
            if values.tolist() == list(published):
                return np.resize(values, shape), None       # the published values, in turn
        except (TypeError, ValueError):
            pass
    one = np.zeros(1, dtype=dt)
    low = (entry.get("value_range") or (entry.get("value_info") or {}).get("value_range") or [None])[0]
    if type(low) in (int, float) and dt.kind in "iuf" and np.array(low, dtype=dt) == low:
        one[0] = low                     # a value the array holds (its least), not an invented zero
    if dt.hasobject:
        return np.broadcast_to(one.reshape(()), shape), None
    return np.lib.stride_tricks.as_strided(one, shape=shape, strides=(0,) * len(shape), writeable=True), None


def _container(entry: dict, tname: str, name: str):
    n = entry.get("length")
    if not isinstance(n, int) or n < 0:
        return None, f"{tname} without length"
    if tname == "dict":
        preview = entry.get("preview") or []
        if len(preview) != n:
            return None, "dict keys published in part"
        out = {}
        for p in preview:
            key = p.get("key")
            kt = p.get("key_type", "")
            try:
                key = int(key) if "int" in kt else float(key) if "float" in kt else key if "str" in kt else None
            except (TypeError, ValueError):
                key = None
            if key is None:
                return None, f"dict key of type {kt}"
            value = Opaque(f"{name}[{key!r}]")
            vt = p.get("value_type", "")
            if any(t in vt for t in ("'str'", "'int'", "'float'", "'bool'")):
                try:
                    v = ast.literal_eval(p.get("value_repr", ""))
                    if not (isinstance(v, str) and v.endswith("...")):
                        value = v
                except (ValueError, SyntaxError, TypeError):
                    pass
            out[key] = value
        return out, None
    items = [Opaque(f"{name}[{k}]") for k in range(min(n, 1))] * n
    return (items if tname == "list" else tuple(items)), None


def _scalar(entry: dict, tname: str):
    if "value" not in entry:
        return None, f"{tname} without value"
    v = entry["value"]
    want = {"str": str, "int": int, "float": float, "bool": bool}[tname]
    if tname == "float" and isinstance(v, int):
        v = float(v)
    if type(v) is not want:
        return None, f"{tname} value is {type(v).__name__}"
    if tname == "str" and (v.endswith("...") or v.endswith("…")):
        return None, "str value cut"
    return v, None


def _unfitted_estimator(tname: str):
    module, _, cls_name = tname.rpartition(".")
    try:
        cls = getattr(importlib.import_module(module), cls_name)
        return cls(), None
    except Exception as e:  # noqa: BLE001 - not importable or not buildable with its defaults
        return None, f"{tname} not built: {type(e).__name__}"
