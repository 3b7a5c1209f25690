"""The jupyter_server extension: `codecheck/*` routes over one shared checker.

Enabled by `pip install` (etc/jupyter/jupyter_server_config.d/jupyter_codecheck.json) or
`jupyter server extension enable jupyter_codecheck`; configured as c.CodecheckServer.* .
"""
from __future__ import annotations

import atexit

from .handlers import setup_handlers
from .service import CodecheckServer


def _load_jupyter_server_extension(serverapp):
    checker = CodecheckServer(parent=serverapp)
    serverapp.web_app.settings["codecheck"] = checker
    setup_handlers(serverapp.web_app)
    # no stop hook for function-style extensions: cancel a running check when the process exits
    atexit.register(checker.shutdown)
    serverapp.log.info("jupyter_codecheck | checks at %scodecheck/ (model: %s, queue: %d)",
                       serverapp.base_url, checker.model or "default", checker.queue_size)


__all__ = ["CodecheckServer", "_load_jupyter_server_extension"]
