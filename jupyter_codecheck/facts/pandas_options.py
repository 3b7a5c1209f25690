"""pandas' options by name. `pd.set_option`, `pd.get_option` and `pd.option_context` take a
pattern that must match exactly one option: `pd.set_option("max_columns", None)`, written before
pandas 1.4 added `styler.render.max_columns`, now matches two and raises OptionError, as does a
name matching none. The options are pandas' own registry, asked through `pd.get_option` on the
literal pattern: pandas' code alone runs, and only reads (no option's callback runs on a get).
"""
from __future__ import annotations

import ast
import difflib
import sys
import warnings

from .namespace import chain_root
from .read_policy import POLICY
from .values import ValueClaim

# the functions that take patterns, and which positional arguments are patterns (every n-th)
_PATTERN_FUNCTIONS = {"get_option": 1, "set_option": 2, "option_context": 2}


def option_claim(n: ast.Call, target, text) -> ValueClaim | None:
    """The first literal pattern of the call that matches no option or several (OptionError),
    placed on the pattern, with the options it may have meant as exact replacements."""
    pd = sys.modules.get("pandas")
    if pd is None:
        return None
    name = next((k for k in _PATTERN_FUNCTIONS if target is POLICY.static(pd, k, None)), None)
    if name is None or any(isinstance(a, ast.Starred) for a in n.args):
        return None
    for arg in n.args[::_PATTERN_FUNCTIONS[name]]:
        if not (isinstance(arg, ast.Constant) and type(arg.value) is str):
            continue
        problem = _problem(pd, arg.value)
        if problem is None:
            continue
        written = text(arg)
        quote = '"' if written is not None and written.startswith('"') else "'"
        meant = _meant(pd, arg.value)
        # the rule reads pandas' registry: held, as an attribute of the module would be, to `pd`
        root = chain_root(n.func)
        return ValueClaim(arg, f"{ast.unparse(n.func)}({arg.value!r}): {problem}: OptionError", "OptionError",
                          [f"{quote}{k}{quote}" for k in meant if quote not in k],
                          subjects=(root,) if root is not None else ())
    return None


def _problem(pd, pattern: str) -> str | None:
    """pandas' own message when the pattern does not name exactly one option, else None."""
    errors = getattr(pd, "errors", None)
    option_error = getattr(errors, "OptionError", None)
    if option_error is None:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")            # a deprecated option warns on a get
            pd.get_option(pattern)
    except option_error as e:
        said = e.args[0] if e.args and type(e.args[0]) is str else ""
        return said or "OptionError"
    except Exception:  # noqa: BLE001 - pandas read it otherwise: no claim
        return None
    return None


def _meant(pd, pattern: str) -> list[str]:
    """The options a pattern matching several names (each), or none (the closest names)."""
    config = sys.modules.get("pandas._config.config")
    select = getattr(config, "_select_options", None)
    if select is None:
        return []
    try:
        names = [k for k in select("all") if type(k) is str]
        matched = [k for k in select(pattern) if type(k) is str]
    except Exception:  # noqa: BLE001 - a registry read otherwise: no replacements
        return []
    if len(matched) > 1:
        return matched
    return difflib.get_close_matches(pattern, names, n=3, cutoff=0.8)
