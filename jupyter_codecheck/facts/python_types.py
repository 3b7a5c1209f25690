"""Python's own rules on the types of the values it is given, asked of Python on a stand-in of each
value's type (a builtin value's representative: `1` for an int, `"a"` for a str; a numpy array's
zeros of its dimensions and dtype; a function or method itself):

    operators   `"Total: " + total` of a live int, `eps ^ 2` of a float, `1 - a.sum` (the method, not
                called), `a.mean > 2`, `-mask` of a boolean array (numpy's boolean negative)
    builtins    `len(total)`, `range(2.5)`, `sum(count)`: a builtin asked on its arguments' stand-ins
    iteration   `for c in total:`, `[x for x in None]`
    subscripts  `total[0]`, `g.reshape[4, 6]` (a method subscripted: the fix, its call)

A TypeError of these is the operand types' alone (a value-dependent failure, a ZeroDivisionError, is
not asked); nothing of the user's runs (a builtin type's operators, a method object's own type).
"""
from __future__ import annotations

import ast
import builtins
import re
import sys
import types
import warnings

from .abstract_value import Abstract
from .claims import Live, Text, ValueClaim, read_otherwise_no_claim
from .namespace import UNRESOLVED, Made, written_literal
from .read_policy import POLICY

_UNKNOWN = object()
# values Python subscripts with no `__getitem__` nor `__class_getitem__`, calls, and whose type has no operators
CALLABLES = (types.BuiltinFunctionType, types.MethodType, types.FunctionType, types.MethodWrapperType)


def operator_sign(op: ast.AST) -> str:
    """How the operator is written (`ast.BitXor`: "^")."""
    return _OPERATORS[type(op)]


@read_otherwise_no_claim
def not_callable_claim(n: ast.Call, value: Live) -> ValueClaim | None:
    """`a[:, None].shape()`, `X.T()` of an array the cell made: the attribute read on a stand-in of
    the object's type (_stand_in_of) is no function (a live object's own: facts.py)."""
    if not isinstance(n.func, ast.Attribute) or n.func.attr.startswith("_"):
        return None
    owner = _stand_in_of(n.func.value, value)
    if owner is _UNKNOWN or type(owner) in CALLABLES:
        return None
    got = getattr(owner, n.func.attr, _UNKNOWN)
    if got is _UNKNOWN or got is None or callable(got):
        return None                     # (None: of the stand-in's values, such as its `base`)
    names = tuple(dict.fromkeys(x.id for x in ast.walk(n.func.value) if isinstance(x, ast.Name)))
    return ValueClaim(n.func, f"{ast.unparse(n.func)} is a {type(got).__name__}, not a function: "
                              f"'{type(got).__name__}' object is not callable: TypeError", "TypeError", callee=True,
                      subjects=names, literal=not names)


def sequence_index_claim(n: ast.Subscript, live: Live) -> ValueClaim | None:
    """`L[10]` of a live list, tuple, str or range of Python's own (as the cell finds it) of ten
    items, read, or a list's item set (`L[10] = 0`): Python's IndexError for a position written
    past either end."""
    key = n.slice.value if isinstance(n.slice, ast.Constant) else \
        -n.slice.operand.value if isinstance(n.slice, ast.UnaryOp) and isinstance(n.slice.op, ast.USub) and \
        isinstance(n.slice.operand, ast.Constant) else None
    v = live(n.value)
    store = isinstance(n.ctx, ast.Store) and type(v) is list    # `L[5] = 100`: a list's item set past its end
    if type(key) is not int or type(v) not in (list, tuple, str, range) or not (isinstance(n.ctx, ast.Load) or store):
        return None
    size = len(v)                       # (Python's own sequence: its length, no code runs)
    if -size <= key < size:
        return None
    what = "list assignment" if store else {list: "list", tuple: "tuple", str: "string", range: "range object"}[type(v)]
    at = ast.copy_location(ast.Subscript(n.value, n.slice, ast.Load()), n) if store else n   # (placed as read)
    return ValueClaim(at, f"{ast.unparse(n.value)} holds {size} item{'s' if size != 1 else ''}: {what} index out of "
                          "range: IndexError", "IndexError")


