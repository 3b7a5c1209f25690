"""Which of a cell's exact errors it surely crashes on when it runs (what a guard may stop a
cell for): the use runs whenever the cell runs, and nothing the cell runs before it may make it
false. Read from the cell's text and the kernel's objects, without running the user's code.

A crash is certain only where nothing can make it false: the use runs whenever the cell runs
(not in a branch, loop body, `try`, `with`, function, annotation or lazy part of an expression),
and before it the cell runs no magic, no code of the user's (a function of theirs may define the
name or change the object; a callee the objects cannot tell statically counts as theirs), no
first import of a module (its code runs), no store through a module and nothing that reaches the
namespace by name (`exec`, `globals()`); a fact about an object also needs no other name for that
object in the cell, and the object not handed to a call that may keep or change it. A cell with
`await` runs beside the kernel loop's other tasks: never certain. Anything unsure: no stop.
"""
from __future__ import annotations

import ast
import builtins
import functools
import sys
import types
from collections.abc import Mapping

from .abstract_sklearn import PREDICTING, held_whole
from .estimators import sklearn_estimator
from .flow import any_root
from .read_policy import POLICY

# what reaches the namespace or the objects by name, out of the flow's sight
_DYNAMIC = frozenset({"exec", "eval", "globals", "locals", "vars", "setattr", "delattr", "__import__",
                      "get_ipython", "importlib", "builtins", "__builtins__", "__dict__"})
# callees that neither keep nor change what they are given
_READ_ONLY = frozenset({"print", "len", "repr", "str", "format", "type", "isinstance", "issubclass", "id",
                        "hash", "bool", "callable", "display"})

# what an estimator's prediction methods are (abstract_sklearn.py), and `score`
_PREDICTS = PREDICTING - {"fit_predict"} | {"score"}

# context managers whose exit never swallows an exception (their sources: a `try`/`finally` or
# a restore, no `except`), by module and name; sklearn's config_context is not one of them to the
# facts: its transform_output changes what a transform returns
_NEVER_SUPPRESSES = (("matplotlib.style", "context"), ("matplotlib", "rc_context"), ("matplotlib.pyplot", "rc_context"),
                     ("numpy", "errstate"), ("numpy", "printoptions"), ("pandas", "option_context"),
                     ("warnings", "catch_warnings"), ("builtins", "open"), ("contextlib", "nullcontext"),
                     ("IPython.core.interactiveshell", "_modified_open"))        # IPython's `open` of the namespace

# Python's builtins whose result is a new int or float whatever they are given
_NUMBER_BUILTINS = frozenset({"len", "int", "round", "float"})

_UNKNOWN = object()             # what the objects and the text cannot tell statically
_LIBRARY_RESULT = object()      # what a library's code makes of library data: the library's
_NUMBERS = (int, float, complex)  # Python's own numbers: their arithmetic runs no code of the user's


