"""A real jupyter server with the codecheck extension, started as a user would: its own process
on 127.0.0.1 with a token, this source tree on its path, and a client for its codecheck routes.

Used by bench/server_load.py and bench/long_notebook.py (the panel's path), and by their tests.
"""
from __future__ import annotations

import contextlib
import http.client
import json
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid: int) -> float:
    """Resident memory of a process now, in MB (/proc: no extra package needed)."""
    return _proc_status_kb(pid, "VmRSS") / 1024


def peak_rss_mb(pid: int) -> float:
    """The most resident memory the process ever held (the kernel's high-water mark), in MB."""
    return _proc_status_kb(pid, "VmHWM") / 1024


def _proc_status_kb(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise ValueError(f"no {field} in /proc/{pid}/status")


class JupyterServer:
    """`with JupyterServer(queue_size=2) as server:` a running server; `server.request(...)` talks
    to it. Settings are c.CodecheckServer.* traits, given on the command line."""

    def __init__(self, *, start_timeout_s: float = 120.0, **codecheck_settings):
        self.settings = codecheck_settings
        self.start_timeout_s = start_timeout_s
        self.token = secrets.token_hex(16)
        self.port = free_port()
        self.proc: subprocess.Popen | None = None
        self._tmp = tempfile.TemporaryDirectory(prefix="codecheck-server-")
        self.log_path = Path(self._tmp.name) / "server.log"

    def __enter__(self) -> "JupyterServer":
        tmp = Path(self._tmp.name)
        # config and runtime folders of its own: the user's jupyter config plays no part
        env = dict(os.environ, JUPYTER_CONFIG_DIR=str(tmp / "config"), JUPYTER_RUNTIME_DIR=str(tmp / "runtime"),
                   JUPYTER_DATA_DIR=str(tmp / "data"),
                   PYTHONPATH=os.pathsep.join(p for p in [str(REPO), os.environ.get("PYTHONPATH", "")] if p))
        args = [sys.executable, "-m", "jupyter_server", "--no-browser", "--ip=127.0.0.1",
                f"--port={self.port}", "--port-retries=0", f"--IdentityProvider.token={self.token}",
                f"--ServerApp.root_dir={tmp}", "--ServerApp.jpserver_extensions={'jupyter_codecheck': True}"]
        args += [f"--CodecheckServer.{k}={v}" for k, v in self.settings.items()]
        if os.geteuid() == 0:       # containers run as root; the server refuses that otherwise
            args.append("--allow-root")
        self._log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(args, stdout=self._log, stderr=subprocess.STDOUT, env=env, cwd=tmp)
        deadline = time.monotonic() + self.start_timeout_s
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited ({self.proc.returncode}): {self.log_tail()}")
            with contextlib.suppress(OSError):
                if self.request("GET", "status")[0] == 200:
                    return self
            if time.monotonic() > deadline:
                self.__exit__(None, None, None)
                raise RuntimeError(f"the server did not answer within {self.start_timeout_s} s: {self.log_tail()}")
            time.sleep(0.2)

    def __exit__(self, *exc):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()
        self._tmp.cleanup()

    def log_tail(self, chars: int = 2000) -> str:
        return self.log_path.read_text(errors="replace")[-chars:]

    @property
    def pid(self) -> int:
        return self.proc.pid

    def connection(self, timeout_s: float = 600.0) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout_s)

    def headers(self) -> dict:
        return {"Authorization": f"token {self.token}", "Content-Type": "application/json"}

    def request(self, method: str, path: str, body: bytes | None = None, *,
                conn: http.client.HTTPConnection | None = None) -> tuple[int, dict, bytes]:
        """(status, headers, body) of one request to codecheck/<path>, read whole."""
        own = conn is None
        conn = conn or self.connection()
        try:
            conn.request(method, f"/codecheck/{path}", body=body, headers=self.headers())
            resp = conn.getresponse()
            return resp.status, dict(resp.getheaders()), resp.read()
        finally:
            if own:
                conn.close()

    def status(self) -> dict:
        return json.loads(self.request("GET", "status")[2])


__all__ = ["JupyterServer", "free_port", "peak_rss_mb", "rss_mb"]
