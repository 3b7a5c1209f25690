"""Browser tests: a real JupyterLab on 127.0.0.1 driven by headless Chromium (Playwright).

Not collected by a plain `pytest` run (they start a server and a browser, and Playwright's sync
API cannot share a process with pytest-jupyter's event loop). Run them on their own:

    cd tests && CODECHECK_BROWSER=1 PYTHONPATH=.. ../.venv/bin/python -m pytest -q browser/

Fixtures: `jupyterlab` (a server: url, root_dir, log), `chromium` (the browser), `lab_page` (a
fresh Page). Helpers for tests are in lab_helpers.py (`write_notebook`, `open_notebook`,
`wait_kernel_idle`, `run_all_cells`, `cell_source`, `lab_command`, ...). The lab runs with
`expose_app_in_browser`, so tests read notebook state through `window.jupyterapp` rather than
scraping the editor's DOM.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from lab_helpers import REPO, LabServer

CHROMIUM = os.environ.get("CODECHECK_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]

if not os.environ.get("CODECHECK_BROWSER"):
    collect_ignore_glob = ["test_*.py"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_ready(url: str, proc: subprocess.Popen, log: Path, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"jupyter lab exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"{url}/api/status", timeout=2) as r:
                if r.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.3)
    raise RuntimeError(f"jupyter lab did not answer within {timeout:.0f} s:\n{log.read_text()[-3000:]}")


@pytest.fixture(scope="session")
def jupyterlab(tmp_path_factory):
    """JupyterLab on a free port, root in a temporary directory; its kernels import the source
    tree (PYTHONPATH), not the installed copy."""
    base = tmp_path_factory.mktemp("lab")
    root = base / "root"
    root.mkdir()
    port = _free_port()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH")) if p)
    # user-level config, settings and workspaces of whoever runs the tests stay out
    for var, sub in (("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_RUNTIME_DIR", "runtime"),
                     ("JUPYTERLAB_SETTINGS_DIR", "settings"), ("JUPYTERLAB_WORKSPACES_DIR", "workspaces")):
        env[var] = str(base / sub)
    env.pop("JUPYTER_TOKEN", None)
    # no "get notified about news?" toast over the notebook (and no network look-up)
    notification = base / "settings" / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
    notification.parent.mkdir(parents=True)
    notification.write_text('{"fetchNews": "false", "checkForUpdates": false}')
    log = base / "jupyterlab.log"
    cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root", "--ip=127.0.0.1",
           f"--port={port}", "--ServerApp.port_retries=0", f"--ServerApp.root_dir={root}",
           "--IdentityProvider.token=", "--ServerApp.password=",
           "--LabApp.extension_manager=readonly", "--LabApp.expose_app_in_browser=True",
           "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(url, proc, log)
        yield LabServer(url=url, root_dir=root, log=log)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="session")
def chromium():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def lab_page(chromium, jupyterlab):
    """A fresh browser page (its own context: no state shared between tests) on the lab server.
    Browser console errors are collected in `page.console_errors`."""
    context = chromium.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.console_errors = errors
    yield page
    context.close()


