"""matplotlib's settings by name. `plt.rc("figure", figsize=(10, 6))` sets rcParams' key
"figure.figsize": a keyword that names no key of the group raises KeyError (matplotlib's own
message). `plt.style.use("seaborn-whitegrid")` takes a library style's name, a dotted package
style or a file: a name that is none of these (the seaborn styles were renamed
"seaborn-v0_8-*" in matplotlib 3.6 and the old names removed in 3.8) raises OSError.
`plt.rcParams["figure.figsze"]`, read or set, or updated from a literal dict, raises KeyError. All are read from matplotlib's own
tables (rcParams' keys and validators, `rc`'s alias table, the style library); no setting is
made and no file is opened.
"""
from __future__ import annotations

import ast
import collections.abc
import difflib
import inspect
import os
import sys
import textwrap
import types
import warnings

from .namespace import chain_root
from .read_policy import POLICY
from .values import ValueClaim

_TABLES: dict[tuple[int, str], dict | None] = {}     # (id(function), name) -> its table (None: not found)


def rc_claim(n: ast.Call, target, text, entered: bool = False, styles=lambda: True) -> ValueClaim | None:
    """`rc(group, **settings)`: the first setting whose key is not in rcParams (KeyError), else
    `style.use(name)` with a name that is no style (OSError), and `style.context(name)` where a
    `with` enters it (`entered`: its `__enter__` runs `use`); no style where the cell may add one
    first (`styles()` False, asked only of a style's call)."""
    mpl = sys.modules.get("matplotlib")
    if mpl is None:
        return None
    pyplot = sys.modules.get("matplotlib.pyplot")
    if target is POLICY.static(mpl, "rc", None) or (pyplot is not None and target is POLICY.static(pyplot, "rc", None)):
        return _rc_key(n, mpl, text)
    style = sys.modules.get("matplotlib.style")
    # (the cell may add a style first: `styles`, facts.py)
    if style is not None and target is POLICY.static(style, "use", None) and styles():
        return _style_name(n, target, text)
    if style is not None and entered and target is POLICY.static(style, "context", None) and _uses_first(target) and \
            styles():
        return _style_name(n, POLICY.static(style, "use", None), text)
    return None


def _uses_first(context) -> bool:
    """Is `context` matplotlib's contextmanager whose generator calls `use(style)` before it
    yields, as its source reads (no other call with the style first)?"""
    import inspect
    import textwrap
    wrapped = getattr(context, "__wrapped__", None) if type(context) is types.FunctionType else None
    if type(wrapped) is not types.FunctionType or not POLICY.is_library(wrapped):
        return False
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(wrapped)))
    except (OSError, TypeError, SyntaxError):
        return False
    calls = [c.lineno for c in ast.walk(tree) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and
             c.func.id == "use" and len(c.args) == 1 and isinstance(c.args[0], ast.Name) and c.args[0].id == "style"]
    yields = [y.lineno for y in ast.walk(tree) if isinstance(y, ast.Yield)]
    return bool(calls) and bool(yields) and min(calls) < min(yields)


