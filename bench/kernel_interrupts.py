"""The kernel under interrupts (issue 27): interrupts at random (seeded) moments of `%%codecheck`
checks in a real IPython kernel; after each, the kernel must still answer and the next check must
give the result a fresh check of that cell gives.

    python bench/kernel_interrupts.py DATA [--interrupts 100] [--seed 0] [--double 0.2]

DATA: the cells (bench/notebook_cells.py: a .jsonl of notebook cells, a notebook, a .py or a
folder). The kernel (ipykernel through jupyter_client's KernelManager, this source tree on its
path) loads the extension and checks each cell once: the fresh results. Then, each round: a
check of a random cell starts, the kernel is interrupted after a random delay (up to the median
of the last checks, so that interrupts land in every part of it: reading the kernel's facts, the
walk, the verification, the rendering), twice in a row in a `--double` share of the rounds (the
second one raises KeyboardInterrupt through the check). Then `print(1 + 1)` must answer (usable),
that cell must be recorded as context for the next `%%codecheck` (context recorded),
and a check of another random cell must equal its fresh result (result_compare.py). A round whose
check ended before the interrupt was due is counted apart (missed) and not interrupted; rounds go
on until `--interrupts` checks were interrupted. The last line is one JSON object with the counts.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import queue
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from notebook_cells import load_cells  # noqa: E402
from result_compare import compare  # noqa: E402
from requirements import require  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
REPLY_TIMEOUT_S = 300.0          # a check on a loaded 2-core machine can be slow
REPLY_AFTER_IDLE_S = 5.0         # the shell reply, sent before the idle status, may arrive after it
RESULT_MARK = "codecheck-result:"


class Kernel:
    """One ipykernel with this source tree on its path; `run(code)` executes and collects."""

    def __init__(self):
        from jupyter_client import KernelManager
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            p for p in [str(REPO), os.environ.get("PYTHONPATH", "")] if p))
        self.manager = KernelManager(kernel_name="python3")
        self.manager.start_kernel(env=env)
        self.client = self.manager.client()
        self.client.start_channels()
        self.client.wait_for_ready(timeout=120)

    def close(self):
        self.client.stop_channels()
        self.manager.shutdown_kernel(now=True)

    def send(self, code: str) -> str:
        return self.client.execute(code, store_history=False, allow_stdin=False)

    def finished(self, msg_id: str) -> bool:
        """Whether the execution's reply is in (without taking it)."""
        return self.client.shell_channel.msg_ready() if msg_id else False

    def collect(self, msg_id: str, timeout: float = REPLY_TIMEOUT_S) -> tuple[str, str, str | None]:
        """(reply status, stdout, error name) of one execution, once the kernel is idle again.
        The status is "no reply" when the kernel went idle without one: an interrupt that lands
        in ipykernel's own code after the cell ("KeyboardInterrupt caught in kernel") loses it."""
        out, error = [], None
        deadline = time.monotonic() + timeout
        while True:             # iopub until this execution's idle status (queue.Empty: a hang)
            msg = self.client.get_iopub_msg(timeout=max(0.1, deadline - time.monotonic()))
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "stream" and content["name"] == "stdout":
                out.append(content["text"])
            elif kind == "error":
                error = content["ename"]
            elif kind == "status" and content["execution_state"] == "idle":
                break
        status = "no reply"
        with contextlib.suppress(queue.Empty):
            while True:         # the reply comes before the idle status, or never
                reply = self.client.get_shell_msg(timeout=REPLY_AFTER_IDLE_S)
                if reply["parent_header"].get("msg_id") == msg_id:
                    status = reply["content"]["status"]
                    break
        return status, "".join(out), error

    def run(self, code: str, timeout: float = REPLY_TIMEOUT_S) -> tuple[str, str, str | None]:
        return self.collect(self.send(code), timeout)

    def interrupt(self):
        self.manager.interrupt_kernel()