class Certainty:
    """Does the cell surely reach a place, with the state the finding was read from?"""

    def __init__(self, tree: ast.Module, namespace: Mapping, undefined: set[str]):
        self.tree, self.ns, self.undefined = tree, namespace, undefined
        self.cell_defs = {n.name for n in ast.walk(tree)
                          if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
        self.bindings = _bindings(tree)
        self.lazy = _lazy_spans(tree, self._never_suppresses)
        # `a, b = np.meshgrid(...)`: names bound to the items of one call's result
        self.unpacked = _unpacked_calls(tree)
        # `pipe = make_pipeline(...)` of the cell's top level: the name each such call is bound to
        self.assigned = {id(s.value): s.targets[0].id for s in tree.body
                         if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
                         and isinstance(s.value, ast.Call)}
        # a cell with `await` runs as a task of the kernel's loop, beside its other tasks
        self.awaits = any(isinstance(n, (ast.Await, ast.AsyncFor, ast.AsyncWith)) for n in ast.walk(tree))

    def crashes(self, line: int, column: int, *, object_fact: bool, subjects: tuple[str, ...] | None = None,
                literal: bool = False) -> bool:
        """Does the cell surely reach the use at `line`, UTF-8 `column`? `subjects`: the names whose
        objects a value fact reads (KernelFact.subjects), each held to what an object fact's
        chain is held to; a value fact that names none is no stop, but a name an import of a loaded
        module finds missing (modules.missing_import: what could add it is judged as for any use)
        and a fact of the cell's literals alone (`literal`, KernelFact.literal: nothing can change
        them; what runs before the use is judged as for any use)."""
        at = (line, column)
        if self.awaits or any(a <= at < b for a, b in self.lazy):
            return False
        stmt = next((s for s in self.tree.body if (s.lineno, s.col_offset) <= at
                     <= (s.end_lineno, s.end_col_offset)), None)
        if stmt is None or subjects is not None and not subjects and not literal and \
                not isinstance(stmt, (ast.Import, ast.ImportFrom)):
            return False
        before = self.tree.body[:self.tree.body.index(stmt) + 1]
        nodes = [n for s in before for n in ast.walk(s)]
        if any(isinstance(n, ast.Name) and n.id in _DYNAMIC or isinstance(n, ast.Attribute) and n.attr in _DYNAMIC
               and not self._pandas_eval(n, nodes) or isinstance(n, (ast.Global, ast.Nonlocal)) for n in nodes):
            return False
        if any(self._through_module(n) for n in nodes):
            return False                    # `__main__.v = 3`, `bb.f = len` (builtins): a name made or bound again
        # of the use's own statement, what runs before the use: what ends before it in the text
        # (a callee and its arguments before the call), and an assignment's value before a target
        done = [n for n in ast.walk(stmt) if hasattr(n, "end_lineno") and (n.end_lineno, n.end_col_offset) <= at]
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None and \
                any(_within(t, at) for t in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target])):
            done += list(ast.walk(stmt.value))
        ran = [n for s in before[:-1] for n in ast.walk(s)] + done
        if any(self._runs_user_code(n) for n in ran if isinstance(n, ast.Call)) or \
                any(self._user_object(n) for n in ran if isinstance(n, ast.Name)) or \
                any(getattr(n, "decorator_list", None) for n in nodes) or \
                any(_registers(n) for n in nodes if isinstance(n, ast.Call)):
            return False
        # (a fact at an import statement's own start is of its module, found before any of it runs)
        if any(_first_import(n) for n in nodes if isinstance(n, (ast.Import, ast.ImportFrom)) and n is not stmt) or \
                isinstance(stmt, (ast.Import, ast.ImportFrom)) and at != (stmt.lineno, stmt.col_offset) and \
                _first_import(_names_before(stmt, at)):
            return False
        if subjects is None and object_fact and self._root_at(stmt, at, literal=True) == "":
            return True                     # `"lr".predict(X)`: Python's own literal, no other name
        if object_fact or subjects is not None:
            roots = subjects if subjects is not None else (self._root_at(stmt, at),)
            prior = [n for s in before[:-1] for n in ast.walk(s)]
            if any(root is None or not self._immutable(root, nodes) and (
                    self._aliased(root, nodes) or self._stores_elsewhere(root, nodes) or
                    self._handed_on(root, prior, prior + done)) for root in roots):
                return False
        return True

    def _never_suppresses(self, item: ast.expr) -> bool:
        """Is a `with` item's context manager made by a library call whose exit never swallows an
        exception (`_NEVER_SUPPRESSES`), named through the kernel's modules (no name the cell binds)?
        pandas' options only of display: other options change what the facts read."""
        if not isinstance(item, ast.Call) or any(isinstance(a, ast.Starred) for a in item.args) or \
                any(k.arg is None for k in item.keywords):
            return False
        path, f = [], item.func
        while isinstance(f, ast.Attribute):
            path.append(f.attr)
            f = f.value
        if not isinstance(f, ast.Name) or f.id in self.bindings:
            return False
        obj = self.ns[f.id] if f.id in self.ns else POLICY.module_members(builtins).get(f.id) if not path else None
        for attr in reversed(path):
            if not isinstance(obj, types.ModuleType):
                return False
            obj = POLICY.module_members(obj).get(attr)
        made = [POLICY.module_members(sys.modules[m]).get(a) for m, a in _NEVER_SUPPRESSES if m in sys.modules]
        if obj is None or not any(obj is x for x in made):
            return False
        pd = sys.modules.get("pandas")
        return pd is None or obj is not POLICY.module_members(pd).get("option_context") or (
            not item.keywords and all(isinstance(a, ast.Constant) and type(a.value) is str
                                      and a.value.startswith("display.") for a in item.args[::2]))

    def _pandas_eval(self, n: ast.Attribute, nodes) -> bool:
        """`df.eval("a + b")`: pandas' expression evaluator of a kernel's DataFrame (of pandas' own
        class, its name not bound by the cell), called with a literal expression that names none
        of the cell's variables (`@f()` calls the user's code): it binds no name of Python's; so
        does pandas' module's `eval` of an expression with no assignment and no target."""
        import sys
        pd = sys.modules.get("pandas")
        call = next((c for c in nodes if isinstance(c, ast.Call) and c.func is n), None)
        if call is None or not call.args or not isinstance(call.args[0], ast.Constant) or \
                type(call.args[0].value) is not str or "@" in call.args[0].value:
            return False
        if pd is None or n.attr != "eval" or not isinstance(n.value, ast.Name) or n.value.id in self.bindings:
            return False
        if self.ns.get(n.value.id) is pd:   # `pd.eval("df1 + df2")`: an expression (no assignment), no target
            try:
                tree = ast.parse(call.args[0].value.strip(), mode="eval")
            except SyntaxError:
                return False
            # it calls what it names and runs the operators of what its names hold: only pandas' and
            # numpy's own data and Python's numbers, no call, no attribute (a name none binds is refused first)
            np = sys.modules.get("numpy")
            plain = (pd.DataFrame, pd.Series, int, float, bool) + ((np.ndarray,) if np is not None else ())
            return len(call.args) == 1 and all(k.arg in ("engine", "parser") for k in call.keywords) and \
                not any(isinstance(x, (ast.Call, ast.Attribute, ast.Subscript, ast.Lambda)) for x in ast.walk(tree)) and \
                all(type(self.ns[x.id]) in plain for x in ast.walk(tree)
                    if isinstance(x, ast.Name) and x.id in self.ns)
        return type(self.ns.get(n.value.id)) in (pd.DataFrame, pd.Series) and \
            POLICY.static(type(self.ns[n.value.id]), "eval", None) is POLICY.static(pd.DataFrame, "eval", None)

    # -- what may run ---------------------------------------------------------------------------

    def _runs_user_code(self, call: ast.Call) -> bool:
        """May this call run code of the user's (a function of theirs, a method of their class,
        a callback of theirs given to a library, directly or from a container)?"""
        if self._user(call.func):
            return True
        if isinstance(call.func, ast.Attribute) and call.func.attr in ("query", "eval") and \
                any(isinstance(a, ast.Constant) and type(a.value) is str and "@" in a.value for a in call.args):
            return True                     # pandas' `@f()` calls the cell's names: the user's code
        args = [a.value if isinstance(a, ast.Starred) else a for a in call.args]
        return any(self._user(a, called=False) for a in (*args, *(k.value for k in call.keywords))
                   if isinstance(a, (ast.Name, ast.Attribute, ast.Subscript)))

    def _user_object(self, name: ast.Name) -> bool:
        """Is the name, in the kernel, an object of the user's code (its class's properties and
        operators run that code when the cell touches it), or one of their modules?"""
        if name.id in self.bindings or name.id not in self.ns:
            return False                    # the cell's own names: their calls are judged
        obj = self.ns[name.id]
        # a function of theirs is Python's object until it is called (its calls are judged)
        return type(obj) is not types.FunctionType and not self._library(obj)

    def _user(self, expr: ast.expr, *, called: bool = True, seen: frozenset = frozenset()) -> bool:
        """Is `expr` (called, or handed to a call) code of the user's, or not known not to be?"""
        root = _chain_root(expr)
        if isinstance(root, (ast.Constant, ast.JoinedStr, ast.List, ast.Tuple, ast.Dict, ast.Set)):
            return False                    # `", ".join(...)`: a literal's methods are Python's
        if isinstance(root, (ast.BinOp, ast.UnaryOp, ast.Compare)):
            obj = self._static(expr, seen)  # `(x < p).astype(int)`: a method of what the library made
            return called if obj is _UNKNOWN else False if obj is _LIBRARY_RESULT else self._users(obj, called)
        if not isinstance(root, ast.Name):
            return called                   # `(a or b)()`, `f()()`: not known
        name = root.id
        if name in self.cell_defs:
            return True
        if name in self.undefined and name not in self.bindings:
            return False                    # it raises NameError: nothing of it runs
        if name in seen:
            return called                   # `x = x.copy()`: what x was is asked already
        for value in self.bindings.get(name, ()):
            if _unknown(value) and self._library_items([value], seen | {name}):
                continue
            if isinstance(value, str):      # bound by an import of this module
                if not _library_module(value):
                    return True
            elif isinstance(value, ast.Call) or _grouped_selection(value):
                call = value if isinstance(value, ast.Call) else value.value
                if self._user(call.func, seen=seen | {name}):
                    return True
            elif not isinstance(value, (ast.Constant, ast.List, ast.Tuple, ast.Dict, ast.Set,
                                        ast.JoinedStr, ast.Lambda, ast.ListComp, ast.DictComp,
                                        ast.SetComp, ast.BinOp, ast.Compare)):
                return called               # bound some other way: not known
        if name in self.bindings and name not in self.ns:
            return False
        if name not in self.ns:
            return called and not hasattr(builtins, name)
        # the kernel's object, and what the expression reaches from it (a dict's item, an
        # attribute, a partial's function), read statically: what cannot be read may be theirs
        obj = self._static(expr, seen | {name})
        if obj is _UNKNOWN:
            return True
        if obj is _LIBRARY_RESULT:
            return False
        return self._users(obj, called)

    def _users(self, obj, called: bool) -> bool:
        """Is the object (called, or handed to a call) the user's code or object?"""
        while type(obj) is functools.partial:
            obj = POLICY.partial_func(obj)    # the C slot: no code runs
        if type(obj) is types.MethodType:
            if not self._library(obj.__self__):
                return True                 # a method of their object
            obj = obj.__func__
        if not called and _plain_data(obj):
            return False
        return not self._library(obj)

    @staticmethod
    def _library(obj) -> bool:
        """Is `obj` plain data, a library's module or a library's object? (Not a generator, nor a
        lazy iterator that may wrap one or call a function: iterating it may run the user's code.)"""
        if _plain_data(obj):
            return True
        if _lazy(obj):
            return False
        if issubclass(type(obj), types.ModuleType):
            return _library_module(POLICY.module_members(obj).get("__name__"))
        return POLICY.is_library(obj)

    def _static(self, expr: ast.expr, seen: frozenset):
        """The object `expr` is, read without running code: a name of the kernel's, an attribute
        (getattr_static), a constant item of a dict, list or tuple, + - * / of Python's own
        numbers (`-3`, `2 * np.pi`); _LIBRARY_RESULT for what a library's code computes from
        library data; _UNKNOWN for anything else."""
        if isinstance(expr, ast.Constant):
            return expr.value
        if isinstance(expr, ast.Name):
            if expr.id in self.ns:
                return self.ns[expr.id]
            if expr.id in self.bindings:
                return _UNKNOWN if self._user(expr, called=False, seen=seen) else _LIBRARY_RESULT
            return getattr(builtins, expr.id, _UNKNOWN)
        if isinstance(expr, ast.Attribute):
            base = self._static(expr.value, seen)
            if base is _UNKNOWN or base is _LIBRARY_RESULT:
                return base
            if not self._library(base):
                return _UNKNOWN             # their object's attribute: their code may run
            try:
                found = POLICY.static(base, expr.attr)
            except AttributeError:          # a library's `__getattr__` answers (or raises)
                return _UNKNOWN if _holder(base) and not issubclass(type(base), types.ModuleType) \
                    else _LIBRARY_RESULT
            if issubclass(type(found), (staticmethod, classmethod)):
                return found.__func__
            if hasattr(type(found), "__get__") and not issubclass(type(base), types.ModuleType) and \
                    not issubclass(type(found), (types.FunctionType, types.BuiltinFunctionType, type)):
                return _LIBRARY_RESULT      # a library's property on a library's object
            return found
        if isinstance(expr, ast.Subscript):
            base = self._static(expr.value, seen)
            if base is _UNKNOWN or base is _LIBRARY_RESULT:
                return base
            if type(base) in (dict, list, tuple):
                if isinstance(expr.slice, ast.Constant):
                    try:
                        return dict.get(base, expr.slice.value, _UNKNOWN) if type(base) is dict else \
                            base[expr.slice.value]
                    except (TypeError, IndexError):
                        return _UNKNOWN
                values = list(dict.values(base)) if type(base) is dict else list(base)
                return _LIBRARY_RESULT if len(values) <= _HOLDS_BUDGET and all(
                    self._library(v) and not _holder(v) for v in values) else _UNKNOWN
            return _LIBRARY_RESULT if self._library(base) and not _holder(base) else _UNKNOWN
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
            v = self._static(expr.operand, seen)      # `-3`: Python's own arithmetic on a number
            return (-v if isinstance(expr.op, ast.USub) else v) if type(v) in _NUMBERS else \
                _LIBRARY_RESULT if self._library_input(expr.operand, seen) else _UNKNOWN
        if isinstance(expr, ast.BinOp):
            a, b = self._static(expr.left, seen), self._static(expr.right, seen)
            if type(a) not in _NUMBERS or type(b) not in _NUMBERS or \
                    not isinstance(expr.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
                # an operator of library data (`X ** 2`, `rand(200, 1) - 0.5`): the library's code
                return _LIBRARY_RESULT if self._library_input(expr.left, seen) and \
                    self._library_input(expr.right, seen) else _UNKNOWN
            try:
                return a + b if isinstance(expr.op, ast.Add) else a - b if isinstance(expr.op, ast.Sub) else \
                    a * b if isinstance(expr.op, ast.Mult) else a / b
            except (ZeroDivisionError, OverflowError):
                return _UNKNOWN
        if isinstance(expr, ast.Compare):           # `rand(100, 10) < p`: the library's comparison
            return _LIBRARY_RESULT if all(self._library_input(e, seen) for e in (expr.left, *expr.comparators)) \
                else _UNKNOWN
        if isinstance(expr, ast.Call):
            callee = self._static(expr.func, seen)
            if callee is _UNKNOWN or (callee is not _LIBRARY_RESULT and self._users(callee, True)):
                return _UNKNOWN
            args = [*expr.args, *(k.value for k in expr.keywords)]
            return _LIBRARY_RESULT if all(self._library_input(a, seen) for a in args) else _UNKNOWN
        return _UNKNOWN

    def _library_items(self, bindings: list, seen: frozenset) -> bool:
        """Are these bindings of a name (the name's places in targets) each an unpacking of what a
        library's call makes of library data?"""
        calls = [self.unpacked.get(id(b)) for b in bindings]
        return bool(calls) and None not in calls and all(self._static(c, seen) is _LIBRARY_RESULT for c in calls)

    def _library_input(self, expr: ast.expr, seen: frozenset) -> bool:
        """Is `expr`, given to a library's callable, data that holds nothing of the user's?"""
        if isinstance(expr, (ast.List, ast.Tuple, ast.Set)):
            return all(self._library_input(e, seen) for e in expr.elts)
        if isinstance(expr, ast.Dict):
            return all(self._library_input(e, seen) for e in (*expr.keys, *expr.values) if e is not None)
        if isinstance(expr, ast.Starred):
            return self._library_input(expr.value, seen)
        if isinstance(expr, ast.JoinedStr):
            return True
        obj = self._static(expr, seen)
        return obj is _LIBRARY_RESULT or obj is not _UNKNOWN and self._library(obj) and not _holder(obj)

    # -- aliases --------------------------------------------------------------------------------

    def _root_at(self, stmt: ast.stmt, at, *, literal: bool = False) -> str | None:
        """The name whose object the fact at `at` is about (the root of the chain there);
        `literal`: "" where that root is a string or number literal."""
        best = None
        for n in ast.walk(stmt):
            if isinstance(n, (ast.Attribute, ast.Subscript, ast.Call)) and \
                    (n.lineno, n.col_offset) <= at < (n.end_lineno, n.end_col_offset):
                root = n
                while isinstance(root, (ast.Attribute, ast.Subscript, ast.Call)):
                    root = root.func if isinstance(root, ast.Call) else root.value
                if isinstance(root, ast.Name):
                    best = root.id
                elif literal and isinstance(root, ast.Constant) and type(root.value) in (str, bytes, int, float):
                    best = ""
                elif literal and isinstance(root, (ast.Compare, ast.BinOp, ast.UnaryOp)) and \
                        self._static(root, frozenset()) is _LIBRARY_RESULT:
                    best = ""               # `(a < 6).count_nonzero()`: a new object a library made of its data
        return best

    def _aliased(self, root: str, nodes) -> bool:
        """May the object `root` names change through another name before the use: the cell makes
        another name for it, or names one the kernel holds that is it or holds it?"""
        for n in nodes:
            value = getattr(n, "value", None) if isinstance(n, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) else \
                n.iter if isinstance(n, (ast.For, ast.comprehension)) else \
                n.context_expr if isinstance(n, ast.withitem) else None
            if value is not None and root in _bare_names(value):
                return True
        if root not in self.ns:     # made by the cell: its own imports, and a new object it makes once
            # (bindings after the use's statement run after it: a loop's first pass rebinding its array)
            ran = {id(n) for n in nodes}
            values = [v for v in self.bindings.get(root, [None]) if v is None or isinstance(v, str) or id(v) in ran] \
                or [None]
            if all(isinstance(v, str) for v in values):
                return False
            if len(values) == 1 and _unknown(values[0]) and self._library_items(values, frozenset()):
                return False            # `a, b = np.meshgrid(x, y)`: new arrays of the library's
            # `s = pd.Series(...)`: a library's call on library data makes an object no other
            # name holds (the loop above saw no other name bound to it); so does pandas' column
            # selection of a grouping it makes (`sg = df.groupby(k)["col"]`: a new GroupBy)
            value = values[0] if len(values) == 1 else None
            if _grouped_selection(value):
                value = value.value
            if _literal_display(value) or isinstance(value, ast.Constant):
                return False            # `row = [5.5, 1.7]`: Python makes a new list of its constants; `n = 3`
            if self._library_function(value) and not any(
                    isinstance(n, ast.Attribute) and isinstance(n.ctx, (ast.Store, ast.Del)) for n in nodes):
                return False            # `ax = plt.axes` (not called): a library's function, whose
                # attributes only a store through an attribute changes
            # `y = x ** 2 + noise`: an operator of library data makes a new object too, and so do
            # numpy's concatenation tricks (`np.c_[x1.ravel(), x2.ravel()]`)
            return not ((isinstance(value, (ast.Call, ast.BinOp, ast.UnaryOp, ast.Compare)) or
                         self._concatenated(value)) and
                        self._static(value, frozenset()) is _LIBRARY_RESULT)
        obj = self.ns[root]
        for name in {n.id for n in nodes if isinstance(n, ast.Name)} - {root}:
            if name in self.ns and _holds(self.ns[name], obj):
                return True
        return False

    def _library_function(self, value) -> bool:
        """Is `value` (a name or an attribute chain, not called) a library's function, read
        statically: the kernel's, or one an import of the cell takes from a loaded module?"""
        if isinstance(value, ast.Name) and value.id in self.bindings and value.id not in self.ns:
            made = [n for n in ast.walk(self.tree) if isinstance(n, ast.ImportFrom) and not n.level and
                    any((a.asname or a.name) == value.id for a in n.names)]
            module = sys.modules.get(made[0].module or "") if len(made) == 1 and \
                len(self.bindings[value.id]) == 1 else None
            if module is None:
                return False
            name = next(a.name for a in made[0].names if (a.asname or a.name) == value.id)
            obj = POLICY.module_members(module).get(name, _UNKNOWN)
        elif isinstance(value, (ast.Name, ast.Attribute)):
            obj = self._static(value, frozenset())
        else:
            return False
        # (a function of Python's or C's, numpy's ufunc or dispatcher: not a class, not a bound method)
        return obj is not _UNKNOWN and obj is not _LIBRARY_RESULT and callable(obj) and \
            not isinstance(obj, type) and type(obj) is not types.MethodType and self._library(obj)

    def _immutable(self, root: str, nodes) -> bool:
        """Is `root` a Python number or string whatever changes before the use: bound before it (as
        far as the cell ran) only to such a literal or Python's own `len`, `int`, `round` of
        anything; or, unbound by the cell, the kernel's number or string?"""
        ran = {id(n) for n in nodes}
        values = [v for v in self.bindings.get(root, ()) if isinstance(v, str) or id(v) in ran]
        if not values:              # (`__main__.n = 6` binds it through the module)
            return root not in self.bindings and type(self.ns.get(root)) in (int, float, str, bool) and \
                not any(self._through_module(n) for n in nodes)
        return all(isinstance(v, ast.Constant) and type(v.value) in (int, float, str, bool) or
                   isinstance(v, ast.Call) and self._builtin(v.func, _NUMBER_BUILTINS) or
                   isinstance(v, (ast.BinOp, ast.UnaryOp)) and type(self._static(v, frozenset())) in _NUMBERS or
                   self._library_class(v, nodes)
                   for v in values)     # (`n = 0.3 * 10`: Python's arithmetic of its numbers makes a number)

    def _library_class(self, value: ast.expr, nodes) -> bool:
        """`model = GaussianNB`: a library's class taken by name, where nothing before the use
        stores or deletes an attribute (a class's methods are what it holds)."""
        if not isinstance(value, (ast.Name, ast.Attribute)) or \
                any(isinstance(x, ast.Attribute) and isinstance(x.ctx, (ast.Store, ast.Del)) for x in nodes):
            return False
        obj = self._static(value, frozenset())
        return isinstance(obj, type) and not _plain_data(obj) and self._library(obj)

    def _concatenated(self, value) -> bool:
        """`np.c_[...]` or `np.r_[...]`: numpy's index tricks, which join their items into a new array."""
        np = sys.modules.get("numpy")
        if np is None or not isinstance(value, ast.Subscript):
            return False
        trick = self._static(value.value, frozenset())
        members = POLICY.module_members(np)
        return trick is not _UNKNOWN and any(trick is members.get(n) for n in ("c_", "r_"))

    def _handed_on(self, root: str, prior, done) -> bool:
        """Is the object `root` names handed before the use (`done`: what ran by then; `prior`: the
        statements before the use's) to code that may keep or change it: passed bare to a call
        (`make_pipeline(scaler, model)`, `dict(tr=df)`, `operator.setitem(df, ...)`), given with
        a function to a method of its own (`df.pipe(pd.DataFrame.insert, ...)`), added to another
        object (`frames += [df]`), or a bound accessor or method of it taken into a name
        (`li = df.loc`)?"""
        for n in done:
            if isinstance(n, ast.Call):
                if self._read_only(n.func) or self._stored_unused(n, root, done) or self._predicts(n):
                    continue
                args = [*n.args, *(k.value for k in n.keywords)]
                if any(root in _bare_names(a) for a in args):
                    return True
                if isinstance(n.func, ast.Attribute) and any_root(n.func) == root and \
                        any(self._may_call(a) for a in args):
                    return True
            elif isinstance(n, ast.AugAssign) and root in _bare_names(n.value):
                return True
        obj = self.ns.get(root)
        data = obj is not None and _data_of_library(type(obj))
        for n in prior:
            value = getattr(n, "value", None) if isinstance(n, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) else None
            if not isinstance(value, (ast.Attribute, ast.Subscript)) or any_root(value) != root or \
                    any(isinstance(c, ast.Call) for c in ast.walk(value)):
                continue
            # a frame's or array's column, slice, axis or shape cannot change its columns; its
            # methods and indexers (`df.loc`) can
            if not data or isinstance(value, ast.Attribute) and value.value is _chain_root(value) and \
                    _handle_of(obj, value.attr):
                return True
        return False

    def _predicts(self, call: ast.Call) -> bool:
        """`clf.predict(X)`: a method of PREDICTING (or `score`) of an estimator of scikit-learn's
        own that holds no other (no pipeline's transforming step): it reads X, keeps nothing of it
        and changes nothing in it."""
        func = call.func
        if not isinstance(func, ast.Attribute) or func.attr not in _PREDICTS:
            return False
        est = self._static(func.value, frozenset())
        return est is not _UNKNOWN and est is not _LIBRARY_RESULT and sklearn_estimator(est, alone=True)

    def _stored_unused(self, call: ast.Call, root: str, nodes) -> bool:
        """`pipe = make_pipeline(scaler, svc)`, `root` given only as a step whole: scikit-learn's
        Pipeline stores its steps and changes them only when it is fitted, so the object changes
        through the pipeline's name alone, which the cell names nowhere else before the use."""
        target = self.assigned.get(id(call))
        maker = self._static(call.func, frozenset()) if target is not None else _UNKNOWN
        if maker is _UNKNOWN or maker is _LIBRARY_RESULT or not held_whole(call, maker, {root}):
            return False
        return sum(isinstance(n, ast.Name) and n.id == target for n in nodes) == 1     # its binding alone

    def _read_only(self, func: ast.expr) -> bool:
        """A built-in callee that neither keeps nor changes what it is given (`print`, `len`)?"""
        return self._builtin(func, _READ_ONLY)

    def _builtin(self, func: ast.expr, names: frozenset) -> bool:
        """Is `func` Python's own builtin of one of `names`, neither the cell nor the kernel
        binding that name to anything else?"""
        if not (isinstance(func, ast.Name) and func.id in names) or func.id in self.bindings:
            return False
        return func.id not in self.ns or self.ns[func.id] is getattr(builtins, func.id, None)

    def _may_call(self, arg: ast.expr) -> bool:
        """May `arg` be a function its callee calls (with the receiver)?"""
        if isinstance(arg, ast.Lambda):
            return True
        if not isinstance(arg, (ast.Name, ast.Attribute, ast.Subscript)):
            return False
        if isinstance(arg, ast.Name) and self._read_only(arg):
            return False                    # `people.groupby(len)`: a builtin that only reads
        obj = self._static(arg, frozenset())
        return obj is _UNKNOWN or obj is not _LIBRARY_RESULT and callable(obj)

    def _through_module(self, n: ast.AST) -> bool:
        """Does `n` store through a module (`__main__.v = 3`, `sys.modules["__main__"].v`), which
        may define a name (the notebook's namespace, builtins)?"""
        if not (isinstance(n, (ast.Attribute, ast.Subscript)) and isinstance(n.ctx, (ast.Store, ast.Del))):
            return False
        root = _chain_root(n.value)
        if not isinstance(root, ast.Name):
            return True
        if any(isinstance(v, str) for v in self.bindings.get(root.id, ())):
            return True                     # a module the cell imports
        return root.id in self.ns and issubclass(type(self.ns[root.id]), types.ModuleType)

    def _stores_elsewhere(self, root: str, nodes) -> bool:
        """Does the cell write through an attribute or item that may reach the object: of an
        expression (`[df][0]["c"] = 1`), a module or class (a library patched), or a name of the
        kernel's that holds it? (Writes through `root` itself are the flow's to judge.)"""
        obj = self.ns.get(root)
        for n in nodes:
            if not (isinstance(n, (ast.Attribute, ast.Subscript)) and isinstance(n.ctx, (ast.Store, ast.Del))):
                continue
            base = n.value
            while isinstance(base, (ast.Attribute, ast.Subscript, ast.Call)):
                base = base.func if isinstance(base, ast.Call) else base.value
            if not isinstance(base, ast.Name):
                return True
            if base.id == root or base.id not in self.ns:
                continue                    # the cell's own names: their bindings are judged
            held = self.ns[base.id]
            if issubclass(type(held), (type, types.ModuleType)) or (obj is not None and _holds(held, obj)):
                return True
        return False


def _grouped_selection(expr) -> bool:
    """`<...>.groupby(...)["col"]` or `[["a", "b"]]`: literal columns selected of a grouping."""
    key = expr.slice if isinstance(expr, ast.Subscript) else None
    literal = isinstance(key, ast.Constant) and type(key.value) is str or isinstance(key, ast.List) and \
        bool(key.elts) and all(isinstance(k, ast.Constant) and type(k.value) is str for k in key.elts)
    base = expr.value if literal else None
    return isinstance(base, ast.Call) and isinstance(base.func, ast.Attribute) and base.func.attr == "groupby"


def _lazy_spans(tree: ast.Module, never_suppresses=lambda item: False) \
        -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Spans of the cell that may not run when the cell runs: bodies of branches, loops, `try`,
    `with` (it may suppress: after the first item `never_suppresses` does not vouch for),
    functions, classes, lambdas, annotations, and the lazy parts of expressions."""
    out = []

    def span(nodes):
        nodes = [n for n in nodes if n is not None and hasattr(n, "lineno")]
        if nodes:
            out.append(((nodes[0].lineno, nodes[0].col_offset), (nodes[-1].end_lineno, nodes[-1].end_col_offset)))

    for n in ast.walk(tree):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.Try,
                          getattr(ast, "TryStar", ast.Try), ast.Match)):
            span([n])
        elif isinstance(n, (ast.If, ast.While)):
            span(n.body)
            span(n.orelse)
        elif isinstance(n, (ast.For, ast.AsyncFor)):
            span([n.target])
            span(n.body)
            span(n.orelse)
        elif isinstance(n, (ast.With, ast.AsyncWith)):
            # (an earlier item's exit may suppress what a later one's enter raises, and the body)
            first = next((i for i, item in enumerate(n.items) if not never_suppresses(item.context_expr)), None)
            if first is not None:
                span(n.body)
                later = n.items[first + 1:]
                span(later and [later[0].context_expr, later[-1].optional_vars or later[-1].context_expr])
        elif isinstance(n, ast.IfExp):
            span([n.body])
            span([n.orelse])
        elif isinstance(n, ast.BoolOp):
            span(n.values[1:])
        elif isinstance(n, ast.AnnAssign):
            span([n.annotation])            # not evaluated under `from __future__ import annotations`
        elif isinstance(n, ast.Assert):
            span([n.msg])
        elif isinstance(n, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            # only the first iterable is sure to be read (a generator's: when it is made)
            first = n.generators[0].iter
            for part in (getattr(n, "elt", None), getattr(n, "key", None), getattr(n, "value", None)):
                span([part])
            for g in n.generators:
                span([g.target, *g.ifs])
                if g.iter is not first:
                    span([g.iter])
    return out


def _bindings(tree: ast.Module) -> dict[str, list]:
    """What the cell binds each name to: the expression assigned, the module an import names, or
    the name's place in the target where the value is not known (a loop or `with` target, an
    unpacking, an augmented assignment: `_unknown`), which tells where it is bound."""
    out: dict[str, list] = {}
    for n in ast.walk(tree):
        if isinstance(n, (ast.Import, ast.ImportFrom)):
            for a in n.names:
                module = a.name if isinstance(n, ast.Import) else (n.module or "") if not n.level else ""
                out.setdefault(a.asname or a.name.split(".")[0], []).append(module)
        elif isinstance(n, ast.Assign):
            for t in n.targets:
                if isinstance(t, ast.Name):
                    out.setdefault(t.id, []).append(n.value)
        elif isinstance(n, (ast.AnnAssign, ast.NamedExpr)) and isinstance(n.target, ast.Name):
            out.setdefault(n.target.id, []).append(n.value)
    known = {id(t) for n in ast.walk(tree) if isinstance(n, ast.Assign) for t in n.targets} | \
        {id(n.target) for n in ast.walk(tree) if isinstance(n, (ast.AnnAssign, ast.NamedExpr))}
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and id(n) not in known:
            out.setdefault(n.id, []).append(n)
    return out


def _unpacked_calls(tree: ast.Module) -> dict[int, ast.Call]:
    """The calls whose result the cell unpacks into plain names (`a, b = f(...)`), by the id of
    each name's place in the target."""
    out: dict[int, ast.Call] = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call):
            for t in n.targets:
                if isinstance(t, (ast.Tuple, ast.List)) and all(isinstance(e, ast.Name) for e in t.elts):
                    out.update((id(e), n.value) for e in t.elts)
    return out