def _rc_key(n: ast.Call, mpl, text) -> ValueClaim | None:
    params = POLICY.static(mpl, "rcParams", None)
    aliases = _local_table(POLICY.static(mpl, "rc", None), "aliases")
    if not isinstance(params, dict) or aliases is None or not n.args or len(n.args) > 1:
        return None
    group = n.args[0]
    groups = [group] if isinstance(group, ast.Constant) else list(group.elts) if isinstance(group, ast.Tuple) else []
    if not groups or not all(isinstance(g, ast.Constant) and type(g.value) is str for g in groups):
        return None
    keys = [k for k in dict.keys(params) if type(k) is str]      # dict's own: RcParams' lookups not run
    root = chain_root(n.func)
    subjects = (root,) if root is not None else ()
    for g in groups:
        names = [k[len(g.value) + 1:] for k in keys if k.startswith(g.value + ".")]
        for kw in n.keywords:
            name = aliases.get(kw.arg) or kw.arg
            key = f"{g.value}.{name}"
            if dict.__contains__(params, key):
                refused = _refused(POLICY.static(type(params), "validate", None), key, kw.value)
                if refused is not None:     # `rc("animation", html="js_html")`: the key's validator refuses it
                    return ValueClaim(kw, f"{ast.unparse(n.func)}(): Key {key}: {refused[1]}: {refused[0]}",
                                      refused[0], subjects=subjects)
                continue
            said = f'Unrecognized key "{key}" for group "{g.value}" and name "{name}"'
            message = f"{ast.unparse(n.func)}(): {said}: KeyError"
            if not names:               # no key has this group: the group is what is wrong
                written = text(g)
                quote = '"' if written is not None and written.startswith('"') else "'"
                groups_known = sorted({k.split(".", 1)[0] for k in keys})
                meant = difflib.get_close_matches(g.value, groups_known, n=3, cutoff=0.6)
                return ValueClaim(g, message, "KeyError", [f"{quote}{m}{quote}" for m in meant], subjects=subjects)
            written = text(kw)
            validate = POLICY.static(type(params), "validate", None)
            meant = [m for m in difflib.get_close_matches(name, names, n=3, cutoff=0.6)
                     if isinstance(validate, dict) and _takes(validate, f"{g.value}.{m}", kw.value)]
            fixes = [m + written[len(kw.arg):] for m in meant] if written is not None and written.startswith(kw.arg) else []
            return ValueClaim(kw, message, "KeyError", fixes, subjects=subjects)
    return None


def _refused(validate, key: str, value: ast.expr) -> tuple[str, str] | None:
    """(exception, message) where the key's own validator refuses a literal value (rcParams'
    `__setitem__` raises its ValueError as `Key {key}: ...`); None where it takes it, or the
    value is not a literal (the backend's validator is not asked: it may switch backends)."""
    if not isinstance(validate, dict) or key == "backend" or validate.get(key) is None:
        return None
    try:
        v = ast.literal_eval(value)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    e = _validator_error(validate, key, v)
    if not isinstance(e, (ValueError, TypeError)):
        return None                     # (taken, or another refusal: no claim)
    return type(e).__name__, str(e).splitlines()[0] if str(e) else type(e).__name__


def _takes(validate: dict, key: str, value: ast.expr | None) -> bool:
    """Would rcParams take `value` (a literal; None: a read, which takes any) for `key`? Asked of
    the key's own validator (matplotlib's code on a literal); a value not written as a literal
    cannot be asked: no."""
    if value is None:
        return True
    try:
        v = ast.literal_eval(value)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return _validator_error(validate, key, v) is None


