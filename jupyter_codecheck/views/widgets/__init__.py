"""Views of a CheckResult: a static mimebundle (plain text, HTML, JSON) and the live CheckView.

    from jupyter_codecheck.views.widgets import mimebundle, CheckView
    display(mimebundle(result), raw=True)       # static: nbconvert, terminals, nbval
    view = CheckView(source=src); display(view)  # live: streams a check_iter() run
    display(repair_bundle(fix), raw=True)       # a failed cell's repair, static
    display(RepairView(fix))                     # live, with Apply fix
"""
from __future__ import annotations

from .render import MIME_JSON, mimebundle, text_html, text_plain
from .repair import MIME_REPAIR, repair_bundle, repair_text

__all__ = ["MIME_JSON", "MIME_REPAIR", "CheckView", "RepairView", "mimebundle", "repair_bundle",
           "repair_text", "text_html", "text_plain"]


def __getattr__(name):
    # the widget pulls in anywidget/ipywidgets; the static views must not need them
    if name == "CheckView":
        from .views import CheckView
        return CheckView
    if name == "RepairView":
        from .repair_view import RepairView
        return RepairView
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