def check_code(source: str, name: str) -> str:
    # no context: the kernel's history grows with every round, and the result must depend on the cell only
    return f"%%codecheck -o {name} --view text --no-context\n{source}"


def result_of(kernel: Kernel, name: str) -> dict | None:
    status, out, _ = kernel.run(f"print({RESULT_MARK!r} + ({name}.to_json() if {name} is not None else 'null'))")
    for line in out.splitlines():
        if line.startswith(RESULT_MARK):
            return json.loads(line[len(RESULT_MARK):])
    return None


def fresh_results(kernel: Kernel, cells: list[str]) -> tuple[dict[str, dict], list[float]]:
    """Each cell's result checked in this kernel before any interrupt, and the seconds each
    check cell took."""
    fresh, seconds = {}, []
    for k, cell in enumerate(cells):
        t = time.monotonic()
        status, _, error = kernel.run(check_code(cell, f"fresh_{k}"))
        seconds.append(time.monotonic() - t)
        result = result_of(kernel, f"fresh_{k}")
        if status != "ok" or result is None:
            raise RuntimeError(f"the fresh check of cell {k} failed ({status}, {error})")
        fresh[cell] = result
    return fresh, seconds


def interrupt_round(kernel: Kernel, rng: random.Random, cells: list[str], fresh: dict[str, dict],
                    check_s: list[float], double: float, i: int) -> dict:
    """One round; `check_s` holds how long the uninterrupted checks took (a check cell as the
    bench sees it), and gets this round's next check."""
    cell = rng.choice(cells)
    delay = rng.uniform(0, statistics.median(check_s[-20:]))
    twice = rng.random() < double
    msg_id = kernel.send(check_code(cell, f"r{i}"))
    deadline = time.monotonic() + delay
    while time.monotonic() < deadline and not kernel.finished(msg_id):
        time.sleep(0.005)
    missed = kernel.finished(msg_id)
    if not missed:
        kernel.interrupt()
        if twice:
            time.sleep(rng.uniform(0.0, 0.05))
            kernel.interrupt()
    try:
        status, _, error = kernel.collect(msg_id)
    except queue.Empty:
        status, error = "hung", None
    round_ = {"round": i, "delay_s": round(delay, 3), "twice": twice and not missed, "missed": missed,
              "status": status, "error": error}
    try:
        _, out, _ = kernel.run(f"# round {i}\nprint('usable', 1 + 1, globals().get('r{i}') is not None "
                               f"and r{i}.stats.get('cancelled'))", timeout=60)
    except queue.Empty:
        out = ""
    round_["usable"] = out.startswith("usable 2")
    round_["cancelled"] = out.strip().endswith("True")
    nxt = rng.choice(cells)
    if not round_["usable"]:
        round_["next_check"] = "not run: the kernel did not answer"
        return round_
    # the cell that just ran is context for the next %%codecheck (the extension records each
    # cell as it ends): an interrupt must not stop that
    _, out, _ = kernel.run("from jupyter_codecheck.views.magics import _LOADED\n"
                           f"print('recorded', any('# round {i}\\n' in c for m in _LOADED.values() "
                           "for c in m.executed.cells))")
    round_["context_recorded"] = out.strip() == "recorded True"
    t = time.monotonic()
    status, _, error = kernel.run(check_code(nxt, "after"))
    check_s.append(time.monotonic() - t)
    result = result_of(kernel, "after") if status == "ok" else None
    problem = ("no result", f"{status} {error}") if result is None else \
        compare(result, fresh[nxt], bool(result["stats"].get("cancelled")), [])
    round_["next_check"] = "same" if problem is None else f"{problem[0]}: {problem[1]}"
    return round_