def _validator_error(validate: dict, key: str, v) -> Exception | None:
    """What the key's own validator raises on `v` (None where it takes it; no validator: the
    TypeError of calling None)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            validate.get(key)(v)
    except Exception as e:  # noqa: BLE001 - the validator refused it (ValueError, TypeError, ...)
        return e
    return None


def _local_table(func, name: str) -> dict | None:
    """A dict literal assigned to `name` in `func`'s own source (matplotlib keeps `rc`'s
    abbreviations, 'lw' for 'linewidth', and `style.use`'s aliases so, in the function, or in
    the module in older releases); None where the source holds no such literal."""
    if func is None:
        return None
    if (id(func), name) not in _TABLES:
        table = None
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(func)))
        except (OSError, TypeError, SyntaxError):
            tree = None
        for node in ast.walk(tree) if tree is not None else ():
            if isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == [name] and \
                    isinstance(node.value, ast.Dict):
                try:
                    table = ast.literal_eval(node.value)
                except ValueError:
                    table = None
                break
        _TABLES[(id(func), name)] = table if isinstance(table, dict) else None
    return _TABLES[(id(func), name)]


def _style_name(n: ast.Call, use, text) -> ValueClaim | None:
    if len(n.args) != 1 or n.keywords:
        return None
    arg = n.args[0]
    names = [arg] if isinstance(arg, ast.Constant) else list(arg.elts) if isinstance(arg, (ast.List, ast.Tuple)) else []
    if type(use) is not types.FunctionType:
        return None
    scope = POLICY.function_globals(use)          # the style module's library, where `use` is defined
    library = scope.get("library")
    alias = scope.get("style_alias") if isinstance(scope.get("style_alias"), dict) else _local_table(use, "style_alias")
    if not isinstance(library, dict) or not isinstance(alias, dict):
        return None
    for s in names:
        if not (isinstance(s, ast.Constant) and type(s.value) is str):
            return None             # a dict or a Path among them: its own rules, not read here
        name = alias.get(s.value, s.value)
        # "default", a library style, a dotted package style, a path or URL, a file here: valid
        if name == "default" or name in library or any(c in name for c in "./\\:") or os.path.exists(name):
            continue
        said = (f"{name!r} is not a valid package style, path of style file, URL of style file, or library "
                "style name (library styles are listed in `style.available`)")
        written = text(s)
        quote = '"' if written is not None and written.startswith('"') else "'"
        meant = difflib.get_close_matches(name, sorted(k for k in library if type(k) is str), n=3, cutoff=0.6)
        root = chain_root(n.func)
        return ValueClaim(s, f"{ast.unparse(n.func)}(): {said}: OSError", "OSError",
                          [f"{quote}{m}{quote}" for m in meant if quote not in m],
                          subjects=(root,) if root is not None else ())
    return None


def params_key_claim(n: ast.Subscript, live, text, parent: ast.AST | None = None) -> ValueClaim | None:
    """`plt.rcParams["figure.figsze"]`, read or set (`parent`: the statement that sets it):
    matplotlib's settings object refuses a key that names no setting (KeyError); a key
    matplotlib keeps for an old or moved setting is not claimed. The settings meant, that take
    the value set, are the fixes."""
    mpl = sys.modules.get("matplotlib")
    cls = POLICY.static(mpl, "RcParams", None) if mpl is not None else None
    if cls is None or type(live(n.value)) is not cls:
        return None
    stored = parent.value if isinstance(parent, ast.Assign) and any(t is n for t in parent.targets) else None
    return _settings_key(mpl, cls, live(n.value), n.slice, stored, isinstance(n.ctx, ast.Store), n.value, text)


def update_claim(n: ast.Call, target, text) -> ValueClaim | None:
    """`plt.rcParams.update({"figure.figsze": (8, 4)})`: the update sets each key as `[key] =`
    does (MutableMapping's update), so a key of the literal dict that names no setting raises
    KeyError."""
    mpl = sys.modules.get("matplotlib")
    cls = POLICY.static(mpl, "RcParams", None) if mpl is not None else None
    if cls is None or type(target) is not types.MethodType or type(target.__self__) is not cls or \
            target.__func__ is not POLICY.static(cls, "update", None) or \
            target.__func__ is not POLICY.static(collections.abc.MutableMapping, "update", None):
        return None
    if len(n.args) != 1 or not isinstance(n.args[0], ast.Dict) or n.keywords:
        return None
    items = n.args[0]
    for key, value in zip(items.keys, items.values):
        if key is None:                 # `**other`: its keys are not read
            return None
        claim = _settings_key(mpl, cls, target.__self__, key, value, True, n.func.value, text)
        if claim is not None:
            return claim
    return None


def _settings_key(mpl, cls, params, key, stored, store: bool, owner: ast.expr, text) -> ValueClaim | None:
    """The claim on a literal `key` of the settings object `params` that names no setting; the
    fixes are the settings meant that take `stored` (a set's literal value; None: a read)."""
    validate = POLICY.static(cls, "validate", None)
    if not (isinstance(key, ast.Constant) and type(key.value) is str) or not isinstance(validate, dict) or \
            not isinstance(params, dict):
        return None
    kept = [v for k, v in POLICY.module_members(mpl).items() if k.startswith("_deprecated") and isinstance(v, (dict, set))]
    if dict.__contains__(params, key.value) or key.value in validate or any(key.value in v for v in kept):
        return None
    written = text(key)
    quote = '"' if written is not None and written.startswith('"') else "'"
    names = sorted(k for k in dict.keys(params) if type(k) is str)
    meant = [m for m in difflib.get_close_matches(key.value, names, n=3, cutoff=0.6)
             if _takes(validate, m, stored) and not (store and stored is None)]
    root = chain_root(owner)
    return ValueClaim(key, f"{ast.unparse(owner)} has no setting {key.value!r}: KeyError", "KeyError",
                      [f"{quote}{m}{quote}" for m in meant], subjects=(root,) if root is not None else ())