def not_subscriptable_claim(n: ast.Subscript, live: Live, text: Text) -> ValueClaim | None:
    v = live(n.value)
    if type(v) in (int, float, complex, bool, type(None)):
        return ValueClaim(n, f"{ast.unparse(n.value)} is {'None' if v is None else _kind(v)}: "
                             f"'{type(v).__name__}' object is not subscriptable: TypeError", "TypeError")
    np = sys.modules.get("numpy")
    if np is not None and issubclass(type(v), np.generic) and type(v).__module__ == "numpy" and v.dtype.kind in "biufc":
        return _scalar_indexed(n, v, np)
    if type(v) not in CALLABLES:
        return None
    owner = None if type(v) is types.FunctionType else v.__self__     # a C member of the method: no code runs
    what = "function" if owner is None or issubclass(type(owner), types.ModuleType) else "method"
    written, inside = text(n.value), text(n.slice)
    fixes = [f"{written}({inside})"] if written is not None and inside is not None else []
    # what it reads is the object the chain's root holds (`np` of `np.zeros[10]`): the guard asks of that name
    root = n.value
    while isinstance(root, ast.Attribute):
        root = root.value
    return ValueClaim(n, f"{ast.unparse(n.value)} is a {what}: '{type(v).__name__}' object is not subscriptable "
                         "(a call is written with parentheses): TypeError", "TypeError", fixes,
                      subjects=(root.id,) if isinstance(root, ast.Name) else None)


# -- operators ------------------------------------------------------------------------------------------

# a stand-in of each builtin type: Python's operators refuse an operand for its type alone
_REPRESENTATIVES = {int: 1, float: 1.0, complex: 1j, bool: True, str: "a", bytes: b"a", type(None): None,
                    list: [1], tuple: (1,), dict: {1: 1}, set: {1}, frozenset: frozenset({1}), range: range(1)}
_ORDERING = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)
_OPERATORS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
              ast.Pow: "**", ast.LShift: "<<", ast.RShift: ">>", ast.BitOr: "|", ast.BitXor: "^",
              ast.BitAnd: "&", ast.MatMult: "@", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
              ast.USub: "-", ast.UAdd: "+", ast.Invert: "~"}


@read_otherwise_no_claim
def operator_claim(n: ast.BinOp | ast.UnaryOp | ast.Compare, value: Live) -> ValueClaim | None:
    """`"Total: " + total` of a live int, `eps ^ 2` of a float, `1 - a.sum` (the method, not called),
    `a.mean > 2`, `-mask` of a boolean array: Python's (or numpy's) operator asked on a stand-in of
    each operand's type (_stand_in_of), which is all its TypeError reads. `value`: the live object or
    what the cell made."""
    if isinstance(n, ast.BinOp):
        if isinstance(n.op, ast.Mod) and isinstance(n.left, (ast.Constant, ast.JoinedStr)):
            return None                 # `"%d" % x` reads the text: values.py's
        pairs = [(n.op, n.left, n.right)]
    elif isinstance(n, ast.UnaryOp):
        pairs = [(n.op, n.operand, None)] if not isinstance(n.op, ast.Not) else []
    else:
        parts = [n.left, *n.comparators]
        pairs = [(op, parts[i], parts[i + 1]) for i, op in enumerate(n.ops) if isinstance(op, _ORDERING)][:1]
    for op, left, right in pairs:
        a = _stand_in_of(left, value)
        b = _stand_in_of(right, value) if right is not None else None
        if a is _UNKNOWN or b is _UNKNOWN:
            continue
        refused = _refused(op, a, b)
        if refused is not None:
            said = f"{operator_sign(op)} of {_kind(a)}" + (f" and {_kind(b)}" if right is not None else "")
            reason = " ".join(str(refused).split())[:200]
            # what is read: the operands' names (a literal's type is the text's)
            names = tuple(dict.fromkeys(x.id for part in (left, right) if part is not None
                                        for x in ast.walk(part) if isinstance(x, ast.Name)))
            return ValueClaim(n, f"{ast.unparse(n)}: {said}: {reason}: {type(refused).__name__}",
                              type(refused).__name__, subjects=names, literal=not names)
    return None


