"""Long notebooks (issue 27): a notebook of hundreds of real cells through the command line and
through the server the way the panel's "Check notebook" sends it; memory must stay bounded and
progress must show throughout.

    python bench/long_notebook.py DATA [--cells 500] [--limit N] [--via cli|panel]

DATA: a .jsonl of notebook cells (`earlier_cells`, `cell`, `meta`, as
/work/shared/benchmarks/notebook_clean.jsonl), or a notebook. Its notebooks are put back together
(the record with the most earlier cells of each) and joined, in order, into one notebook of
`--cells` code cells (repeated when they are fewer); `--limit N` keeps the first N.

cli: `python -m jupyter_codecheck NOTEBOOK --format json --output ...` with stderr on a pseudo
terminal, as a user runs it: the progress line (`name (cell k)`) is read as it is rewritten, the
process's RSS is sampled each second and its peak read from wait4's rusage.

panel: a real jupyter server (bench/jupyter_server_process.py); each cell is one
`codecheck/stream` request in order, as the panel sends it (controller.ts): the notebook's code
cells, the cell's index and the context start the last result gave. The panel's kernel facts need
a kernel and are left out. The server's RSS is read after each cell.

The last line is one JSON object.
"""
from __future__ import annotations

import argparse
import json
import os
import pty
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from jupyter_server_process import JupyterServer, peak_rss_mb, rss_mb  # noqa: E402
from requirements import require  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
STATUS = re.compile(r"\(cell_(\d+)\)")     # the progress names cells from 1


# -- the notebook -------------------------------------------------------------------------------------

def notebooks_of(data: Path) -> list[list[str]]:
    """The code cells of each notebook DATA holds, in order."""
    if data.suffix == ".ipynb":
        nb = json.loads(data.read_text(encoding="utf-8"))
        return [["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
                 for c in nb["cells"] if c.get("cell_type") == "code"]]
    longest: dict[tuple, list[str]] = {}
    for line in data.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        key = (record["meta"]["repo"], record["meta"]["path"])
        cells = list(record["earlier_cells"]) + [record["cell"]]
        if len(cells) > len(longest.get(key, [])):
            longest[key] = cells
    return [longest[k] for k in sorted(longest)]


def build_cells(data: Path, count: int) -> tuple[list[str], int]:
    """`count` code cells from DATA's notebooks, joined (repeated when fewer), and how many
    distinct cells there were."""
    distinct = [c for nb in notebooks_of(data) for c in nb if c.strip()]
    return [distinct[i % len(distinct)] for i in range(count)], len(distinct)


def write_notebook(cells: list[str], path: Path) -> Path:
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "id": f"c{i}", "metadata": {},
                     "outputs": [], "source": c} for i, c in enumerate(cells)],
          "metadata": {"kernelspec": {"name": "python3", "language": "python", "display_name": "Python 3"}},
          "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(nb), encoding="utf-8")
    return path


# -- through the command line --------------------------------------------------------------------------

def _env() -> dict:
    return dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in [str(REPO), os.environ.get("PYTHONPATH", "")] if p))


def run_cli(notebook: Path, *, timeout_s: float = 7200.0, sample_s: float = 1.0) -> dict:
    """The command line on `notebook`, stderr on a pseudo terminal: its progress steps (seconds
    since the start, cell shown), RSS samples, peak RSS and exit code."""
    master, slave = pty.openpty()
    report_path = notebook.with_suffix(".report.json")
    t0 = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "jupyter_codecheck", str(notebook), "--format", "json",
                             "--output", str(report_path)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=slave, env=_env())
    os.close(slave)
    steps: list[tuple[float, int]] = []
    samples: list[tuple[float, int, float]] = []     # (seconds, last cell shown, RSS MB)
    other: list[str] = []

    def read_terminal():
        buf = b""
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:         # the child closed the terminal
                return
            if not chunk:
                return
            buf += chunk
            # the status line is rewritten as "\r\033[K<text>"
            *done, buf = re.split(rb"\r\x1b\[K|\n", buf)
            for part in done:
                text = part.decode("utf-8", "replace")
                found = STATUS.search(text)
                if found:
                    steps.append((time.monotonic() - t0, int(found.group(1)) - 1))
                elif text.strip():
                    other.append(text)

    reader = threading.Thread(target=read_terminal, daemon=True)
    reader.start()
    stop = threading.Event()

    def sample():
        while not stop.wait(sample_s):
            try:
                samples.append((time.monotonic() - t0, steps[-1][1] if steps else -1, rss_mb(proc.pid)))
            except (OSError, ValueError):   # it has exited
                return

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    killer = threading.Timer(timeout_s, proc.kill)
    killer.start()
    _, status, usage = os.wait4(proc.pid, 0)
    killer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)
    stop.set()
    sampler.join()
    reader.join(timeout=5)
    os.close(master)
    report = json.loads(report_path.read_text()) if report_path.exists() else {"files": []}
    return {"exit": proc.returncode, "seconds": time.monotonic() - t0, "steps": steps, "samples": samples,
            "peak_rss_mb": usage.ru_maxrss / 1024, "checked": len(report["files"]), "other_output": other[-5:]}