def _unknown(binding) -> bool:
    """A binding _bindings cannot tell the value of: the name's place in a target (an unpacking,
    a loop's or `with`'s target, an augmented assignment)."""
    return isinstance(binding, ast.Name)


def _registers(call: ast.Call) -> bool:
    """A library's registration call (`pd.api.extensions.register_dataframe_accessor("geo")`):
    it adds attributes to classes."""
    f = call.func
    name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
    return name.startswith("register")


def _names_before(stmt: ast.Import | ast.ImportFrom, at) -> ast.Import | ast.ImportFrom:
    """The import statement as far as it runs before the use at `at`: its names before it (an
    import's names are imported in turn; the use's own is the one found missing)."""
    names = [a for a in stmt.names if (a.lineno, a.col_offset) < at]
    return ast.ImportFrom(stmt.module, names, stmt.level) if isinstance(stmt, ast.ImportFrom) else ast.Import(names)


def _first_import(node: ast.Import | ast.ImportFrom) -> bool:
    """Does the statement import a module this process has not imported yet? Its code runs then,
    and a module may add names to the namespace or attributes to a library's classes (a pandas
    accessor) on import."""
    import sys
    if isinstance(node, ast.ImportFrom):
        if node.level or node.module not in sys.modules:
            return True
        # `from pkg import sub`: a submodule's first import runs it
        package = POLICY.module_members(sys.modules[node.module])
        return "__path__" in package and any(
            a.name != "*" and f"{node.module}.{a.name}" not in sys.modules and a.name not in package
            for a in node.names)
    return any(a.name not in sys.modules for a in node.names)


