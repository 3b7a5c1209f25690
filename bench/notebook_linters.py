"""The baselines of bench/notebook_crashes.py: a notebook linter's view of the same cells (the
earlier cells and the target in one file, magics commented out, messages on the target's lines)
from pyflakes, ruff (its default rules and the classic E4,E7,E9,F) and pylint (errors only),
cached on disk by the tool's version.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from jupyter_codecheck.pytext.sources import is_python_cell

from disk_cache import DiskCache
from notebook_standins import comment_magics
from requirements import command


# -- baselines: a notebook linter's view --------------------------------------------------------------

def linter_file(earlier: list[str], target: str) -> tuple[str, int, int]:
    """The earlier cells and the target in one file, magics and shell lines commented out (a
    non-Python cell wholly); returns (text, first target line, last target line)."""
    parts = []
    for c in earlier:
        if not c.strip():
            continue
        text = comment_magics(c) if is_python_cell(c) else "\n".join("# " + ln for ln in c.split("\n"))
        parts.append(text.rstrip("\n") + "\n")
    head = "".join(parts)
    first = head.count("\n") + 1
    body = comment_magics(target).rstrip("\n") + "\n"
    return head + body, first, first + body.count("\n") - 1


def _tool_version(name: str) -> str:
    try:
        from importlib.metadata import version
        return version(name.removesuffix("-classic"))
    except Exception:       # noqa: BLE001
        return "?"


class LintCache:
    """Per tool and file text: the messages [(line, code)], kept on disk."""

    def __init__(self, directory: Path, fresh: bool):
        self.dir, self.fresh = directory, fresh

    def _disk(self, tool: str) -> DiskCache:
        return DiskCache(self.dir / tool, self.fresh)

    def get(self, tool: str, text: str):
        got = self._disk(tool).get(f"{tool}\0{_tool_version(tool)}\0{text}")
        return json.loads(got) if got is not None else None

    def put(self, tool: str, text: str, messages) -> None:
        self._disk(tool).put(f"{tool}\0{_tool_version(tool)}\0{text}", json.dumps(messages))


def pyflakes_messages(text: str) -> list:
    from pyflakes import api

    class Collect:
        def __init__(self):
            self.out = []

        def unexpectedError(self, filename, msg):
            self.out.append([1, "error"])

        def syntaxError(self, filename, msg, lineno, offset, text):
            self.out.append([lineno or 1, "syntax"])

        def flake(self, message):
            self.out.append([message.lineno, type(message).__name__])
    rep = Collect()
    api.check(text, "<cell>", rep)
    return rep.out


def _tool(name: str) -> str:
    return command(name) or name


def ruff_messages(texts: list[str], select: str | None = None) -> list[list]:
    """ruff over all files in one run (one file each): its default rules, or `select`."""
    out: list[list] = [[] for _ in texts]
    with tempfile.TemporaryDirectory() as d:
        for k, s in enumerate(texts):
            Path(d, f"f{k}.py").write_text(s)
        p = subprocess.run([_tool("ruff"), "check", "--isolated", "--no-cache", "--output-format", "json",
                            "--exit-zero", *(["--select", select] if select else []), d],
                           capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"ruff failed: {p.stderr.strip()}")
        for item in json.loads(p.stdout or "[]"):
            k = int(Path(item["filename"]).stem[1:])
            out[k].append([(item.get("location") or {}).get("row") or 1, item.get("code") or "syntax"])
    return out


def pylint_messages(texts: list[str]) -> list[list]:
    """pylint's error category (E) over all files in one run (one file each)."""
    out: list[list] = [[] for _ in texts]
    if not texts:
        return out
    with tempfile.TemporaryDirectory() as d:
        files = []
        for k, s in enumerate(texts):
            f = Path(d, f"f{k}.py")
            f.write_text(s)
            files.append(str(f))
        p = subprocess.run([_tool("pylint"), "--disable=all", "--enable=E", "--output-format=json",
                            "--score=n", "--persistent=n", "--jobs=1", *files],
                           capture_output=True, text=True, cwd=d)
        if p.returncode & 32 or not p.stdout.strip().startswith("["):
            raise RuntimeError(f"pylint failed ({p.returncode}): {p.stderr.strip()[:500]}")
        for item in json.loads(p.stdout or "[]"):
            k = int(Path(item["path"]).stem[1:])
            out[k].append([item.get("line") or 1, item.get("message-id", "E") + ":" + item.get("symbol", "")])
    return out


def run_baselines(texts: list[str], cache: LintCache) -> dict[str, list[list]]:
    """Messages per tool and file."""
    result = {}
    tools = (("pyflakes", None), ("ruff", ruff_messages),
             ("ruff-classic", lambda ts: ruff_messages(ts, RUFF_CLASSIC)), ("pylint", pylint_messages))
    for tool, fn in tools:
        got = [cache.get(tool, t) for t in texts]
        todo = sorted({t for t, g in zip(texts, got) if g is None})
        if todo:
            t0 = time.perf_counter()
            print(f"{tool}: {len(todo)} files", file=sys.stderr, flush=True)
            msgs = [pyflakes_messages(t) for t in todo] if tool == "pyflakes" else fn(todo)
            for t, m in zip(todo, msgs):
                cache.put(tool, t, m)
            print(f"{tool}: {time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
            done = dict(zip(todo, msgs))
            got = [g if g is not None else done[t] for t, g in zip(texts, got)]
        result[tool] = got
    return result


# baseline variants: (tool, filter of message codes); flagged = any kept message on the target
# ruff's default rules grew (0.17: B, I, RUF, UP, ...: B018 flags a cell's displayed last
# expression once the cells are one file); its former defaults, pyflakes and pycodestyle's
# errors, are a variant
RUFF_CLASSIC = "E4,E7,E9,F"
LINT_TOOLS = ("pyflakes", "ruff", "ruff-classic", "pylint")
BASELINES = {
    "pyflakes": ("pyflakes", lambda c: True),
    "pyflakes (undefined names)": ("pyflakes", lambda c: c in ("UndefinedName", "UndefinedLocal", "syntax")),
    "ruff": ("ruff", lambda c: True),
    f"ruff --select {RUFF_CLASSIC}": ("ruff-classic", lambda c: True),
    f"ruff --select {RUFF_CLASSIC} (no E402)": ("ruff-classic", lambda c: c != "E402"),
    "pylint -E": ("pylint", lambda c: True),
    "pylint -E (no import-error)": ("pylint", lambda c: not c.startswith("E0401")),
}
