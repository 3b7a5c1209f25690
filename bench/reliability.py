"""Source fuzzing (issue 27): random and mutated cells through check(), random and mutated files
and notebooks through the command line. Never a crash or a traceback: either a clear error, or a
result whose tokens cover the input exactly.

    python bench/reliability.py --count 10000 --seed 1     # [--cli-every 4] [--limit-s 120] [--threads 1]

Cells are real code (the examples, a few notebook cells written here) mutated by: random
character edits (NUL, control characters, Unicode, lone surrogates among them), mixed line
endings, tabs against spaces, a 100k-character line, deeply nested brackets, every magic form,
truncation, and undecodable bytes. Every `--cli-every`-th input is also written as a file (a .py,
or a notebook: malformed JSON, missing fields, wrong types, nbformat 3, outputs of every type) and
run through the command line's `main()` in this process (the model loads once); at the end one
real `jupyter-codecheck` process runs over all those files together.

Counted, per path: inputs tried; results (tokens cover the input exactly); clear errors (the
documented ones: ContextFullError, SourceError, an OptionError; for check(), a UnicodeError on a
source that is not text, i.e. holds a lone surrogate); crashes (any other exception, a traceback
printed, an exit code outside 0/1/2, or a result whose tokens do not cover the input); hangs (over
`--limit-s` seconds). The last line is one JSON object with the counts.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

SEED_CELLS = [
    "import math\n\ndef area(r):\n    return math.pi * r ** 2\n\nprint(area(2))\n",
    "total = 0\nfor v in [3, 1, 2]:\n    total += v\nprint('total:', total)\n",
    "données = [3, 1, 2]\ntriées = sorted(données)\nprint(triées[0])\n",
    ("class Point:\n    def __init__(self, x, y):\n        self.x = x\n        self.y = y\n\n"
     "    def norm(self):\n        return (self.x ** 2 + self.y ** 2) ** 0.5\n"),
    "with open('data.csv') as f:\n    rows = [line.split(',') for line in f]\nprint(len(rows))\n",
    "%matplotlib inline\nimport numpy as np\nxs = np.linspace(0, 1, 10)\nprint(xs.mean())\n",
    "try:\n    value = int('x')\nexcept ValueError as e:\n    print(e)\nfinally:\n    pass\n",
    "squares = {k: k * k for k in range(5)}\nprint(f'{squares[3]=}')\n",
    "async def fetch():\n    return 1\n\nresult = await fetch()\n",
    "def f(x)\n    retrun x\n",
]

MAGIC_LINES = [
    "%time x = 1", "%timeit -n1 sum([1])", "!ls -la", "files = !ls", "x = %pwd", "obj?", "obj??",
    "?obj", "%alias ll ls -l", "!!ls", ">>> 1 + 1", "... 2", "In [3]: y = 2", "%load_ext autoreload",
    "%config Completer.use_jedi = False", "print(x)?", "%who", "%%", "%", "!", "%env A=1",
    "get_ipython().run_line_magic('time', 'x')", "%%capture out", "%%time", "%%bash",
]
CELL_MAGICS = ["%%time\n", "%%capture out\n", "%%bash\necho hi\n", "%%html\n<b>x</b>\n",
               "%%timeit -n1\n", "%%writefile f.py\n", "%%codecheck --prob 0.1\n", "%%script python\n"]
ODD_CHARS = ["\x00", "\r", "\t", "\x0c", "\x0b", "\x1b", "\u2028", "\u2029", "\ufeff", "\u00a0",
             "é", "π", "🙂", "\u200b", "\udc80", "\ud800", "\\", "'", '"', "#", "(", ")", "[",
             "]", "{", "}", ":", "\n", " ", "=", ".", ",", "0", "x", "_"]


def seed_cells() -> list[str]:
    cells = list(SEED_CELLS)
    for path in sorted((REPO / "examples").glob("*.py")):
        if path.name != "conftest.py":
            cells.append(path.read_text(encoding="utf-8"))
    for path in sorted((REPO / "examples").glob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        cells += ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
                  for c in nb.get("cells", []) if c.get("cell_type") == "code"]
    return [c for c in cells if c.strip()]


# -- mutations of a cell --------------------------------------------------------------------------

def _edit_chars(rng, s):
    s = list(s)
    for _ in range(rng.randint(1, 8)):
        pos = rng.randint(0, len(s))
        op = rng.random()
        if op < 0.4 or not s:
            s.insert(pos, rng.choice(ODD_CHARS))
        elif op < 0.7:
            del s[min(pos, len(s) - 1)]
        else:
            s[min(pos, len(s) - 1)] = rng.choice(ODD_CHARS)
    return "".join(s)


def _line_endings(rng, s):
    return "".join(ch if ch != "\n" else rng.choice(["\n", "\r\n", "\r", "\n"]) for ch in s)


def _tabs(rng, s):
    return "".join(ln.replace("    ", "\t", rng.randint(0, 2)) if rng.random() < 0.5 else ln
                   for ln in s.splitlines(keepends=True))


def _long_line(rng, s):
    n = 100_000
    line = rng.choice(["x = '" + "a" * n + "'", "y = " + "1 + " * (n // 4) + "1", "# " + "z" * n,
                       "s = " + "é" * n])
    lines = s.splitlines(keepends=True)
    lines.insert(rng.randint(0, len(lines)), line + "\n")
    return "".join(lines)


def _nesting(rng, s):
    # beyond the parser's 200 levels; the short ones stay inside the model's window
    depth = rng.choice([210, 5000])
    o, c = rng.choice(["()", "[]", "{}"])
    return s + "z = " + o * depth + c * depth + "\n"


def _magic(rng, s):
    lines = s.splitlines(keepends=True)
    for _ in range(rng.randint(1, 3)):
        lines.insert(rng.randint(0, len(lines)), rng.choice(MAGIC_LINES) + "\n")
    text = "".join(lines)
    return rng.choice(CELL_MAGICS) + text if rng.random() < 0.3 else text


def _truncate(rng, s):
    return s[:rng.randint(0, len(s))]


def _bytes(rng, s):
    data = bytearray(s.encode("utf-8", "surrogatepass"))
    for _ in range(rng.randint(1, 6)):
        data.insert(rng.randint(0, len(data)), rng.randint(0x80, 0xFF))
    return data.decode("utf-8", "surrogateescape")     # what a file read with surrogateescape gives


MUTATIONS = {"chars": (_edit_chars, 30), "line_endings": (_line_endings, 10), "tabs": (_tabs, 10),
             "long_line": (_long_line, 3), "nesting": (_nesting, 1), "magic": (_magic, 20),
             "truncate": (_truncate, 10), "bytes": (_bytes, 5)}


def make_cell(rng, seeds) -> tuple[str, list[str]]:
    src = rng.choice(seeds)
    names, weights = zip(*((k, w) for k, (_, w) in MUTATIONS.items()))
    applied = rng.choices(names, weights, k=rng.randint(1, 3))
    if "nesting" in applied and "long_line" in applied:
        applied.remove("nesting")
    for name in applied:
        src = MUTATIONS[name][0](rng, src)
    return src, applied


# -- notebooks ----------------------------------------------------------------------------------

OUTPUTS = [
    {"output_type": "stream", "name": "stdout", "text": ["1\n"]},
    {"output_type": "stream", "name": "stderr", "text": "warn\n"},
    {"output_type": "execute_result", "execution_count": 1, "data": {"text/plain": ["1"]}, "metadata": {}},
    {"output_type": "display_data", "data": {"image/png": "iVBORw0KGgo=", "text/html": "<b>x</b>"},
     "metadata": {"image/png": {"width": 10}}},
    {"output_type": "error", "ename": "NameError", "evalue": "x", "traceback": ["\x1b[31mx"]},
    {"output_type": "update_display_data", "data": {}, "metadata": {}},
    {"output_type": "pyout", "prompt_number": 1, "text": ["1"]},            # nbformat 3
    {"output_type": "unknown-kind"}, "not an output", None,
]


def make_notebook(rng, cells: list[str]) -> tuple[str, str]:
    """A notebook's text from cells (maybe not valid JSON or not a valid notebook) and its kind."""
    kind = rng.choices(["v4", "v4-lines", "v3", "missing", "types", "malformed", "deep", "other-lang"],
                       [30, 20, 10, 10, 10, 10, 3, 3])[0]
    code = [{"cell_type": "code", "execution_count": None, "metadata": {},
             "outputs": rng.sample(OUTPUTS, rng.randint(0, 4)),
             "source": c.splitlines(keepends=True) if kind == "v4-lines" else c} for c in cells]
    code.insert(rng.randint(0, len(code)), {"cell_type": "markdown", "metadata": {}, "source": "# t"})
    nb = {"cells": code, "metadata": {"kernelspec": {"name": "python3", "language": "python"}},
          "nbformat": 4, "nbformat_minor": 5}
    if kind == "v3":
        nb = {"worksheets": [{"cells": [{"cell_type": "code", "input": c["source"], "outputs": c["outputs"],
                                        "language": "python"} for c in code if c["cell_type"] == "code"]}],
              "metadata": {}, "nbformat": 3, "nbformat_minor": 0}
    elif kind == "missing":
        victim = rng.choice(["cells", "source", "cell_type", "metadata", "outputs"])
        if victim == "cells":
            nb.pop("cells")
        else:
            for c in code:
                c.pop(victim, None)
    elif kind == "types":
        target = rng.choice(["cells", "source", "metadata", "cell", "lang"])
        junk = rng.choice([None, 5, "text", [1, 2], {"a": 1}, True])
        if target == "cells":
            nb["cells"] = junk
        elif target == "source":
            rng.choice(code)["source"] = junk
        elif target == "metadata":
            nb["metadata"] = junk
        elif target == "lang":
            nb["metadata"]["kernelspec"] = junk
        else:
            code[rng.randrange(len(code))] = junk
    elif kind == "other-lang":
        nb["metadata"] = {"kernelspec": {"name": "ir", "language": "R"}}
    text = json.dumps(nb, indent=rng.choice([None, 1]), ensure_ascii=rng.random() < 0.5)
    if kind == "malformed":
        text = rng.choice([text[:rng.randint(0, len(text))], text.replace(":", "", 1), text + "}",
                           "\ufeff" + text, text.replace('"', "'", 3), ""])
    elif kind == "deep":
        text = text[:-1] + ', "x": ' + "[" * 50_000 + "]" * 50_000 + "}"
    return text, kind