def _library_module(name: str | None) -> bool:
    """Is the module `name` a library's (imported or not: found by its top-level package's place,
    without importing it)?"""
    from .libraries import _library_dirs
    if not name:
        return False
    if POLICY.is_library_module(name):
        return True
    import importlib.util
    import sys
    top = name.split(".")[0]
    if top in sys.modules:
        return POLICY.is_library_module(top)
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return False
    origin = getattr(spec, "origin", None) if spec is not None else None
    return isinstance(origin, str) and origin.startswith(_library_dirs())


def _within(node: ast.AST, at: tuple[int, int]) -> bool:
    return hasattr(node, "end_lineno") and (node.lineno, node.col_offset) <= at <= (node.end_lineno, node.end_col_offset)


def _plain_data(obj) -> bool:
    return obj is None or type(obj) in (int, float, bool, str, bytes, complex)


def _chain_root(expr: ast.expr) -> ast.expr:
    """The expression a chain of attributes, items and calls starts from."""
    while isinstance(expr, (ast.Attribute, ast.Subscript, ast.Call)):
        expr = expr.func if isinstance(expr, ast.Call) else expr.value
    return expr


def _holder(obj) -> bool:
    """An object whose items or attributes are anything (the user's objects too)."""
    return type(obj) in (dict, list, tuple, set, frozenset, types.SimpleNamespace, functools.partial) or \
        issubclass(type(obj), types.ModuleType)


