"""jupyter-codecheck: check notebook code with a small language model on your own CPU."""
__version__ = "0.1.0"

from .result import CheckResult, Edit, Finding, TokenRecord


def check(source, *, context=None, **options):
    """Check `source` (see jupyter_codecheck.check.check)."""
    from .check import check as _check
    return _check(source, context=context, **options)


def check_iter(source, *, context=None, **options):
    """Stream a check's token records and edits, then the CheckResult."""
    from .check import check_iter as _check_iter
    return _check_iter(source, context=context, **options)


__all__ = ["check", "check_iter", "CheckResult", "Edit", "Finding", "TokenRecord", "__version__"]


# -- Jupyter hooks: the magics (issue 4), the server extension and the JupyterLab panel (issue 6) --

def load_ipython_extension(ipython):
    """`%load_ext jupyter_codecheck`: registers `%%codecheck` and `%codecheck`."""
    from .magics import load_ipython_extension as _load
    _load(ipython)


def unload_ipython_extension(ipython):
    from .magics import unload_ipython_extension as _unload
    _unload(ipython)


def _jupyter_server_extension_points():
    return [{"module": "jupyter_codecheck.server"}]


def _jupyter_labextension_paths():
    return [{"src": "labextension", "dest": "jupyter-codecheck"}]