def _scalar_indexed(n: ast.Subscript, v, np) -> ValueClaim | None:
    """`model.intercept_[0]` of a numpy number: the literal key asked of a zero of its type (numpy
    takes `()` and `...` alone)."""
    try:
        key = ast.literal_eval(n.slice)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    try:
        np.zeros((), dtype=v.dtype)[()][key]
    except IndexError as e:
        return ValueClaim(n, f"{ast.unparse(n.value)} is numpy's {type(v).__name__}, one number: {e}: IndexError",
                          "IndexError")
    except Exception:  # noqa: BLE001 - another failure: not claimed
        return None
    return None


def _refused(op, a, b) -> TypeError | None:
    """The TypeError the operator raises on the stand-ins (any other failure may be of the values)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _operate(op, a, b)
    except TypeError as e:
        return e
    except Exception:  # noqa: BLE001 - another failure may be of the values: not claimed
        return None
    return None


# Python's builtins whose TypeError of an argument is its type's alone
_TYPED_BUILTINS = frozenset({"len", "sum", "sorted", "min", "max", "abs", "round", "range", "enumerate", "zip",
                             "iter", "list", "tuple", "set", "int", "float", "reversed", "str"})


@read_otherwise_no_claim
def builtin_call_claim(n: ast.Call, target, value: Live) -> ValueClaim | None:
    """`len(total)` of a live int, `range(2.5)`, `sum(count)`: one of Python's builtins asked on a
    stand-in of each argument's type (positional arguments only)."""
    import builtins
    name = next((b for b in _TYPED_BUILTINS if target is getattr(builtins, b)), None)
    if name is None or n.keywords or not n.args or any(isinstance(a, ast.Starred) for a in n.args):
        return None
    given = [_stand_in_of(a, value) for a in n.args]
    if any(g is _UNKNOWN for g in given):
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            target(*given)
    except TypeError as e:
        names = tuple(dict.fromkeys(x.id for a in n.args for x in ast.walk(a) if isinstance(x, ast.Name)))
        kinds = ", ".join(_kind(g) for g in given)
        return ValueClaim(n.func, f"{name}() of {kinds}: {' '.join(str(e).split())[:200]}: TypeError", "TypeError",
                          callee=True, subjects=names, literal=not names)
    except Exception:  # noqa: BLE001 - another failure may be of the values: not claimed
        return None
    return None


@read_otherwise_no_claim
def iteration_claim(node: ast.expr, value: Live) -> ValueClaim | None:
    """`for c in total:` of a live number or None: Python's iter() asked on a stand-in of its type."""
    v = _not_a_container(node, value)
    if v is _UNKNOWN:
        return None
    try:
        iter(v)
    except TypeError as e:
        names = tuple(dict.fromkeys(x.id for x in ast.walk(node) if isinstance(x, ast.Name)))
        return ValueClaim(node, f"{ast.unparse(node)} is {'None' if v is None else _kind(v)}: {e}: TypeError",
                          "TypeError", subjects=names)
    return None