def _literal_display(node) -> bool:
    """A list, tuple, dict or set display of constants alone (nested displays too)."""
    if not isinstance(node, (ast.List, ast.Tuple, ast.Dict, ast.Set)):
        return False
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


def _bare_names(expr: ast.expr) -> set[str]:
    """Names an expression hands on as themselves (`tmp = df`, `{"tr": train}`, `(df, y)`), not
    through an attribute, item or call of theirs."""
    out = set()
    todo = [expr]
    while todo:
        n = todo.pop()
        if isinstance(n, ast.Name):
            out.add(n.id)
        elif isinstance(n, (ast.Tuple, ast.List, ast.Set)):
            todo.extend(n.elts)
        elif isinstance(n, ast.Dict):
            todo.extend(v for v in n.values if v is not None)
        elif isinstance(n, ast.Starred):
            todo.append(n.value)
        elif isinstance(n, (ast.IfExp, ast.BoolOp, ast.NamedExpr)):
            todo.extend(ast.iter_child_nodes(n))
    return out


def _lazy(obj) -> bool:
    """A generator or coroutine, a lazy iterator of Python's (`map`, `filter`, `zip`, `enumerate`,
    `reversed`, `iter(f, sentinel)`) or of itertools: its next item may be the user's code's."""
    kind = type(obj)
    return kind in (types.GeneratorType, types.AsyncGeneratorType, types.CoroutineType, map, filter, zip, enumerate,
                    reversed) or kind.__module__ == "itertools" or kind.__name__ == "callable_iterator"


