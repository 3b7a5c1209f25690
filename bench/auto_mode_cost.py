"""What auto mode costs a cell: real notebooks run cell by cell in two real kernels side by side,
one plain and one with `%codecheck auto guard`, and each cell's wall time compared.

    python bench/auto_mode_cost.py [--clean PATH] [--match TEXT] [--limit N] [--cell-timeout 60]
        [--mode guard] [--out bench/reports/auto-mode-cost]

The notebooks of notebook_clean.jsonl (well-kept public notebooks, written elsewhere) are run in
two ipykernels started through jupyter_client in one empty folder each, cell i in the plain
kernel and then cell i in the auto-mode kernel, so both see the same load. A cell's wall time is
from its execute request to the kernel's idle status, as a front end sees it. The extension is
loaded in the auto kernel as a user does (`%load_ext`, `%codecheck auto guard`) and its start-up
is waited for before the first timed cell. `--plot-first` runs a plot first in both kernels (a
large PNG output: the first large message starts pyzmq's garbage-collector thread, which once
switched the guard off). Cells with shell commands (`!`, `%pip`, `%%bash`) are
run in neither kernel. A cell the guard stops is run again unchanged (what a user does to run it
anyway) and both runs count as its time.

Reported: each cell's added time (auto minus plain), median and p90 over the cells, the plain
median, and the same for the cells that ran without an error in both; the cells the guard stopped,
and those stopped wrongly (the plain kernel ran them without an error). The last stdout line is one
JSON object; report.md, cells.jsonl and command.txt go to --out.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import sys
import tempfile
import time
from pathlib import Path

from notebook_shell import BENCH, ROOT, SINGLE_THREADED, notebooks
from requirements import require

PLOT = ("%matplotlib inline\nimport matplotlib.pyplot as plt\nimport numpy as np\n"
        "plt.imshow(np.random.default_rng(0).random((400, 400))); plt.show()")
SHELL_LINE = ("!", "%pip", "%conda", "%%bash", "%%sh", "%%script", "%sx", "%system")


class Kernel:
    """One ipykernel through jupyter_client; `run` returns (wall seconds, error name or None,
    the IOPub texts)."""

    def __init__(self, cwd: str):
        from jupyter_client import KernelManager
        env = dict(os.environ, **SINGLE_THREADED)
        env["PYTHONPATH"] = os.pathsep.join(p for p in [str(ROOT), os.environ.get("PYTHONPATH", "")] if p)
        self.manager = KernelManager(kernel_name="python3")
        self.manager.start_kernel(env=env, cwd=cwd)
        self.client = self.manager.client()
        self.client.start_channels()
        self.client.wait_for_ready(timeout=120)

    def run(self, code: str, timeout: float) -> tuple[float, str | None, list[str]]:
        t0 = time.perf_counter()
        msg_id = self.client.execute(code, store_history=True, allow_stdin=False)
        error, texts, deadline, interrupted = None, [], time.monotonic() + timeout, False
        while True:
            try:
                msg = self.client.get_iopub_msg(timeout=max(0.1, deadline - time.monotonic()))
            except Exception:  # noqa: BLE001 - queue.Empty: past its time
                if interrupted:
                    raise RuntimeError("the kernel did not stop after an interrupt") from None
                self.manager.interrupt_kernel()
                interrupted, error, deadline = True, "Timeout", time.monotonic() + 30
                continue
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "status" and content["execution_state"] == "idle":
                return time.perf_counter() - t0, error, texts
            if kind == "error" and error is None:
                error = content["ename"]
            elif kind in ("stream", "display_data"):
                texts.append(content.get("text") or content.get("data", {}).get("text/plain", ""))

    def close(self):
        self.client.stop_channels()
        self.manager.shutdown_kernel(now=True)


def runnable(cell: str) -> bool:
    return not any(line.lstrip().startswith(SHELL_LINE) for line in cell.splitlines())


def run_notebook(cells: list[str], mode: str, timeout: float, plot_first: bool = False) -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory() as plain_dir, tempfile.TemporaryDirectory() as auto_dir:
        plain, auto = Kernel(plain_dir), Kernel(auto_dir)
        try:
            # as a user turns it on; the model's start-up load (begun by %load_ext) is waited for
            _, err, texts = auto.run(f"%load_ext jupyter_codecheck\n%codecheck auto {mode}", 600)
            if err is not None:
                raise RuntimeError(f"auto mode did not start: {err} {texts}")
            auto.run("[m for m in get_ipython().magics_manager.registry.values() "
                     "if hasattr(m, 'join_warm_up')][0].join_warm_up()", 600)
            if plot_first:
                for k in (plain, auto):
                    k.run(PLOT, 120)
            for i, cell in enumerate(cells):
                if not runnable(cell):
                    continue
                t_plain, e_plain, _ = plain.run(cell, timeout)
                t_auto, e_auto, texts = auto.run(cell, timeout)
                stopped = e_auto == "CellStopped"
                if stopped:                     # run again unchanged: the user's way past it
                    t_again, e_auto, _ = auto.run(cell, timeout)
                    t_auto += t_again
                rows.append({"index": i, "plain_s": round(t_plain, 4), "auto_s": round(t_auto, 4),
                             "added_ms": round((t_auto - t_plain) * 1000, 1), "plain_error": e_plain,
                             "auto_error": e_auto, "stopped": stopped,
                             "findings": sum(t.count("codecheck: line") for t in texts)})
        finally:
            plain.close()
            auto.close()
    return rows


def _p90(values: list[float]) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(0.9 * (len(values) - 1))))]


def _figures(rows: list[dict]) -> dict:
    added = [r["added_ms"] for r in rows]
    if not added:
        return {"cells": 0}
    return {"cells": len(rows), "added_ms_median": round(statistics.median(added), 1),
            "added_ms_p90": round(_p90(added), 1),
            "plain_ms_median": round(statistics.median(r["plain_s"] * 1000 for r in rows), 1),
            "auto_ms_median": round(statistics.median(r["auto_s"] * 1000 for r in rows), 1)}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clean", default=str(BENCH / "notebook_clean.jsonl"))
    ap.add_argument("--match", default="", help="only notebooks whose repository/path holds this text")
    ap.add_argument("--limit", type=int, default=0, help="first N notebooks")
    ap.add_argument("--cell-timeout", type=float, default=60)
    ap.add_argument("--mode", default="guard", choices=["on", "guard", "on model", "guard model"])
    ap.add_argument("--plot-first", action="store_true", help="a plot (a large output) before the first cell")
    ap.add_argument("--out", default=str(ROOT / "bench" / "reports" / "auto-mode-cost"))
    args = ap.parse_args(argv)
    require("bench/auto_mode_cost.py", packages=("jupyter_client", "ipykernel", "IPython"), paths=[args.clean])
    books = [b for b in notebooks(Path(args.clean), 0) if args.match in b[0]]
    books = books[:args.limit] if args.limit else books
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    command = "python " + " ".join(shlex.quote(a) for a in ["bench/auto_mode_cost.py", *(argv or sys.argv[1:])])
    load = os.getloadavg()
    rows, t0 = [], time.perf_counter()
    for n, (name, cells) in enumerate(books, 1):
        recs = run_notebook(cells, args.mode, args.cell_timeout, args.plot_first)
        for r in recs:
            r["notebook"] = name
        rows += recs
        f = _figures(recs)
        print(f"[{n}/{len(books)}] {name}: {f['cells']} cells, added median {f.get('added_ms_median')} ms, "
              f"p90 {f.get('added_ms_p90')} ms", file=sys.stderr, flush=True)
    both_ok = [r for r in rows if r["plain_error"] is None and r["auto_error"] is None]
    summary = {"notebooks": len(books), "mode": args.mode, **_figures(rows),
               "clean_cells": _figures(both_ok), "stopped": sum(r["stopped"] for r in rows),
               "stopped_wrongly": sum(r["stopped"] and r["plain_error"] is None for r in rows),
               "outcome_differs": sum(r["plain_error"] != r["auto_error"] for r in rows),
               "loadavg_start": [round(x, 2) for x in load],
               "loadavg_end": [round(x, 2) for x in os.getloadavg()],
               "time_s": round(time.perf_counter() - t0, 1)}
    (out / "command.txt").write_text(command + "\n")
    with open(out / "cells.jsonl", "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    lines = ["# What auto mode costs a cell (real notebooks, two real kernels side by side)", "",
             f"`{command}`", "",
             f"{summary['notebooks']} notebooks, {summary.get('cells', 0)} cells, `%codecheck auto {args.mode}`; "
             f"load average {summary['loadavg_start']} at the start, {summary['loadavg_end']} at the end.", "",
             "| cells | n | added median (ms) | added p90 (ms) | plain median (ms) | auto median (ms) |",
             "|---|---|---|---|---|---|"]
    for label, fig in (("all", _figures(rows)), ("ran in both", summary["clean_cells"])):
        lines.append(f"| {label} | {fig.get('cells')} | {fig.get('added_ms_median')} | {fig.get('added_ms_p90')} | "
                     f"{fig.get('plain_ms_median')} | {fig.get('auto_ms_median')} |")
    lines += ["", f"Cells the guard stopped (then run again unchanged): {summary['stopped']}; stopped though the "
              f"plain kernel ran them without an error: {summary['stopped_wrongly']}; cells whose error differs "
              f"between the kernels: {summary['outcome_differs']}."]
    (out / "report.md").write_text("\n".join(lines) + "\n")
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