# -- running one input ------------------------------------------------------------------------------

class Hang(BaseException):      # not an Exception: no `except Exception` of the checker may swallow it
    pass


@contextlib.contextmanager
def time_limit(seconds: float):
    def on_alarm(signum, frame):
        raise Hang()
    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _raw(src: str) -> bytes:
    """The bytes of a file holding `src`: undecodable bytes back as they were (surrogateescape),
    any other lone surrogate as its own invalid UTF-8."""
    try:
        return src.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return src.encode("utf-8", "surrogatepass")


def _is_text(src: str) -> bool:
    try:
        src.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


def covers(result, src: str) -> str | None:
    """Why the result's tokens do not cover the source exactly (None: they do)."""
    data = src.encode("utf-8")
    pos = 0
    for t in result.tokens:
        if t.start != pos or t.end < t.start:
            return f"token {t.index} spans [{t.start}, {t.end}) after byte {pos}"
        pos = t.end
    if pos != len(data) or "".join(t.text for t in result.tokens) != src:
        return f"tokens end at byte {pos} of {len(data)}"
    if not isinstance(result.corrected, str):
        return "no corrected text"
    return None


def run_check(src: str, limit_s: float, **options) -> tuple[str, str]:
    """('result' | 'clear' | 'crash' | 'hang', detail)"""
    from jupyter_codecheck import check
    from jupyter_codecheck.core.errors import ContextFullError, OptionError
    try:
        with time_limit(limit_s):
            result = check(src, **options)
    except Hang:
        return "hang", f"over {limit_s} s"
    except (ContextFullError, OptionError) as e:
        return "clear", f"{type(e).__name__}: {e}"
    except UnicodeError as e:
        if not _is_text(src):
            return "clear", f"{type(e).__name__}: {e}"
        return "crash", traceback.format_exc(limit=-3)
    except Exception:  # noqa: BLE001 - what this counts
        return "crash", traceback.format_exc(limit=-3)
    why = covers(result, src)
    return ("crash", f"spans: {why}") if why else ("result", "")


