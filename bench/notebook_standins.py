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
  from their kinds (values from the published ranges/examples; the rows and the index are not
  the kernel's); without column names: of its shape and its one dtype, each label an object no
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
import importlib
import importlib.util
import re
import sys
import types
from dataclasses import dataclass, field

__all__ = ["Opaque", "Standins", "build_namespace", "bindings", "parse_runtime", "python_source",
           "used_names", "comment_magics"]


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


# -- cells as Python --------------------------------------------------------------------------------

_MAGIC = re.compile(r"^([ \t]*)([%!].*)$")


def comment_magics(source: str) -> str:
    """The cell for a plain-Python linter: IPython magic and shell lines commented out (a cell
    magic's first line too), `x = !cmd` / `x = %magic` too; line numbers kept."""
    out = []
    for line in source.split("\n"):
        m = _MAGIC.match(line)
        if m or re.match(r"^[ \t]*[\w.]+[ \t]*=[ \t]*[%!](?!=)", line) or re.match(r"^[ \t]*[\w.]+\?{1,2}[ \t]*$", line):
            indent = re.match(r"^[ \t]*", line).group()
            out.append(f"{indent}# {line[len(indent):]}")
        else:
            out.append(line)
    return "\n".join(out)


def is_python_cell(source: str) -> bool:
    from jupyter_codecheck.pytext.sources import is_python_cell as ipc
    return ipc(source)


def python_source(cell: str) -> str | None:
    """The cell as Python for analysis (IPython syntax through IPython's transformer, a Python
    cell magic's body), or None for a cell in another language."""
    if not is_python_cell(cell):
        return None
    if cell.lstrip().startswith("%%"):
        cell = cell.lstrip().partition("\n")[2]
    try:
        from IPython.core.inputtransformer2 import TransformerManager
        return TransformerManager().transform_cell(cell)
    except Exception:
        return comment_magics(cell)


def _parse(cell: str) -> ast.Module | None:
    src = python_source(cell)
    if src is None:
        return None
    try:
        return ast.parse(src)
    except (SyntaxError, ValueError, RecursionError):
        return None


def used_names(target: str) -> set[str]:
    """Names the cell reads (any scope); every identifier when it does not parse."""
    tree = _parse(target)
    if tree is None:
        return set(re.findall(r"[^\W\d]\w*", target))
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


# -- what the earlier cells bind ------------------------------------------------------------------------

@dataclass
class Binding:
    kind: str              # import | from | def | class | other
    node: ast.AST | None   # the statement (def/class/import); None for other
    cell: int
    module: str | None = None     # import: the module; from: the module imported from
    attr: str | None = None       # from: the name imported


def bindings(earlier: list[str]) -> tuple[dict[str, Binding], list[str], bool]:
    """Each name's last module-level binding over the earlier cells, in execution order; the
    modules star-imported; whether some cell could not be read (it then ran nothing: a cell that
    does not parse never runs)."""
    last: dict[str, Binding] = {}
    stars: list[str] = []
    unreadable = False

    def bind_other(name, k):
        last[name] = Binding("other", None, k)

    def targets(node, k):
        """Store/Del names in a statement, not inside nested scopes (comprehensions leak only :=)."""
        stack = [node]
        while stack:
            n = stack.pop()
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                continue
            if isinstance(n, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
                stack.extend(x for x in ast.walk(n) if isinstance(x, ast.NamedExpr))
                continue
            if isinstance(n, ast.NamedExpr):
                bind_other(n.target.id, k)
            elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                bind_other(n.id, k)
            elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Del):
                last.pop(n.id, None)
            elif isinstance(n, ast.ExceptHandler) and n.name:
                bind_other(n.name, k)
            elif isinstance(n, ast.MatchAs) and n.name or isinstance(n, ast.MatchStar) and n.name:
                bind_other(n.name, k)
            elif isinstance(n, ast.MatchMapping) and n.rest:
                bind_other(n.rest, k)
            stack.extend(reversed(list(ast.iter_child_nodes(n))))

    def globals_of(fn, k):
        for n in ast.walk(fn):
            if isinstance(n, ast.Global):
                for name in n.names:
                    bind_other(name, k)

    def statements(body, k):
        for st in body:
            if isinstance(st, ast.Import):
                for a in st.names:
                    if a.asname:
                        last[a.asname] = Binding("import", st, k, module=a.name)
                    else:
                        top = a.name.split(".")[0]
                        last[top] = Binding("import", st, k, module=top)
            elif isinstance(st, ast.ImportFrom):
                mod = "." * st.level + (st.module or "")
                for a in st.names:
                    if a.name == "*":
                        stars.append(mod)
                        for name in _star_names(mod):
                            last[name] = Binding("from", st, k, module=mod, attr=name)
                    else:
                        last[a.asname or a.name] = Binding("from", st, k, module=mod, attr=a.name)
            elif isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
                targets_of_decorators = st.decorator_list + st.args.defaults + [d for d in st.args.kw_defaults if d]
                for d in targets_of_decorators:
                    targets(d, k)
                last[st.name] = Binding("def", st, k)
                globals_of(st, k)
            elif isinstance(st, ast.ClassDef):
                last[st.name] = Binding("class", st, k)
            elif isinstance(st, (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try,
                                 getattr(ast, "TryStar", ast.Try))):
                head = [getattr(st, a) for a in ("test", "target", "iter") if getattr(st, a, None) is not None]
                head += [i for i in getattr(st, "items", [])]
                for h in head:
                    targets(h, k)
                statements(getattr(st, "body", []), k)
                for h in getattr(st, "handlers", []):
                    if h.name:
                        bind_other(h.name, k)
                    statements(h.body, k)
                statements(getattr(st, "orelse", []), k)
                statements(getattr(st, "finalbody", []), k)
            elif isinstance(st, ast.Match):
                targets(st.subject, k)
                for case in st.cases:
                    targets(case.pattern, k)
                    statements(case.body, k)
            else:
                targets(st, k)

    for k, cell in enumerate(earlier):
        if not cell.strip() or not is_python_cell(cell):
            continue
        tree = _parse(cell)
        if tree is None:
            unreadable = True
            continue
        statements(tree.body, k)
    return last, stars, unreadable


def _star_names(module: str) -> list[str]:
    mod, _ = _import(module)
    if mod is None:
        return []
    names = getattr(mod, "__all__", None)
    return [n for n in (names if names is not None else dir(mod)) if not n.startswith("_")]


# -- real objects from imports ----------------------------------------------------------------------

def _top(module: str) -> str:
    return module.lstrip(".").split(".")[0]


def _import(module: str):
    """(module, None) or (None, why): a relative or missing module is never guessed."""
    if module.startswith("."):
        return None, "relative import"
    top = _top(module)
    if top in sys.builtin_module_names or top in sys.modules:
        pass
    elif importlib.util.find_spec(top) is None:
        return None, f"missing:{top}"
    try:
        return importlib.import_module(module), None
    except ModuleNotFoundError as e:
        return None, f"missing:{(e.name or top).split('.')[0]}"
    except BaseException as e:       # noqa: BLE001 - an import that fails here is not a fact
        return None, f"import failed: {type(e).__name__}"


def _resolve_binding(b: Binding):
    """The real object an import binding stands for: (object, None) or (None, why)."""
    if b.kind == "import":
        return _import(b.module)
    if b.kind == "from":
        mod, why = _import(b.module)
        if mod is None:
            return None, why
        if hasattr(mod, b.attr):
            try:
                return getattr(mod, b.attr), None
            except Exception as e:   # noqa: BLE001
                return None, f"getattr failed: {type(e).__name__}"
        sub, why = _import(f"{b.module}.{b.attr}")
        return (sub, None) if sub is not None else (None, f"{b.module} has no {b.attr}")
    return None, f"not an import ({b.kind})"


# -- functions and classes from source ---------------------------------------------------------------

_SAFE_METHOD_DECORATORS = {"staticmethod", "classmethod", "property", "abstractmethod", "abc.abstractmethod",
                           "cached_property", "functools.cached_property"}


def _literal(node) -> bool:
    try:
        ast.literal_eval(node)
        return True
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
        return False


def _dotted(node) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return None if head is None else f"{head}.{node.attr}"
    return None


def _sanitise_def(fn: ast.FunctionDef | ast.AsyncFunctionDef, opaque_names: list[str]) -> None:
    """Annotations dropped (they run at def time); a non-literal default becomes an opaque
    value bound to a fresh name (the signature keeps the parameter and its having a default)."""
    a = fn.args
    for arg in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg]:
        if arg is not None:
            arg.annotation = None
    fn.returns = None

    def fix(d):
        if d is None or _literal(d):
            return d
        name = f"__standin_default_{len(opaque_names)}"
        opaque_names.append(name)
        return ast.copy_location(ast.Name(id=name, ctx=ast.Load()), d)
    a.defaults = [fix(d) for d in a.defaults]
    a.kw_defaults = [fix(d) for d in a.kw_defaults]