def unpacking_claim(s: ast.Assign, value: Live) -> ValueClaim | None:
    """`r, c = a.size`, `n, d = x.as_integer_ratio`: Python unpacks only what it can iterate; a
    number, None or a function or method (its type, asked on a stand-in) is not: TypeError."""
    v = _not_a_container(s.value, value)
    if v is _UNKNOWN:
        return None
    try:
        _first, *_rest = v
    except TypeError as e:
        return ValueClaim(s.value, f"{ast.unparse(s.targets[0])} = {ast.unparse(s.value)}: {e}: TypeError", "TypeError",
                          subjects=tuple(dict.fromkeys(x.id for x in ast.walk(s.value) if isinstance(x, ast.Name))))
    return None


def _not_a_container(node: ast.expr, value: Live):
    """A stand-in of the value's type where that is None, a number or a function or method (none
    of which Python iterates); _UNKNOWN otherwise."""
    v = _stand_in_of(node, value)
    return v if v is not _UNKNOWN and (v is None or type(v) in (int, float, complex, bool) or type(v) in CALLABLES) \
        else _UNKNOWN


_IN_PLACE = {ast.Add: "iadd", ast.Sub: "isub", ast.Mult: "imul", ast.Div: "itruediv", ast.FloorDiv: "ifloordiv",
             ast.Mod: "imod", ast.Pow: "ipow", ast.LShift: "ilshift", ast.RShift: "irshift", ast.BitOr: "ior",
             ast.BitXor: "ixor", ast.BitAnd: "iand", ast.MatMult: "imatmul"}


@read_otherwise_no_claim
def inplace_type_claim(n: ast.AugAssign, value: Live) -> ValueClaim | None:
    """`x[i] -= 10.5` of an array of integers (numpy will not cast the float result back into it),
    `total += "a"` of an int: the augmented operator asked on stand-ins of both sides' types."""
    import copy
    import operator
    target = n.target
    if isinstance(target, ast.Subscript):       # an array's items are of its dtype: the array's stand-in
        target = target.value
    if not isinstance(target, ast.Name):
        return None
    a, b = _stand_in_of(target, value), _stand_in_of(n.value, value)
    np = sys.modules.get("numpy")
    if a is _UNKNOWN or b is _UNKNOWN or isinstance(n.target, ast.Subscript) and \
            not (np is not None and type(a) is np.ndarray and _selects_array(n.target.slice, a.ndim, value, np)):
        return None                     # (`d["k"] += 1`, `x[1] -= 0.5`: an item, set back by its own rules)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            getattr(operator, _IN_PLACE[type(n.op)])(copy.copy(a), b)
    except TypeError as e:
        names = tuple(dict.fromkeys(x.id for x in ast.walk(n) if isinstance(x, ast.Name)))
        return ValueClaim(n, f"{ast.unparse(n.target)} {operator_sign(n.op)}= {ast.unparse(n.value)}: "
                             f"{operator_sign(n.op)}= of {_kind(a)} and {_kind(b)}: {' '.join(str(e).split())[:200]}: "
                             f"{type(e).__name__}", type(e).__name__, subjects=names, literal=not names)
    except Exception:  # noqa: BLE001 - another failure may be of the values: not claimed
        return None
    return None


def _selects_array(key: ast.expr, ndim: int, value: Live, np) -> bool:
    """Does `x[key]` of an array of `ndim` dimensions read an array (a slice, an index array, a mask,
    fewer indices than dimensions), whose in-place operator keeps its dtype, and not one number?"""
    parts = key.elts if isinstance(key, ast.Tuple) else [key]
    arrays = 0
    for part in parts:
        if isinstance(part, ast.Slice):
            arrays += 1
            continue
        v = part.value if isinstance(part, ast.Constant) else value(part)
        if type(v) in (int, bool) or np is not None and isinstance(type(v), type) and issubclass(type(v), np.integer):
            continue
        if np is not None and type(v) is np.ndarray or issubclass(type(v), Abstract) and v.like == "ndarray" or \
                isinstance(part, ast.List):
            arrays += 1
            continue
        return False                    # (None, Ellipsis, a name not known: not judged)
    return arrays > 0 or len(parts) < ndim


