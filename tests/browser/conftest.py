"""Browser tests: a real JupyterLab on 127.0.0.1 driven by headless Chromium (Playwright).

Not collected by a plain `pytest` run (they start a server and a browser, and Playwright's sync
API cannot share a process with pytest-jupyter's event loop). Run them on their own:

    cd tests && CODECHECK_BROWSER=1 PYTHONPATH=.. ../.venv/bin/python -m pytest -q browser/

Fixtures: `jupyterlab` (a server: url, root_dir, log), `chromium` (the browser), `lab_page` (a
fresh Page), `screenshots` (where a test saves what it draws: a temporary directory, or
docs/ under `make screenshots`). Helpers for tests are in lab_helpers.py (`write_notebook`, `open_notebook`,
`wait_kernel_idle`, `run_all_cells`, `cell_source`, `lab_command`, ...). The lab runs with
`expose_app_in_browser`, so tests read notebook state through `window.jupyterapp` rather than
scraping the editor's DOM.
"""
from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from lab_helpers import REPO, LabServer, new_page

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


@contextlib.contextmanager
def _lab_server(base: Path, server_config: dict | None = None, jupyter_path: Path | None = None):
    """JupyterLab on a free port, root in `base`/root; its kernels import the source tree
    (PYTHONPATH), not the installed copy. `server_config`: extra jupyter_server_config.json
    content; `jupyter_path`: an extra JUPYTER_PATH entry (e.g. holding labextensions/)."""
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
    if server_config:
        (base / "config").mkdir(exist_ok=True)
        (base / "config" / "jupyter_server_config.json").write_text(json.dumps(server_config))
    if jupyter_path:
        env["JUPYTER_PATH"] = os.pathsep.join(p for p in (str(jupyter_path), env.get("JUPYTER_PATH")) if p)
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
def jupyterlab(tmp_path_factory):
    """JupyterLab on a free port, root in a temporary directory; its kernels import the source
    tree (PYTHONPATH), not the installed copy."""
    with _lab_server(tmp_path_factory.mktemp("lab")) as server:
        yield server


def _panel_labextensions(base: Path) -> Path:
    """A JUPYTER_PATH entry whose labextensions/jupyter-codecheck is the prebuilt panel of the
    source tree (cd labextension && npm ci && npm run build:prod)."""
    built = REPO / "jupyter_codecheck" / "labextension"
    if not (built / "package.json").exists():
        pytest.fail("the JupyterLab panel is not built: cd labextension && npm ci && npm run build:prod")
    (base / "data" / "labextensions").mkdir(parents=True)
    (base / "data" / "labextensions" / "jupyter-codecheck").symlink_to(built, target_is_directory=True)
    return base / "data"


@pytest.fixture(scope="session")
def panel_lab(tmp_path_factory):
    """JupyterLab with the codecheck server extension (from the source tree) and panel."""
    base = tmp_path_factory.mktemp("panel-lab")
    config = {"ServerApp": {"jpserver_extensions": {"jupyter_codecheck": True}}}
    with _lab_server(base, config, _panel_labextensions(base)) as server:
        yield server


@pytest.fixture(scope="session")
def panel_lab_kernel_only(tmp_path_factory):
    """JupyterLab with the panel but WITHOUT the server extension: checks run in the kernel."""
    base = tmp_path_factory.mktemp("panel-lab-kernel")
    # disabled explicitly: an installed package enables it through etc/jupyter
    config = {"ServerApp": {"jpserver_extensions": {"jupyter_codecheck": False}}}
    with _lab_server(base, config, _panel_labextensions(base)) as server:
        yield server


@pytest.fixture
def screenshots(tmp_path) -> Path:
    """Where a test saves its screenshots: the directory CODECHECK_SCREENSHOTS names (`make
    screenshots` names docs/, the README's images), else the test's temporary directory, so
    that a test run leaves the tracked images as they are."""
    named = os.environ.get("CODECHECK_SCREENSHOTS")
    if not named:
        return tmp_path
    out = Path(named)
    out.mkdir(parents=True, exist_ok=True)
    return out


@pytest.fixture(scope="session")
def chromium():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def lab_page(chromium, jupyterlab):
    """A fresh browser page (see lab_helpers.new_page) for the lab server's tests."""
    with new_page(chromium) as page:
        yield page