def run_cli(path: Path, limit_s: float, extra=()) -> tuple[str, str]:
    """The command line's main() on one file, in this process."""
    from jupyter_codecheck.views import cli
    out, err = io.StringIO(), io.StringIO()
    try:
        with time_limit(limit_s), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main([str(path), "--format", "json", *extra])
    except Hang:
        return "hang", f"over {limit_s} s"
    except BaseException:  # noqa: BLE001 - an exception out of main() is a traceback for the user
        return "crash", traceback.format_exc(limit=-3)
    text = err.getvalue()
    if "Traceback" in text or code not in (0, 1, 2):
        return "crash", f"exit {code}: {text[-500:]}"
    if code == 2:
        return ("clear", text.strip()) if "error:" in text else ("crash", f"exit 2 without a message: {text!r}")
    try:
        json.loads(out.getvalue())
    except ValueError:
        return "crash", f"exit {code} but stdout is not JSON: {out.getvalue()[:200]!r}"
    return "result", ""


def fuzz(count: int, seed: int, *, cli_every: int = 4, limit_s: float = 120.0, process: bool = True,
         threads: int | None = 1, log=print) -> dict:
    rng = random.Random(seed)
    seeds = seed_cells()
    counts = {p: {"tried": 0, "result": 0, "clear": 0, "crash": 0, "hang": 0} for p in ("check", "cli")}
    crashes: list[dict] = []
    by_mutation: dict[str, int] = {}
    slowest: list[tuple] = []
    t0 = time.perf_counter()
    options = {"lens": False, "n_threads": threads}   # no exit maps to fit on a fresh machine
    cli_args = ("--threads", str(threads)) if threads else ()
    with tempfile.TemporaryDirectory(prefix="codecheck-fuzz-") as tmp:
        files = []
        for i in range(count):
            src, applied = make_cell(rng, seeds)
            for name in applied:
                by_mutation[name] = by_mutation.get(name, 0) + 1
            t = time.perf_counter()
            outcome, detail = run_check(src, limit_s, **options)
            slowest.append((round(time.perf_counter() - t, 2), "+".join(applied), outcome))
            counts["check"]["tried"] += 1
            counts["check"][outcome] += 1
            if outcome in ("crash", "hang"):
                crashes.append({"path": "check", "input": i, "mutations": applied, "source": src[:300],
                                "detail": detail[-800:]})
                log(f"[{i}] check {outcome}: {detail.strip().splitlines()[-1] if detail.strip() else ''}")
            if cli_every and i % cli_every == 0:
                if rng.random() < 0.5:
                    path = Path(tmp) / f"in{i:06d}.py"
                    path.write_bytes(_raw(src) if rng.random() < 0.8 else src.encode("utf-16", "surrogatepass"))
                    kind = "py"
                else:
                    text, kind = make_notebook(rng, [src] + [rng.choice(seeds) for _ in range(rng.randint(0, 2))])
                    path = Path(tmp) / f"in{i:06d}.ipynb"
                    path.write_bytes(text.encode("utf-8", "surrogatepass"))
                files.append(path)
                outcome, detail = run_cli(path, limit_s, cli_args)
                counts["cli"]["tried"] += 1
                counts["cli"][outcome] += 1
                if outcome in ("crash", "hang"):
                    crashes.append({"path": "cli", "input": i, "kind": kind, "file": path.name,
                                    "detail": detail[-800:]})
                    log(f"[{i}] cli ({kind}) {outcome}: {detail.strip().splitlines()[-1] if detail.strip() else ''}")
            if (i + 1) % 100 == 0:
                log(f"{i + 1}/{count} inputs, {time.perf_counter() - t0:.0f} s: "
                    + json.dumps({p: c for p, c in counts.items()}))
        process_run = None
        if process and files:
            # one real process over every file written: what a user's shell sees
            run = subprocess.run([sys.executable, "-m", "jupyter_codecheck", "--format", "json", *cli_args,
                                  *map(str, files)],
                                 capture_output=True, text=True, errors="replace", check=False,
                                 timeout=max(600.0, limit_s * len(files)))
            process_run = {"files": len(files), "exit": run.returncode,
                           "traceback": "Traceback" in run.stderr}
    return {"seed": seed, "inputs": count, "check": counts["check"], "cli": counts["cli"],
            "cli_process": process_run, "mutations": by_mutation,
            "crashes": sum(c["crash"] for c in counts.values()),
            "hangs": sum(c["hang"] for c in counts.values()),
            "seconds": round(time.perf_counter() - t0, 1),
            "check_seconds_median": sorted(x[0] for x in slowest)[len(slowest) // 2] if slowest else None,
            "slowest_checks": sorted(slowest, reverse=True)[:5], "crash_examples": crashes[:5]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=1000, help="cells to try through check()")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cli-every", type=int, default=4,
                    help="every N-th input also goes through the command line as a file (0: none)")
    ap.add_argument("--limit-s", type=float, default=120.0, help="seconds before an input counts as a hang")
    ap.add_argument("--no-process", action="store_true", help="skip the final real CLI process")
    ap.add_argument("--threads", type=int, default=1,
                    help="engine threads (default 1: the fuzzer looks for crashes, not speed; 0: the default)")
    args = ap.parse_args(argv)
    report = fuzz(args.count, args.seed, cli_every=args.cli_every, limit_s=args.limit_s,
                  process=not args.no_process, threads=args.threads or None, log=lambda m: print(m, file=sys.stderr, flush=True))
    print(json.dumps(report, ensure_ascii=True))
    ok = report["crashes"] == 0 and report["hangs"] == 0 and not (report["cli_process"] or {}).get("traceback")
    return 0 if ok else 1


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
