"""Auto mode and its guard in a real kernel (ipykernel through jupyter_client, this source tree
on its path): the findings reach the front end (IOPub) before the cell's first statement runs,
and guard mode stops a cell that surely crashes before any of it runs, until it is run again
unchanged. One kernel for the module; the model loads once, in `%codecheck auto on`."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


class Kernel:
    def __init__(self, cwd: Path):
        from jupyter_client import KernelManager
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            p for p in [str(REPO), os.environ.get("PYTHONPATH", "")] if p))
        self.manager = KernelManager(kernel_name="python3")
        self.manager.start_kernel(env=env, cwd=str(cwd))
        self.client = self.manager.client()
        self.client.start_channels()
        self.client.wait_for_ready(timeout=120)

    def run(self, code: str, timeout: float = 120) -> list[dict]:
        """The execution's IOPub messages in the order they came, until the kernel is idle."""
        msg_id = self.client.execute(code, store_history=True, allow_stdin=False)
        out = []
        while True:
            msg = self.client.get_iopub_msg(timeout=timeout)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                return out
            if msg["msg_type"] in ("stream", "display_data", "error", "execute_result"):
                out.append(msg)

    def close(self):
        self.client.stop_channels()
        self.manager.shutdown_kernel(now=True)


def _text(msg: dict) -> str:
    c = msg["content"]
    if msg["msg_type"] == "stream":
        return c["text"]
    if msg["msg_type"] == "error":
        return f"{c['ename']}: {c['evalue']}\n" + "\n".join(c["traceback"])
    return c.get("data", {}).get("text/plain", "")


def _stdout(messages: list[dict]) -> str:
    """What the cell printed, as a front end shows it: its stdout stream messages joined. One
    print may come in several messages (ipykernel sends what was written every 0.2 s and on any
    thread's flush, and print writes its parts one by one), so no one message is the output."""
    return "".join(m["content"]["text"] for m in messages
                   if m["msg_type"] == "stream" and m["content"]["name"] == "stdout")


def _first(messages: list[dict], kind: str, text: str) -> int:
    return next(i for i, m in enumerate(messages) if m["msg_type"] == kind and text in _text(m))


@pytest.fixture(scope="module")
def kernel(tmp_path_factory, model_path):
    k = Kernel(tmp_path_factory.mktemp("guard"))
    k.run("%load_ext jupyter_codecheck\n"
          "import pandas as pd\n"
          "df = pd.DataFrame({'age': [50, 60], 'bmi': [22.0, 31.5]})")
    yield k
    k.close()


def test_auto_mode_shows_the_finding_before_the_cells_first_statement(kernel):
    kernel.run("%codecheck auto on")
    try:
        messages = kernel.run("print('MARKER-1', flush=True)\nimport time\ntime.sleep(0.3)\ndf['bmii'].sum()")
        finding = _first(messages, "display_data", "codecheck: line 4:4: error[key]: DataFrame has no column 'bmii'")
        assert "did you mean 'bmi'" in _text(messages[finding])
        assert finding < _first(messages, "stream", "MARKER-1") < _first(messages, "error", "KeyError")
        # a %%time cell's body is checked too, before it runs
        messages = kernel.run("%%time\nprint('MARKER-2', flush=True)\ndf.colums")
        finding = _first(messages, "display_data", "codecheck: line 3:4: error[attribute]")
        assert finding < _first(messages, "stream", "MARKER-2")
        # an undefined name: the kernel's history tells why, as far as it knows
        messages = kernel.run("print(never_defined)")
        assert "no cell run in this kernel defines it" in _text(messages[_first(messages, "display_data", "never_defined")])
    finally:
        kernel.run("%codecheck auto off")


def test_guard_stops_a_cell_that_surely_crashes_until_it_is_run_again(kernel):
    cell = "open('side-effect.txt', 'w').write('ran')\ntotal = df['bmii'].sum()"
    assert any("is stopped before it runs" in _text(m) for m in kernel.run("%codecheck auto guard"))
    try:
        stopped = kernel.run(cell)
        (error,) = [m for m in stopped if m["msg_type"] == "error"]
        assert error["content"]["ename"] == "CellStopped"
        text = _text(error)
        assert "line 2:12: error[key]: DataFrame has no column 'bmii'; did you mean 'bmi'?" in text
        assert "run it again unchanged" in text
        assert _stdout(kernel.run("import os\nprint(os.path.exists('side-effect.txt'))")) == "False\n"
        # not the same cell next: the cell above ran in between, so this one is stopped again
        assert any(m["msg_type"] == "error" and m["content"]["ename"] == "CellStopped" for m in kernel.run(cell))
        ran = kernel.run(cell)                          # again, unchanged: it runs (and crashes)
        assert [m["content"]["ename"] for m in ran if m["msg_type"] == "error"] == ["KeyError"]
        assert _stdout(kernel.run("print(os.path.exists('side-effect.txt'))")) == "True\n"
        # a crash that is not sure (under a condition) is shown and not stopped; a clean cell runs
        shown = kernel.run("import random\nif random.random() > 2:\n    df['bmii']\nprint('MARKER-3')")
        assert _first(shown, "display_data", "error[key]") < _first(shown, "stream", "MARKER-3")
        assert _stdout(kernel.run("print('MARKER-4')")) == "MARKER-4\n"
        # a thread of the user's may define a name meanwhile: no stop while one runs
        assert not [m for m in kernel.run("import threading\nready = threading.Event()\ndef work():\n"
                                          "    global late\n    ready.wait()\n    late = 1\n"
                                          "worker = threading.Thread(target=work)\nworker.start()")
                    if m["msg_type"] == "error"]
        joined = kernel.run("ready.set()\nworker.join()\nprint(late)")
        assert not [m for m in joined if m["msg_type"] == "error"] and _stdout(joined) == "1\n"
        # cells whose code IPython transforms again pass through unchanged: %%time, --run bodies
        assert not [m for m in kernel.run("%%time\ntimed = 1") if m["msg_type"] == "error"]
        assert not [m for m in kernel.run("%%codecheck --run --view text --no-context\nbody_ran = 1")
                    if m["msg_type"] == "error"]
        assert _stdout(kernel.run("print(timed, body_ran)")) == "1 1\n"
        # the %%time cell with a sure crash in its body is stopped before its first line
        stopped = kernel.run("%%time\nopen('side-effect-2.txt', 'w')\nprint(undefined_in_body)")
        assert [m["content"]["ename"] for m in stopped if m["msg_type"] == "error"] == ["CellStopped"]
        assert _stdout(kernel.run("print(os.path.exists('side-effect-2.txt'))")) == "False\n"
        # a library the cell begins by importing is read (imported a moment early), and a loop
        # over names written in the cell surely runs its body on the first
        for sure in ("from sklearn.svm import SVC\nmodel = SVC(kernal='rbf')",
                     "for part in (df, df.copy()):\n    part['bmii'].sum()"):
            stopped = kernel.run(sure)
            assert [m["content"]["ename"] for m in stopped if m["msg_type"] == "error"] == ["CellStopped"], sure
    finally:
        kernel.run("%codecheck auto off")
    # off: nothing of the guard stays in IPython's way
    assert [m["content"]["ename"] for m in kernel.run(cell) if m["msg_type"] == "error"] == ["KeyError"]