def _stand_in_of(node: ast.expr | None, value: Live):
    """A stand-in of the operand's type: a builtin value's representative, a numpy array of numbers
    or booleans as one zero of its dtype and dimensions, a function or method itself (its type has
    no operators); _UNKNOWN where the type is not known or is not one of those."""
    if isinstance(node, ast.JoinedStr):
        return "a"
    if isinstance(node, (ast.List, ast.Tuple, ast.Dict, ast.Set)):
        return _REPRESENTATIVES[{ast.List: list, ast.Tuple: tuple, ast.Dict: dict, ast.Set: set}[type(node)]]
    if isinstance(node, (ast.BinOp, ast.UnaryOp)) and type(node.op) in _OPERATORS:
        # `2 / 2`: Python's arithmetic of its numbers, computed on the numbers themselves (a zero
        # divisor or an overflow raises there first)
        made = _number_of(node, value)
        return _REPRESENTATIVES.get(type(made), _UNKNOWN) if made is not _UNKNOWN else _UNKNOWN
    v = node.value if isinstance(node, ast.Constant) else value(node)
    kind = type(v)
    if kind in _REPRESENTATIVES:
        return _REPRESENTATIVES[kind]
    if kind in CALLABLES:
        return v
    np = sys.modules.get("numpy")
    if np is None:
        return _UNKNOWN
    if kind is np.ndarray and v.dtype.kind in "biufc" and v.dtype.names is None:
        return np.zeros((1,) * v.ndim, dtype=v.dtype)
    if issubclass(kind, Abstract) and v.like == "ndarray" and v.kind in tuple("bifc") and v.ndim >= 1:
        return np.zeros((1,) * v.ndim, dtype=bool if v.kind == "b" else np.dtype(v.kind + "8"))
    return _UNKNOWN


def _number_of(node: ast.expr, value: Live, depth: int = 0):
    """The Python number an expression of Python's numbers is (literals, names whose value is one,
    + - * / // % ** and unary signs of them; small powers only); _UNKNOWN otherwise or where
    computing it raises."""
    numbers = (int, float, complex, bool)
    if depth > 20:
        return _UNKNOWN
    if isinstance(node, ast.Constant):
        return node.value if type(node.value) in numbers else _UNKNOWN
    if isinstance(node, ast.Name):
        v = value(node)
        v = v.literal() if isinstance(v, Made) else v
        return v if type(v) in numbers else _UNKNOWN
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _number_of(node.operand, value, depth + 1)
        return _UNKNOWN if v is _UNKNOWN else _operate(node.op, v, None)
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv,
                                                               ast.Mod, ast.Pow))):
        return _UNKNOWN
    a, b = _number_of(node.left, value, depth + 1), _number_of(node.right, value, depth + 1)
    if a is _UNKNOWN or b is _UNKNOWN or isinstance(node.op, ast.Pow) and not (abs(a) <= 1e6 and abs(b) <= 64):
        return _UNKNOWN
    try:
        return _operate(node.op, a, b)
    except Exception:  # noqa: BLE001 - Python refuses it here first: no type of its result
        return _UNKNOWN


def _operate(op: ast.operator | ast.cmpop | ast.unaryop, a, b):
    import operator
    names = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "truediv", ast.FloorDiv: "floordiv",
             ast.Mod: "mod", ast.Pow: "pow", ast.LShift: "lshift", ast.RShift: "rshift", ast.BitOr: "or_",
             ast.BitXor: "xor", ast.BitAnd: "and_", ast.MatMult: "matmul", ast.Lt: "lt", ast.LtE: "le",
             ast.Gt: "gt", ast.GtE: "ge", ast.USub: "neg", ast.UAdd: "pos", ast.Invert: "invert"}
    f = getattr(operator, names[type(op)])
    return f(a) if isinstance(op, ast.unaryop) else f(a, b)


