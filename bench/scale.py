"""Checking a repository of notebooks: files per second against worker processes and a Dask
LocalCluster, memory per worker (RSS and PSS: the model's pages are shared), scheduler overhead
and model-load cost per worker.

    python bench/scale.py ../shared/benchmarks/notebook_clean.jsonl [--notebooks 200] [--limit N]

The repository is rebuilt from the data set's real cells: notebook i holds row i's cell after
the earlier cell before it (rows are reused, in order, once the set runs out). Each mode runs
the command line as a user would (`jupyter-codecheck --format json -o report.json REPO`) while
a sampler reads every process of the run's tree; the reports of every mode must find the same
(timings aside). Ends with one JSON line.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from requirements import require  # noqa: E402

# imported below at the top: checked before (the data path is checked once the arguments are read)
require("bench/scale.py", packages=("nbformat", "psutil", "distributed"))
import nbformat  # noqa: E402
import psutil  # noqa: E402

# the LocalCluster's scheduler and workers (this process and its children) import the package
sys.path.insert(0, str(ROOT))
os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)

from jupyter_codecheck.views.report import what_was_found  # noqa: E402


def build_repo(data: Path, n: int, folder: Path) -> list[Path]:
    rows = [json.loads(line) for line in data.read_text(encoding="utf-8").splitlines() if line.strip()]
    paths = []
    for i in range(n):
        row = rows[i % len(rows)]
        cells = [*row["earlier_cells"][-1:], row["cell"]]
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
        path = folder / f"nb{i:04d}.ipynb"
        nbformat.write(nb, path)
        paths.append(path)
    return paths


class TreeSampler:
    """Peak RSS and PSS of each process in the tree under `pid` (workers come and go)."""

    def __init__(self, pid: int, interval: float = 0.5):
        self.pid, self.interval = pid, interval
        self.peak: dict[int, dict] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        while not self._stop.is_set():
            try:
                root = psutil.Process(self.pid)
                procs = [root, *root.children(recursive=True)]
            except psutil.NoSuchProcess:
                return
            for p in procs:
                try:
                    mem = p.memory_full_info()
                    cmd = " ".join(p.cmdline())
                except (psutil.NoSuchProcess, psutil.AccessDenied):
                    continue
                peak = self.peak.setdefault(p.pid, {"rss": 0, "pss": 0, "cmd": cmd})
                peak["rss"] = max(peak["rss"], mem.rss)
                peak["pss"] = max(peak["pss"], getattr(mem, "pss", 0))
            self._stop.wait(self.interval)

    def stop(self) -> dict[int, dict]:
        self._stop.set()
        self._thread.join()
        return self.peak


def run_cli(repo: Path, extra: list[str], out: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    t0 = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-m", "jupyter_codecheck", "--format", "json", "-q",
                          "-o", str(out), *extra, str(repo)], env=env, stderr=subprocess.PIPE, text=True)
    sampler = TreeSampler(p.pid)
    _, err = p.communicate()
    wall = time.perf_counter() - t0
    peaks = sampler.stop()
    if p.returncode not in (0, 1):
        raise SystemExit(f"{extra}: exit {p.returncode}: {err[-2000:]}")
    # the processes that ran checks: the CLI itself with --jobs 1, else its workers
    checkers = [v for pid, v in peaks.items() if "spawn_main" in v["cmd"] or "distributed" in v["cmd"]] \
        or [v for pid, v in peaks.items() if pid == p.pid]
    return {"wall_s": wall, "report": json.loads(out.read_text()),
            "rss_mb": [round(v["rss"] / 2**20, 1) for v in checkers],
            "pss_mb": [round(v["pss"] / 2**20, 1) for v in checkers]}


def _noop(x):
    return x


def _load_seconds():
    from jupyter_codecheck.core.adapter import load_model
    t0 = time.perf_counter()
    load_model()
    return time.perf_counter() - t0


def dask_mode(repo: Path, out: Path, workers: int) -> dict:
    from distributed import Client, LocalCluster
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=50) as cluster, Client(cluster) as client:
        # what a task costs the scheduler, apart from its work: no-op round trips
        t0 = time.perf_counter()
        client.gather(client.map(_noop, range(200), pure=False))
        overhead = (time.perf_counter() - t0) / 200
        scheduler = psutil.Process(os.getpid())
        sampler = TreeSampler(scheduler.pid)          # the workers are this process's children
        t0 = time.perf_counter()
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        p = subprocess.run([sys.executable, "-m", "jupyter_codecheck", "--format", "json", "-q", "-o", str(out),
                            "--dask", cluster.scheduler_address, str(repo)], env=env, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        peaks = sampler.stop()
        if p.returncode not in (0, 1):
            raise SystemExit(f"dask: exit {p.returncode}: {p.stderr[-2000:]}")
        loaded_again = client.run(_load_seconds)          # cached: what a worker pays after its first file
    worker_peaks = [v for v in peaks.values() if "spawn_main" in v["cmd"] or "distributed" in v["cmd"]]
    return {"wall_s": wall, "report": json.loads(out.read_text()), "task_overhead_s": overhead,
            "cached_load_s": max(loaded_again.values()),
            "rss_mb": [round(v["rss"] / 2**20, 1) for v in worker_peaks],
            "pss_mb": [round(v["pss"] / 2**20, 1) for v in worker_peaks]}


def first_load_seconds() -> float:
    """The model's load in a new process (what each worker pays once)."""
    code = ("import time; t=time.perf_counter(); from jupyter_codecheck.core.adapter import load_model; "
            "load_model(); print(time.perf_counter()-t)")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return float(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                                check=True).stdout.strip())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", type=Path, help="notebook_clean.jsonl (rows with 'cell' and 'earlier_cells')")
    ap.add_argument("--notebooks", type=int, default=200)
    ap.add_argument("--limit", type=int, help="only this many notebooks (a quick look)")
    ap.add_argument("--modes", default="1,2,auto,dask2", help="comma-separated: N (--jobs N), auto, daskN")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "scale")
    ap.add_argument("--busy", type=int, default=0, metavar="N",
                    help="N other processes spinning on a core each during every mode (a user's busy machine)")
    args = ap.parse_args()
    require("bench/scale.py", paths=[args.data])
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
    try:
        run_modes(args)
    finally:
        for h in hogs:
            h.kill()