def progress_summary(steps: list[tuple[float, int]], checked: int) -> dict:
    """Whether the progress line named each checked cell once, in order (a magic-only cell is
    not checked, so not named)."""
    shown = [c for _, c in steps]
    gaps = [b - a for (a, _), (b, _) in zip(steps, steps[1:])]
    return {"progress_updates": len(steps), "cells_shown": len(set(shown)),
            "advances_cell_by_cell": len(shown) == checked and all(a < b for a, b in zip(shown, shown[1:])),
            "first_shown_s": round(steps[0][0], 1) if steps else None,
            "longest_gap_s": round(max(gaps), 1) if gaps else None}


def memory_summary(samples: list[tuple[float, int, float]], cells: int) -> dict:
    """RSS at a quarter, half and all of the cells shown, and its growth per 100 cells from a
    quarter on (the model and the first caches are in by then)."""
    def at(fraction: float) -> float | None:
        inside = [mb for _, cell, mb in samples if cell >= fraction * (cells - 1)]
        return round(inside[0], 1) if inside else None
    quarter, end = at(0.25), at(1.0) or (round(samples[-1][2], 1) if samples else None)
    growth = None
    if quarter is not None and end is not None and cells > 1:
        growth = round((end - quarter) / (0.75 * cells) * 100, 2)
    return {"rss_quarter_mb": quarter, "rss_half_mb": at(0.5), "rss_end_mb": end,
            "rss_max_sampled_mb": round(max((mb for *_, mb in samples), default=0.0), 1),
            "rss_growth_mb_per_100_cells": growth}


# -- through the server, as the panel sends it -----------------------------------------------------------

def run_panel(cells: list[str], *, budget: int) -> dict:
    statuses: dict[int, int] = {}
    rss: list[float] = []
    sizes: list[int] = []
    t0 = time.monotonic()
    with JupyterServer() as server:
        rss_start = rss_mb(server.pid)
        start = 0               # the last result's stats.context_start, sent back as the panel does
        conn = server.connection()
        for i, cell in enumerate(cells):
            body = json.dumps({"source": cell, "cells": cells, "index": i, "context_start": start,
                               "context_chars": budget, "options": {}}).encode()
            sizes.append(len(body))
            status, _, answer = server.request("POST", "stream", body, conn=conn)
            last = json.loads(answer.splitlines()[-1]) if status == 200 and answer.strip() else {}
            if last.get("type") == "error":
                status = last["status"]
            elif last.get("type") == "result":
                start = last["result"]["stats"].get("context_start", start)
            statuses[status] = statuses.get(status, 0) + 1
            rss.append(rss_mb(server.pid))
        conn.close()
        peak = peak_rss_mb(server.pid)
    quarter = rss[len(rss) // 4] if rss else None
    return {"statuses": {str(k): v for k, v in sorted(statuses.items())},
            "seconds": round(time.monotonic() - t0, 1),
            "request_bytes_max": max(sizes, default=0),
            "rss_start_mb": round(rss_start, 1), "rss_quarter_mb": round(quarter, 1) if quarter else None,
            "rss_half_mb": round(rss[len(rss) // 2], 1) if rss else None,
            "rss_end_mb": round(rss[-1], 1) if rss else None, "rss_peak_mb": round(peak, 1),
            "rss_growth_mb_per_100_cells": round((rss[-1] - quarter) / (0.75 * len(rss)) * 100, 2)
            if len(rss) > 1 else None}


def run(data: Path, *, cells: int = 500, limit: int | None = None, via: str = "cli", log=print) -> dict:
    sources, distinct = build_cells(Path(data), cells)
    sources = sources[:limit] if limit else sources
    out = {"data": str(data), "via": via, "cells": len(sources), "distinct_cells": distinct,
           "chars": sum(len(c) for c in sources)}
    if via == "panel":
        from jupyter_codecheck.core.options import CONTEXT_CHARS
        return {**out, **run_panel(sources, budget=CONTEXT_CHARS)}
    with tempfile.TemporaryDirectory(prefix="codecheck-long-") as tmp:
        nb = write_notebook(sources, Path(tmp) / "long.ipynb")
        ran = run_cli(nb)
    log(f"{len(sources)} cells through the command line: exit {ran['exit']}, {ran['seconds']:.0f} s")
    return {**out, "exit": ran["exit"], "checked": ran["checked"], "seconds": round(ran["seconds"], 1),
            "seconds_per_cell": round(ran["seconds"] / max(1, len(sources)), 2),
            **progress_summary(ran["steps"], ran["checked"]), **memory_summary(ran["samples"], len(sources)),
            "peak_rss_mb": round(ran["peak_rss_mb"], 1), "other_output": ran["other_output"]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", type=Path, help="a .jsonl of notebook cells, or a notebook")
    ap.add_argument("--cells", type=int, default=500)
    ap.add_argument("--limit", type=int, default=None, help="check only the first N cells")
    ap.add_argument("--via", choices=("cli", "panel"), default="cli")
    args = ap.parse_args(argv)
    require("bench/long_notebook.py", paths=[args.data])
    report = run(args.data, cells=args.cells, limit=args.limit, via=args.via,
                 log=lambda m: print(m, file=sys.stderr, flush=True))
    print(json.dumps(report, ensure_ascii=True))
    ok = report.get("advances_cell_by_cell", True) and report.get("exit", 0) in (0, 1) \
        and report.get("checked", report["cells"]) == report["cells"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