def _holds(container, obj, depth: int = 3) -> bool:
    """Does `container` hold `obj`, as itself, an item of a dict, list, tuple or set, or an
    attribute in an instance's own dict, `depth` levels deep? Read through the built-in types'
    own slots (no code of the user's runs); an object too large to read says yes (unsure)."""
    import types
    budget = [_HOLDS_BUDGET]
    seen: set[int] = set()

    def walk(x, d: int) -> bool:
        if x is obj:
            return True
        if d == 0 or _plain_data(x) or id(x) in seen:
            return False
        seen.add(id(x))
        budget[0] -= 1
        if budget[0] < 0:
            return True
        t = type(x)
        if t in (list, tuple, set, frozenset):
            items = list(x)
        elif t is dict:
            items = list(dict.values(x))
        elif issubclass(t, types.ModuleType):
            if _library_module(POLICY.module_members(x).get("__name__")):
                return False                # a library's module holds none of the user's objects
            items = POLICY.own_attributes(x)
        elif t is types.MethodType:
            items = [x.__self__]            # `ins = df.insert`: a method bound to the object
        elif issubclass(t, (type, types.FunctionType, types.BuiltinFunctionType)) or _data_of_library(t):
            return False                    # code, arrays and frames: not where a user keeps objects
        elif _module_of_type(t).split(".")[0] == "pandas" and any(
                POLICY.static(x, n, None) is not None for n in ("obj", "_obj", "_parent")):
            return True                     # an indexer, accessor or groupby: it may view a frame
        else:
            items = POLICY.own_attributes(x)
        if items is None:
            return False
        if len(items) > _HOLDS_BUDGET:
            return True
        return any(walk(i, d - 1) for i in items)

    return walk(container, depth)


