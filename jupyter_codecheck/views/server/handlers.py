"""REST routes under {base_url}codecheck/: thin handlers over the CodecheckServer worker.

    GET    codecheck/status        the model, the queue (the panel also uses it to detect us)
    POST   codecheck/check         {"source", "context": [...], "earlier"?: [...], "options": {...}, "id"?} -> CheckResult JSON
                                   kernel fields, read by the notebook's kernel for this cell (the server has
                                   none, views/panel_kernel.py): "names"?: [...], "facts"?: [KernelFact dicts],
                                   "objects"?: which state they describe, "failed"?: [...];
                                   and "later"?: [cells after it] (run order)
    POST   codecheck/stream        same body -> NDJSON lines, one per event, as they are decided
    DELETE codecheck/check/<id>    cancel a queued or running check (its caller gets the partial result)
"""
from __future__ import annotations

import json

import tornado.iostream
import tornado.web
from jupyter_server.base.handlers import APIHandler
from jupyter_server.utils import url_path_join

from ..._version import __version__
from .requests import RequestError, parse_check_request
from .service import CheckFailed, CodecheckServer, DuplicateId, QueueFull, ShuttingDown

NAMESPACE = "codecheck"
SHUTDOWN_RETRY_S = 30  # a restarted server answers again after about this long
AUTH_NEEDED = ("authentication needed: send the server's token (Authorization: token <token>) or use "
               "the page of a logged-in JupyterLab")


class CodecheckHandler(APIHandler):
    """Errors go out as {"message": ...} JSON with the status that names the problem."""

    job = None

    @property
    def checker(self) -> CodecheckServer:
        return self.settings["codecheck"]

    def write_error(self, status_code, **kwargs):
        # a request without a token or a session fails the XSRF check or @authenticated first,
        # whose "'_xsrf' argument missing" or "Forbidden" hide what is really missing
        if status_code == 403 and getattr(self, "_jupyter_current_user", None) is None:
            self.finish(json.dumps({"message": AUTH_NEEDED}))
            return
        super().write_error(status_code, **kwargs)

    def fail(self, status: int, message: str, **headers):
        self.set_status(status)
        for k, v in headers.items():
            self.set_header(k, v)
        self.finish(json.dumps({"message": message}))

    def parse(self):
        c = self.checker
        return parse_check_request(self.request.body, max_bytes=c.max_request_bytes,
                                   server_model=c.model or None,
                                   allow_client_model=c.allow_client_model)

    def submit(self, stream: bool):
        """The request queued as a Job, or None once an error response has been sent."""
        try:
            job = self.checker.submit(self.parse(), stream=stream)
        except RequestError as e:
            self.fail(e.status, e.message)
        except DuplicateId as e:
            self.fail(409, str(e))
        except QueueFull as e:
            self.fail(429, str(e), **{"Retry-After": str(e.retry_after_s)})
        except ShuttingDown as e:
            self.fail(503, str(e), **{"Retry-After": str(SHUTDOWN_RETRY_S)})
        else:
            self.set_header("X-Codecheck-Id", job.id)
            self.job = job
            return job
        return None

    def on_connection_close(self):
        # the caller went away: free the worker for someone who still waits
        if self.job is not None:
            self.job.cancel.set()


class StatusHandler(CodecheckHandler):
    @tornado.web.authenticated
    def get(self):
        self.finish(json.dumps({"version": __version__, **self.checker.status()}))


class CheckHandler(CodecheckHandler):
    @tornado.web.authenticated
    async def post(self):
        job = self.submit(stream=False)
        if job is None:
            return
        try:
            result = await job.done
        except CheckFailed as e:
            return self.fail(e.status, e.message)
        self.finish(result.to_json())


class StreamHandler(CodecheckHandler):
    """Chunked NDJSON: queued, started, token.../edit..., then result (or error)."""

    @tornado.web.authenticated
    async def post(self):
        job = self.submit(stream=True)
        if job is None:
            return
        self.set_header("Content-Type", "application/x-ndjson")
        self.set_header("Cache-Control", "no-cache")
        await self.send({"type": "queued", "id": job.id, "waiting": self.checker.status()["waiting"]})
        while True:
            kind, payload = await job.events.get()
            if kind == "result":
                await self.send({"type": "result", "result": payload.to_dict()})
                break
            if kind == "error":
                await self.send({"type": "error", **payload})
                break
            await self.send({"type": kind, "id": job.id} if kind == "started" else {"type": kind, kind: payload})
        self.finish()

    async def send(self, event: dict):
        self.write(json.dumps(event) + "\n")
        try:
            await self.flush()
        except tornado.iostream.StreamClosedError:
            pass  # on_connection_close cancels the job


class CancelHandler(CodecheckHandler):
    @tornado.web.authenticated
    def delete(self, check_id: str):
        if not self.checker.cancel(check_id):
            return self.fail(404, f"no queued or running check has id {check_id!r} (it may have finished)")
        self.set_status(202)
        self.finish(json.dumps({"id": check_id, "cancelled": True}))


def setup_handlers(web_app):
    base = web_app.settings["base_url"]
    routes = [
        ("status", StatusHandler),
        ("check", CheckHandler),
        ("stream", StreamHandler),
        (r"check/([A-Za-z0-9_.:-]{1,64})", CancelHandler),
    ]
    web_app.add_handlers(".*$", [(url_path_join(base, NAMESPACE, path), handler) for path, handler in routes])


__all__ = ["NAMESPACE", "setup_handlers"]
