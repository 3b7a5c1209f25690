"""In-cell propagation (abstract.py) through matplotlib's calls, as matplotlib documents them:
plt.subplots' grid of Axes. A function of the call's literal arguments: Propagation calls it.
"""
from __future__ import annotations

import ast

from .abstract_value import _SHARE, _SUBPLOTS_OPTIONS, Abstract, _literal, literal_int


def subplots(node: ast.Call):
    """plt.subplots(r, c): (the figure, unknown; the axes: an ndarray of Axes squeezed as
    matplotlib does, or one Axes)."""
    keywords = {k.arg: k.value for k in node.keywords}
    if len(node.args) > 2 or any(k in keywords for k in ("nrows", "ncols")[:len(node.args)]) or \
            set(keywords) - _SUBPLOTS_OPTIONS or any(_literal(keywords[k]) not in _SHARE for k in
                                                     ("sharex", "sharey") if k in keywords):
        return None
    given = dict(zip(("nrows", "ncols"), node.args)) | {k: v for k, v in keywords.items()
                                                        if k in ("nrows", "ncols")}
    r, c = (literal_int(given[k]) if k in given else 1 for k in ("nrows", "ncols"))
    squeeze = _literal(keywords["squeeze"]) if "squeeze" in keywords else True
    if r is None or c is None or r < 1 or c < 1 or type(squeeze) is not bool:
        return None
    if not squeeze:
        axes = Abstract("ndarray", (r, c), "O", holds="Axes")
    elif r == c == 1:
        axes = Abstract("Axes")
    else:
        axes = Abstract("ndarray", tuple(d for d in (r, c) if d != 1), "O", holds="Axes")
    return (None, axes)