def _kind(v) -> str:
    np = sys.modules.get("numpy")
    if np is not None and type(v) is np.ndarray:
        return f"an array of {v.dtype}"
    name = type(v).__name__
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name}"


# Python's own types whose methods are asked on the value itself (a copy where a method changes
# it), and how large a value or an argument may be for that
_ASKED_TYPES = (str, bytes, list, tuple, dict, set, int, float)
_MOST_TEXT, _MOST_ITEMS, _MOST_INT = 2_000, 1_000, 10_000      # (what a method builds grows with them: all text
# given counted together, `s.replace("", s)` makes len(s) squared)
_LOOKED_UP = frozenset({"encode", "decode"})     # a codec by name: a search function the user registered may run
_LARGE_FIELD = re.compile(r"\d{5,}")        # a format field's width or precision of 10,000 or more
_METHOD_RAISES = (TypeError, ValueError, IndexError, KeyError)
# Python's conversions of one plain value, read as what they make (their own errors are builtin_call_claim's)
_PURE_BUILTINS = {"str": str, "repr": repr, "len": len, "abs": abs, "tuple": tuple, "sorted": sorted}


@read_otherwise_no_claim
def python_method_claim(n: ast.Call, live: Live, value: Live, callee: Live) -> ValueClaim | None:
    """`"435".rjust("0", 10)`, `line.index("Fox")`, `"--".join([1, 2, 3])`, `"{0} {1}".format("A")`,
    `L.sort(reversed=True)`: a method of Python's own str, bytes, list, tuple, dict, set, int or
    float called on a value known exactly (a literal, one the cell wrote, or the kernel's: plain
    values, few) with arguments known so, asked of Python on that value (a copy) with those
    arguments: the TypeError, ValueError, IndexError or KeyError it raises. `callee`: a called name's
    object, Python's builtins among them."""
    f = n.func
    if not isinstance(f, ast.Attribute) or f.attr.startswith("_") or \
            any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg is None for k in n.keywords):
        return None
    receiver = _exact(f.value, live, value, callee)
    if type(receiver) not in _ASKED_TYPES:
        return None
    given = [_exact(a, live, value, callee) for a in n.args]
    options = {k.arg: _exact(k.value, live, value, callee) for k in n.keywords}
    if any(x is _UNKNOWN for x in [*given, *options.values()]) or \
            _text_size([receiver, *given, *options.values()]) > _MOST_TEXT or \
            f.attr in _LOOKED_UP and any(type(x) is str for x in [*given, *options.values()]):
        return None
    if f.attr in ("format", "format_map") and _LARGE_FIELD.search(receiver if type(receiver) is str else ""):
        return None                     # (a field of a large width makes a large text)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            method = getattr(_copied(receiver), f.attr)
            if type(method) is not types.BuiltinMethodType:
                return None             # (only the type's own methods, written in C)
            method(*_copied(given), **_copied(options))
    except _METHOD_RAISES as e:
        if type(e) not in _METHOD_RAISES:
            return None                 # (a subclass of theirs: raised by what the values hold)
        names = tuple(dict.fromkeys(x.id for x in ast.walk(n) if isinstance(x, ast.Name) and not (
            x.id in _PURE_BUILTINS and callee(x) is getattr(builtins, x.id))))     # (Python's own: not bound again)
        return ValueClaim(f, f"{ast.unparse(f)}(): {str(e).splitlines()[0] if str(e) else type(e).__name__}: "
                             f"{type(e).__name__}", type(e).__name__, callee=True, subjects=names, literal=not names)
    except Exception:  # noqa: BLE001 - anything else: no claim
        return None
    return None


