"""Views of a CheckResult: a static mimebundle (plain text, HTML, JSON) and the live CheckView.

    from jupyter_codecheck.views.widgets import mimebundle, CheckView
    display(mimebundle(result), raw=True)       # static: nbconvert, terminals, nbval
    view = CheckView(source=src); display(view)  # live: streams a check_iter() run
"""
from __future__ import annotations

from .render import MIME_JSON, mimebundle, text_html, text_plain

__all__ = ["MIME_JSON", "CheckView", "mimebundle", "text_html", "text_plain"]


def __getattr__(name):
    # the widget pulls in anywidget/ipywidgets; the static views must not need them
    if name == "CheckView":
        from .views import CheckView
        return CheckView
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