def run(data: Path, *, interrupts: int = 100, seed: int = 0, double: float = 0.2, max_cells: int = 12,
        log=print) -> dict:
    t0 = time.monotonic()
    rng = random.Random(seed)
    # a cell magic of its own would be a masked line inside %%codecheck: plain code only
    cells = [c.source for c in load_cells(data) if not c.source.startswith("%%")]
    cells = rng.sample(cells, min(max_cells, len(cells)))
    kernel = Kernel()
    rounds = []
    try:
        status, _, error = kernel.run("%load_ext jupyter_codecheck")
        if status != "ok":
            raise RuntimeError(f"%load_ext failed: {error}")
        fresh, check_s = fresh_results(kernel, cells)
        log(f"fresh results of {len(cells)} cells, median check {statistics.median(check_s):.2f} s")
        # until `interrupts` checks were interrupted: a check that ends before its interrupt is
        # due is a round without one (bounded: three rounds an interrupt)
        i = 0
        while sum(not r["missed"] for r in rounds) < interrupts and i < 3 * interrupts:
            rounds.append(interrupt_round(kernel, rng, cells, fresh, check_s, double, i))
            i += 1
            if not rounds[-1]["usable"]:
                log(f"round {i}: the kernel did not answer; restarting it")
                kernel.close()
                kernel = Kernel()
                kernel.run("%load_ext jupyter_codecheck")
            if i % 10 == 0:
                log(f"{i} rounds, {sum(not r['missed'] for r in rounds)}/{interrupts} interrupted, "
                    f"{time.monotonic() - t0:.0f} s")
    finally:
        kernel.close()
    hit = [r for r in rounds if not r["missed"]]
    return {
        "data": str(data), "seed": seed, "cells": len(cells), "median_check_s": round(statistics.median(check_s), 3),
        "rounds": len(rounds),
        "interrupts": sum(2 if r["twice"] else 1 for r in hit),
        "interrupted_checks": len(hit),
        "double_interrupts": sum(r["twice"] for r in hit),
        "missed": len(rounds) - len(hit),
        "cancelled_with_partial_result": sum(r["cancelled"] for r in hit),
        "ended_by_keyboard_interrupt": sum(r["error"] == "KeyboardInterrupt" for r in hit),
        "other_errors": sorted({r["error"] for r in hit if r["error"] not in (None, "KeyboardInterrupt")}),
        "reply_lost": sum(r["status"] == "no reply" for r in hit),
        "hung": sum(r["status"] == "hung" for r in rounds),
        "usable_after": sum(r["usable"] for r in rounds),
        "context_recorded_after": sum(r.get("context_recorded", False) for r in rounds),
        "next_check_same": sum(r["next_check"] == "same" for r in rounds),
        "mismatches": sum(r["next_check"] != "same" for r in rounds),
        "mismatch_examples": [r for r in rounds if r["next_check"] != "same"][:5],
        "reply_lost_rounds": [r for r in rounds if r["status"] == "no reply"][:5],
        "seconds": round(time.monotonic() - t0, 1),
    }


def passed(report: dict) -> bool:
    return (report["usable_after"] == report["rounds"] and report["mismatches"] == 0 and report["hung"] == 0
            and report["context_recorded_after"] == report["rounds"]
            and not report["other_errors"])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", type=Path, help="cells: a .jsonl of notebook cells, a notebook, a .py, or a folder")
    ap.add_argument("--interrupts", type=int, default=100, help="checks to interrupt")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--double", type=float, default=0.2, help="share of rounds interrupted twice in a row")
    ap.add_argument("--cells", type=int, default=12, help="distinct cells drawn from DATA")
    args = ap.parse_args(argv)
    require("bench/kernel_interrupts.py", paths=[args.data])
    report = run(args.data, interrupts=args.interrupts, seed=args.seed, double=args.double, max_cells=args.cells,
                 log=lambda m: print(m, file=sys.stderr, flush=True))
    print(f"interrupts {report['interrupts']} (in {report['interrupted_checks']} checks; {report['missed']} "
          f"checks ended first), usable after {report['usable_after']}/{report['rounds']}, "
          f"mismatches {report['mismatches']}", file=sys.stderr)
    print(json.dumps(report, ensure_ascii=True))
    return 0 if passed(report) else 1


if __name__ == "__main__":
    sys.exit(main())