def _exact(node: ast.expr, live: Live, value: Live, callee: Live):
    """The value `node` surely is: a literal, a display the cell wrote, or the kernel's plain value,
    small; _UNKNOWN otherwise."""
    try:
        v = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        v = _UNKNOWN
        made = value(node)
        if issubclass(type(made), Made):
            written = written_literal(made, dicts=True)
            v = written if written is not UNRESOLVED else made.literal() \
                if type(made.literal()) in (str, bytes, int, float) else _UNKNOWN
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _PURE_BUILTINS and \
                callee(node.func) is getattr(builtins, node.func.id) and len(node.args) == 1 and not node.keywords:
            got = _exact(node.args[0], live, value, callee)     # `str(pi)`: Python's own conversion of a plain value
            try:
                v = _UNKNOWN if got is _UNKNOWN else _PURE_BUILTINS[node.func.id](got)
            except (TypeError, ValueError):
                return _UNKNOWN
        elif not isinstance(node, (ast.Name, ast.Attribute)):
            return _UNKNOWN
        else:
            v = live(node)
    return v if _small_plain(v) else _UNKNOWN


def _small_plain(v) -> bool:
    if type(v) in (str, bytes):
        return len(v) <= _MOST_TEXT
    if type(v) is int:
        return abs(v) <= _MOST_INT
    if type(v) in (float, bool, type(None)):
        return True
    if type(v) in (list, tuple, set):
        return len(v) <= _MOST_ITEMS and all(_small_plain(x) for x in v)
    if type(v) is dict:
        return len(v) <= _MOST_ITEMS and all(_small_plain(k) and _small_plain(x) for k, x in v.items())
    return False


def _text_size(values) -> int:
    """How much text the values hold, every item counted (a list may hold one text many times)."""
    total = 0
    for v in values:
        if type(v) in (str, bytes):
            total += len(v)
        elif type(v) in (list, tuple, set):
            total += _text_size(v) + len(v)
        elif type(v) is dict:
            total += _text_size(v.keys()) + _text_size(v.values())
    return total


def _copied(v):
    if type(v) in (list, tuple, set):
        return type(v)(_copied(x) for x in v)
    if type(v) is dict:
        return {k: _copied(x) for k, x in v.items()}
    return v


# the re module's functions that compile their first argument, a pattern, first
_COMPILING = frozenset({"compile", "search", "match", "fullmatch", "findall", "finditer", "split", "sub", "subn"})
_MOST_PATTERN = 10_000


@read_otherwise_no_claim
def pattern_claim(n: ast.Call, live: Live, value: Live, callee: Live) -> ValueClaim | None:
    """`re.compile("[aeiou")`, `re.findall("(a", text)`: a pattern (and flags) known exactly that
    Python's `re` refuses to compile, asked of `re.compile` itself (it compiles before it reads
    anything else): re's error."""
    import re as re_module
    f = n.func
    if not isinstance(f, ast.Attribute) or f.attr not in _COMPILING or not n.args or \
            any(isinstance(a, ast.Starred) for a in n.args) or any(k.arg is None for k in n.keywords) or \
            callee(f.value) is not re_module or \
            callee(f) is not POLICY.module_members(re_module).get(f.attr):
        return None
    pattern = _exact(n.args[0], live, value, callee)
    flag_nodes = [k.value for k in n.keywords if k.arg == "flags"] + \
        ([n.args[{"compile": 1, "split": 3, "sub": 4, "subn": 4}.get(f.attr, 2)]]
         if len(n.args) > {"compile": 1, "split": 3, "sub": 4, "subn": 4}.get(f.attr, 2) else [])
    if type(pattern) not in (str, bytes) or len(pattern) > _MOST_PATTERN or flag_nodes:
        return None                     # (flags: read only where none is given)
    try:
        re_module.compile(pattern)
    except re_module.error as e:
        names = tuple(dict.fromkeys(x.id for x in ast.walk(n.args[0]) if isinstance(x, ast.Name)))
        return ValueClaim(f, f"{ast.unparse(f)}(): {e}: {type(e).__name__}", type(e).__name__, callee=True,
                          subjects=names, literal=not names)
    return None