def build_function(node: ast.FunctionDef | ast.AsyncFunctionDef):
    """(function, None) from its def, or (None, why) when running the def is not safe."""
    if node.decorator_list:
        return None, "decorated def"
    import copy
    fn = copy.deepcopy(node)
    opaque_names: list[str] = []
    _sanitise_def(fn, opaque_names)
    # nested defs' annotations and defaults do not run when the outer def runs
    g = {"__name__": "__main__", "__builtins__": builtins, **{n: Opaque(n) for n in opaque_names}}
    mod = ast.Module(body=[fn], type_ignores=[])
    ast.fix_missing_locations(mod)
    try:
        exec(compile(mod, "<earlier cell>", "exec"), g)
    except Exception as e:       # noqa: BLE001
        return None, f"def failed: {type(e).__name__}"
    return g[node.name], None


def build_class(node: ast.ClassDef, resolve):
    """(class, None) from its source when its body holds only defs (with harmless decorators),
    literal assignments, docstrings and pass, and its bases are real classes; else (None, why).
    `resolve(dotted) -> (object, why)` gives a base's real object."""
    if node.decorator_list:
        return None, "decorated class"
    if node.keywords:
        return None, "class keywords (metaclass=...)"
    bases = []
    for b in node.bases:
        name = _dotted(b)
        if name is None:
            return None, "base is an expression"
        obj, why = resolve(name)
        if obj is None:
            return None, f"base {name}: {why}"
        if not isinstance(obj, type):
            return None, f"base {name} is not a class"
        bases.append(obj)
    import copy
    cls = copy.deepcopy(node)
    opaque_names: list[str] = []
    for st in cls.body:
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for d in st.decorator_list:
                name = _dotted(d)
                if name is None or not (name in _SAFE_METHOD_DECORATORS or
                                        re.fullmatch(r"\w+\.(setter|getter|deleter)", name)):
                    return None, f"method decorator {name or 'expression'}"
            _sanitise_def(st, opaque_names)
        elif isinstance(st, ast.Assign):
            if not all(isinstance(t, ast.Name) for t in st.targets) or not _literal(st.value):
                return None, "class body assignment is not a literal"
        elif isinstance(st, ast.AnnAssign):
            if not isinstance(st.target, ast.Name) or (st.value is not None and not _literal(st.value)):
                return None, "class body assignment is not a literal"
            st.annotation = ast.Constant(value=None)
        elif isinstance(st, ast.Pass) or (isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant)):
            pass
        else:
            return None, f"class body holds {type(st).__name__}"
    base_names = [f"__standin_base_{k}" for k in range(len(bases))]
    cls.bases = [ast.Name(id=n, ctx=ast.Load()) for n in base_names]
    g = {"__name__": "__main__", "__builtins__": builtins, **dict(zip(base_names, bases)),
         **{n: Opaque(n) for n in opaque_names}}
    for name in ("abstractmethod", "cached_property"):     # the safe decorators, if used bare
        g.setdefault(name, getattr(importlib.import_module("abc" if name == "abstractmethod" else "functools"), name))
    g["abc"] = importlib.import_module("abc")
    g["functools"] = importlib.import_module("functools")
    mod = ast.Module(body=[cls], type_ignores=[])
    ast.fix_missing_locations(mod)
    try:
        exec(compile(mod, "<earlier cell>", "exec"), g)
    except Exception as e:       # noqa: BLE001
        return None, f"class failed: {type(e).__name__}"
    return g[node.name], None


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
    return pd.DataFrame(data), None


class UnknownLabel:
    """A column label the summary does not give: a reader must not tell it from any name."""
    __slots__ = ("position",)

    def __init__(self, position: int):
        self.position = position

    def __repr__(self):
        return f"<unknown column {self.position}>"


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
