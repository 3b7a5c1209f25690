"""The walk's checks of calls (`_Walk` in facts.py inherits them): a call's arguments bound to
the callee's signature, an estimator's fit and the columns it was fitted on, the parameters a
fit rejects, `pd.concat`'s items, the class a call makes; and the helpers they share with the
walk (a column in characters, near spellings, a literal display).
"""
from __future__ import annotations

import ast
import sys
import types

from ..pytext.pycheck import near_typo
from .column_values import conversion_claim
from .displays import display_claim
from .estimators import NEEDS_FIT, WITH_Y, estimator_problem, samples_problem
from .instances import Instance, instance_class, made_class
from .labels import dropped_row_label, missing_group
from .abstract import Propagation
from .abstract_value import Abstract, array_like
from .metrics import metric_claim
from .namespace import UNRESOLVED, Made, chain_root
from .pandas_lookup import lookup, made_labels, selected
from .parameters import FITTING, fit_parameter_problem
from .read_policy import POLICY
from .returns import called_class, method_class
from .renamed import renamed_keyword
from .signatures import bind_error
from .values import call_claim


class CallUses:
    """`_Walk`'s methods for calls: they read its namespace, flow and facts through `self`."""

    def _call(self, n: ast.Call, local: set[str], value) -> None:
        if any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg is None for k in n.keywords):
            return
        func = n.func
        self._label(missing_group(n, lambda x: self._live(x, local)))
        self._label(dropped_row_label(n, lambda x: self._live(x, local)))
        # a method's signature does not change when its object does (`model.fit(X)` first)
        target = self._live_or_builtin(func, local, changes_matter=not isinstance(func, ast.Attribute))
        if target is UNRESOLVED:
            self._column_arguments(n, local, target)        # `df.groupby(k).agg({...})`: df's
            if isinstance(func, ast.Attribute) and not self._refitted(n, local, value) and \
                    not self._fit_parameters(n, value) and \
                    not self._value(display_claim(n, target, value)):      # of a value the cell made
                if not self._value(call_claim(n, target, value, lambda x: self._live(x, local, changes_matter=False),
                                              self._text, fitted_here=self._fitted_here)) and \
                        not self._made_samples(n, value):
                    self._made_method_call(n, local)
            return
        if not callable(target):        # the type's slot, read: nothing of the object runs
            if type(target).__module__ != "IPython.core.guarded_eval" and _plain_value(target):
                self._at_callee(func, f"{ast.unparse(func)} is a {type(target).__name__}, not a function: "
                                      "calling it raises TypeError")
            return
        self._column_arguments(n, local, target)
        if isinstance(func, ast.Attribute) and func.attr in NEEDS_FIT | WITH_Y and self._estimator(n, local, value):
            return
        if self._concat_items(n, target, local):
            return
        if self._value(display_claim(n, target, value)) or \
                self._value(call_claim(n, target, value, lambda x: self._live(x, local, changes_matter=False),
                                       self._text)) or \
                self._value(conversion_claim(n, target, lambda x: self._live_or_builtin(x, local))) or \
                self._value(metric_claim(n, target, lambda x: self._live(x, local))):
            return
        self._bind(n, target, len(n.args))

    def _concat_items(self, n: ast.Call, target, local: set[str]) -> bool:
        """`pd.concat([df, {"a": 1}])`: pandas' concat takes Series and DataFrames only; an item
        of its list that is a dict, list, number or text (written so, or a name the kernel binds
        to one) raises TypeError. The fix makes a dict a one-row frame."""
        pd = sys.modules.get("pandas")
        if pd is None or target is not POLICY.static(pd, "concat", None) or not n.args or \
                not isinstance(n.args[0], (ast.List, ast.Tuple)):
            return False
        for e in n.args[0].elts:
            if isinstance(e, (ast.Dict, ast.List, ast.Constant)):
                kind = {ast.Dict: dict, ast.List: list}.get(type(e)) or type(e.value)
            elif isinstance(e, ast.Name) and e.id not in local and e.id not in self.state.bound and \
                    type(self.ns.get(e.id)) in (dict, list, str, int, float):
                kind = type(self.ns[e.id])
            else:
                continue
            message = (f"{ast.unparse(n.func)}() cannot concatenate object of type '{kind}'; only "
                       "Series and DataFrame objs are valid: TypeError")
            module = ast.unparse(n.func.value) if isinstance(n.func, ast.Attribute) else None
            text = self._text(e)
            if e.lineno != e.end_lineno or module is None or text is None:
                self._at_callee(n.func, message)
                return True
            fixes = [f"{module}.DataFrame([{text}])"] if kind is dict else \
                [f"{module}.DataFrame({text})"] if kind is list else []
            self._add("call", e.lineno, _chars(self.lines, e.lineno, e.col_offset), None, message, fixes,
                      end=_chars(self.lines, e.lineno, e.end_col_offset))
            return True
        return False

    def _fit_parameters(self, n: ast.Call, value) -> bool:
        """`est.fit(X, y)`, `SVC(C=-1).fit(X, y)`: an estimator the cell makes whose parameters
        scikit-learn's fit rejects before it reads X (parameters.py)."""
        if n.func.attr not in FITTING:
            return False
        est = value(n.func.value)
        if not (issubclass(type(est), Abstract) and est.like == "estimator"):
            return False
        problem = fit_parameter_problem(est.instance(), n.func.attr, len(n.args), [k.arg for k in n.keywords])
        if problem is None:
            return False
        self._at_callee(n.func, f"{ast.unparse(n.func)}(): {problem}", "value")
        return True

    def _made_method_call(self, n: ast.Call, local: set[str]) -> None:
        """`frame.reindex(idex=...)` on a value the cell makes whose class is known (instances.py,
        returns.py): the method as the class defines it, a library's Python or compiled function
        (its signature names the receiver first)."""
        cls = self._class_of(n.func.value, local)
        method = POLICY.static(cls, n.func.attr, None) if cls is not None else None
        compiled = type(method).__name__ == "cython_function_or_method"     # numpy.random's Generator's
        if method is not None and (type(method) is types.FunctionType or compiled) and POLICY.is_library(method):
            self._bind(n, method, len(n.args) + 1)

    def _instance(self, node: ast.expr, cls: type, local: set[str]) -> Instance:
        """What `node` makes, of class `cls`: with its value if it is a literal display, with
        the labels pandas' attribute lookup answers on it where they are known."""
        labels = None
        if isinstance(node, ast.Call) and lookup(cls) is not None:
            propagation = Propagation(lambda x: self._read(x, local), shapes=self.shapes)

            def value(x: ast.AST):
                v = propagation.value(x)
                if v is UNRESOLVED and isinstance(x, ast.Call):     # `df.dropna().head()`: a call's own
                    made = self._call_class(x, local)
                    return self._instance(x, made, local) if made is not None else v
                return v
            labels = made_labels(node, cls, value)
        return Instance(cls, _literal_display(node), labels)

    def _selected(self, node: ast.expr, local: set[str], otherwise):
        """`g["col"]` of a DataFrameGroupBy: the SeriesGroupBy (or DataFrameGroupBy) pandas makes
        of it (pandas_lookup.selected); `otherwise` for anything else or a value already known."""
        if issubclass(type(otherwise), Made) or not isinstance(node, ast.Subscript):
            return otherwise
        got = selected(node, lambda x: self._made_or_live(x, local))
        return Instance(got[0], UNRESOLVED, got[1]) if got is not None else otherwise

    def _made_or_live(self, node: ast.expr, local: set[str]):
        """_read, and of a library call the instance of the class it declares (`df.groupby(k)`)."""
        v = self._read(node, local)
        if v is UNRESOLVED and isinstance(node, ast.Call):
            cls = self._call_class(node, local)
            return self._instance(node, cls, local) if cls is not None else v
        return v

    def _class_of(self, node: ast.expr, local: set[str]) -> type | None:
        """The class of what `node` evaluates to, where it is certain: a value the cell made whose
        class is known, a library call that declares its class, a live object's (a library's)."""
        if isinstance(node, ast.Call):
            return self._call_class(node, local)
        if isinstance(node, ast.Subscript) and (got := selected(node, lambda x: self._made_or_live(x, local))) is not None:
            return got[0]
        cls = made_class(node, lambda f: self._live_or_builtin(f, local))
        if cls is not None:
            return cls
        obj = self._live(node, local, changes_matter=False, made=True)
        if obj is UNRESOLVED:
            return None
        if issubclass(type(obj), Made):
            if obj.of_class() is not None:
                return obj.of_class()
            known = instance_class(obj)
            return known[0] if known is not None else None
        return type(obj) if POLICY.is_library(type(obj)) else None

    def _call_class(self, n: ast.Call, local: set[str]) -> type | None:
        """The class a library call's result has, as the library declares it (returns.py)."""
        keywords = [k.arg for k in n.keywords if k.arg is not None]
        callee = self._live_or_builtin(n.func, local, changes_matter=False)
        if callee is not UNRESOLVED and not issubclass(type(callee), Made):
            owner = callee.__self__ if type(callee) is types.MethodType else None
            return called_class(callee, type(owner) if owner is not None else None, keywords, len(n.args))
        if isinstance(n.func, ast.Attribute):
            receiver = self._class_of(n.func.value, local)
            if receiver is not None:
                return method_class(receiver, n.func.attr, keywords, len(n.args))
        return None

    def _bind(self, n: ast.Call, target, n_args: int) -> None:
        """A call fact where the callable's signature refuses the call's arguments."""
        func = n.func
        err = bind_error(target, n_args, [k.arg for k in n.keywords])
        if err is None:
            return
        name = ast.unparse(func)
        kw = next((k for k in n.keywords if k.arg == err.keyword), None)
        if kw is not None:
            near = _near(kw.arg, list(err.parameters), prefixes=True)
            message = f"{name}() {_bare(err.message)}"
            if (r := renamed_keyword(target, kw.arg, kw.value, n.keywords)) is not None:    # a release renamed it
                message = message + r.note
                if self._rewritten("call", r, n, message) or self._rewritten_keyword(r, kw, message):
                    return
                near = ([r.new] if r.new else []) + near
            self._add("call", kw.lineno, _chars(self.lines, kw.lineno, kw.col_offset), kw.arg, message, near,
                      recorded=bool(r and r.new))
        else:
            self._at_callee(func, f"{name}() {_bare(err.message)}")

    def _estimator(self, n: ast.Call, local: set[str], value) -> bool:
        """`model.predict(X)`: a scikit-learn estimator not fitted, or fitted on other columns or
        another number of them; `model.fit(X, y)` with y of another length (a fact placed on the
        method's name). X and y live, written as literals or made by the cell (`value`). The
        estimator as it is now: a `fit` earlier in the cell changes it (then no fact)."""
        as_now = self._live(n.func.value, local)        # UNRESOLVED if the cell changed it before
        est = as_now if as_now is not UNRESOLVED else self._live(n.func.value, local, changes_matter=False)
        if est is UNRESOLVED:
            return False
        x_arg, y_arg = (self._argument(n, k, name) for k, name in ((0, "X"), (1, "y")))
        x, y = (self._input(a, local, value) for a in (x_arg, y_arg))
        problem = None
        if x is not UNRESOLVED and y is not UNRESOLVED:
            problem = samples_problem(est, n.func.attr, x, y, ast.unparse(x_arg), ast.unparse(y_arg))
        # the estimator's own state: not after the cell changed it or named it earlier (it may
        # have gone into something that fits it in place, a pipeline or a list looped over)
        root = chain_root(n.func.value)
        if problem is None and as_now is not UNRESOLVED and \
                self._first_seen.get(root, (1 << 30, 0)) >= (n.func.value.lineno, n.func.value.col_offset):
            problem = estimator_problem(est, n.func.attr, None if x is UNRESOLVED else x,
                                        has_x=x is not UNRESOLVED,
                                        x_name=ast.unparse(x_arg) if x_arg is not None else "X")
        if problem is None:
            return False
        self._at_callee(n.func, f"{ast.unparse(n.func)}(): {problem}")
        return True

    def _input(self, node: ast.expr | None, local: set[str], value):
        """An estimator's X or y: the live object, else the array a literal or a value the cell
        makes stands for (abstract_value.array_like); UNRESOLVED when neither is known."""
        if node is None:
            return UNRESOLVED
        live = self._live(node, local)
        if live is not UNRESOLVED:
            return live
        made = array_like(node, value)
        return made if made is not None else UNRESOLVED

    def _made_samples(self, n: ast.Call, value) -> bool:
        """`LinearRegression().fit(X_train, y_test)`, `m.fit(...)` of an estimator the cell made:
        X and y of different lengths (scikit-learn's check_consistent_length), by its class's tags."""
        est = value(n.func.value)
        x_arg, y_arg = (self._argument(n, k, name) for k, name in ((0, "X"), (1, "y")))
        if not (issubclass(type(est), Abstract) and est.like == "estimator") or x_arg is None or y_arg is None:
            return False
        x, y = array_like(x_arg, value), array_like(y_arg, value)
        made = est.instance()
        if made is None or x is None or y is None:
            return False
        problem = samples_problem(made, n.func.attr, x, y, ast.unparse(x_arg), ast.unparse(y_arg))
        if problem is None:
            return False
        self._at_callee(n.func, f"{ast.unparse(n.func)}(): {problem}")      # as a live estimator's
        return True