def run_modes(args) -> None:
    n = min(args.notebooks, args.limit or args.notebooks)
    args.out.mkdir(parents=True, exist_ok=True)
    load_s = first_load_seconds()
    figures: dict = {"notebooks": n, "load_s": round(load_s, 2), "busy_processes": args.busy,
                     "machine_cores": psutil.cpu_count(logical=False), "modes": {}}
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "repo"
        repo.mkdir()
        build_repo(args.data, n, repo)
        baseline = None
        for mode in args.modes.split(","):
            out = args.out / f"report-{mode}.json"
            load_before = os.getloadavg()[0]
            if mode.startswith("dask"):
                r = dask_mode(repo, out, int(mode[4:]))
            else:
                r = run_cli(repo, ["--jobs", mode], out)
            cells = len(r["report"]["files"])
            entry = {k: v for k, v in r.items() if k != "report"}
            entry.update(cells=cells, workers=len(r["rss_mb"]), files_per_s=round(n / r["wall_s"], 3), wall_s=round(r["wall_s"], 1),
                         load_avg_before=round(load_before, 2))
            if baseline is None:
                baseline = r
            else:
                entry["speedup"] = round(baseline["wall_s"] / r["wall_s"], 2)
                entry["same_findings"] = what_was_found(r["report"]) == what_was_found(baseline["report"])
                entry["max_rss_vs_single"] = round(max(r["rss_mb"]) / max(baseline["rss_mb"]), 2)
            figures["modes"][mode] = entry
            print(f"{mode}: {json.dumps(entry)}", file=sys.stderr, flush=True)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
