"""Checking many files at once: `--jobs N` worker processes and `--dask` (a LocalCluster of
process workers), against one process. The real model runs in every worker; the notebooks are
small so each run takes seconds."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import nbformat
import psutil
import pytest

from jupyter_codecheck.core.machine import physical_cores
from jupyter_codecheck.views import cli
from jupyter_codecheck.views.report import what_was_found

CELLS = [
    ["values = [3, 1, 2]\n", "total = sum(values)\npritn(total)\n"],
    ["import math\n", "def area(r):\n    return math.pi * r ** 2\n", "print(area(2))\n"],
    ["names = ['a', 'b']\n", "for n in names:\n    print(n.upper())\n"],
    ["x = 10\n", "y = x * 2\nprint(y +)\n"],
    ["data = {'a': 1}\n", "print(data['a'])\n", "print(undefined_thing)\n"],
]


@pytest.fixture(scope="module")
def repo(tmp_path_factory, model_path):
    root = tmp_path_factory.mktemp("repo")
    for i, cells in enumerate(CELLS):
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
        nbformat.write(nb, root / f"nb{i}.ipynb")
    return root


def _cli(*args, cwd) -> tuple[int, dict, str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    p = subprocess.run([sys.executable, "-m", "jupyter_codecheck", "--format", "json", *args, "."],
                       cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    return p.returncode, json.loads(p.stdout) if p.stdout else {}, p.stderr


@pytest.fixture(scope="module")
def serial(repo):
    code, report, err = _cli("--jobs", "1", cwd=repo)
    assert code == 1, err
    return report


def test_jobs_report_what_one_process_reports_in_the_same_order(repo, serial):
    code, report, err = _cli("--jobs", "2", cwd=repo)
    assert code == 1, err
    assert [(f["path"], f.get("cell")) for f in report["files"]] == \
           [(f["path"], f.get("cell")) for f in serial["files"]]
    assert what_was_found(report) == what_was_found(serial)
    assert any(f["findings"] for f in report["files"])
    assert {f["stats"]["n_threads"] for f in report["files"]} == {max(1, physical_cores() // 2)}
    assert "[5/5]" in err                          # progress covers the whole run


def _two_jobs_after_the_first_file(repo, stdout):
    """`--jobs 2` on the repo in a session of its own, once its first file is done (the first
    progress line): the process, its workers and the file done."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    # Ctrl+C as a terminal delivers it, even where this test runs with SIGINT ignored (a
    # background job of a shell): Python only turns SIGINT into KeyboardInterrupt if it is not
    p = subprocess.Popen([sys.executable, "-m", "jupyter_codecheck", "--jobs", "2", "--format", "json", "."],
                         cwd=repo, env=env, stdout=stdout, stderr=subprocess.PIPE, text=True,
                         start_new_session=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    for line in p.stderr:
        if line.startswith("[1/5]"):
            return p, psutil.Process(p.pid).children(recursive=True), line.split()[-1]
    raise AssertionError(f"no progress line; exit {p.wait()}")


def test_ctrl_c_stops_every_worker_and_reports_what_finished(repo):
    p, workers, first = _two_jobs_after_the_first_file(repo, subprocess.PIPE)
    try:
        # Ctrl+C to the whole group, as a terminal sends it
        assert len(workers) >= 2
        os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    assert p.returncode == cli.EXIT_INTERRUPTED, err
    assert "interrupted" in err
    assert first in {f["path"] for f in json.loads(out)["files"]}     # what finished is reported
    gone, alive = psutil.wait_procs(workers, timeout=10)
    assert not alive, f"orphan workers: {alive}"


def test_workers_end_with_a_killed_parent(repo):
    p, workers, _ = _two_jobs_after_the_first_file(repo, subprocess.DEVNULL)
    try:
        p.kill()
        p.wait(30)
        gone, alive = psutil.wait_procs(workers, timeout=15)
        assert not alive, f"orphan workers: {alive}"
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)


@pytest.mark.parametrize("value", ["0", "two"])
def test_bad_jobs_value_is_a_usage_error(repo, capsys, value):
    assert cli.main(["--jobs", value, str(repo)]) == cli.EXIT_ERROR
    assert f"--jobs must be a number >= 1 or 'auto', got {value}" in capsys.readouterr().err


# -- Dask -------------------------------------------------------------------------------------------

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=True) as c:
        yield c


def _loaded_models():
    from jupyter_codecheck.core import adapter
    return len(adapter._LOADED)


def test_dask_reports_what_one_process_reports(repo, serial, cluster):
    code, report, err = _cli("--dask", cluster.scheduler_address, cwd=repo)
    assert code == 1, err
    assert what_was_found(report) == what_was_found(serial)
    with distributed.Client(cluster) as client:
        assert set(client.run(_loaded_models).values()) == {1}       # each worker loaded it once


def test_dask_worker_lost_mid_run_loses_and_doubles_nothing(repo, serial, cluster):
    names = sorted(p.name for p in repo.glob("*.ipynb"))
    files = [(str(repo / n), None) for n in names * 2]       # ten tasks: the run outlives a worker
    from jupyter_codecheck.views.cluster import check_on_cluster
    with distributed.Client(cluster) as client:
        victim = next(iter(client.scheduler_info()["workers"]))
        pid = client.run(os.getpid, workers=[victim])[victim]
        killed = []

        def on_done(count, outcome):
            if not killed:        # the first file is in: a worker dies while the others run
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)

        outcomes = list(check_on_cluster(cluster.scheduler_address, files, {}, context=True, on_done=on_done))
    assert killed
    assert [o.name for o in outcomes] == [name for name, _ in files]
    by_name = {f["path"]: [] for f in serial["files"]}
    for f in serial["files"]:
        by_name[f["path"]].append(f)
    for o in outcomes:
        assert not o.errors and not o.fatal
        short = Path(o.name).name
        assert [c.unit.cell for c in o.checked] == [f["cell"] for f in by_name[short]]
        assert [[x.message for x in c.result.findings] for c in o.checked] == \
               [[x["message"] for x in f["findings"]] for f in by_name[short]]
