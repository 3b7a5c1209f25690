"""What a benchmark needs before it starts: packages, commands and data files, checked in one go.

Every benchmark calls `require(...)` first: a missing piece ends it at once (exit code 2) with
the install command, not minutes later with a traceback or a silently smaller run.
"""
from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

INSTALL = "pip install '.[bench]' (or: make bench)"
# import name -> distribution name, where they differ (the message names what pip installs)
DISTRIBUTIONS = {"sklearn": "scikit-learn", "PIL": "pillow", "IPython": "ipython", "llama_cpp": "llama-cpp-python",
                 "jupyter_client": "jupyter-client"}
# what a benchmark that runs stand-in notebooks (bench/notebook_standins.py) imports: JunoBench's
# notebooks' libraries; without them their cases would be checked as code only
NOTEBOOK_LIBRARIES = ("numpy", "pandas", "sklearn", "scipy", "matplotlib", "seaborn", "PIL")
EXIT_CODE = 2


def command(name: str) -> str | None:
    """The path of a command-line tool: the one installed beside this Python first (a venv's
    bin/ need not be on PATH), then PATH's."""
    beside = Path(sys.executable).parent / name
    if beside.is_file():
        return str(beside)
    return shutil.which(name)


def missing_tools(packages=(), commands=()) -> list[str]:
    """One line for each package not importable and each command not found."""
    out = []
    for name in packages:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            dist = DISTRIBUTIONS.get(name, name)
            out.append(f"the Python package {dist!r}" + (f" (import {name})" if dist != name else ""))
    out += [f"the command {name!r} (neither beside {sys.executable} nor on PATH)" for name in commands
            if command(name) is None]
    return out


def require(benchmark: str, packages=(), commands=(), paths=()) -> None:
    """Exit with EXIT_CODE and a message naming every missing piece (and, for packages and
    commands, the install command) when anything the benchmark needs is not here."""
    tools = missing_tools(packages, commands)
    data = [f"the data path {str(p)!r}" for p in paths if not Path(p).exists()]
    if not tools and not data:
        return
    lines = [f"error: {benchmark} cannot start; missing:", *(f"  - {x}" for x in tools + data)]
    if tools:
        lines.append(f"install the benchmarks' requirements: {INSTALL}")
    print("\n".join(lines), file=sys.stderr, flush=True)
    sys.exit(EXIT_CODE)
