"""What the benchmarks that run notebooks in a real IPython shell share: the notebooks, the
shell, the facts read before a cell exactly as `%%codecheck` reads them, and what a fact claims.

    books = notebooks(Path("notebook_clean.jsonl"), limit=0)      # [(name, cells), ...]
    shell = new_shell()                                           # in the worker process
    rec = read_facts(cell, shell.user_ns)                         # {"facts": [...], "undefined": [...]}
    claims(source, rec)                                           # [(kind, expected exceptions), ...]

The worker processes import this module (bench/ is on their PYTHONPATH, see `worker_env`);
`bench/kernel_precision.py` and `bench/notebook_mutations.py` use it.
"""
from __future__ import annotations

import ast
import json
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT.parent / "shared" / "benchmarks"
# what a user runs first: a plot (its PNG is the first large message: pyzmq's garbage-collector
# thread starts), a large print, and a library that leaves threads running (joblib's loky pool)
OPENING = [
    "%matplotlib inline\nimport matplotlib.pyplot as plt\nimport numpy as np\n"
    "plt.imshow(np.random.default_rng(1).random((400, 400))); plt.show()",
    "print('x' * 200_000)",
    "from joblib import Parallel, delayed\nsquares = Parallel(n_jobs=2)(delayed(pow)(i, 2) for i in range(8))",
]
EXPECTED = {"attribute": "AttributeError", "key": "KeyError", "call": "TypeError", "undefined-name": "NameError"}
# a call fact on a scikit-learn estimator: unfitted, its call fails with any of these; on other
# columns, with ValueError
UNFITTED = ("NotFittedError", "AttributeError", "ValueError")
# BLAS and OpenMP pools stay single-threaded: a forked child holds no other thread's lock, and
# the machine's cores are shared
SINGLE_THREADED = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
                   "NUMEXPR_NUM_THREADS": "1", "VECLIB_MAXIMUM_THREADS": "1", "TQDM_DISABLE": "1"}


def expected_exceptions(fact: dict) -> tuple[str, ...]:
    """The exception names a kernel fact (KernelFact.to_dict()) says the cell raises."""
    message = fact.get("message", "")
    if "not fitted yet" in message:
        return UNFITTED
    if message.endswith(": ValueError") or ": ValueError;" in message:
        return ("ValueError",)
    if fact["kind"] == "value":         # facts/values.py: the exception follows the colon
        return (message.rpartition(": ")[2].split(" ")[0],)
    return (EXPECTED.get(fact["kind"]),)


def notebooks(path: Path, limit: int) -> list[tuple[str, list[str]]]:
    """Each notebook's cells up to its last sampled one (the longest `earlier_cells` + cell)."""
    best: dict[str, dict] = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            key = f"{row['meta']['repo']}/{row['meta']['path']}"
            if key not in best or len(row["earlier_cells"]) > len(best[key]["earlier_cells"]):
                best[key] = row
    out = [(k, [*r["earlier_cells"], r["cell"]]) for k, r in sorted(best.items())]
    return out[:limit] if limit else out


def worker_env() -> dict:
    """A worker's environment: this checkout and bench/ importable, plots drawn off screen."""
    path = [str(ROOT), str(ROOT / "bench"), os.environ.get("PYTHONPATH", "")]
    return dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in path if p), MPLBACKEND="Agg",
                **SINGLE_THREADED)