def _data_of_library(t: type) -> bool:
    """Is `t` numpy's or pandas' own data (an array, a frame, a scalar, a dtype)?"""
    top = _module_of_type(t).split(".")[0]
    if top == "numpy":
        return True
    import sys
    pd = sys.modules.get("pandas")
    return top == "pandas" and pd is not None and issubclass(t, (pd.DataFrame, pd.Series, pd.Index))


def _handle_of(obj, attr: str) -> bool:
    """Is `obj.attr` a method of the object or an indexer of pandas' (`loc`, `at`), read from the
    class without running it? Either may change the object later."""
    found = POLICY.static(obj, attr, None)
    if found is None:
        return False                        # a frame's column, by pandas' `__getattr__`
    if issubclass(type(found), (types.FunctionType, types.BuiltinFunctionType, types.MethodDescriptorType,
                                types.WrapperDescriptorType, staticmethod, classmethod)):
        return True
    fget = POLICY.property_getter(found) if type(found) is property else None
    return type(fget) is types.FunctionType and fget.__qualname__.startswith("IndexingMixin.")


def _module_of_type(t: type) -> str:
    """The module a class names, read through `type`'s own slot (no metaclass code runs)."""
    name = POLICY.module_of(t)
    return name if type(name) is str else ""


_HOLDS_BUDGET = 2000