def _plain_value(obj) -> bool:
    """A value whose type Python or a library defines (an int, an array, a DataFrame): calling it
    surely fails. An instance of the user's class might be made callable another way."""
    return type(obj).__module__ == "builtins" or POLICY.is_library(type(obj))


def _chars(lines: list[str], line: int, byte_col: int) -> int:
    """A character column from the AST's UTF-8 byte column."""
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return len(text.encode("utf-8")[:byte_col].decode("utf-8", "replace"))


def _near(word: str, options, *, prefixes: bool = False) -> list[str]:
    """The options a slip of `word` could have meant, closest first; with `prefixes`, also an
    option that one of the two begins (a keyword's short form: `seperator` -> `sep`)."""
    low = word.lower().replace("_", "").replace(" ", "")
    scored = []
    for o in options:
        if not isinstance(o, str) or o == word:
            continue
        short = o.lower().replace("_", "").replace(" ", "")
        if short == low:
            scored.append((0, o))
        elif near_typo(word, o) or near_typo(word.lower(), o.lower()):
            scored.append((1, o))
        elif prefixes and min(len(short), len(low)) >= 3 and (low.startswith(short) or short.startswith(low)):
            scored.append((2, o))
    return [o for _, o in sorted(scored, key=lambda x: (x[0], len(x[1])))]


def _bare(message: str) -> str:
    """Python's bind message without its own prefix."""
    return message[0].lower() + message[1:] if message else message


def _literal_display(node: ast.expr):
    """The value of a list, tuple or dict display of literals (`{"C": [1, 10]}`), else UNRESOLVED."""
    if not isinstance(node, (ast.List, ast.Tuple, ast.Dict)):
        return UNRESOLVED
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return UNRESOLVED