def run_worker(worker: str, args: list, cells: list[str], timeout_s: float) -> list[dict]:
    """Run a notebook's cells in a worker process of their own (`worker`: Python code given the
    path of its output and `args` on its command line, the cells as JSON on stdin), in an empty
    folder; the JSON lines it wrote, also when it was stopped past `timeout_s`."""
    with tempfile.TemporaryDirectory() as tmp:
        out, work = Path(tmp) / "cells.jsonl", Path(tmp) / "work"
        work.mkdir()
        failed = None
        try:
            done = subprocess.run([sys.executable, "-c", worker, str(out), *map(str, args)], input=json.dumps(cells),
                                  capture_output=True, text=True, cwd=work, env=worker_env(), timeout=timeout_s)
            if done.returncode != 0:
                failed = f"exit code {done.returncode}: {done.stderr.strip().splitlines()[-1:] or ['']}"
        except subprocess.TimeoutExpired:
            failed = f"stopped after {timeout_s:.0f} s"
        text = out.read_text(encoding="utf-8") if out.exists() else ""
    records = [json.loads(line) for line in text.splitlines() if line.strip()]
    if failed is not None:
        # said, not silent: a notebook whose worker broke (a code tree that does not import, a
        # crash) would otherwise only show as fewer cells run
        print(f"warning: the worker for {args[0] if args else '?'} ended early ({failed}); "
              f"{len(records)} of {len(cells)} cells recorded", file=sys.stderr, flush=True)
    return records


class Timeout(BaseException):
    """A cell ran past its time (raised by SIGALRM inside the cell)."""


def _alarm(*_):
    raise Timeout()


def new_shell():
    """An IPython shell as a notebook's kernel has it, without shell commands (`!pip install`)
    and with its history in memory (`In`, as a kernel keeps it; a database's writer thread would
    not survive a fork)."""
    os.environ["MPLBACKEND"] = "Agg"
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config
    config = Config()
    config.HistoryManager.hist_file = ":memory:"
    shell = InteractiveShell.instance(config=config)
    shell.system = lambda *a, **k: None
    shell.getoutput = lambda *a, **k: []
    signal.signal(signal.SIGALRM, _alarm)
    return shell


def run_cell(shell, source: str, timeout: int, silent: bool = True) -> list | None:
    """Run one cell as the notebook does; its error as [type name, message, [names of the
    type's classes]] (None: it ran), ["Timeout", ""] past `timeout` seconds. Not `silent`: the
    value of its last expression is displayed, as a notebook shows it."""
    if silent:      # a kernel keeps every cell in its history (`In`); IPython's silent run would not
        shell.history_manager.store_inputs(shell.execution_count, source)
        shell.execution_count += 1
    signal.alarm(timeout)
    try:
        res = shell.run_cell(source, store_history=not silent, silent=silent)
        err = res.error_in_exec or res.error_before_exec
        if err is None:
            return None
        return [type(err).__name__, str(err)[:200], [k.__name__ for k in type(err).__mro__]]
    except Timeout:
        return ["Timeout", "", []]
    finally:
        signal.alarm(0)


def read_facts(source: str, namespace) -> dict:
    """The kernel facts and Python's undefined names of a cell, read just before it runs from the
    namespace it runs in, as auto mode reads them (the libraries it begins by importing too)."""
    from jupyter_codecheck.facts import kernel_facts, kernel_state
    from jupyter_codecheck.pytext.pycheck import analyse
    try:
        state = kernel_state(namespace, when="before-run")
        facts = [f.to_dict() for f in kernel_facts(source, state.objects, libraries="leading")]
        undefined = [[u.name, u.line, u.column] for u in analyse(source, None, state.defined).undefined]
    except Exception as e:  # noqa: BLE001 - a crash of the reader is recorded, not raised
        facts, undefined = [{"kind": "crash", "message": repr(e)}], []
    return {"facts": facts, "undefined": undefined}


def in_function(source: str, line: int, col: int) -> bool:
    """Is the place inside a function or lambda the cell defines (it runs when called)?"""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return False
    return any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
               and (n.lineno, n.col_offset) <= (line, col) <= (n.end_lineno, n.end_col_offset)
               for n in ast.walk(tree))


def claims(source: str, rec: dict) -> list[tuple[str, tuple[str, ...]]]:
    """(kind, the exceptions it names) for every claim the facts make on the cell: each kernel
    fact, and one undefined-name claim when a name is undefined outside the cell's functions."""
    top = [u for u in rec["undefined"] if not in_function(source, u[1], u[2])]
    return [(f["kind"], expected_exceptions(f)) for f in rec["facts"]] + [("undefined-name", ("NameError",))] * bool(top)
