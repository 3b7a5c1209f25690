"""jupyter-codecheck: check notebook code with a small language model on your own CPU."""
from ._version import __version__

from .core.result import CheckResult, Edit, Finding, TokenRecord
# bound here (not lazily): importing the submodule `check` would otherwise replace the package's
# `check` attribute by the module
from .core.check import check, check_iter  # noqa: E402  (the engine itself still loads lazily)


__all__ = ["check", "check_iter", "CheckResult", "Edit", "Finding", "TokenRecord", "__version__"]


# -- Jupyter hooks: the magics, the server extension and the JupyterLab panel ------------------------

def load_ipython_extension(ipython):
    """`%load_ext jupyter_codecheck`: registers `%%codecheck` and `%codecheck`."""
    from .views.magics import load_ipython_extension as _load
    _load(ipython)


def unload_ipython_extension(ipython):
    from .views.magics import unload_ipython_extension as _unload
    _unload(ipython)


def _jupyter_server_extension_points():
    # the one declaration: the config enables the package (jupyter-config/), and jupyter_server
    # loads `_load_jupyter_server_extension` from the module named here
    return [{"module": "jupyter_codecheck.views.server"}]


def _jupyter_labextension_paths():
    return [{"src": "labextension", "dest": "jupyter-codecheck"}]
